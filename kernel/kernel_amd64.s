//go:build gc && !purego

#include "textflag.h"

// AVX-512 and AVX2+FMA kernels. Conventions shared by every function:
//   - the Go wrapper has checked all lengths; n ≥ 1 (tiles: 4 rows exist);
//   - rows of A, vectors of x and vectors of y are n float64 apart
//     (NBYTES = 8·n bytes);
//   - the column tail (n mod 8 on AVX-512, n mod 4 on AVX2) is handled with
//     masked loads and stores, which neither read nor write past the slice.
// Only AVX-512 F instructions are used on the AVX-512 path (no VL, DQ, BW):
// 256-bit arithmetic there stays in registers Y0-Y15 (VEX encoding).

// tailMask holds 4 all-ones quadwords followed by 4 zero quadwords: the 32
// bytes at tailMask<>+32-8r are an AVX2 mask that selects the first r lanes.
DATA tailMask<>+0(SB)/8, $-1
DATA tailMask<>+8(SB)/8, $-1
DATA tailMask<>+16(SB)/8, $-1
DATA tailMask<>+24(SB)/8, $-1
DATA tailMask<>+32(SB)/8, $0
DATA tailMask<>+40(SB)/8, $0
DATA tailMask<>+48(SB)/8, $0
DATA tailMask<>+56(SB)/8, $0
GLOBL tailMask<>(SB), RODATA|NOPTR, $64

// LOAD_TAIL_MASK_Y sets ymm mask to select the first r lanes (1 ≤ r ≤ 3);
// r is destroyed, tmp is a scratch general register.
#define LOAD_TAIL_MASK_Y(r, tmp, mask) \
	LEAQ tailMask<>+32(SB), tmp \
	SHLQ $3, r                  \
	SUBQ r, tmp                 \
	VMOVUPD (tmp), mask

// LOAD_TAIL_MASK_K sets opmask K1 to select the first r lanes (1 ≤ r ≤ 7).
// r must be CX (the shift count); AX is destroyed.
#define LOAD_TAIL_MASK_K \
	MOVQ $1, AX  \
	SHLQ CX, AX  \
	DECQ AX      \
	KMOVW AX, K1

// HSUM4 reduces four ymm accumulators a, b, c, d (registers below Y16) to
// their four horizontal sums [Σa, Σb, Σc, Σd] and stores them at mem. All four
// registers are destroyed. After the two VHADDPD,
// a = [a0+a1, b0+b1, a2+a3, b2+b3] and c = [c0+c1, d0+d1, c2+c3, d2+d3];
// b and d then take their low and high 128-bit halves, and b + d is the result.
#define HSUM4(a, b, c, d, mem) \
	VHADDPD    b, a, a        \
	VHADDPD    d, c, c        \
	VPERM2F128 $0x20, c, a, b \
	VPERM2F128 $0x31, c, a, d \
	VADDPD     d, b, b        \
	VMOVUPD    b, mem

// ---------------------------------------------------------------------------
// MulVecs tiles: y[j*n+i] = Σ_c a[i*n+c]·x[j*n+c]. The AVX-512 whole-row
// tiles are generated (mulvecs_rows_avx512_amd64.s, by _asm); the AVX2 ones
// follow.

// ROW1x3_256 loads the row of A at addr into Y15 and multiplies it by the 3
// vectors of x held in Y12-Y14 into the accumulators c0-c2 (4 columns).
#define ROW1x3_256(addr, c0, c1, c2) \
	VMOVUPD     addr, Y15     \
	VFMADD231PD Y15, Y12, c0  \
	VFMADD231PD Y15, Y13, c1  \
	VFMADD231PD Y15, Y14, c2

// ROW1x3_256_TAIL is ROW1x3_256 for the masked tail: mask in Y12, the row in
// Y13 and each vector of x loaded (masked) into Y14 in turn.
#define ROW1x3_256_TAIL(addr, c0, c1, c2) \
	VMASKMOVPD  addr, Y12, Y13       \
	VMASKMOVPD  (DI), Y12, Y14       \
	VFMADD231PD Y14, Y13, c0         \
	VMASKMOVPD  (DI)(R8*1), Y12, Y14 \
	VFMADD231PD Y14, Y13, c1         \
	VMASKMOVPD  (DI)(R8*2), Y12, Y14 \
	VFMADD231PD Y14, Y13, c2

// func tile4x3AVX2(y, a, x []float64, n int)
// Requires: AVX, AVX2, FMA
//
// The 12 accumulators Y0-Y11 hold the 4×3 tile, vector j in Y(4j)..Y(4j+3);
// per 4 columns it loads 3 vectors of x (Y12-Y14) and 4 rows of A (Y15).
TEXT ·tile4x3AVX2(SB), NOSPLIT, $0-80
	MOVQ y_base+0(FP), DX
	MOVQ a_base+24(FP), SI
	MOVQ x_base+48(FP), DI
	MOVQ n+72(FP), CX
	LEAQ (CX*8), R8
	LEAQ (R8)(R8*2), R9

	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11

	MOVQ CX, BX
	SHRQ $2, BX // BX = whole 4-column blocks
	JZ   tile3_tail

tile3_loop:
	VMOVUPD (DI), Y12
	VMOVUPD (DI)(R8*1), Y13
	VMOVUPD (DI)(R8*2), Y14
	ROW1x3_256((SI), Y0, Y4, Y8)
	ROW1x3_256((SI)(R8*1), Y1, Y5, Y9)
	ROW1x3_256((SI)(R8*2), Y2, Y6, Y10)
	ROW1x3_256((SI)(R9*1), Y3, Y7, Y11)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ BX
	JNZ  tile3_loop

tile3_tail:
	ANDQ $3, CX
	JZ   tile3_reduce
	LOAD_TAIL_MASK_Y(CX, AX, Y12)
	ROW1x3_256_TAIL((SI), Y0, Y4, Y8)
	ROW1x3_256_TAIL((SI)(R8*1), Y1, Y5, Y9)
	ROW1x3_256_TAIL((SI)(R8*2), Y2, Y6, Y10)
	ROW1x3_256_TAIL((SI)(R9*1), Y3, Y7, Y11)

