//go:build gc && !purego

package kernel

// The AVX-512 path runs the AVX2 kernels of the low-rank sampling (VEX
// encoded, valid on every AVX-512 CPU); docs/performance.md has what that
// costs where the FMA units are 512 bits wide.

func dotRows(dst, a []float64, ka int, b []float64, kb, cols, stride int) {
	if !useAVX2 {
		dotRowsGeneric(dst, a, ka, b, kb, cols, stride)
		return
	}
	dotRowsTiles(dst, a, ka, b, kb, cols, stride)
}

func combineRows(x, m []float64, sigma float64, s, z []float64, k, cols, stride int, p []float64, kp int, c []float64) {
	if !useAVX2 {
		combineRowsGeneric(x, m, sigma, s, z, k, cols, stride, p, kp, c)
		return
	}
	combineRowsTiles(x, m, sigma, s, z, k, cols, stride, p, kp, c)
}

//go:noescape
func dotRows4x3AVX2(dst, a, b *float64, cols, stride, ldd int)

//go:noescape
func dotRows4x1AVX2(dst, a, b *float64, cols, stride int)

//go:noescape
func combineRows4AVX2(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, first, last bool)

//go:noescape
func combineRows6AVX2(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, first, last bool)

//go:noescape
func combineRows1AVX2(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, first, last bool)

func lrDot4x3(dst, a, b *float64, cols, stride, ldd int) {
	dotRows4x3AVX2(dst, a, b, cols, stride, ldd)
}
func lrDot4x1(dst, a, b *float64, cols, stride int) { dotRows4x1AVX2(dst, a, b, cols, stride) }
func lrDot(x, y []float64) float64                  { return dotAVX2(x, y) }

func lrComb4(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, first, last bool) {
	combineRows4AVX2(x, m, s, z, p, c, sigma, cols, stride, kp, first, last)
}

// combTileRows is the height of CombineRows' main tile: 6 rows × 8
// columns, 12 of the 16 ymm registers accumulating.
const combTileRows = 6

func lrCombTile(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, first, last bool) {
	combineRows6AVX2(x, m, s, z, p, c, sigma, cols, stride, kp, first, last)
}

func lrComb1(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, first, last bool) {
	combineRows1AVX2(x, m, s, z, p, c, sigma, cols, stride, kp, first, last)
}
