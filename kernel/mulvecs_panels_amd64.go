//go:build gc && !purego

package kernel

import "unsafe"

// MulVecs on AVX-512 for large n: column panels in broadcast form
// (mulvecs_panels_avx512_amd64.s). A is read once per call, each 8×kc block of it used for
// all k vectors while it is in L1 (with the rank-one update, from a copy
// whose rows do not share L1 sets), and no horizontal sums are needed.

// usePanels reports whether MulVecs runs on the AVX-512 column panels: n
// large enough to leave L2, and at least one register of vectors.
func usePanels(n, k int) bool {
	return useAVX512 && n >= panelMinN && k >= panelMinK
}

// panelMinN is the smallest n for which the panels beat whole-row tiles.
const panelMinN = 256

// panelMinK is the smallest k for the panels: below one register of vectors
// (8) the whole-row tiles waste fewer lanes.
const panelMinK = 8

// panelRows is the number of rows of A in one tile of panel8AVX512.
const panelRows = 8

// panelPack is the size, in float64s, of the packed panel of x for n <
// panelWideN: kc·kp ≤ panelPack (64 KiB, on the stack; with the 8×kc block
// of A it stays within L1 and L2).
const panelPack = 8192

// panelPackWide is panelPack for n ≥ panelWideN (128 KiB): panels of up to
// 512 columns, whose longer runs of each row of A the memory system streams
// better at large n (measured: docs/performance.md, "Tuning constants").
const panelPackWide = 16384

// panelWideN is the smallest n that runs the wide panels.
const panelWideN = 512

// panelACols bounds the columns of a panel, so that a copy of a tile's block
// of A fits the rows of panelACopy.
const panelACols = 512

// panelAStride is the row stride, in float64s, of the copies of a tile's
// block of A (aps, in bytes, in kernel/_asm, which writes
// mulvecs_panels_avx512_amd64.s): 65 cache lines, an odd number, so that
// the 8 rows of a copy fall into 8 different sets of L1 (the rows of A
// itself share one set when n is a multiple of 64).
const panelAStride = 520

// panelACopy is the room for the two copies, the current tile's block and
// the next one's, in float64s (65 KiB, on the stack).
const panelACopy = 2 * panelRows * panelAStride

// panelMaxLanes bounds the packed lanes of one pass: more vectors than this
// run in batches (each batch reads A again), so that a panel keeps at least
// panelPack/panelMaxLanes = 32 columns.
const panelMaxLanes = 256

// panelTiles bounds the tiles of one assembly call, so that a call stays
// short (assembly is not preempted).
const panelTiles = 128

// mulVecsPanels computes the rows r0 … r1−1 of MulVecs (rowsValid) on
// AVX-512 with the column panels; with update it first applies A ← α·A +
// β·p·vᵀ to each block of A just before the block is read (so A is read and
// written once). The rows below the last whole tile are updated by
// scaleAddOuter and computed by whole-row tiles, in the range that ends at
// n.
func mulVecsPanels(y, a []float64, n int, x []float64, k, r0, r1 int, update bool, alpha, beta float64, p, v, work []float64) {
	// The batches may tile the rows differently: the first one updated the
	// rows it covered, whole-row tiles compute what any batch left out.
	rows, updated := n, 0
	for j0 := 0; j0 < k; j0 += panelMaxLanes {
		kb := min(panelMaxLanes, k-j0)
		r := mulVecsPanelBatch(y[j0*n:], a, n, x[j0*n:], kb, r0, r1, update && j0 == 0, alpha, beta, p, v, work)
		if j0 == 0 {
			updated = r
		}
		rows = min(rows, r)
	}
	if r1 < n {
		return
	}
	if update && updated < n {
		scaleAddOuter(a[updated*n:], n, n-updated, alpha, beta, p[updated:], v)
	}
	if rows < n {
		for r := rows; r < n-tileRows; r += tileRows {
			mulVecsRowBlock(y, a, n, x, k, r)
		}
		mulVecsRowBlock(y, a, n, x, k, n-tileRows)
	}
}

