package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// panelsAVX2 writes the column panels of MulVecs on AVX2
// (mulvecs_panels_avx2_amd64.s): panel4AVX2.
func panelsAVX2() {
	panel4AVX2()
}

// The frame slots of panel4AVX2, by their offset below the frame's top.
const (
	p4ytile     = 8   // the tile's first output in y
	p4xtb       = 16  // the current block's first packed row
	p4kleft     = 24  // vectors left to add to y
	p4tilesleft = 32  // tiles left
	p4stride    = 48  // a packed row: 8·kp bytes
	p4kc8       = 56  // kc / 8
	p4kcrest    = 64  // kc mod 8
	p4left3     = 72  // blocks of 3 registers left in the tile
	p4left2     = 80  // blocks of 2
	p4left1     = 88  // blocks of 1
	p4alpha1    = 96  // 1 when α = 1.0, else 0
	p4kc4       = 104 // the update's steps of 4 columns: kc / 4
	p4kc4rest   = 112 // kc mod 4
	p4ptile     = 120 // p at the tile's first row
	p4umask     = 160 // the mask of the update's kc mod 4 last columns (32 bytes)
	p4first     = 168 // ahead: 1 until the call's first tile has updated its own block
	p4updnext   = 176 // 1 while the tile's first block is to update the next tile
	p4ccur      = 184 // ahead: the current tile's copy
	p4cnext     = 192 // ahead: the next tile's copy
	p4bp        = 224 // β·p of the next tile's 4 rows (32 bytes)
	p4rmask0    = 256 // ahead: the mask of the kc mod 8 last columns, lanes 0-3 (32 bytes)
	p4rmask1    = 288 // and lanes 4-7 (32 bytes)
)

// p4slots are the frame slots of panel4AVX2 that the panels share.
var p4slots = panelSlots{ytile: p4ytile, tilesleft: p4tilesleft, stride: p4stride, kc8: p4kc8, kcrest: p4kcrest,
	left3: p4left3, left2: p4left2, left1: p4left1, xtb: p4xtb, kleft: p4kleft}

// panelSlots names the frame slots every panel kernel keeps, by their
// offset below the frame's top: the tile's first output (ytile), the tiles
// left, the packed row's stride 8·kp, kc / 8 and kc mod 8, the tile's
// blocks of 3, 2 and 1 registers left, the current block's first packed row
// (xtb) and the vectors left to add to y (kleft).
type panelSlots struct {
	ytile, tilesleft, stride, kc8, kcrest int
	left3, left2, left1, xtb, kleft       int
}

// panelsStart loads what every panel kernel keeps from its arguments: R8 =
// NBYTES (n·8, a row of A), R9 = 3·NBYTES, SI = a (the first tile's first
// row), and in the frame ytile = y, tilesleft = tiles, stride = 8·kp, kc8 =
// kc/8 and kcrest = kc mod 8, which it leaves in CX with the flags set by it
// (ZF when 0). AX and BX scratch.
func panelsStart(f *frame, s panelSlots) {
	Comment("R8 = NBYTES, R9 = 3·NBYTES, SI = a; in the frame the tile's y, the",
		"tiles left, the packed row's stride 8·kp, kc / 8 and kc mod 8 (in CX)")
	Load(Param("n"), R8)
	SHLQ(Imm(3), R8)
	LEAQ(Mem{Base: R8, Index: R8, Scale: 2}, R9)
	Load(Param("a").Base(), RSI)
	Load(Param("y").Base(), RAX)
	MOVQ(RAX, f.at(s.ytile))
	Load(Param("tiles"), RAX)
	MOVQ(RAX, f.at(s.tilesleft))
	Load(Param("kp"), RAX)
	SHLQ(Imm(3), RAX)
	MOVQ(RAX, f.at(s.stride))
	Load(Param("kc"), RCX)
	MOVQ(RCX, RBX)
	SHRQ(Imm(3), RBX)
	MOVQ(RBX, f.at(s.kc8))
	ANDQ(Imm(7), RCX)
	MOVQ(RCX, f.at(s.kcrest))
}

// blocksStart sets the tile's block counters from the arguments g3, g2
// and g1, points xtb at the packed panel xt and kleft at the vector count
// k, and DX at the tile's first output (AX scratch).
func blocksStart(f *frame, s panelSlots) {
	Comment("The tile's block counters, the packed panel, the vectors left and",
		"DX at the tile's first output")
	argsToFrame(f, []argSlot{{"g3", s.left3}, {"g2", s.left2}, {"g1", s.left1}, {"xt", s.xtb}, {"k", s.kleft}})
	MOVQ(f.at(s.ytile), RDX)
}

