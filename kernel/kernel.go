// Package kernel holds the numerical hot paths of MMA-ES: sampling a whole
// population through the mutation matrix (y_i = A·z_i), the fused
// scale-plus-outer-product update A ← α·A + β·p·vᵀ and its rank-k form
// A ← α·A + Σ_t β_t·p_t·q_tᵀ, the vector helpers the optimizer needs, and
// the branch-free ranking of a population (RankFloats, on CountLess).
//
// Matrices are flat row-major []float64: an n×n matrix A is a slice of length
// n·n with A[i][j] at a[i*n+j]. A population of k vectors of length n is a
// k×n row-major block: vector i is x[i*n:(i+1)*n].
//
// # Paths
//
// Each kernel has a pure-Go implementation (kernel_generic.go) and, where a
// benchmark shows it pays, SIMD assembly: AVX-512 (F) and AVX2+FMA on amd64,
// NEON on arm64. The path is chosen once at start-up from
// golang.org/x/sys/cpu; Impl names it. To turn a path off, use the runtime's
// CPU-feature knobs: GODEBUG=cpu.avx512f=off drops AVX-512 (AVX2 is used),
// GODEBUG=cpu.avx2=off (or cpu.fma=off) drops AVX2, GODEBUG=cpu.all=off
// leaves the generic path. The build tag purego removes all assembly.
//
// Results of different paths may differ in the last bits: they sum in
// different orders and the assembly uses fused multiply-add. Every result is
// within the usual floating-point error bound of the exact value (for a dot
// product of length n, 2·γ_n·Σ|x_i·y_i| with γ_n = n·u/(1−n·u), u = 2⁻⁵³), and
// a given path always gives the same bits for the same inputs.
//
// # Misuse
//
// Lengths are checked in Go before any assembly runs. A slice that is too
// short, a negative size or an output that overlaps an input it must not
// overlap is a programming error and panics with a message that starts with
// "kernel:". No kernel allocates.
package kernel

import (
	"math"
	"math/bits"
	"unsafe"
)

// Path flags. They are set once at start-up by the architecture's init
// function (kernel_amd64.go, kernel_arm64.go) and changed only by tests, to
// run every available path in one process.
var (
	useAVX512 bool // amd64: AVX-512 F, VL and DQ (implies useAVX2)
	useAVX2   bool // amd64: AVX2 and FMA
	useNEON   bool // arm64: Advanced SIMD
)

// ZigguratImpl names the kernel Ziggurat runs: "avx512", "avx2" or
// "generic" (each gives the same bits).
func ZigguratImpl() string {
	switch {
	case useAVX512:
		return "avx512"
	case useAVX2:
		return "avx2"
	}
	return "generic"
}

// Impl names the path the kernels use: "avx512" (AVX-512 F, VL and DQ),
// "avx2" (AVX2 and FMA), "neon" or "generic".
func Impl() string {
	switch {
	case useAVX512:
		return "avx512"
	case useAVX2:
		return "avx2"
	case useNEON:
		return "neon"
	}
	return "generic"
}

// Tiling describes how MulVecs and UpdateMulVecs cut an n×n A and k
// vectors on the path the CPU selected, for benchmark reports: the kernel
// family, its register tile, for column panels the panel width, and how
// UpdateMulVecs applies its update when α = 1 (the optimizer's case). The
// choice depends on the path, n and k alone, never on the CPU model, so
// that a path gives the same bits on every machine that runs it. It
// returns "" for a negative n or k.
func Tiling(n, k int) string {
	if n < 0 || k < 0 {
		return ""
	}
	if n == 0 || k == 0 {
		return "nothing to compute"
	}
	return tiling(n, k)
}

// MulVecs samples a population through A: for i < k,
//
//	y[i*n:(i+1)*n] = A · x[i*n:(i+1)*n],
//
// where A is the n×n row-major matrix a. It reads A from memory once per call
// for all k vectors (the rows of A are the outer loop), so its cost is the
// 2·k·n² flops, not k passes over A. y must not overlap a or x. On AVX-512
// with n ≥ 256 it keeps its packed vectors and copies of A's blocks on the
// calling goroutine's stack: 129 KiB, 193 KiB from n = 512 (so such a
// goroutine's stack grows to 256 KiB once); on AVX2 without AVX-512, from
// n = 768, 24 KiB of packed vectors. Go clears that room on every call; a
// caller that samples repeatedly passes it in instead (MulVecsWork).
func MulVecs(y, a []float64, n int, x []float64, k int) {
	MulVecsWork(y, a, n, x, k, nil)
}

