//go:build gc && !purego && (amd64 || arm64)

package kernel

import (
	"math"
	"unsafe"
)

// The tiling around the assembly is the same on every SIMD path; each
// architecture's file provides the path's kernels, called directly (a
// call through a function value would make the stack frame of
// combineRowsTiles escape):
//
//	lrDot4x3(dst, a, b, cols, stride, ldd, pfa, pfb): dst[j*ldd+i] += a_i·b_j,
//	    i < 4, j < 3; where the path prefetches, with pfa ≠ 0 it asks L2
//	    for the cache line pfa bytes past each column step of a's rows, and
//	    likewise pfb for b's
//	lrDot4x1(dst, a, b, cols, stride):      dst[i] += a_i·b, i < 4
//	lrHasDot8x3():                          whether the path has the
//	    tiles of 8 rows of a below (their callers check it)
//	lrDot8x3(dst, a, b, cols, stride, ldd, pfa, pfb): lrDot4x3 for i < 8,
//	    with the bits of two calls; pfa, pfb ≠ 0 ask for the lines one
//	    block (dotRowsBlock columns) on
//	lrDot8x2(dst, a, b, cols, stride, ldd), lrDot8x1(dst, a, b, cols,
//	    stride): j < 2 and j < 1, with the bits of lrDot4x1
//	lrDot(x, y):                            the path's Dot
//	lrComb4, lrComb1(x, m, s, z, p, c, σ, cols, stride, kp, first, last):
//	    CombineRows' chain for 4 rows (coefficients transposed: c[t*4+r])
//	    and for one, from s·z (first) or from x, to fma(σ, u, m) (last) or u
//	lrCombTile(x, m, s, z, p, c, σ, cols, stride, kp, f, nt, first, last):
//	    lrComb4 for combTileRows rows; where the path prefetches, each term
//	    step of a 32-column step (on AVX2, of the 8-column steps that start
//	    one) asks L2 for the next cache line of the walk f describes
//	    (panelWalk; none where f.at is nil), and where it streams, nt (x
//	    and 8·stride 64-byte aligned) writes x with non-temporal stores
//
// cols is a multiple of 4 for all but lrDot.

// dotRowsTile8 lets dotRowsTiles use the tiles of 8 rows of a where the
// path has them (tests turn it off to compare the bits).
var dotRowsTile8 = true

