package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// outer writes the rank-one update scaleAddOuter, the FMA peak's loop
// fmaPeak and the rank-k updates scaleAddRankK and scaleAddRankK4 on both
// paths (outer_amd64.s).
func outer() {
	tailMaskData()
	for _, v := range []isa{avx512, avx2} {
		scaleAddOuter(v)
	}
	for _, v := range []isa{avx512, avx2} {
		fmaPeak(v)
	}
	rankK()
}

// scaleAddOuter writes scaleAddOuter<ISA>(a, n, rows, alpha, beta, p, v):
// for each row i, s = β·p[i], then a[i*n+j] = fma(s, v[j], α·a[i*n+j]),
// two registers a step, then one; the rows' masked tails in a second pass.
func scaleAddOuter(v isa) {
	const op = "sao"
	TEXT(v.fn("scaleAddOuter"), NOSPLIT, "func(a []float64, n, rows int, alpha, beta float64, p, v []float64)")
	alpha, beta, s, mask := Z30, X29, Z31, Y12 // mask: AVX2's (AVX-512's is K1)
	if v.lanes == 4 {
		alpha, beta, s = Y14, X13, Y15
	} else {
		Comment("For each row i: s = β·p[i], then a[i*n+j] = fma(s, v[j], α·a[i*n+j]),",
			"16 columns per iteration, then 8, then the masked tail (K1, set once).")
	}
	Load(Param("a").Base(), RDI)
	Load(Param("n"), RCX)
	Load(Param("rows"), RDX)
	VBROADCASTSD(arg(Param("alpha")), alpha)
	VMOVSD(arg(Param("beta")), beta)
	Load(Param("p").Base(), R11)
	Load(Param("v").Base(), R12)

	Comment("CX = n mod lanes: the tail, masked")
	MOVQ(RCX, R10)
	ANDQ(Imm(uint64(v.lanes-1)), RCX)
	if v.lanes == 8 {
		JZ(LabelRef(v.l(op, "rows")))
		loadTailMask()
	} else {
		MOVQ(RCX, R9)
		JZ(LabelRef(v.l(op, "rows")))
		v.tailMaskOf(R9, mask)
	}

	Label(v.l(op, "rows"))
	Comment("s = β·p[i]; SI walks v")
	VMULSD(Mem{Base: R11}, beta, X0)
	VBROADCASTSD(X0, s)
	MOVQ(R12, RSI)
	v.stream(op, "cols", R10, []GPPhysical{RSI, RDI}, func(k int) {
		for i := 0; i < k; i++ {
			VMULPD(at(RDI, i*v.bytes()), alpha, v.r(i))
		}
		for i := 0; i < k; i++ {
			VFMADD231PD(at(RSI, i*v.bytes()), s, v.r(i))
		}
		for i := 0; i < k; i++ {
			VMOVUPD(v.r(i), at(RDI, i*v.bytes()))
		}
	})

	Label(v.l(op, "tail"))
	Comment("the next row; its tail waits for the second pass")
	LEAQ(Mem{Base: RDI, Index: RCX, Scale: 8}, RDI)
	ADDQ(Imm(8), R11)
	DECQ(RDX)
	JNZ(LabelRef(v.l(op, "rows")))

	Comment("The rows' tails, in a second pass: a masked store spans the next",
		"row's first elements (masked off), and a load of them right after it",
		"waited for the store to complete (docs/performance.md, \"Zen 5,",
		"seventh visit\"). v's tail is the same for every row.")
	TESTQ(RCX, RCX)
	JZ(LabelRef(v.l(op, "done")))
	Load(Param("rows"), RDX)
	Load(Param("p").Base(), R11)
	MOVQ(R10, RAX)
	SUBQ(RCX, RAX)
	Load(Param("a").Base(), RDI)
	LEAQ(Mem{Base: RDI, Index: RAX, Scale: 8}, RDI)
	LEAQ(Mem{Base: R12, Index: RAX, Scale: 8}, RSI)
	v.load(Mem{Base: RSI}, mask, v.r(1))

	Label(v.l(op, "tails"))
	VMULSD(Mem{Base: R11}, beta, X0)
	VBROADCASTSD(X0, s)
	v.load(Mem{Base: RDI}, mask, v.r(0))
	VMULPD(alpha, v.r(0), v.r(0))
	VFMADD231PD(v.r(1), s, v.r(0))
	v.store(v.r(0), mask, Mem{Base: RDI})
	LEAQ(Mem{Base: RDI, Index: R10, Scale: 8}, RDI)
	ADDQ(Imm(8), R11)
	DECQ(RDX)
	JNZ(LabelRef(v.l(op, "tails")))

	Label(v.l(op, "done"))
	VZEROUPPER()
	RET()
}

// fmaPeak writes fmaPeak<ISA>(iters): 12 independent chains of FMAs an
// iteration (192 flops on AVX-512, 96 on AVX2), for the benchmarks' peak.
func fmaPeak(v isa) {
	TEXT(v.fn("fmaPeak"), NOSPLIT, "func(iters int)")
	Load(Param("iters"), RCX)
	for i := 0; i < 14; i++ {
		v.zero(v.r(i))
	}
	Label("peak" + v.label + "_loop")
	for i := 0; i < 12; i++ {
		VFMADD231PD(v.r(12), v.r(13), v.r(i))
	}
	DECQ(RCX)
	JNZ(LabelRef("peak" + v.label + "_loop"))
	VZEROUPPER()
	RET()
}