// argSlot names an argument (a slice: its base) and the frame slot it is
// copied to.
type argSlot struct {
	param string
	slot  int
}

// argsToFrame copies the arguments into their frame slots through AX.
func argsToFrame(f *frame, args []argSlot) {
	for _, a := range args {
		c := Param(a.param)
		if _, err := c.Base().Resolve(); err == nil {
			c = c.Base()
		}
		MOVQ(arg(c), RAX)
		MOVQ(RAX, f.at(a.slot))
	}
}

// nextBlock jumps to b3, b2 or b1 for the tile's next block (the first
// counter of left3, left2, left1 not yet zero), or to done after the last;
// an empty label is a kind of block the caller never has.
func nextBlock(f *frame, s panelSlots, b3, b2, b1, done string) {
	for _, b := range []struct {
		left  int
		label string
	}{{s.left3, b3}, {s.left2, b2}, {s.left1, b1}} {
		if b.label == "" {
			continue
		}
		CMPQ(f.at(b.left), Imm(0))
		JNE(LabelRef(b.label))
	}
	JMP(LabelRef(done))
}

// groupCount sets CX to the vectors of the next group of lanes vectors,
// min(lanes, kleft), takes them off the frame slot kleft, and goes on at
// done when there are none (a group of pad lanes only); BX is scratch.
func groupCount(kleft Mem, lanes int, done string) {
	MOVQ(kleft, RCX)
	MOVQ(U32(uint64(lanes)), RBX)
	CMPQ(RCX, RBX)
	CMOVQGT(RBX, RCX)
	SUBQ(Imm(uint64(lanes)), kleft)
	TESTQ(RCX, RCX)
	JLE(LabelRef(done))
}

// restColumns writes the kc mod 8 last column steps of a block, one column
// a step: count (in a register) from the frame slot kcrest, col moved 8
// bytes a step; without them it goes on at skip.
func restColumns(kcrest Mem, count, col GPPhysical, skip, loop string, step func()) {
	MOVQ(kcrest, count)
	TESTQ(count, count)
	JZ(LabelRef(skip))
	Label(loop)
	step()
	ADDQ(U32(8), col)
	DECQ(count)
	JNZ(LabelRef(loop))
}

// steps8 writes the column steps of one cache line of each row: step at
// the column offsets 0, 8, …, 56 bytes.
func steps8(step func(d int)) {
	for d := 0; d < 64; d += 8 {
		step(d)
	}
}

// The registers of the AVX2 panels' column loops.
var (
	p4col    = R11 // the current column of the tile's first row in A or in its copy
	p4tile   = RSI // the tile's first row in A (at the panel's first column)
	p4row    = R8  // NBYTES: a row of A, a vector of y
	p4row3   = R9  // 3·NBYTES
	p4xt     = R12 // the packed row xt[c] of the current block
	p4stepxt = RAX // its stride 8·kp
	p4steps  = RBX // column steps left
	p4next   = RDI // the next tile's first row (prefetched)
	p4out    = RDX // the block's first output
)

// p4cstride is the row stride of the copies of a tile's block in bytes
// (avx2CopyStride float64s in kernel/mulvecs_panels_avx2_amd64.go): 49 cache
// lines, an odd number, so that a copy's 4 rows fall into different sets
// of L1 where A's rows share one when n is a multiple of 512.
const p4cstride = 3136

// p4src is where a block's column steps read A's elements: A itself (rows
// NBYTES apart) or the tile's copy (rows p4cstride apart). Each is written
// as its own code, its labels prefixed by prefix.
type p4src bool

const (
	p4fromA    p4src = false
	p4fromCopy p4src = true
)

// row returns row r's element at column offset d bytes from p4col.
func (s p4src) row(r, d int) Mem {
	if s == p4fromCopy {
		return Mem{Base: p4col, Disp: r*p4cstride + d}
	}
	return rowA(r, d, p4col)
}

func (s p4src) prefix() string {
	if s == p4fromCopy {
		return "p4c_"
	}
	return "p4_"
}

