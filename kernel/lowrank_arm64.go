//go:build gc && !purego

package kernel

func dotRows(dst, a []float64, ka int, b []float64, kb, cols, stride, ahead, i0, i1 int) {
	if !useNEON {
		dotRowsGeneric(dst, a, ka, b, kb, cols, stride, i0, i1)
		return
	}
	dotRowsTiles(dst, a, ka, b, kb, cols, stride, ahead, i0, i1)
}

func combineRows(x, m []float64, sigma float64, s, z []float64, k, cols, stride int, p []float64, kp int, c []float64, ahead int, cc *coefCache) {
	if !useNEON {
		combineRowsGeneric(x, m, sigma, s, z, k, cols, stride, p, kp, c)
		return
	}
	combineRowsTiles(x, m, sigma, s, z, k, cols, stride, p, kp, c, ahead, cc)
}

//go:noescape
func dotRows4x3NEON(dst, a, b *float64, cols, stride, ldd int)

//go:noescape
func dotRows4x1NEON(dst, a, b *float64, cols, stride int)

//go:noescape
func combineRows4NEON(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, first, last bool)

//go:noescape
func combineRows1NEON(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, first, last bool)

func lrDot4x3(dst, a, b *float64, cols, stride, ldd, _, _ int) {
	dotRows4x3NEON(dst, a, b, cols, stride, ldd)
}
func lrDot4x1(dst, a, b *float64, cols, stride int) { dotRows4x1NEON(dst, a, b, cols, stride) }

// lrHasDot8x3: NEON has no tile of 8 rows (32 registers of 2 lanes).
func lrHasDot8x3() bool { return false }

func lrDot8x3(dst, a, b *float64, cols, stride, ldd, _, _ int) {
	panic("kernel: no lrDot8x3 on arm64")
}

func lrDot8x2(dst, a, b *float64, cols, stride, ldd int) { panic("kernel: no lrDot8x2 on arm64") }
func lrDot8x1(dst, a, b *float64, cols, stride int)      { panic("kernel: no lrDot8x1 on arm64") }
func lrDot(x, y []float64) float64                       { return dotNEON(x, y) }

func lrComb4(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, first, last bool) {
	combineRows4NEON(x, m, s, z, p, c, sigma, cols, stride, kp, first, last)
}

// combTileRows is the height of CombineRows' main tile: NEON's tile of 4.
const combTileRows = 4

// combOverlapTiles: the last rows go alone, but for three (not measured
// on an arm64 CPU).
func combOverlapTiles() bool { return false }

func lrCombTile(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, _ panelWalk, _, first, last bool) {
	combineRows4NEON(x, m, s, z, p, c, sigma, cols, stride, kp, first, last)
}

func lrComb1(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, first, last bool) {
	combineRows1NEON(x, m, s, z, p, c, sigma, cols, stride, kp, first, last)
}
