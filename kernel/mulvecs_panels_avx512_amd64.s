//go:build gc && !purego

#include "textflag.h"
#include "transpose_amd64.h"
#include "blocks_amd64.h"

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
// The vectors run in blocks of J = 3, 2 or 1 registers (24, 16 or 8 lanes).
//
// With the rank-one update (UpdateMulVecs), the broadcasts read the tile's
// 8×kc block of A from a copy in ap, rows APS bytes apart, not from A: when a
// row of A is a multiple of 512 bytes (n a multiple of 64), the 8 rows of a
// tile fall into one set of L1 and evict each other (and the next tile's
// rows, which the update loads and stores) while they are in use; APS is an
// odd number of cache lines, so the copy's rows fall into 8 sets. The next
// tile's block is updated, written back to A and copied inside this tile's
// first column loop, one cache line of a row after each column step, so its
// loads, multiplications and stores run in the shadow of the FMAs; ap holds
// the two copies, the current tile's and the next one's. A tile of a single
// block (onebuf) keeps one: the next tile's block is copied a group of 8
// columns behind the column steps, over the lines of this tile's copy that
// they have read, so its stores hit L1 instead of fetching the other
// copy's lines from L2 (COLUMNS_UPD1_G). Without the update (MulVecs) the
// broadcasts read A itself (COLUMNS_A): there the copy cost more than it
// saved.
//
// Registers of the column loops:
//   R11 the current column of the tile's first row in the copy (ROWP), or
//       in A (ROW, COLUMNS_A)
//   SI  &a[i0*n]: the tile's first row in A (at the panel's first column)
//   R8, R9, R10, R13  NBYTES, 3·NBYTES, 5·NBYTES, 7·NBYTES (rows of A)
//   R12 the packed row xt[c] of the current block; AX its stride 8·kp
//   CX  column steps left (or, in the copying loops, the current column of
//       the next block's copy)
//   DI  the same column of the next tile's first row in A (updated and
//       copied, or prefetched by COLUMNS_A)
//   DX  &y[j0*n + i0]: the block's first output (in the copying loops, saved
//       in ysave, and DX the tile after the next one, prefetched)
//   BX  the current column of v (copying loops with the update)
// Z24-Z28 are the packed vectors and the broadcasts, Z29 α, Z30 a line of v
// and Z31 the line copied; the sums after a block's columns use DX (&y of
// the next vector), CX and BX (COUNT8), Z24-Z31 and, in panel6, the mask K2.

// APS is the row stride of the copies of A's blocks in bytes: 65 cache
// lines, room for kc ≤ panelACols = 512 columns (mulvecs_panels_amd64.go).
#define APS 4160

// The 8 rows of a copied block at column offset d from base.
#define ROWP0(d, base) d(base)
#define ROWP1(d, base) (d+APS)(base)
#define ROWP2(d, base) (d+2*APS)(base)
#define ROWP3(d, base) (d+3*APS)(base)
#define ROWP4(d, base) (d+4*APS)(base)
#define ROWP5(d, base) (d+5*APS)(base)
#define ROWP6(d, base) (d+6*APS)(base)
#define ROWP7(d, base) (d+7*APS)(base)

// The 8 rows of a tile of A at column offset d from base.
#define ROW0(d, base) d(base)
#define ROW1(d, base) d(base)(R8*1)
#define ROW2(d, base) d(base)(R8*2)
#define ROW3(d, base) d(base)(R9*1)
#define ROW4(d, base) d(base)(R8*4)
#define ROW5(d, base) d(base)(R10*1)
#define ROW6(d, base) d(base)(R9*2)
#define ROW7(d, base) d(base)(R13*1)

// PREFETCH6G (PREFETCH8G) prefetches, with the instruction ins, the cache
// line at column offset d of each of the 6 (8) rows of the tile of A at
// base: a tile's rows are short runs that the hardware prefetchers pick up
// late. A prefetch past the end of A does not fault.
#define PREFETCH6G(ins, d, base) \
	ins ROW0(d, base) \
	ins ROW1(d, base) \
	ins ROW2(d, base) \
	ins ROW3(d, base) \
	ins ROW4(d, base) \
	ins ROW5(d, base)

#define PREFETCH8G(ins, d, base) \
	PREFETCH6G(ins, d, base) \
	ins ROW6(d, base)        \
	ins ROW7(d, base)

// PREFETCH8 (PREFETCH6) asks L1 for the current cache line of the next
// tile's rows (COLUMNS_A). PREFETCH8L2 (PREFETCH6L2) asks L2 for those of the
// tile after the one being updated: its lines are needed a whole tile later,
// and L1 would lose them to the packed vectors by then. PREFETCH8N
// (PREFETCH6N) asks L1 for the next cache line of the rows being updated.
#define PREFETCH8(base) PREFETCH8G(PREFETCHT0, 0, base)
#define PREFETCH6(base) PREFETCH6G(PREFETCHT0, 0, base)
#define PREFETCH8L2(base) PREFETCH8G(PREFETCHT1, 0, base)
#define PREFETCH6L2(base) PREFETCH6G(PREFETCHT1, 0, base)
#define PREFETCH8N(base) PREFETCH8G(PREFETCHT0, 64, base)
#define PREFETCH6N(base) PREFETCH6G(PREFETCHT0, 64, base)

// NOTHING stands for a step a macro's caller leaves out.
#define NOTHING

// NEXT8 (NEXT6) points DI at the next tile's first row, AHEAD8 (AHEAD6) DX
// at the first row of the tile after that.
#define NEXT8 LEAQ (SI)(R8*8), DI
#define NEXT6 LEAQ (SI)(R9*2), DI
#define AHEAD8 LEAQ (DI)(R8*8), DX
#define AHEAD6 LEAQ (DI)(R9*2), DX

// BCAST4 multiplies the A element at addr, broadcast into Z28, by the
// packed vectors in Z24-Z27 into the accumulators c0-c3.
#define BCAST4(addr, c0, c1, c2, c3) \
	VBROADCASTSD addr, Z28    \
	VFMADD231PD  Z24, Z28, c0 \
	VFMADD231PD  Z25, Z28, c1 \
	VFMADD231PD  Z26, Z28, c2 \
	VFMADD231PD  Z27, Z28, c3

// BCAST3 (BCAST2, BCAST1) multiplies the A element at addr, broadcast into
// zb, by the packed vectors in Z24-Z26 into the accumulators c0-c2.
#define BCAST3(addr, zb, c0, c1, c2) \
	VBROADCASTSD addr, zb    \
	VFMADD231PD  Z24, zb, c0 \
	VFMADD231PD  Z25, zb, c1 \
	VFMADD231PD  Z26, zb, c2

// BCAST3H (BCAST4H) is BCAST3 (BCAST4) with the last register 4 lanes
// wide (yb is zb's lower half).
#define BCAST3H(addr, zb, yb, c0, c1, c2) \
	VBROADCASTSD addr, zb    \
	VFMADD231PD  Z24, zb, c0 \
	VFMADD231PD  Z25, zb, c1 \
	VFMADD231PD  Y26, yb, c2

#define BCAST4H(addr, c0, c1, c2, c3) \
	VBROADCASTSD addr, Z28    \
	VFMADD231PD  Z24, Z28, c0 \
	VFMADD231PD  Z25, Z28, c1 \
	VFMADD231PD  Z26, Z28, c2 \
	VFMADD231PD  Y27, Y28, c3

