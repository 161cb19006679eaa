package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// vectors writes the vector kernels of kernel_amd64.go on both paths
// (vectors_amd64.s): dot, axpby, rotatePair, scale and weightedSum.
func vectors() {
	tailMaskData()
	for _, v := range []isa{avx512, avx2} {
		dot(v)
	}
	for _, v := range []isa{avx512, avx2} {
		axpby(v)
	}
	for _, v := range []isa{avx512, avx2} {
		rotatePair(v)
	}
	for _, v := range []isa{avx512, avx2} {
		scale(v)
	}
	for _, v := range []isa{avx512, avx2} {
		weightedSum(v)
	}
}

// dot writes dot<ISA>(x, y []float64) float64: four accumulators over
// blocks of four registers, then blocks of one register into the first,
// then the masked tail into the second, summed in that order.
func dot(v isa) {
	const op = "dot"
	TEXT(v.fn(op), NOSPLIT, "func(x, y []float64) float64")
	if v.lanes == 8 {
		Comment("Four accumulators over 32-element blocks, then 8-element blocks into Z0,",
			"then the masked tail.")
	}
	Load(Param("x").Base(), RSI)
	Load(Param("x").Len(), RCX)
	Load(Param("y").Base(), RDI)
	for i := 0; i < 4; i++ {
		v.zero(v.r(i))
	}

	MOVQ(RCX, RBX)
	SHRQ(Imm(log2(4*v.lanes)), RBX)
	JZ(LabelRef(v.l(op, v.lanesTag)))

	Label(v.l(op, "loop"))
	for i := 0; i < 4; i++ {
		VMOVUPD(at(RSI, i*v.bytes()), v.r(4+i))
	}
	for i := 0; i < 4; i++ {
		VFMADD231PD(at(RDI, i*v.bytes()), v.r(4+i), v.r(i))
	}
	ADDQ(U32(4*v.bytes()), RSI)
	ADDQ(U32(4*v.bytes()), RDI)
	DECQ(RBX)
	JNZ(LabelRef(v.l(op, "loop")))

	Label(v.l(op, v.lanesTag))
	Comment(fmt.Sprintf("whole %d-element blocks left", v.lanes))
	MOVQ(RCX, RBX)
	ANDQ(Imm(uint64(4*v.lanes-1)), RBX)
	SHRQ(Imm(log2(v.lanes)), RBX)
	JZ(LabelRef(v.l(op, "tail")))

	Label(v.l(op, v.lanesTag+"_loop"))
	VMOVUPD(Mem{Base: RSI}, v.r(4))
	VFMADD231PD(Mem{Base: RDI}, v.r(4), v.r(0))
	ADDQ(U32(v.bytes()), RSI)
	ADDQ(U32(v.bytes()), RDI)
	DECQ(RBX)
	JNZ(LabelRef(v.l(op, v.lanesTag+"_loop")))

	v.tail(op, "reduce", Y6)
	v.load(Mem{Base: RSI}, Y6, v.r(4))
	v.load(Mem{Base: RDI}, Y6, v.r(5))
	VFMADD231PD(v.r(5), v.r(4), v.r(1))

	Label(v.l(op, "reduce"))
	VADDPD(v.r(1), v.r(0), v.r(0))
	VADDPD(v.r(3), v.r(2), v.r(2))
	VADDPD(v.r(2), v.r(0), v.r(0))
	if v.lanes == 8 {
		VEXTRACTF64X4(Imm(1), Z0, Y1)
		VADDPD(Y1, Y0, Y0)
	}
	VEXTRACTF128(Imm(1), Y0, X1)
	VADDPD(X1, X0, X0)
	VPERMILPD(Imm(1), X0, X1)
	VADDSD(X1, X0, X0)
	VMOVSD(X0, arg(ReturnIndex(0)))
	VZEROUPPER()
	RET()
}

