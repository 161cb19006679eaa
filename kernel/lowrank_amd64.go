//go:build gc && !purego

package kernel

import "unsafe"

// The AVX-512 path runs CombineRows' tiles of 6 and of 4 rows and its
// single rows 32 columns at a time and DotRows' tiles 8 columns at a time
// in zmm registers, the columns past those by the AVX2 kernels (VEX
// encoded, valid on every AVX-512 CPU). CombineRows' elements are each the
// same chain on both, so its bits are the AVX2 path's; DotRows sums in 8
// lanes instead of 4.

func dotRows(dst, a []float64, ka int, b []float64, kb, cols, stride, ahead, i0, i1 int) {
	if !useAVX2 {
		dotRowsGeneric(dst, a, ka, b, kb, cols, stride, i0, i1)
		return
	}
	dotRowsTiles(dst, a, ka, b, kb, cols, stride, ahead, i0, i1)
}

func combineRows(x, m []float64, sigma float64, s, z []float64, k, cols, stride int, p []float64, kp int, c []float64, ahead int, cc *coefCache) {
	if !useAVX2 {
		combineRowsGeneric(x, m, sigma, s, z, k, cols, stride, p, kp, c)
		return
	}
	combineRowsTiles(x, m, sigma, s, z, k, cols, stride, p, kp, c, ahead, cc)
}

//go:noescape
func dotRows4x3AVX2(dst, a, b *float64, cols, stride, ldd, pfa, pfb int)

//go:noescape
func dotRows4x1AVX2(dst, a, b *float64, cols, stride int)

//go:noescape
func combineRows4AVX2(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, first, last bool)

//go:noescape
func combineRows6AVX2(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, pfp *float64, pfleft, pfw int, nt, first, last bool)

//go:noescape
func combineRows1AVX2(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, first, last bool)

// lrDot4x3 and lrDot4x1 on AVX-512: the columns up to the last whole group
// of 8 in zmm registers, then the last 4 (if any) by the AVX2 kernel, whose
// sums are added after.
func lrDot4x3(dst, a, b *float64, cols, stride, ldd, pfa, pfb int) {
	if useAVX512 {
		c8 := cols &^ 7
		if c8 > 0 {
			dotRows4x3AVX512(dst, a, b, c8, stride, ldd, pfa, pfb)
		}
		if c8 == cols {
			return
		}
		a, b, cols = addElems(a, c8), addElems(b, c8), cols-c8
		pfa, pfb = 0, 0 // asked for by the 8-column steps
	}
	dotRows4x3AVX2(dst, a, b, cols, stride, ldd, pfa, pfb)
}

func lrDot4x1(dst, a, b *float64, cols, stride int) {
	if useAVX512 {
		c8 := cols &^ 7
		if c8 > 0 {
			dotRows4x1AVX512(dst, a, b, c8, stride)
		}
		if c8 == cols {
			return
		}
		a, b, cols = addElems(a, c8), addElems(b, c8), cols-c8
	}
	dotRows4x1AVX2(dst, a, b, cols, stride)
}

// addElems returns p moved by i float64; the caller keeps it within p's
// row.
func addElems(p *float64, i int) *float64 {
	return (*float64)(unsafe.Add(unsafe.Pointer(p), uintptr(i)*8))
}

//go:noescape
func dotRows8x2AVX512(dst, a, b *float64, cols, stride, ldd int)

//go:noescape
func dotRows8x1AVX512(dst, a, b *float64, cols, stride int)

//go:noescape
func dotRows8x3AVX512(dst, a, b *float64, cols, stride, ldd, pfa, pfb int)

//go:noescape
func dotRows4x3AVX512(dst, a, b *float64, cols, stride, ldd, pfa, pfb int)

//go:noescape
func dotRows4x1AVX512(dst, a, b *float64, cols, stride int)

func lrDot(x, y []float64) float64 { return dotAVX2(x, y) }

// lrComb4 on AVX-512: 32 columns at a time in zmm registers, the columns
// past those by the AVX2 kernel (the same chain for each element).
func lrComb4(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, first, last bool) {
	if useAVX512 {
		c32 := cols &^ 31
		if c32 > 0 {
			combineRows4AVX512(x, m, s, z, p, c, sigma, c32, stride, kp, nil, 0, 0, false, first, last)
		}
		if c32 == cols {
			return
		}
		x, m, s, z, p = combColsFrom(c32, x, m, s, z, p)
		cols -= c32
	}
	combineRows4AVX2(x, m, s, z, p, c, sigma, cols, stride, kp, first, last)
}

// combOverlapTiles reports whether the last rows of CombineRows are better
// computed by a tile that overlaps rows already done than alone: on
// AVX-512, whose 4-row tile runs 32 columns at a time, two rows left go
// in a tile of 4 and five in one of combTileRows (a row alone passes over
// the stored vectors' panel for itself, eight terms at a time; one row
// alone measured as fast as a tile of 4: docs/large-scale.md, Speed).
func combOverlapTiles() bool { return useAVX512 }

