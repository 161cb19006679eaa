//go:build gc && !purego

package kernel

import "strconv"

func init() {
	// Advanced SIMD (NEON) is part of every arm64 processor.
	useNEON = true
}

// Dispatch: each function uses NEON unless a test turned it off.

// workLen is 0: the NEON kernels keep no scratch space.
func workLen(n, k int) int { return 0 }

func mulVecs(y, a []float64, n int, x []float64, k, r0, r1 int, _ []float64) {
	if !useNEON || n < tileRows {
		mulVecsGenericRows(y, a, n, x, k, r0, r1)
		return
	}
	mulVecsTiled(y, a, n, x, k, r0, r1)
}

func mulVec(y, a []float64, n int, x []float64) {
	if !useNEON || n < tileRows {
		mulVecGeneric(y, a, n, x)
		return
	}
	mulVecTiled(y, a, n, x)
}

// tileVecs is the number of vectors in the NEON register tile (one width).
func tileVecs(int) int { return 4 }

func tileGroups(y, a, x []float64, n, k, v int) { tileGroupsLoop(y, a, x, n, k, v) }

func tileOne(y, a, x []float64, n int) { tile4x4NEON(y, a, x, n) }

func tileRowsVec(y, a, x []float64, n int) { tile4x1NEON(y, a, x, n) }

func scaleAddOuter(a []float64, n, rows int, alpha, beta float64, p, v []float64) {
	if !useNEON {
		scaleAddOuterGeneric(a, n, rows, alpha, beta, p, v)
		return
	}
	scaleAddOuterNEON(a, n, rows, alpha, beta, p, v)
}

// scaleAddRankK hands one term (k = 1) on whole rows to the rank-one kernel:
// it computes the same fma(fl(β[0]·p[i]), q[j], fl(α·a[i*n+j])), bit for
// bit, with less work per row.
func scaleAddRankK(a []float64, n, rows, cols int, alpha float64, beta, p, q []float64, k int) {
	switch {
	case !useNEON:
		scaleAddRankKGeneric(a, n, rows, cols, alpha, beta, p, q, k)
	case k == 1 && cols == n:
		scaleAddOuterNEON(a, n, rows, alpha, beta[0], p, q)
	default:
		scaleAddRankKNEON(a, n, rows, cols, alpha, beta, p, q, k)
	}
}

func dot(x, y []float64) float64 {
	if !useNEON {
		return dotGeneric(x, y)
	}
	return dotNEON(x, y)
}

// maxAbsBitsPath is maxAbsBits on the path, len(x) ≥ 1.
func maxAbsBitsPath(x []float64) uint64 { return maxAbsBits(x) }

// rotatePair is RotatePair for one block, with mt = −t: the path's two
// AxpBy passes.
func rotatePair(x, y []float64, c, s, r, mt float64) {
	axpby(y, s, x, c, y)
	axpby(x, mt, y, r, x)
}

func axpby(dst []float64, alpha float64, x []float64, beta float64, y []float64) {
	if !useNEON {
		axpbyGeneric(dst, alpha, x, beta, y)
		return
	}
	axpbyNEON(dst, alpha, x, beta, y)
}

func weightedSum(dst, w, x []float64, n int, rows []int) {
	if !useNEON {
		weightedSumGeneric(dst, w, x, n, rows)
		return
	}
	weightedSumNEON(dst, w, x, n, rows)
}

func scale(alpha float64, x []float64) {
	if !useNEON {
		scaleGeneric(alpha, x)
		return
	}
	scaleNEON(alpha, x)
}

// The assembly (kernel_arm64.s). Each function assumes the checks of its
// caller passed: the lengths below hold and n ≥ 1 (tiles: n ≥ 4 rows exist).
// Rows of a and vectors of x and y are n elements apart.
//
// The dot products (tiles and dotNEON) sum in one fixed order that depends
// only on n; tile4x1NEON sums each row exactly as dotNEON does, so MulVec and
// Dot of a row of A give the same bits.

// tile4x4NEON computes a 4×4 register tile of MulVecs:
//
//	for j < 4, i < 4: y[j*n+i] = Σ_c a[i*n+c]·x[j*n+c]
//
// len(a) ≥ 4n, len(x) ≥ 4n, len(y) ≥ 3n+4.
//
//go:noescape
func tile4x4NEON(y, a, x []float64, n int)

// tile4x1NEON computes y[i] = Σ_c a[i*n+c]·x[c] for i < 4:
// len(a) ≥ 4n, len(x) ≥ n, len(y) ≥ 4.
//
//go:noescape
func tile4x1NEON(y, a, x []float64, n int)

