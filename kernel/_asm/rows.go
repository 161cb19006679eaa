package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// rowsAVX512 writes the whole-row AVX-512 tiles of MulVecs
// (mulvecs_rows_avx512_amd64.s).
func rowsAVX512() {
	for _, v := range []int{6, 5, 4} {
		tileRows(v)
	}
	tileRow1()
}

// The registers of a whole-row tile: the tile's rows of A (SI) and its
// vectors of x (DI), y (DX), a (R11) and x (R12) at the start, the first
// vector of the group (R13), n (CX), the row stride NBYTES = 8·n (R8),
// 3·NBYTES (R9) and 5·NBYTES (R10, with 6 vectors).
var (
	rows, vecs, out = RSI, RDI, RDX
	aBase, xBase    = R11, R12
	group, count    = R13, RCX
	stride, stride3 = R8, R9
	stride5         = R10
)

// strided returns the address of row or vector j of a group that starts at
// base: base + j·NBYTES with the strides held in R8, R9 and R10.
func strided(base Register, j int) Mem {
	switch j {
	case 0:
		return Mem{Base: base}
	case 1:
		return Mem{Base: base, Index: stride, Scale: 1}
	case 2:
		return Mem{Base: base, Index: stride, Scale: 2}
	case 3:
		return Mem{Base: base, Index: stride3, Scale: 1}
	case 4:
		return Mem{Base: base, Index: stride, Scale: 4}
	case 5:
		return Mem{Base: base, Index: stride5, Scale: 1}
	}
	panic(fmt.Sprintf("no address for vector %d", j))
}

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

	Load(Param("y").Base(), out)
	Load(Param("a").Base(), aBase)
	Load(Param("x").Base(), xBase)
	XORQ(group, group)

	Label(l("group"))
	MOVQ(aBase, rows)
	MOVQ(xBase, vecs)
	Load(Param("n"), count)
	scaleBy8(count, stride)
	LEAQ(Mem{Base: stride, Index: stride, Scale: 2}, stride3)
	if v == 6 {
		LEAQ(Mem{Base: stride, Index: stride, Scale: 4}, stride5)
	}
	for j := 0; j < v; j++ {
		for r := 0; r < 4; r++ {
			VPXORQ(acc(j, r), acc(j, r), acc(j, r))
		}
	}

	Comment("BX = whole 8-column blocks")
	MOVQ(count, RBX)
	SHRQ(Imm(3), RBX)
	JZ(LabelRef(l("tail")))

	Label(l("loop"))
	Comment("rows i < 4 of this block of 8 columns")
	for r, z := range rowLoads {
		VMOVUPD(strided(rows, r), z)
	}
	for j := 0; j < v; j++ {
		VMOVUPD(strided(vecs, j), Z28)
		for r, z := range rowLoads {
			VFMADD231PD(z, Z28, acc(j, r))
		}
	}
	ADDQ(Imm(64), rows)
	ADDQ(Imm(64), vecs)
	DECQ(RBX)
	JNZ(LabelRef(l("loop")))

	Label(l("tail"))
	Comment("CX = n mod 8")
	ANDQ(Imm(7), count)
	JZ(LabelRef(l("reduce")))
	loadTailMask()
	for r, z := range rowLoads {
		VMOVUPD_Z(strided(rows, r), K1, z)
	}
	for j := 0; j < v; j++ {
		VMOVUPD_Z(strided(vecs, j), K1, Z28)
		for r, z := range rowLoads {
			VFMADD231PD(z, Z28, acc(j, r))
		}
	}

	Label(l("reduce"))
	Comment("512 → 256 bits for every accumulator")
	for j := 0; j < v; j++ {
		for r := 0; r < 4; r++ {
			fold512(acc(j, r))
		}
	}
	Comment("y[j*n : j*n+4] = the 4 row sums of vector j")
	for j := 0; j < min(v, 4); j++ {
		hsum4(ymm[4*j:4*j+4], strided(out, j))
	}
	if v > 4 {
		Comment("vectors 4 and up live in Z16 and up: move them below Z16 for VEX HSUM4")
		for i := 16; i < 4*v; i++ {
			VMOVAPD(zmm[i], zmm[i-16])
		}
		for j := 4; j < v; j++ {
			hsum4(ymm[4*(j-4):4*(j-4)+4], strided(out, j))
		}
	}

	Comment(fmt.Sprintf("the next group: j + %d, the last one moved back to end at k", v))
	Load(Param("k"), RAX)
	SUBQ(Imm(uint64(v)), RAX)
	CMPQ(group, RAX)
	JGE(LabelRef(l("done")))
	ADDQ(Imm(uint64(v)), group)
	CMPQ(group, RAX)
	CMOVQGT(RAX, group)
	MOVQ(group, RBX)
	IMULQ(stride, RBX)
	Load(Param("y").Base(), out)
	ADDQ(RBX, out)
	Load(Param("x").Base(), xBase)
	ADDQ(RBX, xBase)
	JMP(LabelRef(l("group")))

	Label(l("done"))
	VZEROUPPER()
	RET()
}

