//go:build gc && !purego

#include "textflag.h"

// NEON kernels; the Go declarations and contracts are in kernel_arm64.go.
//
// A register Vn.D2 holds two float64 lanes; Fn is lane 0 of Vn, and a scalar
// load into Fn zeroes lane 1. The assembler has no vector FADD or FMUL, so
// both are VFMLA with a constant: fma(1, b, a) = a+b (ONE = [1, 1]) and
// fma(m, x, −0) = m·x (NZ = [−0, −0]; −0 is the identity of addition). Each is
// one rounding, the same bits as FADD and FMUL.
//
// Dot products accumulate pairs of columns in the two lanes of a D2
// accumulator; an odd last column is loaded as [x, 0] and so adds 0·0 to
// lane 1. At the end the lanes are added: c[0]+c[1].

// General registers.
#define PY     R0   // y (output of the tiles; y of dot and axpby)
#define PD     R1   // dst of axpby (PA0 elsewhere)
#define PA0    R1   // rows of a (a in scaleAddOuter)
#define PA1    R2
#define PA2    R3
#define PA3    R4
#define PX0    R5   // vectors of x (x in dot, axpby, scale)
#define PX1    R6
#define PX2    R7
#define PX3    R8
#define N      R9   // n, the length
#define CNT    R10  // loop counter
#define STRIDE R11  // n*8, the bytes between rows of a and vectors of x, y
#define ROWS   R12
#define PP     R13  // p
#define PV     R14  // v[j:]
#define PV0    R15  // v
#define TMP    R19  // loading constants
#define PQ0    R20  // q (scaleAddRankK)
#define PQ     R21  // q[t*n+j:] (p[t*n+i:] for the coefficients)
#define PCF    R22  // the coefficients of a row, in the frame
#define PCT    R23  // the coefficient of term t
#define K      R24  // k, the number of terms
#define TCNT   R25  // terms left
#define GAP    R6   // (n − cols)·8 (scaleAddRankK; PX1 elsewhere)

// Vector registers. Names that share a register are used in different
// functions.
#define A0     V0   // columns of a (a in scaleAddOuter)
#define A1     V1
#define A2     V2
#define A3     V3
#define X0     V4   // columns of x (v in scaleAddOuter)
#define X1     V5
#define X2     V6
#define X3     V7
#define B0     V8   // columns of rows 1 and 3 of a (tile4x1)
#define B1     V9
#define B2     V10
#define B3     V11
#define Y0     V8   // y (dot, axpby)
#define Y1     V9
#define Y2     V10
#define Y3     V11
#define S01    V12  // row sums: [y0, y1]
#define S23    V13  // [y2, y3]
#define H      V14  // high lanes
#define ONE    V15  // [1, 1]
#define ALPHA  V12  // [α, α]
#define BETA   V13  // [β, β]
#define NZ     V14  // [−0, −0]
#define S      V15  // [β·p[i], β·p[i]]
#define C00    V16  // accumulators Cij: tile4x4 row i, vector j;
#define C01    V17  // tile4x1 and dot row i, accumulator j
#define C02    V18
#define C03    V19
#define C10    V20
#define C11    V21
#define C12    V22
#define C13    V23
#define C20    V24
#define C21    V25
#define C22    V26
#define C23    V27
#define C30    V28
#define C31    V29
#define C32    V30
#define C33    V31
#define T0     V16  // results (axpby, scale, scaleAddOuter)
#define T1     V17
#define T2     V18
#define T3     V19

// Lane 0 of the vector registers above.
#define FA0    F0
#define FA1    F1
#define FA2    F2
#define FA3    F3
#define FX0    F4
#define FX1    F5
#define FX2    F6
#define FX3    F7
#define FY0    F8
#define FH     F14
#define FONE   F15
#define FALPHA F12
#define FBETA  F13
#define FS     F15
#define FC00   F16

// ZERO4: c0..c3 = 0.
#define ZERO4(c0, c1, c2, c3) \
	VEOR c0.B16, c0.B16, c0.B16; \
	VEOR c1.B16, c1.B16, c1.B16; \
	VEOR c2.B16, c2.B16, c2.B16; \
	VEOR c3.B16, c3.B16, c3.B16

