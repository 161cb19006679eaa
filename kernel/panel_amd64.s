//go:build gc && !purego

#include "textflag.h"
#include "transpose_amd64.h"

// ---------------------------------------------------------------------------
// MulVecs for large n on AVX-512: column panels in broadcast form.
//
// The caller packs one panel of kc columns of the k vectors transposed:
// xt[c*kp + j] = x[j*n + c0 + c], kp = k rounded up to 8, the pad lanes zero.
// For each tile of 8 rows of A the accumulators hold the 8×kp block of
// partial sums Ỹ[i][j] = Σ_c A[i][c]·x_j[c], one row i across 8 vectors per
// register: per column c one A element per row is broadcast and multiplied by
// the packed row xt[c] (8 vectors a load). A column step is 8 broadcasts and
// J loads for 8·J FMAs, and no horizontal sums are needed: the tile's sums
// are added to y once per panel, transposed in registers 8×8 at a time so
// that each vector's 8 rows are one load, add and store.
// The vectors run in blocks of J = 3, 2 or 1 registers (24, 16 or 8 lanes),
// so that the 8×kc block of A stays in L1 across the blocks of one tile.
//
// Registers of the column loops:
//   SI  &a[i0*n]: the tile's first row (at the panel's first column)
//   R11 the current column of the tile's first row
//   DI  the same column of the next tile's first row (prefetched)
//   R8, R9, R10, R13  NBYTES, 3·NBYTES, 5·NBYTES, 7·NBYTES
//   R12 the packed row xt[c] of the current block; AX its stride 8·kp
//   CX  column steps left
//   DX  &y[j0*n + i0]: the block's first output
// Z29 holds α during the update; Z24-Z31 are scratch (X30 holds β
// during the update). The sums after a block's columns use DX (&y of the
// next vector), CX and BX (COUNT8), Z24-Z31 and, in panel6, the mask K2.

// The 8 rows of the tile at column offset d from base.
#define ROW0(d, base) d(base)
#define ROW1(d, base) d(base)(R8*1)
#define ROW2(d, base) d(base)(R8*2)
#define ROW3(d, base) d(base)(R9*1)
#define ROW4(d, base) d(base)(R8*4)
#define ROW5(d, base) d(base)(R10*1)
#define ROW6(d, base) d(base)(R9*2)
#define ROW7(d, base) d(base)(R13*1)

// PREFETCH8 asks for the current cache line of the next tile's 8 rows: the
// next tile then finds its block of A in cache (a tile's rows are short runs
// that the hardware prefetchers pick up late). A prefetch past the end of A
// does not fault.
#define PREFETCH8 \
	PREFETCHT0 ROW0(0, DI) \
	PREFETCHT0 ROW1(0, DI) \
	PREFETCHT0 ROW2(0, DI) \
	PREFETCHT0 ROW3(0, DI) \
	PREFETCHT0 ROW4(0, DI) \
	PREFETCHT0 ROW5(0, DI) \
	PREFETCHT0 ROW6(0, DI) \
	PREFETCHT0 ROW7(0, DI)

// NEXT8 (NEXT6) points DI at the next tile's first row.
#define NEXT8 LEAQ (SI)(R8*8), DI
#define NEXT6 LEAQ (SI)(R9*2), DI

#define PREFETCH6 \
	PREFETCHT0 ROW0(0, DI) \
	PREFETCHT0 ROW1(0, DI) \
	PREFETCHT0 ROW2(0, DI) \
	PREFETCHT0 ROW3(0, DI) \
	PREFETCHT0 ROW4(0, DI) \
	PREFETCHT0 ROW5(0, DI)

// BCAST4 multiplies the A element at addr, broadcast into zb, by the packed
// vectors in Z24-Z27 into the accumulators c0-c3.
#define BCAST4(addr, zb, c0, c1, c2, c3) \
	VBROADCASTSD addr, zb    \
	VFMADD231PD  Z24, zb, c0 \
	VFMADD231PD  Z25, zb, c1 \
	VFMADD231PD  Z26, zb, c2 \
	VFMADD231PD  Z27, zb, c3

