//go:build gc && !purego

#include "textflag.h"
#include "hsum_amd64.h"

// Offsets of the base pointers in StepState (ten slices) and of the
// fields of StepRates (TestStepLayout checks them).
#define ST_M 0
#define ST_S 24
#define ST_V 48
#define ST_P 72
#define ST_MNEW 96
#define ST_SNEW 120
#define ST_VNEW 144
#define ST_PNEW 168
#define ST_YW 192
#define ST_ZW 216
#define R_SIGMA 0
#define R_DECAYS 8
#define R_RATES 16
#define R_DECAY 24
#define R_RATE 32

// HMAXU8 leaves the unsigned maximum of the 8 quadwords of zmm z in each
// lane; t is a scratch zmm.
#define HMAXU8(z, t) \
	VSHUFI64X2 $0x4e, z, z, t \
	VPMAXUQ    t, z, z        \
	VSHUFI64X2 $0xb1, z, z, t \
	VPMAXUQ    t, z, z        \
	VPSHUFD    $0x4e, z, t    \
	VPMAXUQ    t, z, z

// func recombineStepAVX512(n int, y, z *float64, w []float64, rows *int, st *StepState, r *StepRates) (ssS, ssV float64, pBits, mBits uint64)
// Requires: AVX512F
//
// 1 ≤ n ≤ 8, all in registers (K1: the first n lanes; the lanes past n,
// zeros or what rates of ±Inf or NaN make of them, stay out of every store,
// sum and maximum):
//
//	yw = fma(w[μ−1], y[rows[μ−1]], … fma(w[0], y[rows[0]], 0)), zw alike
//	mNew = fma(σ, yw, 1·m)
//	sNew = fma(decayS, s, rateS·zw), ssS = its sum of squares
//	vNew = fma(decay, v, rate·zw),   ssV
//	pNew = fma(decay, p, rate·yw)
//
// the roundings of weightedSumAVX512, axpbyAVX512 and axpbyDotAVX512.
TEXT ·recombineStepAVX512(SB), NOSPLIT, $0-104
	MOVQ  n+0(FP), CX
	MOVQ  $1, AX
	SHLQ  CX, AX
	DECQ  AX
	KMOVW AX, K1
	MOVQ  y+8(FP), R11
	MOVQ  z+16(FP), R12
	MOVQ  w_base+24(FP), SI
	MOVQ  w_len+32(FP), R9
	MOVQ  rows+48(FP), R10
	MOVQ  st+56(FP), DI
	MOVQ  r+64(FP), R13
	SHLQ  $3, CX           // the row stride in bytes
	CMPQ  CX, $64
	JEQ   rs_whole


	// n < 8: the tails of the kernels, rate·x as VMULPD rate, x (x the
	// first source: of two NaNs, x's).
	VPXORQ Z0, Z0, Z0 // yw
	VPXORQ Z1, Z1, Z1 // zw
	XORQ   DX, DX
	TESTQ  R9, R9
	JZ     rs_sums_tail

rs_rows_tail:
	MOVQ         (R10)(DX*8), AX
	IMULQ        CX, AX
	VBROADCASTSD (SI)(DX*8), Z8
	VMOVUPD.Z    (R11)(AX*1), K1, Z2
	VMOVUPD.Z    (R12)(AX*1), K1, Z3
	VFMADD231PD  Z2, Z8, Z0
	VFMADD231PD  Z3, Z8, Z1
	INCQ         DX
	CMPQ         DX, R9
	JNE          rs_rows_tail