// dotRowsTiles is dotRows on a SIMD path for the rows i0 … i1−1 of a (i0
// a multiple of 4, i1 too unless it is ka): where the path has them, tiles
// of 8 rows of a by 3 rows of b, and by 2 or 1 for the last rows of b
// (each row of b read once for 8 rows of a, the bits of two tiles of 4);
// then tiles of 4 rows of a by 3 rows of b, 4×1 for the last rows of b,
// the path's Dot for the last rows of a; the columns past the last whole
// group of 4 are added afterwards in index order (math.FMA on each
// product). A row gets the same bits whichever range it is in. With
// ahead > 0 (the columns to the next block) the tiles of the range's
// first rows ask for the next block's lines of b's rows, and the first
// tile of each row of tiles for those of a's: each line once per range, a
// block ahead.
func dotRowsTiles(dst, a []float64, ka int, b []float64, kb, cols, stride, ahead, i0, i1 int) {
	c4 := cols &^ 3
	i := i0
	for ; dotRowsTile8 && lrHasDot8x3() && i+8 <= i1; i += 8 {
		ai := unsafe.SliceData(a[i*stride:])
		j := 0
		for ; j+3 <= kb; j += 3 {
			pfa, pfb := 0, 0
			if ahead == dotRowsBlock && j == 0 {
				pfa = 1
			}
			if ahead == dotRowsBlock && i == i0 {
				pfb = 1
			}
			lrDot8x3(&dst[j*ka+i], ai, unsafe.SliceData(b[j*stride:]), c4, stride, ka, pfa, pfb)
		}
		switch kb - j {
		case 2:
			lrDot8x2(&dst[j*ka+i], ai, unsafe.SliceData(b[j*stride:]), c4, stride, ka)
		case 1:
			lrDot8x1(&dst[j*ka+i], ai, unsafe.SliceData(b[j*stride:]), c4, stride)
		}
	}
	for ; i+4 <= i1; i += 4 {
		ai := unsafe.SliceData(a[i*stride:])
		j := 0
		for ; j+3 <= kb; j += 3 {
			pfa, pfb := 0, 0
			if ahead > 0 && j == 0 {
				pfa = 8 * ahead // the next block's rows of a, once each
			}
			if ahead > 0 && i == i0 {
				pfb = 8 * ahead // and of b
			}
			lrDot4x3(&dst[j*ka+i], ai, unsafe.SliceData(b[j*stride:]), c4, stride, ka, pfa, pfb)
		}
		for ; j < kb; j++ {
			lrDot4x1(&dst[j*ka+i], ai, unsafe.SliceData(b[j*stride:]), c4, stride)
		}
	}
	if i < i1 && ka >= 4 && c4 > 0 {
		// The last rows of a: a tile of the last 4 rows into scratch,
		// of which the rows not done yet are added (0 + s = s: the bits
		// of adding s to dst directly).
		var tmp [12]float64
		t0 := ka - 4
		ai := unsafe.SliceData(a[t0*stride:])
		j := 0
		for ; j < kb; j += 3 {
			nj := min(3, kb-j)
			tmp = [12]float64{}
			if nj == 3 {
				lrDot4x3(&tmp[0], ai, unsafe.SliceData(b[j*stride:]), c4, stride, 4, 0, 0)
			} else {
				for jj := 0; jj < nj; jj++ {
					lrDot4x1(&tmp[jj*4], ai, unsafe.SliceData(b[(j+jj)*stride:]), c4, stride)
				}
			}
			for jj := 0; jj < nj; jj++ {
				for ii := i; ii < i1; ii++ {
					dst[(j+jj)*ka+ii] += tmp[jj*4+ii-t0]
				}
			}
		}
		i = i1
	}
	for ; i < i1 && c4 > 0; i++ {
		ai := a[i*stride : i*stride+c4]
		for j := 0; j < kb; j++ {
			dst[j*ka+i] += lrDot(ai, b[j*stride:j*stride+c4])
		}
	}
	if c4 == cols {
		return
	}
	for j := 0; j < kb; j++ {
		bj := b[j*stride+c4 : j*stride+cols]
		for i := i0; i < i1; i++ {
			s := dst[j*ka+i]
			for c, x := range a[i*stride+c4 : i*stride+cols] {
				s = math.FMA(x, bj[c], s)
			}
			dst[j*ka+i] = s
		}
	}
}