tile3_reduce:
	HSUM4(Y0, Y1, Y2, Y3, (DX))
	HSUM4(Y4, Y5, Y6, Y7, (DX)(R8*1))
	HSUM4(Y8, Y9, Y10, Y11, (DX)(R8*2))
	VZEROUPPER
	RET

// func tile4x1AVX2(y, a, x []float64, n int)
// Requires: AVX, AVX2, FMA
//
// y[i] = Σ_c a[i*n+c]·x[c] for i < 4, accumulators Y0-Y3 (even 4-column
// blocks) and Y5-Y8 (odd ones).
TEXT ·tile4x1AVX2(SB), NOSPLIT, $0-80
	MOVQ y_base+0(FP), DX
	MOVQ a_base+24(FP), SI
	MOVQ x_base+48(FP), DI
	MOVQ n+72(FP), CX
	LEAQ (CX*8), R8
	LEAQ (R8)(R8*2), R9

	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8

	MOVQ CX, BX
	SHRQ $3, BX // BX = whole 8-column blocks
	JZ   tile1y_one

tile1y_loop:
	VMOVUPD     (DI), Y4
	VMOVUPD     32(DI), Y9
	VFMADD231PD (SI), Y4, Y0
	VFMADD231PD (SI)(R8*1), Y4, Y1
	VFMADD231PD (SI)(R8*2), Y4, Y2
	VFMADD231PD (SI)(R9*1), Y4, Y3
	VFMADD231PD 32(SI), Y9, Y5
	VFMADD231PD 32(SI)(R8*1), Y9, Y6
	VFMADD231PD 32(SI)(R8*2), Y9, Y7
	VFMADD231PD 32(SI)(R9*1), Y9, Y8
	ADDQ        $64, SI
	ADDQ        $64, DI
	DECQ        BX
	JNZ         tile1y_loop

tile1y_one:
	// one more block of 4 columns if n mod 8 ≥ 4
	TESTQ       $4, CX
	JZ          tile1y_tail
	VMOVUPD     (DI), Y4
	VFMADD231PD (SI), Y4, Y0
	VFMADD231PD (SI)(R8*1), Y4, Y1
	VFMADD231PD (SI)(R8*2), Y4, Y2
	VFMADD231PD (SI)(R9*1), Y4, Y3
	ADDQ        $32, SI
	ADDQ        $32, DI

tile1y_tail:
	ANDQ $3, CX
	JZ   tile1y_reduce
	LOAD_TAIL_MASK_Y(CX, AX, Y10)
	VMASKMOVPD  (DI), Y10, Y4
	VMASKMOVPD  (SI), Y10, Y9
	VFMADD231PD Y9, Y4, Y0
	VMASKMOVPD  (SI)(R8*1), Y10, Y9
	VFMADD231PD Y9, Y4, Y1
	VMASKMOVPD  (SI)(R8*2), Y10, Y9
	VFMADD231PD Y9, Y4, Y2
	VMASKMOVPD  (SI)(R9*1), Y10, Y9
	VFMADD231PD Y9, Y4, Y3

tile1y_reduce:
	VADDPD Y5, Y0, Y0
	VADDPD Y6, Y1, Y1
	VADDPD Y7, Y2, Y2
	VADDPD Y8, Y3, Y3
	HSUM4(Y0, Y1, Y2, Y3, (DX))
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// Vector kernels: dot, axpby, rotatePair and scale are generated
// (vectors_amd64.s, by _asm).

// func maxAbsBitsAVX512(x []float64) uint64
// Requires: AVX512F
//
// The largest of the bits of |x_i| as unsigned integers, len(x) ≥ 1: four
// running maxima over blocks of 32, then blocks of 8 and the masked tail
// (its masked-off lanes load as 0, which no maximum changes).
TEXT ·maxAbsBitsAVX512(SB), NOSPLIT, $0-32
	MOVQ         x_base+0(FP), SI
	MOVQ         x_len+8(FP), CX
	MOVQ         $0x7fffffffffffffff, AX
	VPBROADCASTQ AX, Z31
	VPXORQ       Z0, Z0, Z0
	VPXORQ       Z1, Z1, Z1
	VPXORQ       Z2, Z2, Z2
	VPXORQ       Z3, Z3, Z3

	MOVQ CX, BX
	SHRQ $5, BX
	JZ   mab_eight

mab_loop32:
	VPANDQ   (SI), Z31, Z4
	VPANDQ   64(SI), Z31, Z5
	VPANDQ   128(SI), Z31, Z6
	VPANDQ   192(SI), Z31, Z7
	VPMAXUQ  Z4, Z0, Z0
	VPMAXUQ  Z5, Z1, Z1
	VPMAXUQ  Z6, Z2, Z2
	VPMAXUQ  Z7, Z3, Z3
	ADDQ     $256, SI
	DECQ     BX
	JNZ      mab_loop32

mab_eight:
	MOVQ CX, BX
	ANDQ $31, BX
	SHRQ $3, BX
	JZ   mab_tail

mab_loop8:
	VPANDQ  (SI), Z31, Z4
	VPMAXUQ Z4, Z0, Z0
	ADDQ    $64, SI
	DECQ    BX
	JNZ     mab_loop8

mab_tail:
	ANDQ $7, CX
	JZ   mab_reduce
	LOAD_TAIL_MASK_K
	VMOVDQU64.Z (SI), K1, Z4
	VPANDQ      Z4, Z31, Z4
	VPMAXUQ     Z4, Z1, Z1