// DOT4: c_k += X_k·u_k for k < 4.
#define DOT4(u0, u1, u2, u3, c0, c1, c2, c3) \
	VFMLA X0.D2, u0.D2, c0.D2; \
	VFMLA X1.D2, u1.D2, c1.D2; \
	VFMLA X2.D2, u2.D2, c2.D2; \
	VFMLA X3.D2, u3.D2, c3.D2

// OUTER4: c_j += X_j·u for j < 4 (one row of a against four vectors).
#define OUTER4(u, c0, c1, c2, c3) DOT4(u, u, u, u, c0, c1, c2, c3)

// SUM4: c0 = (c0+c1) + (c2+c3).
#define SUM4(c0, c1, c2, c3) \
	VFMLA ONE.D2, c1.D2, c0.D2; \
	VFMLA ONE.D2, c3.D2, c2.D2; \
	VFMLA ONE.D2, c2.D2, c0.D2

// ROWSUMS: S01 = [c0[0]+c0[1], c1[0]+c1[1]], S23 likewise for c2, c3.
#define ROWSUMS(c0, c1, c2, c3) \
	VZIP1 c1.D2, c0.D2, S01.D2; \
	VZIP2 c1.D2, c0.D2, H.D2; \
	VFMLA ONE.D2, H.D2, S01.D2; \
	VZIP1 c3.D2, c2.D2, S23.D2; \
	VZIP2 c3.D2, c2.D2, H.D2; \
	VFMLA ONE.D2, H.D2, S23.D2

// MUL: t = m·x.
#define MUL(m, x, t) \
	VMOV NZ.B16, t.B16; \
	VFMLA m.D2, x.D2, t.D2

// LOADONE: ONE = [1, 1].
#define LOADONE \
	FMOVD $(1.0), FONE; \
	VDUP ONE.D[0], ONE.D2

// LOADNZ: NZ = [−0, −0].
#define LOADNZ \
	MOVD $0x8000000000000000, TMP; \
	VDUP TMP, NZ.D2

// func tile4x4NEON(y, a, x []float64, n int)
TEXT ·tile4x4NEON(SB), NOSPLIT, $0-80
	MOVD y_base+0(FP), PY
	MOVD a_base+24(FP), PA0
	MOVD x_base+48(FP), PX0
	MOVD n+72(FP), N
	LSL  $3, N, STRIDE
	ADD  STRIDE, PA0, PA1
	ADD  STRIDE, PA1, PA2
	ADD  STRIDE, PA2, PA3
	ADD  STRIDE, PX0, PX1
	ADD  STRIDE, PX1, PX2
	ADD  STRIDE, PX2, PX3
	ZERO4(C00, C01, C02, C03)
	ZERO4(C10, C11, C12, C13)
	ZERO4(C20, C21, C22, C23)
	ZERO4(C30, C31, C32, C33)
	LSR  $1, N, CNT
	CBZ  CNT, odd

	// for each pair of columns c: Cij += a[i*n+c:][:2]·x[j*n+c:][:2]
pairs:
	VLD1.P 16(PA0), [A0.D2]
	VLD1.P 16(PA1), [A1.D2]
	VLD1.P 16(PA2), [A2.D2]
	VLD1.P 16(PA3), [A3.D2]
	VLD1.P 16(PX0), [X0.D2]
	VLD1.P 16(PX1), [X1.D2]
	VLD1.P 16(PX2), [X2.D2]
	VLD1.P 16(PX3), [X3.D2]
	OUTER4(A0, C00, C01, C02, C03)
	OUTER4(A1, C10, C11, C12, C13)
	OUTER4(A2, C20, C21, C22, C23)
	OUTER4(A3, C30, C31, C32, C33)
	SUBS $1, CNT
	BNE  pairs

	// odd n: the last column, as [a, 0] and [x, 0]
odd:
	TBZ   $0, N, sum
	FMOVD (PA0), FA0
	FMOVD (PA1), FA1
	FMOVD (PA2), FA2
	FMOVD (PA3), FA3
	FMOVD (PX0), FX0
	FMOVD (PX1), FX1
	FMOVD (PX2), FX2
	FMOVD (PX3), FX3
	OUTER4(A0, C00, C01, C02, C03)
	OUTER4(A1, C10, C11, C12, C13)
	OUTER4(A2, C20, C21, C22, C23)
	OUTER4(A3, C30, C31, C32, C33)

	// for j < 4: y[j*n:][:4] = lane sums of C0j..C3j
