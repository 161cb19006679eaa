//go:build gc && !purego

#include "textflag.h"

// AVX2+FMA kernels of the low-rank sampling (lowrank.go). The Go wrappers
// (lowrank_amd64.go) have checked every length and pass whole vectors of 4
// columns only (cols a multiple of 4); rows are stride float64 apart.

// func combineRows4AVX2(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, first, last bool)
// Requires: AVX, FMA
//
// For the 4 rows r (stride apart) and j < cols, with the coefficients
// c[t*4+r] (transposed):
//
//	u = first ? s[j]·z_r[j] : x_r[j]
//	u = fma(c[t*4+r], p_t[j], u)   for t < kp, p_t = p + t·stride
//	x_r[j] = last ? fma(σ, u, m[j]) : u
//
// 8 columns a step (two ymm a row), then 4.
TEXT ·combineRows4AVX2(SB), NOSPLIT, $0-82
	MOVQ cols+56(FP), R9
	MOVQ stride+64(FP), R8
	MOVQ kp+72(FP), R11
	SHLQ $3, R8
	SHLQ $3, R9
	XORQ AX, AX

cr4_loop8:
	MOVQ R9, BX
	SUBQ AX, BX
	CMPQ BX, $64
	JLT  cr4_four
	MOVQ z+24(FP), BX
	CMPB first+80(FP), $0
	JNE  cr4_init8
	MOVQ x+0(FP), BX

cr4_init8:
	ADDQ    AX, BX
	LEAQ    (BX)(R8*2), SI
	VMOVUPD (BX), Y0
	VMOVUPD 32(BX), Y1
	VMOVUPD (BX)(R8*1), Y2
	VMOVUPD 32(BX)(R8*1), Y3
	VMOVUPD (SI), Y4
	VMOVUPD 32(SI), Y5
	VMOVUPD (SI)(R8*1), Y6
	VMOVUPD 32(SI)(R8*1), Y7
	CMPB    first+80(FP), $0
	JE      cr4_terms8_start
	MOVQ    s+16(FP), BX
	VMOVUPD (BX)(AX*1), Y8
	VMOVUPD 32(BX)(AX*1), Y9
	VMULPD  Y8, Y0, Y0
	VMULPD  Y9, Y1, Y1
	VMULPD  Y8, Y2, Y2
	VMULPD  Y9, Y3, Y3
	VMULPD  Y8, Y4, Y4
	VMULPD  Y9, Y5, Y5
	VMULPD  Y8, Y6, Y6
	VMULPD  Y9, Y7, Y7

cr4_terms8_start:
	MOVQ  p+32(FP), CX
	ADDQ  AX, CX
	MOVQ  c+40(FP), DI
	MOVQ  R11, R10
	TESTQ R10, R10
	JZ    cr4_fin8

cr4_terms8:
	VMOVUPD      (CX), Y8
	VMOVUPD      32(CX), Y9
	VBROADCASTSD (DI), Y10
	VFMADD231PD  Y8, Y10, Y0
	VFMADD231PD  Y9, Y10, Y1
	VBROADCASTSD 8(DI), Y10
	VFMADD231PD  Y8, Y10, Y2
	VFMADD231PD  Y9, Y10, Y3
	VBROADCASTSD 16(DI), Y10
	VFMADD231PD  Y8, Y10, Y4
	VFMADD231PD  Y9, Y10, Y5
	VBROADCASTSD 24(DI), Y10
	VFMADD231PD  Y8, Y10, Y6
	VFMADD231PD  Y9, Y10, Y7
	ADDQ         R8, CX
	ADDQ         $32, DI
	DECQ         R10
	JNZ          cr4_terms8