mab_reduce:
	VPMAXUQ       Z1, Z0, Z0
	VPMAXUQ       Z3, Z2, Z2
	VPMAXUQ       Z2, Z0, Z0
	VSHUFI64X2    $0x4e, Z0, Z0, Z1 // the halves swapped (zmm only: no AVX512VL)
	VPMAXUQ       Z1, Z0, Z0
	VSHUFI64X2    $0xb1, Z0, Z0, Z1 // the 128-bit lanes of each half swapped
	VPMAXUQ       Z1, Z0, Z0
	VPSHUFD       $0x4e, Z0, Z1     // the two quadwords of each lane swapped
	VPMAXUQ       Z1, Z0, Z0
	VMOVQ         X0, AX
	MOVQ          AX, ret+24(FP)
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// The rank-k update: for each row i, the coefficients c_t = p[t*n+i]·β[t]
// (t < k ≤ 16) are rounded once into the frame; then for each block of the
// cols columns s = α·a[i*n+j], s = fma(c_t, q[t*n+j], s) for t = 0, 1, …,
// k−1. Rows of a, p and q are n apart (cols ≤ n: a panel of columns).
//
// Registers of the row-at-a-time kernels (scaleAddRankKAVX512, AVX2):
//   DI  a: the current columns of the current row
//   DX  rows left
//   R8  NBYTES, the stride between the rows of a, p and q
//   R10 cols
//   R11 &coef[k], the end of the coefficients in the frame, indexed by AX
//   R12 &p[i]: p_0[i] of the current row
//   R13 k
//   AX  t−k: runs from −k up to 0, so (R11)(AX*8) is c_t
//   SI  &q[0][j], the columns of the current block
//   R9  &q[t][j] (&p[t][i] while computing the coefficients)
//   BX  blocks of columns left in the row (&β[k] while computing the
//       coefficients)
//   CX  the column tail (cols mod 8, cols mod 4)
// The frame holds coef[16] and gap = (n − cols)·8, the bytes from the end of
// a row's panel to the start of the next. scaleAddRankK4AVX512 (4-row tiles,
// at the end of this file) documents its own.

// ROW_COEFS stores coef[t] = p[t*n+i]·β[t] for t < k in the frame, with
// BX = β on entry, then moves R12 to the next row's p. (FP arguments stay
// outside macros: go vet's asmdecl would check them against the function
// above the #define.)
#define ROW_COEFS(label) \
	LEAQ   (BX)(R13*8), BX      \
	MOVQ   R12, R9              \
	MOVQ   R13, AX              \
	NEGQ   AX                   \
label:                          \
	VMOVSD (R9), X0             \
	VMULSD (BX)(AX*8), X0, X0   \
	VMOVSD X0, (R11)(AX*8)      \
	ADDQ   R8, R9               \
	INCQ   AX                   \
	JNZ    label                \
	ADDQ   $8, R12

// ROW4_SCALE (ROW4_STORE) loads 4 registers of A at the 4 addresses times α
// (Z30) into 4 accumulators (stores them back).
#define ROW4_SCALE(addr0, addr1, addr2, addr3, z0, z1, z2, z3) \
	VMULPD addr0, Z30, z0 \
	VMULPD addr1, Z30, z1 \
	VMULPD addr2, Z30, z2 \
	VMULPD addr3, Z30, z3

#define ROW4_STORE(addr0, addr1, addr2, addr3, z0, z1, z2, z3) \
	VMOVUPD z0, addr0 \
	VMOVUPD z1, addr1 \
	VMOVUPD z2, addr2 \
	VMOVUPD z3, addr3

// func scaleAddRankKAVX512(a []float64, n, rows, cols int, alpha float64, beta, p, q []float64, k int)
// Requires: AVX512F
//
// Per row: 64 columns at a time in Z0-Z7, then 16 in Z0, Z1, then 8 in Z0,
// then the masked tail (K1, set once); Z30 = [α], Z31 = [c_t].
TEXT ·scaleAddRankKAVX512(SB), NOSPLIT, $136-136
	MOVQ         a_base+0(FP), DI
	MOVQ         n+24(FP), R8
	MOVQ         rows+32(FP), DX
	MOVQ         cols+40(FP), CX
	VBROADCASTSD alpha+48(FP), Z30
	MOVQ         p_base+80(FP), R12
	MOVQ         k+128(FP), R13
	LEAQ         coef-136(SP), R11
	LEAQ         (R11)(R13*8), R11 // R11 = &coef[k]
	SHLQ         $3, R8            // R8 = NBYTES
	MOVQ         CX, R10
	MOVQ         R8, AX
	LEAQ         (CX*8), BX
	SUBQ         BX, AX
	MOVQ         AX, gap-8(SP)     // gap = (n − cols)·8

	ANDQ $7, CX // CX = cols mod 8: the tail, masked by K1
	JZ   rk512_rows
	LOAD_TAIL_MASK_K

rk512_rows:
	MOVQ beta_base+56(FP), BX
	ROW_COEFS(rk512_coefs)
	MOVQ q_base+104(FP), SI // SI = &q[0][0]
	MOVQ R10, BX
	SHRQ $6, BX // BX = blocks of 64 columns
	JZ   rk512_sixteen

	// s = α·a[i*n+j : +64]; for t < k: s = fma(c_t, q_t[j : +64], s): eight
	// independent chains keep both FMA units busy.
rk512_cols64:
	// The same columns 4 rows down: the panel visits each row of A for
	// only cols elements, too short a run for the hardware prefetchers.
	PREFETCHT0 (DI)(R8*4)
	PREFETCHT0 64(DI)(R8*4)
	PREFETCHT0 128(DI)(R8*4)
	PREFETCHT0 192(DI)(R8*4)
	PREFETCHT0 256(DI)(R8*4)
	PREFETCHT0 320(DI)(R8*4)
	PREFETCHT0 384(DI)(R8*4)
	PREFETCHT0 448(DI)(R8*4)
	ROW4_SCALE((DI), 64(DI), 128(DI), 192(DI), Z0, Z1, Z2, Z3)
	ROW4_SCALE(256(DI), 320(DI), 384(DI), 448(DI), Z4, Z5, Z6, Z7)
	MOVQ   SI, R9
	MOVQ   R13, AX
	NEGQ   AX // AX = −k: t = 0

rk512_terms64:
	VBROADCASTSD (R11)(AX*8), Z31
	VFMADD231PD  (R9), Z31, Z0
	VFMADD231PD  64(R9), Z31, Z1
	VFMADD231PD  128(R9), Z31, Z2
	VFMADD231PD  192(R9), Z31, Z3
	VFMADD231PD  256(R9), Z31, Z4
	VFMADD231PD  320(R9), Z31, Z5
	VFMADD231PD  384(R9), Z31, Z6
	VFMADD231PD  448(R9), Z31, Z7
	ADDQ         R8, R9
	INCQ         AX
	JNZ          rk512_terms64
	ROW4_STORE((DI), 64(DI), 128(DI), 192(DI), Z0, Z1, Z2, Z3)
	ROW4_STORE(256(DI), 320(DI), 384(DI), 448(DI), Z4, Z5, Z6, Z7)
	ADDQ         $512, SI
	ADDQ         $512, DI
	DECQ         BX
	JNZ          rk512_cols64