// mulVecsPanelBatch is mulVecsPanels for k ≤ panelMaxLanes vectors and the
// rows of whole tiles; it returns the number of rows it covered. Vectors in
// 4 registers (25 ≤ k ≤ 32, or a multiple) run in tiles of 6 rows
// (panel6AVX512), all others in tiles of 8 (panel8AVX512). The packed panel
// and the copies of A live in work (len(work) = workLen(n, k)) or, with work
// nil, on the stack.
func mulVecsPanelBatch(y, a []float64, n int, x []float64, k, r0, r1 int, update bool, alpha, beta float64, p, v, work []float64) int {
	if work != nil {
		work = alignLine(work)
		pack := panelPackLen(n)
		return mulVecsPanelPass(work[:pack], work[pack:pack+panelACopy], y, a, n, x, k, r0, r1, update, alpha, beta, p, v)
	}
	if n < panelWideN {
		return mulVecsPanelBatchNarrow(y, a, n, x, k, r0, r1, update, alpha, beta, p, v)
	}
	return mulVecsPanelBatchWide(y, a, n, x, k, r0, r1, update, alpha, beta, p, v)
}

// workLen is the scratch space of the panels: on AVX-512 the packed panel,
// the copies of A, and 8 float64s of slack to start them at a cache line;
// on AVX2 the packed panel and two copies of a tile's block, likewise
// (avx2WorkLen).
func workLen(n, k int) int {
	switch {
	case usePanels(n, k):
		return panelPackLen(n) + panelACopy + 8
	case usePanelsAVX2(n, k):
		return avx2WorkLen
	}
	return 0
}

// panelPackLen is the room for the packed panel at n.
func panelPackLen(n int) int {
	if n < panelWideN {
		return panelPack
	}
	return panelPackWide
}

// alignLine drops the float64s of s before its first 64-byte boundary, so
// that the copies' rows start cache lines (len(s) > 8).
func alignLine(s []float64) []float64 {
	off := int(uintptr(unsafe.Pointer(unsafe.SliceData(s)))&63) / 8
	return s[(8-off)&7:]
}

// mulVecsPanelBatchNarrow and mulVecsPanelBatchWide hold the packed panel
// and the copies of A on their stack frames, each of its own size (not
// inlined, so that the narrow one does not clear the wide one's frame).
//
//go:noinline
func mulVecsPanelBatchNarrow(y, a []float64, n int, x []float64, k, r0, r1 int, update bool, alpha, beta float64, p, v []float64) int {
	var pack [panelPack]float64
	var acopy [panelACopy]float64
	return mulVecsPanelPass(pack[:], acopy[:], y, a, n, x, k, r0, r1, update, alpha, beta, p, v)
}

//go:noinline
func mulVecsPanelBatchWide(y, a []float64, n int, x []float64, k, r0, r1 int, update bool, alpha, beta float64, p, v []float64) int {
	var pack [panelPackWide]float64
	var acopy [panelACopy]float64
	return mulVecsPanelPass(pack[:], acopy[:], y, a, n, x, k, r0, r1, update, alpha, beta, p, v)
}

// The last register of a single-block tile (3 registers in the 8-row
// tiles, 4 in the 6-row ones), the panels' half argument: panelLastFull (8
// lanes), panelLastHalf (4 lanes wide, for k mod 8 from 1 to 4: its loads
// and FMAs then cost half a 512-bit one on CPUs that split those in two,
// and the same on the others) or panelLastPair (k mod 8 = 1 or 2: the two
// vectors of two rows in one 4-lane register, half as many 4-lane FMAs as
// panelLastHalf, one blend per pair of rows). Every form computes each
// output with the same chain of FMAs, so the choice changes no bit.
const (
	panelLastFull = iota
	panelLastHalf
	panelLastPair
)

