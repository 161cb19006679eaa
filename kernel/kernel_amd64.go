//go:build gc && !purego

//go:generate env GOWORK=off go run -C _asm . -kernels rows -out ../mulvecs_rows_amd64.s
//go:generate env GOWORK=off go run -C _asm . -kernels vectors -out ../vectors_amd64.s
//go:generate env GOWORK=off go run -C _asm . -kernels outer -out ../outer_amd64.s
//go:generate env GOWORK=off go run -C _asm . -kernels dotrows -out ../dotrows4_amd64.s
//go:generate env GOWORK=off go run -C _asm . -kernels panels_avx2 -out ../mulvecs_panels_avx2_amd64.s
//go:generate env GOWORK=off go run -C _asm . -kernels panels_avx512 -out ../mulvecs_panels_avx512_amd64.s
//go:generate env GOWORK=off go run -C _asm . -kernels lowrank_avx512 -out ../lowrank_avx512_amd64.s
//go:generate env GOWORK=off go run -C _asm . -kernels lowrank_avx2 -out ../lowrank_avx2_amd64.s
//go:generate env GOWORK=off go run -C _asm . -kernels small_avx512 -out ../mulvecs_small_avx512_amd64.s

package kernel

import (
	"strconv"
	"unsafe"

	"golang.org/x/sys/cpu"
)

func init() {
	// HasAVX2 and HasAVX512F include the operating system's support for the
	// wider registers; FMA is a separate feature bit. The AVX-512 path also
	// uses VL (the column panels' half-width registers, the ziggurat's
	// 128-bit loads into X16-X31) and DQ (the ziggurat's lane inserts), which
	// every AVX-512 CPU since Skylake-SP has, the Xeon Phi not.
	useAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	useAVX512 = useAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL && cpu.X86.HasAVX512DQ
	if kib := cpuidL2KiB(); kib > 0 {
		l2Bytes = int(kib) << 10
	}
	l3Bytes = cpuidL3Bytes()
	streamMin = streamMinFor(l2Bytes, l3Bytes)
	combineStreamMin = combineStreamMinFor(l2Bytes, l3Bytes)
}

// cpuVendorIntel reports whether CPUID names the vendor GenuineIntel.
//
//go:noescape
func cpuVendorIntel() bool

// cpuidL2KiB returns the size of a core's L2 cache in KiB as CPUID reports
// it, 0 where it does not.
//
//go:noescape
func cpuidL2KiB() uint32

// cpuid returns the registers CPUID leaves for leaf and subleaf sub.
//
//go:noescape
func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

// cpuidL3Bytes returns the size of the L3 cache as CPUID's deterministic
// cache parameters give it (leaf 4 on Intel, 0x8000001D on AMD: the
// cache a core shares with the others of its complex), 0 where the CPU
// reports none.
func cpuidL3Bytes() int {
	leaf := uint32(4)
	if cpuVendorIntel() {
		if top, _, _, _ := cpuid(0, 0); top < 4 {
			return 0
		}
	} else {
		leaf = 0x8000001d
		top, _, _, _ := cpuid(0x80000000, 0)
		_, _, ext, _ := cpuid(0x80000001, 0)
		if top < leaf || ext&(1<<22) == 0 { // no topology extensions
			return 0
		}
	}
	for sub := uint32(0); sub < 16; sub++ {
		eax, ebx, ecx, _ := cpuid(leaf, sub)
		if eax&31 == 0 { // no more caches
			break
		}
		if eax&31 == 3 && eax>>5&7 == 3 { // unified, level 3
			return cacheBytes(ebx, ecx)
		}
	}
	return 0
}

// Dispatch: each function picks the widest path the flags allow.

// mulVecs computes the rows r0 … r1−1 of the k products (rowsValid);
// the small kernels only whole (n ≤ smallMaxN < minSplitN).
func mulVecs(y, a []float64, n int, x []float64, k, r0, r1 int, work []float64) {
	switch {
	case useSmall(n):
		mulVecsSmall(y, a, n, x, k)
	case !useAVX2 || n < tileRows:
		mulVecsGenericRows(y, a, n, x, k, r0, r1)
	case usePanels(n, k):
		mulVecsPanels(y, a, n, x, k, r0, r1, false, 0, 0, nil, nil, work)
	case usePanelsAVX2(n, k):
		mulVecsPanelsAVX2(y, a, n, x, k, r0, r1, false, 0, 0, nil, nil, work)
	default:
		mulVecsTiled(y, a, n, x, k, r0, r1)
	}
}