rk512_sixteen:
	MOVQ R10, BX
	ANDQ $63, BX
	SHRQ $4, BX // BX = the remaining blocks of 16 columns
	JZ   rk512_eight

	// s = α·a[i*n+j : +16]; for t < k: s = fma(c_t, q_t[j : +16], s)
rk512_cols:
	VMULPD (DI), Z30, Z0
	VMULPD 64(DI), Z30, Z1
	MOVQ   SI, R9
	MOVQ   R13, AX
	NEGQ   AX // AX = −k: t = 0

rk512_terms16:
	VBROADCASTSD (R11)(AX*8), Z31
	VFMADD231PD  (R9), Z31, Z0
	VFMADD231PD  64(R9), Z31, Z1
	ADDQ         R8, R9
	INCQ         AX
	JNZ          rk512_terms16
	VMOVUPD      Z0, (DI)
	VMOVUPD      Z1, 64(DI)
	ADDQ         $128, SI
	ADDQ         $128, DI
	DECQ         BX
	JNZ          rk512_cols

	// 8 columns
rk512_eight:
	TESTQ  $8, R10
	JZ     rk512_tail
	VMULPD (DI), Z30, Z0
	MOVQ   SI, R9
	MOVQ   R13, AX
	NEGQ   AX

rk512_terms8:
	VBROADCASTSD (R11)(AX*8), Z31
	VFMADD231PD  (R9), Z31, Z0
	ADDQ         R8, R9
	INCQ         AX
	JNZ          rk512_terms8
	VMOVUPD      Z0, (DI)
	ADDQ         $64, SI
	ADDQ         $64, DI

	// the last n mod 8 columns, loads and store masked by K1
rk512_tail:
	TESTQ     CX, CX
	JZ        rk512_next
	VMOVUPD.Z (DI), K1, Z0
	VMULPD    Z30, Z0, Z0
	MOVQ      SI, R9
	MOVQ      R13, AX
	NEGQ      AX

rk512_terms_tail:
	VBROADCASTSD (R11)(AX*8), Z31
	VMOVUPD.Z    (R9), K1, Z1
	VFMADD231PD  Z1, Z31, Z0
	ADDQ         R8, R9
	INCQ         AX
	JNZ          rk512_terms_tail
	VMOVUPD      Z0, K1, (DI)
	LEAQ         (DI)(CX*8), DI

rk512_next:
	ADDQ gap-8(SP), DI // the next row
	DECQ DX
	JNZ  rk512_rows
	VZEROUPPER
	RET

// func scaleAddRankKAVX2(a []float64, n, rows, cols int, alpha float64, beta, p, q []float64, k int)
// Requires: AVX, AVX2, FMA
//
// Per row: 8 columns at a time in Y0, Y1, then 4 in Y0, then the tail
// masked by Y12 (set once); Y14 = [α], Y15 = [c_t].
TEXT ·scaleAddRankKAVX2(SB), NOSPLIT, $136-136
	MOVQ         a_base+0(FP), DI
	MOVQ         n+24(FP), R8
	MOVQ         rows+32(FP), DX
	MOVQ         cols+40(FP), CX
	VBROADCASTSD alpha+48(FP), Y14
	MOVQ         p_base+80(FP), R12
	MOVQ         k+128(FP), R13
	LEAQ         coef-136(SP), R11
	LEAQ         (R11)(R13*8), R11 // R11 = &coef[k]
	SHLQ         $3, R8            // R8 = NBYTES
	MOVQ         CX, R10
	MOVQ         R8, AX
	LEAQ         (CX*8), BX
	SUBQ         BX, AX
	MOVQ         AX, gap-8(SP)     // gap = (n − cols)·8

	ANDQ $3, CX // CX = cols mod 4: the tail, masked by Y12
	JZ   rk256_rows
	MOVQ CX, R9
	LOAD_TAIL_MASK_Y(R9, AX, Y12)

rk256_rows:
	MOVQ beta_base+56(FP), BX
	ROW_COEFS(rk256_coefs)
	MOVQ q_base+104(FP), SI // SI = &q[0][0]
	MOVQ R10, BX
	SHRQ $3, BX // BX = blocks of 8 columns
	JZ   rk256_four

	// s = α·a[i*n+j : +8]; for t < k: s = fma(c_t, q_t[j : +8], s)
rk256_cols:
	VMULPD (DI), Y14, Y0
	VMULPD 32(DI), Y14, Y1
	MOVQ   SI, R9
	MOVQ   R13, AX
	NEGQ   AX // AX = −k: t = 0

rk256_terms8:
	VBROADCASTSD (R11)(AX*8), Y15
	VFMADD231PD  (R9), Y15, Y0
	VFMADD231PD  32(R9), Y15, Y1
	ADDQ         R8, R9
	INCQ         AX
	JNZ          rk256_terms8
	VMOVUPD      Y0, (DI)
	VMOVUPD      Y1, 32(DI)
	ADDQ         $64, SI
	ADDQ         $64, DI
	DECQ         BX
	JNZ          rk256_cols

	// 4 columns
rk256_four:
	TESTQ  $4, R10
	JZ     rk256_tail
	VMULPD (DI), Y14, Y0
	MOVQ   SI, R9
	MOVQ   R13, AX
	NEGQ   AX

rk256_terms4:
	VBROADCASTSD (R11)(AX*8), Y15
	VFMADD231PD  (R9), Y15, Y0
	ADDQ         R8, R9
	INCQ         AX
	JNZ          rk256_terms4
	VMOVUPD      Y0, (DI)
	ADDQ         $32, SI
	ADDQ         $32, DI

	// the last n mod 4 columns, loads and store masked by Y12
rk256_tail:
	TESTQ      CX, CX
	JZ         rk256_next
	VMASKMOVPD (DI), Y12, Y0
	VMULPD     Y14, Y0, Y0
	MOVQ       SI, R9
	MOVQ       R13, AX
	NEGQ       AX

rk256_terms_tail:
	VBROADCASTSD (R11)(AX*8), Y15
	VMASKMOVPD   (R9), Y12, Y1
	VFMADD231PD  Y1, Y15, Y0
	ADDQ         R8, R9
	INCQ         AX
	JNZ          rk256_terms_tail
	VMASKMOVPD   Y0, Y12, (DI)
	LEAQ         (DI)(CX*8), DI