// p4step writes one column step of a block of J registers at column offset
// d: J loads of the packed row into Y12…, then per row a broadcast into Y15
// and J FMAs into that row's accumulators Y(J·r)…Y(J·r+J−1).
func p4step(J, d int, src p4src) {
	for b := 0; b < J; b++ {
		VMOVUPD(Mem{Base: p4xt, Disp: 32 * b}, ymm[12+b])
	}
	for r := 0; r < 4; r++ {
		VBROADCASTSD(src.row(r, d), Y15)
		for b := 0; b < J; b++ {
			VFMADD231PD(ymm[12+b], Y15, ymm[J*r+b])
		}
	}
	ADDQ(p4stepxt, p4xt)
}

// p4cols writes the column loop of one block (its labels named after
// block): step at each column, 8 columns (a cache line of each row) a
// loop, then the kc mod 8 rest one column a step. Reading A, the loop also
// asks for the next tile's line of each row in L2; reading the copy, the
// tile's first block, which updates the next tile, does (p4colsAhead).
func p4cols(f *frame, block string, step func(d int), src p4src) {
	l := func(s string) string { return fmt.Sprintf("%s%s_%s", src.prefix(), block, s) }
	if src == p4fromCopy {
		MOVQ(f.at(p4ccur), p4col)
	} else {
		MOVQ(p4tile, p4col)
		LEAQ(Mem{Base: p4tile, Index: p4row, Scale: 4}, p4next)
	}
	p4loopHead(f, l)
	if src == p4fromA {
		p4prefetchRows(func(m Mem) { PREFETCHT1(m) }, p4next, 0)
	}
	steps8(step)
	ADDQ(U32(64), p4col)
	if src == p4fromA {
		ADDQ(U32(64), p4next)
	}
	DECQ(p4steps)
	JNZ(LabelRef(l("loop")))
	Label(l("rest"))
	restColumns(f.at(p4kcrest), p4steps, p4col, l("done"), l("restloop"), func() { step(0) })
	Label(l("done"))
}

// p4loopHead writes the start of a block's column loop (its labels by l):
// the packed panel's row, its stride and the steps of 8 columns, to the
// rest at once without any, and the loop's aligned label.
func p4loopHead(f *frame, l func(string) string) {
	MOVQ(f.at(p4xtb), p4xt)
	MOVQ(f.at(p4stride), p4stepxt)
	MOVQ(f.at(p4kc8), p4steps)
	TESTQ(p4steps, p4steps)
	JZ(LabelRef(l("rest")))
	alignLoop()
	Label(l("loop"))
}

// p4prefetchRows asks for the cache line at column offset d bytes of each
// of the 4 rows of A from base, with pf.
func p4prefetchRows(pf func(Mem), base Register, d int) {
	for r := 0; r < 4; r++ {
		pf(rowA(r, d, base))
	}
}