// updateMulVecs applies A ← α·A + β·p·vᵀ and computes y_i = A·x_i: in one
// pass over A on the AVX-512 panels and on the AVX2 ones when their tiles
// update the next tile's block (α = 1, k ≥ 5) or n ≥ avx2PanelFusedMinN,
// else as ScaleAddOuter then MulVecs. Both give the same bits.
func updateMulVecs(y, a []float64, n int, alpha, beta float64, p, v, x []float64, k, r0, r1 int, work []float64) {
	switch {
	case useSmall(n) && r0 == 0 && r1 == n:
		updateMulVecsSmall(y, a, n, alpha, beta, p, v, x, k)
		return
	case usePanels(n, k):
		mulVecsPanels(y, a, n, x, k, r0, r1, true, alpha, beta, p, v, work)
		return
	case usePanelsAVX2(n, k) && (n >= avx2PanelFusedMinN || avx2AheadOK(alpha, avx2PanelCols(n, k))):
		mulVecsPanelsAVX2(y, a, n, x, k, r0, r1, true, alpha, beta, p, v, work)
		return
	}
	updateMulVecsSeparate(y, a, n, alpha, beta, p, v, x, k, r0, r1, work)
}

func mulVec(y, a []float64, n int, x []float64) {
	if !useAVX2 || n < tileRows {
		mulVecGeneric(y, a, n, x)
		return
	}
	mulVecTiled(y, a, n, x)
}

// tileVecs is the number of vectors in tileGroups' register tiles for a
// product of k vectors. On AVX-512 it is the width of 4, 5 or 6 vectors
// that computes the fewest products (the last tile of a block moves back to
// end at k and recomputes a few of its neighbour's), the widest among
// equals: 16 vectors take four tiles of 4 rather than three of 6 (18
// products). Every width sums each output in the same order, so the choice
// changes no bit.
func tileVecs(k int) int {
	if !useAVX512 {
		return 3
	}
	best := 6
	for v := 5; v >= 4; v-- {
		if (k+v-1)/v*v < (k+best-1)/best*best {
			best = v
		}
	}
	return best
}

// tileOne is the AVX2 tile of tileGroupsLoop.
func tileOne(y, a, x []float64, n int) { tile4x3AVX2(y, a, x, n) }

// tileGroups computes the 4 rows at a of all k ≥ v products in register
// tiles of v = tileVecs(k) vectors: on AVX-512 in one call, on AVX2 a tile a
// call.
func tileGroups(y, a, x []float64, n, k, v int) {
	if !useAVX512 {
		tileGroupsLoop(y, a, x, n, k, v)
		return
	}
	switch v {
	case 4:
		tile4x4AVX512(y, a, x, n, k)
	case 5:
		tile4x5AVX512(y, a, x, n, k)
	default:
		tile4x6AVX512(y, a, x, n, k)
	}
}

func tileRowsVec(y, a, x []float64, n int) {
	if useAVX512 {
		tile4x1AVX512(y, a, x, n)
		return
	}
	tile4x1AVX2(y, a, x, n)
}

func scaleAddOuter(a []float64, n, rows int, alpha, beta float64, p, v []float64) {
	switch {
	case useAVX512:
		scaleAddOuterAVX512(a, n, rows, alpha, beta, p, v)
	case useAVX2:
		scaleAddOuterAVX2(a, n, rows, alpha, beta, p, v)
	default:
		scaleAddOuterGeneric(a, n, rows, alpha, beta, p, v)
	}
}

// scaleAddRankK hands one term (k = 1) on whole rows to the rank-one
// kernels: they compute the same fma(fl(β[0]·p[i]), q[j], fl(α·a[i*n+j])),
// bit for bit, with less work per row (it shows at n = 16).
func scaleAddRankK(a []float64, n, rows, cols int, alpha float64, beta, p, q []float64, k int) {
	switch {
	case useAVX512 && k == 1 && cols == n:
		scaleAddOuterAVX512(a, n, rows, alpha, beta[0], p, q)
	case useAVX2 && k == 1 && cols == n:
		scaleAddOuterAVX2(a, n, rows, alpha, beta[0], p, q)
	case useAVX512 || useAVX2:
		scaleAddRankKTiles(a, n, rows, cols, alpha, beta, p, q, k)
	default:
		scaleAddRankKGeneric(a, n, rows, cols, alpha, beta, p, q, k)
	}
}