// scaleAddOuterNEON computes, for i < rows, j < n:
//
//	a[i*n+j] = fma(β·p[i], v[j], α·a[i*n+j])
//
// len(a) ≥ rows·n, len(p) ≥ rows, len(v) ≥ n.
//
//go:noescape
func scaleAddOuterNEON(a []float64, n, rows int, alpha, beta float64, p, v []float64)

// scaleAddRankKNEON computes, for i < rows, j < cols, the chain of
// ScaleAddRankK (rows of a, p and q are n apart; cols ≤ n is a panel):
//
//	s := α·a[i*n+j]
//	for t := 0; t < k; t++ { s = fma(β[t]·p[t*n+i], q[t*n+j], s) }
//	a[i*n+j] = s
//
// Per row it rounds the k coefficients β[t]·p[t*n+i] once into its frame,
// then runs 8 columns at a time through all k terms in registers, so A is
// read and written once. len(a) ≥ (rows−1)·n+cols, len(beta) ≥ k,
// len(p) ≥ (k−1)·n+rows, len(q) ≥ (k−1)·n+cols; rows, cols ≥ 1,
// 1 ≤ k ≤ rankKChunk.
//
//go:noescape
func scaleAddRankKNEON(a []float64, n, rows, cols int, alpha float64, beta, p, q []float64, k int)

// dotNEON returns Σ x[i]·y[i], len(y) ≥ len(x) ≥ 1.
//
//go:noescape
func dotNEON(x, y []float64) float64

// axpbyNEON computes dst[i] = fma(α, x[i], β·y[i]) for i < len(x) ≤
// len(y), len(dst).
//
//go:noescape
func axpbyNEON(dst []float64, alpha float64, x []float64, beta float64, y []float64)

// weightedSumNEON computes, for j < len(dst), the chain of fused
// multiply-adds
//
//	dst[j] = fma(w[m−1], x[rows[m−1]*n+j], … fma(w[0], x[rows[0]*n+j], 0))
//
// m = len(w): the bits of the axpby chain, in one call. len(dst) ≥ 1,
// len(rows) ≥ m, and row rows[i] of x (n apart) has ≥ len(dst) elements.
//
//go:noescape
func weightedSumNEON(dst, w, x []float64, n int, rows []int)

// scaleNEON computes x[i] = α·x[i].
//
//go:noescape
func scaleNEON(alpha float64, x []float64)

func updateMulVecs(y, a []float64, n int, alpha, beta float64, p, v, x []float64, k, r0, r1 int, work []float64) {
	updateMulVecsSeparate(y, a, n, alpha, beta, p, v, x, k, r0, r1, work)
}

// ziggurat has no NEON path: without compress-store and gathers the lanes
// run one after another.
func ziggurat(z []float64, s *[4 * ZigLanes]uint64, x *[257]float64, rej []uint64) (acc, nrej int) {
	return zigguratGeneric(z, s, x, rej)
}

// countLess has no NEON path: the generic loop has no branch to mispredict,
// and populations are small.
func countLess(dst []int, keys []int64) { countLessGeneric(dst, keys) }

func tiling(n, _ int) string {
	if !useNEON || n < tileRows {
		return "generic rows"
	}
	return "whole-row tiles of " + strconv.Itoa(tileRows) + " rows (neon)"
}

func scaleAxpyRows(x []float64, sigma float64, y []float64, s float64, m []float64) bool {
	return scaleAxpyRowsVec(x, sigma, y, s, m)
}

func rankFloats(idx []int, x []float64, keys []int64, pos []int) int {
	return rankFloatsGeneric(idx, x, keys, pos)
}

func axpbyDot(dst []float64, alpha float64, x []float64, beta float64, y []float64) (float64, bool) {
	return 0, false
}

func recombineStep(st *StepState, r *StepRates, y, z, w []float64, rows []int) (ssS, ssV float64, pBits, mBits uint64, fused bool) {
	return 0, 0, 0, 0, false
}

func stepFused(n int) bool { return false }

func samplePlace(x, y, a []float64, n int, z []float64, k int, u *RankOne, s, sigma float64, m []float64) bool {
	panic("unreachable")
}

func scaleAddOuterSquares(a []float64, n int, alpha, beta float64, p, v, sums []float64) bool {
	return false
}

func rowSquares(dst, a []float64, n int) int { return 0 }

func recombineBlocks(n int) bool { return false }