rs_sums_tail:
	MOVQ    ST_YW(DI), AX
	VMOVUPD Z0, K1, (AX)
	MOVQ    ST_ZW(DI), AX
	VMOVUPD Z1, K1, (AX)

	// mNew = fma(σ, yw, 1·m)
	MOVQ         $0x3ff0000000000000, AX
	VPBROADCASTQ AX, Z9
	MOVQ         ST_M(DI), AX
	VMOVUPD.Z    (AX), K1, Z4
	VMULPD       Z9, Z4, Z4
	VBROADCASTSD R_SIGMA(R13), Z9
	VFMADD231PD  Z0, Z9, Z4
	MOVQ         ST_MNEW(DI), AX
	VMOVUPD      Z4, K1, (AX)

	// sNew = fma(decayS, s, rateS·zw)
	VBROADCASTSD R_RATES(R13), Z9
	VBROADCASTSD R_DECAYS(R13), Z10
	MOVQ         ST_S(DI), AX
	VMOVUPD.Z    (AX), K1, Z2
	VMULPD       Z9, Z1, Z5
	VFMADD231PD  Z2, Z10, Z5
	MOVQ         ST_SNEW(DI), AX
	VMOVUPD      Z5, K1, (AX)

	// vNew = fma(decay, v, rate·zw), pNew = fma(decay, p, rate·yw)
	VBROADCASTSD R_RATE(R13), Z9
	VBROADCASTSD R_DECAY(R13), Z10
	MOVQ         ST_V(DI), AX
	VMOVUPD.Z    (AX), K1, Z2
	MOVQ         ST_P(DI), AX
	VMOVUPD.Z    (AX), K1, Z3
	VMULPD       Z9, Z1, Z6
	VMULPD       Z9, Z0, Z7
	VFMADD231PD  Z2, Z10, Z6
	VFMADD231PD  Z3, Z10, Z7
	MOVQ         ST_VNEW(DI), AX
	VMOVUPD      Z6, K1, (AX)
	MOVQ         ST_PNEW(DI), AX
	VMOVUPD      Z7, K1, (AX)

	// The sums of squares: fma(x, x, 0) per lane, then dotAVX512's
	// reduction.
	VPXORQ      Z2, Z2, Z2
	VPXORQ      Z3, Z3, Z3
	VFMADD231PD Z5, Z5, K1, Z2
	VFMADD231PD Z6, Z6, K1, Z3
	HSUM8(Z2, Y2, X2, Y11, X11)
	HSUM8(Z3, Y3, X3, Y12, X12)
	VMOVSD      X2, ssS+72(FP)
	VMOVSD      X3, ssV+80(FP)

	// The largest bits of |pNew_i| and |mNew_i|.
	MOVQ         $0x7fffffffffffffff, AX
	VPBROADCASTQ AX, Z9
	VPANDQ.Z     Z9, Z7, K1, Z7
	VPANDQ.Z     Z9, Z4, K1, Z4
	HMAXU8(Z7, Z13)
	HMAXU8(Z4, Z14)
	VMOVQ        X7, pBits+88(FP)
	VMOVQ        X4, mBits+96(FP)
	VZEROUPPER
	RET

	// n = 8: their 8-element blocks, rate·x as VMULPD x, rate (the rate
	// the first source).
rs_whole:
	VPXORQ Z0, Z0, Z0 // yw
	VPXORQ Z1, Z1, Z1 // zw
	XORQ   DX, DX
	TESTQ  R9, R9
	JZ     rs_sums_whole

rs_rows_whole:
	MOVQ         (R10)(DX*8), AX
	IMULQ        CX, AX
	VBROADCASTSD (SI)(DX*8), Z8
	VMOVUPD.Z    (R11)(AX*1), K1, Z2
	VMOVUPD.Z    (R12)(AX*1), K1, Z3
	VFMADD231PD  Z2, Z8, Z0
	VFMADD231PD  Z3, Z8, Z1
	INCQ         DX
	CMPQ         DX, R9
	JNE          rs_rows_whole