// tileRow1 writes tile4x1AVX512: y[i] = Σ_c a[i*n+c]·x[c] for i < 4.
func tileRow1() {
	TEXT("tile4x1AVX512", NOSPLIT, "func(y, a, x []float64, n int)")
	Comment("y[i] = Σ_c a[i*n+c]·x[c] for i < 4. Two sets of accumulators (Z0-Z3 for",
		"even 8-column blocks, Z5-Z8 for odd ones) hide the FMA latency.")
	Load(Param("y").Base(), out)
	Load(Param("a").Base(), rows)
	Load(Param("x").Base(), vecs)
	Load(Param("n"), count)
	scaleBy8(count, stride)
	LEAQ(Mem{Base: stride, Index: stride, Scale: 2}, stride3)

	even, odd := []VecPhysical{Z0, Z1, Z2, Z3}, []VecPhysical{Z5, Z6, Z7, Z8}
	for _, z := range append(append([]VecPhysical{}, even...), odd...) {
		VPXORQ(z, z, z)
	}

	Comment("BX = whole 16-column blocks")
	MOVQ(count, RBX)
	SHRQ(Imm(4), RBX)
	JZ(LabelRef("tile1_one"))

	Label("tile1_loop")
	VMOVUPD(Mem{Base: vecs}, Z4)
	VMOVUPD(Mem{Base: vecs, Disp: 64}, Z9)
	for r, z := range even {
		VFMADD231PD(strided(rows, r), Z4, z)
	}
	for r, z := range odd {
		m := strided(rows, r)
		m.Disp = 64
		VFMADD231PD(m, Z9, z)
	}
	ADDQ(Imm(128), rows)
	ADDQ(Imm(128), vecs)
	DECQ(RBX)
	JNZ(LabelRef("tile1_loop"))

	Label("tile1_one")
	Comment("one more block of 8 columns if n mod 16 ≥ 8")
	TESTQ(U32(8), count)
	JZ(LabelRef("tile1_tail"))
	VMOVUPD(Mem{Base: vecs}, Z4)
	for r, z := range even {
		VFMADD231PD(strided(rows, r), Z4, z)
	}
	ADDQ(Imm(64), rows)
	ADDQ(Imm(64), vecs)

	Label("tile1_tail")
	ANDQ(Imm(7), count)
	JZ(LabelRef("tile1_reduce"))
	loadTailMask()
	VMOVUPD_Z(Mem{Base: vecs}, K1, Z4)
	for r, z := range even {
		VMOVUPD_Z(strided(rows, r), K1, Z9)
		VFMADD231PD(Z9, Z4, z)
	}

	Label("tile1_reduce")
	for r := range even {
		VADDPD(odd[r], even[r], even[r])
	}
	for _, z := range even {
		fold512(z)
	}
	hsum4(ymm[0:4], Mem{Base: out})
	VZEROUPPER()
	RET()
}