// MulVecsWork is MulVecs with scratch space supplied by the caller: when
// len(work) ≥ WorkLen(n, k) the path keeps its packed vectors and copies of
// A there instead of on the stack, which Go would clear on every call; a
// shorter work, nil included, is not used. The
// results are the same bits either way. work must not overlap y, a or x;
// its contents on entry do not matter and on return are unspecified.
func MulVecsWork(y, a []float64, n int, x []float64, k int, work []float64) {
	MulVecsRowsWork(y, a, n, x, k, 0, n, work)
}

// MulVecsRowsWork is MulVecsWork for the rows r0 … r1−1 of the products
// (y[i*n+r] for r0 ≤ r < r1, i < k), reading only those rows of A: each is
// the same bits as the whole call's, so goroutines that compute the ranges
// SplitRows gives, each with its own work, compute MulVecsWork together.
// A range starts at a multiple of RowAlign; one that ends before n ends at
// a multiple of RowAlign at least RowTail rows before n, and the one that
// ends at n starts at 0 or at least RowTail rows before n. It panics on
// other ranges.
func MulVecsRowsWork(y, a []float64, n int, x []float64, k, r0, r1 int, work []float64) {
	if n < 0 || k < 0 {
		panic("kernel: negative size")
	}
	if mulOverflows(n, n) || mulOverflows(k, n) {
		panic("kernel: size overflows int")
	}
	if len(a) < n*n {
		panic("kernel: short a")
	}
	if len(x) < k*n {
		panic("kernel: short x")
	}
	if len(y) < k*n {
		panic("kernel: short y")
	}
	checkRows(n, r0, r1)
	if n == 0 || k == 0 || r0 == r1 {
		return
	}
	y, a, x = y[:k*n], a[:n*n], x[:k*n]
	if overlaps(y, a) || overlaps(y, x) {
		panic("kernel: y overlaps an input")
	}
	work = usableWork(work, n, k, y, a, x)
	mulVecs(y, a, n, x, k, r0, r1, work)
}

// WorkLen returns the length of the scratch space that MulVecsWork and
// UpdateMulVecsWork use for an n×n A and k vectors on the current path: 0
// where the path needs none; on AVX-512 from n = 256 (k ≥ 8) about 17 or 25
// thousand float64s (n < 512, n ≥ 512); on AVX2 without AVX-512 from n =
// 768 (k ≥ 4) 6216 (the packed vectors and the copies of two tiles'
// blocks). It does not grow with n beyond that, and depends on k only
// through the path.
func WorkLen(n, k int) int {
	if n < 0 || k < 0 {
		panic("kernel: negative size")
	}
	return workLen(n, k)
}

// usableWork returns work cut to WorkLen(n, k), or nil if it is shorter. It
// panics if work overlaps one of the other slices, whether it is used or
// not, so that the misuse shows on every path.
func usableWork(work []float64, n, k int, others ...[]float64) []float64 {
	if len(work) == 0 {
		return nil // overlaps nothing
	}
	for _, o := range others {
		if overlaps(work, o) {
			panic("kernel: work overlaps an input")
		}
	}
	need := workLen(n, k)
	if need == 0 || len(work) < need {
		return nil
	}
	return work[:need]
}

// MulVec computes y = A·x for the n×n row-major matrix a. y must not overlap
// a or x.
func MulVec(y, a []float64, n int, x []float64) {
	y, a, x = checkMulVec(y, a, n, x)
	if n == 0 {
		return
	}
	mulVec(y, a, n, x)
}

// checkMulVec checks the arguments of MulVec and MulVecTrans (panicking on
// misuse) and returns y, a and x cut to n, n·n and n.
func checkMulVec(y, a []float64, n int, x []float64) ([]float64, []float64, []float64) {
	if n < 0 {
		panic("kernel: negative size")
	}
	if mulOverflows(n, n) {
		panic("kernel: size overflows int")
	}
	if len(a) < n*n {
		panic("kernel: short a")
	}
	if len(x) < n {
		panic("kernel: short x")
	}
	if len(y) < n {
		panic("kernel: short y")
	}
	y, a, x = y[:n], a[:n*n], x[:n]
	if n > 0 && (overlaps(y, a) || overlaps(y, x)) {
		panic("kernel: y overlaps an input")
	}
	return y, a, x
}