// p4colsAhead writes the column loop of the tile's first block (name, its
// column step step) when the tiles read copies: besides the block's steps
// (from the current copy) it applies the rank-one update with α = 1, a =
// fma(β·p_r, v, a) (the bits of p4update), to the next tile's 4×kc block
// of A and writes it into the next copy, so that the update's loads and
// stores run under the block's FMAs instead of in a loop of their own:
// after each of the 8 column steps of a cache line, 4 columns of one of
// the next tile's rows; per 8 columns the next tile's line 8 columns on
// asked for in L1 and the tile after it in L2. After the loop the next
// tile's kc mod 8 last columns are updated under the masks rmask0 and
// rmask1 (the second only for more than 4 columns, so that no access
// starts past a row), then this tile's rest steps run. With regs (a block
// of 2 registers, which leaves Y8-Y11 and Y14 free) the update keeps v's 8
// columns in Y8 and Y9 and β·p_r in Y10, the row's half lines in Y11 and
// Y14; otherwise it uses Y12 and Y15 between the steps (every step loads
// them anew) and reads v from memory, 10 more loads a cache line. After
// the loop it uses Y12-Y15 (no block keeps an accumulator there). R10 is
// the tile after the next in A, R13 v at the current column, CX the next
// copy.
func p4colsAhead(f *frame, name string, step func(d int), regs bool) {
	l := func(s string) string { return "p4c_" + name + "a_" + s }
	bp := func(r int) Mem {
		m := f.block(p4bp, 32)
		m.Disp += 8 * r
		return m
	}
	MOVQ(f.at(p4ccur), p4col)
	LEAQ(Mem{Base: p4tile, Index: p4row, Scale: 4}, p4next)
	LEAQ(Mem{Base: p4next, Index: p4row, Scale: 4}, R10)
	Load(Param("v").Base(), R13)
	MOVQ(f.at(p4cnext), RCX)
	p4loopHead(f, l)
	p4prefetchRows(func(m Mem) { PREFETCHT1(m) }, R10, 0)
	p4prefetchRows(func(m Mem) { PREFETCHT0(m) }, p4next, 64)
	if regs {
		VMOVUPD(Mem{Base: R13}, Y8)
		VMOVUPD(Mem{Base: R13, Disp: 32}, Y9)
	}
	steps8(func(d int) {
		step(d)
		r, h := d/16, d/8%2
		m := rowA(r, 32*h, p4next)
		if !regs {
			VBROADCASTSD(bp(r), Y15)
			VMOVUPD(m, Y12)
			VFMADD231PD(Mem{Base: R13, Disp: 32 * h}, Y15, Y12)
			VMOVUPD(Y12, m)
			VMOVUPD(Y12, Mem{Base: RCX, Disp: r*p4cstride + 32*h})
			return
		}
		if h == 0 {
			VBROADCASTSD(bp(r), Y10)
		}
		t := []VecPhysical{Y11, Y14}[h]
		VMOVUPD(m, t)
		VFMADD231PD(ymm[8+h], Y10, t)
		VMOVUPD(t, m)
		VMOVUPD(t, Mem{Base: RCX, Disp: r*p4cstride + 32*h})
	})
	for _, g := range []GPPhysical{p4col, p4next, R10, R13, RCX} {
		ADDQ(U32(64), g)
	}
	DECQ(p4steps)
	JNZ(LabelRef(l("loop")))
	Label(l("rest"))
	Comment("the next tile's kc mod 8 last columns, masked")
	CMPQ(f.at(p4kcrest), Imm(0))
	JEQ(LabelRef(l("steps")))
	for h, mask := range []int{p4rmask0, p4rmask1} {
		if h == 1 {
			Comment("lanes 4-7 only with more than 4 columns: none of them past the rows")
			CMPQ(f.at(p4kcrest), Imm(4))
			JLE(LabelRef(l("steps")))
		}
		VMOVDQU(f.block(mask, 32), Y12)
		VMASKMOVPD(Mem{Base: R13, Disp: 32 * h}, Y12, Y13)
		for r := 0; r < 4; r++ {
			m := rowA(r, 32*h, p4next)
			VBROADCASTSD(bp(r), Y15)
			VMASKMOVPD(m, Y12, Y14)
			VFMADD231PD(Y13, Y15, Y14)
			VMASKMOVPD(Y14, Y12, m)
			VMASKMOVPD(Y14, Y12, Mem{Base: RCX, Disp: r*p4cstride + 32*h})
		}
	}
	Label(l("steps"))
	restColumns(f.at(p4kcrest), p4steps, p4col, l("done"), l("restloop"), func() { step(0) })
	Label(l("done"))
}

// p4colsMaybeAhead writes a block's column loop reading src: from the
// copies, p4colsAhead when the tile start asked for the next tile's update
// (updnext: the tile's first block), else p4cols.
func p4colsMaybeAhead(f *frame, name string, step func(d int), src p4src, regs bool) {
	if src == p4fromA {
		p4cols(f, name, step, src)
		return
	}
	pre := src.prefix()
	CMPQ(f.at(p4updnext), Imm(0))
	JEQ(LabelRef(pre + name + "_plain"))
	MOVQ(U32(0), f.at(p4updnext))
	p4colsAhead(f, name, step, regs)
	JMP(LabelRef(pre + name + "_sums"))
	Label(pre + name + "_plain")
	p4cols(f, name, step, src)
	Label(pre + name + "_sums")
}

