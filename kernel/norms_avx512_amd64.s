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

// ZERO4 clears the zmm registers a, b, c and d.
#define ZERO4(a, b, c, d) \
	VPXORQ a, a, a \
	VPXORQ b, b, b \
	VPXORQ c, c, c \
	VPXORQ d, d, d

// RSQ_BLOCK32 adds the squares of the 32 elements at base to the four
// accumulators a0 … a3 of one row, and moves base on.
#define RSQ_BLOCK32(base, a0, a1, a2, a3) \
	VMOVUPD     (base), Z16     \
	VMOVUPD     64(base), Z17   \
	VMOVUPD     128(base), Z18  \
	VMOVUPD     192(base), Z19  \
	VFMADD231PD Z16, Z16, a0    \
	VFMADD231PD Z17, Z17, a1    \
	VFMADD231PD Z18, Z18, a2    \
	VFMADD231PD Z19, Z19, a3    \
	ADDQ        $256, base

// RSQ_BLOCK8 adds the squares of the 8 elements at base to a0.
#define RSQ_BLOCK8(base, a0) \
	VMOVUPD     (base), Z16  \
	VFMADD231PD Z16, Z16, a0 \
	ADDQ        $64, base

// RSQ_TAIL adds the squares of the first lanes (K1) at base to a1.
#define RSQ_TAIL(base, a1) \
	VMOVUPD.Z   (base), K1, Z16 \
	VFMADD231PD Z16, Z16, a1

// RSQ_REDUCE stores to mem the sum of the accumulators Z0 … Z3 reduced as
// dotAVX512 reduces its own: (Z0 + Z1) + (Z2 + Z3), then the lanes.
#define RSQ_REDUCE(mem) \
	VADDPD Z1, Z0, Z0              \
	VADDPD Z3, Z2, Z2              \
	VADDPD Z2, Z0, Z0              \
	HSUM8(Z0, Y0, X0, Y1, X1)      \
	VMOVSD X0, mem

// func rowSquares4AVX512(a *float64, n int, sums *float64)
// Requires: AVX512F
//
// sums[r] = dotAVX512(a_r, a_r) for the 4 rows a_r = a[r·n:(r+1)·n],
// n ≥ 1, the same bits: each row has dotAVX512's four accumulators (Z0–Z3
// for row 0, Z4–Z7, Z8–Z11, Z12–Z15 for the others), its blocks of 32 and
// of 8 and its masked tail, and its reduction; the four rows' chains run
// side by side.
TEXT ·rowSquares4AVX512(SB), NOSPLIT, $0-24
	MOVQ   a+0(FP), SI
	MOVQ   n+8(FP), CX
	LEAQ   (SI)(CX*8), R8
	LEAQ   (R8)(CX*8), R9
	LEAQ   (R9)(CX*8), R10
	ZERO4(Z0, Z1, Z2, Z3)
	ZERO4(Z4, Z5, Z6, Z7)
	ZERO4(Z8, Z9, Z10, Z11)
	ZERO4(Z12, Z13, Z14, Z15)

	MOVQ CX, BX
	SHRQ $5, BX
	JZ   rsq_eight

rsq_loop32:
	RSQ_BLOCK32(SI, Z0, Z1, Z2, Z3)
	RSQ_BLOCK32(R8, Z4, Z5, Z6, Z7)
	RSQ_BLOCK32(R9, Z8, Z9, Z10, Z11)
	RSQ_BLOCK32(R10, Z12, Z13, Z14, Z15)
	DECQ BX
	JNZ  rsq_loop32

rsq_eight:
	MOVQ CX, BX
	ANDQ $31, BX
	SHRQ $3, BX
	JZ   rsq_tail

rsq_loop8:
	RSQ_BLOCK8(SI, Z0)
	RSQ_BLOCK8(R8, Z4)
	RSQ_BLOCK8(R9, Z8)
	RSQ_BLOCK8(R10, Z12)
	DECQ BX
	JNZ  rsq_loop8