// MulVecTrans computes y = Aᵀ·x for the n×n row-major matrix a, as the sum of
// the rows of A weighted by x (one pass over A). y must not overlap a or x.
func MulVecTrans(y, a []float64, n int, x []float64) {
	y, a, x = checkMulVec(y, a, n, x)
	if n == 0 {
		return
	}
	clear(y)
	for i, xi := range x {
		axpby(y, xi, a[i*n:i*n+n], 1, y)
	}
}

// ScaleAddOuter applies the fused rank-one update
//
//	A ← α·A + β·p·vᵀ,   that is   a[i*n+j] = α·a[i*n+j] + (β·p[i])·v[j],
//
// to the n×n row-major matrix a in one pass over A. p and v must not overlap
// a.
func ScaleAddOuter(a []float64, n int, alpha, beta float64, p, v []float64) {
	a, p, v = checkScaleAddOuter(a, n, p, v)
	if n == 0 {
		return
	}
	scaleAddOuterRows(a, n, alpha, beta, p, v)
}

// ScaleAddOuterNorms is ScaleAddOuter that also sets norms[i] to the norm
// of row i of the updated A, the same bits as Norm gives, in one pass over
// A: each block of rows is normed while it is still in cache (ScaleAddOuter
// and then Norm of every row read A from memory twice). The optimizer's
// stop tests use it when they apply a pending update to compute the row
// norms. norms must have at least n elements and must not overlap a, p or
// v.
func ScaleAddOuterNorms(a []float64, n int, alpha, beta float64, p, v, norms []float64) {
	a, p, v = checkScaleAddOuter(a, n, p, v)
	if len(norms) < n {
		panic("kernel: short norms")
	}
	if n == 0 {
		return
	}
	norms = norms[:n]
	if overlaps(norms, a) || overlaps(norms, p) || overlaps(norms, v) {
		panic("kernel: norms overlaps an input")
	}
	if scaleAddOuterSquares(a, n, alpha, beta, p, v, norms) {
		for j, s := range norms {
			norms[j] = normFromSquares(s, a[j*n:j*n+n])
		}
		return
	}
	rows := max(1, normsBlock/n)
	for i := 0; i < n; i += rows {
		r := min(rows, n-i)
		scaleAddOuter(a[i*n:(i+r)*n], n, r, alpha, beta, p[i:i+r], v)
		RowNorms(norms[i:i+r], a[i*n:(i+r)*n], n)
	}
}

// normsBlock is the size, in elements, of the blocks of rows of
// ScaleAddOuterNorms (16 KiB: within L1 between the update and the norms).
const normsBlock = 2048

// checkScaleAddOuter checks the arguments of ScaleAddOuter (panicking on
// misuse) and returns a, p and v cut to n·n, n and n.
func checkScaleAddOuter(a []float64, n int, p, v []float64) ([]float64, []float64, []float64) {
	if n < 0 {
		panic("kernel: negative size")
	}
	if mulOverflows(n, n) {
		panic("kernel: size overflows int")
	}
	if len(a) < n*n {
		panic("kernel: short a")
	}
	if len(p) < n {
		panic("kernel: short p")
	}
	if len(v) < n {
		panic("kernel: short v")
	}
	a, p, v = a[:n*n], p[:n], v[:n]
	if overlaps(a, p) || overlaps(a, v) {
		panic("kernel: a overlaps p or v")
	}
	return a, p, v
}

// scaleAddOuterRows is ScaleAddOuter after its checks. Each assembly call
// covers a block of rows, so that no single call runs for long (assembly is
// not preempted asynchronously).
func scaleAddOuterRows(a []float64, n int, alpha, beta float64, p, v []float64) {
	if n == 0 {
		return
	}
	rows, all := max(1, scaleAddOuterBlock/n), len(a)/n
	for i := 0; i < all; i += rows {
		r := min(rows, all-i)
		scaleAddOuter(a[i*n:(i+r)*n], n, r, alpha, beta, p[i:i+r], v)
	}
}