// p4pairStep writes one column step of a paired block of F full registers at
// column offset d: as p4step for the F registers (loads into Y12…), and the
// pair register, the first two lanes of the packed row's last register in
// both halves of Y(12+F) (a 128-bit broadcast), multiplied by rows 0 and 1 of
// A in one register (their broadcasts in Y15 and Y10 blended: [a0, a0, a1,
// a1]) into Y(4F) and by rows 2 and 3 into Y(4F+1). Every lane is the FMA
// chain the 4-lane register would compute for it.
func p4pairStep(F, d int, src p4src) {
	for b := 0; b < F; b++ {
		VMOVUPD(Mem{Base: p4xt, Disp: 32 * b}, ymm[12+b])
	}
	VBROADCASTF128(Mem{Base: p4xt, Disp: 32 * F}, ymm[12+F])
	for pr := 0; pr < 2; pr++ {
		for i, bc := range []VecPhysical{Y15, Y10} {
			r := 2*pr + i
			VBROADCASTSD(src.row(r, d), bc)
			for b := 0; b < F; b++ {
				VFMADD231PD(ymm[12+b], bc, ymm[F*r+b])
			}
		}
		VBLENDPD(Imm(0xc), Y10, Y15, Y15)
		VFMADD231PD(ymm[12+F], Y15, ymm[4*F+pr])
	}
	ADDQ(p4stepxt, p4xt)
}

// p4pairGroup adds the pair register's sums to y: r01 holds [row 0: v, v+1
// | row 1: v, v+1] and r23 the same for rows 2 and 3; transposed, rows 0-3
// of vector v and of v+1 are added to y (only v when one vector is left).
func p4pairGroup(f *frame, r01, r23 VecPhysical, done string) {
	groupCount(f.at(p4kleft), 2, done)
	VPERM2F128(Imm(0x20), r23, r01, Y12) // [0: v, v+1 | 2: v, v+1]
	VPERM2F128(Imm(0x31), r23, r01, Y13) // [1: v, v+1 | 3: v, v+1]
	VUNPCKLPD(Y13, Y12, Y14)             // vector v, rows 0-3
	VUNPCKHPD(Y13, Y12, Y15)             // vector v+1
	p4addRows([]VecPhysical{Y14, Y15}, done)
}

// p4pairBlock writes the paired block of F full registers and the pair
// register (the tile's last block): the accumulators cleared, the column
// loop, the F groups of 4 vectors and the pair's 1 or 2 added to y. Each
// accumulator takes one FMA a column step, so a block of fewer than 8
// FMAs a step waits for their latency: the panels pair only with F = 2.
func p4pairBlock(f *frame, F int, src p4src) {
	if F > 2 {
		panic("p4pairBlock: more than 2 full registers leave no register for the pair's loads")
	}
	name := fmt.Sprintf("bp%d", F)
	pre := src.prefix()
	Label(pre + name)
	for i := 0; i < 4*F+2; i++ {
		VXORPD(ymm[i], ymm[i], ymm[i])
	}
	p4colsMaybeAhead(f, name, func(d int) { p4pairStep(F, d, src) }, src, false)
	for g := 0; g < F; g++ {
		r := []VecPhysical{ymm[g], ymm[F+g], ymm[2*F+g], ymm[3*F+g]}
		p4group(f, r, fmt.Sprintf("%ss%s_g%d", pre, name, g))
	}
	p4pairGroup(f, ymm[4*F], ymm[4*F+1], fmt.Sprintf("%ss%s_pair", pre, name))
	JMP(LabelRef("p4_tile_next"))
}

// p4group adds one group of 4 vectors, the rows' sums in r[0]-r[3], to y:
// at most the vectors left (kleft), each column of the 4×4 block,
// transposed in registers, added to 4 rows of one vector; a group past the
// k vectors (pad lanes only) adds nothing.
func p4group(f *frame, r []VecPhysical, done string) {
	groupCount(f.at(p4kleft), 4, done)
	VUNPCKLPD(r[1], r[0], Y12)
	VUNPCKHPD(r[1], r[0], Y13)
	VUNPCKLPD(r[3], r[2], Y14)
	VUNPCKHPD(r[3], r[2], Y15)
	VPERM2F128(Imm(0x20), Y14, Y12, r[0])
	VPERM2F128(Imm(0x20), Y15, Y13, r[1])
	VPERM2F128(Imm(0x31), Y14, Y12, r[2])
	VPERM2F128(Imm(0x31), Y15, Y13, r[3])
	p4addRows(r, done)
}

// p4addRows adds the sums of one vector's 4 rows in each register of r to
// y at DX, a vector apart, for the CX vectors left of them (CX ≥ 1), and
// goes on at done.
func p4addRows(r []VecPhysical, done string) {
	for _, z := range r {
		VADDPD(Mem{Base: p4out}, z, z)
		VMOVUPD(z, Mem{Base: p4out})
		ADDQ(p4row, p4out)
		DECQ(RCX)
		JZ(LabelRef(done))
	}
	Label(done)
}