// scaleAddRankKTiles runs the groups of 4 rows of the block on the path's
// tile (scaleAddRankK4AVX512, scaleAddRankK4AVX2) and the rows left over
// row by row (scaleAddRankKAVX512, scaleAddRankKAVX2): every element gets
// the same chain either way.
func scaleAddRankKTiles(a []float64, n, rows, cols int, alpha float64, beta, p, q []float64, k int) {
	r4 := rows &^ 3
	if r4 > 0 {
		if useAVX512 {
			scaleAddRankK4AVX512(a, n, r4, cols, alpha, beta, p, q, k)
		} else {
			scaleAddRankK4AVX2(a, n, r4, cols, alpha, beta, p, q, k)
		}
	}
	if r4 == rows {
		return
	}
	a, p = a[r4*n:], p[r4:]
	if useAVX512 {
		scaleAddRankKAVX512(a, n, rows-r4, cols, alpha, beta, p, q, k)
	} else {
		scaleAddRankKAVX2(a, n, rows-r4, cols, alpha, beta, p, q, k)
	}
}

func dot(x, y []float64) float64 {
	switch {
	case useAVX512:
		return dotAVX512(x, y)
	case useAVX2:
		return dotAVX2(x, y)
	}
	return dotGeneric(x, y)
}

// axpbyDot computes axpby and the sum of squares of dst in one pass where
// the path has a kernel for it (AVX-512, len(dst) ≤ vecBlock), and reports
// whether it did; else it does nothing.
func axpbyDot(dst []float64, alpha float64, x []float64, beta float64, y []float64) (float64, bool) {
	if useAVX512 && len(dst) <= vecBlock {
		return axpbyDotAVX512(dst, alpha, x, beta, y), true
	}
	return 0, false
}

// axpbyDotAVX512 is axpbyAVX512 followed by dotAVX512(dst, dst), the sum of
// squares taken from the registers as dst is stored.
//
//go:noescape
func axpbyDotAVX512(dst []float64, alpha float64, x []float64, beta float64, y []float64) float64

func axpby(dst []float64, alpha float64, x []float64, beta float64, y []float64) {
	switch {
	case useAVX512:
		axpbyAVX512(dst, alpha, x, beta, y)
	case useAVX2:
		axpbyAVX2(dst, alpha, x, beta, y)
	default:
		axpbyGeneric(dst, alpha, x, beta, y)
	}
}

// maxAbsBitsPath is maxAbsBits on the path, len(x) ≥ 1.
func maxAbsBitsPath(x []float64) uint64 {
	if useAVX512 {
		return maxAbsBitsAVX512(x)
	}
	return maxAbsBits(x)
}

// maxAbsBitsAVX512 is maxAbsBits for len(x) ≥ 1.
//
//go:noescape
func maxAbsBitsAVX512(x []float64) uint64

// rotatePair is RotatePair for one block, with mt = −t.
func rotatePair(x, y []float64, c, s, r, mt float64) {
	switch {
	case useAVX512:
		rotatePairAVX512(x, y, c, s, r, mt)
	case useAVX2:
		rotatePairAVX2(x, y, c, s, r, mt)
	default:
		axpbyGeneric(y, s, x, c, y)
		axpbyGeneric(x, mt, y, r, x)
	}
}

// rotatePairAVX512 sets y ← fma(s, x, c·y) and then x ← fma(mt, y, r·x)
// in one pass, the bits of axpbyAVX512(y, s, x, c, y) followed by
// axpbyAVX512(x, mt, y, r, x); len(y) = len(x) ≥ 1.
//
//go:noescape
func rotatePairAVX512(x, y []float64, c, s, r, mt float64)

// rotatePairAVX2 is rotatePairAVX512 with the bits of axpbyAVX2.
//
//go:noescape
func rotatePairAVX2(x, y []float64, c, s, r, mt float64)

