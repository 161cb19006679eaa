//go:build gc && !purego

#include "textflag.h"
#include "blocks_amd64.h"

// ---------------------------------------------------------------------------
// MulVecs for large n on AVX2 (without AVX-512): the column panels of
// mulvecs_panels_avx512_amd64.s in 256-bit registers. The caller packs one panel of kc
// columns of the k vectors transposed (xt[c*kp + j] = x[j*n + c0 + c], kp =
// k rounded up to 4, the pad lanes zero). For each tile of 4 rows of A the
// accumulators hold the 4×kp block of partial sums, one row across 4
// vectors a register: per column one A element per row is broadcast and
// multiplied by the packed row xt[c]. The vectors run in blocks of J = 3, 2
// or 1 registers (12, 8 or 4 lanes): a column step of J = 3 is 3 loads and
// 4 broadcasts for 12 FMAs, in the 16 registers. The sums are added to y
// once per panel, transposed 4×4 in registers. With the rank-one update
// (UpdateMulVecs), each tile's 4×kc block of A is updated in place just
// before its column loops (UPD4), so A is read and written once and the
// block is in L1 when the loops read it.
//
// Registers of the column loops:
//   R11 the current column of the tile's first row in A
//   SI  the tile's first row in A (at the panel's first column)
//   R8, R9 NBYTES and 3·NBYTES (rows of A, vectors of y)
//   R12 the packed row xt[c] of the current block; AX its stride 8·kp
//   BX  column steps left; DI the next tile's first row (prefetched)
//   DX  &y[j0*n + i0]: the block's first output
// Y0-Y11 the accumulators (row r, register b in Y(J·r+b)), Y12-Y14 the
// packed row, Y15 the broadcasts (renaming keeps them independent).

// ROW4 addresses row r (0-3) of the tile at column offset d from R11.
#define ROW4_0(d) d(R11)
#define ROW4_1(d) d(R11)(R8*1)
#define ROW4_2(d) d(R11)(R8*2)
#define ROW4_3(d) d(R11)(R9*1)

// B3 (B2, B1) multiplies the A element at addr by the packed row in
// Y12-Y14 (Y12-Y13, Y12) into the accumulators c0-c2.
#define B3(addr, c0, c1, c2) \
	VBROADCASTSD addr, Y15     \
	VFMADD231PD  Y12, Y15, c0  \
	VFMADD231PD  Y13, Y15, c1  \
	VFMADD231PD  Y14, Y15, c2

#define B2(addr, c0, c1) \
	VBROADCASTSD addr, Y15     \
	VFMADD231PD  Y12, Y15, c0  \
	VFMADD231PD  Y13, Y15, c1

#define B1(addr, c0) \
	VBROADCASTSD addr, Y15     \
	VFMADD231PD  Y12, Y15, c0

// S3 (S2, S1) is one column step at column offset d.
#define S3(d) \
	VMOVUPD (R12), Y12               \
	VMOVUPD 32(R12), Y13             \
	VMOVUPD 64(R12), Y14             \
	B3(ROW4_0(d), Y0, Y1, Y2)        \
	B3(ROW4_1(d), Y3, Y4, Y5)        \
	B3(ROW4_2(d), Y6, Y7, Y8)        \
	B3(ROW4_3(d), Y9, Y10, Y11)      \
	ADDQ AX, R12

#define S2(d) \
	VMOVUPD (R12), Y12               \
	VMOVUPD 32(R12), Y13             \
	B2(ROW4_0(d), Y0, Y1)            \
	B2(ROW4_1(d), Y2, Y3)            \
	B2(ROW4_2(d), Y4, Y5)            \
	B2(ROW4_3(d), Y6, Y7)            \
	ADDQ AX, R12

#define S1(d) \
	VMOVUPD (R12), Y12               \
	B1(ROW4_0(d), Y0)                \
	B1(ROW4_1(d), Y1)                \
	B1(ROW4_2(d), Y2)                \
	B1(ROW4_3(d), Y3)                \
	ADDQ AX, R12

// COLS4 runs the column loop of one block with the step macro step: 8
// columns (a cache line of each row, the next tile's line prefetched) at a
// time, then the kc mod 8 rest.
#define COLS4(step, loop8, rest, restloop, done) \
	MOVQ SI, R11                 \
	LEAQ (SI)(R8*4), DI          \
	MOVQ xtb-16(SP), R12         \
	MOVQ stride-48(SP), AX       \
	MOVQ kc8-56(SP), BX          \
	TESTQ BX, BX                 \
	JZ   rest                    \
