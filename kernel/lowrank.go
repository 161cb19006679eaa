package kernel

import "unsafe"

// The kernels of a low-rank mutation matrix A = diag(s) + Σ_t c_t·p_t·v_tᵀ
// applied to a whole population: first the coefficients w_{l,t} = v_t·z_l
// of every vector z_l against every stored v_t (DotRows), then the
// candidates x_l = m + σ·(s∘z_l + Σ_t (c_t·w_{l,t})·p_t) (CombineRows).
// Each reads the stored vectors and the population once per call, in
// column blocks that stay in cache.

// dotRowsBlock is the number of columns DotRows handles per step: the
// blocks of the ka rows of a and the kb rows of b (2 KiB a row) are read
// from memory once and reused from cache by every pair of rows, a tile of
// rows of a staying in L1 while it meets every row of b. The partial dot
// products of the blocks are added in order, so the result depends on the
// block size; it is a constant.
const dotRowsBlock = 256

// CombineRowsBlock returns the number of columns CombineRows handles per
// step for kp stored vectors p of length n and k rows of x (k > 1): the
// panel of the kp rows of p stays in L2 while every row of the population
// meets it, and each row of the population is a long sequential stream.
// It is the widest multiple of 128 columns, at most 1024, whose panel fits
// in three quarters of L2Bytes, two panels where the call streams (the
// stored vectors and the population, (kp+k)·n elements, at least
// CombineStreamBytes: it asks for the next block's panel ahead); at least
// 256 (narrower panels measured slower: the population's streams then
// break every few hundred bytes). The result of CombineRows does not
// depend on it (each element is one chain).
func CombineRowsBlock(kp, k, n int) int {
	return combineRowsBlockFor(kp, k, n, l2Bytes)
}

// combineRowsBlockFor is CombineRowsBlock for an L2 of l2 bytes.
func combineRowsBlockFor(kp, k, n, l2 int) int {
	if kp <= 0 {
		return combineBlockMax
	}
	perColumn := 8 // bytes of a column of a panel, per stored vector
	if combineStreams(kp, k, n) {
		perColumn = 16 // two panels
	}
	fit := l2 / 4 * 3 / perColumn // columns × stored vectors that fit
	if kp > fit/combineBlockMin {
		return combineBlockMin
	}
	return min(combineBlockMax, max(combineBlockMin, fit/kp&^127))
}

// combineStreams reports whether CombineRows over kp stored vectors and k
// rows of n streams them from memory: together at least combineStreamMin
// elements (or more than an int counts). It then asks for the next block's
// panel of p and the population's rows ahead, and writes x with
// non-temporal stores where x is aligned for them.
func combineStreams(kp, k, n int) bool {
	return mulOverflows(max(kp, 0)+max(k, 0), n) || (kp+k)*n >= combineStreamMin
}

// combineBlockMin and combineBlockMax bound CombineRowsBlock.
const (
	combineBlockMin = 256
	combineBlockMax = 1024
)

// prefetchMin (16 MiB of elements) is the largest streamMin: where the
// CPU reports no L3, or one of 128 MiB or more, the stored vectors and the
// population below it stayed in the last-level cache of the CPUs measured
// (docs/large-scale.md, Speed), where the prefetches only take load slots.
const prefetchMin = 1 << 21

// combineRowBlock is the number of columns CombineRows handles per step
// for a single row (the weighted step y_w = A·z_w of the limited memory),
// and combineRowTerms the terms a pass over them adds: the row's partial
// sums go through x (exactly) every combineRowTerms terms, so that each
// pass reads that many rows of p as long sequential streams, which the
// hardware prefetchers follow, instead of all kp rows a few cache lines
// at a time (docs/large-scale.md, Speed: 3× faster at n = 10⁵).
const (
	combineRowBlock = 8192
	combineRowTerms = 8
)

// combineTerms is the most terms one call of CombineRows' assembly takes;
// more are done in chunks, the partial sums going through x (exactly).
const combineTerms = 128

// DotRows sets dst[j*ka+i] = a_i·b_j for i < ka and j < kb, where a_i =
// a[i*n:(i+1)*n] and b_j = b[j*n:(j+1)*n] are the rows of the ka×n block a
// and of the kb×n block b: for a population b, row j of dst (ka values)
// is M·b_j with M the ka×n matrix a. The dot products are summed block by
// block of dotRowsBlock columns, the blocks' sums added in increasing
// order; within a block the order is the path's (the generic path in
// index order). dst must not overlap a or b.
func DotRows(dst, a []float64, ka int, b []float64, kb, n int) {
	DotRowsRange(dst, a, ka, b, kb, n, 0, ka)
}