// panelPairs lets panelLast choose panelLastPair; tests turn it off to
// compare the forms.
var panelPairs = true

// panelLast returns the form of the last register of the panels' tiles
// for k vectors in kp lanes.
func panelLast(kp, k int) int {
	z := kp / 8
	switch {
	case (z != 3 && z != 4) || k%8 == 0 || k%8 > 4:
		return panelLastFull
	case k%8 <= 2 && panelPairs:
		return panelLastPair
	}
	return panelLastHalf
}

// mulVecsPanelPass is mulVecsPanelBatch with the packed panel in pack and
// the room for the copies of A in acopy: the whole tiles within the rows
// r0 … r1−1 (all that start from r0 when r1 = n). It returns the rows the
// whole call's tiles cover.
func mulVecsPanelPass(pack, acopy, y, a []float64, n int, x []float64, k, r0, r1 int, update bool, alpha, beta float64, p, v []float64) int {
	kp, tileRows, kcMax := panelShape(n, k, len(pack))
	z := kp / 8
	g3, g2, g1 := panelBlocks(z)
	tiles := n / tileRows
	upd, half := 0, panelLast(kp, k)
	if update {
		upd = 1
	}
	// A tile of a single block of 3 or 4 registers copies the next tile's
	// block over its own copy (onebuf); the other blocks would read the
	// tile's copy again after the first.
	single := (tileRows == 6 && z == 4) || (tileRows == panelRows && z == 3)
	t0, t1 := tileRange(r0, r1, n, tiles, tileRows)
	clearRows(y, n, k, t0*tileRows, t1*tileRows)
	walkPanels(n, kcMax, t0, t1, tileRows, func(c0, kc int) {
		packPanelAVX512(pack[:kc*kp], x[c0:], n, kc, kp, k)
	}, func(c0, kc, r, nt int) {
		pr, vc := updateArgs(update, p, v, r, c0)
		onebuf := b2i(update && kc >= 8 && single)
		if tileRows == 6 {
			panel6AVX512(y[r:], a[r*n+c0:], pack[:kc*kp], acopy[:], n, nt, kc, kp, k, z/4,
				alpha, beta, pr, vc, upd, half, onebuf)
			return
		}
		panel8AVX512(y[r:], a[r*n+c0:], pack[:kc*kp], acopy[:], n, nt, kc, kp, k, g3, g2, g1,
			alpha, beta, pr, vc, upd, half, onebuf)
	})
	return tiles * tileRows
}

// panelShape returns the packed lanes kp, the tile height and the widest
// panel of the AVX-512 panels for k ≤ panelMaxLanes vectors with a packed
// panel of pack float64s: vectors in 4 registers (or a multiple) run in
// tiles of 6 rows, all others in tiles of 8.
func panelShape(n, k, pack int) (kp, rows, kcMax int) {
	kp = (k + 7) &^ 7
	rows = panelRows
	if (kp/8)%4 == 0 {
		rows = 6
	}
	return kp, rows, min(n, pack/kp&^7, panelACols)
}

// walkPanels walks the column panels of an n×n A, at most kcMax columns
// each: pack(c0, kc) for each panel, then tile(c0, kc, r, nt) for each run
// of at most panelTiles of the tiles t0 … t1−1 of rows rows (the first row
// r), so that an assembly call stays short (assembly is not preempted).
func walkPanels(n, kcMax, t0, t1, rows int, pack func(c0, kc int), tile func(c0, kc, r, nt int)) {
	if t0 >= t1 {
		return
	}
	for c0 := 0; c0 < n; c0 += kcMax {
		kc := min(kcMax, n-c0)
		pack(c0, kc)
		for t := t0; t < t1; t += panelTiles {
			tile(c0, kc, t*rows, min(panelTiles, t1-t))
		}
	}
}