sum:
	LOADONE
	ROWSUMS(C00, C10, C20, C30)
	VST1.P [S01.D2, S23.D2], (PY)(STRIDE)
	ROWSUMS(C01, C11, C21, C31)
	VST1.P [S01.D2, S23.D2], (PY)(STRIDE)
	ROWSUMS(C02, C12, C22, C32)
	VST1.P [S01.D2, S23.D2], (PY)(STRIDE)
	ROWSUMS(C03, C13, C23, C33)
	VST1   [S01.D2, S23.D2], (PY)
	RET

// func tile4x1NEON(y, a, x []float64, n int)
//
// Each row is summed as in dotNEON.
TEXT ·tile4x1NEON(SB), NOSPLIT, $0-80
	MOVD y_base+0(FP), PY
	MOVD a_base+24(FP), PA0
	MOVD x_base+48(FP), PX0
	MOVD n+72(FP), N
	LSL  $3, N, STRIDE
	ADD  STRIDE, PA0, PA1
	ADD  STRIDE, PA1, PA2
	ADD  STRIDE, PA2, PA3
	ZERO4(C00, C01, C02, C03)
	ZERO4(C10, C11, C12, C13)
	ZERO4(C20, C21, C22, C23)
	ZERO4(C30, C31, C32, C33)
	LSR  $3, N, CNT
	CBZ  CNT, tail4

	// for each block of 8 columns c: Cik += a[i*n+c+2k:][:2]·x[c+2k:][:2]
loop8:
	VLD1.P 64(PX0), [X0.D2, X1.D2, X2.D2, X3.D2]
	VLD1.P 64(PA0), [A0.D2, A1.D2, A2.D2, A3.D2]
	VLD1.P 64(PA1), [B0.D2, B1.D2, B2.D2, B3.D2]
	DOT4(A0, A1, A2, A3, C00, C01, C02, C03)
	DOT4(B0, B1, B2, B3, C10, C11, C12, C13)
	VLD1.P 64(PA2), [A0.D2, A1.D2, A2.D2, A3.D2]
	VLD1.P 64(PA3), [B0.D2, B1.D2, B2.D2, B3.D2]
	DOT4(A0, A1, A2, A3, C20, C21, C22, C23)
	DOT4(B0, B1, B2, B3, C30, C31, C32, C33)
	SUBS $1, CNT
	BNE  loop8

	// 4 more columns: into Ci0, Ci1
tail4:
	TBZ    $2, N, tail2
	VLD1.P 32(PX0), [X0.D2, X1.D2]
	VLD1.P 32(PA0), [A0.D2, A1.D2]
	VLD1.P 32(PA1), [B0.D2, B1.D2]
	VLD1.P 32(PA2), [A2.D2, A3.D2]
	VLD1.P 32(PA3), [B2.D2, B3.D2]
	VFMLA  X0.D2, A0.D2, C00.D2
	VFMLA  X1.D2, A1.D2, C01.D2
	VFMLA  X0.D2, B0.D2, C10.D2
	VFMLA  X1.D2, B1.D2, C11.D2
	VFMLA  X0.D2, A2.D2, C20.D2
	VFMLA  X1.D2, A3.D2, C21.D2
	VFMLA  X0.D2, B2.D2, C30.D2
	VFMLA  X1.D2, B3.D2, C31.D2

	// 2 more columns: into Ci2
tail2:
	TBZ    $1, N, tail1
	VLD1.P 16(PX0), [X0.D2]
	VLD1.P 16(PA0), [A0.D2]
	VLD1.P 16(PA1), [A1.D2]
	VLD1.P 16(PA2), [A2.D2]
	VLD1.P 16(PA3), [A3.D2]
	VFMLA  X0.D2, A0.D2, C02.D2
	VFMLA  X0.D2, A1.D2, C12.D2
	VFMLA  X0.D2, A2.D2, C22.D2
	VFMLA  X0.D2, A3.D2, C32.D2

	// the last column, as [a, 0] and [x, 0]: into Ci3