func weightedSum(dst, w, x []float64, n int, rows []int) {
	switch {
	case useAVX512:
		weightedSumAVX512(dst, w, x, n, rows)
	case useAVX2:
		weightedSumAVX2(dst, w, x, n, rows)
	default:
		weightedSumGeneric(dst, w, x, n, rows)
	}
}

func scale(alpha float64, x []float64) {
	switch {
	case useAVX512:
		scaleAVX512(alpha, x)
	case useAVX2:
		scaleAVX2(alpha, x)
	default:
		scaleGeneric(alpha, x)
	}
}

// The assembly (kernel_amd64.s, and generated by _asm: mulvecs_rows_amd64.s,
// vectors_amd64.s, outer_amd64.s, dotrows4_amd64.s). Each function assumes
// the checks of its caller passed: the lengths below hold and n ≥ 1 (tiles:
// n ≥ 4 rows exist).
// Rows of a and vectors of x and y are n elements apart.

// tile4x6AVX512 computes the 4 rows of all k products of MulVecs in
// register tiles of 6 vectors, the last tile moved back to end at k:
//
//	for j < k, i < 4: y[j*n+i] = Σ_c a[i*n+c]·x[j*n+c]
//
// k ≥ 6, len(a) ≥ 4n, len(x) ≥ k·n, len(y) ≥ (k−1)·n+4. The column tail is
// masked.
//
//go:noescape
func tile4x6AVX512(y, a, x []float64, n, k int)

// tile4x5AVX512 and tile4x4AVX512 are tile4x6AVX512 in tiles of 5 and 4
// vectors (k ≥ 5, k ≥ 4), each output summed in the same order.
//
//go:noescape
func tile4x5AVX512(y, a, x []float64, n, k int)

//go:noescape
func tile4x4AVX512(y, a, x []float64, n, k int)

// tile4x3AVX2 is one tile of tile4x6AVX512 for 3 vectors with AVX2 and FMA:
// len(a) ≥ 4n, len(x) ≥ 3n, len(y) ≥ 2n+4.
//
//go:noescape
func tile4x3AVX2(y, a, x []float64, n int)

// tile4x1AVX512 computes y[i] = Σ_c a[i*n+c]·x[c] for i < 4:
// len(a) ≥ 4n, len(x) ≥ n, len(y) ≥ 4.
//
//go:noescape
func tile4x1AVX512(y, a, x []float64, n int)

// tile4x1AVX2 is tile4x1AVX512 with AVX2 and FMA.
//
//go:noescape
func tile4x1AVX2(y, a, x []float64, n int)

// scaleAddOuterAVX512 computes, for i < rows, j < n:
//
//	a[i*n+j] = fma(β·p[i], v[j], α·a[i*n+j])
//
// len(a) ≥ rows·n, len(p) ≥ rows, len(v) ≥ n.
//
//go:noescape
func scaleAddOuterAVX512(a []float64, n, rows int, alpha, beta float64, p, v []float64)

// scaleAddOuterAVX2 is scaleAddOuterAVX512 with AVX2 and FMA.
//
//go:noescape
func scaleAddOuterAVX2(a []float64, n, rows int, alpha, beta float64, p, v []float64)

// scaleAddRankKAVX512 computes, for i < rows, j < cols, the chain of
// ScaleAddRankK (rows of a, p and q are n apart; cols ≤ n is a panel):
//
//	s := α·a[i*n+j]
//	for t := 0; t < k; t++ { s = fma(β[t]·p[t*n+i], q[t*n+j], s) }
//	a[i*n+j] = s
//
// It needs assembly for the fma chains: per row it rounds the k coefficients
// β[t]·p[t*n+i] once into its frame, then runs 64 columns at a time (eight
// independent chains; then 16, 8 and a masked tail) through all k terms in
// registers, so A is read and written once while the k×cols panel of q stays
// in cache across the rows. len(a) ≥ (rows−1)·n+cols,
// len(beta) ≥ k, len(p) ≥ (k−1)·n+rows, len(q) ≥ (k−1)·n+cols;
// rows, cols ≥ 1, 1 ≤ k ≤ rankKChunk.
//
//go:noescape
func scaleAddRankKAVX512(a []float64, n, rows, cols int, alpha float64, beta, p, q []float64, k int)