// p4update writes the rank-one update of the tile's 4×kc block at SI:
// a = fma(β·p_r, v, α·a), the operations of scaleAddOuterAVX2 (the same
// bits), the kc mod 4 last columns under the mask umask (BX p_r, DI the
// row, R10 rows left, R11 and R12 the columns of the row and of v, CX the
// steps of 4 columns; Y0, Y1, Y12-Y15 scratch). With toCopy (α = 1, the
// tiles reading copies) it also writes the block into the current copy
// (DX its row, R13 its column) and has no loop for α ≠ 1. Its labels start
// with pre.
func p4update(f *frame, pre string, toCopy bool) {
	l := func(s string) string { return pre + s }
	MOVQ(f.at(p4ptile), RBX)
	VBROADCASTSD(arg(Param("alpha")), Y14)
	VMOVSD(arg(Param("beta")), X13)
	MOVQ(p4tile, RDI)
	if toCopy {
		MOVQ(f.at(p4ccur), RDX)
	}
	MOVQ(U32(4), R10)
	Label(l("row"))
	VMULSD(Mem{Base: RBX}, X13, X0)
	VBROADCASTSD(X0, Y15)
	Load(Param("v").Base(), R12)
	MOVQ(RDI, R11)
	if toCopy {
		MOVQ(RDX, R13)
	}
	MOVQ(f.at(p4kc4), RCX)
	TESTQ(RCX, RCX)
	JZ(LabelRef(l("tail")))
	if !toCopy { // the copies are written only with α = 1
		CMPQ(f.at(p4alpha1), Imm(0))
		JNE(LabelRef(l("cols1")))
		p4updCols(l("cols"), true, toCopy)
		JMP(LabelRef(l("tail")))
	}
	Comment("α = 1: a = fma(β·p_r, v, a), the same bits without the",
		"multiplication (the optimizer keeps A as s·Ã and passes α = 1)")
	p4updCols(l("cols1"), false, toCopy)
	Label(l("tail"))
	CMPQ(f.at(p4kc4rest), Imm(0))
	JEQ(LabelRef(l("next")))
	VMOVDQU(f.block(p4umask, 32), Y12)
	VMASKMOVPD(Mem{Base: R11}, Y12, Y0)
	VMASKMOVPD(Mem{Base: R12}, Y12, Y1)
	VMULPD(Y14, Y0, Y0)
	VFMADD231PD(Y1, Y15, Y0)
	VMASKMOVPD(Y0, Y12, Mem{Base: R11})
	if toCopy {
		VMASKMOVPD(Y0, Y12, Mem{Base: R13})
	}
	Label(l("next"))
	ADDQ(Imm(8), RBX)
	ADDQ(p4row, RDI)
	if toCopy {
		ADDQ(U32(p4cstride), RDX)
	}
	DECQ(R10)
	JNZ(LabelRef(l("row")))
	ADDQ(Imm(32), f.at(p4ptile))
}

// p4updCols writes the update's loop over a row's steps of 4 columns (CX
// of them, R11 the row, R12 v, with toCopy R13 the copy's row): a =
// fma(β·p_r, v, α·a), or with mulAlpha false fma(β·p_r, v, a) (α = 1).
func p4updCols(loop string, mulAlpha, toCopy bool) {
	Label(loop)
	if mulAlpha {
		VMULPD(Mem{Base: R11}, Y14, Y0)
	} else {
		VMOVUPD(Mem{Base: R11}, Y0)
	}
	VFMADD231PD(Mem{Base: R12}, Y15, Y0)
	VMOVUPD(Y0, Mem{Base: R11})
	ADDQ(U32(32), R11)
	ADDQ(U32(32), R12)
	if toCopy {
		VMOVUPD(Y0, Mem{Base: R13})
		ADDQ(U32(32), R13)
	}
	DECQ(RCX)
	JNZ(LabelRef(loop))
}