// DotRowsAlign is the granularity of DotRowsRange's ranges: the height of
// DotRows' tiles of rows of a.
const DotRowsAlign = 4

// DotRowsRange computes the rows i0 … i1−1 of DotRows' result, dst[j*ka+i]
// = a_i·b_j for i0 ≤ i < i1 and j < kb, with the bits DotRows gives them,
// and writes nothing else: ranges that cover 0 … ka−1 give DotRows' result,
// whatever goroutines compute them. i0 must be a multiple of DotRowsAlign,
// and i1 too unless it is ka.
func DotRowsRange(dst, a []float64, ka int, b []float64, kb, n, i0, i1 int) {
	if n < 0 || ka < 0 || kb < 0 {
		panic("kernel: negative size")
	}
	if mulOverflows(ka, n) || mulOverflows(kb, n) || mulOverflows(ka, kb) {
		panic("kernel: size overflows int")
	}
	if i0 < 0 || i1 < i0 || i1 > ka || i0%DotRowsAlign != 0 || i1 != ka && i1%DotRowsAlign != 0 {
		panic("kernel: DotRowsRange: rows out of bounds or not aligned")
	}
	if len(a) < ka*n {
		panic("kernel: short a")
	}
	if len(b) < kb*n {
		panic("kernel: short b")
	}
	if len(dst) < ka*kb {
		panic("kernel: short dst")
	}
	if ka == 0 || kb == 0 {
		return
	}
	dst, a, b = dst[:ka*kb], a[:ka*n], b[:kb*n]
	if overlaps(dst, a) || overlaps(dst, b) {
		panic("kernel: dst overlaps an input")
	}
	if i0 == i1 {
		return
	}
	for j := 0; j < kb; j++ {
		clear(dst[j*ka+i0 : j*ka+i1])
	}
	for c0 := 0; c0 < n; c0 += dotRowsBlock {
		w := min(dotRowsBlock, n-c0)
		ahead := 0
		if c0+w < n && (ka+kb)*n >= streamMin {
			ahead = w
		}
		dotRows(dst, a[c0:], ka, b[c0:], kb, w, n, ahead, i0, i1)
	}
}

// CombineRows sets, for l < k and j < n,
//
//	x[l*n+j] = m[j] + σ·(s[j]·z[l*n+j] + Σ_{t<kp} c[l*kp+t]·p[t*n+j]),
//
// the population x_l = m + σ·(diag(s)·z_l + Σ_t c_{l,t}·p_t). Every path
// computes each element as the same chain: u = s[j]·z[l*n+j]; then
// u = u + c[l*kp+t]·p[t*n+j] for t = 0, 1, …, kp−1; then x = m[j] + σ·u
// (fused multiply-adds on the SIMD paths), so the bits do not depend on k
// or on how the work is split. With m nil it sets x_l to the steps
// themselves, x = u (σ is not used): y_l = diag(s)·z_l + Σ_t c_{l,t}·p_t.
// x must not overlap m, s, z, p or c.
func CombineRows(x, m []float64, sigma float64, s, z []float64, k, n int, p []float64, kp int, c []float64) {
	CombineRowsRange(x, m, sigma, s, z, k, n, p, kp, c, 0, n)
}