cr4_fin8:
	CMPB         last+81(FP), $0
	JE           cr4_store8
	MOVQ         m+8(FP), BX
	VMOVUPD      (BX)(AX*1), Y8
	VMOVUPD      32(BX)(AX*1), Y9
	VBROADCASTSD sigma+48(FP), Y10
	VFMADD213PD  Y8, Y10, Y0
	VFMADD213PD  Y9, Y10, Y1
	VFMADD213PD  Y8, Y10, Y2
	VFMADD213PD  Y9, Y10, Y3
	VFMADD213PD  Y8, Y10, Y4
	VFMADD213PD  Y9, Y10, Y5
	VFMADD213PD  Y8, Y10, Y6
	VFMADD213PD  Y9, Y10, Y7

cr4_store8:
	MOVQ    x+0(FP), BX
	ADDQ    AX, BX
	LEAQ    (BX)(R8*2), SI
	VMOVUPD Y0, (BX)
	VMOVUPD Y1, 32(BX)
	VMOVUPD Y2, (BX)(R8*1)
	VMOVUPD Y3, 32(BX)(R8*1)
	VMOVUPD Y4, (SI)
	VMOVUPD Y5, 32(SI)
	VMOVUPD Y6, (SI)(R8*1)
	VMOVUPD Y7, 32(SI)(R8*1)
	ADDQ    $64, AX
	JMP     cr4_loop8

cr4_four:
	CMPQ BX, $32
	JLT  cr4_done
	MOVQ z+24(FP), BX
	CMPB first+80(FP), $0
	JNE  cr4_init4
	MOVQ x+0(FP), BX

cr4_init4:
	ADDQ    AX, BX
	LEAQ    (BX)(R8*2), SI
	VMOVUPD (BX), Y0
	VMOVUPD (BX)(R8*1), Y2
	VMOVUPD (SI), Y4
	VMOVUPD (SI)(R8*1), Y6
	CMPB    first+80(FP), $0
	JE      cr4_terms4_start
	MOVQ    s+16(FP), BX
	VMOVUPD (BX)(AX*1), Y8
	VMULPD  Y8, Y0, Y0
	VMULPD  Y8, Y2, Y2
	VMULPD  Y8, Y4, Y4
	VMULPD  Y8, Y6, Y6

cr4_terms4_start:
	MOVQ  p+32(FP), CX
	ADDQ  AX, CX
	MOVQ  c+40(FP), DI
	MOVQ  R11, R10
	TESTQ R10, R10
	JZ    cr4_fin4

cr4_terms4:
	VMOVUPD      (CX), Y8
	VBROADCASTSD (DI), Y10
	VFMADD231PD  Y8, Y10, Y0
	VBROADCASTSD 8(DI), Y10
	VFMADD231PD  Y8, Y10, Y2
	VBROADCASTSD 16(DI), Y10
	VFMADD231PD  Y8, Y10, Y4
	VBROADCASTSD 24(DI), Y10
	VFMADD231PD  Y8, Y10, Y6
	ADDQ         R8, CX
	ADDQ         $32, DI
	DECQ         R10
	JNZ          cr4_terms4

cr4_fin4:
	CMPB         last+81(FP), $0
	JE           cr4_store4
	MOVQ         m+8(FP), BX
	VMOVUPD      (BX)(AX*1), Y8
	VBROADCASTSD sigma+48(FP), Y10
	VFMADD213PD  Y8, Y10, Y0
	VFMADD213PD  Y8, Y10, Y2
	VFMADD213PD  Y8, Y10, Y4
	VFMADD213PD  Y8, Y10, Y6

cr4_store4:
	MOVQ    x+0(FP), BX
	ADDQ    AX, BX
	LEAQ    (BX)(R8*2), SI
	VMOVUPD Y0, (BX)
	VMOVUPD Y2, (BX)(R8*1)
	VMOVUPD Y4, (SI)
	VMOVUPD Y6, (SI)(R8*1)

cr4_done:
	VZEROUPPER
	RET

