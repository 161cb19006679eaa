package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// panelsAVX512 writes the column panels of MulVecs on AVX-512
// (mulvecs_panels_avx512_amd64.s): panel8AVX512, packPanelAVX512 and
// panel6AVX512.
func panelsAVX512() {
	panelAVX512(tile8)
	packPanelAVX512()
	panelAVX512(tile6)
}

// aps is the row stride of the copies of A's blocks in bytes: 65 cache
// lines, an odd number, so that the 8 rows of a copy fall into 8 different
// sets of L1; room for kc ≤ panelACols = 512 columns
// (mulvecs_panels_amd64.go).
const aps = 4160

// The frame slots of the AVX-512 panels, by their offset below the top of
// the frame (p8frame bytes).
const (
	p8frame     = 232
	p8ytile     = 8
	p8ptile     = 16  // p at the next tile's first row
	p8xtb       = 24  // the current block's first packed row
	p8kleft     = 32  // vectors left to add to y
	p8tilesleft = 40  // tiles left
	p8left3     = 48  // blocks of 3 registers left (panel6: of 4)
	p8left2     = 56  // blocks of 2
	p8left1     = 64  // blocks of 1
	p8stride    = 72  // a packed row: 8·kp bytes
	p8kc8       = 80  // kc / 8
	p8kcrest    = 88  // kc mod 8
	p8alpha     = 96  // α
	p8v         = 104 // v at the panel's first column
	p8copynext  = 112 // ≠ 0: this tile's first block updates and copies the next tile's
	p8ysave     = 120 // DX while a copying loop uses it
	p8bp0       = 128 // β·p of the next tile's rows: bp0 … bp7 at 128 … 184
	p8cur       = 192 // this tile's copy
	p8nxt       = 200 // the next tile's copy
	p8endp      = 208 // the end of the copying loops' columns in the copy
	p8beta      = 216 // β
	p8alpha1    = 224 // 1 when α = 1.0, else 0
	p8cxsave    = 232 // CX in the one-buffer loops
)

// p8slots are the slots panelsStart and blocksStart fill.
var p8slots = panelSlots{ytile: p8ytile, tilesleft: p8tilesleft, stride: p8stride, kc8: p8kc8, kcrest: p8kcrest,
	left3: p8left3, left2: p8left2, left1: p8left1, xtb: p8xtb, kleft: p8kleft}

// tileKind is what differs between the 8-row and the 6-row panels.
type tileKind struct {
	name   string // the function
	op     string // the labels' prefix
	rows   int    // rows of a tile
	blocks []int  // the registers of its blocks: 3, 2, 1 or 4
}

var (
	tile8 = tileKind{name: "panel8AVX512", op: "p8", rows: 8, blocks: []int{3, 2, 1}}
	tile6 = tileKind{name: "panel6AVX512", op: "p6", rows: 6, blocks: []int{4}}
)

// lastReg is how a tile of a single block holds its last register's
// vectors: 8 lanes (lastFull), 4 (lastHalf: k mod 8 from 1 to 4), or, for
// one or two vectors (k mod 8 = 1 or 2), two rows' in one 4-lane register
// (lastPair): lanes (a_r, a_r, a_r+1, a_r+1) times (x_j, x_j+1, x_j, x_j+1),
// half as many 4-lane FMAs as lastHalf, a blend per pair of rows. Each lane
// is the same chain of FMAs over the columns in every form, so the sums are
// the same bits. The panels' half argument: 0, 1 or 2.
type lastReg int

const (
	lastFull lastReg = iota
	lastHalf
	lastPair
)

// acc is the accumulator of row r and register b of a block of J registers:
// J·r+b; with lastPair the J−1 full registers of row r are (J−1)·r+b and
// the pair of rows r, r+1 (r even) the rows·(J−1)+r/2-th.
func (t tileKind) acc(J int, last lastReg, r, b int) VecPhysical {
	if last != lastPair {
		return zmm[J*r+b]
	}
	if b < J-1 {
		return zmm[(J-1)*r+b]
	}
	return zmm[t.rows*(J-1)+r/2]
}

// pairRegs are the registers lastPair adds: the odd rows' broadcast (the
// even rows keep step's) and the blend of the two, the first two past the
// pair accumulators.
func (t tileKind) pairRegs(J int) (odd, blend VecPhysical) {
	i := t.rows*(J-1) + t.rows/2
	if t.rows == 8 {
		return Z28, zmm[i] // the 8-row tiles broadcast odd rows into Z28 anyway
	}
	return zmm[i], zmm[i+1]
}

// rowCopy addresses row r of a copied block at column offset d from base.
func rowCopy(r, d int, base Register) Mem { return Mem{Base: base, Disp: d + r*aps} }

// prefetchRows prefetches, with ins, the cache line at column offset d of
// each row of the tile of A at base: a tile's rows are short runs that the
// hardware prefetchers pick up late. A prefetch past the end of A does not
// fault.
func (t tileKind) prefetchRows(ins func(Op), d int, base Register) {
	for r := 0; r < t.rows; r++ {
		ins(rowA(r, d, base))
	}
}

