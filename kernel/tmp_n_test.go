package kernel

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func BenchmarkTmpK(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{1448} {
		for _, k := range []int{20, 24, 28, 32} {
			a, x, y, p, v := randSlice(r, n*n), randSlice(r, k*n), make([]float64, k*n), randSlice(r, n), randSlice(r, n)
			for _, fused := range []bool{false, true} {
				b.Run(fmt.Sprintf("n=%d/k=%d/fused=%v", n, k, fused), func(b *testing.B) {
					for b.Loop() {
						if fused {
							UpdateMulVecs(y, a, n, 0.999, 1e-3, p, v, x, k)
						} else {
							MulVecs(y, a, n, x, k)
						}
					}
					gflops(b, float64(2*k*n*n))
				})
			}
		}
	}
}