#define BCAST2(addr, zb, c0, c1) \
	VBROADCASTSD addr, zb    \
	VFMADD231PD  Z24, zb, c0 \
	VFMADD231PD  Z25, zb, c1

#define BCAST1(addr, zb, c0) \
	VBROADCASTSD addr, zb \
	VFMADD231PD  Z24, zb, c0

// STEP3G (STEP2G, STEP1G) is one column step at column offset d from R11,
// the rows addressed by r0-r7 (ROWP: the copy, ROW: A itself): accumulator
// Z(J·r+b) holds row r, lanes 8b to 8b+7 of the block. The broadcasts
// alternate between Z27 and Z28 (STEP4G: Z28 alone; register renaming keeps
// them independent), leaving Z29-Z31 to the copying loops. STEP3 reads the
// copy, STEP3A A (and so on).
#define STEP3G(d, r0, r1, r2, r3, r4, r5, r6, r7) \
	VMOVUPD (R12), Z24                     \
	VMOVUPD 64(R12), Z25                   \
	VMOVUPD 128(R12), Z26                  \
	BCAST3(r0(d, R11), Z27, Z0, Z1, Z2)    \
	BCAST3(r1(d, R11), Z28, Z3, Z4, Z5)    \
	BCAST3(r2(d, R11), Z27, Z6, Z7, Z8)    \
	BCAST3(r3(d, R11), Z28, Z9, Z10, Z11)  \
	BCAST3(r4(d, R11), Z27, Z12, Z13, Z14) \
	BCAST3(r5(d, R11), Z28, Z15, Z16, Z17) \
	BCAST3(r6(d, R11), Z27, Z18, Z19, Z20) \
	BCAST3(r7(d, R11), Z28, Z21, Z22, Z23) \
	ADDQ AX, R12

// STEP4G is the column step of the 6-row tiles: 4 registers of vectors.
#define STEP4G(d, r0, r1, r2, r3, r4, r5) \
	VMOVUPD (R12), Z24                    \
	VMOVUPD 64(R12), Z25                  \
	VMOVUPD 128(R12), Z26                 \
	VMOVUPD 192(R12), Z27                 \
	BCAST4(r0(d, R11), Z0, Z1, Z2, Z3)     \
	BCAST4(r1(d, R11), Z4, Z5, Z6, Z7)     \
	BCAST4(r2(d, R11), Z8, Z9, Z10, Z11)   \
	BCAST4(r3(d, R11), Z12, Z13, Z14, Z15) \
	BCAST4(r4(d, R11), Z16, Z17, Z18, Z19) \
	BCAST4(r5(d, R11), Z20, Z21, Z22, Z23) \
	ADDQ AX, R12

#define STEP2G(d, r0, r1, r2, r3, r4, r5, r6, r7) \
	VMOVUPD (R12), Z24                \
	VMOVUPD 64(R12), Z25              \
	BCAST2(r0(d, R11), Z27, Z0, Z1)   \
	BCAST2(r1(d, R11), Z28, Z2, Z3)   \
	BCAST2(r2(d, R11), Z27, Z4, Z5)   \
	BCAST2(r3(d, R11), Z28, Z6, Z7)   \
	BCAST2(r4(d, R11), Z27, Z8, Z9)   \
	BCAST2(r5(d, R11), Z28, Z10, Z11) \
	BCAST2(r6(d, R11), Z27, Z12, Z13) \
	BCAST2(r7(d, R11), Z28, Z14, Z15) \
	ADDQ AX, R12

#define STEP1G(d, r0, r1, r2, r3, r4, r5, r6, r7) \
	VMOVUPD (R12), Z24           \
	BCAST1(r0(d, R11), Z27, Z0)  \
	BCAST1(r1(d, R11), Z28, Z1)  \
	BCAST1(r2(d, R11), Z27, Z2)  \
	BCAST1(r3(d, R11), Z28, Z3)  \
	BCAST1(r4(d, R11), Z27, Z4)  \
	BCAST1(r5(d, R11), Z28, Z5)  \
	BCAST1(r6(d, R11), Z27, Z6)  \
	BCAST1(r7(d, R11), Z28, Z7)  \
	ADDQ AX, R12

// STEP3HG (STEP4HG) is STEP3G (STEP4G) with a half last register: when
// the block's last register holds at most 4 vectors (k mod 8 = 1-4), its
// loads and FMAs are 4 lanes wide (Y), which costs half a 512-bit FMA on
// CPUs that split those in two; writing Y zeroes the accumulator's upper
// lanes, which the sums then add nowhere (COUNT8).
#define STEP3HG(d, r0, r1, r2, r3, r4, r5, r6, r7) \
	VMOVUPD (R12), Z24                               \
	VMOVUPD 64(R12), Z25                             \
	VMOVUPD 128(R12), Y26                            \
	BCAST3H(r0(d, R11), Z27, Y27, Z0, Z1, Y2)        \
	BCAST3H(r1(d, R11), Z28, Y28, Z3, Z4, Y5)        \
	BCAST3H(r2(d, R11), Z27, Y27, Z6, Z7, Y8)        \
	BCAST3H(r3(d, R11), Z28, Y28, Z9, Z10, Y11)      \
	BCAST3H(r4(d, R11), Z27, Y27, Z12, Z13, Y14)     \
	BCAST3H(r5(d, R11), Z28, Y28, Z15, Z16, Y17)     \
	BCAST3H(r6(d, R11), Z27, Y27, Z18, Z19, Y20)     \
	BCAST3H(r7(d, R11), Z28, Y28, Z21, Z22, Y23)     \
	ADDQ AX, R12

#define STEP4HG(d, r0, r1, r2, r3, r4, r5) \
	VMOVUPD (R12), Z24                     \
	VMOVUPD 64(R12), Z25                   \
	VMOVUPD 128(R12), Z26                  \
	VMOVUPD 192(R12), Y27                  \
	BCAST4H(r0(d, R11), Z0, Z1, Z2, Y3)     \
	BCAST4H(r1(d, R11), Z4, Z5, Z6, Y7)     \
	BCAST4H(r2(d, R11), Z8, Z9, Z10, Y11)   \
	BCAST4H(r3(d, R11), Z12, Z13, Z14, Y15) \
	BCAST4H(r4(d, R11), Z16, Z17, Z18, Y19) \
	BCAST4H(r5(d, R11), Z20, Z21, Z22, Y23) \
	ADDQ AX, R12

#define STEP3H(d) STEP3HG(d, ROWP0, ROWP1, ROWP2, ROWP3, ROWP4, ROWP5, ROWP6, ROWP7)
#define STEP4H(d) STEP4HG(d, ROWP0, ROWP1, ROWP2, ROWP3, ROWP4, ROWP5)
#define STEP3HA(d) STEP3HG(d, ROW0, ROW1, ROW2, ROW3, ROW4, ROW5, ROW6, ROW7)
#define STEP4HA(d) STEP4HG(d, ROW0, ROW1, ROW2, ROW3, ROW4, ROW5)