rs_sums_whole:
	MOVQ    ST_YW(DI), AX
	VMOVUPD Z0, K1, (AX)
	MOVQ    ST_ZW(DI), AX
	VMOVUPD Z1, K1, (AX)

	// mNew = fma(σ, yw, 1·m)
	MOVQ         $0x3ff0000000000000, AX
	VPBROADCASTQ AX, Z9
	MOVQ         ST_M(DI), AX
	VMOVUPD.Z    (AX), K1, Z4
	VMULPD       Z9, Z4, Z4
	VBROADCASTSD R_SIGMA(R13), Z9
	VFMADD231PD  Z0, Z9, Z4
	MOVQ         ST_MNEW(DI), AX
	VMOVUPD      Z4, K1, (AX)

	// sNew = fma(decayS, s, rateS·zw)
	VBROADCASTSD R_RATES(R13), Z9
	VBROADCASTSD R_DECAYS(R13), Z10
	MOVQ         ST_S(DI), AX
	VMOVUPD.Z    (AX), K1, Z2
	VMULPD       Z1, Z9, Z5
	VFMADD231PD  Z2, Z10, Z5
	MOVQ         ST_SNEW(DI), AX
	VMOVUPD      Z5, K1, (AX)

	// vNew = fma(decay, v, rate·zw), pNew = fma(decay, p, rate·yw)
	VBROADCASTSD R_RATE(R13), Z9
	VBROADCASTSD R_DECAY(R13), Z10
	MOVQ         ST_V(DI), AX
	VMOVUPD.Z    (AX), K1, Z2
	MOVQ         ST_P(DI), AX
	VMOVUPD.Z    (AX), K1, Z3
	VMULPD       Z1, Z9, Z6
	VMULPD       Z0, Z9, Z7
	VFMADD231PD  Z2, Z10, Z6
	VFMADD231PD  Z3, Z10, Z7
	MOVQ         ST_VNEW(DI), AX
	VMOVUPD      Z6, K1, (AX)
	MOVQ         ST_PNEW(DI), AX
	VMOVUPD      Z7, K1, (AX)

	// The sums of squares: fma(x, x, 0) per lane, then dotAVX512's
	// reduction.
	VPXORQ      Z2, Z2, Z2
	VPXORQ      Z3, Z3, Z3
	VFMADD231PD Z5, Z5, K1, Z2
	VFMADD231PD Z6, Z6, K1, Z3
	HSUM8(Z2, Y2, X2, Y11, X11)
	HSUM8(Z3, Y3, X3, Y12, X12)
	VMOVSD      X2, ssS+72(FP)
	VMOVSD      X3, ssV+80(FP)

	// The largest bits of |pNew_i| and |mNew_i|.
	MOVQ         $0x7fffffffffffffff, AX
	VPBROADCASTQ AX, Z9
	VPANDQ.Z     Z9, Z7, K1, Z7
	VPANDQ.Z     Z9, Z4, K1, Z4
	HMAXU8(Z7, Z13)
	HMAXU8(Z4, Z14)
	VMOVQ        X7, pBits+88(FP)
	VMOVQ        X4, mBits+96(FP)
	VZEROUPPER
	RET

