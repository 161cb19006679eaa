package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// lowRankAVX512 writes the AVX-512 kernels of the low-rank sampling
// (lowrank_avx512_amd64.s): combineRows6, 4 and 1, and dotRows8x3, 8x2 and
// 8x1. The 4-row dot-product tiles are in dotrows4_amd64.s (dotRows).
func lowRankAVX512() {
	combineRowsAVX512(6)
	combineRowsAVX512(4)
	combineRow1AVX512()
	for _, nb := range []int{3, 2, 1} {
		dotRows8AVX512(nb)
	}
}

// The signatures of the combineRows kernels: with the walk of the next
// block's panel and non-temporal stores, and without.
const (
	combineSig       = "func(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, pfp *float64, pfleft, pfw int, nt, first, last bool)"
	combineSigNoWalk = "func(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, first, last bool)"
)

// at4 is the i-th register (64 bytes) of the 32 float64 at m.
func at4(m Mem, i int) Mem { m.Disp += 64 * i; return m }

// load4 loads the 32 float64 at m into r[0] … r[3]; store4 stores them, with
// non-temporal stores when nt (m 64-byte aligned: the lines go to memory
// without being read first).
func load4(m Mem, r []VecPhysical) {
	for i := 0; i < 4; i++ {
		VMOVUPD(at4(m, i), r[i])
	}
}

func store4(r []VecPhysical, m Mem, nt bool) {
	for i := 0; i < 4; i++ {
		if nt {
			VMOVNTPD(r[i], at4(m, i))
			continue
		}
		VMOVUPD(r[i], at4(m, i))
	}
}

// The term's (or s's, or m's) 32 columns of p.
var pRegs = []VecPhysical{Z24, Z25, Z26, Z27}

// acc4 are the four accumulators of row r of a combineRows tile: Z4r …
// Z4r+3.
func acc4(r int) []VecPhysical { return zmm[4*r : 4*r+4] }

// combineRow addresses row r of a combineRows tile: BX, BX + stride, SI,
// SI + stride, DX, DX + stride (R8 the stride in bytes).
func combineRow(r int) Mem {
	m := Mem{Base: []Register{RBX, RSI, RDX}[r/2]}
	if r%2 == 1 {
		m.Index, m.Scale = R8, 1
	}
	return m
}