tail1:
	TBZ   $0, N, sum
	FMOVD (PX0), FX0
	FMOVD (PA0), FA0
	FMOVD (PA1), FA1
	FMOVD (PA2), FA2
	FMOVD (PA3), FA3
	VFMLA X0.D2, A0.D2, C03.D2
	VFMLA X0.D2, A1.D2, C13.D2
	VFMLA X0.D2, A2.D2, C23.D2
	VFMLA X0.D2, A3.D2, C33.D2

	// y[i] = lane sum of (Ci0+Ci1) + (Ci2+Ci3)
sum:
	LOADONE
	SUM4(C00, C01, C02, C03)
	SUM4(C10, C11, C12, C13)
	SUM4(C20, C21, C22, C23)
	SUM4(C30, C31, C32, C33)
	ROWSUMS(C00, C10, C20, C30)
	VST1 [S01.D2, S23.D2], (PY)
	RET

// func dotNEON(x, y []float64) float64
TEXT ·dotNEON(SB), NOSPLIT, $0-56
	MOVD x_base+0(FP), PX0
	MOVD x_len+8(FP), N
	MOVD y_base+24(FP), PY
	ZERO4(C00, C01, C02, C03)
	LSR  $3, N, CNT
	CBZ  CNT, tail4

	// for each block of 8: C0k += x[i+2k:][:2]·y[i+2k:][:2]
loop8:
	VLD1.P 64(PX0), [X0.D2, X1.D2, X2.D2, X3.D2]
	VLD1.P 64(PY), [Y0.D2, Y1.D2, Y2.D2, Y3.D2]
	DOT4(Y0, Y1, Y2, Y3, C00, C01, C02, C03)
	SUBS $1, CNT
	BNE  loop8

	// 4 more: into C00, C01
tail4:
	TBZ    $2, N, tail2
	VLD1.P 32(PX0), [X0.D2, X1.D2]
	VLD1.P 32(PY), [Y0.D2, Y1.D2]
	VFMLA  X0.D2, Y0.D2, C00.D2
	VFMLA  X1.D2, Y1.D2, C01.D2

	// 2 more: into C02
tail2:
	TBZ    $1, N, tail1
	VLD1.P 16(PX0), [X0.D2]
	VLD1.P 16(PY), [Y0.D2]
	VFMLA  X0.D2, Y0.D2, C02.D2

	// the last, as [x, 0] and [y, 0]: into C03
tail1:
	TBZ   $0, N, sum
	FMOVD (PX0), FX0
	FMOVD (PY), FY0
	VFMLA X0.D2, Y0.D2, C03.D2

	// return lane sum of (C00+C01) + (C02+C03)
sum:
	LOADONE
	SUM4(C00, C01, C02, C03)
	VDUP  C00.D[1], H  // FH = C00[1]
	FADDD FH, FC00
	FMOVD FC00, ret+48(FP)
	RET

// func axpbyNEON(dst []float64, alpha float64, x []float64, beta float64, y []float64)
TEXT ·axpbyNEON(SB), NOSPLIT, $0-88
	MOVD dst_base+0(FP), PD
	MOVD alpha+24(FP), TMP
	VDUP TMP, ALPHA.D2
	MOVD beta+56(FP), TMP
	VDUP TMP, BETA.D2
	LOADNZ
	MOVD x_base+32(FP), PX0
	MOVD x_len+40(FP), N
	MOVD y_base+64(FP), PY
	LSR  $3, N, CNT
	CBZ  CNT, pairs

	// for each block of 8: dst[i:i+8] = fma(α, x[i:i+8], β·y[i:i+8])
loop8:
	VLD1.P 64(PX0), [X0.D2, X1.D2, X2.D2, X3.D2]
	VLD1.P 64(PY), [Y0.D2, Y1.D2, Y2.D2, Y3.D2]
	MUL(BETA, Y0, T0)
	MUL(BETA, Y1, T1)
	MUL(BETA, Y2, T2)
	MUL(BETA, Y3, T3)
	VFMLA  ALPHA.D2, X0.D2, T0.D2
	VFMLA  ALPHA.D2, X1.D2, T1.D2
	VFMLA  ALPHA.D2, X2.D2, T2.D2
	VFMLA  ALPHA.D2, X3.D2, T3.D2
	VST1.P [T0.D2, T1.D2, T2.D2, T3.D2], 64(PD)
	SUBS   $1, CNT
	BNE    loop8

	// the remaining pairs (up to 3)
