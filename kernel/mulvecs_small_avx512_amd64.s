//go:build gc && !purego

#include "textflag.h"
#include "transpose_amd64.h"

// MulVecs for small n on AVX-512, in blocks of up to 8 rows and 16 columns
// of A: a block is loaded once per call, one row per register (columns 0-7
// of the block, then 8-15), and transposed so that one register holds a
// column of the block's rows (Z24-Z31: the block's columns 0-7, Z16-Z23:
// 8-15). Then the block's part of y_j is Σ_c A[rows, c]·x_j[c], a chain of
// multiply-adds with x_j[c] broadcast from memory, continued from the part
// of the block to the left (loaded from y) and stored under a mask. No
// horizontal sums, and one call for all k vectors.
//
// Registers: R10 the block's first row, R12 its first column, CX its width
// (≤ 16), R9 its rows (≤ 8), R11 n, R8 n·8, BX vectors left, DI x_j at the
// block's first column, DX y_j at the block's first row, SI and AX scratch;
// K2 the block's rows, K1 its columns 0-7, K3 its columns 8-15.

// SMALL_ROW loads row r of the block (at SI, rows R8 bytes apart) into zr,
// masked by kc, when r < R9; after the last row it jumps to loaded.
#define SMALL_ROW(r, zr, kc, loaded) \
	CMPQ      R9, $r        \
	JLE       loaded        \
	VMOVUPD.Z (SI), kc, zr  \
	ADDQ      R8, SI

// SMALL_ROWS loads the block's rows, columns off/8 to off/8+7 of the block
// (masked by kc), into Z0-Z7 (the rows past R9 zero) and transposes them
// into Z24-Z31.
#define SMALL_ROWS(off, kc, loaded) \
	VPXORQ    Z1, Z1, Z1            \
	VPXORQ    Z2, Z2, Z2            \
	VPXORQ    Z3, Z3, Z3            \
	VPXORQ    Z4, Z4, Z4            \
	VPXORQ    Z5, Z5, Z5            \
	VPXORQ    Z6, Z6, Z6            \
	VPXORQ    Z7, Z7, Z7            \
	MOVQ      R10, SI               \
	IMULQ     R8, SI                \
	LEAQ      off(SI)(R12*8), SI    \
	ADDQ      a_base+24(FP), SI     \
	VMOVUPD.Z (SI), kc, Z0          \
	ADDQ      R8, SI                \
	SMALL_ROW(1, Z1, kc, loaded)    \
	SMALL_ROW(2, Z2, kc, loaded)    \
	SMALL_ROW(3, Z3, kc, loaded)    \
	SMALL_ROW(4, Z4, kc, loaded)    \
	SMALL_ROW(5, Z5, kc, loaded)    \
	SMALL_ROW(6, Z6, kc, loaded)    \
	SMALL_ROW(7, Z7, kc, loaded)    \
loaded:                             \
	TRANSPOSE8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)

// SMALL_TERM adds the block's column c (in zc) times x_j at the block's
// column c (at DI) to Z0; after the block's last column it jumps to store.
#define SMALL_TERM(c, zc, store) \
	CMPQ             CX, $c \
	JLE              store  \
	VFMADD231PD.BCST (c*8)(DI), zc, Z0

// SMALL_TERMS adds the block's columns 1 to 15 (as far as its width CX
// goes) to Z0, then jumps to store.
#define SMALL_TERMS(store) \
	SMALL_TERM(1, Z25, store) \
	SMALL_TERM(2, Z26, store) \
	SMALL_TERM(3, Z27, store) \
	SMALL_TERM(4, Z28, store) \
	SMALL_TERM(5, Z29, store) \
	SMALL_TERM(6, Z30, store) \
	SMALL_TERM(7, Z31, store) \
	SMALL_TERM(8, Z16, store) \
	SMALL_TERM(9, Z17, store) \
	SMALL_TERM(10, Z18, store) \
	SMALL_TERM(11, Z19, store) \
	SMALL_TERM(12, Z20, store) \
	SMALL_TERM(13, Z21, store) \
	SMALL_TERM(14, Z22, store) \
	SMALL_TERM(15, Z23, store)

// MASK sets the opmask k to the low r lanes (r ≤ 16 in a general register
// other than CX); AX is scratch, CX is kept.
#define MASK(r, k) \
	XCHGQ r, CX  \
	MOVQ  $1, AX \
	SHLQ  CX, AX \
	DECQ  AX     \
	KMOVW AX, k  \
	XCHGQ r, CX