// BCAST3 (BCAST2, BCAST1) multiplies the A element at addr, broadcast into
// zb, by the packed vectors in Z24-Z26 into the accumulators c0-c2.
#define BCAST3(addr, zb, c0, c1, c2) \
	VBROADCASTSD addr, zb    \
	VFMADD231PD  Z24, zb, c0 \
	VFMADD231PD  Z25, zb, c1 \
	VFMADD231PD  Z26, zb, c2

#define BCAST2(addr, zb, c0, c1) \
	VBROADCASTSD addr, zb    \
	VFMADD231PD  Z24, zb, c0 \
	VFMADD231PD  Z25, zb, c1

#define BCAST1(addr, zb, c0) \
	VBROADCASTSD addr, zb \
	VFMADD231PD  Z24, zb, c0

// STEP3 (STEP2, STEP1) is one column step at column offset d from R11:
// accumulator Z(J·r+b) holds row r, lanes 8b to 8b+7 of the block.
#define STEP3(d) \
	VMOVUPD (R12), Z24                   \
	VMOVUPD 64(R12), Z25                 \
	VMOVUPD 128(R12), Z26                \
	BCAST3(ROW0(d, R11), Z27, Z0, Z1, Z2)    \
	BCAST3(ROW1(d, R11), Z28, Z3, Z4, Z5)    \
	BCAST3(ROW2(d, R11), Z30, Z6, Z7, Z8)    \
	BCAST3(ROW3(d, R11), Z31, Z9, Z10, Z11)  \
	BCAST3(ROW4(d, R11), Z27, Z12, Z13, Z14) \
	BCAST3(ROW5(d, R11), Z28, Z15, Z16, Z17) \
	BCAST3(ROW6(d, R11), Z30, Z18, Z19, Z20) \
	BCAST3(ROW7(d, R11), Z31, Z21, Z22, Z23) \
	ADDQ AX, R12

// STEP4 is the column step of the 6-row tiles: 4 registers of vectors.
#define STEP4(d) \
	VMOVUPD (R12), Z24                          \
	VMOVUPD 64(R12), Z25                        \
	VMOVUPD 128(R12), Z26                       \
	VMOVUPD 192(R12), Z27                       \
	BCAST4(ROW0(d, R11), Z28, Z0, Z1, Z2, Z3)     \
	BCAST4(ROW1(d, R11), Z30, Z4, Z5, Z6, Z7)     \
	BCAST4(ROW2(d, R11), Z31, Z8, Z9, Z10, Z11)   \
	BCAST4(ROW3(d, R11), Z28, Z12, Z13, Z14, Z15) \
	BCAST4(ROW4(d, R11), Z30, Z16, Z17, Z18, Z19) \
	BCAST4(ROW5(d, R11), Z31, Z20, Z21, Z22, Z23) \
	ADDQ AX, R12

#define STEP2(d) \
	VMOVUPD (R12), Z24              \
	VMOVUPD 64(R12), Z25            \
	BCAST2(ROW0(d, R11), Z27, Z0, Z1)   \
	BCAST2(ROW1(d, R11), Z28, Z2, Z3)   \
	BCAST2(ROW2(d, R11), Z30, Z4, Z5)   \
	BCAST2(ROW3(d, R11), Z31, Z6, Z7)   \
	BCAST2(ROW4(d, R11), Z27, Z8, Z9)   \
	BCAST2(ROW5(d, R11), Z28, Z10, Z11) \
	BCAST2(ROW6(d, R11), Z30, Z12, Z13) \
	BCAST2(ROW7(d, R11), Z31, Z14, Z15) \
	ADDQ AX, R12

#define STEP1(d) \
	VMOVUPD (R12), Z24         \
	BCAST1(ROW0(d, R11), Z27, Z0) \
	BCAST1(ROW1(d, R11), Z28, Z1) \
	BCAST1(ROW2(d, R11), Z30, Z2) \
	BCAST1(ROW3(d, R11), Z31, Z3) \
	BCAST1(ROW4(d, R11), Z27, Z4) \
	BCAST1(ROW5(d, R11), Z28, Z5) \
	BCAST1(ROW6(d, R11), Z30, Z6) \
	BCAST1(ROW7(d, R11), Z31, Z7) \
	ADDQ AX, R12