// next points DI at the next tile's first row, ahead DX at the first row of
// the tile after that.
func (t tileKind) next() {
	if t.rows == 8 {
		LEAQ(Mem{Base: RSI, Index: R8, Scale: 8}, RDI)
		return
	}
	LEAQ(Mem{Base: RSI, Index: R9, Scale: 2}, RDI)
}

func (t tileKind) ahead() {
	if t.rows == 8 {
		LEAQ(Mem{Base: RDI, Index: R8, Scale: 8}, RDX)
		return
	}
	LEAQ(Mem{Base: RDI, Index: R9, Scale: 2}, RDX)
}

// step writes one column step at column offset d from R11 for a block of J
// registers: J loads of the packed row into Z24…, then per row a broadcast
// and J FMAs into the accumulators (acc). The rows are read from the copy
// (copied) or from A. The broadcasts alternate between Z27 and Z28 (J = 4:
// Z28 alone; renaming keeps them independent), leaving Z29-Z31 to the
// copying loops. With lastHalf the last register is 4 lanes wide (Y): when
// it holds at most 4 vectors its loads and FMAs cost half a 512-bit one on
// CPUs that split those in two; writing Y zeroes the accumulator's upper
// lanes, which the sums then add nowhere. With lastPair the last
// register's two vectors are loaded into both halves of a Y register, the
// odd rows broadcast into pairRegs' register and blended (VBLENDMPD under
// K3: VBLENDPD cannot name Y16-Y31) with the row above, and one 4-lane FMA
// serves both rows.
func (t tileKind) step(J int, last lastReg, copied bool, d int) {
	for b := 0; b < J; b++ {
		switch {
		case last == lastHalf && b == J-1:
			VMOVUPD(Mem{Base: R12, Disp: 64 * b}, zmm[24+b].AsY())
		case last == lastPair && b == J-1:
			VBROADCASTF32X4(Mem{Base: R12, Disp: 64 * b}, zmm[24+b].AsY())
		default:
			VMOVUPD(Mem{Base: R12, Disp: 64 * b}, zmm[24+b])
		}
	}
	odd, blend := t.pairRegs(J)
	var even VecPhysical
	for r := 0; r < t.rows; r++ {
		zb := Z27
		if J == 4 || r%2 == 1 {
			zb = Z28
		}
		if last == lastPair && r%2 == 1 {
			zb = odd
		}
		addr := rowA(r, d, R11)
		if copied {
			addr = rowCopy(r, d, R11)
		}
		VBROADCASTSD(addr, zb)
		for b := 0; b < J; b++ {
			switch {
			case last == lastHalf && b == J-1:
				VFMADD231PD(zmm[24+b].AsY(), zb.AsY(), t.acc(J, last, r, b).AsY())
			case last == lastPair && b == J-1:
				if r%2 == 0 {
					even = zb
					continue
				}
				VBLENDMPD(zb.AsY(), even.AsY(), K3, blend.AsY())
				VFMADD231PD(zmm[24+b].AsY(), blend.AsY(), t.acc(J, last, r, b).AsY())
			default:
				VFMADD231PD(zmm[24+b], zb, t.acc(J, last, r, b))
			}
		}
	}
	ADDQ(RAX, R12)
}

// rowUpdate is one of the row operations of the copying loops: it updates
// one cache line of a row of the next tile (at arow) with the rank-one
// update a = fma(β·p_r, v, α·a), β·p_r broadcast from the frame slot bp, v
// in Z30, α in Z29 (the operations of scaleAddOuterAVX512, so the same
// bits), and stores it to A and to the next block's copy (prow).
type rowUpdate func(arow, prow, bp Mem)

// updRow is the full rank-one update of a line.
func updRow(arow, prow, bp Mem) {
	VMULPD(arow, Z29, Z31)
	VFMADD231PD_BCST(bp, Z30, Z31)
	VMOVUPD(Z31, arow)
	VMOVUPD(Z31, prow)
}

// updRow1 is updRow for α = 1: a = fma(β·p_r, v, a), the same bits without
// the multiplication (the optimizer keeps A as s·Ã and passes α = 1; the
// tail and the first tile keep updRow, exact with α = 1).
func updRow1(arow, prow, bp Mem) {
	VMOVUPD(arow, Z31)
	VFMADD231PD_BCST(bp, Z30, Z31)
	VMOVUPD(Z31, arow)
	VMOVUPD(Z31, prow)
}

// updRowTail is updRow for the last kc mod 8 columns (mask K1: A is neither
// read nor written past them; the copy's lanes past kc hold whatever the
// arithmetic gave and are never read).
func updRowTail(arow, prow, bp Mem) {
	VMOVUPD_Z(arow, K1, Z31)
	VMULPD(Z29, Z31, Z31)
	VFMADD231PD_BCST(bp, Z30, Z31)
	VMOVUPD(Z31, K1, arow)
	VMOVUPD(Z31, prow)
}

// line loads the line of v at BX into Z30; lineTail its first kc mod 8
// columns.
func line()     { VMOVUPD(Mem{Base: RBX}, Z30) }
func lineTail() { VMOVUPD_Z(Mem{Base: RBX}, K1, Z30) }