rk256_next:
	ADDQ gap-8(SP), DI // the next row
	DECQ DX
	JNZ  rk256_rows
	VZEROUPPER
	RET

// PREFETCH4 asks for the 32 columns at r of two rows, r and r + NBYTES: a
// block visits each row for only cols elements, too short a run for the
// hardware prefetchers.
#define PREFETCH4(r) \
	PREFETCHT0 (r)          \
	PREFETCHT0 64(r)        \
	PREFETCHT0 128(r)       \
	PREFETCHT0 192(r)       \
	PREFETCHT0 (r)(R8*1)    \
	PREFETCHT0 64(r)(R8*1)  \
	PREFETCHT0 128(r)(R8*1) \
	PREFETCHT0 192(r)(R8*1)

// TERM4 adds c·q_t to one row's 4 accumulators: c broadcast from the row's
// coefficient table at off(R11)(AX*8), q_t[j : +32] in Z16-Z19.
#define TERM4(off, zc, z0, z1, z2, z3) \
	VBROADCASTSD off(R11)(AX*8), zc \
	VFMADD231PD  Z16, zc, z0        \
	VFMADD231PD  Z17, zc, z1        \
	VFMADD231PD  Z18, zc, z2        \
	VFMADD231PD  Z19, zc, z3

// GROUP_COEFS sets the coefficient tables of a group of 4 rows,
// coef[r*16 + t] = β[t]·p[t*n + i+r] for r < 4, t < k (ROW_COEFS per row,
// β from bsave), and leaves R11 = &coef[k] of row 0; R12 moves on 4 rows.
// The frame of the 4-row kernels: coef[4][16] at coef-520(SP), gap-8(SP),
// psave-528(SP) and bsave-536(SP).
#define GROUP_COEFS(l0, l1, l2, l3) \
	LEAQ coef-520(SP), R11 \
	LEAQ (R11)(R13*8), R11 \
	MOVQ bsave-536(SP), BX \
	ROW_COEFS(l0)          \
	ADDQ $128, R11         \
	MOVQ bsave-536(SP), BX \
	ROW_COEFS(l1)          \
	ADDQ $128, R11         \
	MOVQ bsave-536(SP), BX \
	ROW_COEFS(l2)          \
	ADDQ $128, R11         \
	MOVQ bsave-536(SP), BX \
	ROW_COEFS(l3)          \
	SUBQ $384, R11

// TERM4_ROWS adds c_t·q_t to the 4 rows' accumulators Z0, Z4, Z8 and Z12
// (8 columns of q_t in Z16; each row's c_t broadcast from its table).
#define TERM4_ROWS \
	VBROADCASTSD 0(R11)(AX*8), Z20   \
	VFMADD231PD  Z16, Z20, Z0        \
	VBROADCASTSD 128(R11)(AX*8), Z21 \
	VFMADD231PD  Z16, Z21, Z4        \
	VBROADCASTSD 256(R11)(AX*8), Z22 \
	VFMADD231PD  Z16, Z22, Z8        \
	VBROADCASTSD 384(R11)(AX*8), Z23 \
	VFMADD231PD  Z16, Z23, Z12

// func scaleAddRankK4AVX512(a []float64, n, rows, cols int, alpha float64, beta, p, q []float64, k int)
// Requires: AVX512F
//
// scaleAddRankKAVX512 for rows a multiple of 4: register tiles of 4 rows ×
// 32 columns (16 accumulators), so that each term's 4 registers of q serve
// 4 rows (8 loads for 16 FMAs, against 9 for 8 row by row); the columns
// past the last block of 32 in tiles of 4 rows × 8 and a masked tail (K1).
// The same operations in the same order per element: the same bits.
//
// Registers: DI row 0 of the group at the current columns, R12 row 2 (p's
// row pointer waits in psave), R8 NBYTES, DX groups of 4 rows left, R10 the
// blocks of 32 columns, BX blocks left in the group, CX cols mod 8, SI
// &q[0][j], R9 &q[t][j], AX t−k, R11 &coef[0][k], R13 k; Z30 = [α], Z0-Z15
// the tile, Z16-Z19 q_t's 32 columns, Z20-Z23 the rows' c_t. The frame holds
// coef[4][16] (the rows' tables 128 bytes apart), gap = 4·NBYTES − (cols −
// cols mod 8)·8 (from the end of a group's columns to the next group),
// psave and bsave (β, for GROUP_COEFS).
TEXT ·scaleAddRankK4AVX512(SB), NOSPLIT, $536-136
	MOVQ         beta_base+56(FP), AX
	MOVQ         AX, bsave-536(SP)
	MOVQ         a_base+0(FP), DI
	MOVQ         n+24(FP), R8
	SHLQ         $3, R8            // R8 = NBYTES
	MOVQ         rows+32(FP), DX
	SHRQ         $2, DX            // DX = groups of 4 rows
	VBROADCASTSD alpha+48(FP), Z30
	MOVQ         p_base+80(FP), R12
	MOVQ         k+128(FP), R13
	MOVQ         cols+40(FP), R10
	MOVQ         R10, AX
	ANDQ         $-8, AX
	SHLQ         $3, AX
	MOVQ         R8, BX
	SHLQ         $2, BX
	SUBQ         AX, BX
	MOVQ         BX, gap-8(SP)     // gap = 4·NBYTES − (cols − cols mod 8)·8: the next group
	MOVQ         R10, CX
	ANDQ         $7, CX            // CX = cols mod 8: the tail, masked by K1
	JZ           rk4_nomask
	LOAD_TAIL_MASK_K

rk4_nomask:
	SHRQ $5, R10                   // R10 = blocks of 32 columns

rk4_group:
	GROUP_COEFS(rk4_coefs0, rk4_coefs1, rk4_coefs2, rk4_coefs3)
	MOVQ R12, psave-528(SP)
	LEAQ (DI)(R8*2), R12           // R12 = row 2
	MOVQ  q_base+104(FP), SI
	MOVQ  R10, BX
	TESTQ BX, BX
	JZ    rk4_eights