// func combineRows1AVX2(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, first, last bool)
// Requires: AVX, FMA
//
// combineRows4AVX2 for one row, with its coefficients c[t] contiguous: 16
// columns a step (four ymm), then 4.
TEXT ·combineRows1AVX2(SB), NOSPLIT, $0-82
	MOVQ cols+56(FP), R9
	MOVQ stride+64(FP), R8
	MOVQ kp+72(FP), R11
	SHLQ $3, R8
	SHLQ $3, R9
	XORQ AX, AX

cr1_loop16:
	MOVQ R9, BX
	SUBQ AX, BX
	CMPQ BX, $128
	JLT  cr1_four
	MOVQ z+24(FP), BX
	CMPB first+80(FP), $0
	JNE  cr1_init16
	MOVQ x+0(FP), BX

cr1_init16:
	VMOVUPD (BX)(AX*1), Y0
	VMOVUPD 32(BX)(AX*1), Y1
	VMOVUPD 64(BX)(AX*1), Y2
	VMOVUPD 96(BX)(AX*1), Y3
	CMPB    first+80(FP), $0
	JE      cr1_terms16_start
	MOVQ    s+16(FP), BX
	VMULPD  (BX)(AX*1), Y0, Y0
	VMULPD  32(BX)(AX*1), Y1, Y1
	VMULPD  64(BX)(AX*1), Y2, Y2
	VMULPD  96(BX)(AX*1), Y3, Y3

cr1_terms16_start:
	MOVQ  p+32(FP), CX
	ADDQ  AX, CX
	MOVQ  c+40(FP), DI
	MOVQ  R11, R10
	TESTQ R10, R10
	JZ    cr1_fin16

cr1_terms16:
	VBROADCASTSD (DI), Y10
	VFMADD231PD  (CX), Y10, Y0
	VFMADD231PD  32(CX), Y10, Y1
	VFMADD231PD  64(CX), Y10, Y2
	VFMADD231PD  96(CX), Y10, Y3
	ADDQ         R8, CX
	ADDQ         $8, DI
	DECQ         R10
	JNZ          cr1_terms16

cr1_fin16:
	CMPB         last+81(FP), $0
	JE           cr1_store16
	MOVQ         m+8(FP), BX
	VBROADCASTSD sigma+48(FP), Y10
	VFMADD213PD  (BX)(AX*1), Y10, Y0
	VFMADD213PD  32(BX)(AX*1), Y10, Y1
	VFMADD213PD  64(BX)(AX*1), Y10, Y2
	VFMADD213PD  96(BX)(AX*1), Y10, Y3

cr1_store16:
	MOVQ    x+0(FP), BX
	VMOVUPD Y0, (BX)(AX*1)
	VMOVUPD Y1, 32(BX)(AX*1)
	VMOVUPD Y2, 64(BX)(AX*1)
	VMOVUPD Y3, 96(BX)(AX*1)
	ADDQ    $128, AX
	JMP     cr1_loop16

cr1_four:
	MOVQ R9, BX
	SUBQ AX, BX
	CMPQ BX, $32
	JLT  cr1_done
	MOVQ z+24(FP), BX
	CMPB first+80(FP), $0
	JNE  cr1_init4
	MOVQ x+0(FP), BX

cr1_init4:
	VMOVUPD (BX)(AX*1), Y0
	CMPB    first+80(FP), $0
	JE      cr1_terms4_start
	MOVQ    s+16(FP), BX
	VMULPD  (BX)(AX*1), Y0, Y0

cr1_terms4_start:
	MOVQ  p+32(FP), CX
	ADDQ  AX, CX
	MOVQ  c+40(FP), DI
	MOVQ  R11, R10
	TESTQ R10, R10
	JZ    cr1_fin4

cr1_terms4:
	VBROADCASTSD (DI), Y10
	VFMADD231PD  (CX), Y10, Y0
	ADDQ         R8, CX
	ADDQ         $8, DI
	DECQ         R10
	JNZ          cr1_terms4