pairs:
	AND  $7, N, CNT
	LSR  $1, CNT
	CBZ  CNT, odd

loop2:
	VLD1.P 16(PX0), [X0.D2]
	VLD1.P 16(PY), [Y0.D2]
	MUL(BETA, Y0, T0)
	VFMLA  ALPHA.D2, X0.D2, T0.D2
	VST1.P [T0.D2], 16(PD)
	SUBS   $1, CNT
	BNE    loop2

	// the last element of odd n
odd:
	TBZ    $0, N, done
	FMOVD  (PX0), FX0
	FMOVD  (PY), FY0
	FMULD  FBETA, FY0
	FMADDD FALPHA, FY0, FX0, FY0 // FY0 += FX0·α
	FMOVD  FY0, (PD)

done:
	RET

// func scaleNEON(alpha float64, x []float64)
TEXT ·scaleNEON(SB), NOSPLIT, $0-32
	MOVD alpha+0(FP), TMP
	VDUP TMP, ALPHA.D2
	LOADNZ
	MOVD x_base+8(FP), PX0
	MOVD x_len+16(FP), N
	LSR  $3, N, CNT
	CBZ  CNT, pairs

	// for each block of 8: x[i:i+8] = α·x[i:i+8]
loop8:
	VLD1   (PX0), [X0.D2, X1.D2, X2.D2, X3.D2]
	MUL(ALPHA, X0, T0)
	MUL(ALPHA, X1, T1)
	MUL(ALPHA, X2, T2)
	MUL(ALPHA, X3, T3)
	VST1.P [T0.D2, T1.D2, T2.D2, T3.D2], 64(PX0)
	SUBS   $1, CNT
	BNE    loop8

	// the remaining pairs (up to 3)
pairs:
	AND  $7, N, CNT
	LSR  $1, CNT
	CBZ  CNT, odd

loop2:
	VLD1   (PX0), [X0.D2]
	MUL(ALPHA, X0, T0)
	VST1.P [T0.D2], 16(PX0)
	SUBS   $1, CNT
	BNE    loop2

	// the last element of odd n
odd:
	TBZ   $0, N, done
	FMOVD (PX0), FX0
	FMULD FALPHA, FX0
	FMOVD FX0, (PX0)

done:
	RET

// func scaleAddOuterNEON(a []float64, n, rows int, alpha, beta float64, p, v []float64)
TEXT ·scaleAddOuterNEON(SB), NOSPLIT, $0-104
	MOVD  a_base+0(FP), PA0
	MOVD  n+24(FP), N
	MOVD  rows+32(FP), ROWS
	MOVD  alpha+40(FP), TMP
	VDUP  TMP, ALPHA.D2
	FMOVD beta+48(FP), FBETA
	MOVD  p_base+56(FP), PP
	MOVD  v_base+80(FP), PV0
	LOADNZ
	CBZ   ROWS, done

	// for each row i: S = β·p[i]; a[i*n:][:n] = fma(S, v, α·a[i*n:][:n])
row:
	FMOVD.P 8(PP), FS
	FMULD   FBETA, FS
	VDUP    S.D[0], S.D2
	MOVD    PV0, PV
	LSR     $3, N, CNT
	CBZ     CNT, pairs

loop8:
	VLD1   (PA0), [A0.D2, A1.D2, A2.D2, A3.D2]
	VLD1.P 64(PV), [X0.D2, X1.D2, X2.D2, X3.D2]
	MUL(ALPHA, A0, T0)
	MUL(ALPHA, A1, T1)
	MUL(ALPHA, A2, T2)
	MUL(ALPHA, A3, T3)
	VFMLA  S.D2, X0.D2, T0.D2
	VFMLA  S.D2, X1.D2, T1.D2
	VFMLA  S.D2, X2.D2, T2.D2
	VFMLA  S.D2, X3.D2, T3.D2
	VST1.P [T0.D2, T1.D2, T2.D2, T3.D2], 64(PA0)
	SUBS   $1, CNT
	BNE    loop8

	// the remaining pairs of the row (up to 3)
pairs:
	AND  $7, N, CNT
	LSR  $1, CNT
	CBZ  CNT, odd

