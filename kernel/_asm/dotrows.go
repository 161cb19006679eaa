package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// dotRows writes the limited memory's 4-row dot-product tiles on both
// paths (dotrows4_amd64.s): dotRows4x3 and dotRows4x1.
func dotRows() {
	for _, v := range []isa{avx512, avx2} {
		dotRows4x3(v)
	}
	for _, v := range []isa{avx512, avx2} {
		dotRows4x1(v)
	}
}

// dotRowsLabel is the label s of the tile dr<shape> on path v (a z for
// AVX-512).
func dotRowsLabel(v isa, shape, s string) string {
	if v.lanes == 8 {
		return "dr" + shape + "z_" + s
	}
	return "dr" + shape + "_" + s
}

// dotRowsStart loads a (SI), b (BX), cols·8 (CX) and stride·8 (R8) and
// points R9-R11 at rows 1-3 of a.
func dotRowsStart() {
	Load(Param("a"), RSI)
	Load(Param("b"), RBX)
	Load(Param("cols"), RCX)
	Load(Param("stride"), R8)
	SHLQ(Imm(3), R8)
	SHLQ(Imm(3), RCX)
	LEAQ(Mem{Base: RSI, Index: R8, Scale: 1}, R9)
	LEAQ(Mem{Base: RSI, Index: R8, Scale: 2}, R10)
	LEAQ(Mem{Base: R10, Index: R8, Scale: 1}, R11)
}

// aRows are the rows of a: SI, R9, R10 and R11.
var aRows = []GPPhysical{RSI, R9, R10, R11}

// col returns the address of the current columns (AX bytes on) of the
// row at base.
func col(base GPPhysical) Mem { return Mem{Base: base, Index: RAX, Scale: 1} }

// foldHalves adds the high 256 bits of each zmm accumulator to its low
// half (lane l gets lanes l and l+4), through Y12.
func foldHalves(acc []int) {
	for _, i := range acc {
		VEXTRACTF64X4(Imm(1), zmm[i], Y12)
		VADDPD(Y12, ymm[i], ymm[i])
	}
}

// dotRows4x3 writes dotRows4x3<ISA>(dst, a, b, cols, stride, ldd, pfa,
// pfb): dst[j*ldd+i] += a_i·b_j for i < 4, j < 3, over cols columns (a
// multiple of the lanes), one accumulator a pair (row i, vector j in
// register 3i+j), lane l summing the columns ≡ l mod lanes; on AVX-512
// lanes l and l+4 are added first; then the horizontal sum (l0+l1)+(l2+l3)
// is added to dst. With pfa or pfb ≠ 0, the column steps ask L2 for the
// cache line pfa bytes on in each row of a and pfb bytes on in each row
// of b (the next block's; a 0 names the line being read): every step on
// AVX-512, the steps that start a line (every other one) on AVX2.
func dotRows4x3(v isa) {
	l := func(s string) string { return dotRowsLabel(v, "43", s) }
	TEXT(v.fn("dotRows4x3"), NOSPLIT, "func(dst, a, b *float64, cols, stride, ldd, pfa, pfb int)")
	dotRowsStart()
	LEAQ(Mem{Base: RBX, Index: R8, Scale: 1}, R12)
	LEAQ(Mem{Base: RBX, Index: R8, Scale: 2}, R13)
	for i := 0; i < 12; i++ {
		v.zero(v.r(i))
	}
	XORQ(RAX, RAX)
	TESTQ(RCX, RCX)
	JZ(LabelRef(l("reduce")))

	Load(Param("pfa"), RDI)
	MOVQ(RDI, RDX)
	ORQ(arg(Param("pfb")), RDX)
	JNZ(LabelRef(l("pf")))

	// step is one column step: a register of columns of the 3 rows of b
	// and of the 4 of a, 12 FMAs.
	bRegs := []VecPhysical{Y12, Y13, Y14}
	if v.lanes == 8 {
		bRegs = []VecPhysical{Z16, Z17, Z18}
	}
	step := func() {
		for j, base := range []GPPhysical{RBX, R12, R13} {
			VMOVUPD(col(base), bRegs[j])
		}
		for i, base := range aRows {
			ar := Y15
			if v.lanes == 8 {
				ar = zmm[19+i]
			}
			VMOVUPD(col(base), ar)
			for j, b := range bRegs {
				VFMADD231PD(b, ar, v.r(3*i+j))
			}
		}
		ADDQ(U32(v.bytes()), RAX)
	}

	Label(l("loop"))
	step()
	CMPQ(RAX, RCX)
	JLT(LabelRef(l("loop")))
	JMP(LabelRef(l("reduce")))

	Label(l("pf"))
	if v.lanes == 4 {
		TESTQ(U32(63), RAX)
		JNZ(LabelRef(l("pf_step")))
	}
	LEAQ(Mem{Base: RAX, Index: RDI, Scale: 1}, RDX)
	for _, base := range aRows {
		PREFETCHT1(Mem{Base: base, Index: RDX, Scale: 1})
	}
	MOVQ(RAX, RDX)
	ADDQ(arg(Param("pfb")), RDX)
	for _, base := range []GPPhysical{RBX, R12, R13} {
		PREFETCHT1(Mem{Base: base, Index: RDX, Scale: 1})
	}
	if v.lanes == 4 {
		Label(l("pf_step"))
	}
	step()
	CMPQ(RAX, RCX)
	JLT(LabelRef(l("pf")))

	Label(l("reduce"))
	if v.lanes == 8 {
		foldHalves([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})
	}
	Load(Param("dst"), RDI)
	Load(Param("ldd"), RDX)
	SHLQ(Imm(3), RDX)
	hsum4Add(Y0, Y3, Y6, Y9, Mem{Base: RDI})
	hsum4Add(Y1, Y4, Y7, Y10, Mem{Base: RDI, Index: RDX, Scale: 1})
	hsum4Add(Y2, Y5, Y8, Y11, Mem{Base: RDI, Index: RDX, Scale: 2})
	VZEROUPPER()
	RET()
}

// dotRows4x1 writes dotRows4x1<ISA>(dst, a, b, cols, stride): dst[i] +=
// a_i·b for i < 4, over cols columns, as dotRows4x3 does.
func dotRows4x1(v isa) {
	l := func(s string) string { return dotRowsLabel(v, "41", s) }
	TEXT(v.fn("dotRows4x1"), NOSPLIT, "func(dst, a, b *float64, cols, stride int)")
	dotRowsStart()
	for i := 0; i < 4; i++ {
		v.zero(v.r(i))
	}
	XORQ(RAX, RAX)
	TESTQ(RCX, RCX)
	JZ(LabelRef(l("reduce")))

	b := Y12
	if v.lanes == 8 {
		b = Z16
	}
	Label(l("loop"))
	VMOVUPD(col(RBX), b)
	for i, base := range aRows {
		VFMADD231PD(col(base), b, v.r(i))
	}
	ADDQ(U32(v.bytes()), RAX)
	CMPQ(RAX, RCX)
	JLT(LabelRef(l("loop")))

	Label(l("reduce"))
	if v.lanes == 8 {
		foldHalves([]int{0, 1, 2, 3})
	}
	Load(Param("dst"), RDI)
	hsum4Add(Y0, Y1, Y2, Y3, Mem{Base: RDI})
	VZEROUPPER()
	RET()
}