// CombineRowsRange computes the columns j0 … j1−1 of CombineRows' result
// (x[l*n+j] for l < k, j0 ≤ j < j1), with the bits CombineRows gives them
// (each element is one chain), and writes nothing else: ranges that cover
// 0 … n−1 give CombineRows' result, whatever goroutines compute them.
// Ranges that start at multiples of 8 columns keep the rows of x 64-byte
// aligned where they are, for the streaming stores.
func CombineRowsRange(x, m []float64, sigma float64, s, z []float64, k, n int, p []float64, kp int, c []float64, j0, j1 int) {
	if n < 0 || k < 0 || kp < 0 {
		panic("kernel: negative size")
	}
	if mulOverflows(k, n) || mulOverflows(kp, n) || mulOverflows(k, kp) {
		panic("kernel: size overflows int")
	}
	if j0 < 0 || j1 < j0 || j1 > n {
		panic("kernel: CombineRowsRange: columns out of bounds")
	}
	switch {
	case len(x) < k*n:
		panic("kernel: short x")
	case len(z) < k*n:
		panic("kernel: short z")
	case m != nil && len(m) < n:
		panic("kernel: short m")
	case len(s) < n:
		panic("kernel: short s")
	case len(p) < kp*n:
		panic("kernel: short p")
	case len(c) < k*kp:
		panic("kernel: short c")
	}
	if k == 0 || n == 0 {
		return
	}
	x, z, s, p, c = x[:k*n], z[:k*n], s[:n], p[:kp*n], c[:k*kp]
	if m != nil {
		m = m[:n]
	}
	if overlaps(x, z) || overlaps(x, m) || overlaps(x, s) || overlaps(x, p) || overlaps(x, c) {
		panic("kernel: x overlaps an input")
	}
	block := CombineRowsBlock(kp, k, n)
	if k == 1 {
		block = combineRowBlock // a single row: a pass of combineRowTerms terms at a time
	}
	if combineCoefCaching && k > 1 && j1-j0 > block {
		combineBlocksCached(x, m, sigma, s, z, k, n, p, kp, c, j0, j1, block)
		return
	}
	combineBlocks(x, m, sigma, s, z, k, n, p, kp, c, j0, j1, block, nil)
}

// combineBlocksCached is combineBlocks with the tiles' coefficients
// transposed once for all the blocks (a frame of 64 KiB).
//
//go:noinline
func combineBlocksCached(x, m []float64, sigma float64, s, z []float64, k, n int, p []float64, kp int, c []float64, j0, j1, block int) {
	var cc coefCache
	combineBlocks(x, m, sigma, s, z, k, n, p, kp, c, j0, j1, block, &cc)
}

// combineBlocks computes CombineRowsRange's columns j0 … j1−1 block by
// block.
func combineBlocks(x, m []float64, sigma float64, s, z []float64, k, n int, p []float64, kp int, c []float64, j0, j1, block int, cc *coefCache) {
	for c0 := j0; c0 < j1; c0 += block {
		w := min(block, j1-c0)
		pc := p
		if kp > 0 {
			pc = p[c0:]
		}
		mc := m
		if m != nil {
			mc = m[c0:]
		}
		ahead := 0
		if c0+w < j1 && combineStreams(kp, k, n) {
			ahead = w
		}
		combineRows(x[c0:], mc, sigma, s[c0:], z[c0:], k, w, n, pc, kp, c, ahead, cc)
	}
}

// streamAligned reports whether x and its rows (stride float64s apart)
// start 64-byte aligned, as the non-temporal stores of a streaming
// CombineRows need.
func streamAligned(x []float64, stride int) bool {
	return uintptr(unsafe.Pointer(unsafe.SliceData(x)))%64 == 0 && stride%8 == 0
}

// combineCoefCaching lets CombineRowsRange transpose the tiles'
// coefficients once for all its blocks (tests turn it off to compare).
var combineCoefCaching = true

// coefCacheLen is the room of a coefCache, in float64s (64 KiB, on the
// stack): the tiles of up to 8192/kp rows.
const coefCacheLen = 8192

// coefCache holds the coefficients of CombineRows' tiles transposed as
// the assembly reads them (ct[t*rows+r] for a tile's rows), filled by the
// first block of a call and read by the others: every block runs the same
// tiles in the same order. A tile past the room is transposed by each
// block, as without the cache. A nil cache holds nothing.
type coefCache struct {
	buf   [coefCacheLen]float64
	off   int  // the next tile's place in buf
	ready bool // filled by a block: the later ones read it
}

// start begins a block: its tiles are those of the blocks before it.
func (cc *coefCache) start() {
	if cc == nil {
		return
	}
	if cc.off > 0 {
		cc.ready = true
	}
	cc.off = 0
}

// tile returns the transposed coefficients of the tile of rows l …
// l+rows−1 (all kp terms), filling them on the first block; nil where
// they do not fit or there are none.
func (cc *coefCache) tile(c []float64, l, rows, kp int) []float64 {
	size := rows * kp
	if cc == nil || size == 0 || cc.off+size > len(cc.buf) {
		return nil
	}
	ct := cc.buf[cc.off : cc.off+size]
	cc.off += size
	if !cc.ready {
		for r := range rows {
			for t, v := range c[(l+r)*kp : (l+r)*kp+kp] {
				ct[t*rows+r] = v
			}
		}
	}
	return ct
}