loop2:
	VLD1   (PA0), [A0.D2]
	VLD1.P 16(PV), [X0.D2]
	MUL(ALPHA, A0, T0)
	VFMLA  S.D2, X0.D2, T0.D2
	VST1.P [T0.D2], 16(PA0)
	SUBS   $1, CNT
	BNE    loop2

	// the last element of a row of odd n
odd:
	TBZ     $0, N, next
	FMOVD   (PA0), FA0
	FMOVD   (PV), FX0
	FMULD   FALPHA, FA0
	FMADDD  FS, FA0, FX0, FA0 // FA0 += FX0·s
	FMOVD.P FA0, 8(PA0)

next:
	SUBS $1, ROWS
	BNE  row

done:
	RET

// func scaleAddRankKNEON(a []float64, n, rows, cols int, alpha float64, beta, p, q []float64, k int)
//
// Per row: the coefficients c_t = p[t*n+i]·β[t] (t < k ≤ 16) into the frame,
// then 8 columns at a time in T0-T3, then pairs in T0, then the last element
// of odd cols; each is α·a, then one fma per term t in increasing t. Rows of
// a, p and q are n apart; N holds cols.
TEXT ·scaleAddRankKNEON(SB), NOSPLIT, $128-136
	MOVD a_base+0(FP), PA0
	MOVD n+24(FP), STRIDE
	LSL  $3, STRIDE // the bytes between rows of a, p and q
	MOVD rows+32(FP), ROWS
	MOVD cols+40(FP), N
	SUB  N<<3, STRIDE, GAP // GAP = (n − cols)·8: from a row's panel end to the next row
	MOVD alpha+48(FP), TMP
	VDUP TMP, ALPHA.D2
	MOVD p_base+80(FP), PP  // PP = &p[i]: p_0[i] of the current row
	MOVD q_base+104(FP), PQ0
	MOVD k+128(FP), K
	MOVD $coef-128(SP), PCF // PCF = &coef[0], in the frame
	LOADNZ

row:
	// coef[t] = p[t*n+i]·β[t] for t < k: row i's coefficients, rounded once
	MOVD beta_base+56(FP), PX0
	MOVD PP, PQ
	MOVD PCF, PCT
	MOVD K, TCNT

coefs:
	FMOVD.P 8(PX0), FX0 // β[t]
	FMOVD   (PQ), FA0   // p[t*n+i]
	ADD     STRIDE, PQ
	FMULD   FX0, FA0    // FA0 = p[t*n+i]·β[t]
	FMOVD.P FA0, 8(PCT)
	SUBS    $1, TCNT
	BNE     coefs
	ADD     $8, PP

	MOVD PQ0, PV // PV = &q[0][j]
	LSR  $3, N, CNT
	CBZ  CNT, pairs

	// s = α·a[i*n+j:][:8]; for t < k: s = fma(c_t, q_t[j:][:8], s)
loop8:
	VLD1 (PA0), [A0.D2, A1.D2, A2.D2, A3.D2]
	MUL(ALPHA, A0, T0)
	MUL(ALPHA, A1, T1)
	MUL(ALPHA, A2, T2)
	MUL(ALPHA, A3, T3)
	MOVD PV, PQ
	MOVD PCF, PCT
	MOVD K, TCNT

terms8:
	VLD1R.P 8(PCT), [S.D2] // S = [c_t, c_t]
	VLD1    (PQ), [X0.D2, X1.D2, X2.D2, X3.D2]
	ADD     STRIDE, PQ
	VFMLA   S.D2, X0.D2, T0.D2
	VFMLA   S.D2, X1.D2, T1.D2
	VFMLA   S.D2, X2.D2, T2.D2
	VFMLA   S.D2, X3.D2, T3.D2
	SUBS    $1, TCNT
	BNE     terms8
	VST1.P  [T0.D2, T1.D2, T2.D2, T3.D2], 64(PA0)
	ADD     $64, PV
	SUBS    $1, CNT
	BNE     loop8

	// the remaining pairs of the row (up to 3)
pairs:
	AND $7, N, CNT
	LSR $1, CNT
	CBZ CNT, odd

loop2:
	VLD1 (PA0), [A0.D2]
	MUL(ALPHA, A0, T0)
	MOVD PV, PQ
	MOVD PCF, PCT
	MOVD K, TCNT