// axpby writes axpby<ISA>(dst, alpha, x, beta, y): dst = fma(α, x, β·y),
// two registers a step, then one, then the masked tail. dst may be x or y
// itself: each block is read before it is written.
func axpby(v isa) {
	const op = "axpby"
	TEXT(v.fn(op), NOSPLIT, "func(dst []float64, alpha float64, x []float64, beta float64, y []float64)")
	if v.lanes == 8 {
		Comment("dst = fma(α, x, β·y), 16 elements per iteration, then 8, then the masked",
			"tail. dst may be x or y itself: each block is read before it is written.")
	}
	alpha, beta := Z30, Z31
	if v.lanes == 4 {
		alpha, beta = Y14, Y15
	}
	Load(Param("dst").Base(), RDI)
	VBROADCASTSD(arg(Param("alpha")), alpha)
	Load(Param("x").Base(), RSI)
	Load(Param("x").Len(), RCX)
	VBROADCASTSD(arg(Param("beta")), beta)
	Load(Param("y").Base(), RDX)

	v.stream(op, "loop", RCX, []GPPhysical{RSI, RDX, RDI}, func(k int) {
		for i := 0; i < k; i++ {
			VMULPD(at(RDX, i*v.bytes()), beta, v.r(i))
		}
		for i := 0; i < k; i++ {
			VFMADD231PD(at(RSI, i*v.bytes()), alpha, v.r(i))
		}
		for i := 0; i < k; i++ {
			VMOVUPD(v.r(i), at(RDI, i*v.bytes()))
		}
	})

	v.tail(op, "done", Y2)
	v.load(Mem{Base: RDX}, Y2, v.r(0))
	v.load(Mem{Base: RSI}, Y2, v.r(1))
	VMULPD(beta, v.r(0), v.r(0))
	VFMADD231PD(v.r(1), alpha, v.r(0))
	v.store(v.r(0), Y2, Mem{Base: RDI})

	Label(v.l(op, "done"))
	VZEROUPPER()
	RET()
}

// rotatePair writes rotatePair<ISA>(x, y, c, s, r, mt): axpby(y, s, x, c,
// y) and then axpby(x, mt, y, r, x) in one pass, with the operands in the
// order of axpby's blocks and tail, so the same bits.
func rotatePair(v isa) {
	const op = "rot"
	TEXT(v.fn("rotatePair"), NOSPLIT, "func(x, y []float64, c, s, r, mt float64)")
	if v.lanes == 8 {
		Comment("axpbyAVX512(y, s, x, c, y) and then axpbyAVX512(x, mt, y, r, x), in one",
			"pass: per block y' = fma(s, x, c·y), x' = fma(mt, y', r·x), with the",
			"operands in the order of axpbyAVX512's blocks and tail, so the same bits.",
			"len(y) = len(x) ≥ 1.")
	} else {
		Comment("rotatePairAVX512 with the blocks and tail of axpbyAVX2: the bits of",
			"axpbyAVX2(y, s, x, c, y) and then axpbyAVX2(x, mt, y, r, x).")
	}
	first := 28
	if v.lanes == 4 {
		first = 12
	}
	c, s, r, mt := v.r(first), v.r(first+1), v.r(first+2), v.r(first+3)
	Load(Param("x").Base(), RSI)
	Load(Param("x").Len(), RCX)
	Load(Param("y").Base(), RDX)
	VBROADCASTSD(arg(Param("c")), c)
	VBROADCASTSD(arg(Param("s")), s)
	VBROADCASTSD(arg(Param("r")), r)
	VBROADCASTSD(arg(Param("mt")), mt)

	MOVQ(RCX, RBX)
	SHRQ(Imm(log2(v.lanes)), RBX)
	JZ(LabelRef(v.l(op, "tail")))

	Label(v.l(op, "loop"))
	Comment("y' = s·x + c·y, x' = mt·y' + r·x")
	VMULPD(Mem{Base: RDX}, c, v.r(0))
	VFMADD231PD(Mem{Base: RSI}, s, v.r(0))
	VMULPD(Mem{Base: RSI}, r, v.r(1))
	VFMADD231PD(v.r(0), mt, v.r(1))
	VMOVUPD(v.r(0), Mem{Base: RDX})
	VMOVUPD(v.r(1), Mem{Base: RSI})
	ADDQ(U32(v.bytes()), RSI)
	ADDQ(U32(v.bytes()), RDX)
	DECQ(RBX)
	JNZ(LabelRef(v.l(op, "loop")))

	v.tail(op, "done", Y2)
	v.load(Mem{Base: RDX}, Y2, v.r(0))
	v.load(Mem{Base: RSI}, Y2, v.r(1))
	VMULPD(c, v.r(0), v.r(0))
	VFMADD231PD(v.r(1), s, v.r(0))
	VMULPD(r, v.r(1), v.r(1))
	VFMADD231PD(v.r(0), mt, v.r(1))
	v.store(v.r(0), Y2, Mem{Base: RDX})
	v.store(v.r(1), Y2, Mem{Base: RSI})

	Label(v.l(op, "done"))
	VZEROUPPER()
	RET()
}