// UpdateMulVecs applies the rank-one update A ← α·A + β·p·vᵀ to the n×n
// row-major a and then samples through the updated A: y_i = A·x_i for
// i < k. The results, A and y, are the same bits as ScaleAddOuter followed
// by MulVecs; where the path allows (AVX-512 with n ≤ 32 or n ≥ 256, AVX2
// from n = 768 with α = 1 and k ≥ 5, else from 1536) it does both in one
// pass over A, each block of A updated before it is multiplied (on AVX2
// with α = 1, by the tile before it, into a copy the tile reads), so that
// a generation of MMA-ES reads and writes A once instead of reading it
// twice and writing it once (with the stack use of MulVecs; on AVX2 a
// pass that updates a tile ahead also keeps 24.5 KiB of copies there). y
// must not overlap a, p, v or x; p and v must not overlap a.
func UpdateMulVecs(y, a []float64, n int, alpha, beta float64, p, v, x []float64, k int) {
	UpdateMulVecsWork(y, a, n, alpha, beta, p, v, x, k, nil)
}

// UpdateMulVecsWork is UpdateMulVecs with the caller's scratch space, as
// MulVecsWork: work must not overlap y, a, p, v or x.
func UpdateMulVecsWork(y, a []float64, n int, alpha, beta float64, p, v, x []float64, k int, work []float64) {
	UpdateMulVecsRowsWork(y, a, n, alpha, beta, p, v, x, k, 0, n, work)
}

// UpdateMulVecsRowsWork is UpdateMulVecsWork for the rows r0 … r1−1 of A
// and of the products, with the ranges of MulVecsRowsWork: each row of A
// and of the products is the same bits as the whole call's.
func UpdateMulVecsRowsWork(y, a []float64, n int, alpha, beta float64, p, v, x []float64, k, r0, r1 int, work []float64) {
	if n < 0 || k < 0 {
		panic("kernel: negative size")
	}
	if mulOverflows(n, n) || mulOverflows(k, n) {
		panic("kernel: size overflows int")
	}
	switch {
	case len(a) < n*n:
		panic("kernel: short a")
	case len(p) < n:
		panic("kernel: short p")
	case len(v) < n:
		panic("kernel: short v")
	case len(x) < k*n:
		panic("kernel: short x")
	case len(y) < k*n:
		panic("kernel: short y")
	}
	checkRows(n, r0, r1)
	if n == 0 || r0 == r1 {
		return
	}
	a, p, v, x, y = a[:n*n], p[:n], v[:n], x[:k*n], y[:k*n]
	if overlaps(a, p) || overlaps(a, v) {
		panic("kernel: a overlaps p or v")
	}
	if overlaps(y, a) || overlaps(y, x) || overlaps(y, p) || overlaps(y, v) {
		panic("kernel: y overlaps an input")
	}
	if k == 0 {
		scaleAddOuterRows(a[r0*n:r1*n], n, alpha, beta, p[r0:r1], v)
		return
	}
	if len(work) > 0 { // the variadic call builds its list only here
		work = usableWork(work, n, k, y, a, p, v, x)
	} else {
		work = nil
	}
	updateMulVecs(y, a, n, alpha, beta, p, v, x, k, r0, r1, work)
}

// updateMulVecsSeparate is UpdateMulVecs as two passes, for the paths
// without a fused kernel: the rows r0 … r1−1 of A updated, then those of
// the products.
func updateMulVecsSeparate(y, a []float64, n int, alpha, beta float64, p, v, x []float64, k, r0, r1 int, work []float64) {
	scaleAddOuterRows(a[r0*n:r1*n], n, alpha, beta, p[r0:r1], v)
	mulVecs(y, a, n, x, k, r0, r1, work)
}

// scaleAddOuterBlock is the number of matrix elements one ScaleAddOuter call
// into assembly handles at most (0.5 MiB of A, a few tens of microseconds).
const scaleAddOuterBlock = 1 << 16