// combineRowsAVX512 writes combineRows<rows>AVX512 (rows 6 or 4): for each
// step of 32 columns, the rows' accumulators from s·z (first) or from x,
// the terms, fma(σ, u, m) (last), and the stores; an SFENCE after
// streaming stores orders them before what follows (another goroutine may
// read x next).
func combineRowsAVX512(rows int) {
	op := fmt.Sprintf("cr%dz", rows)
	l := func(s string) string { return op + "_" + s }
	TEXT(fmt.Sprintf("combineRows%dAVX512", rows), NOSPLIT, combineSig)
	if rows == 6 {
		Comment("combineRows6AVX2 (the same chain for each element) on 6 rows × 32",
			"columns at a time, cols a multiple of 32: 24 zmm accumulators, a term's",
			"32 columns of p loaded once for the 6 rows, each row's coefficient",
			"broadcast from c[t*6+r]. With pfp non-nil each term step also asks L2",
			"for a cache line of a walk in row order (the next block's panel, which",
			"would otherwise come from memory in the next block's first tile): the",
			"line at pfp, then the next ones to the end of its row's segment (pfleft",
			"bytes from pfp), then pfw bytes from the start of each next row's",
			"segment (stride on from the one before); and each 32-column step asks",
			"L1 for the 6 rows of z 1 KiB on (prefetches do not fault, so past the",
			"end is harmless). With nt set (x and its row stride 64-byte aligned)",
			"the rows of x are written with non-temporal stores, which do not read",
			"the lines first, and an SFENCE ends the call.")
	} else {
		Comment("combineRows6AVX512 for 4 rows × 32 columns at a time (16 zmm",
			"accumulators), cols a multiple of 32, the coefficients c[t*4+r]: the",
			"same chain for each element, with the same walk and nt.")
	}
	eachRow := func(f func(r int)) {
		for r := 0; r < rows; r++ {
			f(r)
		}
	}
	rowPointers := func() {
		ADDQ(RAX, RBX)
		LEAQ(Mem{Base: RBX, Index: R8, Scale: 2}, RSI)
		LEAQ(Mem{Base: RSI, Index: R8, Scale: 2}, RDX)
	}
	term := func() {
		load4(Mem{Base: RCX}, pRegs)
		eachRow(func(r int) {
			b := []VecPhysical{Z28, Z29}[r%2]
			VBROADCASTSD(Mem{Base: RDI, Disp: 8 * r}, b)
			for i, z := range acc4(r) {
				VFMADD231PD(pRegs[i], b, z)
			}
		})
		ADDQ(R8, RCX)
		ADDQ(U32(8*rows), RDI)
		DECQ(R10)
	}

	combineStart(true)
	TESTQ(R9, R9)
	JZ(LabelRef(l("done")))

	Label(l("loop"))
	Comment("the rows from z (first) or x")
	combineFrom(l("init"))
	rowPointers()
	CMPQ(arg(Param("pfp")), Imm(0))
	JE(LabelRef(l("load")))
	eachRow(func(r int) {
		m := combineRow(r)
		m.Disp = 1024
		for i := 0; i < 4; i++ {
			PREFETCHT0(at4(m, i))
		}
	})
	Label(l("load"))
	eachRow(func(r int) { load4(combineRow(r), acc4(r)) })
	CMPB(arg(Param("first")), Imm(0))
	JE(LabelRef(l("terms_start")))
	Load(Param("s"), RBX)
	ADDQ(RAX, RBX)
	load4(Mem{Base: RBX}, pRegs)
	eachRow(func(r int) {
		for i, z := range acc4(r) {
			VMULPD(pRegs[i], z, z)
		}
	})

	Label(l("terms_start"))
	combineTerms(l("fin"))
	TESTQ(R12, R12)
	JZ(LabelRef(l("terms")))
	Label(l("terms_pf"))
	combineWalk(l("pf_term"))
	term()
	JNZ(LabelRef(l("terms_pf")))
	JMP(LabelRef(l("fin")))
	Label(l("terms"))
	term()
	JNZ(LabelRef(l("terms")))

	Label(l("fin"))
	CMPB(arg(Param("last")), Imm(0))
	JE(LabelRef(l("store")))
	Load(Param("m"), RBX)
	ADDQ(RAX, RBX)
	load4(Mem{Base: RBX}, pRegs)
	VBROADCASTSD(arg(Param("sigma")), Z28)
	eachRow(func(r int) {
		for i, z := range acc4(r) {
			VFMADD213PD(pRegs[i], Z28, z)
		}
	})

	Label(l("store"))
	Load(Param("x"), RBX)
	rowPointers()
	CMPB(arg(Param("nt")), Imm(0))
	JE(LabelRef(l("st")))
	eachRow(func(r int) { store4(acc4(r), combineRow(r), true) })
	JMP(LabelRef(l("next")))
	Label(l("st"))
	eachRow(func(r int) { store4(acc4(r), combineRow(r), false) })
	Label(l("next"))
	ADDQ(U32(256), RAX)
	CMPQ(RAX, R9)
	JLT(LabelRef(l("loop")))

	combineEndStream(l("done"), l("ret"))
}

