//go:build cgo && amd64

package main

/*
#include <immintrin.h>

// Twelve independent chains of fused multiply-adds per iteration, so that
// latency does not hide the throughput: 12·8·2 flops per iteration with
// 512-bit registers, 12·4·2 with 256-bit ones.

__attribute__((target("avx512f")))
static double peak512(long iters) {
	__m512d a = _mm512_set1_pd(1.0), b = _mm512_set1_pd(1e-9);
	// Distinct starting values keep the compiler from merging the chains.
	__m512d c0 = _mm512_set1_pd(0), c1 = _mm512_set1_pd(1), c2 = _mm512_set1_pd(2), c3 = _mm512_set1_pd(3),
	        c4 = _mm512_set1_pd(4), c5 = _mm512_set1_pd(5), c6 = _mm512_set1_pd(6), c7 = _mm512_set1_pd(7),
	        c8 = _mm512_set1_pd(8), c9 = _mm512_set1_pd(9), c10 = _mm512_set1_pd(10), c11 = _mm512_set1_pd(11);
	for (long i = 0; i < iters; i++) {
		c0 = _mm512_fmadd_pd(a, b, c0);   c1 = _mm512_fmadd_pd(a, b, c1);
		c2 = _mm512_fmadd_pd(a, b, c2);   c3 = _mm512_fmadd_pd(a, b, c3);
		c4 = _mm512_fmadd_pd(a, b, c4);   c5 = _mm512_fmadd_pd(a, b, c5);
		c6 = _mm512_fmadd_pd(a, b, c6);   c7 = _mm512_fmadd_pd(a, b, c7);
		c8 = _mm512_fmadd_pd(a, b, c8);   c9 = _mm512_fmadd_pd(a, b, c9);
		c10 = _mm512_fmadd_pd(a, b, c10); c11 = _mm512_fmadd_pd(a, b, c11);
	}
	__m512d s = _mm512_add_pd(_mm512_add_pd(_mm512_add_pd(c0, c1), _mm512_add_pd(c2, c3)),
	                          _mm512_add_pd(_mm512_add_pd(c4, c5), _mm512_add_pd(c6, c7)));
	s = _mm512_add_pd(s, _mm512_add_pd(_mm512_add_pd(c8, c9), _mm512_add_pd(c10, c11)));
	return _mm512_reduce_add_pd(s);
}

__attribute__((target("avx2,fma")))
static double peak256(long iters) {
	__m256d a = _mm256_set1_pd(1.0), b = _mm256_set1_pd(1e-9);
	// Distinct starting values keep the compiler from merging the chains.
	__m256d c0 = _mm256_set1_pd(0), c1 = _mm256_set1_pd(1), c2 = _mm256_set1_pd(2), c3 = _mm256_set1_pd(3),
	        c4 = _mm256_set1_pd(4), c5 = _mm256_set1_pd(5), c6 = _mm256_set1_pd(6), c7 = _mm256_set1_pd(7),
	        c8 = _mm256_set1_pd(8), c9 = _mm256_set1_pd(9), c10 = _mm256_set1_pd(10), c11 = _mm256_set1_pd(11);
	for (long i = 0; i < iters; i++) {
		c0 = _mm256_fmadd_pd(a, b, c0);   c1 = _mm256_fmadd_pd(a, b, c1);
		c2 = _mm256_fmadd_pd(a, b, c2);   c3 = _mm256_fmadd_pd(a, b, c3);
		c4 = _mm256_fmadd_pd(a, b, c4);   c5 = _mm256_fmadd_pd(a, b, c5);
		c6 = _mm256_fmadd_pd(a, b, c6);   c7 = _mm256_fmadd_pd(a, b, c7);
		c8 = _mm256_fmadd_pd(a, b, c8);   c9 = _mm256_fmadd_pd(a, b, c9);
		c10 = _mm256_fmadd_pd(a, b, c10); c11 = _mm256_fmadd_pd(a, b, c11);
	}
	__m256d s = _mm256_add_pd(_mm256_add_pd(_mm256_add_pd(c0, c1), _mm256_add_pd(c2, c3)),
	                          _mm256_add_pd(_mm256_add_pd(c4, c5), _mm256_add_pd(c6, c7)));
	s = _mm256_add_pd(s, _mm256_add_pd(_mm256_add_pd(c8, c9), _mm256_add_pd(c10, c11)));
	double t[4];
	_mm256_storeu_pd(t, s);
	return t[0] + t[1] + t[2] + t[3];
}
*/
import "C"

import "golang.org/x/sys/cpu"

// peakLoop runs iters iterations of the widest FMA loop this CPU has and
// returns the flops it did (0 if it has neither AVX-512 nor AVX2+FMA).
func peakLoop(iters int) (flops float64, width string) {
	switch {
	case cpu.X86.HasAVX512F:
		C.peak512(C.long(iters))
		return float64(iters) * 12 * 8 * 2, "avx512"
	case cpu.X86.HasAVX2 && cpu.X86.HasFMA:
		C.peak256(C.long(iters))
		return float64(iters) * 12 * 4 * 2, "avx2"
	}
	return 0, ""
}
