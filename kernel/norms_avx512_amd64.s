//go:build gc && !purego

#include "textflag.h"
#include "hsum_amd64.h"

// SAO_ROWS runs the rows of scaleAddOuterSquaresAVX512: for each row the
// update a = fma(β·p_i, v, α·a) with α·a as mulaa (VMULPD in the operand
// order of scaleAddOuterAVX512 for the row length), stored back, and the
// sum of squares of the row from the register, reduced as dotAVX512.
#define SAO_ROWS(loop, mulaa) \
loop:                                  \
	VMULSD       (R11), X29, X0        \
	VBROADCASTSD X0, Z31               \
	VMOVUPD.Z    (DI), K1, Z0          \
	mulaa                              \
	VFMADD231PD  Z28, Z31, Z0          \
	VMOVUPD      Z0, K1, (DI)          \
	VPXORQ       Z1, Z1, Z1            \
	VFMADD231PD  Z0, Z0, K1, Z1        \
	HSUM8(Z1, Y1, X1, Y2, X2)          \
	VMOVSD       X1, (R13)             \
	ADDQ         $8, R11               \
	ADDQ         R9, DI                \
	ADDQ         $8, R13               \
	DECQ         R10                   \
	JNZ          loop

// α·a with a (Z0) or α (Z30) the first source: of two NaNs, that one.
#define MUL_A_ALPHA VMULPD Z30, Z0, Z0
#define MUL_ALPHA_A VMULPD Z0, Z30, Z0

// func scaleAddOuterSquaresAVX512(a []float64, n int, alpha, beta float64, p, v, sums []float64)
// Requires: AVX512F
//
// 1 ≤ n ≤ 8: scaleAddOuterAVX512(a, n, n, α, β, p, v) and then, for each
// row i, sums[i] = dotAVX512(a_i, a_i), the same bits, one row in one
// masked register (K1). α·a is VMULPD α, a for n = 8 (scaleAddOuterAVX512's
// 8-element block) and VMULPD a, α for n < 8 (its tail).
TEXT ·scaleAddOuterSquaresAVX512(SB), NOSPLIT, $0-120
	MOVQ         a_base+0(FP), DI
	MOVQ         n+24(FP), CX
	VBROADCASTSD alpha+32(FP), Z30
	VMOVSD       beta+40(FP), X29
	MOVQ         p_base+48(FP), R11
	MOVQ         v_base+72(FP), R12
	MOVQ         sums_base+96(FP), R13
	MOVQ         CX, R10 // rows left
	MOVQ         CX, R9
	SHLQ         $3, R9  // bytes per row
	MOVQ         $1, AX
	SHLQ         CX, AX
	DECQ         AX
	KMOVW        AX, K1
	VMOVUPD.Z    (R12), K1, Z28
	CMPQ         CX, $8
	JEQ          saos_whole
	SAO_ROWS(saos_tail, MUL_A_ALPHA)
	VZEROUPPER
	RET

saos_whole:
	SAO_ROWS(saos_eight, MUL_ALPHA_A)
	VZEROUPPER
	RET
