//go:build gc && !purego

package kernel

// MulVecs on AVX2 without AVX-512 for large n: the column panels of
// mulvecs_panels_amd64.go in 256-bit registers (mulvecs_panels_avx2_amd64.s): tiles of 4 rows of
// A, blocks of 3, 2 or 1 registers of 4 vectors, the packed panel of the
// vectors made in Go. The whole-row tiles (tile.go) keep all k vectors'
// rows of x in the caches for every block of 4 rows of A, which at n = 4096
// (λ = 28: 0.9 MiB of x) no longer fit L2; a panel keeps kc columns of them.
// With the rank-one update (UpdateMulVecs) A is updated in the same pass:
// with α = 1 (the optimizer's case) and k ≥ 5 at every n of the panels,
// the column loop of each tile's first block updating the next tile's
// block under its FMAs and writing it into a copy whose rows do not share
// L1 sets, which the next tile's blocks read (as the AVX-512 panels do);
// otherwise from n = avx2PanelFusedMinN, each tile's block just before
// the tile reads it.

// usePanelsAVX2 reports whether MulVecs runs on the AVX2 panels.
func usePanelsAVX2(n, k int) bool {
	return useAVX2 && !useAVX512 && n >= avx2PanelMinN && k >= avx2PanelMinK
}

// avx2PanelMinN is the smallest n for the AVX2 panels (below it the whole-row
// tiles are as fast), avx2PanelMinK the smallest k (one register of vectors).
// The constants of this file were measured: docs/performance.md, "Tuning
// constants".
const (
	avx2PanelMinN = 768
	avx2PanelMinK = 4
)

// avx2PanelFusedMinN is the smallest n at which UpdateMulVecs updates A inside
// the AVX2 panels' pass when each tile updates its own block (α ≠ 1, or
// k ≤ 4): there the update waits for A's blocks in each tile, which pays
// once A no longer fits the last-level cache; below, the separate
// ScaleAddOuter pass is faster. When each tile updates the next one's
// block under its FMAs (avx2AheadOK), the fused pass is faster at every n
// of the panels.
const avx2PanelFusedMinN = 1536

// avx2AheadOK reports whether the AVX2 panels, updating A with α, update the
// next tile's block under each tile's FMAs for panels of at most kcMax
// columns: α = 1 and the copies hold a panel's rows.
func avx2AheadOK(alpha float64, kcMax int) bool {
	return avx2Ahead && alpha == 1 && kcMax <= avx2CopyStride
}

// avx2PanelCols is the widest panel of the AVX2 panels' first batch of the
// k vectors (the one that updates A) at n.
func avx2PanelCols(n, k int) int {
	_, kc := panelShapeAVX2(n, min(k, panelMaxLanes), avx2PanelPack)
	return kc
}

// avx2PanelRows is the number of rows of A in one tile of panel4AVX2.
const avx2PanelRows = 4

// avx2PanelPack is the room for the packed panel in float64s (24 KiB): kc·kp ≤
// avx2PanelPack, so that the panel stays in L1 with the tile's rows of A (kc =
// 128 columns at k = 24); a larger panel, read from L2, is slower.
const avx2PanelPack = 3072

// avx2CopyStride is the row stride, in float64s, of the copies of a tile's
// block of A that the AVX2 panels read when the next tile's update runs
// under the tile's FMAs (p4cstride, in bytes, in kernel/_asm, which writes
// mulvecs_panels_avx2_amd64.s): 49 cache lines, an odd number, so that the
// 4 rows of a copy fall into different sets of L1 (the rows of A itself
// share one set when n is a multiple of 512). It bounds the panel's columns
// in that mode: kc ≤ avx2PanelPack/8 = 384 for k ≥ 5 vectors; with k ≤ 4
// (panels of 768 columns) each tile updates its own block.
const avx2CopyStride = 392

// avx2Copies is the room for the two copies, the current tile's block and
// the next one's, in float64s (24.5 KiB).
const avx2Copies = 2 * avx2PanelRows * avx2CopyStride

// avx2WorkLen is the AVX2 panels' scratch space: the packed panel, the
// copies and 8 float64s of slack to start the copies at a cache line.
const avx2WorkLen = avx2PanelPack + avx2Copies + 8

