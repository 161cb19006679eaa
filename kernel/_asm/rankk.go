package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The signature of the rank-k updates.
const rankKSig = "func(a []float64, n, rows, cols int, alpha float64, beta, p, q []float64, k int)"

// The registers of the rank-k updates: A's current row and columns (DI),
// NBYTES (R8), q[t][j] (R9), the columns (R10), &coef[k] (R11), p's row
// (R12; row 2 of a group in the 4-row kernels), k (R13), q[0][j] (SI), t−k
// (AX: from −k up to 0, so (R11)(AX*8) is c_t), and the column tail (CX).
var (
	rkA, rkRow, rkQt, rkCols = RDI, R8, R9, R10
	rkCoef, rkP, rkK, rkQ    = R11, R12, R13, RSI
	rkT                      = RAX
)

// rowCoefs stores coef[t] = p[t*n+i]·β[t] for t < k at R11 (&coef[k],
// indexed by AX), with BX = β on entry, then moves R12 to the next row's p.
func rowCoefs(label string) {
	LEAQ(Mem{Base: RBX, Index: rkK, Scale: 8}, RBX)
	MOVQ(rkP, rkQt)
	MOVQ(rkK, rkT)
	NEGQ(rkT)
	Label(label)
	VMOVSD(Mem{Base: rkQt}, X0)
	VMULSD(Mem{Base: RBX, Index: rkT, Scale: 8}, X0, X0)
	VMOVSD(X0, Mem{Base: rkCoef, Index: rkT, Scale: 8})
	ADDQ(rkRow, rkQt)
	INCQ(rkT)
	JNZ(LabelRef(label))
	ADDQ(Imm(8), rkP)
}

// termsStart points R9 at q[0][j] and AX at −k: the terms' loop starts at
// t = 0.
func termsStart() {
	MOVQ(rkQ, rkQt)
	MOVQ(rkK, rkT)
	NEGQ(rkT)
}

// termsNext moves R9 to the next term's row of q and loops to label while t
// < k.
func termsNext(label string) {
	ADDQ(rkRow, rkQt)
	INCQ(rkT)
	JNZ(LabelRef(label))
}

// coefAt is the coefficient c_t of the row whose table starts off bytes
// after R11's.
func coefAt(off int) Mem { return Mem{Base: rkCoef, Disp: off, Index: rkT, Scale: 8} }

// rankK writes the rank-k updates on both paths (the rank-one update's
// file, outer_amd64.s).
func rankK() {
	for _, v := range []isa{avx512, avx2} {
		scaleAddRankK(v)
	}
	scaleAddRankK4AVX512()
	scaleAddRankK4AVX2()
}