rk4_cols:
	ROW4_SCALE((DI), 64(DI), 128(DI), 192(DI), Z0, Z1, Z2, Z3)
	ROW4_SCALE((DI)(R8*1), 64(DI)(R8*1), 128(DI)(R8*1), 192(DI)(R8*1), Z4, Z5, Z6, Z7)
	ROW4_SCALE((R12), 64(R12), 128(R12), 192(R12), Z8, Z9, Z10, Z11)
	ROW4_SCALE((R12)(R8*1), 64(R12)(R8*1), 128(R12)(R8*1), 192(R12)(R8*1), Z12, Z13, Z14, Z15)
	LEAQ (DI)(R8*4), R9            // the same columns of the next 4 rows
	PREFETCH4(R9)
	LEAQ (R12)(R8*4), R9
	PREFETCH4(R9)
	MOVQ SI, R9
	MOVQ R13, AX
	NEGQ AX                        // AX = −k: t = 0

rk4_terms:
	VMOVUPD (R9), Z16
	VMOVUPD 64(R9), Z17
	VMOVUPD 128(R9), Z18
	VMOVUPD 192(R9), Z19
	TERM4(0, Z20, Z0, Z1, Z2, Z3)
	TERM4(128, Z21, Z4, Z5, Z6, Z7)
	TERM4(256, Z22, Z8, Z9, Z10, Z11)
	TERM4(384, Z23, Z12, Z13, Z14, Z15)
	ADDQ R8, R9
	INCQ AX
	JNZ  rk4_terms
	ROW4_STORE((DI), 64(DI), 128(DI), 192(DI), Z0, Z1, Z2, Z3)
	ROW4_STORE((DI)(R8*1), 64(DI)(R8*1), 128(DI)(R8*1), 192(DI)(R8*1), Z4, Z5, Z6, Z7)
	ROW4_STORE((R12), 64(R12), 128(R12), 192(R12), Z8, Z9, Z10, Z11)
	ROW4_STORE((R12)(R8*1), 64(R12)(R8*1), 128(R12)(R8*1), 192(R12)(R8*1), Z12, Z13, Z14, Z15)
	ADDQ $256, SI
	ADDQ $256, DI
	ADDQ $256, R12
	DECQ BX
	JNZ  rk4_cols

	// The columns left: blocks of 8 (one register a row), then the
	// masked tail.
rk4_eights:
	MOVQ cols+40(FP), BX
	ANDQ $31, BX
	SHRQ $3, BX
	JZ   rk4_tail

rk4_eight:
	VMULPD (DI), Z30, Z0
	VMULPD (DI)(R8*1), Z30, Z4
	VMULPD (R12), Z30, Z8
	VMULPD (R12)(R8*1), Z30, Z12
	MOVQ   SI, R9
	MOVQ   R13, AX
	NEGQ   AX

rk4_terms8:
	VMOVUPD (R9), Z16
	TERM4_ROWS
	ADDQ    R8, R9
	INCQ    AX
	JNZ     rk4_terms8
	VMOVUPD Z0, (DI)
	VMOVUPD Z4, (DI)(R8*1)
	VMOVUPD Z8, (R12)
	VMOVUPD Z12, (R12)(R8*1)
	ADDQ    $64, SI
	ADDQ    $64, DI
	ADDQ    $64, R12
	DECQ    BX
	JNZ     rk4_eight

rk4_tail:
	TESTQ     CX, CX
	JZ        rk4_next
	VMOVUPD.Z (DI), K1, Z0
	VMOVUPD.Z (DI)(R8*1), K1, Z4
	VMOVUPD.Z (R12), K1, Z8
	VMOVUPD.Z (R12)(R8*1), K1, Z12
	VMULPD    Z30, Z0, Z0
	VMULPD    Z30, Z4, Z4
	VMULPD    Z30, Z8, Z8
	VMULPD    Z30, Z12, Z12
	MOVQ      SI, R9
	MOVQ      R13, AX
	NEGQ      AX

rk4_terms_tail:
	VMOVUPD.Z (R9), K1, Z16
	TERM4_ROWS
	ADDQ      R8, R9
	INCQ      AX
	JNZ       rk4_terms_tail
	VMOVUPD   Z0, K1, (DI)
	VMOVUPD   Z4, K1, (DI)(R8*1)
	VMOVUPD   Z8, K1, (R12)
	VMOVUPD   Z12, K1, (R12)(R8*1)

rk4_next:
	MOVQ psave-528(SP), R12
	ADDQ gap-8(SP), DI
	DECQ DX
	JNZ  rk4_group
	VZEROUPPER
	RET

// TERM4Y adds c_t·q to the 4 rows' accumulators a0 … a3 (4 columns of q_t
// in q; each row's c_t broadcast from its table, 128 bytes apart).
#define TERM4Y(q, a0, a1, a2, a3) \
	VBROADCASTSD 0(R11)(AX*8), Y10   \
	VFMADD231PD  q, Y10, a0          \
	VBROADCASTSD 128(R11)(AX*8), Y11 \
	VFMADD231PD  q, Y11, a1          \
	VBROADCASTSD 256(R11)(AX*8), Y13 \
	VFMADD231PD  q, Y13, a2          \
	VBROADCASTSD 384(R11)(AX*8), Y15 \
	VFMADD231PD  q, Y15, a3

// func scaleAddRankK4AVX2(a []float64, n, rows, cols int, alpha float64, beta, p, q []float64, k int)
// Requires: AVX, AVX2, FMA
//
// scaleAddRankKAVX2 for rows a multiple of 4 (≥ 4): register tiles of 4
// rows × 8 columns (8 accumulators: eight independent chains of fused
// multiply-adds where a row alone has two), then 4 × 4 and the masked tail
// (Y12). The same operations in the same order per element: the same bits.
// The registers and the frame as in scaleAddRankK4AVX512, with R10 the
// blocks of 8 columns, Y14 = [α], Y0-Y7 the tile (row r in Y2r, Y2r+1),
// Y8-Y9 q_t's columns and Y10, Y11, Y13, Y15 the rows' c_t.
TEXT ·scaleAddRankK4AVX2(SB), NOSPLIT, $536-136
	MOVQ         beta_base+56(FP), AX
	MOVQ         AX, bsave-536(SP)
	MOVQ         a_base+0(FP), DI
	MOVQ         n+24(FP), R8
	SHLQ         $3, R8            // R8 = NBYTES
	MOVQ         rows+32(FP), DX
	SHRQ         $2, DX            // DX = groups of 4 rows
	VBROADCASTSD alpha+48(FP), Y14
	MOVQ         p_base+80(FP), R12
	MOVQ         k+128(FP), R13
	MOVQ         cols+40(FP), R10
	MOVQ         R10, AX
	ANDQ         $-4, AX
	SHLQ         $3, AX
	MOVQ         R8, BX
	SHLQ         $2, BX
	SUBQ         AX, BX
	MOVQ         BX, gap-8(SP)     // gap = 4·NBYTES − (cols − cols mod 4)·8: the next group
	MOVQ         R10, CX
	ANDQ         $3, CX            // CX = cols mod 4: the tail, masked by Y12
	JZ           rk4y_nomask
	MOVQ         CX, R9
	LOAD_TAIL_MASK_Y(R9, AX, Y12)