// scaleAddRankK4AVX512 is scaleAddRankKAVX512 for rows a multiple of 4 (≥ 4)
// and cols ≥ 1, in register tiles of 4 rows × 32 columns, then 4 × 8 and a
// masked tail: the same bits.
//
//go:noescape
func scaleAddRankK4AVX512(a []float64, n, rows, cols int, alpha float64, beta, p, q []float64, k int)

// scaleAddRankK4AVX2 is scaleAddRankKAVX2 for rows a multiple of 4 (≥ 4)
// and cols ≥ 1, in register tiles of 4 rows × 8 columns, then 4 × 4 and a
// masked tail: the same bits.
//
//go:noescape
func scaleAddRankK4AVX2(a []float64, n, rows, cols int, alpha float64, beta, p, q []float64, k int)

// scaleAddRankKAVX2 is scaleAddRankKAVX512 with AVX2 and FMA (8 columns at a
// time).
//
//go:noescape
func scaleAddRankKAVX2(a []float64, n, rows, cols int, alpha float64, beta, p, q []float64, k int)

// dotAVX512 returns Σ x[i]·y[i], len(y) ≥ len(x) ≥ 1.
//
//go:noescape
func dotAVX512(x, y []float64) float64

// dotAVX2 is dotAVX512 with AVX2 and FMA.
//
//go:noescape
func dotAVX2(x, y []float64) float64

// axpbyAVX512 computes dst[i] = fma(α, x[i], β·y[i]) for i < len(x) ≤
// len(y), len(dst).
//
//go:noescape
func axpbyAVX512(dst []float64, alpha float64, x []float64, beta float64, y []float64)

// axpbyAVX2 is axpbyAVX512 with AVX2 and FMA.
//
//go:noescape
func axpbyAVX2(dst []float64, alpha float64, x []float64, beta float64, y []float64)

// weightedSumAVX512 computes, for j < len(dst), the chain of fused
// multiply-adds
//
//	dst[j] = fma(w[m−1], x[rows[m−1]*n+j], … fma(w[0], x[rows[0]*n+j], 0))
//
// m = len(w): the bits of the axpby chain, in one call. len(dst) ≥ 1,
// len(rows) ≥ m, and row rows[i] of x (n apart) has ≥ len(dst) elements.
//
//go:noescape
func weightedSumAVX512(dst, w, x []float64, n int, rows []int)

// weightedSumAVX2 is weightedSumAVX512 with AVX2 and FMA.
//
//go:noescape
func weightedSumAVX2(dst, w, x []float64, n int, rows []int)

// scaleAVX512 computes x[i] = α·x[i].
//
//go:noescape
func scaleAVX512(alpha float64, x []float64)

// scaleAVX2 is scaleAVX512 with AVX2.
//
//go:noescape
func scaleAVX2(alpha float64, x []float64)

// fmaPeakAVX512 runs iters iterations of 12 independent 8-lane FMAs (192
// flops each): the benchmarks measure the machine's peak FMA rate with it.
//
//go:noescape
func fmaPeakAVX512(iters int)

// fmaPeakAVX2 is fmaPeakAVX512 with 4-lane FMAs (96 flops an iteration).
//
//go:noescape
func fmaPeakAVX2(iters int)

