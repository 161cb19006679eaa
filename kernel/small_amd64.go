//go:build gc && !purego

package kernel

// MulVecs for n ≤ 16 on AVX-512 (small_amd64.s): one call for all vectors,
// blocks of 8 rows of A held in registers. At n = 8 with the paper's
// λ = 10 it replaces four calls of the whole-row tiles, each with
// horizontal sums (eight at n = 16).

// smallMaxN is the largest n of mulVecsSmallAVX512: a row in two registers.
const smallMaxN = 16

// smallVecs bounds the vectors of one assembly call (assembly is not
// preempted): at most 16·16·smallVecs = 65536 multiply-adds a call.
const smallVecs = 256

// useSmall reports whether MulVecs runs on mulVecsSmallAVX512.
func useSmall(n int) bool { return useAVX512 && n <= smallMaxN }

// mulVecsSmall computes MulVecs for 1 ≤ n ≤ smallMaxN on AVX-512.
func mulVecsSmall(y, a []float64, n int, x []float64, k int) {
	for j0 := 0; j0 < k; j0 += smallVecs {
		kb := min(smallVecs, k-j0)
		mulVecsSmallAVX512(y[j0*n:], a, n, x[j0*n:], kb)
	}
}

// mulVecsSmallAVX512 computes, for j < k and r < n, the chain
//
//	y[j*n+r] = fma(a[r*n+n−1], x[j*n+n−1], … fma(a[r*n+1], x[j*n+1], a[r*n]·x[j*n]))
//
// (the columns in order, one rounding each). 1 ≤ n ≤ 16, k ≥ 1,
// len(a) ≥ n·n, len(x) ≥ k·n, len(y) ≥ k·n.
//
//go:noescape
func mulVecsSmallAVX512(y, a []float64, n int, x []float64, k int)
