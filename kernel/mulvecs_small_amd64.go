//go:build gc && !purego

package kernel

// MulVecs for small n on AVX-512 (mulvecs_small_avx512_amd64.s): one call for all vectors,
// blocks of 8 rows × 16 columns of A held in registers, no horizontal sums.
// At n = 8 with the paper's λ = 10 it replaces four calls of the whole-row
// tiles (eight at n = 16), each with horizontal sums.

// smallMaxN is the largest n that MulVecs runs on mulVecsSmallAVX512: above
// it the whole-row tiles are as fast (measured: docs/performance.md,
// "Tuning constants").
const smallMaxN = 32

// smallWork bounds the multiply-adds of one assembly call (assembly is not
// preempted).
const smallWork = 1 << 16

// smallCallVecs is the most vectors one call takes at every n ≤ smallMaxN
// (smallWork/smallMaxN²): up to it the calls need no division to split k.
const smallCallVecs = smallWork / (smallMaxN * smallMaxN)

// useSmall reports whether MulVecs runs on mulVecsSmallAVX512.
func useSmall(n int) bool { return useAVX512 && n <= smallMaxN }

// mulVecsSmall computes MulVecs with mulVecsSmallAVX512, n, k ≥ 1.
func mulVecsSmall(y, a []float64, n int, x []float64, k int) {
	if k <= smallCallVecs {
		mulVecsSmallAVX512(y, a, n, x, k)
		return
	}
	step := max(1, smallWork/(n*n))
	for j0 := 0; j0 < k; j0 += step {
		kb := min(step, k-j0)
		mulVecsSmallAVX512(y[j0*n:], a, n, x[j0*n:], kb)
	}
}

// mulVecsSmallAVX512 computes, for j < k and r < n, the chain
//
//	y[j*n+r] = fma(a[r*n+n−1], x[j*n+n−1], … fma(a[r*n+1], x[j*n+1], a[r*n]·x[j*n]))
//
// (the columns in order, one rounding each). n, k ≥ 1, len(a) ≥ n·n,
// len(x) ≥ k·n, len(y) ≥ k·n.
//
//go:noescape
func mulVecsSmallAVX512(y, a []float64, n int, x []float64, k int)

// updateMulVecsSmall computes UpdateMulVecs (all rows) with the update
// applied by the first call of updateMulVecsSmallAVX512, as it loads A:
// the bits of ScaleAddOuter and then mulVecsSmall. n, k ≥ 1.
func updateMulVecsSmall(y, a []float64, n int, alpha, beta float64, p, v, x []float64, k int) {
	kb := k
	if k > smallCallVecs {
		kb = min(k, max(1, smallWork/(n*n)))
	}
	updateMulVecsSmallAVX512(y, a, n, x, kb, alpha, beta, p, v)
	if kb < k {
		mulVecsSmall(y[kb*n:], a, n, x[kb*n:], k-kb)
	}
}

// updateMulVecsSmallAVX512 is mulVecsSmallAVX512 with A ← α·A + β·p·vᵀ
// applied to each block of A as it is loaded, and stored back: each entry
// fma(v[c], fl(β·p[r]), fl(α·a[r*n+c])), the rounding of
// scaleAddOuterAVX512. len(p), len(v) ≥ n.
//
//go:noescape
func updateMulVecsSmallAVX512(y, a []float64, n int, x []float64, k int, alpha, beta float64, p, v []float64)

// stepFused reports whether SamplePlace, RecombineStep and
// ScaleAddOuterNorms run as one AVX-512 call each with vectors of n ≥ 1
// elements in one register each (RecombineStep and ScaleAddOuterNorms
// also have one-pass kernels for the multiples of 8 above).
func stepFused(n int) bool { return useAVX512 && n <= 8 }

// samplePlace runs SamplePlace (after its checks, n, k ≥ 1, when
// stepFused(n)) on samplePlaceSmallAVX512.
func samplePlace(x, y, a []float64, n int, z []float64, k int, u *RankOne, s, sigma float64, m []float64) (finite bool) {
	if k <= smallCallVecs {
		return samplePlaceSmallAVX512(n, k, &y[0], &a[0], &z[0], &x[0], &m[0], s, sigma, u)
	}
	finite = true
	for j0 := 0; j0 < k; j0 += smallCallVecs {
		kb := min(smallCallVecs, k-j0)
		f := samplePlaceSmallAVX512(n, kb, &y[j0*n], &a[0], &z[j0*n], &x[j0*n], &m[0], s, sigma, u)
		finite, u = finite && f, nil // A updated by the first call
	}
	return finite
}

// samplePlaceSmallAVX512 is mulVecsSmallAVX512 for 1 ≤ n ≤ 8 (u non-nil:
// updateMulVecsSmallAVX512 with u's update) followed by
// scaleAxpyRowsAVX512(cand, σ, y, s, m) on the k vectors, in one pass: the
// same bits and result. y, z and cand hold k·n elements, a n·n, m and u's
// vectors n.
//
//go:noescape
func samplePlaceSmallAVX512(n, k int, y, a, z, cand, m *float64, s, sigma float64, u *RankOne) (finite bool)