func tiling(n, k int) string {
	switch {
	case useSmall(n):
		return "AVX-512 small-n kernel (n ≤ " + strconv.Itoa(smallMaxN) + "), the rank-one update fused"
	case !useAVX2 || n < tileRows:
		return "generic rows"
	case usePanels(n, k):
		kb := min(k, panelMaxLanes)
		kp, rows, kc := panelShape(n, kb, panelPackLen(n))
		regs, lanes := registers(kp/8), kp
		switch panelLast(kp, kb) {
		case panelLastHalf:
			regs, lanes = regs+", the last 4 lanes wide", kp-4
		case panelLastPair:
			regs, lanes = regs+", the last 2 lanes a row, two rows a register", kp-6
		}
		return "AVX-512 column panels: tiles of " + strconv.Itoa(rows) + " rows × " + regs +
			" (" + strconv.Itoa(lanes) + " lanes for " + strconv.Itoa(kb) + " vectors" + batches(k) + "), " +
			strconv.Itoa(kc) + " columns a panel, the rank-one update fused"
	case usePanelsAVX2(n, k):
		kb := min(k, panelMaxLanes)
		kp, kc := panelShapeAVX2(n, kb, avx2PanelPack)
		fused := ", the rank-one update a separate pass"
		switch {
		case avx2AheadOK(1, kc):
			fused = ", the rank-one update fused, each tile updating the next one's block"
		case n >= avx2PanelFusedMinN:
			fused = ", the rank-one update fused"
		}
		regs, lanes := registers(kp/4), kp
		if _, _, _, pair := panelBlocksAVX2(kp, kb); pair != 0 {
			regs, lanes = regs+", the last 2 lanes a row, two rows a register", kp-2
		}
		return "AVX2 column panels: tiles of " + strconv.Itoa(avx2PanelRows) + " rows × " + regs +
			" (" + strconv.Itoa(lanes) + " lanes for " + strconv.Itoa(kb) + " vectors" + batches(k) + "), " +
			strconv.Itoa(kc) + " columns a panel" + fused
	}
	return "whole-row tiles of " + strconv.Itoa(tileRows) + " rows × " + strconv.Itoa(tileVecs(k)) + " vectors (" + Impl() + "), the rank-one update a separate pass"
}

// batches names the batches of panelMaxLanes vectors that k > panelMaxLanes
// runs in.
func batches(k int) string {
	if k <= panelMaxLanes {
		return ""
	}
	return "; " + strconv.Itoa((k+panelMaxLanes-1)/panelMaxLanes) + " batches, A read once each"
}

func scaleAxpyRows(x []float64, sigma float64, y []float64, s float64, m []float64) bool {
	n := len(m)
	if !useAVX512 || n > vecBlock {
		return scaleAxpyRowsVec(x, sigma, y, s, m)
	}
	// One call per block of rows of at most vecBlock elements (assembly
	// is not preempted).
	rows := vecBlock / n * n
	finite := true
	for len(x) > 0 {
		c := min(len(x), rows)
		if !scaleAxpyRowsAVX512(x[:c], sigma, y[:c], s, m) {
			finite = false
		}
		x, y = x[c:], y[c:]
	}
	return finite
}

// scaleAxpyRowsAVX512 sets y_i ← s·y_i and x_i ← fma(σ, y_i, m) for the
// len(x)/len(m) rows in one pass (the bits of scaleAVX512 and axpbyAVX512
// with β = 1) and reports whether every element of x is finite. len(m) ≥ 1
// divides len(x) = len(y) ≤ vecBlock.
//
//go:noescape
func scaleAxpyRowsAVX512(x []float64, sigma float64, y []float64, s float64, m []float64) (finite bool)

// recombineStep runs RecombineStep (after its checks, n ≥ 1) in one
// AVX-512 call for n ≤ 8 and reports whether it did; else it does nothing.
// It returns the sums of squares of SNew and VNew as dotAVX512 sums them
// and the largest bits of |PNew_i| and of |MNew_i|.
func recombineStep(st *StepState, r *StepRates, y, z, w []float64, rows []int) (ssS, ssV float64, pBits, mBits uint64, fused bool) {
	n := len(st.M)
	switch {
	case n*len(w) > vecBlock:
		// More work than one call into assembly may do (it is not
		// preempted): the sequence, whose calls split it.
		return 0, 0, 0, 0, false
	case stepFused(n):
		ssS, ssV, pBits, mBits = recombineStepAVX512(n, unsafe.SliceData(y), unsafe.SliceData(z), w, unsafe.SliceData(rows), st, r)
	case recombineBlocks(n):
		ssS, ssV, pBits, mBits = recombineStepBlocksAVX512(n, unsafe.SliceData(y), unsafe.SliceData(z), w, unsafe.SliceData(rows), st, r)
	default:
		return 0, 0, 0, 0, false
	}
	return ssS, ssV, pBits, mBits, true
}

// recombineBlocks reports whether RecombineStep runs on
// recombineStepBlocksAVX512: AVX-512, n a multiple of 8 from 16 to
// recombineBlocksMaxN.
func recombineBlocks(n int) bool {
	return useAVX512 && n%8 == 0 && n >= 16 && n <= recombineBlocksMaxN
}

// recombineBlocksMaxN is the largest n of recombineStepBlocksAVX512: what
// it saves is the sequence's calls, a share of a generation that shrinks
// with n (at 1024 the two measured the same: docs/performance.md).
const recombineBlocksMaxN = 1024