// scaleAddRankK writes scaleAddRankK<ISA>: per row i, coef[t] = β[t]·p[t*n+i]
// in the frame, then a[i*n+j] = fma(c_{k−1}, q_{k−1}[j], … fma(c_0, q_0[j],
// α·a[i*n+j])) for j < cols: on AVX-512 64 columns at a time (eight chains,
// the same columns 4 rows down prefetched), then 16, then 8, then the
// masked tail; on AVX2 8, then 4, then the masked tail.
func scaleAddRankK(v isa) {
	op := "rk" + v.label
	l := func(s string) string { return op + "_" + s }
	TEXT(v.fn("scaleAddRankK"), NOSPLIT, rankKSig)
	alpha, c, mask := Z30, Z31, Y12 // mask: AVX2's (AVX-512's is K1)
	if v.lanes == 4 {
		alpha, c = Y14, Y15
		Comment("Per row: 8 columns at a time in Y0, Y1, then 4 in Y0, then the tail",
			"masked by Y12 (set once); Y14 = [α], Y15 = [c_t].")
	} else {
		Comment("The rank-k update: for each row i, the coefficients c_t = p[t*n+i]·β[t]",
			"(t < k ≤ 16) are rounded once into the frame; then for each block of the",
			"cols columns s = α·a[i*n+j], s = fma(c_t, q[t*n+j], s) for t = 0, 1, …,",
			"k−1. Rows of a, p and q are n apart (cols ≤ n: a panel of columns).",
			"Registers: DI the current columns of the current row, DX rows left, R8",
			"NBYTES, R10 cols, R11 &coef[k] indexed by AX = t−k (from −k up to 0),",
			"R12 &p[i], R13 k, SI &q[0][j], R9 &q[t][j] (&p[t][i] for the",
			"coefficients), BX blocks of columns left (&β[k] for the coefficients),",
			"CX the column tail.")
		Comment("Per row: 64 columns at a time in Z0-Z7, then 16 in Z0, Z1, then 8 in Z0,",
			"then the masked tail (K1, set once); Z30 = [α], Z31 = [c_t]. The frame",
			"holds coef[16] and gap = (n − cols)·8, the bytes from the end of a row's",
			"columns to the start of the next.")
	}
	f := newFrame(136)
	coef, gap := f.block(136, 128), f.at(8)
	width := v.bytes()

	Load(Param("a").Base(), rkA)
	Load(Param("n"), rkRow)
	Load(Param("rows"), RDX)
	Load(Param("cols"), RCX)
	VBROADCASTSD(arg(Param("alpha")), alpha)
	Load(Param("p").Base(), rkP)
	Load(Param("k"), rkK)
	LEAQ(coef, rkCoef)
	LEAQ(Mem{Base: rkCoef, Index: rkK, Scale: 8}, rkCoef)
	SHLQ(Imm(3), rkRow)
	MOVQ(RCX, rkCols)
	MOVQ(rkRow, RAX)
	scaleBy8(RCX, RBX)
	SUBQ(RBX, RAX)
	MOVQ(RAX, gap)

	Comment(fmt.Sprintf("CX = cols mod %d: the tail, masked", v.lanes))
	v.colTailMask(l("rows"), mask)

	Label(l("rows"))
	Load(Param("beta").Base(), RBX)
	rowCoefs(l("coefs"))
	Load(Param("q").Base(), rkQ)
	MOVQ(rkCols, RBX)

	// block writes the columns of regs registers: s = α·a[i*n+j : …];
	// for t < k: s = fma(c_t, q_t[j : …], s).
	block := func(regs int, terms string) {
		for i := 0; i < regs; i++ {
			VMULPD(at(rkA, i*width), alpha, v.r(i))
		}
		termsStart()
		Label(terms)
		VBROADCASTSD(coefAt(0), c)
		for i := 0; i < regs; i++ {
			VFMADD231PD(at(rkQt, i*width), c, v.r(i))
		}
		termsNext(terms)
		for i := 0; i < regs; i++ {
			VMOVUPD(v.r(i), at(rkA, i*width))
		}
		ADDQ(U32(regs*width), rkQ)
		ADDQ(U32(regs*width), rkA)
	}

	if v.lanes == 8 {
		SHRQ(Imm(6), RBX)
		JZ(LabelRef(l("sixteen")))
		Label(l("cols64"))
		Comment("The same columns 4 rows down: the panel visits each row of A for",
			"only cols elements, too short a run for the hardware prefetchers.")
		for d := 0; d < 8*width; d += 64 {
			PREFETCHT0(Mem{Base: rkA, Disp: d, Index: rkRow, Scale: 4})
		}
		block(8, l("terms64"))
		DECQ(RBX)
		JNZ(LabelRef(l("cols64")))

		Label(l("sixteen"))
		MOVQ(rkCols, RBX)
		ANDQ(Imm(63), RBX)
		SHRQ(Imm(4), RBX)
	} else {
		SHRQ(Imm(3), RBX)
	}
	JZ(LabelRef(l(v.lanesTag)))
	Label(l("cols"))
	block(2, l(fmt.Sprintf("terms%d", 2*v.lanes)))
	DECQ(RBX)
	JNZ(LabelRef(l("cols")))

	Label(l(v.lanesTag))
	TESTQ(U32(v.lanes), rkCols)
	JZ(LabelRef(l("tail")))
	block(1, l(fmt.Sprintf("terms%d", v.lanes)))

	Label(l("tail"))
	Comment("the last cols mod lanes columns, loads and store masked")
	TESTQ(RCX, RCX)
	JZ(LabelRef(l("next")))
	v.load(Mem{Base: rkA}, mask, v.r(0))
	VMULPD(alpha, v.r(0), v.r(0))
	termsStart()
	Label(l("terms_tail"))
	VBROADCASTSD(coefAt(0), c)
	v.load(Mem{Base: rkQt}, mask, v.r(1))
	VFMADD231PD(v.r(1), c, v.r(0))
	termsNext(l("terms_tail"))
	v.store(v.r(0), mask, Mem{Base: rkA})
	LEAQ(Mem{Base: rkA, Index: RCX, Scale: 8}, rkA)

	Label(l("next"))
	Comment("the next row")
	ADDQ(gap, rkA)
	DECQ(RDX)
	JNZ(LabelRef(l("rows")))
	VZEROUPPER()
	RET()
}