// scale writes scale<ISA>(alpha, x): x = α·x, two registers a step, then
// one, then the masked tail.
func scale(v isa) {
	const op = "scale"
	TEXT(v.fn(op), NOSPLIT, "func(alpha float64, x []float64)")
	var alpha VecPhysical = Z30
	if v.lanes == 4 {
		alpha = Y14
	}
	VBROADCASTSD(arg(Param("alpha")), alpha)
	Load(Param("x").Base(), RSI)
	Load(Param("x").Len(), RCX)

	v.stream(op, "loop", RCX, []GPPhysical{RSI}, func(k int) {
		for i := 0; i < k; i++ {
			VMULPD(at(RSI, i*v.bytes()), alpha, v.r(i))
		}
		for i := 0; i < k; i++ {
			VMOVUPD(v.r(i), at(RSI, i*v.bytes()))
		}
	})

	v.tail(op, "done", Y2)
	v.load(Mem{Base: RSI}, Y2, v.r(0))
	VMULPD(alpha, v.r(0), v.r(0))
	v.store(v.r(0), Y2, Mem{Base: RSI})

	Label(v.l(op, "done"))
	VZEROUPPER()
	RET()
}

// weightedSum writes weightedSum<ISA>(dst, w, x, n, rows): dst[j] =
// fma(w[m−1], x[rows[m−1]*n+j], … fma(w[0], x[rows[0]*n+j], 0)) for j <
// len(dst), m = len(w) ≥ 0, len(dst) ≥ 1: the chain of axpby calls of the
// generic path with the column loop outside the row loop, four registers
// of columns at a time, then one, then the masked tail.
func weightedSum(v isa) {
	const op = "ws"
	TEXT(v.fn("weightedSum"), NOSPLIT, "func(dst, w, x []float64, n int, rows []int)")
	Load(Param("dst").Base(), RDI)
	Load(Param("dst").Len(), RCX)
	Load(Param("w").Base(), RSI)
	Load(Param("w").Len(), R9)
	Load(Param("x").Base(), R11)
	Load(Param("n"), R8)
	SHLQ(Imm(3), R8)
	Load(Param("rows").Base(), R10)

	// row sets AX to the address of row rows[DX] of x at the current block
	// and the register w to w[DX] broadcast.
	w := v.r(8)
	row := func() {
		MOVQ(Mem{Base: R10, Index: RDX, Scale: 8}, RAX)
		IMULQ(R8, RAX)
		ADDQ(R11, RAX)
		VBROADCASTSD(Mem{Base: RSI, Index: RDX, Scale: 8}, w)
	}
	// rowsLoop runs body for each row DX < R9, after the accumulators are
	// zeroed, and then jumps to store (also when there are no rows).
	rowsLoop := func(name, store string, accs int, body func()) {
		for i := 0; i < accs; i++ {
			v.zero(v.r(i))
		}
		XORQ(RDX, RDX)
		TESTQ(R9, R9)
		JZ(LabelRef(v.l(op, store)))
		Label(v.l(op, name))
		row()
		body()
		INCQ(RDX)
		CMPQ(RDX, R9)
		JNE(LabelRef(v.l(op, name)))
	}
	wide := fmt.Sprint(4 * v.lanes)
	one := fmt.Sprint(v.lanes)

	MOVQ(RCX, RBX)
	SHRQ(Imm(log2(4*v.lanes)), RBX)
	JZ(LabelRef(v.l(op, v.lanesTag+"s")))

	Label(v.l(op, "block"+wide))
	rowsLoop("rows"+wide, "store"+wide, 4, func() {
		for i := 0; i < 4; i++ {
			VFMADD231PD(at(RAX, i*v.bytes()), w, v.r(i))
		}
	})
	Label(v.l(op, "store"+wide))
	for i := 0; i < 4; i++ {
		VMOVUPD(v.r(i), at(RDI, i*v.bytes()))
	}
	ADDQ(U32(4*v.bytes()), RDI)
	ADDQ(U32(4*v.bytes()), R11)
	DECQ(RBX)
	JNZ(LabelRef(v.l(op, "block"+wide)))

	Label(v.l(op, v.lanesTag+"s"))
	MOVQ(RCX, RBX)
	SHRQ(Imm(log2(v.lanes)), RBX)
	ANDQ(Imm(3), RBX)
	JZ(LabelRef(v.l(op, "tail")))

	Label(v.l(op, "block"+one))
	rowsLoop("rows"+one, "store"+one, 1, func() {
		VFMADD231PD(Mem{Base: RAX}, w, v.r(0))
	})
	Label(v.l(op, "store"+one))
	VMOVUPD(v.r(0), Mem{Base: RDI})
	ADDQ(U32(v.bytes()), RDI)
	ADDQ(U32(v.bytes()), R11)
	DECQ(RBX)
	JNZ(LabelRef(v.l(op, "block"+one)))

	v.tail(op, "done", Y2)
	rowsLoop("rowstail", "storetail", 1, func() {
		v.load(Mem{Base: RAX}, Y2, v.r(1))
		VFMADD231PD(v.r(1), w, v.r(0))
	})
	Label(v.l(op, "storetail"))
	v.store(v.r(0), Y2, Mem{Base: RDI})

	Label(v.l(op, "done"))
	VZEROUPPER()
	RET()
}