// tileRange returns the tiles of rows rows within the rows r0 … r1−1, all
// from r0's on when r1 = n (rowsValid: r0, and r1 < n, are multiples of
// every tile height).
func tileRange(r0, r1, n, tiles, rows int) (t0, t1 int) {
	if r1 == n {
		return min(r0/rows, tiles), tiles
	}
	return r0 / rows, r1 / rows
}

// clearRows sets the rows r0 … r1−1 of the k products in y to 0.
func clearRows(y []float64, n, k, r0, r1 int) {
	for j := 0; j < k; j++ {
		clear(y[j*n+r0 : j*n+r1])
	}
}

// updateArgs returns p and v from the tile chunk's first row r and the
// panel's first column c0 with the update, nil without.
func updateArgs(update bool, p, v []float64, r, c0 int) (pr, vc []float64) {
	if !update {
		return nil, nil
	}
	return p[r:], v[c0:]
}

// panelBlocks splits z registers of vectors into blocks of 3, 2 and 1
// registers: as many 3s as possible, no block of 1 unless z = 1.
func panelBlocks(z int) (g3, g2, g1 int) {
	switch {
	case z == 1:
		return 0, 0, 1
	case z%3 == 0:
		return z / 3, 0, 0
	case z%3 == 2:
		return z / 3, 1, 0
	}
	return z/3 - 1, 2, 0
}

// packPanelAVX512 packs columns c0 to c0+kc−1 of the k vectors of x
// transposed, xt[c*kp+j] = x[j*n+c0+c] with zeros in the lanes k ≤ j < kp;
// x starts at column c0 (8×8 blocks transposed in registers). len(xt) ≥
// kc·kp, len(x) ≥ (k−1)·n+kc, kc ≥ 1, 8 ≤ kp, k ≤ kp, kp−k < 8.
//
//go:noescape
func packPanelAVX512(xt, x []float64, n, kc, kp, k int)

// panel8AVX512 adds one column panel of MulVecs to y, for tiles of 8 rows
// and blocks of vectors of 3, 2 or 1 registers (g3, g2, g1 of them):
//
//	for t < tiles, r < 8, j < k:
//		y[j*n + 8t+r] += Σ_{c<kc} a[(8t+r)*n+c]·xt[c*kp+j]
//
// The rows of a start at the panel's first column; xt is the packed panel
// (packPanel), 8·(3·g3+2·g2+g1) = kp ≥ k. len(a) ≥ (8·tiles−1)·n+kc,
// len(xt) ≥ kc·kp, len(y) ≥ (k−1)·n+8·tiles; tiles, kc ≥ 1. With update ≠ 0
// it first applies, per tile, a[(8t+r)*n+c] = fma(β·p[8t+r], v[c],
// α·a[(8t+r)*n+c]) for c < kc (len(p) ≥ 8·tiles, len(v) ≥ kc), and reads
// each tile's updated block from a copy in ap (len(ap) ≥ panelACopy, kc ≤
// panelACols); p, v and ap are unused otherwise. half (one block, g3 = 1)
// is the form of the block's last register: panelLastFull, panelLastHalf
// (k mod 8 = 1–4) or panelLastPair (k mod 8 = 1 or 2).
// onebuf ≠ 0 (with the update, one block of 3 registers, kc ≥ 8) keeps one
// copy instead of two: the next tile's block is copied over the lines of
// the current one's that the column steps have read.
//
//go:noescape
func panel8AVX512(y, a, xt, ap []float64, n, tiles, kc, kp, k, g3, g2, g1 int, alpha, beta float64, p, v []float64, update, half, onebuf int)

// panel6AVX512 is panel8AVX512 for tiles of 6 rows and g4 blocks of 4
// registers (kp = 32·g4): len(a) ≥ (6·tiles−1)·n+kc, len(y) ≥
// (k−1)·n+6·tiles, len(p) ≥ 6·tiles; onebuf needs g4 = 1.
//
//go:noescape
func panel6AVX512(y, a, xt, ap []float64, n, tiles, kc, kp, k, g4 int, alpha, beta float64, p, v []float64, update, half, onebuf int)
