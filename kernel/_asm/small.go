package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// smallAVX512 writes MulVecs for small n on AVX-512
// (mulvecs_small_avx512_amd64.s): mulVecsSmallAVX512, its form with the
// rank-one update updateMulVecsSmallAVX512, and samplePlaceSmallAVX512.
func smallAVX512() {
	mulVecsSmall(false)
	mulVecsSmall(true)
	samplePlaceSmall()
}

// The offsets of RankOne's fields (kernel/sampleplace.go; layout_amd64_test.go
// holds them to these).
const (
	rankOneAlpha = 0
	rankOneBeta  = 8
	rankOneP     = 16
	rankOneV     = 40
)

// smallMask sets the opmask k to the low lanes counted by r (≤ 16, a
// general register other than CX); AX is scratch, CX is kept.
func smallMask(r GPPhysical, k Op) {
	XCHGQ(r, RCX)
	lowLanes()
	KMOVW(EAX, k)
	XCHGQ(r, RCX)
}

// smallUpdate applies the rank-one update to row r of the block, held in
// zr (columns masked by kc, at SI): zr = fma(v, fl(β·p_r), fl(α·zr)), the
// rounding of scaleAddOuterAVX512, and stores it back into A. AX points at
// p at the block's first row, X11 holds β, Z8 α broadcast, Z9 v at the
// block's columns.
func smallUpdate(r int, zr VecPhysical, kc Op) {
	VMULSD(Mem{Base: RAX, Disp: 8 * r}, X11, X10)
	VBROADCASTSD(X10, Z10)
	VMULPD(Z8, zr, zr)
	VFMADD231PD(Z9, Z10, zr)
	VMOVUPD(zr, kc, Mem{Base: RSI})
}

// smallRows loads the rows 1 … 7 of the block (at SI, rows R8 bytes apart)
// into Z1-Z7, masked by kc, while r < R9 (with update, each updated), and
// goes on at loaded after the last.
func smallRows(kc Op, update bool, loaded string) {
	for r := 1; r < 8; r++ {
		CMPQ(R9, Imm(uint64(r)))
		JLE(LabelRef(loaded))
		VMOVUPD_Z(Mem{Base: RSI}, kc, zmm[r])
		if update {
			smallUpdate(r, zmm[r], kc)
		}
		ADDQ(R8, RSI)
	}
}

// smallClear clears Z1-Z7, the rows past the block's.
func smallClear() {
	for r := 1; r < 8; r++ {
		VPXORQ(zmm[r], zmm[r], zmm[r])
	}
}

// smallBlock loads the block's rows, columns off/8 to off/8+7 of the block
// (masked by kc), into Z0-Z7 (the rows past R9 zero), with update applying
// the rank-one update to them (and storing them into A), and transposes
// them into Z24-Z31.
func smallBlock(off int, kc Op, update bool, loaded string) {
	smallClear()
	MOVQ(R10, RSI)
	IMULQ(R8, RSI)
	LEAQ(Mem{Base: RSI, Disp: off, Index: R12, Scale: 8}, RSI)
	ADDQ(arg(Param("a").Base()), RSI)
	if update {
		Load(Param("p").Base(), RAX)
		LEAQ(Mem{Base: RAX, Index: R10, Scale: 8}, RAX)
		Load(Param("v").Base(), R13)
		LEAQ(Mem{Base: R13, Disp: off, Index: R12, Scale: 8}, R13)
		VMOVUPD_Z(Mem{Base: R13}, kc, Z9)
		VBROADCASTSD(arg(Param("alpha")), Z8)
		VMOVSD(arg(Param("beta")), X11)
	}
	VMOVUPD_Z(Mem{Base: RSI}, kc, Z0)
	if update {
		smallUpdate(0, Z0, kc)
	}
	ADDQ(R8, RSI)
	smallRows(kc, update, loaded)
	Label(loaded)
	transpose8(zmm[:8])
}