loop8:                           \
	PREFETCHT1 (DI)              \
	PREFETCHT1 (DI)(R8*1)        \
	PREFETCHT1 (DI)(R8*2)        \
	PREFETCHT1 (DI)(R9*1)        \
	STEPS8(step)                 \
	ADDQ $64, R11                \
	ADDQ $64, DI                 \
	DECQ BX                      \
	JNZ  loop8                   \
rest:                            \
	MOVQ kcrest-64(SP), BX       \
	TESTQ BX, BX                 \
	JZ   done                    \
restloop:                        \
	step(0)                      \
	ADDQ $8, R11                 \
	DECQ BX                      \
	JNZ  restloop                \
done:

// ZERO4 clears four registers.
#define ZERO4(a, b, c, d) \
	VXORPD a, a, a \
	VXORPD b, b, b \
	VXORPD c, c, c \
	VXORPD d, d, d

// TRANSPOSE4 transposes the 4×4 block in r0-r3 (row r in rr) in place:
// afterwards rl holds column l, the 4 rows' sums for one vector (Y12-Y15
// scratch).
#define TRANSPOSE4(r0, r1, r2, r3) \
	VUNPCKLPD  r1, r0, Y12        \
	VUNPCKHPD  r1, r0, Y13        \
	VUNPCKLPD  r3, r2, Y14        \
	VUNPCKHPD  r3, r2, Y15        \
	VPERM2F128 $0x20, Y14, Y12, r0 \
	VPERM2F128 $0x20, Y15, Y13, r1 \
	VPERM2F128 $0x31, Y14, Y12, r2 \
	VPERM2F128 $0x31, Y15, Y13, r3

// ADD4 adds column z to y at DX and moves DX to the next vector; after the
// group's CX vectors it jumps to done.
#define ADD4(z, done) \
	VADDPD  (DX), z, z \
	VMOVUPD z, (DX)    \
	ADDQ    R8, DX     \
	DECQ    CX         \
	JZ      done

// GROUP4 adds one group of 4 vectors (rows in r0-r3) to y; a group past
// the k vectors (pad lanes only) adds nothing.
#define GROUP4(r0, r1, r2, r3, done) \
	MOVQ    kleft-24(SP), CX \
	MOVQ    $4, BX           \
	CMPQ    CX, BX           \
	CMOVQGT BX, CX           \
	SUBQ    $4, kleft-24(SP) \
	TESTQ   CX, CX           \
	JLE     done             \
	TRANSPOSE4(r0, r1, r2, r3) \
	ADD4(r0, done)           \
	ADD4(r1, done)           \
	ADD4(r2, done)           \
	ADD4(r3, done)           \
done:

// UPD4 applies the rank-one update to the 4×kc block of the tile at SI:
// a = fma(β·p_r, v, α·a), the operations of scaleAddOuterAVX2 (the same
// bits), the kc mod 4 last columns under the mask umask (BX p_r, DI the
// row, R10 rows left, R11 and R12 the columns of the row and of v, CX the
// steps of 4 columns; Y0, Y1, Y12-Y15 scratch).
#define UPD4 \
	MOVQ         ptile-120(SP), BX    \
	VBROADCASTSD alpha+136(FP), Y14   \
	VMOVSD       beta+144(FP), X13    \
	MOVQ         SI, DI               \
	MOVQ         $4, R10              \
p4_upd_row:                           \
	VMULSD       (BX), X13, X0        \
	VBROADCASTSD X0, Y15              \
	MOVQ         v_base+176(FP), R12  \
	MOVQ         DI, R11              \
	MOVQ         kc4-104(SP), CX      \
	TESTQ        CX, CX               \
	JZ           p4_upd_tail          \
p4_upd_cols:                          \
	VMULPD       (R11), Y14, Y0       \
	VFMADD231PD  (R12), Y15, Y0       \
	VMOVUPD      Y0, (R11)            \
	ADDQ         $32, R11             \
	ADDQ         $32, R12             \
	DECQ         CX                   \
	JNZ          p4_upd_cols          \
p4_upd_tail:                          \
	CMPQ         kc4rest-112(SP), $0  \
	JEQ          p4_upd_next          \
	VMOVDQU      umask-144(SP), Y12   \
	VMASKMOVPD   (R11), Y12, Y0       \
	VMASKMOVPD   (R12), Y12, Y1       \
	VMULPD       Y14, Y0, Y0          \
	VFMADD231PD  Y1, Y15, Y0          \
	VMASKMOVPD   Y0, Y12, (R11)       \
p4_upd_next:                          \
	ADDQ         $8, BX               \
	ADDQ         R8, DI               \
	DECQ         R10                  \
	JNZ          p4_upd_row           \
	ADDQ         $32, ptile-120(SP)

