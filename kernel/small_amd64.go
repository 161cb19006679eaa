//go:build gc && !purego

package kernel

// MulVecs for n ≤ 8 on AVX-512 (small_amd64.s): one call for all vectors,
// A held in registers. At n = 8 with the paper's λ = 10 it replaces four
// calls of the whole-row tiles, each with horizontal sums.

// smallMaxN is the largest n of mulVecsSmallAVX512: a row in one register.
const smallMaxN = 8

// smallVecs bounds the vectors of one assembly call (assembly is not
// preempted): at most 8·8·smallVecs = 32768 multiply-adds a call.
const smallVecs = 512

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
// (the columns in order, one rounding each). 1 ≤ n ≤ 8, k ≥ 1,
// len(a) ≥ n·n, len(x) ≥ k·n, len(y) ≥ k·n.
//
//go:noescape
func mulVecsSmallAVX512(y, a []float64, n int, x []float64, k int)
