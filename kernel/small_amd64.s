//go:build gc && !purego

#include "textflag.h"
#include "transpose_amd64.h"

// MulVecs for n ≤ 16 on AVX-512, in blocks of up to 8 rows of A: a block
// is loaded once per call, one row per register (columns 0-7, then 8-15),
// and transposed so that one register holds column c of the block's rows
// (Z24-Z31: columns 0-7, Z16-Z23: columns 8-15). Then the block's part of
// y_j is Σ_c A[rows, c]·x_j[c], a chain of n multiply-adds with x_j[c]
// broadcast from memory and one masked store per vector. No horizontal
// sums, and one call for all k vectors.
//
// Registers: SI the block's row, R8 n·8, R9 the rows of the block, R10 the
// first row of the block, CX n, BX vectors left, DI x_j, DX the block's part
// of y_j, K1 columns 0-7 (min(n, 8) lanes), K3 columns 8-15 (n − 8 lanes),
// K2 the block's rows.

// SMALL_ROW loads row r of the block (at SI, rows R8 bytes apart) into zr,
// masked by kc, when r < R9; after the last row it jumps to loaded.
#define SMALL_ROW(r, zr, kc, loaded) \
	CMPQ      R9, $r        \
	JLE       loaded        \
	VMOVUPD.Z (SI), kc, zr  \
	ADDQ      R8, SI

// SMALL_ROWS loads the block's rows 0 to R9−1, columns off/8 on, into
// Z0-Z7 (the others zero) and transposes them into Z24-Z31.
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
	ADDQ      a_base+24(FP), SI     \
	ADDQ      $off, SI              \
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

// SMALL_TERM adds column c (in zc) times x_j[c] (at DI) to Z0; after the
// last column it jumps to store.
#define SMALL_TERM(c, zc, store) \
	CMPQ             CX, $c \
	JLE              store  \
	VFMADD231PD.BCST (c*8)(DI), zc, Z0

// func mulVecsSmallAVX512(y, a []float64, n int, x []float64, k int)
// Requires: AVX512F
//
//	for j < k, r < n: y[j*n+r] = fma(a[r*n+n−1], x[j*n+n−1], … fma(a[r*n+1], x[j*n+1], a[r*n]·x[j*n]))
//
// 1 ≤ n ≤ 16, k ≥ 1, len(a) ≥ n·n, len(x), len(y) ≥ k·n.
TEXT ·mulVecsSmallAVX512(SB), NOSPLIT, $0-88
	MOVQ n+48(FP), CX
	MOVQ CX, R8
	SHLQ $3, R8           // bytes per row of A and per vector
	MOVQ CX, R11          // K1 = min(n, 8) lanes, K3 = n − 8 lanes
	CMPQ R11, $8
	JLE  small_k1
	MOVQ $8, R11

small_k1:
	MOVQ CX, DX
	MOVQ R11, CX
	MOVQ $1, AX
	SHLQ CX, AX
	DECQ AX
	KMOVW AX, K1
	MOVQ DX, CX
	SUBQ R11, DX          // n − 8 (or 0)
	XCHGQ DX, CX
	MOVQ $1, AX
	SHLQ CX, AX
	DECQ AX
	KMOVW AX, K3
	MOVQ DX, CX           // CX = n again
	XORQ R10, R10         // the block's first row

small_block:
	MOVQ CX, R9           // R9 = min(8, n − R10) rows, K2 their lanes
	SUBQ R10, R9
	CMPQ R9, $8
	JLE  small_rows
	MOVQ $8, R9

small_rows:
	MOVQ  CX, DX
	MOVQ  R9, CX
	MOVQ  $1, AX
	SHLQ  CX, AX
	DECQ  AX
	KMOVW AX, K2
	MOVQ  DX, CX
	CMPQ  CX, $8
	JLE   small_low
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
	MOVQ R10, DX
	SHLQ $3, DX
	ADDQ y_base+0(FP), DX
	MOVQ k+80(FP), BX

small_vec:
	VMULPD.BCST (DI), Z24, Z0
	SMALL_TERM(1, Z25, small_store)
	SMALL_TERM(2, Z26, small_store)
	SMALL_TERM(3, Z27, small_store)
	SMALL_TERM(4, Z28, small_store)
	SMALL_TERM(5, Z29, small_store)
	SMALL_TERM(6, Z30, small_store)
	SMALL_TERM(7, Z31, small_store)
	SMALL_TERM(8, Z16, small_store)
	SMALL_TERM(9, Z17, small_store)
	SMALL_TERM(10, Z18, small_store)
	SMALL_TERM(11, Z19, small_store)
	SMALL_TERM(12, Z20, small_store)
	SMALL_TERM(13, Z21, small_store)
	SMALL_TERM(14, Z22, small_store)
	SMALL_TERM(15, Z23, small_store)

small_store:
	VMOVUPD Z0, K2, (DX)
	ADDQ    R8, DI
	ADDQ    R8, DX
	DECQ    BX
	JNZ     small_vec
	ADDQ    $8, R10
	CMPQ    R10, CX
	JLT     small_block
	VZEROUPPER
	RET