// combineRowsTiles is combineRows on a SIMD path: combTileRows rows at a
// time, then tiles of 4, then the rows left: three by a tile of 4 that
// overlaps a row already done (which gets the same bits again: each
// element is one chain from the inputs, the first chunk of terms starting
// from s·z, not from x), one or two alone; where combOverlapTiles holds,
// two by a tile of 4 and five by a main tile that overlap rows done, and
// one or two past more than panelFetchTiles main tiles go with the last
// main tile's rows in two tiles of 4 (of 7 rows, the second overlapping
// one). The columns past the last whole group of 4 in Go with math.FMA,
// the chain of roundings of the lanes.
func combineRowsTiles(x, m []float64, sigma float64, s, z []float64, k, cols, stride int, p []float64, kp int, c []float64, ahead int, cc *coefCache) {
	c4 := cols &^ 3
	cc.start()
	nt := ahead > 0 && streamAligned(x, stride)
	mp := &s[0] // m's place when m is nil: not read (last is false)
	if m != nil {
		mp = &m[0]
	}
	if c4 > 0 {
		l, main := 0, k/combTileRows*combTileRows
		if combOverlapTiles() && k%combTileRows != 0 && k%combTileRows <= 2 && main > panelFetchTiles*combTileRows {
			// One or two rows past the main tiles: with the last main
			// tile's rows they fill two tiles of 4, where a main tile
			// and a tile of 4 (or a row alone, which costs as much)
			// would compute more rows (docs/large-scale.md, Speed). The
			// first panelFetchTiles tiles, which fetch the next block's
			// panel, stay main tiles.
			main -= combTileRows
		}
		for ; l+combTileRows <= main; l += combTileRows {
			combineTile(combTileRows, x, mp, m != nil, sigma, s, z, c4, stride, p, kp, c, l, panelFetch{ahead, l / combTileRows}, nt, cc)
		}
		if combOverlapTiles() && k-l == 5 && k >= combTileRows {
			// Five rows left: a main tile over the last rows, one of
			// them done already (it gets the same bits again).
			combineTile(combTileRows, x, mp, m != nil, sigma, s, z, c4, stride, p, kp, c, k-combTileRows, panelFetch{}, nt, cc)
			l = k
		}
		for ; l+4 <= k; l += 4 {
			combineTile(4, x, mp, m != nil, sigma, s, z, c4, stride, p, kp, c, l, panelFetch{}, false, cc)
		}
		if (k-l == 3 || combOverlapTiles() && k-l == 2) && k >= 4 {
			// Three rows left (two where combOverlapTiles holds): a
			// tile of 4 over the last rows, the others of it done
			// already. Otherwise one or two rows go alone: a tile that
			// overlaps more rows computes more than it saves.
			combineTile(4, x, mp, m != nil, sigma, s, z, c4, stride, p, kp, c, k-4, panelFetch{}, false, cc)
			l = k
		}
		for ; l < k; l++ {
			for t0 := 0; t0 == 0 || t0 < kp; t0 += combineRowTerms {
				kc := min(combineRowTerms, kp-t0)
				lrComb1(&x[l*stride], mp, &s[0], &z[l*stride], pAt(p, t0*stride), cAt(c, l*kp+t0), sigma, c4, stride, kc, t0 == 0, m != nil && t0+kc >= kp)
			}
		}
	}
	if c4 == cols {
		return
	}
	for l := 0; l < k; l++ {
		for j := c4; j < cols; j++ {
			u := s[j] * z[l*stride+j]
			for t, ct := range c[l*kp : l*kp+kp] {
				u = math.FMA(ct, p[t*stride+j], u)
			}
			if m != nil {
				u = math.FMA(sigma, u, m[j])
			}
			x[l*stride+j] = u
		}
	}
}

// combineTile computes rows l … l+rows−1 over c4 columns, rows being
// combTileRows or 4, combineTerms at a time, the partial sums going
// through x: their coefficients transposed (ct[t*rows+r]) from cc where it
// holds them, else into a frame of the stack (combineTileLocal).
func combineTile(rows int, x []float64, mp *float64, last bool, sigma float64, s, z []float64, c4, stride int, p []float64, kp int, c []float64, l int, pf panelFetch, nt bool, cc *coefCache) {
	ct := cc.tile(c, l, rows, kp)
	if ct == nil {
		combineTileLocal(rows, x, mp, last, sigma, s, z, c4, stride, p, kp, c, l, pf, nt)
		return
	}
	for t0 := 0; t0 < kp; t0 += combineTerms {
		kc := min(combineTerms, kp-t0)
		combineChunk(rows, x, mp, last, sigma, s, z, c4, stride, p, kp, &ct[t0*rows], l, pf, nt, t0, kc)
	}
}

