//go:build gc && !purego

#include "textflag.h"

// NEON kernels of the low-rank sampling (lowrank.go); the Go wrappers are
// in lowrank_arm64.go and pass whole groups of 4 columns only. As in
// kernel_arm64.s the assembler has no vector FADD or FMUL: a + b is
// fma(1, b, a) and m·x is fma(m, x, −0), one rounding each, the bits of
// FADD and FMUL. VFMLA Vm, Vn, Vd computes Vd += Vn·Vm.

// RSUM2: s = [c0[0]+c0[1], c1[0]+c1[1]] (h is scratch, one is [1, 1]).
#define RSUM2(c0, c1, s, h, one) \
	VZIP1 c1.D2, c0.D2, s.D2; \
	VZIP2 c1.D2, c0.D2, h.D2; \
	VFMLA one.D2, h.D2, s.D2

// ADD2: the two float64 at (addr) += s (d is scratch).
#define ADD2(addr, s, d, one) \
	VLD1  (addr), [d.D2]; \
	VFMLA one.D2, s.D2, d.D2; \
	VST1  [d.D2], (addr)

// func dotRows4x3NEON(dst, a, b *float64, cols, stride, ldd int)
//
// dst[j*ldd+i] += a_i·b_j for i < 4, j < 3 over cols columns (a multiple
// of 2): one accumulator a pair, lane l summing the columns ≡ l mod 2, then
// lane 0 + lane 1 added to dst.
TEXT ·dotRows4x3NEON(SB), NOSPLIT, $0-48
	MOVD dst+0(FP), R0
	MOVD a+8(FP), R1
	MOVD b+16(FP), R5
	MOVD cols+24(FP), R10
	MOVD stride+32(FP), R11
	MOVD ldd+40(FP), R12
	LSL  $3, R11
	LSL  $3, R12
	ADD  R11, R1, R2
	ADD  R11, R2, R3
	ADD  R11, R3, R4
	ADD  R11, R5, R6
	ADD  R11, R6, R7
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	VEOR V20.B16, V20.B16, V20.B16
	VEOR V21.B16, V21.B16, V21.B16
	VEOR V22.B16, V22.B16, V22.B16
	VEOR V23.B16, V23.B16, V23.B16
	VEOR V24.B16, V24.B16, V24.B16
	VEOR V25.B16, V25.B16, V25.B16
	VEOR V26.B16, V26.B16, V26.B16
	VEOR V27.B16, V27.B16, V27.B16
	LSR  $1, R10
	CBZ  R10, dr43_reduce

dr43_loop:
	VLD1.P 16(R5), [V4.D2]
	VLD1.P 16(R6), [V5.D2]
	VLD1.P 16(R7), [V6.D2]
	VLD1.P 16(R1), [V0.D2]
	VLD1.P 16(R2), [V1.D2]
	VLD1.P 16(R3), [V2.D2]
	VLD1.P 16(R4), [V3.D2]
	VFMLA  V4.D2, V0.D2, V16.D2
	VFMLA  V5.D2, V0.D2, V17.D2
	VFMLA  V6.D2, V0.D2, V18.D2
	VFMLA  V4.D2, V1.D2, V19.D2
	VFMLA  V5.D2, V1.D2, V20.D2
	VFMLA  V6.D2, V1.D2, V21.D2
	VFMLA  V4.D2, V2.D2, V22.D2
	VFMLA  V5.D2, V2.D2, V23.D2
	VFMLA  V6.D2, V2.D2, V24.D2
	VFMLA  V4.D2, V3.D2, V25.D2
	VFMLA  V5.D2, V3.D2, V26.D2
	VFMLA  V6.D2, V3.D2, V27.D2
	SUBS   $1, R10
	BNE    dr43_loop

dr43_reduce:
	FMOVD $(1.0), F15
	VDUP  V15.D[0], V15.D2
	// j = 0: rows 0..3 are C00 (V16), C10 (V19), C20 (V22), C30 (V25).
	RSUM2(V16, V19, V8, V9, V15)
	ADD2(R0, V8, V10, V15)
	ADD   $16, R0, R13
	RSUM2(V22, V25, V8, V9, V15)
	ADD2(R13, V8, V10, V15)
	// j = 1.
	ADD   R12, R0, R13
	RSUM2(V17, V20, V8, V9, V15)
	ADD2(R13, V8, V10, V15)
	ADD   $16, R13
	RSUM2(V23, V26, V8, V9, V15)
	ADD2(R13, V8, V10, V15)
	// j = 2.
	ADD   R12, R0, R13
	ADD   R12, R13
	RSUM2(V18, V21, V8, V9, V15)
	ADD2(R13, V8, V10, V15)
	ADD   $16, R13
	RSUM2(V24, V27, V8, V9, V15)
	ADD2(R13, V8, V10, V15)
	RET