// mulVecsPanelsAVX2 computes the rows r0 … r1−1 of MulVecs (rowsValid) on
// the AVX2 panels, the rows below the last whole tile in the range that
// ends at n; with update it first applies A ← α·A + β·p·vᵀ to each block
// of A before the block is read, a tile ahead where avx2AheadOK allows
// (the first batch of vectors does, the rows below the last whole tile
// are updated by scaleAddOuter). The packed panel and the copies are in
// work (len(work) ≥ avx2WorkLen) or, with work nil, on the stack (the
// copies only when a pass updates ahead). Vectors run in batches of at
// most panelMaxLanes, so that a panel keeps at least 8 columns.
func mulVecsPanelsAVX2(y, a []float64, n int, x []float64, k, r0, r1 int, update bool, alpha, beta float64, p, v, work []float64) {
	for j0 := 0; j0 < k; j0 += panelMaxLanes {
		kb := min(panelMaxLanes, k-j0)
		upd := update && j0 == 0
		if work != nil {
			mulVecsPanelsAVX2Pass(y[j0*n:], a, n, x[j0*n:], kb, r0, r1, upd, alpha, beta, p, v,
				work[:avx2PanelPack], alignLine(work[avx2PanelPack:avx2WorkLen])[:avx2Copies])
			continue
		}
		if upd && avx2AheadOK(alpha, avx2PanelCols(n, kb)) {
			mulVecsPanelsAVX2StackCopies(y[j0*n:], a, n, x[j0*n:], kb, r0, r1, upd, alpha, beta, p, v)
			continue
		}
		mulVecsPanelsAVX2Stack(y[j0*n:], a, n, x[j0*n:], kb, r0, r1, upd, alpha, beta, p, v)
	}
	if r1 < n {
		return
	}
	rows := n / avx2PanelRows * avx2PanelRows
	if update && rows < n {
		scaleAddOuter(a[rows*n:], n, n-rows, alpha, beta, p[rows:], v)
	}
	if rows < n {
		mulVecsRowBlock(y, a, n, x, k, n-tileRows)
	}
}

// mulVecsPanelsAVX2Stack is mulVecsPanelsAVX2Pass with the packed panel on its
// stack frame, for a pass that does not update ahead (no copies).
//
//go:noinline
func mulVecsPanelsAVX2Stack(y, a []float64, n int, x []float64, k, r0, r1 int, update bool, alpha, beta float64, p, v []float64) {
	var pack [avx2PanelPack]float64
	mulVecsPanelsAVX2Pass(y, a, n, x, k, r0, r1, update, alpha, beta, p, v, pack[:], nil)
}

// mulVecsPanelsAVX2StackCopies is mulVecsPanelsAVX2Stack with the copies of
// the tiles' blocks on its stack frame too, for a pass that updates ahead
// (not inlined, so that the other one does not clear this larger frame).
//
//go:noinline
func mulVecsPanelsAVX2StackCopies(y, a []float64, n int, x []float64, k, r0, r1 int, update bool, alpha, beta float64, p, v []float64) {
	var pack [avx2PanelPack]float64
	var cp [avx2Copies + 8]float64
	mulVecsPanelsAVX2Pass(y, a, n, x, k, r0, r1, update, alpha, beta, p, v, pack[:], alignLine(cp[:])[:avx2Copies])
}

// mulVecsPanelsAVX2Pass is MulVecs for the k ≤ panelMaxLanes vectors and the
// rows of whole tiles, on the AVX2 panels (with update, as
// mulVecsPanelsAVX2).
func mulVecsPanelsAVX2Pass(y, a []float64, n int, x []float64, k, r0, r1 int, update bool, alpha, beta float64, p, v, pack, cp []float64) {
	kp, kcMax := panelShapeAVX2(n, k, len(pack))
	g3, g2, g1, pair := panelBlocksAVX2(kp, k)
	// The copies' blocks have no code for a block of 1 register, which
	// only kp = 4 has (never with panels the copies hold).
	ahead := b2i(update && avx2AheadOK(alpha, kcMax) && g1 == 0 && len(cp) >= avx2Copies)
	tiles := n / avx2PanelRows
	t0, t1 := tileRange(r0, r1, n, tiles, avx2PanelRows)
	clearRows(y, n, k, t0*avx2PanelRows, t1*avx2PanelRows)
	walkPanels(n, kcMax, t0, t1, avx2PanelRows, func(c0, kc int) {
		packPanel(pack[:kc*kp], x[c0:], n, kc, kp, k)
	}, func(c0, kc, r, nt int) {
		pr, vc := updateArgs(update, p, v, r, c0)
		panel4AVX2(y[r:], a[r*n+c0:], pack[:kc*kp], cp, n, nt, kc, kp, k, g3, g2, g1, alpha, beta, pr, vc, b2i(update), pair, ahead)
	})
}

