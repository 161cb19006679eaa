package kernel

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkDotRows and BenchmarkCombineRows time the two passes of the
// limited memory's sampling at its shapes (k = m + 1 stored pairs, λ
// vectors, the defaults at each n), on the path the CPU selects, and
// report GFLOP/s (2·k·λ·n flops each).
func BenchmarkDotRows(b *testing.B) {
	for _, sh := range lowRankShapes() {
		k, lambda, n := sh[0], sh[1], sh[2]
		b.Run(fmt.Sprintf("k=%d/lambda=%d/n=%d", k, lambda, n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			a, z, dst := genVec(r, k*n, kindUniform), genVec(r, lambda*n, kindUniform), make([]float64, k*lambda)
			for b.Loop() {
				DotRows(dst, a, k, z, lambda, n)
			}
			b.ReportMetric(2*float64(k*lambda*n)/(b.Elapsed().Seconds()/float64(b.N))/1e9, "GFLOP/s")
		})
	}
}

func BenchmarkCombineRows(b *testing.B) {
	for _, sh := range lowRankShapes() {
		k, lambda, n := sh[0], sh[1], sh[2]
		b.Run(fmt.Sprintf("k=%d/lambda=%d/n=%d", k, lambda, n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			p, z, x := genVec(r, k*n, kindUniform), genVec(r, lambda*n, kindUniform), make([]float64, lambda*n)
			m, s, c := genVec(r, n, kindUniform), genVec(r, n, kindUniform), genVec(r, lambda*k, kindUniform)
			for b.Loop() {
				CombineRows(x, m, 0.5, s, z, lambda, n, p, k, c)
			}
			b.ReportMetric(2*float64(k*lambda*n)/(b.Elapsed().Seconds()/float64(b.N))/1e9, "GFLOP/s")
		})
	}
}

// lowRankShapes are (k, λ, n) of the limited memory's defaults:
// k = Memory + 1 = 2·(4 + ⌊3 ln n⌋) + 1, λ = 4 + ⌊3 ln n⌋, all slots in
// use; and at n = 10⁵ as a run starts, k = FastMemory + 2 = 11.
func lowRankShapes() [][3]int {
	return [][3]int{{49, 24, 1000}, {63, 31, 10000}, {77, 38, 100000}, {11, 38, 100000}}
}

// BenchmarkCombineRowsOne times CombineRows for a single row against all
// k stored vectors (the weighted step y_w = A·z_w of the limited memory),
// a pass that reads the k rows of p once, and reports the rate it reads
// them at.
func BenchmarkCombineRowsOne(b *testing.B) {
	for _, sh := range lowRankShapes() {
		k, n := sh[0], sh[2]
		b.Run(fmt.Sprintf("k=%d/n=%d", k, n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			p, z, x := genVec(r, k*n, kindUniform), genVec(r, n, kindUniform), make([]float64, n)
			s, c := genVec(r, n, kindUniform), genVec(r, k, kindUniform)
			for b.Loop() {
				CombineRows(x, nil, 1, s, z, 1, n, p, k, c)
			}
			b.ReportMetric(8*float64(k*n)/(b.Elapsed().Seconds()/float64(b.N))/1e9, "GB/s")
		})
	}
}
