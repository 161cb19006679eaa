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

// SP_PLACE stores y_j (Z0, scaled by s as mul) and places it: cand_j =
// fma(σ, y_j, m), stored, its exponent fields into the running maximum
// Z11; then the pointers move to the next vector.
#define SP_PLACE(mul) \
	mul                         \
	VMOVUPD     Z0, K1, (DX)    \
	VMOVAPD     Z15, Z1         \
	VFMADD231PD Z0, Z13, Z1     \
	VMOVUPD     Z1, K1, (R12)   \
	VPANDQ.Z    Z12, Z1, K1, Z2 \
	VPMAXUQ     Z2, Z11, Z11    \
	ADDQ        R8, DI          \
	ADDQ        R8, DX          \
	ADDQ        R8, R12

// s·y_j with y_j (Z0) or s (Z14) the first source: of two NaNs, that one.
#define SP_MUL_Y_S VMULPD Z14, Z0, Z0
#define SP_MUL_S_Y VMULPD Z0, Z14, Z0

// func samplePlaceSmallAVX512(n, k int, y, a, z, cand, m *float64, s, sigma float64, u *RankOne) (finite bool)
// Requires: AVX512F
//
// For 1 ≤ n ≤ 8 (one block of A, K1 its n lanes): mulVecsSmallAVX512(y, a,
// n, z, k), with u non-nil updateMulVecsSmallAVX512 with u's update, and
// then scaleAxpyRowsAVX512(cand, σ, y, s, m) on each y_j while it is in a
// register: y_j ← s·y_j, cand_j = fma(σ, y_j, m), the same bits, and whether
// no element of cand has an exponent of all ones. s·y_j is VMULPD y, s for
// n < 8 (the tail of scaleAxpyRowsAVX512) and VMULPD s, y for n = 8 (its
// 8-element block). k ≥ 1.
TEXT ·samplePlaceSmallAVX512(SB), NOSPLIT, $0-81
	MOVQ  n+0(FP), R11
	MOVQ  R11, R8
	SHLQ  $3, R8          // bytes per row of A and per vector
	MOVQ  R11, R9         // the block's rows and columns: n
	MOVQ  R11, CX
	MASK(R9, K1)
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	MOVQ  a+24(FP), SI
	VMOVUPD.Z (SI), K1, Z0
	MOVQ  u+72(FP), R10
	TESTQ R10, R10
	JZ    sp_plain

	// The update, with UPD's registers: AX p, X11 β, Z8 α, Z9 v.
	MOVQ         16(R10), AX   // u.P
	MOVQ         40(R10), R13  // u.V
	VMOVUPD.Z    (R13), K1, Z9
	VBROADCASTSD 0(R10), Z8    // u.Alpha
	VMOVSD       8(R10), X11   // u.Beta
	UPD(0, Z0, K1)
	ADDQ         R8, SI
	UPD_ROW(1, Z1, K1, sp_loaded)
	UPD_ROW(2, Z2, K1, sp_loaded)
	UPD_ROW(3, Z3, K1, sp_loaded)
	UPD_ROW(4, Z4, K1, sp_loaded)
	UPD_ROW(5, Z5, K1, sp_loaded)
	UPD_ROW(6, Z6, K1, sp_loaded)
	UPD_ROW(7, Z7, K1, sp_loaded)
	JMP          sp_loaded

sp_plain:
	ADDQ R8, SI
	SMALL_ROW(1, Z1, K1, sp_loaded)
	SMALL_ROW(2, Z2, K1, sp_loaded)
	SMALL_ROW(3, Z3, K1, sp_loaded)
	SMALL_ROW(4, Z4, K1, sp_loaded)
	SMALL_ROW(5, Z5, K1, sp_loaded)
	SMALL_ROW(6, Z6, K1, sp_loaded)
	SMALL_ROW(7, Z7, K1, sp_loaded)

sp_loaded:
	TRANSPOSE8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)
	MOVQ         z+32(FP), DI
	MOVQ         y+16(FP), DX
	MOVQ         cand+40(FP), R12
	MOVQ         m+48(FP), AX
	VMOVUPD.Z    (AX), K1, Z15
	VBROADCASTSD s+56(FP), Z14
	VBROADCASTSD sigma+64(FP), Z13
	MOVQ         $0x7ff0000000000000, AX
	VPBROADCASTQ AX, Z12       // the exponent's bits
	VPXORQ       Z11, Z11, Z11 // the largest exponent field seen
	MOVQ         k+8(FP), BX
	CMPQ         R11, $8
	JEQ          sp_vec8

sp_vec:
	VMULPD.BCST (DI), Z24, Z0
	SMALL_TERMS(sp_store)

sp_store:
	SP_PLACE(SP_MUL_Y_S)
	DECQ BX
	JNZ  sp_vec
	JMP  sp_done

	// n = 8: the columns without the width tests.
sp_vec8:
	VMULPD.BCST      (DI), Z24, Z0
	VFMADD231PD.BCST 8(DI), Z25, Z0
	VFMADD231PD.BCST 16(DI), Z26, Z0
	VFMADD231PD.BCST 24(DI), Z27, Z0
	VFMADD231PD.BCST 32(DI), Z28, Z0
	VFMADD231PD.BCST 40(DI), Z29, Z0
	VFMADD231PD.BCST 48(DI), Z30, Z0
	VFMADD231PD.BCST 56(DI), Z31, Z0
	SP_PLACE(SP_MUL_S_Y)
	DECQ             BX
	JNZ              sp_vec8

sp_done:
	VPCMPEQQ Z12, Z11, K3
	KMOVW    K3, AX
	TESTQ    AX, AX
	SETEQ    finite+80(FP)
	VZEROUPPER
	RET