// combineTileLocal is combineTile with the coefficients transposed into a
// frame of the stack, combineTerms at a time.
func combineTileLocal(rows int, x []float64, mp *float64, last bool, sigma float64, s, z []float64, c4, stride int, p []float64, kp int, c []float64, l int, pf panelFetch, nt bool) {
	var ct [max(combTileRows, 4) * combineTerms]float64
	for t0 := 0; t0 == 0 || t0 < kp; t0 += combineTerms {
		kc := min(combineTerms, kp-t0)
		for t := 0; t < kc; t++ {
			for r := 0; r < rows; r++ {
				ct[t*rows+r] = c[(l+r)*kp+t0+t]
			}
		}
		combineChunk(rows, x, mp, last, sigma, s, z, c4, stride, p, kp, &ct[0], l, pf, nt, t0, kc)
	}
}

// combineChunk adds the terms t0 … t0+kc−1 (their coefficients transposed
// at ct) to the tile's rows, from s·z for the first chunk and to
// fma(σ, u, m) for the last.
func combineChunk(rows int, x []float64, mp *float64, last bool, sigma float64, s, z []float64, c4, stride int, p []float64, kp int, ct *float64, l int, pf panelFetch, nt bool, t0, kc int) {
	xl, zl, pt, fin := &x[l*stride], &z[l*stride], pAt(p, t0*stride), last && t0+kc >= kp
	if rows == 4 {
		lrComb4(xl, mp, &s[0], zl, pt, ct, sigma, c4, stride, kc, t0 == 0, fin)
	} else {
		lrCombTile(xl, mp, &s[0], zl, pt, ct, sigma, c4, stride, kc, pf.walk(p, kp, stride, t0, c4), nt, t0 == 0, fin)
	}
}

// pAt and cAt return a pointer to element i, or nil when there are no
// terms (the assembly then does not read them).
func pAt(p []float64, i int) *float64 {
	if i >= len(p) {
		return nil
	}
	return &p[i]
}

func cAt(c []float64, i int) *float64 {
	if i >= len(c) {
		return nil
	}
	return &c[i]
}

// panelFetch names the next block's panel of p (ahead columns on, 0: no
// next block, or stored vectors small enough to stay in the caches, where
// prefetches only take load slots) and the tile of the block (q) that
// asks L2 for part of it.
type panelFetch struct{ ahead, q int }

// panelFetchTiles is the number of a block's first tiles that fetch the
// next block's panel between them.
const panelFetchTiles = 4

// panelWalk is a walk over the lines of the next block's panel of p in
// row order, one cache line a term step: the line at, then the next ones
// to the end of the row's segment (left bytes from at), then rowBytes
// from each next row's start (its segment), stride bytes apart.
type panelWalk struct {
	at             *float64 // nil: no walk
	left, rowBytes int
}

// walk returns the walk of the chunk of terms from t0 of the tile: the
// first panelFetchTiles tiles take the lines of the next panel's kp rows
// (ahead columns, or what is left of n) as one sequence in row order,
// each its quarter (kp·cols/32 lines, one for each of its term steps), so
// that L2 is asked for a few rows at a time, long runs that the hardware's
// stream prefetchers follow, instead of a line of every row in turn,
// which they do not follow past a few dozen rows (docs/large-scale.md,
// Speed). Past the panel's last row it asks for none.
func (f panelFetch) walk(p []float64, kp, stride, t0, cols int) panelWalk {
	if f.ahead == 0 || f.q >= panelFetchTiles {
		return panelWalk{}
	}
	// The next block's columns: ahead, or fewer in the last block (the
	// last row of p, from this block's first column, ends with them).
	next := min(f.ahead, len(p)-(kp-1)*stride-f.ahead)
	if next <= 0 {
		return panelWalk{}
	}
	lines := (next + 7) / 8 // of a row's segment
	steps := cols / 32      // the tile's column steps
	g := (f.q*kp + t0) * steps
	row, line := g/lines, g%lines
	if row >= kp {
		return panelWalk{}
	}
	return panelWalk{&p[row*stride+f.ahead+8*line], 64 * (lines - line), 64 * lines}
}
