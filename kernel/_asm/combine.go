package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The pieces every combineRows kernel (lowrank512.go, lowrank2.go) shares.
// Registers: R8 the row stride in bytes, R9 cols in bytes, R11 kp, AX the
// current column in bytes, BX the rows' base, CX the term's p, DI the
// coefficients, R10 the terms left; with the walk of the next block's
// panel R12 its line and R13 the bytes left in its row's segment.

// combineStart loads cols, stride and kp (and, for a kernel that streams:
// takes the walk of the next block's panel, pfp and pfleft) and clears AX.
func combineStart(stream bool) {
	Load(Param("cols"), R9)
	Load(Param("stride"), R8)
	Load(Param("kp"), R11)
	SHLQ(Imm(3), R8)
	SHLQ(Imm(3), R9)
	if stream {
		Load(Param("pfp"), R12)
		Load(Param("pfleft"), R13)
	}
	XORQ(RAX, RAX)
}

// combineFrom points BX at z when first is set, else at x, and goes on at
// the label init.
func combineFrom(init string) {
	Load(Param("z"), RBX)
	CMPB(arg(Param("first")), Imm(0))
	JNE(LabelRef(init))
	Load(Param("x"), RBX)
	Label(init)
}

// combineTerms points CX at the term's p at the current columns, DI at the
// coefficients and R10 at the terms left (kp), and jumps to fin when there
// are none.
func combineTerms(fin string) {
	Load(Param("p"), RCX)
	ADDQ(RAX, RCX)
	Load(Param("c"), RDI)
	MOVQ(R11, R10)
	TESTQ(R10, R10)
	JZ(LabelRef(fin))
}

// combineWalk asks L2 for the walk's line at R12 and moves R12 a line on;
// at the end of the row's segment (R13, the bytes left in it, down to 0)
// R12 moves to the start of the next row's segment, stride on from this
// one's, and R13 to its length pfw. It goes on at the label next.
func combineWalk(next string) {
	Comment("a line of the walk; at the end of the row's segment, the start of",
		"the next row's (stride on), pfw bytes long")
	PREFETCHT1(Mem{Base: R12})
	ADDQ(U32(64), R12)
	SUBQ(U32(64), R13)
	JNZ(LabelRef(next))
	ADDQ(R8, R12)
	Load(Param("pfw"), R13)
	SUBQ(R13, R12)
	Label(next)
}

// combineEnd writes the return at the label done.
func combineEnd(done string) {
	Label(done)
	VZEROUPPER()
	RET()
}

// combineEndStream is combineEnd for a kernel that may store x with
// non-temporal stores (nt): after them an SFENCE orders them before what
// follows (another goroutine may read x next); ret labels the return.
func combineEndStream(done, ret string) {
	Label(done)
	CMPB(arg(Param("nt")), Imm(0))
	JE(LabelRef(ret))
	SFENCE()
	combineEnd(ret)
}
