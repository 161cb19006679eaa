package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// rowTiles writes the whole-row tiles of MulVecs (mulvecs_rows_amd64.s):
// 4 rows by 6, 5, 4 and 1 vectors on AVX-512, by 3 and 1 on AVX2.
func rowTiles() {
	tailMaskData()
	for _, v := range []int{6, 5, 4} {
		tileRows(v)
	}
	tileRow1(avx512)
	tileRows3AVX2()
	tileRow1(avx2)
}

// The registers of a whole-row tile (rt): the tile's rows of A (SI) and its
// vectors of x (DI), y (DX), a (R11) and x (R12) at the start, the first
// vector of the group (R13), n (CX), the row stride NBYTES = 8·n (R8),
// 3·NBYTES (R9) and 5·NBYTES (R10, with 6 vectors).
var (
	rtRows, rtVecs, rtOut = RSI, RDI, RDX
	rtA, rtX              = R11, R12
	rtGroup, rtN          = R13, RCX
	rtRow, rtRow3         = R8, R9
	rtRow5                = R10
)

// acc returns the accumulator of row r and vector j: Z(4j+r).
func acc(j, r int) VecPhysical { return zmm[4*j+r] }

// rowLoads are the 4 rows of A of one block of 8 columns, in Z24-Z27.
var rowLoads = []VecPhysical{Z24, Z25, Z26, Z27}

// tileRows writes tile4x<v>AVX512: y[j*n+i] = Σ_c a[i*n+c]·x[j*n+c] for
// the 4 rows i of a and every vector j < k, v vectors a group.
func tileRows(v int) {
	name := fmt.Sprintf("tile4x%dAVX512", v)
	TEXT(name, NOSPLIT, "func(y, a, x []float64, n, k int)")
	if v == 6 {
		Comment("The 24 accumulators Z0-Z23 hold the 4×6 tile, vector j in Z(4j)..Z(4j+3);",
			"per 8 columns it loads 4 rows of A and 6 vectors of x for 24 FMAs.")
	} else {
		Comment(fmt.Sprintf("tile4x6AVX512 for %d vectors: the accumulators Z0-Z%d, vector j in", v, 4*v-1),
			"Z(4j)..Z(4j+3), each output summed in the same order.")
	}
	l := func(s string) string { return fmt.Sprintf("tile%d_%s", v, s) }

	Load(Param("y").Base(), rtOut)
	Load(Param("a").Base(), rtA)
	Load(Param("x").Base(), rtX)
	XORQ(rtGroup, rtGroup)

	Label(l("group"))
	MOVQ(rtA, rtRows)
	MOVQ(rtX, rtVecs)
	Load(Param("n"), rtN)
	scaleBy8(rtN, rtRow)
	LEAQ(Mem{Base: rtRow, Index: rtRow, Scale: 2}, rtRow3)
	if v == 6 {
		LEAQ(Mem{Base: rtRow, Index: rtRow, Scale: 4}, rtRow5)
	}
	for j := 0; j < v; j++ {
		for r := 0; r < 4; r++ {
			VPXORQ(acc(j, r), acc(j, r), acc(j, r))
		}
	}

	Comment("BX = whole 8-column blocks")
	MOVQ(rtN, RBX)
	SHRQ(Imm(3), RBX)
	JZ(LabelRef(l("tail")))

	alignLoop()
	Label(l("loop"))
	Comment("rows i < 4 of this block of 8 columns")
	for r, z := range rowLoads {
		VMOVUPD(rowA(r, 0, rtRows), z)
	}
	for j := 0; j < v; j++ {
		VMOVUPD(rowA(j, 0, rtVecs), Z28)
		for r, z := range rowLoads {
			VFMADD231PD(z, Z28, acc(j, r))
		}
	}
	ADDQ(Imm(64), rtRows)
	ADDQ(Imm(64), rtVecs)
	DECQ(RBX)
	JNZ(LabelRef(l("loop")))

	Label(l("tail"))
	Comment("CX = n mod 8")
	ANDQ(Imm(7), rtN)
	JZ(LabelRef(l("reduce")))
	loadTailMask()
	for r, z := range rowLoads {
		VMOVUPD_Z(rowA(r, 0, rtRows), K1, z)
	}
	for j := 0; j < v; j++ {
		VMOVUPD_Z(rowA(j, 0, rtVecs), K1, Z28)
		for r, z := range rowLoads {
			VFMADD231PD(z, Z28, acc(j, r))
		}
	}

	Label(l("reduce"))
	Comment("the sums of two vectors at a time (the last alone when v is odd)")
	for j := 0; j < v; j += 2 {
		reducePair(j, min(j+1, v-1))
	}

	Comment(fmt.Sprintf("the next group: j + %d, the last one moved back to end at k", v))
	Load(Param("k"), RAX)
	SUBQ(Imm(uint64(v)), RAX)
	CMPQ(rtGroup, RAX)
	JGE(LabelRef(l("done")))
	ADDQ(Imm(uint64(v)), rtGroup)
	CMPQ(rtGroup, RAX)
	CMOVQGT(RAX, rtGroup)
	MOVQ(rtGroup, RBX)
	IMULQ(rtRow, RBX)
	Load(Param("y").Base(), rtOut)
	ADDQ(RBX, rtOut)
	Load(Param("x").Base(), rtX)
	ADDQ(RBX, rtX)
	JMP(LabelRef(l("group")))

	Label(l("done"))
	VZEROUPPER()
	RET()
}