// smallColumn is the register of the block's column c: Z24-Z31 for 0-7,
// Z16-Z23 for 8-15.
func smallColumn(c int) VecPhysical {
	if c < 8 {
		return zmm[24+c]
	}
	return zmm[8+c]
}

// smallTerms adds the block's columns 1 to 15 (as far as its width CX
// goes) times x_j's (at DI) to Z0, then goes on at store.
func smallTerms(store string) {
	for c := 1; c < 16; c++ {
		CMPQ(RCX, Imm(uint64(c)))
		JLE(LabelRef(store))
		VFMADD231PD_BCST(Mem{Base: RDI, Disp: 8 * c}, smallColumn(c), Z0)
	}
	Label(store)
}

// mulVecsSmall writes mulVecsSmallAVX512 or, with update,
// updateMulVecsSmallAVX512.
func mulVecsSmall(update bool) {
	op := "small"
	if update {
		op = "usmall"
		TEXT("updateMulVecsSmallAVX512", NOSPLIT, "func(y, a []float64, n int, x []float64, k int, alpha, beta float64, p, v []float64)")
		Comment("mulVecsSmallAVX512 with the update A ← α·A + β·p·vᵀ applied to each block",
			"of A as it is loaded (and stored back): the bits of scaleAddOuterAVX512",
			"and then mulVecsSmallAVX512. len(p), len(v) ≥ n.")
	} else {
		TEXT("mulVecsSmallAVX512", NOSPLIT, "func(y, a []float64, n int, x []float64, k int)")
		Comment("MulVecs for small n on AVX-512, in blocks of up to 8 rows and 16 columns",
			"of A: a block is loaded once per call, one row per register (columns 0-7",
			"of the block, then 8-15), and transposed so that one register holds a",
			"column of the block's rows (Z24-Z31: the block's columns 0-7, Z16-Z23:",
			"8-15). Then the block's part of y_j is Σ_c A[rows, c]·x_j[c], a chain of",
			"multiply-adds with x_j[c] broadcast from memory, continued from the part",
			"of the block to the left (loaded from y) and stored under a mask. No",
			"horizontal sums, and one call for all k vectors.",
			"",
			"Registers: R10 the block's first row, R12 its first column, CX its width",
			"(≤ 16), R9 its rows (≤ 8), R11 n, R8 n·8, BX vectors left, DI x_j at the",
			"block's first column, DX y_j at the block's first row, SI and AX scratch;",
			"K2 the block's rows, K1 its columns 0-7, K3 its columns 8-15.")
	}
	l := func(s string) string { return op + "_" + s }
	// atMost sets r to min(r, limit).
	atMost := func(r GPPhysical, limit int, label string) {
		CMPQ(r, Imm(uint64(limit)))
		JLE(LabelRef(l(label)))
		MOVQ(U32(uint64(limit)), r)
		Label(l(label))
	}
	Load(Param("n"), R11)
	MOVQ(R11, R8)
	SHLQ(Imm(3), R8)
	XORQ(R10, R10)

	Label(l("block_rows"))
	Comment("R9 = min(8, n − R10) rows, K2 their lanes")
	MOVQ(R11, R9)
	SUBQ(R10, R9)
	atMost(R9, 8, "rows")
	smallMask(R9, K2)
	XORQ(R12, R12)

	Label(l("block"))
	Comment("CX = min(16, n − R12) columns; K1 = min(8, CX) lanes, K3 = CX − 8 lanes")
	MOVQ(R11, RCX)
	SUBQ(R12, RCX)
	atMost(RCX, 16, "cols")
	MOVQ(RCX, R13)
	atMost(R13, 8, "k1")
	smallMask(R13, K1)
	CMPQ(RCX, Imm(8))
	JLE(LabelRef(l("low")))
	MOVQ(RCX, R13)
	SUBQ(Imm(8), R13)
	smallMask(R13, K3)
	smallBlock(64, K3, update, l("high_loaded"))
	for c := 0; c < 8; c++ {
		VMOVAPD(zmm[24+c], zmm[16+c])
	}

	Label(l("low"))
	smallBlock(0, K1, update, l("low_loaded"))
	Load(Param("x").Base(), RDI)
	LEAQ(Mem{Base: RDI, Index: R12, Scale: 8}, RDI)
	Load(Param("y").Base(), RDX)
	LEAQ(Mem{Base: RDX, Index: R10, Scale: 8}, RDX)
	Load(Param("k"), RBX)
	TESTQ(R12, R12)
	JNZ(LabelRef(l("vec_more")))

	// vectorLoop writes the loop over the k vectors: the first block of a
	// row of blocks starts each chain, a block right of it goes on from y.
	vectorLoop := func(more bool) {
		loop, store := l("vec"), l("store")
		if more {
			loop, store = l("vec_more"), l("store_more")
		}
		Label(loop)
		if more {
			VMOVUPD_Z(Mem{Base: RDX}, K2, Z0)
			VFMADD231PD_BCST(Mem{Base: RDI}, Z24, Z0)
		} else {
			VMULPD_BCST(Mem{Base: RDI}, Z24, Z0)
		}
		smallTerms(store)
		VMOVUPD(Z0, K2, Mem{Base: RDX})
		ADDQ(R8, RDI)
		ADDQ(R8, RDX)
		DECQ(RBX)
		JNZ(LabelRef(loop))
	}
	vectorLoop(false)
	JMP(LabelRef(l("next")))
	Comment("A block right of the first: the chain goes on from y.")
	vectorLoop(true)

	Label(l("next"))
	ADDQ(Imm(16), R12)
	CMPQ(R12, R11)
	JLT(LabelRef(l("block")))
	ADDQ(Imm(8), R10)
	CMPQ(R10, R11)
	JLT(LabelRef(l("block_rows")))
	VZEROUPPER()
	RET()
}