// combineRow1AVX512 writes combineRows1AVX512: combineRows6AVX512 for one
// row, its coefficients c[t] contiguous, 32 columns a step (four zmm), cols
// a multiple of 32.
func combineRow1AVX512() {
	const op = "cr1z"
	l := func(s string) string { return op + "_" + s }
	TEXT("combineRows1AVX512", NOSPLIT, combineSigNoWalk)
	Comment("combineRows6AVX512 for one row, with its coefficients c[t] contiguous:",
		"32 columns a step (four zmm), cols a multiple of 32.")
	acc := acc4(0)
	combineStart(false)
	TESTQ(R9, R9)
	JZ(LabelRef(l("done")))

	Label(l("loop"))
	combineFrom(l("init"))
	ADDQ(RAX, RBX)
	load4(Mem{Base: RBX}, acc)
	CMPB(arg(Param("first")), Imm(0))
	JE(LabelRef(l("terms_start")))
	Load(Param("s"), RBX)
	ADDQ(RAX, RBX)
	load4(Mem{Base: RBX}, pRegs)
	for i, z := range acc {
		VMULPD(pRegs[i], z, z)
	}

	Label(l("terms_start"))
	combineTerms(l("fin"))
	Label(l("terms"))
	VBROADCASTSD(Mem{Base: RDI}, Z28)
	for i, z := range acc {
		VFMADD231PD(at4(Mem{Base: RCX}, i), Z28, z)
	}
	ADDQ(R8, RCX)
	ADDQ(Imm(8), RDI)
	DECQ(R10)
	JNZ(LabelRef(l("terms")))

	Label(l("fin"))
	CMPB(arg(Param("last")), Imm(0))
	JE(LabelRef(l("store")))
	Load(Param("m"), RBX)
	ADDQ(RAX, RBX)
	load4(Mem{Base: RBX}, pRegs)
	VBROADCASTSD(arg(Param("sigma")), Z28)
	for i, z := range acc {
		VFMADD213PD(pRegs[i], Z28, z)
	}

	Label(l("store"))
	Load(Param("x"), RBX)
	ADDQ(RAX, RBX)
	store4(acc, Mem{Base: RBX}, false)
	ADDQ(U32(256), RAX)
	CMPQ(RAX, R9)
	JLT(LabelRef(l("loop")))

	combineEnd(l("done"))
}

// The 8 rows of a in dotRows8: SI, R9, R10, R11, DX, DI, R14 and R8, each
// indexed by the column offset AX; the rows of b: BX, R12, R13.
var (
	dotARows = []Register{RSI, R9, R10, R11, RDX, RDI, R14, R8}
	dotBRows = []Register{RBX, R12, R13}
)