cr1_fin4:
	CMPB         last+81(FP), $0
	JE           cr1_store4
	MOVQ         m+8(FP), BX
	VBROADCASTSD sigma+48(FP), Y10
	VFMADD213PD  (BX)(AX*1), Y10, Y0

cr1_store4:
	MOVQ    x+0(FP), BX
	VMOVUPD Y0, (BX)(AX*1)
	ADDQ    $32, AX
	JMP     cr1_four

cr1_done:
	VZEROUPPER
	RET

// ROW_8 adds a row's term to its 8 columns in a0 and a1: the row's
// coefficient at off(DI) broadcast into b, times the term's p in Y12 and
// Y13.
#define ROW_8(off, b, a0, a1) \
	VBROADCASTSD off(DI), b \
	VFMADD231PD  Y12, b, a0 \
	VFMADD231PD  Y13, b, a1

// TERM6_8 is one term step of combineRows6AVX2's 8 columns: the term's
// p in Y12 and Y13, each row's coefficient broadcast, 12 FMAs; it leaves
// the flags of the count of terms left.
#define TERM6_8 \
	VMOVUPD (CX), Y12            \
	VMOVUPD 32(CX), Y13          \
	ROW_8(0, Y14, Y0, Y1)        \
	ROW_8(8, Y15, Y2, Y3)        \
	ROW_8(16, Y14, Y4, Y5)       \
	ROW_8(24, Y15, Y6, Y7)       \
	ROW_8(32, Y14, Y8, Y9)       \
	ROW_8(40, Y15, Y10, Y11)     \
	ADDQ    R8, CX               \
	ADDQ    $48, DI              \
	DECQ    R10

// STORE6_8 writes combineRows6AVX2's 6 rows × 8 columns at BX, BX +
// stride, SI, SI + stride, DX, DX + stride with the store mov.
#define STORE6_8(mov) \
	mov Y0, (BX)              \
	mov Y1, 32(BX)            \
	mov Y2, (BX)(R8*1)        \
	mov Y3, 32(BX)(R8*1)      \
	mov Y4, (SI)              \
	mov Y5, 32(SI)            \
	mov Y6, (SI)(R8*1)        \
	mov Y7, 32(SI)(R8*1)      \
	mov Y8, (DX)              \
	mov Y9, 32(DX)            \
	mov Y10, (DX)(R8*1)       \
	mov Y11, 32(DX)(R8*1)

// PF4_ROW asks L1 for the 4 cache lines from addr.
#define PF4_ROW(addr) PREFETCHT0 addr; PREFETCHT0 64+addr; PREFETCHT0 128+addr; PREFETCHT0 192+addr

// func combineRows6AVX2(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, pfp *float64, pfleft, pfw int, nt, first, last bool)
// Requires: AVX, FMA
//
// combineRows4AVX2 for 6 rows (coefficients c[t*6+r]): 12 accumulators of
// 6 rows × 8 columns, so that two fused multiply-adds of each row's chain
// are in flight at once while a term's 8 columns of p are loaded once for
// 6 rows; then 6 rows × 4 columns. The 8-column steps that start a group
// of 32 columns (the steps of combineRows6AVX512) take its walk and its
// requests for z: with pfp non-nil each of their term steps asks L2 for
// the next cache line of the walk (pfp, pfleft and pfw as there), and
// each asks L1 for the 6 rows of z 1 KiB on. With nt set (x and its row
// stride 64-byte aligned) the 8-column steps write x with non-temporal
// stores, and an SFENCE ends the call.
TEXT ·combineRows6AVX2(SB), NOSPLIT, $0-107
	MOVQ cols+56(FP), R9
	MOVQ stride+64(FP), R8
	MOVQ kp+72(FP), R11
	SHLQ $3, R8
	SHLQ $3, R9
	MOVQ pfp+80(FP), R12
	MOVQ pfleft+88(FP), R13
	XORQ AX, AX