// func dotRows4x1NEON(dst, a, b *float64, cols, stride int)
//
// dst[i] += a_i·b for i < 4, as dotRows4x3NEON.
TEXT ·dotRows4x1NEON(SB), NOSPLIT, $0-40
	MOVD dst+0(FP), R0
	MOVD a+8(FP), R1
	MOVD b+16(FP), R5
	MOVD cols+24(FP), R10
	MOVD stride+32(FP), R11
	LSL  $3, R11
	ADD  R11, R1, R2
	ADD  R11, R2, R3
	ADD  R11, R3, R4
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	LSR  $1, R10
	CBZ  R10, dr41_reduce

dr41_loop:
	VLD1.P 16(R5), [V4.D2]
	VLD1.P 16(R1), [V0.D2]
	VLD1.P 16(R2), [V1.D2]
	VLD1.P 16(R3), [V2.D2]
	VLD1.P 16(R4), [V3.D2]
	VFMLA  V4.D2, V0.D2, V16.D2
	VFMLA  V4.D2, V1.D2, V17.D2
	VFMLA  V4.D2, V2.D2, V18.D2
	VFMLA  V4.D2, V3.D2, V19.D2
	SUBS   $1, R10
	BNE    dr41_loop

dr41_reduce:
	FMOVD $(1.0), F15
	VDUP  V15.D[0], V15.D2
	RSUM2(V16, V17, V8, V9, V15)
	ADD2(R0, V8, V10, V15)
	ADD   $16, R0
	RSUM2(V18, V19, V8, V9, V15)
	ADD2(R0, V8, V10, V15)
	RET

// func combineRows4NEON(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, first, last bool)
//
// For the 4 rows r (stride apart) and j < cols (a multiple of 4), with the
// coefficients c[t*4+r]:
//
//	u = first ? s[j]·z_r[j] : x_r[j]
//	u = fma(c[t*4+r], p_t[j], u)   for t < kp
//	x_r[j] = last ? fma(σ, u, m[j]) : u
//
// 4 columns a step: two D2 accumulators a row (V16..V23).
TEXT ·combineRows4NEON(SB), NOSPLIT, $0-82
	MOVD  cols+56(FP), R9
	MOVD  stride+64(FP), R11
	MOVD  kp+72(FP), R12
	LSL   $3, R11
	MOVD  $0x8000000000000000, R19
	VDUP  R19, V14.D2 // [−0, −0]
	FMOVD sigma+48(FP), F13
	VDUP  V13.D[0], V13.D2
	MOVD  ZR, R8      // column offset in bytes
	LSR   $2, R9
	CBZ   R9, cr4_done

cr4_loop:
	// rows of z (or x) at R1..R4
	MOVD  z+24(FP), R1
	MOVBU first+80(FP), R20
	CBNZ  R20, cr4_rows
	MOVD  x+0(FP), R1

cr4_rows:
	ADD  R8, R1
	ADD  R11, R1, R2
	ADD  R11, R2, R3
	ADD  R11, R3, R4
	VLD1 (R1), [V16.D2, V17.D2]
	VLD1 (R2), [V18.D2, V19.D2]
	VLD1 (R3), [V20.D2, V21.D2]
	VLD1 (R4), [V22.D2, V23.D2]
	CBZ  R20, cr4_terms_start
	MOVD s+16(FP), R5
	ADD  R8, R5
	VLD1 (R5), [V8.D2, V9.D2]
	VMOV V16.B16, V0.B16
	VMOV V17.B16, V1.B16
	VMOV V18.B16, V2.B16
	VMOV V19.B16, V3.B16
	VMOV V20.B16, V4.B16
	VMOV V21.B16, V5.B16
	VMOV V22.B16, V6.B16
	VMOV V23.B16, V7.B16
	VMOV V14.B16, V16.B16
	VMOV V14.B16, V17.B16
	VMOV V14.B16, V18.B16
	VMOV V14.B16, V19.B16
	VMOV V14.B16, V20.B16
	VMOV V14.B16, V21.B16
	VMOV V14.B16, V22.B16
	VMOV V14.B16, V23.B16
	VFMLA V8.D2, V0.D2, V16.D2
	VFMLA V9.D2, V1.D2, V17.D2
	VFMLA V8.D2, V2.D2, V18.D2
	VFMLA V9.D2, V3.D2, V19.D2
	VFMLA V8.D2, V4.D2, V20.D2
	VFMLA V9.D2, V5.D2, V21.D2
	VFMLA V8.D2, V6.D2, V22.D2
	VFMLA V9.D2, V7.D2, V23.D2

cr4_terms_start:
	MOVD p+32(FP), R6
	ADD  R8, R6
	MOVD c+40(FP), R7
	MOVD R12, R10
	CBZ  R10, cr4_fin

cr4_terms:
	VLD1    (R6), [V0.D2, V1.D2]
	ADD     R11, R6
	VLD1R.P 8(R7), [V4.D2]
	VLD1R.P 8(R7), [V5.D2]
	VLD1R.P 8(R7), [V6.D2]
	VLD1R.P 8(R7), [V7.D2]
	VFMLA   V0.D2, V4.D2, V16.D2
	VFMLA   V1.D2, V4.D2, V17.D2
	VFMLA   V0.D2, V5.D2, V18.D2
	VFMLA   V1.D2, V5.D2, V19.D2
	VFMLA   V0.D2, V6.D2, V20.D2
	VFMLA   V1.D2, V6.D2, V21.D2
	VFMLA   V0.D2, V7.D2, V22.D2
	VFMLA   V1.D2, V7.D2, V23.D2
	SUBS    $1, R10
	BNE     cr4_terms