// p4block writes the block of J registers: its counter, the accumulators
// cleared, the column loop, the packed panel moved on by J registers, and
// the J groups of 4 vectors added to y. Reading the copies, the tile's
// first block updates the next tile's block (p4colsMaybeAhead).
func p4block(f *frame, J int, left int, src p4src) {
	pre := src.prefix()
	Label(fmt.Sprintf("%sb%d", pre, J))
	DECQ(f.at(left))
	for i := 0; i < 4*J; i++ {
		VXORPD(ymm[i], ymm[i], ymm[i])
	}
	p4colsMaybeAhead(f, fmt.Sprintf("b%d", J), func(d int) { p4step(J, d, src) }, src, J <= 2)
	ADDQ(U32(32*J), f.at(p4xtb))
	for g := 0; g < J; g++ {
		r := []VecPhysical{ymm[g], ymm[J+g], ymm[2*J+g], ymm[3*J+g]}
		p4group(f, r, fmt.Sprintf("%ss%d_g%d", pre, J, g))
	}
	JMP(LabelRef(pre + "block"))
}

// p4blocks writes the tile's blocks reading src: the dispatch to the next
// block (label prefix+"block"), the blocks of 3, 2 and 1 registers, and
// the paired block last.
func p4blocks(f *frame, src p4src) {
	pre := src.prefix()
	Label(pre + "block")
	if src == p4fromCopy {
		// The copies hold panels of kp ≥ 8 lanes, which have no block of
		// 1 register (mulVecsPanelsAVX2Pass).
		nextBlock(f, p4slots, pre+"b3", pre+"b2", "", pre+"pair")
	} else {
		nextBlock(f, p4slots, pre+"b3", pre+"b2", pre+"b1", pre+"pair")
	}
	p4block(f, 3, p4left3, src)
	p4block(f, 2, p4left2, src)
	if src == p4fromA {
		p4block(f, 1, p4left1, src)
	}
	Label(pre + "pair")
	Comment("the paired block, if any: the tile's last (it goes on at the next tile)")
	CMPQ(arg(Param("pair")), Imm(0))
	JEQ(LabelRef("p4_tile_next"))
	p4pairBlock(f, 2, src)
}