rsq_tail:
	ANDQ $7, CX
	JZ   rsq_reduce
	MOVQ $1, AX
	SHLQ CX, AX
	DECQ AX
	KMOVW AX, K1
	RSQ_TAIL(SI, Z1)
	RSQ_TAIL(R8, Z5)
	RSQ_TAIL(R9, Z9)
	RSQ_TAIL(R10, Z13)

rsq_reduce:
	MOVQ sums+16(FP), DI
	RSQ_REDUCE((DI))
	VMOVAPD Z4, Z0
	VMOVAPD Z5, Z1
	VMOVAPD Z6, Z2
	VMOVAPD Z7, Z3
	RSQ_REDUCE(8(DI))
	VMOVAPD Z8, Z0
	VMOVAPD Z9, Z1
	VMOVAPD Z10, Z2
	VMOVAPD Z11, Z3
	RSQ_REDUCE(16(DI))
	VMOVAPD Z12, Z0
	VMOVAPD Z13, Z1
	VMOVAPD Z14, Z2
	VMOVAPD Z15, Z3
	RSQ_REDUCE(24(DI))
	VZEROUPPER
	RET

// SAOB_CHUNK updates the 8 elements of a row at off(DI) as
// scaleAddOuterAVX512's 8-element blocks do (fma(s, v, α·a), α the first
// source of the product), stores them and adds their squares to acc.
#define SAOB_CHUNK(off, acc) \
	VMULPD      off(DI), Z30, Z4  \
	VFMADD231PD off(SI), Z31, Z4  \
	VMOVUPD     Z4, off(DI)       \
	VFMADD231PD Z4, Z4, acc

// func scaleAddOuterSquaresBlocksAVX512(a *float64, n, rows int, alpha, beta float64, p, v, sums *float64)
// Requires: AVX512F
//
// n a multiple of 8, n ≥ 16: scaleAddOuterAVX512(a, n, rows, α, β, p, v)
// and then, for each row i < rows, sums[i] = dotAVX512(a_i, a_i), the same
// bits, one pass over each row: its 32-element steps into the accumulators
// Z0–Z3, the 8-element blocks after them into Z0, reduced as RSQ_REDUCE.
TEXT ·scaleAddOuterSquaresBlocksAVX512(SB), NOSPLIT, $0-64
	MOVQ         a+0(FP), DI
	MOVQ         n+8(FP), CX
	MOVQ         rows+16(FP), R10
	VBROADCASTSD alpha+24(FP), Z30
	VMOVSD       beta+32(FP), X29
	MOVQ         p+40(FP), R11
	MOVQ         v+48(FP), R12
	MOVQ         sums+56(FP), R13
	MOVQ         CX, R8
	SHRQ         $5, R8  // 32-element steps a row
	ANDQ         $31, CX
	SHRQ         $3, CX  // 8-element blocks after them

saob_row:
	VMULSD       (R11), X29, X5
	VBROADCASTSD X5, Z31
	MOVQ         R12, SI
	ZERO4(Z0, Z1, Z2, Z3)
	MOVQ         R8, BX
	TESTQ        BX, BX
	JZ           saob_eights

saob_steps:
	SAOB_CHUNK(0, Z0)
	SAOB_CHUNK(64, Z1)
	SAOB_CHUNK(128, Z2)
	SAOB_CHUNK(192, Z3)
	ADDQ $256, DI
	ADDQ $256, SI
	DECQ BX
	JNZ  saob_steps

saob_eights:
	MOVQ  CX, BX
	TESTQ BX, BX
	JZ    saob_reduce

saob_eight:
	SAOB_CHUNK(0, Z0)
	ADDQ $64, DI
	ADDQ $64, SI
	DECQ BX
	JNZ  saob_eight

saob_reduce:
	RSQ_REDUCE((R13))
	ADDQ $8, R11
	ADDQ $8, R13
	DECQ R10
	JNZ  saob_row
	VZEROUPPER
	RET