// updOne applies upd to row r of the next tile at DI, copied to CX.
func updOne(f *frame, upd rowUpdate, r int) {
	upd(rowA(r, 0, RDI), rowCopy(r, 0, RCX), f.at(p8bp0+8*r))
}

// copyRows updates one cache line of each row of the tile at DI and copies
// it to CX with upd.
func (t tileKind) copyRows(f *frame, upd rowUpdate) {
	for r := 0; r < t.rows; r++ {
		updOne(f, upd, r)
	}
}

// bp stores β·p of the next tile's rows (p at ptile) in bp0 … and moves
// ptile on: the operations of scaleAddOuterAVX512, so the same bits.
func (t tileKind) bp(f *frame) {
	VMOVSD(f.at(p8beta), X30)
	MOVQ(f.at(p8ptile), RAX)
	for r := 0; r < t.rows; r++ {
		VMULSD(Mem{Base: RAX, Disp: 8 * r}, X30, X31)
		VMOVSD(X31, f.at(p8bp0+8*r))
	}
	ADDQ(U32(8*t.rows), f.at(p8ptile))
}

// columns writes the column loop of one block that does not copy: 8
// columns (one cache line of each row) at a time, then the kc mod 8 rest.
// It reads the copy of the tile's block (copied) or A itself, then
// prefetching the next tile's line of each row once per 8 columns (MulVecs
// without the update, where copying cost more than the sets the rows
// share).
func (t tileKind) columns(f *frame, J int, last lastReg, copied bool, l func(string) string) {
	if copied {
		MOVQ(f.at(p8cur), R11)
	} else {
		MOVQ(RSI, R11)
		t.next()
	}
	MOVQ(f.at(p8xtb), R12)
	MOVQ(f.at(p8stride), RAX)
	MOVQ(f.at(p8kc8), RCX)
	TESTQ(RCX, RCX)
	JZ(LabelRef(l("rest")))
	alignLoop()
	Label(l("loop"))
	if !copied {
		t.prefetchRows(func(m Op) { PREFETCHT0(m) }, 0, RDI)
	}
	steps8(func(d int) { t.step(J, last, copied, d) })
	ADDQ(U32(64), R11)
	ADDQ(U32(64), RDI)
	DECQ(RCX)
	JNZ(LabelRef(l("loop")))
	Label(l("rest"))
	restColumns(f.at(p8kcrest), RCX, R11, l("done"), l("restloop"), func() { t.step(J, last, copied, 0) })
	Label(l("done"))
}

// updateBlock updates the whole block of the tile at SI and copies it to
// cur, in a loop of its own: the first tile of a call, which no column loop
// updated.
func (t tileKind) updateBlock(f *frame) {
	l := func(s string) string { return t.op + "_first_" + s }
	MOVQ(RSI, RDI)
	MOVQ(f.at(p8cur), RCX)
	MOVQ(f.at(p8v), RBX)
	VBROADCASTSD(f.at(p8alpha), Z29)
	MOVQ(f.at(p8kc8), RAX)
	TESTQ(RAX, RAX)
	JZ(LabelRef(l("tail")))
	Label(l("loop"))
	line()
	t.copyRows(f, updRow)
	for _, r := range []GPPhysical{RDI, RCX, RBX} {
		ADDQ(U32(64), r)
	}
	DECQ(RAX)
	JNZ(LabelRef(l("loop")))
	Label(l("tail"))
	CMPQ(f.at(p8kcrest), Imm(0))
	JEQ(LabelRef(l("done")))
	lineTail()
	t.copyRows(f, updRowTail)
	Label(l("done"))
}

// copySetup starts a copying column loop: R11 at the copy of this tile, CX
// at the next tile's copy (or, with one buffer, at this tile's own, which
// the next tile's block overwrites one cache line behind the reads), DI at
// the next tile's first row in A, DX (saved first: it is &y) at the tile
// after that, BX at v, Z29 = α.
func (t tileKind) copySetup(f *frame, onebuf bool) {
	MOVQ(f.at(p8cur), R11)
	if onebuf {
		MOVQ(R11, RCX)
	} else {
		MOVQ(f.at(p8nxt), RCX)
	}
	t.next()
	MOVQ(RDX, f.at(p8ysave))
	t.ahead()
	MOVQ(f.at(p8v), RBX)
	VBROADCASTSD(f.at(p8alpha), Z29)
	MOVQ(f.at(p8xtb), R12)
	MOVQ(f.at(p8stride), RAX)
}

// copyLoop writes the loop of a copying column loop: per 8 columns the
// next cache line of the next tile's rows asked for in L1 and the tile
// after them in L2, then each column step followed by the update and copy
// of one cache line of one row of the next tile's block (none after the
// steps past its rows), and the pointers moved on 8 columns while R11 is
// below endp.
func (t tileKind) copyLoop(f *frame, J int, last lastReg, upd rowUpdate, loop string) {
	alignLoop()
	Label(loop)
	t.prefetchRows(func(m Op) { PREFETCHT1(m) }, 0, RDX)
	t.prefetchRows(func(m Op) { PREFETCHT0(m) }, 64, RDI)
	line()
	for r := 0; r < 8; r++ {
		t.step(J, last, true, 8*r)
		if r < t.rows {
			updOne(f, upd, r)
		}
	}
	for _, r := range []GPPhysical{R11, RCX, RDI, RDX, RBX} {
		ADDQ(U32(64), r)
	}
	CMPQ(R11, f.at(p8endp))
	JB(LabelRef(loop))
}

