package kernel

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkRankFloats ranks populations of λ = 10, 16 and 24 random values
// (16 sets in turn), fused (RankFloats on the current path) and as the
// composed sequence it replaces on AVX-512 (keys, CountLess, scatter,
// insertion).
func BenchmarkRankFloats(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, lam := range []int{10, 16, 24} {
		sets := make([][]float64, 16)
		for i := range sets {
			sets[i] = make([]float64, lam)
			for j := range sets[i] {
				sets[i][j] = r.NormFloat64()
			}
		}
		idx, pos, keys := make([]int, lam), make([]int, lam), make([]int64, 2*lam)
		b.Run(fmt.Sprintf("fused/lambda=%d", lam), func(b *testing.B) {
			i := 0
			for b.Loop() {
				RankFloats(idx, sets[i&15], keys, pos)
				i++
			}
		})
		b.Run(fmt.Sprintf("composed/lambda=%d", lam), func(b *testing.B) {
			i := 0
			for b.Loop() {
				rankFloatsGeneric(idx, sets[i&15], keys, pos)
				i++
			}
		})
	}
}