rk4y_nomask:
	SHRQ $3, R10                   // R10 = blocks of 8 columns

rk4y_group:
	GROUP_COEFS(rk4y_coefs0, rk4y_coefs1, rk4y_coefs2, rk4y_coefs3)
	MOVQ  R12, psave-528(SP)
	LEAQ  (DI)(R8*2), R12          // R12 = row 2
	MOVQ  q_base+104(FP), SI
	MOVQ  R10, BX
	TESTQ BX, BX
	JZ    rk4y_four

rk4y_cols:
	VMULPD (DI), Y14, Y0
	VMULPD 32(DI), Y14, Y1
	VMULPD (DI)(R8*1), Y14, Y2
	VMULPD 32(DI)(R8*1), Y14, Y3
	VMULPD (R12), Y14, Y4
	VMULPD 32(R12), Y14, Y5
	VMULPD (R12)(R8*1), Y14, Y6
	VMULPD 32(R12)(R8*1), Y14, Y7
	MOVQ   SI, R9
	MOVQ   R13, AX
	NEGQ   AX                      // AX = −k: t = 0

rk4y_terms8:
	VMOVUPD (R9), Y8
	VMOVUPD 32(R9), Y9
	TERM4Y(Y8, Y0, Y2, Y4, Y6)
	VFMADD231PD Y9, Y10, Y1
	VFMADD231PD Y9, Y11, Y3
	VFMADD231PD Y9, Y13, Y5
	VFMADD231PD Y9, Y15, Y7
	ADDQ    R8, R9
	INCQ    AX
	JNZ     rk4y_terms8
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, (DI)(R8*1)
	VMOVUPD Y3, 32(DI)(R8*1)
	VMOVUPD Y4, (R12)
	VMOVUPD Y5, 32(R12)
	VMOVUPD Y6, (R12)(R8*1)
	VMOVUPD Y7, 32(R12)(R8*1)
	ADDQ    $64, SI
	ADDQ    $64, DI
	ADDQ    $64, R12
	DECQ    BX
	JNZ     rk4y_cols

rk4y_four:
	MOVQ   cols+40(FP), BX
	TESTQ  $4, BX
	JZ     rk4y_tail
	VMULPD (DI), Y14, Y0
	VMULPD (DI)(R8*1), Y14, Y2
	VMULPD (R12), Y14, Y4
	VMULPD (R12)(R8*1), Y14, Y6
	MOVQ   SI, R9
	MOVQ   R13, AX
	NEGQ   AX

rk4y_terms4:
	VMOVUPD (R9), Y8
	TERM4Y(Y8, Y0, Y2, Y4, Y6)
	ADDQ    R8, R9
	INCQ    AX
	JNZ     rk4y_terms4
	VMOVUPD Y0, (DI)
	VMOVUPD Y2, (DI)(R8*1)
	VMOVUPD Y4, (R12)
	VMOVUPD Y6, (R12)(R8*1)
	ADDQ    $32, SI
	ADDQ    $32, DI
	ADDQ    $32, R12

rk4y_tail:
	TESTQ      CX, CX
	JZ         rk4y_next
	VMASKMOVPD (DI), Y12, Y0
	VMASKMOVPD (DI)(R8*1), Y12, Y2
	VMASKMOVPD (R12), Y12, Y4
	VMASKMOVPD (R12)(R8*1), Y12, Y6
	VMULPD     Y14, Y0, Y0
	VMULPD     Y14, Y2, Y2
	VMULPD     Y14, Y4, Y4
	VMULPD     Y14, Y6, Y6
	MOVQ       SI, R9
	MOVQ       R13, AX
	NEGQ       AX

rk4y_terms_tail:
	VMASKMOVPD (R9), Y12, Y8
	TERM4Y(Y8, Y0, Y2, Y4, Y6)
	ADDQ       R8, R9
	INCQ       AX
	JNZ        rk4y_terms_tail
	VMASKMOVPD Y0, Y12, (DI)
	VMASKMOVPD Y2, Y12, (DI)(R8*1)
	VMASKMOVPD Y4, Y12, (R12)
	VMASKMOVPD Y6, Y12, (R12)(R8*1)

rk4y_next:
	MOVQ psave-528(SP), R12
	ADDQ gap-8(SP), DI
	DECQ DX
	JNZ  rk4y_group
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// AVX-512 only: the fused forms of the vector kernels (vectors_amd64.s) that
// keep their bits: scale then axpby over rows, axpby then dot.

// func scaleAxpyRowsAVX512(x []float64, sigma float64, y []float64, s float64, m []float64) (finite bool)
// Requires: AVX512F
// For each of the len(x)/len(m) rows: y_i ← s·y_i, x_i ← fma(σ, y_i, m)
// (the rounding of scaleAVX512 and of axpbyAVX512 with β = 1); it reports
// whether no element of x has an exponent of all ones. len(m) ≥ 1 divides
// len(x) = len(y) ≥ 1.
TEXT ·scaleAxpyRowsAVX512(SB), NOSPLIT, $0-89
	MOVQ         x_base+0(FP), DI
	MOVQ         x_len+8(FP), R11
	VBROADCASTSD sigma+24(FP), Z30
	MOVQ         y_base+32(FP), SI
	VBROADCASTSD s+56(FP), Z31
	MOVQ         m_base+64(FP), DX
	MOVQ         m_len+72(FP), R8

	MOVQ         $0x7ff0000000000000, AX
	VPBROADCASTQ AX, Z29 // the exponent's bits
	VPXORQ       Z28, Z28, Z28 // the largest exponent field seen

	MOVQ R8, CX
	ANDQ $7, CX
	LOAD_TAIL_MASK_K // K1: the n mod 8 lanes of a row's tail (none for 0)
	MOVQ R8, R9
	SHRQ $3, R9      // whole blocks of 8 a row