#define STEP3(d) STEP3G(d, ROWP0, ROWP1, ROWP2, ROWP3, ROWP4, ROWP5, ROWP6, ROWP7)
#define STEP2(d) STEP2G(d, ROWP0, ROWP1, ROWP2, ROWP3, ROWP4, ROWP5, ROWP6, ROWP7)
#define STEP1(d) STEP1G(d, ROWP0, ROWP1, ROWP2, ROWP3, ROWP4, ROWP5, ROWP6, ROWP7)
#define STEP4(d) STEP4G(d, ROWP0, ROWP1, ROWP2, ROWP3, ROWP4, ROWP5)
#define STEP3A(d) STEP3G(d, ROW0, ROW1, ROW2, ROW3, ROW4, ROW5, ROW6, ROW7)
#define STEP2A(d) STEP2G(d, ROW0, ROW1, ROW2, ROW3, ROW4, ROW5, ROW6, ROW7)
#define STEP1A(d) STEP1G(d, ROW0, ROW1, ROW2, ROW3, ROW4, ROW5, ROW6, ROW7)
#define STEP4A(d) STEP4G(d, ROW0, ROW1, ROW2, ROW3, ROW4, ROW5)

// COLUMNS_G runs the column loop of one block with the step macro step: 8
// columns (one cache line of each row) at a time, then the kc mod 8 rest.
// start points R11 at the tile's first row (and DI at the next tile's, for
// prefetch, which runs once per 8 columns). COLUMNS reads the copy of the
// tile's block; COLUMNS_A reads A itself (MulVecs without the update, where
// copying cost more than the sets the rows share) and prefetches the next
// tile (prefetch, next: PREFETCH8(DI), NEXT8 or the 6-row forms).
#define COLUMNS_G(step, start, prefetch, loop8, rest, restloop, done) \
	start                  \
	MOVQ xtb-24(SP), R12   \
	MOVQ stride-72(SP), AX \
	MOVQ kc8-80(SP), CX    \
	TESTQ CX, CX           \
	JZ   rest              \
loop8:                     \
	prefetch               \
	STEPS8(step)           \
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

#define START_COPY MOVQ cur-192(SP), R11
#define START_A8 MOVQ SI, R11; NEXT8
#define START_A6 MOVQ SI, R11; NEXT6

#define COLUMNS(step, loop8, rest, restloop, done) \
	COLUMNS_G(step, START_COPY, NOTHING, loop8, rest, restloop, done)

#define COLUMNS_A8(step, loop8, rest, restloop, done) \
	COLUMNS_G(step, START_A8, PREFETCH8(DI), loop8, rest, restloop, done)

#define COLUMNS_A6(step, loop8, rest, restloop, done) \
	COLUMNS_G(step, START_A6, PREFETCH6(DI), loop8, rest, restloop, done)

// UPD_ROW updates one cache line of a row of the next tile (at arow) with
// the rank-one update a = fma(β·p_r, v, α·a), β·p_r broadcast from the frame
// slot bp, v in Z30, α in Z29 (the operations of scaleAddOuterAVX512, so the
// same bits), and stores it to A and to the next block's copy (prow).
// UPD_ROW_TAIL is UPD_ROW for the last kc mod 8 columns (mask K1: A is
// neither read nor written past them; the copy's lanes past kc hold
// whatever the arithmetic gave and are never read). LINE loads the line of v
// (LINE_TAIL its first kc mod 8 columns).
#define UPD_ROW(arow, prow, bp) \
	VMULPD           arow, Z29, Z31 \
	VFMADD231PD.BCST bp, Z30, Z31   \
	VMOVUPD          Z31, arow      \
	VMOVUPD          Z31, prow

// UPD_ROW1 is UPD_ROW for α = 1 (alpha1 set): a = fma(β·p_r, v, a), the
// same bits without the multiplication (the optimizer keeps A as s·Ã and
// passes α = 1; the tail and the first tile keep UPD_ROW, exact with α = 1).
#define UPD_ROW1(arow, prow, bp) \
	VMOVUPD          arow, Z31    \
	VFMADD231PD.BCST bp, Z30, Z31 \
	VMOVUPD          Z31, arow    \
	VMOVUPD          Z31, prow

#define UPD_ROW_TAIL(arow, prow, bp) \
	VMOVUPD.Z        arow, K1, Z31 \
	VMULPD           Z29, Z31, Z31 \
	VFMADD231PD.BCST bp, Z30, Z31  \
	VMOVUPD          Z31, K1, arow \
	VMOVUPD          Z31, prow

#define LINE VMOVUPD (BX), Z30
#define LINE_TAIL VMOVUPD.Z (BX), K1, Z30

// COPY8 (COPY6) updates one cache line of each row of the tile at DI and
// copies it to CX with the row macro row (UPD_ROW or UPD_ROW_TAIL).
#define COPY8(row) \
	row(ROW0(0, DI), ROWP0(0, CX), bp0-128(SP)) \
	row(ROW1(0, DI), ROWP1(0, CX), bp1-136(SP)) \
	row(ROW2(0, DI), ROWP2(0, CX), bp2-144(SP)) \
	row(ROW3(0, DI), ROWP3(0, CX), bp3-152(SP)) \
	row(ROW4(0, DI), ROWP4(0, CX), bp4-160(SP)) \
	row(ROW5(0, DI), ROWP5(0, CX), bp5-168(SP)) \
	row(ROW6(0, DI), ROWP6(0, CX), bp6-176(SP)) \
	row(ROW7(0, DI), ROWP7(0, CX), bp7-184(SP))

#define COPY6(row) \
	row(ROW0(0, DI), ROWP0(0, CX), bp0-128(SP)) \
	row(ROW1(0, DI), ROWP1(0, CX), bp1-136(SP)) \
	row(ROW2(0, DI), ROWP2(0, CX), bp2-144(SP)) \
	row(ROW3(0, DI), ROWP3(0, CX), bp3-152(SP)) \
	row(ROW4(0, DI), ROWP4(0, CX), bp4-160(SP)) \
	row(ROW5(0, DI), ROWP5(0, CX), bp5-168(SP))

// UPDATE_BLOCK updates the whole block of the tile at SI and copies it to
// cur, in a loop of its own: the first tile of a call, which no column loop
// updated. copyrows is COPY8 or COPY6.
#define UPDATE_BLOCK(copyrows, loop, tail, done) \
	MOVQ SI, DI                     \
	MOVQ cur-192(SP), CX            \
	MOVQ vb-104(SP), BX             \
	VBROADCASTSD alphal-96(SP), Z29 \
	MOVQ kc8-80(SP), AX             \
	TESTQ AX, AX                    \
	JZ   tail                       \
loop:                               \
	LINE                            \
	copyrows(UPD_ROW)               \
	ADDQ $64, DI                    \
	ADDQ $64, CX                    \
	ADDQ $64, BX                    \
	DECQ AX                         \
	JNZ  loop                       \
tail:                               \
	CMPQ kcrest-88(SP), $0          \
	JEQ  done                       \
	LINE_TAIL                       \
	copyrows(UPD_ROW_TAIL)          \
done:

// COLUMNS_UPD_G is COLUMNS for the first block of a tile that has a next
// tile: after each column step it updates and copies one cache line of one
// row of the next tile's block (UPD_ROW; rows 6 and 7 with row6 and row7,
// NOTHING for the 6-row tiles); it prefetches the next cache line of those
// rows into L1 and the tile after them into L2. The kc mod 8 last columns
// are done before this tile's rest steps (copyrows: COPY8 or COPY6). The
// loop ends when R11 reaches endp. COLUMNS_UPD8 and COLUMNS_UPD6 are its
// forms for 8- and 6-row tiles.
#define COLUMNS_UPD_G(step, upd, next, ahead, prefetchL2, prefetchN, row6, row7, copyrows, loop8, rest, restloop, done) \
	COPY_SETUP(next, ahead)                         \
	JAE  rest                                       \