// COLUMNS runs the column loop of one block with the step macro step: 8
// columns (one cache line of each row) at a time, then the kc mod 8 rest.
#define COLUMNS(step, prefetch, next, loop8, rest, restloop, done) \
	MOVQ SI, R11           \
	next                   \
	MOVQ xtb-24(SP), R12 \
	MOVQ stride-72(SP), AX \
	MOVQ kc8-80(SP), CX  \
	TESTQ CX, CX           \
	JZ   rest              \
loop8:                     \
	prefetch               \
	step(0)                \
	step(8)                \
	step(16)               \
	step(24)               \
	step(32)               \
	step(40)               \
	step(48)               \
	step(56)               \
	ADDQ $64, R11          \
	ADDQ $64, DI           \
	DECQ CX                \
	JNZ  loop8             \
rest:                      \
	MOVQ kcrest-88(SP), CX \
	TESTQ CX, CX           \
	JZ   done              \
restloop:                  \
	step(0)                \
	ADDQ $8, R11           \
	DECQ CX                \
	JNZ  restloop          \
done:

// UPDATE_ROW applies the rank-one update to 8 columns of one row at addr:
// a = fma(s, v, α·a) with s in zs, α in Z29 and v at R12; z is scratch.
// These are the operations of scaleAddOuterAVX512, so the bits are the same.
#define UPDATE_ROW(addr, zs, z) \
	VMULPD      addr, Z29, z \
	VFMADD231PD (R12), zs, z \
	VMOVUPD     z, addr

// UPDATE_ROW_TAIL is UPDATE_ROW for the masked tail (K1), v already in Z28.
#define UPDATE_ROW_TAIL(addr, zs, z) \
	VMOVUPD.Z   addr, K1, z \
	VMULPD      Z29, z, z   \
	VFMADD231PD Z28, zs, z  \
	VMOVUPD     z, K1, addr

// SCALED_P sets zs to the broadcast β·p[off/8] (p at AX, β in X30).
#define SCALED_P(off, zs, xs) \
	VMULSD       off(AX), X30, xs \
	VBROADCASTSD xs, zs

// UNPACK6, SHUF4, TRANSPOSE8 and TRANSPOSE6: transpose_amd64.h.

// COUNT8 sets CX to the vectors of the next group of 8 lanes, min(8, kleft),
// and takes them off kleft.
#define COUNT8 \
	MOVQ    kleft-32(SP), CX \
	MOVQ    $8, BX           \
	CMPQ    CX, BX           \
	CMOVQGT BX, CX           \
	SUBQ    $8, kleft-32(SP)

// ADD_COL adds column z (8 rows' sums for one vector) to y at DX and moves
// DX to the next vector; after the group's CX vectors it jumps to done.
#define ADD_COL(z, done) \
	VADDPD  (DX), z, z \
	VMOVUPD z, (DX)    \
	ADDQ    R8, DX     \
	DECQ    CX         \
	JZ      done

#define ADD_COLS8(done) \
	ADD_COL(Z24, done) \
	ADD_COL(Z25, done) \
	ADD_COL(Z26, done) \
	ADD_COL(Z27, done) \
	ADD_COL(Z28, done) \
	ADD_COL(Z29, done) \
	ADD_COL(Z30, done) \
	ADD_COL(Z31, done)

// ADD_COL6 is ADD_COL for the 6 rows of lanes 0-5 (mask K2).
#define ADD_COL6(z, done) \
	VADDPD  (DX), z, K2, z \
	VMOVUPD z, K2, (DX)    \
	ADDQ    R8, DX         \
	DECQ    CX             \
	JZ      done

#define ADD_COLS6(done) \
	ADD_COL6(Z24, done) \
	ADD_COL6(Z25, done) \
	ADD_COL6(Z26, done) \
	ADD_COL6(Z27, done) \
	ADD_COL6(Z28, done) \
	ADD_COL6(Z29, done) \
	ADD_COL6(Z30, done) \
	ADD_COL6(Z31, done)