// columnsCopy is columns for the first block of a tile that has a next
// tile: after each column step it updates and copies one cache line of one
// row of the next tile's block (copyLoop). The kc mod 8 last columns of the
// next tile are done before this tile's rest steps.
func (t tileKind) columnsCopy(f *frame, J int, last lastReg, upd rowUpdate, l func(string) string) {
	t.copySetup(f, false)
	CMPQ(R11, f.at(p8endp))
	JAE(LabelRef(l("rest")))
	t.copyLoop(f, J, last, upd, l("loop"))
	Label(l("rest"))
	MOVQ(f.at(p8kcrest), RDX)
	TESTQ(RDX, RDX)
	JZ(LabelRef(l("done")))
	lineTail()
	t.copyRows(f, updRowTail)
	MOVQ(RDX, RCX)
	Label(l("restloop"))
	t.step(J, last, true, 0)
	ADDQ(U32(8), R11)
	DECQ(RCX)
	JNZ(LabelRef(l("restloop")))
	Label(l("done"))
	MOVQ(f.at(p8ysave), RDX)
}

// columnsCopy1 is columnsCopy with a single copy (onebuf: a tile of one
// block, kc ≥ 8): the next tile's block is updated a group of 8 columns
// behind the column steps and copied over the lines of this tile's copy
// that the steps have just read, so the copy's stores hit L1 instead of
// fetching the other buffer's lines. The first group runs its steps alone
// (the next tile's first line of each row asked for in L1); after the last,
// this tile's kc mod 8 rest steps run first, then the next tile's last
// group and its kc mod 8 columns are updated and copied outside the loop.
func (t tileKind) columnsCopy1(f *frame, J int, last lastReg, upd rowUpdate, l func(string) string) {
	t.copySetup(f, true)
	t.prefetchRows(func(m Op) { PREFETCHT1(m) }, 0, RDX)
	t.prefetchRows(func(m Op) { PREFETCHT0(m) }, 0, RDI)
	steps8(func(d int) { t.step(J, last, true, d) })
	ADDQ(U32(64), R11)
	ADDQ(U32(64), RDX)
	CMPQ(R11, f.at(p8endp))
	JAE(LabelRef(l("last")))
	t.copyLoop(f, J, last, upd, l("loop"))
	Label(l("last"))
	MOVQ(RCX, f.at(p8cxsave))
	restColumns(f.at(p8kcrest), RCX, R11, l("upd"), l("restloop"), func() { t.step(J, last, true, 0) })
	Label(l("upd"))
	MOVQ(f.at(p8cxsave), RCX)
	line()
	t.copyRows(f, updRow)
	CMPQ(f.at(p8kcrest), Imm(0))
	JEQ(LabelRef(l("done")))
	for _, r := range []GPPhysical{RCX, RDI, RBX} {
		ADDQ(U32(64), r)
	}
	lineTail()
	t.copyRows(f, updRowTail)
	Label(l("done"))
	MOVQ(f.at(p8ysave), RDX)
}

// eitherAlpha runs the copying column loop cols with updRow1 when α = 1
// (at the label pfx1) and with updRow otherwise, then jumps to sums.
func eitherAlpha(f *frame, pfx, sums string, cols func(upd rowUpdate, l func(string) string)) {
	CMPQ(f.at(p8alpha1), Imm(0))
	JNE(LabelRef(pfx + "1"))
	cols(updRow, func(s string) string { return pfx + "_" + s })
	JMP(LabelRef(sums))
	Label(pfx + "1")
	cols(updRow1, func(s string) string { return pfx + "1_" + s })
	JMP(LabelRef(sums))
}

// blockVariant writes the column loops of one block of J registers (half:
// the last 4 lanes wide) at label pfx: without the update the loop on A
// (pfx_a), with it the loop on the copy (pfx_p), or, in a tile's first
// block with a next tile, the copying loop with two buffers (pfx+"u", and
// pfx+"u1" for α = 1) or, where the block is the tile's only one and the
// caller asks for onebuf, with one (pfx+"o", pfx+"o1"); then the sums at
// sums (jumped to unless fall is set: they follow). The first block of
// each tile kind is the one that can be a tile's only one.
func (t tileKind) blockVariant(f *frame, J int, last lastReg, pfx, sums string, fall bool) {
	single := J == t.blocks[0]
	CMPQ(arg(Param("update")), Imm(0))
	JEQ(LabelRef(pfx + "_a"))
	CMPQ(f.at(p8copynext), Imm(0))
	JEQ(LabelRef(pfx + "_p"))
	MOVQ(U32(0), f.at(p8copynext))
	if single {
		CMPQ(arg(Param("onebuf")), Imm(0))
		JNE(LabelRef(pfx + "o"))
	}
	eitherAlpha(f, pfx+"u", sums, func(upd rowUpdate, l func(string) string) {
		t.columnsCopy(f, J, last, upd, l)
	})
	if single {
		Label(pfx + "o")
		eitherAlpha(f, pfx+"o", sums, func(upd rowUpdate, l func(string) string) {
			t.columnsCopy1(f, J, last, upd, l)
		})
	}
	Label(pfx + "_p")
	t.columns(f, J, last, true, func(s string) string { return pfx + "p_" + s })
	JMP(LabelRef(sums))
	Label(pfx + "_a")
	t.columns(f, J, last, false, func(s string) string { return pfx + "a_" + s })
	if !fall {
		JMP(LabelRef(sums))
	}
}