sar512_row:
	MOVQ  DX, R10
	MOVQ  R9, BX
	TESTQ BX, BX
	JZ    sar512_tail

sar512_cols:
	VMULPD      (SI), Z31, Z0
	VMOVUPD     (R10), Z1
	VMOVUPD     Z0, (SI)
	VFMADD231PD Z0, Z30, Z1
	VMOVUPD     Z1, (DI)
	VPANDQ      Z29, Z1, Z2
	VPMAXUQ     Z2, Z28, Z28
	ADDQ        $64, SI
	ADDQ        $64, DI
	ADDQ        $64, R10
	DECQ        BX
	JNZ         sar512_cols

sar512_tail:
	LEAQ (SI)(CX*8), SI // the next rows; the tails wait for the second pass
	LEAQ (DI)(CX*8), DI
	SUBQ R8, R11
	JNZ  sar512_row

	// The rows' tails, in a second pass: a masked store spans the next
	// row's first elements (masked off), and a load of them right after it
	// waits for the store to complete.
	TESTQ     CX, CX
	JZ        sar512_done
	MOVQ      R8, AX
	SUBQ      CX, AX        // the tail's first column
	SHLQ      $3, AX
	MOVQ      x_base+0(FP), DI
	MOVQ      y_base+32(FP), SI
	ADDQ      AX, DI
	ADDQ      AX, SI
	VMOVUPD.Z (DX)(AX*1), K1, Z3 // m's tail, the same for every row
	MOVQ      x_len+8(FP), R11
	MOVQ      R8, R9
	SHLQ      $3, R8        // bytes a row

sar512_tails:
	VMOVUPD.Z   (SI), K1, Z0
	VMOVAPD     Z3, Z1
	VMULPD      Z31, Z0, Z0
	VMOVUPD     Z0, K1, (SI)
	VFMADD231PD Z0, Z30, Z1
	VMOVUPD     Z1, K1, (DI)
	VPANDQ      Z29, Z1, Z2
	VPMAXUQ     Z2, Z28, Z28
	ADDQ        R8, SI
	ADDQ        R8, DI
	SUBQ        R9, R11
	JNZ         sar512_tails

sar512_done:
	VPCMPEQQ Z29, Z28, K2
	KMOVW    K2, AX
	TESTQ    AX, AX
	SETEQ    finite+88(FP)
	VZEROUPPER
	RET

// func axpbyDotAVX512(dst []float64, alpha float64, x []float64, beta float64, y []float64) float64
//
// axpbyAVX512 and then dotAVX512(dst, dst), in one pass: each block of dst
// is computed as axpbyAVX512 does, stored, and squared from the register
// into dotAVX512's accumulator for that block (32 elements a step into
// Z0–Z3, then 8 into Z0, the masked tail into Z1), reduced as dotAVX512
// reduces. The tail's lanes past len(dst) leave Z1 as dotAVX512's zeros
// do (merge masking).
TEXT ·axpbyDotAVX512(SB), NOSPLIT, $0-96
	MOVQ         dst_base+0(FP), DI
	VBROADCASTSD alpha+24(FP), Z30
	MOVQ         x_base+32(FP), SI
	MOVQ         x_len+40(FP), CX
	VBROADCASTSD beta+56(FP), Z31
	MOVQ         y_base+64(FP), DX
	VPXORQ       Z0, Z0, Z0
	VPXORQ       Z1, Z1, Z1
	VPXORQ       Z2, Z2, Z2
	VPXORQ       Z3, Z3, Z3

	MOVQ CX, BX
	SHRQ $5, BX
	JZ   axd512_eight

axd512_loop:
	VMULPD      (DX), Z31, Z4
	VMULPD      64(DX), Z31, Z5
	VMULPD      128(DX), Z31, Z6
	VMULPD      192(DX), Z31, Z7
	VFMADD231PD (SI), Z30, Z4
	VFMADD231PD 64(SI), Z30, Z5
	VFMADD231PD 128(SI), Z30, Z6
	VFMADD231PD 192(SI), Z30, Z7
	VMOVUPD     Z4, (DI)
	VMOVUPD     Z5, 64(DI)
	VMOVUPD     Z6, 128(DI)
	VMOVUPD     Z7, 192(DI)
	VFMADD231PD Z4, Z4, Z0
	VFMADD231PD Z5, Z5, Z1
	VFMADD231PD Z6, Z6, Z2
	VFMADD231PD Z7, Z7, Z3
	ADDQ        $256, SI
	ADDQ        $256, DX
	ADDQ        $256, DI
	DECQ        BX
	JNZ         axd512_loop

axd512_eight:
	MOVQ CX, BX
	ANDQ $31, BX
	SHRQ $3, BX
	JZ   axd512_tail

axd512_eight_loop:
	VMULPD      (DX), Z31, Z4
	VFMADD231PD (SI), Z30, Z4
	VMOVUPD     Z4, (DI)
	VFMADD231PD Z4, Z4, Z0
	ADDQ        $64, SI
	ADDQ        $64, DX
	ADDQ        $64, DI
	DECQ        BX
	JNZ         axd512_eight_loop

axd512_tail:
	ANDQ $7, CX
	JZ   axd512_reduce
	LOAD_TAIL_MASK_K
	VMOVUPD.Z   (DX), K1, Z4
	VMOVUPD.Z   (SI), K1, Z5
	VMULPD      Z31, Z4, Z4
	VFMADD231PD Z5, Z30, Z4
	VMOVUPD     Z4, K1, (DI)
	VFMADD231PD Z4, Z4, K1, Z1

axd512_reduce:
	VADDPD        Z1, Z0, Z0
	VADDPD        Z3, Z2, Z2
	VADDPD        Z2, Z0, Z0
	VEXTRACTF64X4 $1, Z0, Y1
	VADDPD        Y1, Y0, Y0
	VEXTRACTF128  $1, Y0, X1
	VADDPD        X1, X0, X0
	VPERMILPD     $1, X0, X1
	VADDSD        X1, X0, X0
	VMOVSD        X0, ret+88(FP)
	VZEROUPPER
	RET