// GROUP8 adds one group of 8 lanes (rows in r0-r7) to y; a group past the
// k vectors (only pad lanes) adds nothing.
#define GROUP8(r0, r1, r2, r3, r4, r5, r6, r7, done) \
	COUNT8                                   \
	TESTQ CX, CX                             \
	JLE   done                               \
	TRANSPOSE8(r0, r1, r2, r3, r4, r5, r6, r7) \
	ADD_COLS8(done)                          \
done:

#define GROUP6(r0, r1, r2, r3, r4, r5, done) \
	COUNT8                           \
	TESTQ CX, CX                     \
	JLE   done                       \
	TRANSPOSE6(r0, r1, r2, r3, r4, r5) \
	ADD_COLS6(done)                  \
done:

#define ZERO8(a, b, c, d, e, f, g, h) \
	VPXORQ a, a, a \
	VPXORQ b, b, b \
	VPXORQ c, c, c \
	VPXORQ d, d, d \
	VPXORQ e, e, e \
	VPXORQ f, f, f \
	VPXORQ g, g, g \
	VPXORQ h, h, h

// func panel8AVX512(y, a, xt []float64, n, tiles, kc, kp, k, g3, g2, g1 int, alpha, beta float64, p, v []float64, update int)
// Requires: AVX512F
//
//	for t < tiles, with i0 = 8t:
//	    if update != 0, for r < 8, c < kc:   (the rank-one update, as scaleAddOuterAVX512)
//	        a[(i0+r)*n + c] = fma(β·p[i0+r], v[c], α·a[(i0+r)*n + c])
//	    for each block of J registers (g3 blocks of 3, then g2 of 2, then
//	    g1 of 1), starting at vector j0, for r < 8, j0 ≤ j < min(j0+8J, k):
//	        y[j*n + i0+r] += Σ_{c<kc} a[(i0+r)*n + c]·xt[c*kp + j]
//
// The frame holds locals; the column macros read the arguments they need
// from locals (go vet's asmdecl checks FP references in a macro against
// the function above its #define).
TEXT ·panel8AVX512(SB), $88-208
	MOVQ n+72(FP), R8
	SHLQ $3, R8            // R8 = NBYTES
	LEAQ (R8)(R8*2), R9    // R9 = 3·NBYTES
	LEAQ (R8)(R8*4), R10   // R10 = 5·NBYTES
	LEAQ (R9)(R8*4), R13   // R13 = 7·NBYTES
	MOVQ a_base+24(FP), SI
	MOVQ y_base+0(FP), AX
	MOVQ AX, ytile-8(SP)
	MOVQ p_base+152(FP), AX
	MOVQ AX, ptile-16(SP)
	MOVQ tiles+80(FP), AX
	MOVQ AX, tilesleft-40(SP)
	MOVQ kp+96(FP), AX
	SHLQ $3, AX
	MOVQ AX, stride-72(SP)
	MOVQ kc+88(FP), CX
	SHRQ $3, CX
	MOVQ CX, kc8-80(SP)
	MOVQ kc+88(FP), CX
	ANDQ $7, CX
	MOVQ CX, kcrest-88(SP)
	JZ   tile
	MOVQ $1, AX            // K1 = the last kc mod 8 columns
	SHLQ CX, AX
	DECQ AX
	KMOVW AX, K1

tile:
	CMPQ update+200(FP), $0
	JEQ  blocks

	// The rank-one update of this tile's 8×kc block: Z0-Z7 = β·p[i0+r],
	// Z29 = α (the sums of the previous tile used it as scratch).
	VBROADCASTSD alpha+136(FP), Z29
	VMOVSD beta+144(FP), X30   // β (the column steps use Z30)
	MOVQ   ptile-16(SP), AX
	SCALED_P(0, Z0, X0)
	SCALED_P(8, Z1, X1)
	SCALED_P(16, Z2, X2)
	SCALED_P(24, Z3, X3)
	SCALED_P(32, Z4, X4)
	SCALED_P(40, Z5, X5)
	SCALED_P(48, Z6, X6)
	SCALED_P(56, Z7, X7)
	ADDQ $64, ptile-16(SP)
	MOVQ SI, R11
	MOVQ v_base+176(FP), R12
	MOVQ kc+88(FP), CX
	SHRQ $3, CX
	JZ   update_tail