// ScaleAddRankK applies the fused rank-k update
//
//	A ← α·A + Σ_{t<k} β[t]·p_t·q_tᵀ,   that is
//	a[i*n+j] = α·a[i*n+j] + Σ_t (β[t]·p_t[i])·q_t[j],
//
// to the n×n row-major matrix a in one pass over A, where p_t =
// p[t*n:(t+1)*n] and q_t = q[t*n:(t+1)*n] are the rows of the k×n blocks p
// and q. It is the rank-μ update of CMA-ES (and folds deferred rank-one
// terms); k = 1 is ScaleAddOuter, k = 0 is A ← α·A.
//
// Every path rounds the coefficient c_t = β[t]·p_t[i] once, then computes
// each element as a chain over t in increasing order: s = α·a[i*n+j], then
// s = s + c_t·q_t[j] for t = 0, 1, …, k−1 (a fused multiply-add on the SIMD
// paths), and stores s. beta, p and q must not overlap a.
func ScaleAddRankK(a []float64, n int, alpha float64, beta []float64, p, q []float64, k int) {
	if n < 0 || k < 0 {
		panic("kernel: negative size")
	}
	if mulOverflows(n, n) || mulOverflows(k, n) {
		panic("kernel: size overflows int")
	}
	if len(a) < n*n {
		panic("kernel: short a")
	}
	if len(beta) < k {
		panic("kernel: short beta")
	}
	if len(p) < k*n {
		panic("kernel: short p")
	}
	if len(q) < k*n {
		panic("kernel: short q")
	}
	if n == 0 {
		return
	}
	a, beta, p, q = a[:n*n], beta[:k], p[:k*n], q[:k*n]
	if overlaps(a, beta) || overlaps(a, p) || overlaps(a, q) {
		panic("kernel: a overlaps beta, p or q")
	}
	if k == 0 {
		scale(alpha, a)
		return
	}
	// Each call covers a panel of columns of a block of rows and a chunk of
	// at most rankKChunk terms (the assembly keeps the coefficients
	// β[t]·p_t[i] of a row in a fixed frame). The panel is narrow enough
	// that the terms' part of q (kc×w) stays in L1 across the rows; A is
	// still read and written once. More terms are done chunk by chunk on the
	// same block, still in cache, with α on the first chunk and 1 on the
	// others: 1·s is exact, so the bits are those of one chain over all k
	// terms.
	kc0 := min(k, rankKChunk)
	cols := n
	if k > 1 && kc0*n > rankKPanel {
		cols = (rankKPanel / kc0) &^ 31 // ≥ 128, < n: whole 32-column tiles
	}
	for c0 := 0; c0 < n; c0 += cols {
		w := min(cols, n-c0)
		rows := max(1, rankKBlock/(w*(kc0+1)))
		if rows > 4 {
			rows &^= 3 // whole 4-row tiles
		}
		for i0 := 0; i0 < n; i0 += rows {
			r := min(rows, n-i0)
			blk := a[i0*n+c0 : (i0+r-1)*n+c0+w]
			s := alpha
			for t0 := 0; t0 < k; t0 += rankKChunk {
				kc := min(rankKChunk, k-t0)
				// p_t[i0+i] for t < kc, i < r is pc[t*n+i]; q_t[c0+j] for
				// j < w is qc[t*n+j].
				pc := p[t0*n+i0 : (t0+kc-1)*n+i0+r]
				qc := q[t0*n+c0 : (t0+kc-1)*n+c0+w]
				scaleAddRankK(blk, n, r, w, s, beta[t0:t0+kc], pc, qc, kc)
				s = 1
			}
		}
	}
}

// The blocking of ScaleAddRankK. An assembly call handles at most rankKChunk
// terms and about rankKBlock multiply-adds (rows·w·(terms+1)), so that no
// call runs for long (assembly is not preempted asynchronously; 2¹⁷
// multiply-adds are well under 0.1 ms on any path). When the k rows of q
// hold more than rankKPanel elements (16 KiB, half of a small L1), the
// columns are split into panels of a multiple of 32 columns with at most
// rankKPanel elements of q: without them each row would stream all of q
// from L2. (One term is left whole, as in ScaleAddOuter: it streams A.)
const (
	rankKChunk = 16
	rankKBlock = 1 << 17
	rankKPanel = 2048
)

// Dot returns xᵀy. x and y must have the same length.
func Dot(x, y []float64) float64 {
	if len(x) != len(y) {
		panic("kernel: length mismatch")
	}
	if len(x) == 0 {
		return 0
	}
	return dotBlocks(x, y)
}

