package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// lowRankAVX2 writes the AVX2+FMA kernels of the low-rank sampling
// (lowrank_avx2_amd64.s): combineRows4, 1 and 6. The 4-row dot-product
// tiles are in dotrows4_amd64.s (dotRows).
func lowRankAVX2() {
	combineRowsAVX2(combine4AVX2)
	combineRow1AVX2()
	combineRowsAVX2(combine6AVX2)
}

// combineAVX2 is what differs between the 4- and 6-row tiles of the AVX2
// combineRows: the registers of a term's p (two, for 8 columns), of the
// rows' coefficients (broadcast in turn) and of σ, and whether the tile
// takes the walk of the next block's panel, the requests for z and the
// non-temporal stores (the 6-row one, which the limited memory uses for
// its large blocks).
type combineAVX2 struct {
	rows   int
	p      []VecPhysical
	coef   []VecPhysical
	sigma  VecPhysical
	stream bool
}

var (
	combine4AVX2 = combineAVX2{rows: 4, p: []VecPhysical{Y8, Y9}, coef: []VecPhysical{Y10}, sigma: Y10}
	combine6AVX2 = combineAVX2{rows: 6, p: []VecPhysical{Y12, Y13}, coef: []VecPhysical{Y14, Y15}, sigma: Y14, stream: true}
)

// combineRowsAVX2 writes combineRows4AVX2 or combineRows6AVX2: for the rows
// r (stride apart) and j < cols, with the coefficients c[t*rows+r]
// (transposed), u = first ? s[j]·z_r[j] : x_r[j], then u = fma(c[t*rows+r],
// p_t[j], u) for t < kp, and x_r[j] = last ? fma(σ, u, m[j]) : u; 8 columns
// a step (two ymm a row), then 4.
func combineRowsAVX2(t combineAVX2) {
	op := fmt.Sprintf("cr%d", t.rows)
	l := func(s string) string { return op + "_" + s }
	sig := combineSigNoWalk
	if t.stream {
		sig = combineSig
	}
	TEXT(fmt.Sprintf("combineRows%dAVX2", t.rows), NOSPLIT, sig)
	if t.rows == 4 {
		Comment("For the 4 rows r (stride apart) and j < cols, with the coefficients",
			"c[t*4+r] (transposed):",
			"",
			"	u = first ? s[j]·z_r[j] : x_r[j]",
			"	u = fma(c[t*4+r], p_t[j], u)   for t < kp, p_t = p + t·stride",
			"	x_r[j] = last ? fma(σ, u, m[j]) : u",
			"",
			"8 columns a step (two ymm a row), then 4.")
	} else {
		Comment("combineRows4AVX2 for 6 rows (coefficients c[t*6+r]): 12 accumulators of",
			"6 rows × 8 columns, so that two fused multiply-adds of each row's chain",
			"are in flight at once while a term's 8 columns of p are loaded once for",
			"6 rows; then 6 rows × 4 columns. The 8-column steps that start a group",
			"of 32 columns (the steps of combineRows6AVX512) take its walk and its",
			"requests for z: with pfp non-nil each of their term steps asks L2 for",
			"the next cache line of the walk (pfp, pfleft and pfw as there), and",
			"each asks L1 for the 6 rows of z 1 KiB on. With nt set (x and its row",
			"stride 64-byte aligned) the 8-column steps write x with non-temporal",
			"stores, and an SFENCE ends the call.")
	}
	eachRow := func(f func(r int)) {
		for r := 0; r < t.rows; r++ {
			f(r)
		}
	}
	// acc is the accumulator of row r's columns 4h to 4h+3.
	acc := func(r, h int) VecPhysical { return ymm[2*r+h] }
	rowAt := func(r, h int) Mem { m := combineRow(r); m.Disp = 32 * h; return m }
	rowPointers := func() {
		ADDQ(RAX, RBX)
		LEAQ(Mem{Base: RBX, Index: R8, Scale: 2}, RSI)
		if t.rows == 6 {
			LEAQ(Mem{Base: RSI, Index: R8, Scale: 2}, RDX)
		}
	}
	cols := func(h int) Mem { return Mem{Base: RBX, Disp: 32 * h, Index: RAX, Scale: 1} }

	// steps writes the steps of 4·halves columns (halves 2 or 1) at the
	// labels named by width: the 8-column steps loop while 8 columns are
	// left, then go on at next (the 4-column step, which the caller labels);
	// the 4-column step runs once if 4 are left, else goes on at next (the
	// end). BX holds the bytes left.
	steps := func(halves int, width, next string) {
		w := func(s string) string { return l(s + width) }
		walk := t.stream && halves == 2
		if halves == 2 {
			Label(w("loop"))
			MOVQ(R9, RBX)
			SUBQ(RAX, RBX)
			CMPQ(RBX, U32(64))
		} else {
			CMPQ(RBX, Imm(32))
		}
		JLT(LabelRef(l(next)))
		combineFrom(w("init"))
		rowPointers()
		if walk {
			TESTQ(R12, R12)
			JZ(LabelRef(w("load")))
			TESTQ(U32(255), RAX)
			JNZ(LabelRef(w("load")))
			eachRow(func(r int) {
				m := combineRow(r)
				m.Disp = 1024
				for i := 0; i < 4; i++ {
					PREFETCHT0(at4(m, i))
				}
			})
			Label(w("load"))
		}
		eachRow(func(r int) {
			for h := 0; h < halves; h++ {
				VMOVUPD(rowAt(r, h), acc(r, h))
			}
		})
		CMPB(arg(Param("first")), Imm(0))
		JE(LabelRef(w("terms") + "_start"))
		Load(Param("s"), RBX)
		for h := 0; h < halves; h++ {
			VMOVUPD(cols(h), t.p[h])
		}
		eachRow(func(r int) {
			for h := 0; h < halves; h++ {
				VMULPD(t.p[h], acc(r, h), acc(r, h))
			}
		})

		Label(w("terms") + "_start")
		combineTerms(w("fin"))
		term := func() {
			for h := 0; h < halves; h++ {
				VMOVUPD(Mem{Base: RCX, Disp: 32 * h}, t.p[h])
			}
			eachRow(func(r int) {
				b := t.coef[r%len(t.coef)]
				VBROADCASTSD(Mem{Base: RDI, Disp: 8 * r}, b)
				for h := 0; h < halves; h++ {
					VFMADD231PD(t.p[h], b, acc(r, h))
				}
			})
			ADDQ(R8, RCX)
			ADDQ(U32(8*t.rows), RDI)
			DECQ(R10)
		}
		if walk {
			TESTQ(R12, R12)
			JZ(LabelRef(w("terms")))
			TESTQ(U32(255), RAX)
			JNZ(LabelRef(w("terms")))
			Label(w("terms") + "_pf")
			combineWalk(l("pf_term"))
			term()
			JNZ(LabelRef(w("terms") + "_pf"))
			JMP(LabelRef(w("fin")))
		}
		Label(w("terms"))
		term()
		JNZ(LabelRef(w("terms")))

		Label(w("fin"))
		CMPB(arg(Param("last")), Imm(0))
		JE(LabelRef(w("store")))
		Load(Param("m"), RBX)
		for h := 0; h < halves; h++ {
			VMOVUPD(cols(h), t.p[h])
		}
		VBROADCASTSD(arg(Param("sigma")), t.sigma)
		eachRow(func(r int) {
			for h := 0; h < halves; h++ {
				VFMADD213PD(t.p[h], t.sigma, acc(r, h))
			}
		})

		Label(w("store"))
		Load(Param("x"), RBX)
		rowPointers()
		store := func(nt bool) {
			eachRow(func(r int) {
				for h := 0; h < halves; h++ {
					if nt {
						VMOVNTPD(acc(r, h), rowAt(r, h))
						continue
					}
					VMOVUPD(acc(r, h), rowAt(r, h))
				}
			})
		}
		if !walk {
			store(false)
		} else {
			CMPB(arg(Param("nt")), Imm(0))
			JE(LabelRef(l("st8")))
			store(true)
			JMP(LabelRef(l("next8")))
			Label(l("st8"))
			store(false)
			Label(l("next8"))
		}
		if halves == 2 {
			ADDQ(U32(64), RAX)
			JMP(LabelRef(w("loop")))
		}
	}
	combineStart(t.stream)
	steps(2, "8", "four")
	Label(l("four"))
	steps(1, "4", "done")

	if t.stream {
		combineEndStream(l("done"), l("ret"))
		return
	}
	combineEnd(l("done"))
}