// avx2PanelPairs lets panelBlocksAVX2 pair the last register; tests turn it
// off to compare.
var avx2PanelPairs = true

// avx2Ahead lets the AVX2 panels update the next tile's block under a
// tile's FMAs (with α = 1, the optimizer's case); tests turn it off to
// compare.
var avx2Ahead = true

// panelBlocksAVX2 splits the kp/4 registers of k ≤ panelMaxLanes vectors
// into g3, g2 and g1 blocks of 3, 2 and 1 registers (panelBlocks), or, when
// the last register holds one or two vectors (k mod 4 = 1 or 2) and kp/4
// is 3 or at least 5, into the blocks of kp/4 − 3 registers and a paired
// block (pair = 1): 2 full registers and the pair register, which holds
// the two lanes of two rows, 10 FMAs a column step where a block of 3
// registers takes 12. The pair register computes each lane as the 4-lane
// one does, so the split changes no bit. A paired block of fewer full
// registers would wait for the latency of its FMAs, and 4 registers would
// leave a block of 1, bound by its loads: neither pays.
func panelBlocksAVX2(kp, k int) (g3, g2, g1, pair int) {
	z := kp / 4
	if !avx2PanelPairs || k%4 == 0 || k%4 == 3 || z < 3 || z == 4 {
		g3, g2, g1 = panelBlocks(z)
		return g3, g2, g1, 0
	}
	g3, g2, g1 = panelBlocks(z - 3) // none for z = 3
	return g3, g2, g1, 1
}

// panelShapeAVX2 returns the packed lanes kp and the widest panel of the AVX2
// panels for k ≤ panelMaxLanes vectors with a packed panel of pack float64s.
func panelShapeAVX2(n, k, pack int) (kp, kcMax int) {
	kp = (k + 3) &^ 3
	return kp, min(n, max(8, pack/kp&^7))
}

// packPanel packs columns c0 to c0+kc−1 of the k vectors of x transposed,
// xt[c*kp+j] = x[j*n+c0+c], with zeros in the lanes k ≤ j < kp; x starts at
// column c0.
func packPanel(xt, x []float64, n, kc, kp, k int) {
	for j := 0; j < k; j++ {
		xj := x[j*n : j*n+kc]
		for c, v := range xj {
			xt[c*kp+j] = v
		}
	}
	for c := 0; c < kc; c++ {
		clear(xt[c*kp+k : c*kp+kp])
	}
}

// b2i is 1 for true, 0 for false (the assembly's flags).
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// panel4AVX2 adds one column panel of MulVecs to y, for tiles of 4 rows
// and blocks of vectors of 3, 2 or 1 registers (g3, g2, g1 of them):
//
//	for t < tiles, r < 4, j < k:
//		y[j*n + 4t+r] += Σ_{c<kc} a[(4t+r)*n+c]·xt[c*kp+j]
//
// The rows of a start at the panel's first column; xt is the packed panel
// (packPanel), 4·(3·g3+2·g2+g1+3·pair) = kp ≥ k, with pair = 1 (k mod 4
// = 1 or 2) when the tile ends in the paired block (panelBlocksAVX2), 0
// otherwise. len(a) ≥ (4·tiles−1)·n+kc, len(xt) ≥ kc·kp, len(y) ≥
// (k−1)·n+4·tiles; tiles, kc ≥ 1. With update ≠ 0 it first applies, per
// tile, a[(4t+r)*n+c] = fma(β·p[4t+r], v[c], α·a[(4t+r)*n+c]) for c < kc
// (len(p) ≥ 4·tiles, len(v) ≥ kc); p and v are unused otherwise.
//
// With ahead ≠ 0 (update ≠ 0, α = 1, kc ≤ avx2CopyStride) the blocks read
// copies of the tiles' blocks in cp (len(cp) ≥ avx2Copies, best 64-byte
// aligned): the first tile updates its block into A and the first copy,
// and each tile's first block updates the next tile's block into A and the
// other copy, with the same operations.
//
//go:noescape
func panel4AVX2(y, a, xt, cp []float64, n, tiles, kc, kp, k, g3, g2, g1 int, alpha, beta float64, p, v []float64, update, pair, ahead int)