// vecBlock is the most elements one call of a vector kernel into assembly
// handles (assembly is not preempted asynchronously); the wrappers walk
// longer vectors block by block.
const vecBlock = 1 << 16

// dotBlocks is Dot for len(x) ≥ 1, one assembly call per vecBlock elements
// (partial sums added in order).
func dotBlocks(x, y []float64) float64 {
	s := 0.0
	for len(x) > vecBlock {
		s += dot(x[:vecBlock], y[:vecBlock])
		x, y = x[vecBlock:], y[vecBlock:]
	}
	return s + dot(x, y)
}

// Norm returns the Euclidean norm ‖x‖. It is √(xᵀx) computed in one SIMD
// pass when xᵀx lies in (2⁻⁵⁰⁰, 2¹⁰⁰⁰), that is ‖x‖ in about (2e-76, 3e150);
// otherwise (also for a zero vector, NaN or ±Inf) a scaled second pass gives
// the result, finite whenever ‖x‖ is representable.
func Norm(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	var s float64
	if len(x) <= vecBlock {
		s = dot(x, x) // dotBlocks' one block, without its call
	} else {
		s = dotBlocks(x, x)
	}
	if s > 0x1p-500 && s < 0x1p1000 {
		return math.Sqrt(s)
	}
	return normScaled(x)
}

// RowNorms sets dst[i] to Norm(a[i*n:(i+1)*n]), the norm of row i of the
// row-major a, for i < len(dst), with Norm's bits on every path; on
// AVX-512 four rows at a time in one call, their sums of squares side by
// side, which is several times faster than a call of Norm per row for
// rows of up to a few hundred elements. len(a) must be at least
// len(dst)·n; dst must not overlap a.
func RowNorms(dst, a []float64, n int) {
	if n < 0 {
		panic("kernel: negative size")
	}
	if mulOverflows(len(dst), n) || len(a) < len(dst)*n {
		panic("kernel: short a")
	}
	if n == 0 {
		clear(dst)
		return
	}
	if overlaps(dst, a[:len(dst)*n]) {
		panic("kernel: dst overlaps a")
	}
	done := 0
	if n <= vecBlock {
		done = rowSquares(dst, a, n)
	}
	for i := range done {
		dst[i] = normFromSquares(dst[i], a[i*n:i*n+n])
	}
	for i := done; i < len(dst); i++ {
		dst[i] = Norm(a[i*n : i*n+n])
	}
}

// Axpy computes y ← α·x + y. x and y must have the same length and must not
// overlap unless they are the same slice.
func Axpy(alpha float64, x, y []float64) {
	AxpBy(alpha, x, 1, y)
}

// AxpBy computes y ← α·x + β·y, rounded as fma(α, x, β·y) on the SIMD paths.
// x and y must have the same length and must not overlap unless they are the
// same slice. It is AxpByTo(y, α, x, β, y) (in one check of overlap).
func AxpBy(alpha float64, x []float64, beta float64, y []float64) {
	if len(x) != len(y) {
		panic("kernel: length mismatch")
	}
	if len(x) == 0 {
		return
	}
	if inexactOverlap(x, y) {
		panic("kernel: x and y overlap")
	}
	for len(x) > vecBlock {
		axpby(y[:vecBlock], alpha, x[:vecBlock], beta, y[:vecBlock])
		x, y = x[vecBlock:], y[vecBlock:]
	}
	axpby(y, alpha, x, beta, y)
}

// MaxAbs returns max_i |x_i|: 0 for an empty x, NaN when some x_i is NaN
// (the bits of |x_i| compared as integers, whose order is that of the
// values, every NaN's above +Inf's: the result is the |x_i| with the
// largest bits, the same on every path).
func MaxAbs(x []float64) float64 {
	var m uint64
	for len(x) > vecBlock {
		m = max(m, maxAbsBitsPath(x[:vecBlock]))
		x = x[vecBlock:]
	}
	if len(x) > 0 {
		m = max(m, maxAbsBitsPath(x))
	}
	return math.Float64frombits(m)
}