// combineRow1AVX2 writes combineRows1AVX2: combineRows4AVX2 for one row,
// its coefficients c[t] contiguous, 16 columns a step (four ymm), then 4.
func combineRow1AVX2() {
	const op = "cr1"
	l := func(s string) string { return op + "_" + s }
	TEXT("combineRows1AVX2", NOSPLIT, combineSigNoWalk)
	Comment("combineRows4AVX2 for one row, with its coefficients c[t] contiguous: 16",
		"columns a step (four ymm), then 4.")
	combineStart(false)
	col := func(base Register, i int) Mem { return Mem{Base: base, Disp: 32 * i, Index: RAX, Scale: 1} }

	// steps writes the loop of n registers of 4 columns (4 or 1) a step at
	// the label loop (its other labels named by width), while n registers
	// are left; then it goes on at next.
	steps := func(n int, width, loop, next string) {
		w := func(s string) string { return l(s + width) }
		Label(l(loop))
		MOVQ(R9, RBX)
		SUBQ(RAX, RBX)
		CMPQ(RBX, U32(32*n))
		JLT(LabelRef(l(next)))
		combineFrom(w("init"))
		for i := 0; i < n; i++ {
			VMOVUPD(col(RBX, i), ymm[i])
		}
		CMPB(arg(Param("first")), Imm(0))
		JE(LabelRef(w("terms") + "_start"))
		Load(Param("s"), RBX)
		for i := 0; i < n; i++ {
			VMULPD(col(RBX, i), ymm[i], ymm[i])
		}
		Label(w("terms") + "_start")
		combineTerms(w("fin"))
		Label(w("terms"))
		VBROADCASTSD(Mem{Base: RDI}, Y10)
		for i := 0; i < n; i++ {
			VFMADD231PD(Mem{Base: RCX, Disp: 32 * i}, Y10, ymm[i])
		}
		ADDQ(R8, RCX)
		ADDQ(Imm(8), RDI)
		DECQ(R10)
		JNZ(LabelRef(w("terms")))
		Label(w("fin"))
		CMPB(arg(Param("last")), Imm(0))
		JE(LabelRef(w("store")))
		Load(Param("m"), RBX)
		VBROADCASTSD(arg(Param("sigma")), Y10)
		for i := 0; i < n; i++ {
			VFMADD213PD(col(RBX, i), Y10, ymm[i])
		}
		Label(w("store"))
		Load(Param("x"), RBX)
		for i := 0; i < n; i++ {
			VMOVUPD(ymm[i], col(RBX, i))
		}
		ADDQ(U32(32*n), RAX)
		JMP(LabelRef(l(loop)))
	}
	steps(4, "16", "loop16", "four")
	steps(1, "4", "four", "done")
	combineEnd(l("done"))
}