loop8:                                              \
	prefetchL2                                      \
	prefetchN                                       \
	LINE                                            \
	step(0)                                         \
	upd(ROW0(0, DI), ROWP0(0, CX), bp0-128(SP))     \
	step(8)                                         \
	upd(ROW1(0, DI), ROWP1(0, CX), bp1-136(SP))     \
	step(16)                                        \
	upd(ROW2(0, DI), ROWP2(0, CX), bp2-144(SP))     \
	step(24)                                        \
	upd(ROW3(0, DI), ROWP3(0, CX), bp3-152(SP))     \
	step(32)                                        \
	upd(ROW4(0, DI), ROWP4(0, CX), bp4-160(SP))     \
	step(40)                                        \
	upd(ROW5(0, DI), ROWP5(0, CX), bp5-168(SP))     \
	step(48)                                        \
	row6                                            \
	step(56)                                        \
	row7                                            \
	COPY_ADVANCE                                    \
	JB   loop8                                      \
rest:                                               \
	COPY_REST(copyrows, restloop, done)             \
	step(0)                                         \
	ADDQ $8, R11                                    \
	DECQ CX                                         \
	JNZ  restloop                                   \
done:                                               \
	MOVQ ysave-120(SP), DX

#define COLUMNS_UPD8(step, upd, loop8, rest, restloop, done) \
	COLUMNS_UPD_G(step, upd, NEXT8, AHEAD8, PREFETCH8L2(DX), PREFETCH8N(DI), upd(ROW6(0, DI), ROWP6(0, CX), bp6-176(SP)), upd(ROW7(0, DI), ROWP7(0, CX), bp7-184(SP)), COPY8, loop8, rest, restloop, done)

#define COLUMNS_UPD6(step, upd, loop8, rest, restloop, done) \
	COLUMNS_UPD_G(step, upd, NEXT6, AHEAD6, PREFETCH6L2(DX), PREFETCH6N(DI), NOTHING, NOTHING, COPY6, loop8, rest, restloop, done)

// UPD_EITHER runs the copying column loop cols (COLUMNS_UPD8 or
// COLUMNS_UPD6) with UPD_ROW1 when α = 1 (at the label one) and with
// UPD_ROW otherwise, then jumps to sums.
#define UPD_EITHER(cols, step, one, sums, loop8, rest, restloop, done, loop81, rest1, restloop1, done1) \
	CMPQ alpha1-224(SP), $0                           \
	JNE  one                                          \
	cols(step, UPD_ROW, loop8, rest, restloop, done)      \
	JMP  sums                                         \
one:                                                  \
	cols(step, UPD_ROW1, loop81, rest1, restloop1, done1) \
	JMP  sums

// COPY_SETUP1 is COPY_SETUP for one buffer: CX at this tile's own copy,
// which the next tile's block overwrites one cache line behind the reads.
#define COPY_SETUP1(next, ahead)        \
	MOVQ cur-192(SP), R11           \
	MOVQ R11, CX                    \
	next                            \
	MOVQ DX, ysave-120(SP)          \
	ahead                           \
	MOVQ vb-104(SP), BX             \
	VBROADCASTSD alphal-96(SP), Z29 \
	MOVQ xtb-24(SP), R12            \
	MOVQ stride-72(SP), AX

// COLUMNS_UPD1_G is COLUMNS_UPD_G with a single copy (onebuf: a tile of one
// block, kc ≥ 8): the next tile's block is updated a group of 8 columns
// behind the column steps and copied over the lines of this tile's copy
// that the steps have just read, so the copy's stores hit L1 instead of
// fetching the other buffer's lines. The first group runs its steps alone
// (prefetch0 asks L1 for the next tile's first line of each row); after
// the last, this tile's kc mod 8 rest steps run first, then the next
// tile's last group and its kc mod 8 columns are updated and copied
// (copyrows) outside the loop.
#define COLUMNS_UPD1_G(step, upd, next, ahead, prefetchL2, prefetch0, prefetchN, row6, row7, copyrows, loop8, last, restloop, upd1, done) \
	COPY_SETUP1(next, ahead)                        \
	prefetchL2                                      \
	prefetch0                                       \
	STEPS8(step)                                    \
	ADDQ $64, R11                                   \
	ADDQ $64, DX                                    \
	CMPQ R11, endp-208(SP)                          \
	JAE  last                                       \
loop8:                                              \
	prefetchL2                                      \
	prefetchN                                       \
	LINE                                            \
	step(0)                                         \
	upd(ROW0(0, DI), ROWP0(0, CX), bp0-128(SP))     \
	step(8)                                         \
	upd(ROW1(0, DI), ROWP1(0, CX), bp1-136(SP))     \
	step(16)                                        \
	upd(ROW2(0, DI), ROWP2(0, CX), bp2-144(SP))     \
	step(24)                                        \
	upd(ROW3(0, DI), ROWP3(0, CX), bp3-152(SP))     \
	step(32)                                        \
	upd(ROW4(0, DI), ROWP4(0, CX), bp4-160(SP))     \
	step(40)                                        \
	upd(ROW5(0, DI), ROWP5(0, CX), bp5-168(SP))     \
	step(48)                                        \
	row6                                            \
	step(56)                                        \
	row7                                            \
	COPY_ADVANCE                                    \
	JB   loop8                                      \
last:                                               \
	MOVQ CX, cxsave-232(SP)                         \
	MOVQ kcrest-88(SP), CX                          \
	TESTQ CX, CX                                    \
	JZ   upd1                                       \
restloop:                                           \
	step(0)                                         \
	ADDQ $8, R11                                    \
	DECQ CX                                         \
	JNZ  restloop                                   \
upd1:                                               \
	MOVQ cxsave-232(SP), CX                         \
	LINE                                            \
	copyrows(UPD_ROW)                               \
	CMPQ kcrest-88(SP), $0                          \
	JEQ  done                                       \
	ADDQ $64, CX                                    \
	ADDQ $64, DI                                    \
	ADDQ $64, BX                                    \
	LINE_TAIL                                       \
	copyrows(UPD_ROW_TAIL)                          \
done:                                               \
	MOVQ ysave-120(SP), DX

#define COLUMNS_UPD1_8(step, upd, loop8, last, restloop, upd1, done) \
	COLUMNS_UPD1_G(step, upd, NEXT8, AHEAD8, PREFETCH8L2(DX), PREFETCH8(DI), PREFETCH8N(DI), upd(ROW6(0, DI), ROWP6(0, CX), bp6-176(SP)), upd(ROW7(0, DI), ROWP7(0, CX), bp7-184(SP)), COPY8, loop8, last, restloop, upd1, done)

#define COLUMNS_UPD1_6(step, upd, loop8, last, restloop, upd1, done) \
	COLUMNS_UPD1_G(step, upd, NEXT6, AHEAD6, PREFETCH6L2(DX), PREFETCH6(DI), PREFETCH6N(DI), NOTHING, NOTHING, COPY6, loop8, last, restloop, upd1, done)