// sums adds the block's J groups of 8 lanes to y: per group the vectors
// left (at most 8) taken off kleft, the rows' sums transposed in registers
// (each vector's rows one register) and added to y, 6 rows under the mask
// K2 in the 6-row tiles; a group past the k vectors (pad lanes only) adds
// nothing.
func (t tileKind) sums(f *frame, J int) {
	ADDQ(U32(64*J), f.at(p8xtb))
	for g := 0; g < J; g++ {
		t.sumsGroup(f, J, lastFull, g)
	}
}

// sumsGroup adds group g of a block of J registers to y: its vectors left
// (at most 8) taken off kleft, the rows' sums transposed in registers and
// added to y one vector at a time.
func (t tileKind) sumsGroup(f *frame, J int, last lastReg, g int) {
	done := fmt.Sprintf("%s_s%d_g%d", t.op, J, g)
	if last == lastPair {
		done = fmt.Sprintf("%s_s%dq_g%d", t.op, J, g)
	}
	groupCount(f.at(p8kleft), 8, done)
	r := make([]VecPhysical, t.rows)
	for i := range r {
		r[i] = t.acc(J, last, i, g)
	}
	if t.rows == 8 {
		transpose8(r)
	} else {
		transpose6(r)
	}
	for c := 0; c < 8; c++ {
		t.addColumn(zmm[24+c])
		DECQ(RCX)
		JZ(LabelRef(done))
	}
	Label(done)
}

// addColumn adds z, one vector's sums over the tile's rows, to y at DX (6
// lanes under K2 in the 6-row tiles) and moves DX to the next vector.
func (t tileKind) addColumn(z VecPhysical) {
	if t.rows == 8 {
		VADDPD(Mem{Base: RDX}, z, z)
		VMOVUPD(z, Mem{Base: RDX})
	} else {
		VADDPD(Mem{Base: RDX}, z, K2, z)
		VMOVUPD(z, K2, Mem{Base: RDX})
	}
	ADDQ(R8, RDX)
}

// sumsPair is sums for a block of J registers with lastPair: the J−1 full
// groups as sums adds them, then the pair group's one or two vectors, each
// gathered from the pair accumulators into one register of the tile's rows
// (rows r and r+1 of vector j are lanes 0 and 2 of pair r/2, of vector j+1
// lanes 1 and 3) and added to y as sums adds a group's.
func (t tileKind) sumsPair(f *frame, J int) {
	ADDQ(U32(64*J), f.at(p8xtb))
	for g := 0; g < J-1; g++ {
		t.sumsGroup(f, J, lastPair, g)
	}
	done := fmt.Sprintf("%s_s%dq_pair", t.op, J)
	groupCount(f.at(p8kleft), 8, done)
	pr := func(q int) Register { return t.acc(J, lastPair, 2*q, J-1).AsY() }
	Comment("rows 0-3: (x0, x2, x1, x3) from the unpacks, in order by VPERMPD")
	VUNPCKLPD(pr(1), pr(0), Y24)
	VUNPCKHPD(pr(1), pr(0), Y25)
	VPERMPD(Imm(0xd8), Y24, Y24)
	VPERMPD(Imm(0xd8), Y25, Y25)
	if t.rows == 8 {
		VUNPCKLPD(pr(3), pr(2), Y26)
		VUNPCKHPD(pr(3), pr(2), Y27)
		VPERMPD(Imm(0xd8), Y26, Y26)
		VPERMPD(Imm(0xd8), Y27, Y27)
	} else {
		Comment("rows 4-5: lanes 0 and 2, 1 and 3 of the last pair")
		VPERMPD(Imm(0x08), pr(2), Y26)
		VPERMPD(Imm(0x0d), pr(2), Y27)
	}
	VINSERTF64X4(Imm(1), Y26, Z24, Z24)
	VINSERTF64X4(Imm(1), Y27, Z25, Z25)
	for c := 0; c < 2; c++ {
		t.addColumn(zmm[24+c])
		DECQ(RCX)
		JZ(LabelRef(done))
	}
	Label(done)
}