// RotatePair applies a plane rotation to the rows x and y in the form of a
// one-sided Jacobi step: y ← s·x + c·y, then x ← r·x − t·y with the new y
// (for c = cos θ, s = sin θ, t = tan θ, r = 1/cos θ that is (x, y) ←
// (c·x − s·y, s·x + c·y)). The bits are those of AxpBy(s, x, c, y)
// followed by AxpBy(−t, y, r, x) on every path, in one pass over x and y
// where the path has a kernel for it. x and y must have the same length
// and must not overlap.
func RotatePair(x, y []float64, c, s, r, t float64) {
	if len(x) != len(y) {
		panic("kernel: length mismatch")
	}
	if len(x) == 0 {
		return
	}
	if overlaps(x, y) {
		panic("kernel: x and y overlap")
	}
	for len(x) > vecBlock {
		rotatePair(x[:vecBlock], y[:vecBlock], c, s, r, -t)
		x, y = x[vecBlock:], y[vecBlock:]
	}
	rotatePair(x, y, c, s, r, -t)
}

// AxpByTo computes dst ← α·x + β·y with the rounding of AxpBy: the bits
// of copying y into dst and calling AxpBy(α, x, β, dst), in one pass and
// without the copy. dst, x and y must have the same length; dst must not
// overlap x or y unless it is the same slice (x and y may overlap in any
// way).
func AxpByTo(dst []float64, alpha float64, x []float64, beta float64, y []float64) {
	if len(x) != len(y) || len(dst) != len(x) {
		panic("kernel: length mismatch")
	}
	if len(x) == 0 {
		return
	}
	if inexactOverlap(dst, x) || inexactOverlap(dst, y) {
		panic("kernel: dst overlaps x or y")
	}
	for len(x) > vecBlock {
		axpby(dst[:vecBlock], alpha, x[:vecBlock], beta, y[:vecBlock])
		dst, x, y = dst[vecBlock:], x[vecBlock:], y[vecBlock:]
	}
	axpby(dst, alpha, x, beta, y)
}

// AxpByToNorm is AxpByTo(dst, α, x, β, y) followed by Norm(dst), with the
// same results (a path of the optimizer and its length). On AVX-512 the
// sum of squares is taken from the registers as dst is stored: a norm read
// right after the stores waits for them.
func AxpByToNorm(dst []float64, alpha float64, x []float64, beta float64, y []float64) float64 {
	if len(x) != len(y) || len(dst) != len(x) {
		panic("kernel: length mismatch")
	}
	if len(x) == 0 {
		return 0
	}
	if inexactOverlap(dst, x) || inexactOverlap(dst, y) {
		panic("kernel: dst overlaps x or y")
	}
	s, fused := axpbyDot(dst, alpha, x, beta, y)
	if !fused {
		// The two calls themselves: the generic axpby compiled into a
		// second caller may fuse its multiply-adds otherwise (arm64).
		AxpByTo(dst, alpha, x, beta, y)
		return Norm(dst)
	}
	if s > 0x1p-500 && s < 0x1p1000 {
		return math.Sqrt(s)
	}
	return normScaled(dst)
}

// ScaleAxpyRows scales the k rows of y (n = len(m) each) by s and sets
// each row of x to x_i = σ·y_i + m, in one pass; it reports whether every
// element of x[:k*n] is finite. The bits are those of Scale(s, y[:k*n])
// (skipped for s = 1) followed by AxpByTo(x_i, σ, y_i, 1, m) for each row
// (fma(σ, y, m) on the SIMD paths): the placement x_i = m + σ·y_i of the
// candidates, with the scale of a sampling folded in. x must not overlap y
// or m, nor y overlap m.
func ScaleAxpyRows(x []float64, sigma float64, y []float64, s float64, m []float64, k int) (finite bool) {
	n := len(m)
	if k < 0 {
		panic("kernel: negative size")
	}
	if mulOverflows(k, n) {
		panic("kernel: size overflows int")
	}
	if len(x) < k*n || len(y) < k*n {
		panic("kernel: short x or y")
	}
	if n == 0 || k == 0 {
		return true
	}
	x, y = x[:k*n], y[:k*n]
	if overlaps(x, y) || overlaps(x, m) || overlaps(y, m) {
		panic("kernel: x, y and m overlap")
	}
	return scaleAxpyRows(x, sigma, y, s, m)
}