// RSB_CHUNK finishes one 8-column chunk at byte offset BX + off from its
// weighted sums yw (Zyw) and zw (Zzw): mNew, sNew, vNew and pNew as
// rs_whole computes them, sNew's and vNew's squares into the accumulators
// accS and accV (VFMADD231PD x, x, acc: axpbyDotAVX512's), the bits of
// |mNew| and |pNew| into Z25 and Z24. Scratch: AX, Z9–Z14.
#define RSB_CHUNK(off, Zyw, Zzw, accS, accV) \
	MOVQ         ST_M(DI), AX             \
	VMOVUPD      off(AX)(BX*1), Z9        \
	VMULPD       Z31, Z9, Z9              \
	VFMADD231PD  Zyw, Z26, Z9             \
	MOVQ         ST_MNEW(DI), AX          \
	VMOVUPD      Z9, off(AX)(BX*1)        \
	VPANDQ       Z15, Z9, Z9              \
	VPMAXUQ      Z9, Z25, Z25             \
	MOVQ         ST_S(DI), AX             \
	VMOVUPD      off(AX)(BX*1), Z10       \
	VMULPD       Zzw, Z28, Z11            \
	VFMADD231PD  Z10, Z27, Z11            \
	MOVQ         ST_SNEW(DI), AX          \
	VMOVUPD      Z11, off(AX)(BX*1)       \
	VFMADD231PD  Z11, Z11, accS           \
	MOVQ         ST_V(DI), AX             \
	VMOVUPD      off(AX)(BX*1), Z12       \
	VMULPD       Zzw, Z30, Z13            \
	VFMADD231PD  Z12, Z29, Z13            \
	MOVQ         ST_VNEW(DI), AX          \
	VMOVUPD      Z13, off(AX)(BX*1)       \
	VFMADD231PD  Z13, Z13, accV           \
	MOVQ         ST_P(DI), AX             \
	VMOVUPD      off(AX)(BX*1), Z12       \
	VMULPD       Zyw, Z30, Z14            \
	VFMADD231PD  Z12, Z29, Z14            \
	MOVQ         ST_PNEW(DI), AX          \
	VMOVUPD      Z14, off(AX)(BX*1)       \
	VPANDQ       Z15, Z14, Z14            \
	VPMAXUQ      Z14, Z24, Z24

// func recombineStepBlocksAVX512(n int, y, z *float64, w []float64, rows *int, st *StepState, r *StepRates) (ssS, ssV float64, pBits, mBits uint64)
// Requires: AVX512F
//
// recombineStepAVX512 for n a multiple of 8, in one pass over the columns:
// 32 at a time (the weighted sums of 4 chunks of 8 in Z0–Z7 over the μ
// rows, then each chunk's mean and paths), then the chunks of 8 left. The
// sums of squares of sNew and vNew go chunk by chunk into the accumulators
// axpbyDotAVX512 gives them (chunk c of the 32-column steps into c mod 4,
// the chunks after them into the first) and are reduced as it reduces.
TEXT ·recombineStepBlocksAVX512(SB), NOSPLIT, $0-104
	MOVQ n+0(FP), CX
	MOVQ y+8(FP), R11
	MOVQ z+16(FP), R12
	MOVQ w_base+24(FP), SI
	MOVQ w_len+32(FP), R9
	MOVQ rows+48(FP), R10
	MOVQ st+56(FP), DI
	MOVQ r+64(FP), R13
	MOVQ CX, R8
	SHRQ $5, R8      // steps of 32 columns
	MOVQ CX, R14
	ANDQ $31, R14
	SHRQ $3, R14     // chunks of 8 after them
	SHLQ $3, CX      // the row stride in bytes

	MOVQ         $0x7fffffffffffffff, AX
	VPBROADCASTQ AX, Z15
	MOVQ         $0x3ff0000000000000, AX
	VPBROADCASTQ AX, Z31
	VBROADCASTSD R_SIGMA(R13), Z26
	VBROADCASTSD R_DECAYS(R13), Z27
	VBROADCASTSD R_RATES(R13), Z28
	VBROADCASTSD R_DECAY(R13), Z29
	VBROADCASTSD R_RATE(R13), Z30
	VPXORQ       Z16, Z16, Z16
	VPXORQ       Z17, Z17, Z17
	VPXORQ       Z18, Z18, Z18
	VPXORQ       Z19, Z19, Z19
	VPXORQ       Z20, Z20, Z20
	VPXORQ       Z21, Z21, Z21
	VPXORQ       Z22, Z22, Z22
	VPXORQ       Z23, Z23, Z23
	VPXORQ       Z24, Z24, Z24
	VPXORQ       Z25, Z25, Z25
	XORQ         BX, BX // the chunk's byte offset in a row
	TESTQ        R8, R8
	JZ           rsb_eights

rsb_steps:
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	XORQ   DX, DX
	TESTQ  R9, R9
	JZ     rsb_steps_sums