// reducePair sums each accumulator of vectors j and j2 of a whole-row tile
// and stores the sums, y[j*n + r] for the 4 rows r (and likewise for j2,
// unless j2 = j), by sum8 of the accumulators ordered so that the eight
// sums come out as [j: rows 0, 1 | j2: 0, 1 | j: 2, 3 | j2: 2, 3], then
// one 128-bit shuffle to [j: rows 0–3 | j2: rows 0–3] and two stores of 256
// bits (the low half, VEXTRACTF64X4 of the high one): four 128-bit
// VEXTRACTF32X4 stores cost more than the shuffle and the two. The
// accumulators of vector j are overwritten. A vector alone (j2 = j, the
// last one of an odd v) takes the shuffles of a pair.
func reducePair(j, j2 int) {
	s := sum8([8]VecPhysical{acc(j, 0), acc(j, 1), acc(j2, 0), acc(j2, 1), acc(j, 2), acc(j, 3), acc(j2, 2), acc(j2, 3)})
	VSHUFF64X2(Imm(0xd8), s, s, s)
	VMOVUPD(s.AsY(), rowA(j, 0, rtOut))
	if j2 != j {
		VEXTRACTF64X4(Imm(1), s, rowA(j2, 0, rtOut))
	}
}

// tileRow1 writes tile4x1<ISA>: y[i] = Σ_c a[i*n+c]·x[c] for i < 4, with
// two sets of accumulators (registers 0-3 for even blocks of columns, 5-8
// for odd ones) that hide the FMA latency.
func tileRow1(v isa) {
	TEXT(v.fn("tile4x1"), NOSPLIT, "func(y, a, x []float64, n int)")
	Comment(fmt.Sprintf("y[i] = Σ_c a[i*n+c]·x[c] for i < 4. Two sets of accumulators (%s0-%s3 for", v.reg, v.reg),
		fmt.Sprintf("even %d-column blocks, %s5-%s8 for odd ones) hide the FMA latency.", v.lanes, v.reg, v.reg))
	l := func(s string) string {
		if v.lanes == 4 {
			return "tile1y_" + s
		}
		return "tile1_" + s
	}
	oneGroupStart()

	even := []VecPhysical{v.r(0), v.r(1), v.r(2), v.r(3)}
	odd := []VecPhysical{v.r(5), v.r(6), v.r(7), v.r(8)}
	xe, xo := v.r(4), v.r(9)
	for _, z := range append(append([]VecPhysical{}, even...), odd...) {
		v.zero(z)
	}

	Comment(fmt.Sprintf("BX = whole %d-column blocks", 2*v.lanes))
	MOVQ(rtN, RBX)
	SHRQ(Imm(log2(2*v.lanes)), RBX)
	JZ(LabelRef(l("one")))

	Label(l("loop"))
	VMOVUPD(Mem{Base: rtVecs}, xe)
	VMOVUPD(at(rtVecs, v.bytes()), xo)
	for r, z := range even {
		VFMADD231PD(rowA(r, 0, rtRows), xe, z)
	}
	for r, z := range odd {
		m := rowA(r, 0, rtRows)
		m.Disp = v.bytes()
		VFMADD231PD(m, xo, z)
	}
	ADDQ(U32(2*v.bytes()), rtRows)
	ADDQ(U32(2*v.bytes()), rtVecs)
	DECQ(RBX)
	JNZ(LabelRef(l("loop")))

	Label(l("one"))
	Comment(fmt.Sprintf("one more block of %d columns if n mod %d ≥ %d", v.lanes, 2*v.lanes, v.lanes))
	TESTQ(U32(v.lanes), rtN)
	JZ(LabelRef(l("tail")))
	VMOVUPD(Mem{Base: rtVecs}, xe)
	for r, z := range even {
		VFMADD231PD(rowA(r, 0, rtRows), xe, z)
	}
	ADDQ(U32(v.bytes()), rtRows)
	ADDQ(U32(v.bytes()), rtVecs)

	Label(l("tail"))
	ANDQ(Imm(uint64(v.lanes-1)), rtN)
	JZ(LabelRef(l("reduce")))
	v.tailMask(Y10)
	v.load(Mem{Base: rtVecs}, Y10, xe)
	for r, z := range even {
		v.load(rowA(r, 0, rtRows), Y10, xo)
		VFMADD231PD(xo, xe, z)
	}

	Label(l("reduce"))
	for r := range even {
		VADDPD(odd[r], even[r], even[r])
	}
	if v.lanes == 8 {
		for _, z := range even {
			fold512(z, Z24)
		}
	}
	hsum4(ymm[0:4], Mem{Base: rtOut})
	VZEROUPPER()
	RET()
}