terms2:
	VLD1R.P 8(PCT), [S.D2]
	VLD1    (PQ), [X0.D2]
	ADD     STRIDE, PQ
	VFMLA   S.D2, X0.D2, T0.D2
	SUBS    $1, TCNT
	BNE     terms2
	VST1.P  [T0.D2], 16(PA0)
	ADD     $16, PV
	SUBS    $1, CNT
	BNE     loop2

	// the last element of a row of odd n
odd:
	TBZ   $0, N, next
	FMOVD (PA0), FA0
	FMULD FALPHA, FA0
	MOVD  PV, PQ
	MOVD  PCF, PCT
	MOVD  K, TCNT

terms1:
	FMOVD.P 8(PCT), FS
	FMOVD   (PQ), FX0
	ADD     STRIDE, PQ
	FMADDD  FS, FA0, FX0, FA0 // FA0 += FX0·c_t
	SUBS    $1, TCNT
	BNE     terms1
	FMOVD.P FA0, 8(PA0)

next:
	ADD  GAP, PA0 // the next row
	SUBS $1, ROWS
	BNE  row
	RET

// WS_START points PCT at w, PQ at rows and sets TCNT = m for one block of
// columns of weightedSumNEON.
#define WS_START \
	MOVD PP, PCT;   \
	MOVD ROWS, PQ;  \
	MOVD K, TCNT

// WS_ROW points PX0 at the next row of x at the current block (PX0 = PX1 +
// rows[i]·n·8) and sets S = [w_i, w_i].
#define WS_ROW \
	MOVD.P  8(PQ), TMP;               \
	MADD    STRIDE, PX1, TMP, PX0;    \
	VLD1R.P 8(PCT), [S.D2]

// func weightedSumNEON(dst, w, x []float64, n int, rows []int)
//
//	for j < len(dst): dst[j] = fma(w[m−1], x[rows[m−1]*n+j], … fma(w[0], x[rows[0]*n+j], 0))
//
// m = len(w): 8 columns at a time in 4 accumulators, then pairs, then the
// last column of an odd length.
TEXT ·weightedSumNEON(SB), NOSPLIT, $0-104
	MOVD dst_base+0(FP), PY
	MOVD dst_len+8(FP), N
	MOVD w_base+24(FP), PP
	MOVD w_len+32(FP), K
	MOVD x_base+48(FP), PX1
	MOVD n+72(FP), STRIDE
	LSL  $3, STRIDE
	MOVD rows_base+80(FP), ROWS
	LSR  $3, N, CNT
	CBZ  CNT, ws_pairs

ws_block8:
	ZERO4(T0, T1, T2, T3)
	WS_START
	CBZ TCNT, ws_store8

ws_rows8:
	WS_ROW
	VLD1  (PX0), [X0.D2, X1.D2, X2.D2, X3.D2]
	VFMLA S.D2, X0.D2, T0.D2
	VFMLA S.D2, X1.D2, T1.D2
	VFMLA S.D2, X2.D2, T2.D2
	VFMLA S.D2, X3.D2, T3.D2
	SUBS  $1, TCNT
	BNE   ws_rows8

ws_store8:
	VST1.P [T0.D2, T1.D2, T2.D2, T3.D2], 64(PY)
	ADD    $64, PX1
	SUBS   $1, CNT
	BNE    ws_block8

ws_pairs:
	AND $7, N, CNT
	LSR $1, CNT
	CBZ CNT, ws_odd

ws_block2:
	VEOR T0.B16, T0.B16, T0.B16
	WS_START
	CBZ  TCNT, ws_store2

ws_rows2:
	WS_ROW
	VLD1  (PX0), [X0.D2]
	VFMLA S.D2, X0.D2, T0.D2
	SUBS  $1, TCNT
	BNE   ws_rows2

ws_store2:
	VST1.P [T0.D2], 16(PY)
	ADD    $16, PX1
	SUBS   $1, CNT
	BNE    ws_block2

ws_odd:
	TBZ  $0, N, ws_done
	VEOR T0.B16, T0.B16, T0.B16
	WS_START
	CBZ  TCNT, ws_storeodd

ws_rowsodd:
	WS_ROW
	FMOVD  (PX0), FX0
	FMADDD FS, FC00, FX0, FC00 // FC00 += FX0·w_i
	SUBS   $1, TCNT
	BNE    ws_rowsodd

ws_storeodd:
	FMOVD FC00, (PY)

ws_done:
	RET