rsb_steps_rows:
	MOVQ         (R10)(DX*8), AX
	IMULQ        CX, AX
	ADDQ         BX, AX
	VBROADCASTSD (SI)(DX*8), Z8
	VFMADD231PD  (R11)(AX*1), Z8, Z0
	VFMADD231PD  64(R11)(AX*1), Z8, Z1
	VFMADD231PD  128(R11)(AX*1), Z8, Z2
	VFMADD231PD  192(R11)(AX*1), Z8, Z3
	VFMADD231PD  (R12)(AX*1), Z8, Z4
	VFMADD231PD  64(R12)(AX*1), Z8, Z5
	VFMADD231PD  128(R12)(AX*1), Z8, Z6
	VFMADD231PD  192(R12)(AX*1), Z8, Z7
	INCQ         DX
	CMPQ         DX, R9
	JNE          rsb_steps_rows

rsb_steps_sums:
	MOVQ    ST_YW(DI), AX
	VMOVUPD Z0, (AX)(BX*1)
	VMOVUPD Z1, 64(AX)(BX*1)
	VMOVUPD Z2, 128(AX)(BX*1)
	VMOVUPD Z3, 192(AX)(BX*1)
	MOVQ    ST_ZW(DI), AX
	VMOVUPD Z4, (AX)(BX*1)
	VMOVUPD Z5, 64(AX)(BX*1)
	VMOVUPD Z6, 128(AX)(BX*1)
	VMOVUPD Z7, 192(AX)(BX*1)
	RSB_CHUNK(0, Z0, Z4, Z16, Z20)
	RSB_CHUNK(64, Z1, Z5, Z17, Z21)
	RSB_CHUNK(128, Z2, Z6, Z18, Z22)
	RSB_CHUNK(192, Z3, Z7, Z19, Z23)
	ADDQ $256, BX
	DECQ R8
	JNZ  rsb_steps

rsb_eights:
	TESTQ R14, R14
	JZ    rsb_reduce

rsb_eight:
	VPXORQ Z0, Z0, Z0
	VPXORQ Z4, Z4, Z4
	XORQ   DX, DX
	TESTQ  R9, R9
	JZ     rsb_eight_sums

rsb_eight_rows:
	MOVQ         (R10)(DX*8), AX
	IMULQ        CX, AX
	ADDQ         BX, AX
	VBROADCASTSD (SI)(DX*8), Z8
	VFMADD231PD  (R11)(AX*1), Z8, Z0
	VFMADD231PD  (R12)(AX*1), Z8, Z4
	INCQ         DX
	CMPQ         DX, R9
	JNE          rsb_eight_rows

rsb_eight_sums:
	MOVQ    ST_YW(DI), AX
	VMOVUPD Z0, (AX)(BX*1)
	MOVQ    ST_ZW(DI), AX
	VMOVUPD Z4, (AX)(BX*1)
	RSB_CHUNK(0, Z0, Z4, Z16, Z20)
	ADDQ $64, BX
	DECQ R14
	JNZ  rsb_eight

rsb_reduce:
	// axpbyDotAVX512's reduction of its four accumulators.
	VADDPD    Z17, Z16, Z16
	VADDPD    Z19, Z18, Z18
	VADDPD    Z18, Z16, Z2
	VADDPD    Z21, Z20, Z20
	VADDPD    Z23, Z22, Z22
	VADDPD    Z22, Z20, Z3
	HSUM8(Z2, Y2, X2, Y11, X11)
	HSUM8(Z3, Y3, X3, Y12, X12)
	VMOVSD    X2, ssS+72(FP)
	VMOVSD    X3, ssV+80(FP)

	VMOVDQA64 Z24, Z7
	VMOVDQA64 Z25, Z4
	HMAXU8(Z7, Z13)
	HMAXU8(Z4, Z14)
	VMOVQ     X7, pBits+88(FP)
	VMOVQ     X4, mBits+96(FP)
	VZEROUPPER
	RET
