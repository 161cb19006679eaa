//go:build gc && !purego

package kernel

import "testing"

// BenchmarkPeakFMA measures the single-core peak of double-precision FMA
// throughput on each SIMD width: the ceiling for MulVecs' GFLOP/s.
func BenchmarkPeakFMA(b *testing.B) {
	const iters = 1 << 12
	if useAVX512 {
		b.Run("impl=avx512", func(b *testing.B) {
			for b.Loop() {
				fmaPeakAVX512(iters)
			}
			gflops(b, 192*iters)
		})
	}
	if useAVX2 {
		b.Run("impl=avx2", func(b *testing.B) {
			for b.Loop() {
				fmaPeakAVX2(iters)
			}
			gflops(b, 96*iters)
		})
	}
}