// The frame of the 4-row rank-k updates, by offset below its top: the
// rows' coefficient tables coef[4][16] (128 bytes apart), gap = 4·NBYTES −
// (the columns before the tail)·8 (from the end of a group's columns to the
// next group), p's row pointer while R12 is row 2 (psave), and β (bsave).
const (
	rk4coef  = 520
	rk4gap   = 8
	rk4psave = 528
	rk4bsave = 536
)

// rk4rowAt addresses row r (0-3) of a 4-row group at column offset d: DI,
// DI + NBYTES, R12, R12 + NBYTES.
func rk4rowAt(r, d int) Mem {
	m := Mem{Base: rkA, Disp: d}
	if r >= 2 {
		m.Base = rkP
	}
	if r%2 == 1 {
		m.Index, m.Scale = rkRow, 1
	}
	return m
}

// scaleAddRankK4Start writes the 4-row updates' prologue (tiles of cols
// rounded down to tileCols columns, the tail's mask for lanes) and the
// group's start: its coefficient tables, R12 at row 2, SI at q and BX the
// blocks of the group; it jumps to skip when there are none.
func scaleAddRankK4Start(v isa, f *frame, op string, tileCols int, alpha VecPhysical, skip string) {
	l := func(s string) string { return op + "_" + s }
	Load(Param("beta").Base(), RAX)
	MOVQ(RAX, f.at(rk4bsave))
	Load(Param("a").Base(), rkA)
	Load(Param("n"), rkRow)
	SHLQ(Imm(3), rkRow)
	Load(Param("rows"), RDX)
	Comment("DX = groups of 4 rows")
	SHRQ(Imm(2), RDX)
	VBROADCASTSD(arg(Param("alpha")), alpha)
	Load(Param("p").Base(), rkP)
	Load(Param("k"), rkK)
	Load(Param("cols"), rkCols)
	MOVQ(rkCols, RAX)
	ANDQ(I8(int8(-v.lanes)), RAX)
	SHLQ(Imm(3), RAX)
	MOVQ(rkRow, RBX)
	SHLQ(Imm(2), RBX)
	SUBQ(RAX, RBX)
	MOVQ(RBX, f.at(rk4gap))
	MOVQ(rkCols, RCX)
	Comment(fmt.Sprintf("CX = cols mod %d: the tail, masked", v.lanes))
	v.colTailMask(l("nomask"), Y12)

	Label(l("nomask"))
	Comment(fmt.Sprintf("R10 = blocks of %d columns", tileCols))
	SHRQ(Imm(log2(tileCols)), rkCols)

	Label(l("group"))
	Comment("coef[r*16 + t] = β[t]·p[t*n + i+r] for the 4 rows r, t < k; R12 moves",
		"on 4 rows, then holds row 2 (p's pointer waits in the frame)")
	LEAQ(f.block(rk4coef, 512), rkCoef)
	LEAQ(Mem{Base: rkCoef, Index: rkK, Scale: 8}, rkCoef)
	for r := 0; r < 4; r++ {
		if r > 0 {
			ADDQ(U32(128), rkCoef)
		}
		MOVQ(f.at(rk4bsave), RBX)
		rowCoefs(l(fmt.Sprintf("coefs%d", r)))
	}
	SUBQ(U32(384), rkCoef)
	MOVQ(rkP, f.at(rk4psave))
	LEAQ(Mem{Base: rkA, Index: rkRow, Scale: 2}, rkP)
	Load(Param("q").Base(), rkQ)
	MOVQ(rkCols, RBX)
	TESTQ(RBX, RBX)
	JZ(LabelRef(skip))
}

// scaleAddRankK4End writes the 4-row updates' step to the next group and
// the return.
func scaleAddRankK4End(f *frame, op string) {
	Label(op + "_next")
	MOVQ(f.at(rk4psave), rkP)
	ADDQ(f.at(rk4gap), rkA)
	DECQ(RDX)
	JNZ(LabelRef(op + "_group"))
	VZEROUPPER()
	RET()
}