// UPD applies the rank-one update to row r of the block, held in zr
// (columns masked by kc, at SI): zr = fma(v, fl(β·p_r), fl(α·zr)), the
// rounding of scaleAddOuterAVX512, and stores it back into A. AX points at
// p at the block's first row, X11 holds β, Z8 α broadcast, Z9 v at the
// block's columns.
#define UPD(r, zr, kc) \
	VMULSD       (r*8)(AX), X11, X10 \
	VBROADCASTSD X10, Z10            \
	VMULPD       Z8, zr, zr          \
	VFMADD231PD  Z9, Z10, zr         \
	VMOVUPD      zr, kc, (SI)

// UPD_ROW is SMALL_ROW with the update applied to the row.
#define UPD_ROW(r, zr, kc, loaded) \
	CMPQ      R9, $r        \
	JLE       loaded        \
	VMOVUPD.Z (SI), kc, zr  \
	UPD(r, zr, kc)          \
	ADDQ      R8, SI

// UPD_ROWS is SMALL_ROWS with the update applied to the block's rows (and
// stored into A) before the transpose.
#define UPD_ROWS(off, kc, loaded) \
	VPXORQ       Z1, Z1, Z1            \
	VPXORQ       Z2, Z2, Z2            \
	VPXORQ       Z3, Z3, Z3            \
	VPXORQ       Z4, Z4, Z4            \
	VPXORQ       Z5, Z5, Z5            \
	VPXORQ       Z6, Z6, Z6            \
	VPXORQ       Z7, Z7, Z7            \
	MOVQ         R10, SI               \
	IMULQ        R8, SI                \
	LEAQ         off(SI)(R12*8), SI    \
	ADDQ         a_base+24(FP), SI     \
	MOVQ         p_base+104(FP), AX    \
	LEAQ         (AX)(R10*8), AX       \
	MOVQ         v_base+128(FP), R13   \
	LEAQ         off(R13)(R12*8), R13  \
	VMOVUPD.Z    (R13), kc, Z9         \
	VBROADCASTSD alpha+88(FP), Z8      \
	VMOVSD       beta+96(FP), X11      \
	VMOVUPD.Z    (SI), kc, Z0          \
	UPD(0, Z0, kc)                     \
	ADDQ         R8, SI                \
	UPD_ROW(1, Z1, kc, loaded)         \
	UPD_ROW(2, Z2, kc, loaded)         \
	UPD_ROW(3, Z3, kc, loaded)         \
	UPD_ROW(4, Z4, kc, loaded)         \
	UPD_ROW(5, Z5, kc, loaded)         \
	UPD_ROW(6, Z6, kc, loaded)         \
	UPD_ROW(7, Z7, kc, loaded)         \
loaded:                                \
	TRANSPOSE8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)

// func mulVecsSmallAVX512(y, a []float64, n int, x []float64, k int)
// Requires: AVX512F
//
//	for j < k, r < n: y[j*n+r] = fma(a[r*n+n−1], x[j*n+n−1], … fma(a[r*n+1], x[j*n+1], a[r*n]·x[j*n]))
//
// n ≥ 1, k ≥ 1, len(a) ≥ n·n, len(x), len(y) ≥ k·n.
TEXT ·mulVecsSmallAVX512(SB), NOSPLIT, $0-88
	MOVQ n+48(FP), R11
	MOVQ R11, R8
	SHLQ $3, R8           // bytes per row of A and per vector
	XORQ R10, R10

small_block_rows:
	MOVQ R11, R9          // R9 = min(8, n − R10) rows, K2 their lanes
	SUBQ R10, R9
	CMPQ R9, $8
	JLE  small_rows
	MOVQ $8, R9

small_rows:
	MASK(R9, K2)
	XORQ R12, R12

small_block:
	MOVQ R11, CX          // CX = min(16, n − R12) columns
	SUBQ R12, CX
	CMPQ CX, $16
	JLE  small_cols
	MOVQ $16, CX

small_cols:
	MOVQ CX, R13          // K1 = min(8, CX) lanes, K3 = CX − 8 lanes
	CMPQ R13, $8
	JLE  small_k1
	MOVQ $8, R13

small_k1:
	MASK(R13, K1)
	CMPQ CX, $8
	JLE  small_low
	MOVQ CX, R13
	SUBQ $8, R13
	MASK(R13, K3)
	SMALL_ROWS(64, K3, small_high_loaded)
	VMOVAPD Z24, Z16
	VMOVAPD Z25, Z17
	VMOVAPD Z26, Z18
	VMOVAPD Z27, Z19
	VMOVAPD Z28, Z20
	VMOVAPD Z29, Z21
	VMOVAPD Z30, Z22
	VMOVAPD Z31, Z23