// panel4AVX2 writes panel4AVX2: for each tile of 4 rows, the rank-one
// update of its block (with update ≠ 0), then each block of J = 3, 2 or 1
// registers of vectors (g3, g2, g1 of them): the 4×4J sums of the panel's
// columns, added to y; with pair ≠ 0 the paired block last (p4pairBlock).
// With ahead ≠ 0 the blocks read copies of the tiles' blocks, which the
// tile before writes as it updates them (p4colsAhead).
func panel4AVX2() {
	TEXT("panel4AVX2", NOSPLIT, "func(y, a, xt, cp []float64, n, tiles, kc, kp, k, g3, g2, g1 int, alpha, beta float64, p, v []float64, update, pair, ahead int)")
	Comment("MulVecs for large n on AVX2 (without AVX-512): the column panels of",
		"mulvecs_panels_avx512_amd64.s in 256-bit registers. The caller packs one panel",
		"of kc columns of the k vectors transposed (xt[c*kp + j] = x[j*n + c0 + c],",
		"kp = k rounded up to 4, the pad lanes zero). For each tile of 4 rows of A",
		"the accumulators hold the 4×kp block of partial sums, one row across 4",
		"vectors a register: per column one A element per row is broadcast and",
		"multiplied by the packed row xt[c]. The vectors run in blocks of J = 3, 2",
		"or 1 registers (12, 8 or 4 lanes): a column step of J = 3 is 3 loads and",
		"4 broadcasts for 12 FMAs, in the 16 registers. The sums are added to y",
		"once per panel, transposed 4×4 in registers. With the rank-one update",
		"(UpdateMulVecs), each tile's 4×kc block of A is updated in place just",
		"before its column loops, so A is read and written once and the block is",
		"in L1 when the loops read it; with ahead ≠ 0 (α = 1) the first block of",
		"each tile updates the next tile's block instead, under its FMAs, into A",
		"and a copy whose rows do not share L1 sets, and the blocks read the",
		"copies. With pair ≠ 0 the tile's last block is 2 full registers and a",
		"pair register, which holds the last two lanes of two rows (k mod 4 = 1",
		"or 2: 10 FMAs a column step instead of 12), after the g3, g2 and g1",
		"blocks.")
	f := newFrame(296)

	panelsStart(f, p4slots)
	MOVQ(U32(0), f.at(p4updnext))
	CMPQ(arg(Param("update")), Imm(0))
	JEQ(LabelRef("p4_tile"))

	Comment("The update's steps of 4 columns, the mask of the kc mod 4 rest",
		"(lanes l < rest: rest > l), whether α = 1, and p at the first tile.")
	Load(Param("kc"), RCX)
	MOVQ(RCX, RBX)
	SHRQ(Imm(2), RBX)
	MOVQ(RBX, f.at(p4kc4))
	ANDQ(Imm(3), RCX)
	MOVQ(RCX, f.at(p4kc4rest))
	MOVQ(U32(0x03020100), RAX)
	VMOVQ(RAX, X1)
	VPMOVZXBQ(X1, Y1)
	VMOVQ(RCX, X2)
	VPBROADCASTQ(X2, Y2)
	VPCMPGTQ(Y1, Y2, Y12)
	VMOVDQU(Y12, f.block(p4umask, 32))
	alphaIsOne(f.at(p4alpha1))
	Load(Param("p").Base(), RAX)
	MOVQ(RAX, f.at(p4ptile))
	CMPQ(arg(Param("ahead")), Imm(0))
	JEQ(LabelRef("p4_tile"))
	Comment("Ahead: the first tile updates its own block into the first copy;",
		"the copies' pointers, the masks of the kc mod 8 last columns (lanes",
		"l < rest, l + 4 < rest)")
	MOVQ(U32(1), f.at(p4first))
	Load(Param("cp").Base(), RAX)
	MOVQ(RAX, f.at(p4ccur))
	ADDQ(U32(4*p4cstride), RAX)
	MOVQ(RAX, f.at(p4cnext))
	Load(Param("kc"), RCX)
	ANDQ(Imm(7), RCX)
	VMOVQ(RCX, X2)
	VPBROADCASTQ(X2, Y2)
	MOVQ(U32(0x03020100), RAX)
	VMOVQ(RAX, X1)
	VPMOVZXBQ(X1, Y1)
	VPCMPGTQ(Y1, Y2, Y3)
	VMOVDQU(Y3, f.block(p4rmask0, 32))
	MOVQ(U32(0x07060504), RAX)
	VMOVQ(RAX, X1)
	VPMOVZXBQ(X1, Y1)
	VPCMPGTQ(Y1, Y2, Y3)
	VMOVDQU(Y3, f.block(p4rmask1, 32))

	Label("p4_tile")
	CMPQ(arg(Param("update")), Imm(0))
	JEQ(LabelRef("p4_blocks_start"))
	CMPQ(arg(Param("ahead")), Imm(0))
	JNE(LabelRef("p4_tile_ahead"))
	p4update(f, "p4_upd_", false)
	JMP(LabelRef("p4_blocks_start"))

	Label("p4_tile_ahead")
	CMPQ(f.at(p4first), Imm(0))
	JEQ(LabelRef("p4_next_bp"))
	MOVQ(U32(0), f.at(p4first))
	p4update(f, "p4c_upd_", true)
	Label("p4_next_bp")
	Comment("β·p_r of the next tile's rows for this tile's first block, when",
		"there is a next tile")
	CMPQ(f.at(p4tilesleft), Imm(1))
	JLE(LabelRef("p4_blocks_start"))
	MOVQ(f.at(p4ptile), RBX)
	VMOVSD(arg(Param("beta")), X13)
	for r := 0; r < 4; r++ {
		m := f.block(p4bp, 32)
		m.Disp += 8 * r
		VMULSD(Mem{Base: RBX, Disp: 8 * r}, X13, X0)
		VMOVSD(X0, m)
	}
	ADDQ(Imm(32), f.at(p4ptile))
	MOVQ(U32(1), f.at(p4updnext))

	Label("p4_blocks_start")
	blocksStart(f, p4slots)
	CMPQ(arg(Param("ahead")), Imm(0))
	JNE(LabelRef("p4c_block"))
	p4blocks(f, p4fromA)
	p4blocks(f, p4fromCopy)

	Label("p4_tile_next")
	Comment("next tile: A 4 rows down, y 4 elements on, the copies swapped")
	LEAQ(Mem{Base: p4tile, Index: p4row, Scale: 4}, p4tile)
	ADDQ(Imm(32), f.at(p4ytile))
	MOVQ(f.at(p4ccur), RAX)
	MOVQ(f.at(p4cnext), RBX)
	MOVQ(RBX, f.at(p4ccur))
	MOVQ(RAX, f.at(p4cnext))
	DECQ(f.at(p4tilesleft))
	JNZ(LabelRef("p4_tile"))
	VZEROUPPER()
	RET()
}