// dotRows8AVX512 writes dotRows8x<nb>AVX512: dst[j*ldd+i] += a_i·b_j for
// the 8 rows i of a and the nb rows j of b, each pair's sum the bits the
// 4-row tiles give it; with nb = 3, pfa and pfb ≠ 0 ask L2 for the line of
// the next block (2048 bytes on) in each row of a and of b.
func dotRows8AVX512(nb int) {
	op := fmt.Sprintf("dr8%dz", nb)
	l := func(s string) string { return op + "_" + s }
	sig := "func(dst, a, b *float64, cols, stride, ldd, pfa, pfb int)"
	switch nb {
	case 2:
		sig = "func(dst, a, b *float64, cols, stride, ldd int)"
	case 1:
		sig = "func(dst, a, b *float64, cols, stride int)"
	}
	TEXT(fmt.Sprintf("dotRows8x%dAVX512", nb), NOSPLIT, sig)
	switch nb {
	case 3:
		Comment("dotRows4x3AVX512 for 8 rows of a: dst[j*ldd+i] += a_i·b_j for i < 8,",
			"j < 3, each pair's sum the bits dotRows4x3AVX512 gives it.")
	case 2:
		Comment("dotRows8x3AVX512 for 2 rows of b: dst[j*ldd+i] += a_i·b_j for i < 8,",
			"j < 2, each pair's sum the bits dotRows4x1AVX512 gives it.")
	default:
		Comment("dotRows4x1AVX512 for 8 rows of a: dst[i] += a_i·b for i < 8, with its",
			"bits.")
	}
	acc := func(i, j int) VecPhysical { return zmm[nb*i+j] }
	Load(Param("a"), RSI)
	Load(Param("b"), RBX)
	Load(Param("cols"), RCX)
	Load(Param("stride"), R8)
	Comment("the 8 rows of a, cols in bytes, AX = 0")
	SHLQ(Imm(3), R8)
	SHLQ(Imm(3), RCX)
	LEAQ(Mem{Base: RSI, Index: R8, Scale: 1}, R9)
	LEAQ(Mem{Base: RSI, Index: R8, Scale: 2}, R10)
	LEAQ(Mem{Base: R10, Index: R8, Scale: 1}, R11)
	LEAQ(Mem{Base: RSI, Index: R8, Scale: 4}, RDX)
	LEAQ(Mem{Base: RDX, Index: R8, Scale: 1}, RDI)
	LEAQ(Mem{Base: RDX, Index: R8, Scale: 2}, R14)
	LEAQ(Mem{Base: R14, Index: R8, Scale: 1}, R8)
	XORQ(RAX, RAX)
	if nb > 1 {
		Load(Param("stride"), R12)
		SHLQ(Imm(3), R12)
		if nb == 3 {
			LEAQ(Mem{Base: RBX, Index: R12, Scale: 2}, R13)
		}
		ADDQ(RBX, R12)
	}
	for i := 0; i < 8*nb; i++ {
		VPXORQ(zmm[i], zmm[i], zmm[i])
	}
	TESTQ(RCX, RCX)
	JZ(LabelRef(l("reduce")))

	col := func(base Register, d int) Mem { return Mem{Base: base, Disp: d, Index: RAX, Scale: 1} }
	step := func() {
		if nb == 1 {
			VMOVUPD(col(RBX, 0), Z24)
			for i, a := range dotARows {
				VFMADD231PD(col(a, 0), Z24, acc(i, 0))
			}
		} else {
			for j := 0; j < nb; j++ {
				VMOVUPD(col(dotBRows[j], 0), zmm[24+j])
			}
			for i, a := range dotARows {
				// the row's load: Z26-Z29 in turn (nb = 2), Z27-Z31 (nb = 3)
				za := zmm[26+i%4]
				if nb == 3 {
					za = zmm[27+i%5]
				}
				VMOVUPD(col(a, 0), za)
				for j := 0; j < nb; j++ {
					VFMADD231PD(zmm[24+j], za, acc(i, j))
				}
			}
		}
		ADDQ(U32(64), RAX)
	}
	loop := func(name string, pfa, pfb bool) {
		Label(l(name))
		if pfa {
			for _, a := range dotARows {
				PREFETCHT1(col(a, 2048))
			}
		}
		if pfb {
			for _, b := range dotBRows {
				PREFETCHT1(col(b, 2048))
			}
		}
		step()
		CMPQ(RAX, RCX)
		JLT(LabelRef(l(name)))
	}
	if nb == 3 {
		CMPQ(arg(Param("pfa")), Imm(0))
		JNE(LabelRef(l("pfa")))
		CMPQ(arg(Param("pfb")), Imm(0))
		JNE(LabelRef(l("pfb")))
		loop("loop", false, false)
		JMP(LabelRef(l("reduce")))
		Label(l("pfa"))
		CMPQ(arg(Param("pfb")), Imm(0))
		JNE(LabelRef(l("pfab")))
		loop("pfaloop", true, false)
		JMP(LabelRef(l("reduce")))
		loop("pfb", false, true)
		JMP(LabelRef(l("reduce")))
		loop("pfab", true, true)
	} else {
		loop("loop", false, false)
	}

	Label(l("reduce"))
	Comment("the 8 sums of each row of b at once, added to dst")
	Load(Param("dst"), RDI)
	if nb > 1 {
		Load(Param("ldd"), RDX)
		SHLQ(Imm(3), RDX)
	}
	for j := 0; j < nb; j++ {
		m := Mem{Base: RDI}
		if j > 0 {
			m.Index, m.Scale = RDX, uint8(j)
		}
		var x [8]VecPhysical
		for i := range x {
			x[i] = acc(i, j)
		}
		reduce8Add(x, m)
	}
	VZEROUPPER()
	RET()
}

// reduce8Add adds the horizontal sums of the 8 zmm accumulators x to the 8
// float64 at m: m[i] += Σ x[i], the sums by sum8.
func reduce8Add(x [8]VecPhysical, m Mem) {
	s := sum8(x)
	VADDPD(m, s, s)
	VMOVUPD(s, m)
}