// UPD_EITHER1 is UPD_EITHER for the one-buffer loops (cols:
// COLUMNS_UPD1_8 or COLUMNS_UPD1_6).
#define UPD_EITHER1(cols, step, one, sums, l1, l2, l3, l4, l5, m1, m2, m3, m4, m5) \
	CMPQ alpha1-224(SP), $0                 \
	JNE  one                                \
	cols(step, UPD_ROW, l1, l2, l3, l4, l5)  \
	JMP  sums                               \
one:                                        \
	cols(step, UPD_ROW1, m1, m2, m3, m4, m5) \
	JMP  sums

// ALPHA1 sets the local alpha1 to 1 if the argument α (at alpha) is 1.0,
// else to 0 (AX, BX, CX and DX scratch).
#define ALPHA1(alpha) \
	XORQ    CX, CX                     \
	MOVQ    $1, DX                     \
	MOVQ    alpha, AX                  \
	MOVQ    $0x3ff0000000000000, BX    \
	CMPQ    AX, BX                     \
	CMOVQEQ DX, CX                     \
	MOVQ    CX, alpha1-224(SP)

// COPY_SETUP starts a copying column loop: R11 at the copy of this tile,
// CX at the next tile's, DI (next) at the next tile's first row in A, DX
// (ahead; saved first: it is &y) at the tile after that, BX at v, Z29 = α;
// it compares R11 with endp (flags set for JAE).
#define COPY_SETUP(next, ahead)         \
	MOVQ cur-192(SP), R11           \
	MOVQ nxt-200(SP), CX            \
	next                            \
	MOVQ DX, ysave-120(SP)          \
	ahead                           \
	MOVQ vb-104(SP), BX             \
	VBROADCASTSD alphal-96(SP), Z29 \
	MOVQ xtb-24(SP), R12            \
	MOVQ stride-72(SP), AX          \
	CMPQ R11, endp-208(SP)

// COPY_ADVANCE moves a copying column loop 8 columns on and compares R11
// with endp (flags set for JB).
#define COPY_ADVANCE \
	ADDQ $64, R11          \
	ADDQ $64, CX           \
	ADDQ $64, DI           \
	ADDQ $64, DX           \
	ADDQ $64, BX           \
	CMPQ R11, endp-208(SP)

// COPY_REST updates and copies the last kc mod 8 columns of the next tile
// (copyrows: COPY8 or COPY6) and sets CX to the rest steps; without them it
// jumps to done (DX, the prefetch pointer, is free here).
#define COPY_REST(copyrows, restloop, done) \
	MOVQ  kcrest-88(SP), DX \
	TESTQ DX, DX            \
	JZ    done              \
	LINE_TAIL               \
	copyrows(UPD_ROW_TAIL)  \
	MOVQ  DX, CX            \
restloop:

// BP8 (BP6) stores β·p of the next tile's rows (p at ptile) in bp0-bp7
// (bp0-bp5) and moves ptile on; NEXT_P is one of them: the operations of
// scaleAddOuterAVX512, so the same bits.
#define NEXT_P(off, bp) \
	VMULSD off(AX), X30, X31 \
	VMOVSD X31, bp

#define BP8 \
	VMOVSD betal-216(SP), X30 \
	MOVQ   ptile-16(SP), AX   \
	NEXT_P(0, bp0-128(SP))    \
	NEXT_P(8, bp1-136(SP))    \
	NEXT_P(16, bp2-144(SP))   \
	NEXT_P(24, bp3-152(SP))   \
	NEXT_P(32, bp4-160(SP))   \
	NEXT_P(40, bp5-168(SP))   \
	NEXT_P(48, bp6-176(SP))   \
	NEXT_P(56, bp7-184(SP))   \
	ADDQ   $64, ptile-16(SP)

#define BP6 \
	VMOVSD betal-216(SP), X30 \
	MOVQ   ptile-16(SP), AX   \
	NEXT_P(0, bp0-128(SP))    \
	NEXT_P(8, bp1-136(SP))    \
	NEXT_P(16, bp2-144(SP))   \
	NEXT_P(24, bp3-152(SP))   \
	NEXT_P(32, bp4-160(SP))   \
	NEXT_P(40, bp5-168(SP))   \
	ADDQ   $48, ptile-16(SP)

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

// PACK_MASKS writes the row masks of packPanelAVX512 for the column mask in
// AX: mfull[l] = AX, mlast[l] = AX for the vlast vectors of the last group
// and 0 past them (mlast is the 64 bytes below mfull; BX, DX and R12
// scratch).
#define PACK_MASKS \
	MOVQ vlast-144(SP), BX \
	LEAQ mfull-64(SP), DX  \
	PACK_MASK(0, 1)        \
	PACK_MASK(8, 2)        \
	PACK_MASK(16, 3)       \
	PACK_MASK(24, 4)       \
	PACK_MASK(32, 5)       \
	PACK_MASK(40, 6)       \
	PACK_MASK(48, 7)       \
	PACK_MASK(56, 8)

// PACK_MASK writes the masks of row off/8, live when vlast ≥ min.
#define PACK_MASK(off, min) \
	MOVQ    AX, off(DX)        \
	XORQ    R12, R12           \
	CMPQ    BX, $min           \
	CMOVQGE AX, R12            \
	MOVQ    R12, (off-64)(DX)

// PACK_GROUP loads the 8 vectors' rows of the block at BX under the masks at
// mt and transposes them: Z24-Z31 are its 8 columns.
#define PACK_GROUP(mt) \
	LEAQ      mt, AX                   \
	KMOVW     (AX), K1                 \
	VMOVUPD.Z ROW0(0, BX), K1, Z0      \
	KMOVW     8(AX), K1                \
	VMOVUPD.Z ROW1(0, BX), K1, Z1      \
	KMOVW     16(AX), K1               \
	VMOVUPD.Z ROW2(0, BX), K1, Z2      \
	KMOVW     24(AX), K1               \
	VMOVUPD.Z ROW3(0, BX), K1, Z3      \
	KMOVW     32(AX), K1               \
	VMOVUPD.Z ROW4(0, BX), K1, Z4      \
	KMOVW     40(AX), K1               \
	VMOVUPD.Z ROW5(0, BX), K1, Z5      \
	KMOVW     48(AX), K1               \
	VMOVUPD.Z ROW6(0, BX), K1, Z6      \
	KMOVW     56(AX), K1               \
	VMOVUPD.Z ROW7(0, BX), K1, Z7      \
	TRANSPOSE8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)

// PACK_STORE8 stores the 8 columns Z24-Z31 to the 8 rows of xt at DX.
#define PACK_STORE8 \
	MOVQ    DX, AX     \
	VMOVUPD Z24, (AX)  \
	ADDQ    R11, AX    \
	VMOVUPD Z25, (AX)  \
	ADDQ    R11, AX    \
	VMOVUPD Z26, (AX)  \
	ADDQ    R11, AX    \
	VMOVUPD Z27, (AX)  \
	ADDQ    R11, AX    \
	VMOVUPD Z28, (AX)  \
	ADDQ    R11, AX    \
	VMOVUPD Z29, (AX)  \
	ADDQ    R11, AX    \
	VMOVUPD Z30, (AX)  \
	ADDQ    R11, AX    \
	VMOVUPD Z31, (AX)

