package kernel

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkScaleAddRankK runs the rank-k update at k = 1 (compare with
// BenchmarkScaleAddOuter, the same arithmetic) and at k = μ = ⌊λ/2⌋+1, the
// rank-μ update of CMA-ES, on every path. GB/s counts A read and written
// (16·n² bytes, as BenchmarkScaleAddOuter); GFLOP/s counts 2k+1 flops per
// element (α·a, then a multiply-add per term).
//
//	go test -run '^$' -bench 'ScaleAddRankK|ScaleAddOuter' -count 10 ./kernel/ > bench.txt
//	benchstat -col /impl bench.txt
func BenchmarkScaleAddRankK(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 6))
	for _, n := range benchSizes {
		for _, k := range []int{1, lambda(n)/2 + 1} {
			a, p, q := randSlice(r, n*n), randSlice(r, k*n), randSlice(r, k*n)
			beta := make([]float64, k)
			for t := range beta {
				// α + Σβ·p·q near 1 keeps A's magnitude steady over b.N calls.
				beta[t] = 1e-3 / float64(k)
			}
			b.Run(fmt.Sprintf("n=%d/k=%d", n, k), func(b *testing.B) {
				benchPaths(b, func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(16 * n * n))
					for b.Loop() {
						ScaleAddRankK(a, n, 0.999, beta, p, q, k)
					}
					gflops(b, float64((2*k+1)*n*n))
				})
			})
		}
	}
}