// recombineStepBlocksAVX512 is recombineStepAVX512 for n a multiple of 8,
// 16 ≤ n ≤ recombineBlocksMaxN, in one pass over the columns (32 and then 8
// at a time), with the same bits: the sums of squares as axpbyDotAVX512
// accumulates and reduces them for that n.
//
//go:noescape
func recombineStepBlocksAVX512(n int, y, z *float64, w []float64, rows *int, st *StepState, r *StepRates) (ssS, ssV float64, pBits, mBits uint64)

// recombineStepAVX512 computes RecombineStep for 1 ≤ n ≤ 8, every vector
// in one masked register: the weighted sums as weightedSumAVX512, the
// mean and the paths as axpbyAVX512, the sums of squares of SNew and VNew
// as axpbyDotAVX512 (and dotAVX512) give them, and the largest bits of
// |PNew_i| and |MNew_i|. rows has len(w) valid entries.
//
//go:noescape
func recombineStepAVX512(n int, y, z *float64, w []float64, rows *int, st *StepState, r *StepRates) (ssS, ssV float64, pBits, mBits uint64)

// scaleAddOuterSquares runs ScaleAddOuterNorms (after its checks) on
// AVX-512, each row updated and squared in one pass, for 1 ≤ n ≤ 8 (a row
// in a register) and for n a multiple of 8 from 16 to vecBlock (Norm sums
// longer rows block by block), with the rows' sums of squares in sums
// (dotAVX512's), and reports whether it did; else it does nothing.
func scaleAddOuterSquares(a []float64, n int, alpha, beta float64, p, v, sums []float64) bool {
	switch {
	case stepFused(n):
		scaleAddOuterSquaresAVX512(a, n, alpha, beta, p, v, sums)
	case useAVX512 && n%8 == 0 && n >= 16 && n <= vecBlock:
		// One call per block of rows (assembly is not preempted).
		rows := max(1, normsBlock/n)
		for i := 0; i < n; i += rows {
			r := min(rows, n-i)
			scaleAddOuterSquaresBlocksAVX512(&a[i*n], n, r, alpha, beta, &p[i], &v[0], &sums[i])
		}
	default:
		return false
	}
	return true
}

// scaleAddOuterSquaresBlocksAVX512 is scaleAddOuterSquaresAVX512 for the
// rows 0 … rows−1 of a (row i: p[i], sums[i]) and n a multiple of 8, n ≥
// 16: each row updated and squared in one pass, 32 and then 8 elements at
// a time, the same bits as scaleAddOuterAVX512 and dotAVX512.
//
//go:noescape
func scaleAddOuterSquaresBlocksAVX512(a *float64, n, rows int, alpha, beta float64, p, v, sums *float64)

// rowSquares sets dst[i] to dot(a_i, a_i) for the rows a_i = a[i·n:(i+1)·n]
// of the first whole groups of 4 of dst's rows where the path has a kernel
// for it (AVX-512), with dot's bits, and returns how many it set (0
// elsewhere). n ≥ 1, len(a) ≥ len(dst)·n.
func rowSquares(dst, a []float64, n int) int {
	if !useAVX512 {
		return 0
	}
	g := len(dst) &^ 3
	for i := 0; i < g; i += 4 {
		rowSquares4AVX512(&a[i*n], n, &dst[i])
	}
	return g
}

// rowSquares4AVX512 sets sums[r] = dotAVX512(a_r, a_r) for the 4 rows
// a_r = a[r·n:(r+1)·n], n ≥ 1, in one call.
//
//go:noescape
func rowSquares4AVX512(a *float64, n int, sums *float64)

// scaleAddOuterSquaresAVX512 is scaleAddOuterAVX512 on the n rows of a and
// the sum of squares of each updated row a_i, as dotAVX512(a_i, a_i), into
// sums[i], 1 ≤ n ≤ 8.
//
//go:noescape
func scaleAddOuterSquaresAVX512(a []float64, n int, alpha, beta float64, p, v, sums []float64)

// registers names a count of registers for Tiling.
func registers(z int) string {
	if z == 1 {
		return "1 register"
	}
	return strconv.Itoa(z) + " registers"
}