// PACK_STORE_N stores the first CX columns (1-7) of Z24-Z31.
#define PACK_STORE_N(done) \
	MOVQ DX, AX          \
	MOVQ CX, R12         \
	PACK_COL(Z24, done)  \
	PACK_COL(Z25, done)  \
	PACK_COL(Z26, done)  \
	PACK_COL(Z27, done)  \
	PACK_COL(Z28, done)  \
	PACK_COL(Z29, done)  \
	PACK_COL(Z30, done)  \
done:

#define PACK_COL(z, done) \
	VMOVUPD z, (AX) \
	ADDQ    R11, AX \
	DECQ    R12     \
	JZ      done

// func panel8AVX512(y, a, xt, ap []float64, n, tiles, kc, kp, k, g3, g2, g1 int, alpha, beta float64, p, v []float64, update, half, onebuf int)
// Requires: AVX512F
//
//	for t < tiles, with i0 = 8t:
//	    if update != 0, for r < 8, c < kc:   (the rank-one update, as scaleAddOuterAVX512)
//	        a[(i0+r)*n + c] = fma(β·p[i0+r], v[c], α·a[(i0+r)*n + c])
//	    for each block of J registers (g3 blocks of 3, then g2 of 2, then
//	    g1 of 1), starting at vector j0, for r < 8, j0 ≤ j < min(j0+8J, k):
//	        y[j*n + i0+r] += Σ_{c<kc} a[(i0+r)*n + c]·xt[c*kp + j]
//
// half ≠ 0 (a single block whose last register holds at most 4 vectors)
// makes that register 4 lanes wide (STEP3H). With the update, the column
// steps read each tile's block from its copy
// in ap (room for two: 2·8·APS bytes; kc ≤ 512); without, from A. The
// frame holds locals; the column macros read the arguments they need from
// locals (go vet's asmdecl checks FP references in a macro against the
// function above its #define).
TEXT ·panel8AVX512(SB), $232-248
	PANELS_START(n+96(FP), a_base+24(FP), y_base+0(FP), tiles+104(FP), kp+120(FP), kc+112(FP), ytile-8(SP), tilesleft-40(SP), stride-72(SP), kc8-80(SP), kcrest-88(SP))
	LEAQ (R8)(R8*4), R10   // R10 = 5·NBYTES (LEAQ keeps the flags)
	LEAQ (R9)(R8*4), R13   // R13 = 7·NBYTES
	JZ   p8_first
	MOVQ $1, AX            // K1 = the last kc mod 8 columns
	SHLQ CX, AX
	DECQ AX
	KMOVW AX, K1

p8_first:
	// With the update: the locals of the copies, and the first tile's
	// block updated and copied in a loop of its own.
	CMPQ update+224(FP), $0
	JEQ  p8_tile
	MOVQ p_base+176(FP), AX
	MOVQ AX, ptile-16(SP)
	MOVQ ap_base+72(FP), AX
	MOVQ AX, cur-192(SP)
	ADDQ $(8*APS), AX
	MOVQ AX, nxt-200(SP)
	MOVQ alpha+160(FP), AX
	MOVQ AX, alphal-96(SP)
	ALPHA1(alpha+160(FP))
	MOVQ beta+168(FP), AX
	MOVQ AX, betal-216(SP)
	MOVQ v_base+200(FP), AX
	MOVQ AX, vb-104(SP)
	BP8
	UPDATE_BLOCK(COPY8, p8_first_loop, p8_first_tail, p8_first_done)

p8_tile:
	// copynext: with the update, this tile's first block updates and copies
	// the next tile's block (endp ends its column loop).
	MOVQ $0, copynext-112(SP)
	CMPQ update+224(FP), $0
	JEQ  p8_blocks
	MOVQ kc8-80(SP), AX
	SHLQ $6, AX
	ADDQ cur-192(SP), AX
	MOVQ AX, endp-208(SP)
	CMPQ tilesleft-40(SP), $1
	JLE  p8_blocks
	MOVQ $1, copynext-112(SP)
	BP8

p8_blocks:
	BLOCKS_START(g3+136(FP), g2+144(FP), g1+152(FP), xt_base+48(FP), k+128(FP), left3-48(SP), left2-56(SP), left1-64(SP), xtb-24(SP), kleft-32(SP), ytile-8(SP))

p8_block:
	NEXT_BLOCK(left3-48(SP), left2-56(SP), left1-64(SP), p8_block3, p8_block2, p8_block1, p8_tile_next)

p8_block3:
	DECQ left3-48(SP)
	JMP  p8_b3

p8_block2:
	DECQ left2-56(SP)
	JMP  p8_b2

p8_block1:
	DECQ left1-64(SP)
	JMP  p8_b1

p8_b3:
	ZERO8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)
	ZERO8(Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15)
	ZERO8(Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23)
	CMPQ half+232(FP), $0
	JNE  p8_b3h
	CMPQ update+224(FP), $0
	JEQ  p8_b3_a
	CMPQ copynext-112(SP), $0
	JEQ  p8_b3_p
	MOVQ $0, copynext-112(SP)
	CMPQ onebuf+240(FP), $0
	JNE  p8_b3o
	UPD_EITHER(COLUMNS_UPD8, STEP3, p8_b3u1, p8_b3_sums, p8_b3u_loop, p8_b3u_rest, p8_b3u_restloop, p8_b3u_done, p8_b3u1_loop, p8_b3u1_rest, p8_b3u1_restloop, p8_b3u1_done)

p8_b3o:
	UPD_EITHER1(COLUMNS_UPD1_8, STEP3, p8_b3o1, p8_b3_sums, p8_b3o_l1, p8_b3o_l2, p8_b3o_l3, p8_b3o_l4, p8_b3o_l5, p8_b3o1_l1, p8_b3o1_l2, p8_b3o1_l3, p8_b3o1_l4, p8_b3o1_l5)

p8_b3_p:
	COLUMNS(STEP3, p8_b3p_loop, p8_b3p_rest, p8_b3p_restloop, p8_b3p_done)
	JMP  p8_b3_sums

p8_b3_a:
	COLUMNS_A8(STEP3A, p8_b3a_loop, p8_b3a_rest, p8_b3a_restloop, p8_b3a_done)
	JMP  p8_b3_sums

p8_b3h:
	CMPQ update+224(FP), $0
	JEQ  p8_b3h_a
	CMPQ copynext-112(SP), $0
	JEQ  p8_b3h_p
	MOVQ $0, copynext-112(SP)
	CMPQ onebuf+240(FP), $0
	JNE  p8_b3ho
	UPD_EITHER(COLUMNS_UPD8, STEP3H, p8_b3hu1, p8_b3_sums, p8_b3hu_loop, p8_b3hu_rest, p8_b3hu_restloop, p8_b3hu_done, p8_b3hu1_loop, p8_b3hu1_rest, p8_b3hu1_restloop, p8_b3hu1_done)

p8_b3ho:
	UPD_EITHER1(COLUMNS_UPD1_8, STEP3H, p8_b3ho1, p8_b3_sums, p8_b3ho_l1, p8_b3ho_l2, p8_b3ho_l3, p8_b3ho_l4, p8_b3ho_l5, p8_b3ho1_l1, p8_b3ho1_l2, p8_b3ho1_l3, p8_b3ho1_l4, p8_b3ho1_l5)

p8_b3h_p:
	COLUMNS(STEP3H, p8_b3hp_loop, p8_b3hp_rest, p8_b3hp_restloop, p8_b3hp_done)
	JMP  p8_b3_sums