// Scale computes x ← α·x.
func Scale(alpha float64, x []float64) {
	if len(x) == 0 {
		return
	}
	for len(x) > vecBlock {
		scale(alpha, x[:vecBlock])
		x = x[vecBlock:]
	}
	scale(alpha, x)
}

// WeightedSum sets dst to the weighted sum of selected rows of the k×n block
// x: dst = Σ_i w[i]·x[rows[i]*n:(rows[i]+1)*n], for i < len(w). rows must have
// at least len(w) entries, each in [0, len(x)/n). It is the recombination
// step of MMA-ES (z_w, y_w). dst must not overlap x or w; for n = 0 it does nothing.
func WeightedSum(dst, w, x []float64, n int, rows []int) {
	if checkWeightedSum(dst, w, x, n, rows, len(x)) {
		weightedSumBlocks(dst, w, x, n, rows)
	}
}

// WeightedSum2 is WeightedSum(dst, w, x, n, rows) followed by
// WeightedSum(dst2, w, x2, n, rows), with the same results, for two
// populations ranked alike (the optimizer's y and z steps): the rows are
// checked once, against the shorter of x and x2. It checks both calls'
// arguments before either sum.
func WeightedSum2(dst, x, dst2, x2, w []float64, n int, rows []int) {
	if !checkWeightedSum(dst, w, x, n, rows, min(len(x), len(x2))) {
		return
	}
	if len(dst2) < n {
		panic("kernel: short dst")
	}
	if overlaps(dst2[:n], x2) || overlaps(dst2[:n], w) {
		panic("kernel: dst overlaps x or w")
	}
	weightedSumBlocks(dst, w, x, n, rows)
	weightedSumBlocks(dst2, w, x2, n, rows)
}

// checkWeightedSum panics on WeightedSum's misuse, rows checked against
// xLen elements of x, and reports whether there is anything to sum.
func checkWeightedSum(dst, w, x []float64, n int, rows []int, xLen int) bool {
	if n < 0 {
		panic("kernel: negative size")
	}
	if len(dst) < n {
		panic("kernel: short dst")
	}
	if len(rows) < len(w) {
		panic("kernel: short rows")
	}
	if n == 0 {
		return false // every row is empty
	}
	for _, r := range rows[:len(w)] {
		// Row r is x[r*n : (r+1)*n]; no division (this runs every
		// generation, and at small n a division is a noticeable cost).
		hi, lo := bits.Mul64(uint64(r)+1, uint64(n))
		if r < 0 || hi != 0 || lo > uint64(xLen) {
			panic("kernel: row out of range")
		}
	}
	if overlaps(dst[:n], x) || overlaps(dst[:n], w) {
		panic("kernel: dst overlaps x or w")
	}
	return true
}

// weightedSumBlocks is WeightedSum after the checks, n ≥ 1: one call per
// block of columns, so that a call does at most about vecBlock
// multiply-adds (assembly is not preempted).
func weightedSumBlocks(dst, w, x []float64, n int, rows []int) {
	dst = dst[:n]
	cols := n
	if hi, lo := bits.Mul64(uint64(n), uint64(len(w))); hi != 0 || lo > vecBlock {
		cols = max(wsBlockCols, vecBlock/len(w)&^(wsBlockCols-1))
	}
	for c0 := 0; c0 < n; c0 += cols {
		weightedSum(dst[c0:min(n, c0+cols)], w, x[c0:], n, rows)
	}
}

// wsBlockCols is the widest column block of the weighted-sum kernels (a
// power of 2): column blocks of WeightedSum are multiples of it.
const wsBlockCols = 32

// mulOverflows reports whether a·b overflows int, for a, b ≥ 0 (without a
// division: the entry points check sizes on every call).
func mulOverflows(a, b int) bool {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	return hi != 0 || lo > math.MaxInt
}

// overlaps reports whether the memory of a and b overlaps.
func overlaps(a, b []float64) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	pa := uintptr(unsafe.Pointer(unsafe.SliceData(a)))
	pb := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return pa < pb+uintptr(len(b))*8 && pb < pa+uintptr(len(a))*8
}

// inexactOverlap reports whether a and b overlap other than by being the same
// slice.
func inexactOverlap(a, b []float64) bool {
	if len(a) == 0 || len(b) == 0 || unsafe.SliceData(a) == unsafe.SliceData(b) {
		return false
	}
	return overlaps(a, b)
}