// samplePlaceSmall writes samplePlaceSmallAVX512: for 1 ≤ n ≤ 8 (one
// block of A, K1 its n lanes) mulVecsSmallAVX512(y, a, n, z, k), with u
// non-nil updateMulVecsSmallAVX512 with u's update, and then
// scaleAxpyRowsAVX512(cand, σ, y, s, m) on each y_j while it is in a
// register: y_j ← s·y_j, cand_j = fma(σ, y_j, m), the same bits, and
// whether no element of cand has an exponent of all ones. s·y_j is VMULPD
// y, s for n < 8 (the tail of scaleAxpyRowsAVX512) and VMULPD s, y for n =
// 8 (its 8-element block). k ≥ 1.
func samplePlaceSmall() {
	TEXT("samplePlaceSmallAVX512", NOSPLIT, "func(n, k int, y, a, z, cand, m *float64, s, sigma float64, u *byte) (finite bool)")
	Comment("For 1 ≤ n ≤ 8 (one block of A, K1 its n lanes): mulVecsSmallAVX512(y, a,",
		"n, z, k), with u non-nil updateMulVecsSmallAVX512 with u's update, and",
		"then scaleAxpyRowsAVX512(cand, σ, y, s, m) on each y_j while it is in a",
		"register: y_j ← s·y_j, cand_j = fma(σ, y_j, m), the same bits, and whether",
		"no element of cand has an exponent of all ones. s·y_j is VMULPD y, s for",
		"n < 8 (the tail of scaleAxpyRowsAVX512) and VMULPD s, y for n = 8 (its",
		"8-element block). k ≥ 1. u is a *RankOne (its fields at the offsets",
		"rankOneAlpha … rankOneV of kernel/_asm); the line above names it *byte,",
		"as the generator does not load the package's types.")
	Load(Param("n"), R11)
	MOVQ(R11, R8)
	SHLQ(Imm(3), R8)
	Comment("the block's rows and columns: n")
	MOVQ(R11, R9)
	MOVQ(R11, RCX)
	smallMask(R9, K1)
	smallClear()
	Load(Param("a"), RSI)
	VMOVUPD_Z(Mem{Base: RSI}, K1, Z0)
	Load(Param("u"), R10)
	TESTQ(R10, R10)
	JZ(LabelRef("sp_plain"))

	Comment("The update, with smallUpdate's registers: AX p, X11 β, Z8 α, Z9 v.")
	MOVQ(Mem{Base: R10, Disp: rankOneP}, RAX)
	MOVQ(Mem{Base: R10, Disp: rankOneV}, R13)
	VMOVUPD_Z(Mem{Base: R13}, K1, Z9)
	VBROADCASTSD(Mem{Base: R10, Disp: rankOneAlpha}, Z8)
	VMOVSD(Mem{Base: R10, Disp: rankOneBeta}, X11)
	smallUpdate(0, Z0, K1)
	ADDQ(R8, RSI)
	smallRows(K1, true, "sp_loaded")
	JMP(LabelRef("sp_loaded"))

	Label("sp_plain")
	ADDQ(R8, RSI)
	smallRows(K1, false, "sp_loaded")

	Label("sp_loaded")
	transpose8(zmm[:8])
	Load(Param("z"), RDI)
	Load(Param("y"), RDX)
	Load(Param("cand"), R12)
	Load(Param("m"), RAX)
	VMOVUPD_Z(Mem{Base: RAX}, K1, Z15)
	VBROADCASTSD(arg(Param("s")), Z14)
	VBROADCASTSD(arg(Param("sigma")), Z13)
	Comment("Z12 the exponent's bits, Z11 the largest exponent field seen")
	MOVQ(U64(0x7ff0000000000000), RAX)
	VPBROADCASTQ(RAX, Z12)
	VPXORQ(Z11, Z11, Z11)
	Load(Param("k"), RBX)
	CMPQ(R11, Imm(8))
	JEQ(LabelRef("sp_vec8"))

	// place stores y_j (Z0, scaled by s: s·y with sFirst, else y·s; of two
	// NaNs, the first source's) and places it: cand_j = fma(σ, y_j, m),
	// stored, its exponent fields into the running maximum Z11; then the
	// pointers move to the next vector.
	place := func(sFirst bool) {
		if sFirst {
			VMULPD(Z0, Z14, Z0)
		} else {
			VMULPD(Z14, Z0, Z0)
		}
		VMOVUPD(Z0, K1, Mem{Base: RDX})
		VMOVAPD(Z15, Z1)
		VFMADD231PD(Z0, Z13, Z1)
		VMOVUPD(Z1, K1, Mem{Base: R12})
		VPANDQ_Z(Z12, Z1, K1, Z2)
		VPMAXUQ(Z2, Z11, Z11)
		ADDQ(R8, RDI)
		ADDQ(R8, RDX)
		ADDQ(R8, R12)
	}
	Label("sp_vec")
	VMULPD_BCST(Mem{Base: RDI}, Z24, Z0)
	smallTerms("sp_store")
	place(false)
	DECQ(RBX)
	JNZ(LabelRef("sp_vec"))
	JMP(LabelRef("sp_done"))

	Comment("n = 8: the columns without the width tests.")
	Label("sp_vec8")
	VMULPD_BCST(Mem{Base: RDI}, Z24, Z0)
	for c := 1; c < 8; c++ {
		VFMADD231PD_BCST(Mem{Base: RDI, Disp: 8 * c}, zmm[24+c], Z0)
	}
	place(true)
	DECQ(RBX)
	JNZ(LabelRef("sp_vec8"))

	Label("sp_done")
	VPCMPEQQ(Z12, Z11, K3)
	KMOVW(K3, EAX)
	TESTQ(RAX, RAX)
	SETEQ(arg(Return("finite")))
	VZEROUPPER()
	RET()
}