p8_b3h_a:
	COLUMNS_A8(STEP3HA, p8_b3ha_loop, p8_b3ha_rest, p8_b3ha_restloop, p8_b3ha_done)

p8_b3_sums:
	ADDQ $192, xtb-24(SP)
	GROUP8(Z0, Z3, Z6, Z9, Z12, Z15, Z18, Z21, p8_s3_g0)
	GROUP8(Z1, Z4, Z7, Z10, Z13, Z16, Z19, Z22, p8_s3_g1)
	GROUP8(Z2, Z5, Z8, Z11, Z14, Z17, Z20, Z23, p8_s3_g2)
	JMP  p8_block

p8_b2:
	ZERO8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)
	ZERO8(Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15)
	CMPQ update+224(FP), $0
	JEQ  p8_b2_a
	CMPQ copynext-112(SP), $0
	JEQ  p8_b2_p
	MOVQ $0, copynext-112(SP)
	UPD_EITHER(COLUMNS_UPD8, STEP2, p8_b2u1, p8_b2_sums, p8_b2u_loop, p8_b2u_rest, p8_b2u_restloop, p8_b2u_done, p8_b2u1_loop, p8_b2u1_rest, p8_b2u1_restloop, p8_b2u1_done)

p8_b2_p:
	COLUMNS(STEP2, p8_b2p_loop, p8_b2p_rest, p8_b2p_restloop, p8_b2p_done)
	JMP  p8_b2_sums

p8_b2_a:
	COLUMNS_A8(STEP2A, p8_b2a_loop, p8_b2a_rest, p8_b2a_restloop, p8_b2a_done)

p8_b2_sums:
	ADDQ $128, xtb-24(SP)
	GROUP8(Z0, Z2, Z4, Z6, Z8, Z10, Z12, Z14, p8_s2_g0)
	GROUP8(Z1, Z3, Z5, Z7, Z9, Z11, Z13, Z15, p8_s2_g1)
	JMP  p8_block

p8_b1:
	ZERO8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)
	CMPQ update+224(FP), $0
	JEQ  p8_b1_a
	CMPQ copynext-112(SP), $0
	JEQ  p8_b1_p
	MOVQ $0, copynext-112(SP)
	UPD_EITHER(COLUMNS_UPD8, STEP1, p8_b1u1, p8_b1_sums, p8_b1u_loop, p8_b1u_rest, p8_b1u_restloop, p8_b1u_done, p8_b1u1_loop, p8_b1u1_rest, p8_b1u1_restloop, p8_b1u1_done)

p8_b1_p:
	COLUMNS(STEP1, p8_b1p_loop, p8_b1p_rest, p8_b1p_restloop, p8_b1p_done)
	JMP  p8_b1_sums

p8_b1_a:
	COLUMNS_A8(STEP1A, p8_b1a_loop, p8_b1a_rest, p8_b1a_restloop, p8_b1a_done)

p8_b1_sums:
	ADDQ $64, xtb-24(SP)
	GROUP8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, p8_s1_g0)
	JMP  p8_block

p8_tile_next:
	// next tile: A 8 rows down, y 8 elements on, the copies swapped (one
	// copy with onebuf)
	LEAQ (SI)(R8*8), SI
	ADDQ $64, ytile-8(SP)
	CMPQ onebuf+240(FP), $0
	JNE  p8_tile_count
	MOVQ cur-192(SP), AX
	MOVQ nxt-200(SP), BX
	MOVQ BX, cur-192(SP)
	MOVQ AX, nxt-200(SP)

p8_tile_count:
	DECQ tilesleft-40(SP)
	JNZ  p8_tile
	VZEROUPPER
	RET

// func packPanelAVX512(xt, x []float64, n, kc, kp, k int)
// Requires: AVX512F
//
//	for c < kc, j < kp: xt[c*kp + j] = x[j*n + c] if j < k, else 0
//
// x starts at the panel's first column. Blocks of 8 vectors × 8 columns are
// loaded a row (one vector's 8 columns) at a time and transposed in
// registers (TRANSPOSE8: Z24-Z31 are the columns), under masks that read
// nothing past the k vectors or the kc columns, instead of a gather a
// column, which is slow.
//
// Registers: SI x at the current column block, DI xt at its first row, BX
// the group of 8 vectors, DX its place in xt, R11 the stride of xt (8·kp
// bytes), CX the columns left; R8, R9, R10, R13 NBYTES multiples (ROW).
// The frame holds the row masks of a full group (mfull) and of the last one
// (mlast, rows past k zero) and the count of full groups.
TEXT ·packPanelAVX512(SB), NOSPLIT, $152-80
	MOVQ xt_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ n+48(FP), R8
	SHLQ $3, R8            // R8 = NBYTES
	LEAQ (R8)(R8*2), R9    // R9 = 3·NBYTES
	LEAQ (R8)(R8*4), R10   // R10 = 5·NBYTES
	LEAQ (R9)(R8*4), R13   // R13 = 7·NBYTES
	MOVQ kp+64(FP), R11
	MOVQ R11, AX
	SHRQ $3, AX
	DECQ AX
	MOVQ AX, groups-136(SP) // the full groups: kp/8 − 1
	MOVQ k+72(FP), AX
	SUBQ R11, AX
	ADDQ $8, AX
	MOVQ AX, vlast-144(SP)  // the vectors of the last group, 1-8
	SHLQ $3, R11            // R11 = 8·kp
	MOVQ kc+56(FP), CX
	MOVQ $0xff, AX
	PACK_MASKS
	CMPQ CX, $8
	JLT  pack_tail

pack_block:
	MOVQ SI, BX
	MOVQ DI, DX
	MOVQ groups-136(SP), R12
	TESTQ R12, R12
	JZ   pack_last

pack_full:
	PACK_GROUP(mfull-64(SP))
	PACK_STORE8
	ADDQ $64, DX
	LEAQ (BX)(R8*8), BX
	DECQ R12
	JNZ  pack_full

pack_last:
	PACK_GROUP(mlast-128(SP))
	PACK_STORE8
	ADDQ $64, SI
	LEAQ (DI)(R11*8), DI
	SUBQ $8, CX
	CMPQ CX, $8
	JGE  pack_block

pack_tail:
	// The last kc mod 8 columns: every row under the column mask.
	TESTQ CX, CX
	JZ   pack_done
	MOVQ $1, AX
	SHLQ CX, AX
	DECQ AX
	PACK_MASKS
	MOVQ SI, BX
	MOVQ DI, DX
	MOVQ groups-136(SP), AX
	MOVQ AX, gleft-152(SP)
	TESTQ AX, AX
	JZ   pack_tail_last

pack_tail_full:
	PACK_GROUP(mfull-64(SP))
	PACK_STORE_N(pack_tail_full_stored)
	ADDQ $64, DX
	LEAQ (BX)(R8*8), BX
	DECQ gleft-152(SP)
	JNZ  pack_tail_full

pack_tail_last:
	PACK_GROUP(mlast-128(SP))
	PACK_STORE_N(pack_tail_last_stored)

pack_done:
	VZEROUPPER
	RET