// rk4advance moves the group's three column pointers on by d bytes.
func rk4advance(d int) {
	for _, r := range []GPPhysical{rkQ, rkA, rkP} {
		ADDQ(U32(d), r)
	}
}

// scaleAddRankK4AVX512 writes scaleAddRankK4AVX512: scaleAddRankKAVX512
// for rows a multiple of 4 in register tiles of 4 rows × 32 columns.
func scaleAddRankK4AVX512() {
	const op = "rk4"
	l := func(s string) string { return op + "_" + s }
	TEXT("scaleAddRankK4AVX512", NOSPLIT, rankKSig)
	Comment("scaleAddRankKAVX512 for rows a multiple of 4: register tiles of 4 rows ×",
		"32 columns (16 accumulators), so that each term's 4 registers of q serve",
		"4 rows (8 loads for 16 FMAs, against 9 for 8 row by row); the columns",
		"past the last block of 32 in tiles of 4 rows × 8 and a masked tail (K1).",
		"The same operations in the same order per element: the same bits.",
		"Z30 = [α], Z0-Z15 the tile (row r in Z4r-Z4r+3), Z16-Z19 q_t's 32",
		"columns, Z20-Z23 the rows' c_t.")
	f := newFrame(536)
	scaleAddRankK4Start(avx512, f, op, 32, Z30, l("eights"))

	// terms4 adds c_t·q_t to the 4 rows' accumulator of each column
	// register i < regs: q_t's registers in Z16…, each row's c_t broadcast
	// from its table into Z20+r.
	terms4 := func(regs int) {
		for r := 0; r < 4; r++ {
			VBROADCASTSD(coefAt(128*r), zmm[20+r])
			for i := 0; i < regs; i++ {
				VFMADD231PD(zmm[16+i], zmm[20+r], zmm[4*r+i])
			}
		}
	}

	Label(l("cols"))
	for r := 0; r < 4; r++ {
		for i := 0; i < 4; i++ {
			VMULPD(rk4rowAt(r, 64*i), Z30, zmm[4*r+i])
		}
	}
	Comment("the same columns of the next 4 rows, two rows at a time")
	for _, base := range []GPPhysical{rkA, rkP} {
		LEAQ(Mem{Base: base, Index: rkRow, Scale: 4}, rkQt)
		for _, idx := range []bool{false, true} {
			for d := 0; d < 256; d += 64 {
				m := Mem{Base: rkQt, Disp: d}
				if idx {
					m.Index, m.Scale = rkRow, 1
				}
				PREFETCHT0(m)
			}
		}
	}
	termsStart()
	Label(l("terms"))
	for i := 0; i < 4; i++ {
		VMOVUPD(at(rkQt, 64*i), zmm[16+i])
	}
	terms4(4)
	termsNext(l("terms"))
	for r := 0; r < 4; r++ {
		for i := 0; i < 4; i++ {
			VMOVUPD(zmm[4*r+i], rk4rowAt(r, 64*i))
		}
	}
	rk4advance(256)
	DECQ(RBX)
	JNZ(LabelRef(l("cols")))

	Label(l("eights"))
	Comment("The columns left: blocks of 8 (one register a row), then the",
		"masked tail.")
	Load(Param("cols"), RBX)
	ANDQ(Imm(31), RBX)
	SHRQ(Imm(3), RBX)
	JZ(LabelRef(l("tail")))
	Label(l("eight"))
	for r := 0; r < 4; r++ {
		VMULPD(rk4rowAt(r, 0), Z30, zmm[4*r])
	}
	termsStart()
	Label(l("terms8"))
	VMOVUPD(Mem{Base: rkQt}, Z16)
	terms4(1)
	termsNext(l("terms8"))
	for r := 0; r < 4; r++ {
		VMOVUPD(zmm[4*r], rk4rowAt(r, 0))
	}
	rk4advance(64)
	DECQ(RBX)
	JNZ(LabelRef(l("eight")))

	Label(l("tail"))
	TESTQ(RCX, RCX)
	JZ(LabelRef(l("next")))
	for r := 0; r < 4; r++ {
		VMOVUPD_Z(rk4rowAt(r, 0), K1, zmm[4*r])
	}
	for r := 0; r < 4; r++ {
		VMULPD(Z30, zmm[4*r], zmm[4*r])
	}
	termsStart()
	Label(l("terms_tail"))
	VMOVUPD_Z(Mem{Base: rkQt}, K1, Z16)
	terms4(1)
	termsNext(l("terms_tail"))
	for r := 0; r < 4; r++ {
		VMOVUPD(zmm[4*r], K1, rk4rowAt(r, 0))
	}
	scaleAddRankK4End(f, op)
}