// panelAVX512 writes panel8AVX512 or panel6AVX512.
func panelAVX512(t tileKind) {
	sig := "func(y, a, xt, ap []float64, n, tiles, kc, kp, k, g3, g2, g1 int, alpha, beta float64, p, v []float64, update, half, onebuf int)"
	if t.rows == 6 {
		sig = "func(y, a, xt, ap []float64, n, tiles, kc, kp, k, g4 int, alpha, beta float64, p, v []float64, update, half, onebuf int)"
	}
	TEXT(t.name, 0, sig)
	l := func(s string) string { return t.op + "_" + s }
	if t.rows == 8 {
		Comment("MulVecs for large n on AVX-512: column panels in broadcast form.",
			"The caller packs one panel of kc columns of the k vectors transposed:",
			"xt[c*kp + j] = x[j*n + c0 + c], kp = k rounded up to 8, the pad lanes",
			"zero. For each tile of 8 rows of A the accumulators hold the 8×kp block",
			"of partial sums Ỹ[i][j] = Σ_c A[i][c]·x_j[c], one row i across 8 vectors",
			"per register: per column c one A element per row is broadcast and",
			"multiplied by the packed row xt[c] (8 vectors a load). A column step is",
			"8 broadcasts and J loads for 8·J FMAs, and no horizontal sums are",
			"needed: the tile's sums are added to y once per panel, transposed in",
			"registers 8×8 at a time so that each vector's 8 rows are one load, add",
			"and store. The vectors run in blocks of J = 3, 2 or 1 registers.",
			"",
			"With the rank-one update (UpdateMulVecs), the broadcasts read the tile's",
			"8×kc block of A from a copy in ap, rows APS bytes apart, not from A: when",
			"a row of A is a multiple of 512 bytes (n a multiple of 64), the 8 rows of",
			"a tile fall into one set of L1 and evict each other while they are in",
			"use; APS = 4160 is an odd number of cache lines, so the copy's rows fall",
			"into 8 sets. The next tile's block is updated, written back to A and",
			"copied inside this tile's first column loop, one cache line of a row",
			"after each column step, so its loads, multiplications and stores run in",
			"the shadow of the FMAs; ap holds the two copies, the current tile's and",
			"the next one's. A tile of a single block (onebuf) keeps one: the next",
			"tile's block is copied a group of 8 columns behind the column steps,",
			"over the lines of this tile's copy that they have read, so its stores hit",
			"L1 instead of fetching the other copy's lines from L2. Without the update",
			"(MulVecs) the broadcasts read A itself: there the copy cost more than it",
			"saved.",
			"",
			"Registers of the column loops: R11 the current column of the tile's first",
			"row in the copy, or in A; SI the tile's first row in A (at the panel's",
			"first column); R8, R9, R10, R13 NBYTES, 3·NBYTES, 5·NBYTES, 7·NBYTES;",
			"R12 the packed row xt[c] of the current block, AX its stride 8·kp; CX",
			"column steps left (in the copying loops the current column of the next",
			"block's copy); DI the same column of the next tile's first row in A",
			"(updated and copied, or prefetched); DX &y[j0*n + i0], the block's first",
			"output (in the copying loops saved in ysave, and DX the tile after the",
			"next one, prefetched); BX the current column of v. Z24-Z28 are the packed",
			"vectors and the broadcasts, Z29 α, Z30 a line of v and Z31 the line",
			"copied.")
	} else {
		Comment("panel8AVX512 for tiles of 6 rows and g4 blocks of 4 registers (32",
			"lanes; kp = 32·g4): per column 6 broadcasts and 4 loads for 24 FMAs, for",
			"the k from 25 to 32 (λ for 1097 ≤ n ≤ 11000) that would leave 8 rows ×",
			"3+1 registers with a weak block of 1; half as in panel8AVX512 (g4 = 1).",
			"The sums go to y through masked (K2) loads and stores of 6 lanes.")
	}
	// The panels check the stack (no NOSPLIT): their frame is larger than
	// the assembler lets a NOSPLIT function take.
	f := newFrame(p8frame)
	Comment("K3 = lanes 2 and 3: the odd row's half of a pair (lastPair)")
	MOVQ(U32(0x0c), RAX)
	KMOVW(EAX, K3)
	if t.rows == 6 {
		Comment("K2 = the 6 rows of a tile's sums")
		MOVQ(U32(0x3f), RAX)
		KMOVW(EAX, K2)
	}
	panelsStart(f, p8slots)
	Comment("R10 = 5·NBYTES, R13 = 7·NBYTES (LEAQ keeps the flags); K1 = the last",
		"kc mod 8 columns")
	LEAQ(Mem{Base: R8, Index: R8, Scale: 4}, R10)
	LEAQ(Mem{Base: R9, Index: R8, Scale: 4}, R13)
	JZ(LabelRef(l("first")))
	loadTailMask()

	Label(l("first"))
	Comment("With the update: the locals of the copies, and the first tile's",
		"block updated and copied in a loop of its own.")
	CMPQ(arg(Param("update")), Imm(0))
	JEQ(LabelRef(l("tile")))
	Load(Param("p").Base(), RAX)
	MOVQ(RAX, f.at(p8ptile))
	Load(Param("ap").Base(), RAX)
	MOVQ(RAX, f.at(p8cur))
	ADDQ(U32(8*aps), RAX)
	MOVQ(RAX, f.at(p8nxt))
	MOVQ(arg(Param("alpha")), RAX)
	MOVQ(RAX, f.at(p8alpha))
	Comment("alpha1 = 1 if α is 1.0, else 0 (α loaded again, as the hand-written",
		"kernel did)")
	alphaIsOne(f.at(p8alpha1))
	MOVQ(arg(Param("beta")), RAX)
	MOVQ(RAX, f.at(p8beta))
	Load(Param("v").Base(), RAX)
	MOVQ(RAX, f.at(p8v))
	t.bp(f)
	t.updateBlock(f)

	Label(l("tile"))
	Comment("copynext: with the update, this tile's first block updates and copies",
		"the next tile's block (endp ends its column loop).")
	MOVQ(U32(0), f.at(p8copynext))
	CMPQ(arg(Param("update")), Imm(0))
	JEQ(LabelRef(l("blocks")))
	MOVQ(f.at(p8kc8), RAX)
	SHLQ(Imm(6), RAX)
	ADDQ(f.at(p8cur), RAX)
	MOVQ(RAX, f.at(p8endp))
	CMPQ(f.at(p8tilesleft), Imm(1))
	JLE(LabelRef(l("blocks")))
	MOVQ(U32(1), f.at(p8copynext))
	t.bp(f)

	Label(l("blocks"))
	if t.rows == 8 {
		blocksStart(f, p8slots)
		Label(l("block"))
		nextBlock(f, p8slots, l("block3"), l("block2"), l("block1"), l("tile_next"))
		for _, b := range []struct{ J, left int }{{3, p8left3}, {2, p8left2}, {1, p8left1}} {
			Label(fmt.Sprintf("%s_block%d", t.op, b.J))
			DECQ(f.at(b.left))
			JMP(LabelRef(fmt.Sprintf("%s_b%d", t.op, b.J)))
		}
	} else {
		argsToFrame(f, []argSlot{{"g4", p8left3}, {"xt", p8xtb}, {"k", p8kleft}})
		MOVQ(f.at(p8ytile), RDX)
		Label(l("block"))
		CMPQ(f.at(p8left3), Imm(0))
		JEQ(LabelRef(l("tile_next")))
		DECQ(f.at(p8left3))
	}

	for _, J := range t.blocks {
		pfx := fmt.Sprintf("%s_b%d", t.op, J)
		sums := pfx + "_sums"
		Label(pfx)
		for i := 0; i < J*t.rows; i++ {
			VPXORQ(zmm[i], zmm[i], zmm[i])
		}
		if J == t.blocks[0] {
			CMPQ(arg(Param("half")), Imm(0))
			JNE(LabelRef(pfx + "h"))
			t.blockVariant(f, J, lastFull, pfx, sums, false)
			Label(pfx + "h")
			CMPQ(arg(Param("half")), Imm(uint64(lastPair)))
			JEQ(LabelRef(pfx + "q"))
			t.blockVariant(f, J, lastHalf, pfx+"h", sums, false)
			Label(pfx + "q")
			t.blockVariant(f, J, lastPair, pfx+"q", pfx+"q_sums", true)
			Label(pfx + "q_sums")
			t.sumsPair(f, J)
			JMP(LabelRef(l("block")))
		} else {
			t.blockVariant(f, J, lastFull, pfx, sums, true)
		}
		Label(sums)
		t.sums(f, J)
		JMP(LabelRef(l("block")))
	}

	Label(l("tile_next"))
	Comment(fmt.Sprintf("next tile: A %d rows down, y %d elements on, the copies swapped (one", t.rows, t.rows),
		"copy with onebuf)")
	if t.rows == 8 {
		LEAQ(Mem{Base: RSI, Index: R8, Scale: 8}, RSI)
	} else {
		LEAQ(Mem{Base: RSI, Index: R9, Scale: 2}, RSI)
	}
	ADDQ(U32(8*t.rows), f.at(p8ytile))
	CMPQ(arg(Param("onebuf")), Imm(0))
	JNE(LabelRef(l("tile_count")))
	MOVQ(f.at(p8cur), RAX)
	MOVQ(f.at(p8nxt), RBX)
	MOVQ(RBX, f.at(p8cur))
	MOVQ(RAX, f.at(p8nxt))
	Label(l("tile_count"))
	DECQ(f.at(p8tilesleft))
	JNZ(LabelRef(l("tile")))
	VZEROUPPER()
	RET()
}