cr6_loop8:
	MOVQ R9, BX
	SUBQ AX, BX
	CMPQ BX, $64
	JLT  cr6_four
	MOVQ z+24(FP), BX
	CMPB first+105(FP), $0
	JNE  cr6_init8
	MOVQ x+0(FP), BX

cr6_init8:
	ADDQ  AX, BX
	LEAQ  (BX)(R8*2), SI
	LEAQ  (SI)(R8*2), DX
	TESTQ R12, R12
	JZ    cr6_load8
	TESTQ $255, AX
	JNZ   cr6_load8
	PF4_ROW(1024(BX))
	PF4_ROW(1024(BX)(R8*1))
	PF4_ROW(1024(SI))
	PF4_ROW(1024(SI)(R8*1))
	PF4_ROW(1024(DX))
	PF4_ROW(1024(DX)(R8*1))

cr6_load8:
	VMOVUPD (BX), Y0
	VMOVUPD 32(BX), Y1
	VMOVUPD (BX)(R8*1), Y2
	VMOVUPD 32(BX)(R8*1), Y3
	VMOVUPD (SI), Y4
	VMOVUPD 32(SI), Y5
	VMOVUPD (SI)(R8*1), Y6
	VMOVUPD 32(SI)(R8*1), Y7
	VMOVUPD (DX), Y8
	VMOVUPD 32(DX), Y9
	VMOVUPD (DX)(R8*1), Y10
	VMOVUPD 32(DX)(R8*1), Y11
	CMPB    first+105(FP), $0
	JE      cr6_terms8_start
	MOVQ    s+16(FP), BX
	VMOVUPD (BX)(AX*1), Y12
	VMOVUPD 32(BX)(AX*1), Y13
	VMULPD Y12, Y0, Y0
	VMULPD Y13, Y1, Y1
	VMULPD Y12, Y2, Y2
	VMULPD Y13, Y3, Y3
	VMULPD Y12, Y4, Y4
	VMULPD Y13, Y5, Y5
	VMULPD Y12, Y6, Y6
	VMULPD Y13, Y7, Y7
	VMULPD Y12, Y8, Y8
	VMULPD Y13, Y9, Y9
	VMULPD Y12, Y10, Y10
	VMULPD Y13, Y11, Y11

cr6_terms8_start:
	MOVQ  p+32(FP), CX
	ADDQ  AX, CX
	MOVQ  c+40(FP), DI
	MOVQ  R11, R10
	TESTQ R10, R10
	JZ    cr6_fin8
	TESTQ R12, R12
	JZ    cr6_terms8
	TESTQ $255, AX
	JNZ   cr6_terms8

cr6_terms8_pf:
	PREFETCHT1 (R12)
	ADDQ       $64, R12
	SUBQ       $64, R13
	JNZ        cr6_pf_term
	ADDQ       R8, R12
	MOVQ       pfw+96(FP), R13
	SUBQ       R13, R12

cr6_pf_term:
	TERM6_8
	JNZ cr6_terms8_pf
	JMP cr6_fin8

cr6_terms8:
	TERM6_8
	JNZ cr6_terms8

cr6_fin8:
	CMPB         last+106(FP), $0
	JE           cr6_store8
	MOVQ         m+8(FP), BX
	VMOVUPD      (BX)(AX*1), Y12
	VMOVUPD      32(BX)(AX*1), Y13
	VBROADCASTSD sigma+48(FP), Y14
	VFMADD213PD Y12, Y14, Y0
	VFMADD213PD Y13, Y14, Y1
	VFMADD213PD Y12, Y14, Y2
	VFMADD213PD Y13, Y14, Y3
	VFMADD213PD Y12, Y14, Y4
	VFMADD213PD Y13, Y14, Y5
	VFMADD213PD Y12, Y14, Y6
	VFMADD213PD Y13, Y14, Y7
	VFMADD213PD Y12, Y14, Y8
	VFMADD213PD Y13, Y14, Y9
	VFMADD213PD Y12, Y14, Y10
	VFMADD213PD Y13, Y14, Y11

