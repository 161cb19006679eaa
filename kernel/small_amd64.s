//go:build gc && !purego

#include "textflag.h"
#include "transpose_amd64.h"

// MulVecs for n ≤ 8 on AVX-512: A fits in 8 registers. It is loaded once per
// call, one row per register, and transposed so that Z(24+c) holds column c;
// then y_j = Σ_c A[:, c]·x_j[c] is a chain of n multiply-adds with x_j[c]
// broadcast from memory, one masked store per vector. No horizontal sums,
// and one call for all k vectors.

// SMALL_ROW loads row r of A (at SI, rows R8 bytes apart, n in CX) into
// zr, masked to n lanes, when r < n; it jumps to loaded after the last row.
#define SMALL_ROW(r, zr, loaded) \
	CMPQ      CX, $r        \
	JLE       loaded        \
	VMOVUPD.Z (SI), K1, zr  \
	ADDQ      R8, SI

// SMALL_TERM adds column c of A times x_j[c] (at DI) to Z0; after the last
// column it jumps to store.
#define SMALL_TERM(c, zc, store) \
	CMPQ                 CX, $c     \
	JLE                  store      \
	VFMADD231PD.BCST     (c*8)(DI), zc, Z0

// func mulVecsSmallAVX512(y, a []float64, n int, x []float64, k int)
// Requires: AVX512F
//
//	for j < k, r < n: y[j*n+r] = fma(a[r*n+n−1], x[j*n+n−1], … fma(a[r*n+1], x[j*n+1], a[r*n]·x[j*n]))
//
// 1 ≤ n ≤ 8, k ≥ 1, len(a) ≥ n·n, len(x), len(y) ≥ k·n.
TEXT ·mulVecsSmallAVX512(SB), NOSPLIT, $0-88
	MOVQ y_base+0(FP), DX
	MOVQ a_base+24(FP), SI
	MOVQ n+48(FP), CX
	MOVQ x_base+56(FP), DI
	MOVQ k+80(FP), BX
	MOVQ CX, R8
	SHLQ $3, R8           // bytes per row of A and per vector
	MOVQ $1, AX           // K1 = the first n lanes
	SHLQ CX, AX
	DECQ AX
	KMOVW AX, K1

	// Rows past n are zero, so are the lanes past n of the columns.
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	VMOVUPD.Z (SI), K1, Z0
	ADDQ      R8, SI
	SMALL_ROW(1, Z1, small_loaded)
	SMALL_ROW(2, Z2, small_loaded)
	SMALL_ROW(3, Z3, small_loaded)
	SMALL_ROW(4, Z4, small_loaded)
	SMALL_ROW(5, Z5, small_loaded)
	SMALL_ROW(6, Z6, small_loaded)
	SMALL_ROW(7, Z7, small_loaded)

small_loaded:
	TRANSPOSE8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)

small_vec:
	VMULPD.BCST (DI), Z24, Z0
	SMALL_TERM(1, Z25, small_store)
	SMALL_TERM(2, Z26, small_store)
	SMALL_TERM(3, Z27, small_store)
	SMALL_TERM(4, Z28, small_store)
	SMALL_TERM(5, Z29, small_store)
	SMALL_TERM(6, Z30, small_store)
	SMALL_TERM(7, Z31, small_store)

small_store:
	VMOVUPD Z0, K1, (DX)
	ADDQ    R8, DI
	ADDQ    R8, DX
	DECQ    BX
	JNZ     small_vec
	VZEROUPPER
	RET