// The frame slots of packPanelAVX512 (152 bytes), by offset below its top:
// the row masks of a full group (mfull, 64 bytes) and of the last one
// (mlast, the 64 bytes below; rows past k zero), the count of full groups,
// the vectors of the last group and the groups left in the tail.
const (
	pkmfull  = 64
	pkmlast  = 128
	pkgroups = 136
	pkvlast  = 144
	pkgleft  = 152
)

// packMasks writes the row masks for the column mask in AX: mfull[l] = AX,
// mlast[l] = AX for the vlast vectors of the last group and 0 past them
// (BX, DX and R12 scratch).
func packMasks(f *frame) {
	MOVQ(f.at(pkvlast), RBX)
	LEAQ(f.block(pkmfull, 64), RDX)
	for r := 0; r < 8; r++ {
		MOVQ(RAX, Mem{Base: RDX, Disp: 8 * r})
		XORQ(R12, R12)
		CMPQ(RBX, Imm(uint64(r+1)))
		CMOVQGE(RAX, R12)
		MOVQ(R12, Mem{Base: RDX, Disp: 8*r - 64})
	}
}

// packGroup loads the 8 vectors' rows of the block at BX under the masks at
// mt and transposes them: Z24-Z31 are its 8 columns.
func packGroup(mt Mem) {
	LEAQ(mt, RAX)
	r := make([]VecPhysical, 8)
	for i := range r {
		KMOVW(Mem{Base: RAX, Disp: 8 * i}, K1)
		VMOVUPD_Z(rowA(i, 0, RBX), K1, zmm[i])
		r[i] = zmm[i]
	}
	transpose8(r)
}