cr4_fin:
	MOVBU last+81(FP), R21
	CBZ   R21, cr4_store
	MOVD  m+8(FP), R5
	ADD   R8, R5
	VLD1  (R5), [V8.D2, V9.D2]
	VMOV  V8.B16, V24.B16
	VMOV  V9.B16, V25.B16
	VMOV  V8.B16, V26.B16
	VMOV  V9.B16, V27.B16
	VMOV  V8.B16, V28.B16
	VMOV  V9.B16, V29.B16
	VMOV  V8.B16, V30.B16
	VMOV  V9.B16, V31.B16
	VFMLA V13.D2, V16.D2, V24.D2
	VFMLA V13.D2, V17.D2, V25.D2
	VFMLA V13.D2, V18.D2, V26.D2
	VFMLA V13.D2, V19.D2, V27.D2
	VFMLA V13.D2, V20.D2, V28.D2
	VFMLA V13.D2, V21.D2, V29.D2
	VFMLA V13.D2, V22.D2, V30.D2
	VFMLA V13.D2, V23.D2, V31.D2
	VMOV  V24.B16, V16.B16
	VMOV  V25.B16, V17.B16
	VMOV  V26.B16, V18.B16
	VMOV  V27.B16, V19.B16
	VMOV  V28.B16, V20.B16
	VMOV  V29.B16, V21.B16
	VMOV  V30.B16, V22.B16
	VMOV  V31.B16, V23.B16

cr4_store:
	MOVD x+0(FP), R1
	ADD  R8, R1
	ADD  R11, R1, R2
	ADD  R11, R2, R3
	ADD  R11, R3, R4
	VST1 [V16.D2, V17.D2], (R1)
	VST1 [V18.D2, V19.D2], (R2)
	VST1 [V20.D2, V21.D2], (R3)
	VST1 [V22.D2, V23.D2], (R4)
	ADD  $32, R8
	SUBS $1, R9
	BNE  cr4_loop

cr4_done:
	RET

// func combineRows1NEON(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, first, last bool)
//
// combineRows4NEON for one row, its coefficients c[t] contiguous: 4
// columns a step (two D2 accumulators).
TEXT ·combineRows1NEON(SB), NOSPLIT, $0-82
	MOVD  cols+56(FP), R9
	MOVD  stride+64(FP), R11
	MOVD  kp+72(FP), R12
	LSL   $3, R11
	MOVD  $0x8000000000000000, R19
	VDUP  R19, V14.D2
	FMOVD sigma+48(FP), F13
	VDUP  V13.D[0], V13.D2
	MOVD  ZR, R8
	LSR   $2, R9
	CBZ   R9, cr1_done

cr1_loop:
	MOVD  z+24(FP), R1
	MOVBU first+80(FP), R20
	CBNZ  R20, cr1_row
	MOVD  x+0(FP), R1

cr1_row:
	ADD   R8, R1
	VLD1  (R1), [V16.D2, V17.D2]
	CBZ   R20, cr1_terms_start
	MOVD  s+16(FP), R5
	ADD   R8, R5
	VLD1  (R5), [V8.D2, V9.D2]
	VMOV  V16.B16, V0.B16
	VMOV  V17.B16, V1.B16
	VMOV  V14.B16, V16.B16
	VMOV  V14.B16, V17.B16
	VFMLA V8.D2, V0.D2, V16.D2
	VFMLA V9.D2, V1.D2, V17.D2

cr1_terms_start:
	MOVD p+32(FP), R6
	ADD  R8, R6
	MOVD c+40(FP), R7
	MOVD R12, R10
	CBZ  R10, cr1_fin

cr1_terms:
	VLD1    (R6), [V0.D2, V1.D2]
	ADD     R11, R6
	VLD1R.P 8(R7), [V4.D2]
	VFMLA   V0.D2, V4.D2, V16.D2
	VFMLA   V1.D2, V4.D2, V17.D2
	SUBS    $1, R10
	BNE     cr1_terms

cr1_fin:
	MOVBU last+81(FP), R21
	CBZ   R21, cr1_store
	MOVD  m+8(FP), R5
	ADD   R8, R5
	VLD1  (R5), [V24.D2, V25.D2]
	VFMLA V13.D2, V16.D2, V24.D2
	VFMLA V13.D2, V17.D2, V25.D2
	VMOV  V24.B16, V16.B16
	VMOV  V25.B16, V17.B16

cr1_store:
	MOVD x+0(FP), R1
	ADD  R8, R1
	VST1 [V16.D2, V17.D2], (R1)
	ADD  $32, R8
	SUBS $1, R9
	BNE  cr1_loop

cr1_done:
	RET