update_loop:
	UPDATE_ROW(ROW0(0, R11), Z0, Z8)
	UPDATE_ROW(ROW1(0, R11), Z1, Z9)
	UPDATE_ROW(ROW2(0, R11), Z2, Z10)
	UPDATE_ROW(ROW3(0, R11), Z3, Z11)
	UPDATE_ROW(ROW4(0, R11), Z4, Z12)
	UPDATE_ROW(ROW5(0, R11), Z5, Z13)
	UPDATE_ROW(ROW6(0, R11), Z6, Z14)
	UPDATE_ROW(ROW7(0, R11), Z7, Z15)
	ADDQ $64, R11
	ADDQ $64, R12
	DECQ CX
	JNZ  update_loop

update_tail:
	TESTQ $7, kc+88(FP)
	JZ    blocks
	VMOVUPD.Z (R12), K1, Z28
	UPDATE_ROW_TAIL(ROW0(0, R11), Z0, Z8)
	UPDATE_ROW_TAIL(ROW1(0, R11), Z1, Z9)
	UPDATE_ROW_TAIL(ROW2(0, R11), Z2, Z10)
	UPDATE_ROW_TAIL(ROW3(0, R11), Z3, Z11)
	UPDATE_ROW_TAIL(ROW4(0, R11), Z4, Z12)
	UPDATE_ROW_TAIL(ROW5(0, R11), Z5, Z13)
	UPDATE_ROW_TAIL(ROW6(0, R11), Z6, Z14)
	UPDATE_ROW_TAIL(ROW7(0, R11), Z7, Z15)

blocks:
	MOVQ g3+112(FP), AX
	MOVQ AX, left3-48(SP)
	MOVQ g2+120(FP), AX
	MOVQ AX, left2-56(SP)
	MOVQ g1+128(FP), AX
	MOVQ AX, left1-64(SP)
	MOVQ xt_base+48(FP), AX
	MOVQ AX, xtb-24(SP)
	MOVQ k+104(FP), AX
	MOVQ AX, kleft-32(SP)
	MOVQ ytile-8(SP), DX

block:
	CMPQ left3-48(SP), $0
	JNE  block3
	CMPQ left2-56(SP), $0
	JNE  block2
	CMPQ left1-64(SP), $0
	JNE  block1
	JMP  tile_next

block3:
	DECQ left3-48(SP)
	ZERO8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)
	ZERO8(Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15)
	ZERO8(Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23)
	COLUMNS(STEP3, PREFETCH8, NEXT8, cols3_loop, cols3_rest, cols3_restloop, cols3_done)
	ADDQ $192, xtb-24(SP)
	GROUP8(Z0, Z3, Z6, Z9, Z12, Z15, Z18, Z21, sums3_g0)
	GROUP8(Z1, Z4, Z7, Z10, Z13, Z16, Z19, Z22, sums3_g1)
	GROUP8(Z2, Z5, Z8, Z11, Z14, Z17, Z20, Z23, sums3_g2)
	JMP  block

block2:
	DECQ left2-56(SP)
	ZERO8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)
	ZERO8(Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15)
	COLUMNS(STEP2, PREFETCH8, NEXT8, cols2_loop, cols2_rest, cols2_restloop, cols2_done)
	ADDQ $128, xtb-24(SP)
	GROUP8(Z0, Z2, Z4, Z6, Z8, Z10, Z12, Z14, sums2_g0)
	GROUP8(Z1, Z3, Z5, Z7, Z9, Z11, Z13, Z15, sums2_g1)
	JMP  block