// packStore stores the first count columns of Z24-Z31 (all 8, or the CX
// columns 1-7 of the tail, jumping to done after the last) to the rows of
// xt at DX, R11 bytes apart.
func packStore(all bool, done string) {
	MOVQ(RDX, RAX)
	if all {
		for c := 0; c < 8; c++ {
			if c > 0 {
				ADDQ(R11, RAX)
			}
			VMOVUPD(zmm[24+c], Mem{Base: RAX})
		}
		return
	}
	MOVQ(RCX, R12)
	for c := 0; c < 7; c++ {
		VMOVUPD(zmm[24+c], Mem{Base: RAX})
		ADDQ(R11, RAX)
		DECQ(R12)
		JZ(LabelRef(done))
	}
	Label(done)
}

// packPanelAVX512 writes packPanelAVX512: xt[c*kp + j] = x[j*n + c] for j <
// k, else 0, for c < kc, from x at the panel's first column.
func packPanelAVX512() {
	TEXT("packPanelAVX512", NOSPLIT, "func(xt, x []float64, n, kc, kp, k int)")
	Comment("Blocks of 8 vectors × 8 columns are loaded a row (one vector's 8",
		"columns) at a time and transposed in registers (Z24-Z31 are the",
		"columns), under masks that read nothing past the k vectors or the kc",
		"columns, instead of a gather a column, which is slow. Registers: SI x at",
		"the current column block, DI xt at its first row, BX the group of 8",
		"vectors, DX its place in xt, R11 the stride of xt (8·kp bytes), CX the",
		"columns left; R8, R9, R10, R13 NBYTES multiples (rows).")
	f := newFrame(152)
	Load(Param("xt").Base(), RDI)
	Load(Param("x").Base(), RSI)
	Load(Param("n"), R8)
	SHLQ(Imm(3), R8)
	LEAQ(Mem{Base: R8, Index: R8, Scale: 2}, R9)
	LEAQ(Mem{Base: R8, Index: R8, Scale: 4}, R10)
	LEAQ(Mem{Base: R9, Index: R8, Scale: 4}, R13)
	Load(Param("kp"), R11)
	Comment("the full groups: kp/8 − 1; the vectors of the last group, 1-8")
	MOVQ(R11, RAX)
	SHRQ(Imm(3), RAX)
	DECQ(RAX)
	MOVQ(RAX, f.at(pkgroups))
	Load(Param("k"), RAX)
	SUBQ(R11, RAX)
	ADDQ(Imm(8), RAX)
	MOVQ(RAX, f.at(pkvlast))
	SHLQ(Imm(3), R11)
	Load(Param("kc"), RCX)
	MOVQ(U32(0xff), RAX)
	packMasks(f)
	CMPQ(RCX, Imm(8))
	JLT(LabelRef("pack_tail"))

	Label("pack_block")
	MOVQ(RSI, RBX)
	MOVQ(RDI, RDX)
	MOVQ(f.at(pkgroups), R12)
	TESTQ(R12, R12)
	JZ(LabelRef("pack_last"))
	Label("pack_full")
	packGroup(f.block(pkmfull, 64))
	packStore(true, "")
	ADDQ(U32(64), RDX)
	LEAQ(Mem{Base: RBX, Index: R8, Scale: 8}, RBX)
	DECQ(R12)
	JNZ(LabelRef("pack_full"))
	Label("pack_last")
	packGroup(f.block(pkmlast, 64))
	packStore(true, "")
	ADDQ(U32(64), RSI)
	LEAQ(Mem{Base: RDI, Index: R11, Scale: 8}, RDI)
	SUBQ(Imm(8), RCX)
	CMPQ(RCX, Imm(8))
	JGE(LabelRef("pack_block"))

	Label("pack_tail")
	Comment("The last kc mod 8 columns: every row under the column mask.")
	TESTQ(RCX, RCX)
	JZ(LabelRef("pack_done"))
	lowLanes()
	packMasks(f)
	MOVQ(RSI, RBX)
	MOVQ(RDI, RDX)
	MOVQ(f.at(pkgroups), RAX)
	MOVQ(RAX, f.at(pkgleft))
	TESTQ(RAX, RAX)
	JZ(LabelRef("pack_tail_last"))
	Label("pack_tail_full")
	packGroup(f.block(pkmfull, 64))
	packStore(false, "pack_tail_full_stored")
	ADDQ(U32(64), RDX)
	LEAQ(Mem{Base: RBX, Index: R8, Scale: 8}, RBX)
	DECQ(f.at(pkgleft))
	JNZ(LabelRef("pack_tail_full"))
	Label("pack_tail_last")
	packGroup(f.block(pkmlast, 64))
	packStore(false, "pack_tail_last_stored")

	Label("pack_done")
	VZEROUPPER()
	RET()
}