cr6_store8:
	MOVQ x+0(FP), BX
	ADDQ AX, BX
	LEAQ (BX)(R8*2), SI
	LEAQ (SI)(R8*2), DX
	CMPB nt+104(FP), $0
	JE   cr6_st8
	STORE6_8(VMOVNTPD)
	JMP  cr6_next8

cr6_st8:
	STORE6_8(VMOVUPD)

cr6_next8:
	ADDQ $64, AX
	JMP  cr6_loop8

cr6_four:
	CMPQ BX, $32
	JLT  cr6_done
	MOVQ z+24(FP), BX
	CMPB first+105(FP), $0
	JNE  cr6_init4
	MOVQ x+0(FP), BX

cr6_init4:
	ADDQ AX, BX
	LEAQ (BX)(R8*2), SI
	LEAQ (SI)(R8*2), DX
	VMOVUPD (BX), Y0
	VMOVUPD (BX)(R8*1), Y2
	VMOVUPD (SI), Y4
	VMOVUPD (SI)(R8*1), Y6
	VMOVUPD (DX), Y8
	VMOVUPD (DX)(R8*1), Y10
	CMPB    first+105(FP), $0
	JE      cr6_terms4_start
	MOVQ    s+16(FP), BX
	VMOVUPD (BX)(AX*1), Y12
	VMULPD Y12, Y0, Y0
	VMULPD Y12, Y2, Y2
	VMULPD Y12, Y4, Y4
	VMULPD Y12, Y6, Y6
	VMULPD Y12, Y8, Y8
	VMULPD Y12, Y10, Y10

cr6_terms4_start:
	MOVQ  p+32(FP), CX
	ADDQ  AX, CX
	MOVQ  c+40(FP), DI
	MOVQ  R11, R10
	TESTQ R10, R10
	JZ    cr6_fin4

cr6_terms4:
	VMOVUPD (CX), Y12
	VBROADCASTSD 0(DI), Y14
	VFMADD231PD Y12, Y14, Y0
	VBROADCASTSD 8(DI), Y15
	VFMADD231PD Y12, Y15, Y2
	VBROADCASTSD 16(DI), Y14
	VFMADD231PD Y12, Y14, Y4
	VBROADCASTSD 24(DI), Y15
	VFMADD231PD Y12, Y15, Y6
	VBROADCASTSD 32(DI), Y14
	VFMADD231PD Y12, Y14, Y8
	VBROADCASTSD 40(DI), Y15
	VFMADD231PD Y12, Y15, Y10
	ADDQ R8, CX
	ADDQ $48, DI
	DECQ R10
	JNZ  cr6_terms4

cr6_fin4:
	CMPB         last+106(FP), $0
	JE           cr6_store4
	MOVQ         m+8(FP), BX
	VMOVUPD      (BX)(AX*1), Y12
	VBROADCASTSD sigma+48(FP), Y14
	VFMADD213PD Y12, Y14, Y0
	VFMADD213PD Y12, Y14, Y2
	VFMADD213PD Y12, Y14, Y4
	VFMADD213PD Y12, Y14, Y6
	VFMADD213PD Y12, Y14, Y8
	VFMADD213PD Y12, Y14, Y10

cr6_store4:
	MOVQ x+0(FP), BX
	ADDQ AX, BX
	LEAQ (BX)(R8*2), SI
	LEAQ (SI)(R8*2), DX
	VMOVUPD Y0, (BX)
	VMOVUPD Y2, (BX)(R8*1)
	VMOVUPD Y4, (SI)
	VMOVUPD Y6, (SI)(R8*1)
	VMOVUPD Y8, (DX)
	VMOVUPD Y10, (DX)(R8*1)

cr6_done:
	CMPB nt+104(FP), $0
	JE   cr6_ret
	SFENCE

cr6_ret:
	VZEROUPPER
	RET