// tileRows3AVX2 writes tile4x3AVX2: the 12 accumulators Y0-Y11 hold the
// 4×3 tile, vector j in Y(4j)..Y(4j+3); per 4 columns it loads 3 vectors of
// x (Y12-Y14) and 4 rows of A (Y15).
func tileRows3AVX2() {
	TEXT("tile4x3AVX2", NOSPLIT, "func(y, a, x []float64, n int)")
	Comment("The 12 accumulators Y0-Y11 hold the 4×3 tile, vector j in Y(4j)..Y(4j+3);",
		"per 4 columns it loads 3 vectors of x (Y12-Y14) and 4 rows of A (Y15).")
	oneGroupStart()
	for i := 0; i < 12; i++ {
		VXORPD(ymm[i], ymm[i], ymm[i])
	}
	// acc3 is the accumulator of row r and vector j.
	acc3 := func(r, j int) VecPhysical { return ymm[4*j+r] }

	Comment("BX = whole 4-column blocks")
	MOVQ(rtN, RBX)
	SHRQ(Imm(2), RBX)
	JZ(LabelRef("tile3_tail"))

	Label("tile3_loop")
	for j := 0; j < 3; j++ {
		VMOVUPD(rowA(j, 0, rtVecs), ymm[12+j])
	}
	for r := 0; r < 4; r++ {
		VMOVUPD(rowA(r, 0, rtRows), Y15)
		for j := 0; j < 3; j++ {
			VFMADD231PD(Y15, ymm[12+j], acc3(r, j))
		}
	}
	ADDQ(Imm(32), rtRows)
	ADDQ(Imm(32), rtVecs)
	DECQ(RBX)
	JNZ(LabelRef("tile3_loop"))

	Label("tile3_tail")
	ANDQ(Imm(3), rtN)
	JZ(LabelRef("tile3_reduce"))
	avx2.tailMask(Y12)
	Comment("the mask in Y12, the row in Y13, each vector of x in Y14 in turn")
	for r := 0; r < 4; r++ {
		VMASKMOVPD(rowA(r, 0, rtRows), Y12, Y13)
		for j := 0; j < 3; j++ {
			VMASKMOVPD(rowA(j, 0, rtVecs), Y12, Y14)
			VFMADD231PD(Y14, Y13, acc3(r, j))
		}
	}

	Label("tile3_reduce")
	for j := 0; j < 3; j++ {
		hsum4(ymm[4*j:4*j+4], rowA(j, 0, rtOut))
	}
	VZEROUPPER()
	RET()
}

// oneGroupStart starts a tile of one group of vectors: y (DX), the rows of
// a (SI), x (DI), n (CX), NBYTES (R8) and 3·NBYTES (R9).
func oneGroupStart() {
	Load(Param("y").Base(), rtOut)
	Load(Param("a").Base(), rtRows)
	Load(Param("x").Base(), rtVecs)
	Load(Param("n"), rtN)
	scaleBy8(rtN, rtRow)
	LEAQ(Mem{Base: rtRow, Index: rtRow, Scale: 2}, rtRow3)
}