// scaleAddRankK4AVX2 writes scaleAddRankK4AVX2: scaleAddRankKAVX2 for rows
// a multiple of 4 in register tiles of 4 rows × 8 columns.
func scaleAddRankK4AVX2() {
	const op = "rk4y"
	l := func(s string) string { return op + "_" + s }
	TEXT("scaleAddRankK4AVX2", NOSPLIT, rankKSig)
	Comment("scaleAddRankKAVX2 for rows a multiple of 4 (≥ 4): register tiles of 4",
		"rows × 8 columns (8 accumulators: eight independent chains of fused",
		"multiply-adds where a row alone has two), then 4 × 4 and the masked tail",
		"(Y12). The same operations in the same order per element: the same bits.",
		"The registers and the frame as in scaleAddRankK4AVX512, with R10 the",
		"blocks of 8 columns, Y14 = [α], Y0-Y7 the tile (row r in Y2r, Y2r+1),",
		"Y8-Y9 q_t's columns and Y10, Y11, Y13, Y15 the rows' c_t.")
	f := newFrame(536)
	scaleAddRankK4Start(avx2, f, op, 8, Y14, l("four"))
	cs := []VecPhysical{Y10, Y11, Y13, Y15}

	// terms4 adds c_t·q to the 4 rows' first accumulators (4 columns of q_t
	// in Y8; each row's c_t broadcast from its table).
	terms4 := func() {
		for r := 0; r < 4; r++ {
			VBROADCASTSD(coefAt(128*r), cs[r])
			VFMADD231PD(Y8, cs[r], ymm[2*r])
		}
	}

	Label(l("cols"))
	for r := 0; r < 4; r++ {
		for i := 0; i < 2; i++ {
			VMULPD(rk4rowAt(r, 32*i), Y14, ymm[2*r+i])
		}
	}
	termsStart()
	Label(l("terms8"))
	VMOVUPD(Mem{Base: rkQt}, Y8)
	VMOVUPD(at(rkQt, 32), Y9)
	terms4()
	for r := 0; r < 4; r++ {
		VFMADD231PD(Y9, cs[r], ymm[2*r+1])
	}
	termsNext(l("terms8"))
	for r := 0; r < 4; r++ {
		for i := 0; i < 2; i++ {
			VMOVUPD(ymm[2*r+i], rk4rowAt(r, 32*i))
		}
	}
	rk4advance(64)
	DECQ(RBX)
	JNZ(LabelRef(l("cols")))

	Label(l("four"))
	Load(Param("cols"), RBX)
	TESTQ(U32(4), RBX)
	JZ(LabelRef(l("tail")))
	for r := 0; r < 4; r++ {
		VMULPD(rk4rowAt(r, 0), Y14, ymm[2*r])
	}
	termsStart()
	Label(l("terms4"))
	VMOVUPD(Mem{Base: rkQt}, Y8)
	terms4()
	termsNext(l("terms4"))
	for r := 0; r < 4; r++ {
		VMOVUPD(ymm[2*r], rk4rowAt(r, 0))
	}
	rk4advance(32)

	Label(l("tail"))
	TESTQ(RCX, RCX)
	JZ(LabelRef(l("next")))
	for r := 0; r < 4; r++ {
		VMASKMOVPD(rk4rowAt(r, 0), Y12, ymm[2*r])
	}
	for r := 0; r < 4; r++ {
		VMULPD(Y14, ymm[2*r], ymm[2*r])
	}
	termsStart()
	Label(l("terms_tail"))
	VMASKMOVPD(Mem{Base: rkQt}, Y12, Y8)
	terms4()
	termsNext(l("terms_tail"))
	for r := 0; r < 4; r++ {
		VMASKMOVPD(ymm[2*r], Y12, rk4rowAt(r, 0))
	}
	scaleAddRankK4End(f, op)
}