// combTileRows is the height of CombineRows' main tile: 6 rows × 8
// columns in 12 of the 16 ymm registers on AVX2, × 32 columns in 24 of the
// 32 zmm registers on AVX-512.
const combTileRows = 6

func lrCombTile(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, f panelWalk, nt, first, last bool) {
	if useAVX512 {
		c32 := cols &^ 31
		if c32 > 0 {
			combineRows6AVX512(x, m, s, z, p, c, sigma, c32, stride, kp, f.at, f.left, f.rowBytes, nt, first, last)
		}
		if c32 == cols {
			return
		}
		x, m, s, z, p = combColsFrom(c32, x, m, s, z, p)
		cols -= c32
		f = panelWalk{} // the walk was the 32-column steps'
	}
	combineRows6AVX2(x, m, s, z, p, c, sigma, cols, stride, kp, f.at, f.left, f.rowBytes, nt, first, last)
}

//go:noescape
func combineRows6AVX512(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, pfp *float64, pfleft, pfw int, nt, first, last bool)

//go:noescape
func combineRows4AVX512(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, pfp *float64, pfleft, pfw int, nt, first, last bool)

func lrComb1(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, first, last bool) {
	if useAVX512 {
		c32 := cols &^ 31
		if c32 > 0 {
			combineRows1AVX512(x, m, s, z, p, c, sigma, c32, stride, kp, first, last)
		}
		if c32 == cols {
			return
		}
		x, m, s, z, p = combColsFrom(c32, x, m, s, z, p)
		cols -= c32
	}
	combineRows1AVX2(x, m, s, z, p, c, sigma, cols, stride, kp, first, last)
}

// combColsFrom moves CombineRows' row pointers to column c (within their
// rows: c is below the call's columns; p nil stays nil).
func combColsFrom(c int, x, m, s, z, p *float64) (xc, mc, sc, zc, pc *float64) {
	if p != nil {
		pc = addElems(p, c)
	}
	return addElems(x, c), addElems(m, c), addElems(s, c), addElems(z, c), pc
}

//go:noescape
func combineRows1AVX512(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, first, last bool)

// lrDot8x3 is lrDot4x3 for rows 0–3 and 4–7 of a in one tile on AVX-512
// (each row of b loaded once for 8 rows of a), with the bits of the two
// calls; with pfa (pfb) ≠ 0 each column step asks L2 for the cache line
// dotRowsBlock columns on in each row of a (of b). It is called only where
// lrHasDot8x3 holds.
func lrDot8x3(dst, a, b *float64, cols, stride, ldd, pfa, pfb int) {
	c8 := cols &^ 7
	if c8 > 0 {
		dotRows8x3AVX512(dst, a, b, c8, stride, ldd, pfa, pfb)
	}
	if c8 == cols {
		return
	}
	a4 := addElems(a, 4*stride)
	dotRows4x3AVX2(dst, addElems(a, c8), addElems(b, c8), cols-c8, stride, ldd, 0, 0)
	dotRows4x3AVX2(addElems(dst, 4), addElems(a4, c8), addElems(b, c8), cols-c8, stride, ldd, 0, 0)
}

// lrDot8x2 and lrDot8x1 are lrDot8x3 for the last two rows of b and the
// last one: the bits of lrDot4x1 on rows 0–3 and 4–7 of a.
func lrDot8x2(dst, a, b *float64, cols, stride, ldd int) {
	c8 := cols &^ 7
	if c8 > 0 {
		dotRows8x2AVX512(dst, a, b, c8, stride, ldd)
	}
	if c8 == cols {
		return
	}
	b1 := addElems(b, stride)
	for _, h := range [2]int{0, 4} {
		ah := addElems(a, h*stride+c8)
		dotRows4x1AVX2(addElems(dst, h), ah, addElems(b, c8), cols-c8, stride)
		dotRows4x1AVX2(addElems(dst, ldd+h), ah, addElems(b1, c8), cols-c8, stride)
	}
}

func lrDot8x1(dst, a, b *float64, cols, stride int) {
	c8 := cols &^ 7
	if c8 > 0 {
		dotRows8x1AVX512(dst, a, b, c8, stride)
	}
	if c8 == cols {
		return
	}
	dotRows4x1AVX2(dst, addElems(a, c8), addElems(b, c8), cols-c8, stride)
	dotRows4x1AVX2(addElems(dst, 4), addElems(a, 4*stride+c8), addElems(b, c8), cols-c8, stride)
}

// lrHasDot8x3 reports whether the path has lrDot8x3, lrDot8x2 and
// lrDot8x1: AVX-512.
func lrHasDot8x3() bool { return useAVX512 }

// dotRows8x3Ahead is the distance in bytes of dotRows8x3AVX512's
// prefetches (DOT83_PFA): one block of DotRows.
const dotRows8x3Ahead = 2048

// The assembly's distance is one block.
const _ = -uint(dotRows8x3Ahead ^ 8*dotRowsBlock)