// func panel6AVX512(y, a, xt, ap []float64, n, tiles, kc, kp, k, g4 int, alpha, beta float64, p, v []float64, update, half, onebuf int)
// Requires: AVX512F
//
// panel8AVX512 for tiles of 6 rows and g4 blocks of 4 registers (32 lanes;
// kp = 32·g4): per column 6 broadcasts and 4 loads for 24 FMAs, for the k
// from 25 to 32 (λ for 1097 ≤ n ≤ 11000) that would leave 8 rows × 3+1
// registers with a weak block of 1; half as in panel8AVX512 (g4 = 1). The
// sums go to y through masked (K2)
// loads and stores of 6 lanes.
TEXT ·panel6AVX512(SB), $232-232
	MOVQ  $0x3f, AX        // K2 = the 6 rows of a tile's sums
	KMOVW AX, K2
	PANELS_START(n+96(FP), a_base+24(FP), y_base+0(FP), tiles+104(FP), kp+120(FP), kc+112(FP), ytile-8(SP), tilesleft-40(SP), stride-72(SP), kc8-80(SP), kcrest-88(SP))
	LEAQ (R8)(R8*4), R10   // R10 = 5·NBYTES (LEAQ keeps the flags)
	LEAQ (R9)(R8*4), R13   // R13 = 7·NBYTES
	JZ   p6_first
	MOVQ $1, AX            // K1 = the last kc mod 8 columns
	SHLQ CX, AX
	DECQ AX
	KMOVW AX, K1

p6_first:
	// With the update: the locals of the copies, and the first tile's
	// block updated and copied in a loop of its own.
	CMPQ update+208(FP), $0
	JEQ  p6_tile
	MOVQ p_base+160(FP), AX
	MOVQ AX, ptile-16(SP)
	MOVQ ap_base+72(FP), AX
	MOVQ AX, cur-192(SP)
	ADDQ $(8*APS), AX
	MOVQ AX, nxt-200(SP)
	MOVQ alpha+144(FP), AX
	MOVQ AX, alphal-96(SP)
	ALPHA1(alpha+144(FP))
	MOVQ beta+152(FP), AX
	MOVQ AX, betal-216(SP)
	MOVQ v_base+184(FP), AX
	MOVQ AX, vb-104(SP)
	BP6
	UPDATE_BLOCK(COPY6, p6_first_loop, p6_first_tail, p6_first_done)

p6_tile:
	// copynext: with the update, this tile's first block updates and copies
	// the next tile's block (endp ends its column loop).
	MOVQ $0, copynext-112(SP)
	CMPQ update+208(FP), $0
	JEQ  p6_blocks
	MOVQ kc8-80(SP), AX
	SHLQ $6, AX
	ADDQ cur-192(SP), AX
	MOVQ AX, endp-208(SP)
	CMPQ tilesleft-40(SP), $1
	JLE  p6_blocks
	MOVQ $1, copynext-112(SP)
	BP6

p6_blocks:
	MOVQ g4+136(FP), AX
	MOVQ AX, left4-48(SP)
	MOVQ xt_base+48(FP), AX
	MOVQ AX, xtb-24(SP)
	MOVQ k+128(FP), AX
	MOVQ AX, kleft-32(SP)
	MOVQ ytile-8(SP), DX

p6_block:
	CMPQ left4-48(SP), $0
	JEQ  p6_tile_next
	DECQ left4-48(SP)

p6_b4:
	ZERO8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)
	ZERO8(Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15)
	ZERO8(Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23)
	CMPQ half+216(FP), $0
	JNE  p6_b4h
	CMPQ update+208(FP), $0
	JEQ  p6_b4_a
	CMPQ copynext-112(SP), $0
	JEQ  p6_b4_p
	MOVQ $0, copynext-112(SP)
	CMPQ onebuf+224(FP), $0
	JNE  p6_b4o
	UPD_EITHER(COLUMNS_UPD6, STEP4, p6_b4u1, p6_b4_sums, p6_b4u_loop, p6_b4u_rest, p6_b4u_restloop, p6_b4u_done, p6_b4u1_loop, p6_b4u1_rest, p6_b4u1_restloop, p6_b4u1_done)

p6_b4o:
	UPD_EITHER1(COLUMNS_UPD1_6, STEP4, p6_b4o1, p6_b4_sums, p6_b4o_l1, p6_b4o_l2, p6_b4o_l3, p6_b4o_l4, p6_b4o_l5, p6_b4o1_l1, p6_b4o1_l2, p6_b4o1_l3, p6_b4o1_l4, p6_b4o1_l5)

p6_b4_p:
	COLUMNS(STEP4, p6_b4p_loop, p6_b4p_rest, p6_b4p_restloop, p6_b4p_done)
	JMP  p6_b4_sums

p6_b4_a:
	COLUMNS_A6(STEP4A, p6_b4a_loop, p6_b4a_rest, p6_b4a_restloop, p6_b4a_done)
	JMP  p6_b4_sums

p6_b4h:
	CMPQ update+208(FP), $0
	JEQ  p6_b4h_a
	CMPQ copynext-112(SP), $0
	JEQ  p6_b4h_p
	MOVQ $0, copynext-112(SP)
	CMPQ onebuf+224(FP), $0
	JNE  p6_b4ho
	UPD_EITHER(COLUMNS_UPD6, STEP4H, p6_b4hu1, p6_b4_sums, p6_b4hu_loop, p6_b4hu_rest, p6_b4hu_restloop, p6_b4hu_done, p6_b4hu1_loop, p6_b4hu1_rest, p6_b4hu1_restloop, p6_b4hu1_done)

p6_b4ho:
	UPD_EITHER1(COLUMNS_UPD1_6, STEP4H, p6_b4ho1, p6_b4_sums, p6_b4ho_l1, p6_b4ho_l2, p6_b4ho_l3, p6_b4ho_l4, p6_b4ho_l5, p6_b4ho1_l1, p6_b4ho1_l2, p6_b4ho1_l3, p6_b4ho1_l4, p6_b4ho1_l5)

p6_b4h_p:
	COLUMNS(STEP4H, p6_b4hp_loop, p6_b4hp_rest, p6_b4hp_restloop, p6_b4hp_done)
	JMP  p6_b4_sums

p6_b4h_a:
	COLUMNS_A6(STEP4HA, p6_b4ha_loop, p6_b4ha_rest, p6_b4ha_restloop, p6_b4ha_done)

p6_b4_sums:
	ADDQ $256, xtb-24(SP)
	GROUP6(Z0, Z4, Z8, Z12, Z16, Z20, p6_s4_g0)
	GROUP6(Z1, Z5, Z9, Z13, Z17, Z21, p6_s4_g1)
	GROUP6(Z2, Z6, Z10, Z14, Z18, Z22, p6_s4_g2)
	GROUP6(Z3, Z7, Z11, Z15, Z19, Z23, p6_s4_g3)
	JMP  p6_block

p6_tile_next:
	// next tile: A 6 rows down, y 6 elements on, the copies swapped (one
	// copy with onebuf)
	LEAQ (SI)(R9*2), SI
	ADDQ $48, ytile-8(SP)
	CMPQ onebuf+224(FP), $0
	JNE  p6_tile_count
	MOVQ cur-192(SP), AX
	MOVQ nxt-200(SP), BX
	MOVQ BX, cur-192(SP)
	MOVQ AX, nxt-200(SP)

p6_tile_count:
	DECQ tilesleft-40(SP)
	JNZ  p6_tile
	VZEROUPPER
	RET