block1:
	DECQ left1-64(SP)
	ZERO8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)
	COLUMNS(STEP1, PREFETCH8, NEXT8, cols1_loop, cols1_rest, cols1_restloop, cols1_done)
	ADDQ $64, xtb-24(SP)
	GROUP8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, sums1_g0)
	JMP  block

tile_next:
	// next tile: A 8 rows down, y 8 elements on
	LEAQ (SI)(R8*8), SI
	ADDQ $64, ytile-8(SP)
	DECQ tilesleft-40(SP)
	JNZ  tile
	VZEROUPPER
	RET

// func packPanelAVX512(xt, x []float64, idx *[8]int64, kc, kp, k int)
// Requires: AVX512F
//
//	for c < kc, j < kp: xt[c*kp + j] = x[j*n + c] if j < k, else 0
//
// with idx[l] = 8·n·l, the byte offsets of 8 vectors: one gather fetches
// column c of 8 vectors, masked (and zeroed) past k. x starts at the panel's
// first column.
TEXT ·packPanelAVX512(SB), NOSPLIT, $0-80
	MOVQ    xt_base+0(FP), DI
	MOVQ    x_base+24(FP), SI
	MOVQ    idx+48(FP), AX
	VMOVDQU64 (AX), Z31
	MOVQ    kc+56(FP), CX
	MOVQ    kp+64(FP), R11
	SHRQ    $3, R11          // R11 = registers per column
	MOVQ    k+72(FP), R12
	MOVQ    8(AX), R8        // R8 = NBYTES
	SHLQ    $3, R8           // R8 = 8·NBYTES: from one group of 8 vectors to the next

pack_col:
	MOVQ SI, R9              // R9 = &x[8g*n + c]
	MOVQ R12, R10            // R10 = vectors left in this column

pack_group:
	MOVQ   $0xff, AX
	CMPQ   R10, $8
	JGE    pack_gather
	MOVQ   R10, BX           // fewer than 8 left: the first R10 lanes (R10 may be ≤ 0)
	XORQ   AX, AX
	TESTQ  BX, BX
	JLE    pack_gather
	MOVQ   $1, AX
	MOVQ   CX, DX
	MOVQ   BX, CX
	SHLQ   CX, AX
	MOVQ   DX, CX
	DECQ   AX

pack_gather:
	KMOVW      AX, K1
	VPXORQ     Z0, Z0, Z0
	VGATHERQPD (R9)(Z31*1), K1, Z0
	VMOVUPD    Z0, (DI)
	ADDQ       $64, DI
	ADDQ       R8, R9
	SUBQ       $8, R10
	DECQ       R11
	JNZ        pack_group
	MOVQ       kp+64(FP), R11
	SHRQ       $3, R11
	ADDQ       $8, SI
	DECQ       CX
	JNZ        pack_col
	VZEROUPPER
	RET

// func panel6AVX512(y, a, xt []float64, n, tiles, kc, kp, k, g4 int, alpha, beta float64, p, v []float64, update int)
// Requires: AVX512F
//
// panel8AVX512 for tiles of 6 rows and g4 blocks of 4 registers (32 lanes;
// kp = 32·g4): per column 6 broadcasts and 4 loads for 24 FMAs, for the k
// from 25 to 32 (λ for 1097 ≤ n ≤ 11000) that would leave 8 rows × 3+1
// registers with a weak block of 1. The sums go to y through masked (K2)
// loads and stores of 6 lanes.
TEXT ·panel6AVX512(SB), $88-192
	MOVQ n+72(FP), R8
	SHLQ $3, R8            // R8 = NBYTES
	LEAQ (R8)(R8*2), R9    // R9 = 3·NBYTES
	LEAQ (R8)(R8*4), R10   // R10 = 5·NBYTES
	MOVQ a_base+24(FP), SI
	MOVQ y_base+0(FP), AX
	MOVQ AX, ytile-8(SP)
	MOVQ p_base+136(FP), AX
	MOVQ AX, ptile-16(SP)
	MOVQ tiles+80(FP), AX
	MOVQ AX, tilesleft-40(SP)
	MOVQ $0x3f, AX          // K2 = the 6 rows of a tile's sums
	KMOVW AX, K2
	MOVQ kp+96(FP), AX
	SHLQ $3, AX
	MOVQ AX, stride-72(SP)
	MOVQ kc+88(FP), CX
	SHRQ $3, CX
	MOVQ CX, kc8-80(SP)
	MOVQ kc+88(FP), CX
	ANDQ $7, CX
	MOVQ CX, kcrest-88(SP)
	JZ   tile6
	MOVQ $1, AX            // K1 = the last kc mod 8 columns
	SHLQ CX, AX
	DECQ AX
	KMOVW AX, K1

