//go:build (!amd64 && !arm64) || !gc || purego

package kernel

// Without assembly every kernel is the generic one.

func mulVecs(y, a []float64, n int, x []float64, k, r0, r1 int, _ []float64) {
	mulVecsGenericRows(y, a, n, x, k, r0, r1)
}

func workLen(n, k int) int { return 0 }

func mulVec(y, a []float64, n int, x []float64) { mulVecGeneric(y, a, n, x) }

func scaleAddOuter(a []float64, n, rows int, alpha, beta float64, p, v []float64) {
	scaleAddOuterGeneric(a, n, rows, alpha, beta, p, v)
}

func scaleAddRankK(a []float64, n, rows, cols int, alpha float64, beta, p, q []float64, k int) {
	scaleAddRankKGeneric(a, n, rows, cols, alpha, beta, p, q, k)
}

func dot(x, y []float64) float64 { return dotGeneric(x, y) }

// maxAbsBitsPath is maxAbsBits on the path, len(x) ≥ 1.
func maxAbsBitsPath(x []float64) uint64 { return maxAbsBits(x) }

// rotatePair is RotatePair for one block, with mt = −t: the path's two
// AxpBy passes.
func rotatePair(x, y []float64, c, s, r, mt float64) {
	axpby(y, s, x, c, y)
	axpby(x, mt, y, r, x)
}

func axpby(dst []float64, alpha float64, x []float64, beta float64, y []float64) {
	axpbyGeneric(dst, alpha, x, beta, y)
}

func scale(alpha float64, x []float64) { scaleGeneric(alpha, x) }

func updateMulVecs(y, a []float64, n int, alpha, beta float64, p, v, x []float64, k, r0, r1 int, work []float64) {
	updateMulVecsSeparate(y, a, n, alpha, beta, p, v, x, k, r0, r1, work)
}

func ziggurat(z []float64, s *[4 * ZigLanes]uint64, x *[257]float64, rej []uint64) (acc, nrej int) {
	return zigguratGeneric(z, s, x, rej)
}

func weightedSum(dst, w, x []float64, n int, rows []int) { weightedSumGeneric(dst, w, x, n, rows) }

func countLess(dst []int, keys []int64) { countLessGeneric(dst, keys) }

func dotRows(dst, a []float64, ka int, b []float64, kb, cols, stride, _, i0, i1 int) {
	dotRowsGeneric(dst, a, ka, b, kb, cols, stride, i0, i1)
}

func combineRows(x, m []float64, sigma float64, s, z []float64, k, cols, stride int, p []float64, kp int, c []float64, _ int, _ *coefCache) {
	combineRowsGeneric(x, m, sigma, s, z, k, cols, stride, p, kp, c)
}

func tiling(_, _ int) string { return "generic rows" }

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