// func panel4AVX2(y, a, xt []float64, n, tiles, kc, kp, k, g3, g2, g1 int, alpha, beta float64, p, v []float64, update int)
// Requires: AVX2, FMA
//
//	for t < tiles, with i0 = 4t:
//	    if update != 0, for r < 4, c < kc:   (the rank-one update, as scaleAddOuterAVX2)
//	        a[(i0+r)*n + c] = fma(β·p[i0+r], v[c], α·a[(i0+r)*n + c])
//	    for each block of J registers (g3 blocks
//	of 3, then g2 of 2, then g1 of 1), starting at vector j0, for r < 4,
//	j0 ≤ j < min(j0+4J, k):
//	    y[j*n + i0+r] += Σ_{c<kc} a[(i0+r)*n + c]·xt[c*kp + j]
//
// The rows of a start at the panel's first column; 4·(3·g3+2·g2+g1) = kp.
TEXT ·panel4AVX2(SB), NOSPLIT, $144-208
	PANELS_START(n+72(FP), a_base+24(FP), y_base+0(FP), tiles+80(FP), kp+96(FP), kc+88(FP), ytile-8(SP), tilesleft-32(SP), stride-48(SP), kc8-56(SP), kcrest-64(SP))
	CMPQ update+200(FP), $0
	JEQ  p4_tile

	// The update's steps of 4 columns, the mask of the kc mod 4 rest
	// (lanes l < rest: rest > l), and p at the first tile.
	MOVQ         kc+88(FP), CX
	MOVQ         CX, BX
	SHRQ         $2, BX
	MOVQ         BX, kc4-104(SP)
	ANDQ         $3, CX
	MOVQ         CX, kc4rest-112(SP)
	MOVQ         $0x03020100, AX
	VMOVQ        AX, X1
	VPMOVZXBQ    X1, Y1
	VMOVQ        CX, X2
	VPBROADCASTQ X2, Y2
	VPCMPGTQ     Y1, Y2, Y12
	VMOVDQU      Y12, umask-144(SP)
	MOVQ         p_base+152(FP), AX
	MOVQ         AX, ptile-120(SP)

p4_tile:
	CMPQ update+200(FP), $0
	JEQ  p4_blocks_start
	UPD4

p4_blocks_start:
	BLOCKS_START(g3+112(FP), g2+120(FP), g1+128(FP), xt_base+48(FP), k+104(FP), left3-72(SP), left2-80(SP), left1-88(SP), xtb-16(SP), kleft-24(SP), ytile-8(SP))

p4_block:
	NEXT_BLOCK(left3-72(SP), left2-80(SP), left1-88(SP), p4_b3, p4_b2, p4_b1, p4_tile_next)

p4_b3:
	DECQ left3-72(SP)
	ZERO4(Y0, Y1, Y2, Y3)
	ZERO4(Y4, Y5, Y6, Y7)
	ZERO4(Y8, Y9, Y10, Y11)
	COLS4(S3, p4_b3_loop, p4_b3_rest, p4_b3_restloop, p4_b3_done)
	ADDQ $96, xtb-16(SP)
	GROUP4(Y0, Y3, Y6, Y9, p4_s3_g0)
	GROUP4(Y1, Y4, Y7, Y10, p4_s3_g1)
	GROUP4(Y2, Y5, Y8, Y11, p4_s3_g2)
	JMP  p4_block

p4_b2:
	DECQ left2-80(SP)
	ZERO4(Y0, Y1, Y2, Y3)
	ZERO4(Y4, Y5, Y6, Y7)
	COLS4(S2, p4_b2_loop, p4_b2_rest, p4_b2_restloop, p4_b2_done)
	ADDQ $64, xtb-16(SP)
	GROUP4(Y0, Y2, Y4, Y6, p4_s2_g0)
	GROUP4(Y1, Y3, Y5, Y7, p4_s2_g1)
	JMP  p4_block

p4_b1:
	DECQ left1-88(SP)
	ZERO4(Y0, Y1, Y2, Y3)
	COLS4(S1, p4_b1_loop, p4_b1_rest, p4_b1_restloop, p4_b1_done)
	ADDQ $32, xtb-16(SP)
	GROUP4(Y0, Y1, Y2, Y3, p4_s1_g0)
	JMP  p4_block

p4_tile_next:
	// next tile: A 4 rows down, y 4 elements on
	LEAQ (SI)(R8*4), SI
	ADDQ $32, ytile-8(SP)
	DECQ tilesleft-32(SP)
	JNZ  p4_tile
	VZEROUPPER
	RET