tile6:
	CMPQ update+184(FP), $0
	JEQ  blocks6

	// The rank-one update of this tile's 6×kc block: Z0-Z5 = β·p[i0+r].
	VBROADCASTSD alpha+120(FP), Z29
	VMOVSD beta+128(FP), X30
	MOVQ   ptile-16(SP), AX
	SCALED_P(0, Z0, X0)
	SCALED_P(8, Z1, X1)
	SCALED_P(16, Z2, X2)
	SCALED_P(24, Z3, X3)
	SCALED_P(32, Z4, X4)
	SCALED_P(40, Z5, X5)
	ADDQ $48, ptile-16(SP)
	MOVQ SI, R11
	MOVQ v_base+160(FP), R12
	MOVQ kc+88(FP), CX
	SHRQ $3, CX
	JZ   update6_tail

update6_loop:
	UPDATE_ROW(ROW0(0, R11), Z0, Z8)
	UPDATE_ROW(ROW1(0, R11), Z1, Z9)
	UPDATE_ROW(ROW2(0, R11), Z2, Z10)
	UPDATE_ROW(ROW3(0, R11), Z3, Z11)
	UPDATE_ROW(ROW4(0, R11), Z4, Z12)
	UPDATE_ROW(ROW5(0, R11), Z5, Z13)
	ADDQ $64, R11
	ADDQ $64, R12
	DECQ CX
	JNZ  update6_loop

update6_tail:
	TESTQ $7, kc+88(FP)
	JZ    blocks6
	VMOVUPD.Z (R12), K1, Z28
	UPDATE_ROW_TAIL(ROW0(0, R11), Z0, Z8)
	UPDATE_ROW_TAIL(ROW1(0, R11), Z1, Z9)
	UPDATE_ROW_TAIL(ROW2(0, R11), Z2, Z10)
	UPDATE_ROW_TAIL(ROW3(0, R11), Z3, Z11)
	UPDATE_ROW_TAIL(ROW4(0, R11), Z4, Z12)
	UPDATE_ROW_TAIL(ROW5(0, R11), Z5, Z13)

blocks6:
	MOVQ g4+112(FP), AX
	MOVQ AX, left4-48(SP)
	MOVQ xt_base+48(FP), AX
	MOVQ AX, xtb-24(SP)
	MOVQ k+104(FP), AX
	MOVQ AX, kleft-32(SP)
	MOVQ ytile-8(SP), DX

block6:
	CMPQ left4-48(SP), $0
	JEQ  tile6_next
	DECQ left4-48(SP)
	ZERO8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)
	ZERO8(Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15)
	ZERO8(Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23)
	COLUMNS(STEP4, PREFETCH6, NEXT6, cols4_loop, cols4_rest, cols4_restloop, cols4_done)
	ADDQ $256, xtb-24(SP)
	GROUP6(Z0, Z4, Z8, Z12, Z16, Z20, sums6_g0)
	GROUP6(Z1, Z5, Z9, Z13, Z17, Z21, sums6_g1)
	GROUP6(Z2, Z6, Z10, Z14, Z18, Z22, sums6_g2)
	GROUP6(Z3, Z7, Z11, Z15, Z19, Z23, sums6_g3)
	JMP  block6

tile6_next:
	// next tile: A 6 rows down, y 6 elements on
	LEAQ (SI)(R9*2), SI
	ADDQ $48, ytile-8(SP)
	DECQ tilesleft-40(SP)
	JNZ  tile6
	VZEROUPPER
	RET