small_low:
	SMALL_ROWS(0, K1, small_low_loaded)
	MOVQ x_base+56(FP), DI
	LEAQ (DI)(R12*8), DI
	MOVQ y_base+0(FP), DX
	LEAQ (DX)(R10*8), DX
	MOVQ k+80(FP), BX
	TESTQ R12, R12
	JNZ  small_vec_more

small_vec:
	VMULPD.BCST (DI), Z24, Z0
	SMALL_TERMS(small_store)

small_store:
	VMOVUPD Z0, K2, (DX)
	ADDQ    R8, DI
	ADDQ    R8, DX
	DECQ    BX
	JNZ     small_vec
	JMP     small_next

	// A block right of the first: the chain goes on from y.
small_vec_more:
	VMOVUPD.Z   (DX), K2, Z0
	VFMADD231PD.BCST (DI), Z24, Z0
	SMALL_TERMS(small_store_more)

small_store_more:
	VMOVUPD Z0, K2, (DX)
	ADDQ    R8, DI
	ADDQ    R8, DX
	DECQ    BX
	JNZ     small_vec_more

small_next:
	ADDQ $16, R12
	CMPQ R12, R11
	JLT  small_block
	ADDQ $8, R10
	CMPQ R10, R11
	JLT  small_block_rows
	VZEROUPPER
	RET

// func updateMulVecsSmallAVX512(y, a []float64, n int, x []float64, k int, alpha, beta float64, p, v []float64)
// Requires: AVX512F
//
// mulVecsSmallAVX512 with the update A ← α·A + β·p·vᵀ applied to each block
// of A as it is loaded (and stored back): the bits of scaleAddOuterAVX512
// and then mulVecsSmallAVX512. len(p), len(v) ≥ n.
TEXT ·updateMulVecsSmallAVX512(SB), NOSPLIT, $0-152
	MOVQ n+48(FP), R11
	MOVQ R11, R8
	SHLQ $3, R8           // bytes per row of A and per vector
	XORQ R10, R10

usmall_block_rows:
	MOVQ R11, R9          // R9 = min(8, n − R10) rows, K2 their lanes
	SUBQ R10, R9
	CMPQ R9, $8
	JLE  usmall_rows
	MOVQ $8, R9

usmall_rows:
	MASK(R9, K2)
	XORQ R12, R12

usmall_block:
	MOVQ R11, CX          // CX = min(16, n − R12) columns
	SUBQ R12, CX
	CMPQ CX, $16
	JLE  usmall_cols
	MOVQ $16, CX

usmall_cols:
	MOVQ CX, R13          // K1 = min(8, CX) lanes, K3 = CX − 8 lanes
	CMPQ R13, $8
	JLE  usmall_k1
	MOVQ $8, R13

usmall_k1:
	MASK(R13, K1)
	CMPQ CX, $8
	JLE  usmall_low
	MOVQ CX, R13
	SUBQ $8, R13
	MASK(R13, K3)
	UPD_ROWS(64, K3, usmall_high_loaded)
	VMOVAPD Z24, Z16
	VMOVAPD Z25, Z17
	VMOVAPD Z26, Z18
	VMOVAPD Z27, Z19
	VMOVAPD Z28, Z20
	VMOVAPD Z29, Z21
	VMOVAPD Z30, Z22
	VMOVAPD Z31, Z23

usmall_low:
	UPD_ROWS(0, K1, usmall_low_loaded)
	MOVQ x_base+56(FP), DI
	LEAQ (DI)(R12*8), DI
	MOVQ y_base+0(FP), DX
	LEAQ (DX)(R10*8), DX
	MOVQ k+80(FP), BX
	TESTQ R12, R12
	JNZ  usmall_vec_more

usmall_vec:
	VMULPD.BCST (DI), Z24, Z0
	SMALL_TERMS(usmall_store)

usmall_store:
	VMOVUPD Z0, K2, (DX)
	ADDQ    R8, DI
	ADDQ    R8, DX
	DECQ    BX
	JNZ     usmall_vec
	JMP     usmall_next

	// A block right of the first: the chain goes on from y.
usmall_vec_more:
	VMOVUPD.Z   (DX), K2, Z0
	VFMADD231PD.BCST (DI), Z24, Z0
	SMALL_TERMS(usmall_store_more)

usmall_store_more:
	VMOVUPD Z0, K2, (DX)
	ADDQ    R8, DI
	ADDQ    R8, DX
	DECQ    BX
	JNZ     usmall_vec_more

usmall_next:
	ADDQ $16, R12
	CMPQ R12, R11
	JLT  usmall_block
	ADDQ $8, R10
	CMPQ R10, R11
	JLT  usmall_block_rows
	VZEROUPPER
	RET
