//go:build gc && !purego

#include "textflag.h"

// AVX-512 kernels of the low-rank sampling (lowrank.go). The Go wrappers
// (lowrank_amd64.go) have checked every length; rows are stride float64
// apart.

// LD4 loads the 32 float64 at base into the zmm registers r0 … r3.
#define LD4(base, r0, r1, r2, r3) \
	VMOVUPD 0 base, r0   \
	VMOVUPD 64 base, r1  \
	VMOVUPD 128 base, r2 \
	VMOVUPD 192 base, r3

// ST4 stores r0 … r3 to the 32 float64 at base.
#define ST4(r0, r1, r2, r3, base) \
	VMOVUPD r0, 0 base   \
	VMOVUPD r1, 64 base  \
	VMOVUPD r2, 128 base \
	VMOVUPD r3, 192 base

// NT4 is ST4 with non-temporal stores (base 64-byte aligned): the lines
// go to memory without being read first.
#define NT4(r0, r1, r2, r3, base) \
	VMOVNTPD r0, 0 base   \
	VMOVNTPD r1, 64 base  \
	VMOVNTPD r2, 128 base \
	VMOVNTPD r3, 192 base

// MUL4 multiplies r0 … r3 by Z24 … Z27 (s).
#define MUL4(r0, r1, r2, r3) \
	VMULPD Z24, r0, r0 \
	VMULPD Z25, r1, r1 \
	VMULPD Z26, r2, r2 \
	VMULPD Z27, r3, r3

// FMA4 adds b·(Z24 … Z27), the term's p, to r0 … r3.
#define FMA4(b, r0, r1, r2, r3) \
	VFMADD231PD Z24, b, r0 \
	VFMADD231PD Z25, b, r1 \
	VFMADD231PD Z26, b, r2 \
	VFMADD231PD Z27, b, r3

// FIN4 sets r = fma(σ, r, m) with σ in Z28 and m in Z24 … Z27.
#define FIN4(r0, r1, r2, r3) \
	VFMADD213PD Z24, Z28, r0 \
	VFMADD213PD Z25, Z28, r1 \
	VFMADD213PD Z26, Z28, r2 \
	VFMADD213PD Z27, Z28, r3

// TERM_ROWS4 is the FMAs of one term for the first 4 rows of a tile, the
// term's p in Z24-Z27: each row's coefficient broadcast (from DI), 16
// FMAs.
#define TERM_ROWS4 \
	VBROADCASTSD 0(DI), Z28         \
	FMA4(Z28, Z0, Z1, Z2, Z3)       \
	VBROADCASTSD 8(DI), Z29         \
	FMA4(Z29, Z4, Z5, Z6, Z7)       \
	VBROADCASTSD 16(DI), Z28        \
	FMA4(Z28, Z8, Z9, Z10, Z11)     \
	VBROADCASTSD 24(DI), Z29        \
	FMA4(Z29, Z12, Z13, Z14, Z15)

// TERM6 is one term step of combineRows6AVX512: the term's 32 columns of
// p into Z24-Z27, each row's coefficient broadcast, 24 FMAs; it leaves the
// flags of the count of terms left. TERM4 is the step of
// combineRows4AVX512, 16 FMAs.
#define TERM6 \
	LD4((CX), Z24, Z25, Z26, Z27)   \
	TERM_ROWS4                      \
	VBROADCASTSD 32(DI), Z28        \
	FMA4(Z28, Z16, Z17, Z18, Z19)   \
	VBROADCASTSD 40(DI), Z29        \
	FMA4(Z29, Z20, Z21, Z22, Z23)   \
	ADDQ R8, CX                     \
	ADDQ $48, DI                    \
	DECQ R10

#define TERM4 \
	LD4((CX), Z24, Z25, Z26, Z27)   \
	TERM_ROWS4                      \
	ADDQ R8, CX                     \
	ADDQ $32, DI                    \
	DECQ R10

// PF4 asks L1 for the 4 cache lines from addr.
#define PF4(addr) PREFETCHT0 addr; PREFETCHT0 64+addr; PREFETCHT0 128+addr; PREFETCHT0 192+addr

// The row macros of combineRows4AVX512 and combineRows6AVX512 (for
// COMB_ROWS_BODY): each applies its operation to the rows of the tile, at
// BX, BX + stride, SI, SI + stride (and DX, DX + stride for 6), with the
// accumulators Z0 … Z15 (… Z23).
#define LOAD_ROWS4 \
	LD4((BX), Z0, Z1, Z2, Z3)           \
	LD4((BX)(R8*1), Z4, Z5, Z6, Z7)     \
	LD4((SI), Z8, Z9, Z10, Z11)         \
	LD4((SI)(R8*1), Z12, Z13, Z14, Z15)
#define LOAD_ROWS6 LOAD_ROWS4; LD4((DX), Z16, Z17, Z18, Z19); LD4((DX)(R8*1), Z20, Z21, Z22, Z23)

#define PF_ROWS4 PF4(1024(BX)); PF4(1024(BX)(R8*1)); PF4(1024(SI)); PF4(1024(SI)(R8*1))
#define PF_ROWS6 PF_ROWS4; PF4(1024(DX)); PF4(1024(DX)(R8*1))

#define MUL_ROWS4 MUL4(Z0, Z1, Z2, Z3); MUL4(Z4, Z5, Z6, Z7); MUL4(Z8, Z9, Z10, Z11); MUL4(Z12, Z13, Z14, Z15)
#define MUL_ROWS6 MUL_ROWS4; MUL4(Z16, Z17, Z18, Z19); MUL4(Z20, Z21, Z22, Z23)

#define FIN_ROWS4 FIN4(Z0, Z1, Z2, Z3); FIN4(Z4, Z5, Z6, Z7); FIN4(Z8, Z9, Z10, Z11); FIN4(Z12, Z13, Z14, Z15)
#define FIN_ROWS6 FIN_ROWS4; FIN4(Z16, Z17, Z18, Z19); FIN4(Z20, Z21, Z22, Z23)

#define NT_ROWS4 \
	NT4(Z0, Z1, Z2, Z3, (BX))           \
	NT4(Z4, Z5, Z6, Z7, (BX)(R8*1))     \
	NT4(Z8, Z9, Z10, Z11, (SI))         \
	NT4(Z12, Z13, Z14, Z15, (SI)(R8*1))
#define NT_ROWS6 NT_ROWS4; NT4(Z16, Z17, Z18, Z19, (DX)); NT4(Z20, Z21, Z22, Z23, (DX)(R8*1))

#define ST_ROWS4 \
	ST4(Z0, Z1, Z2, Z3, (BX))           \
	ST4(Z4, Z5, Z6, Z7, (BX)(R8*1))     \
	ST4(Z8, Z9, Z10, Z11, (SI))         \
	ST4(Z12, Z13, Z14, Z15, (SI)(R8*1))
#define ST_ROWS6 ST_ROWS4; ST4(Z16, Z17, Z18, Z19, (DX)); ST4(Z20, Z21, Z22, Z23, (DX)(R8*1))

// COMB_ROWS_BODY is the body of combineRows6AVX512 and combineRows4AVX512
// (the arguments: the term step and the row macros above): for each step
// of 32 columns, the rows' accumulators from s·z (first) or from x, the
// terms, fma(σ, u, m) (last), and the stores; an SFENCE after streaming
// stores orders them before what follows (another goroutine may read x
// next).
#define COMB_ROWS_BODY(term, pfRows, loadRows, mulRows, finRows, ntRows, stRows) \
	MOVQ  cols+56(FP), R9         \
	MOVQ  stride+64(FP), R8       \
	MOVQ  kp+72(FP), R11          \
	SHLQ  $3, R8                  \
	SHLQ  $3, R9                  \
	MOVQ  pfp+80(FP), R12         \
	MOVQ  pfleft+88(FP), R13      \
	XORQ  AX, AX                  \
	TESTQ R9, R9                  \
	JZ    crz_done                \
crz_loop:                         \
	MOVQ z+24(FP), BX             \
	CMPB first+105(FP), $0        \
	JNE  crz_init                 \
	MOVQ x+0(FP), BX              \
crz_init:                         \
	ADDQ AX, BX                   \
	LEAQ (BX)(R8*2), SI           \
	LEAQ (SI)(R8*2), DX           \
	CMPQ pfp+80(FP), $0           \
	JE   crz_load                 \
	pfRows                        \
crz_load:                         \
	loadRows                      \
	CMPB first+105(FP), $0        \
	JE   crz_terms_start          \
	MOVQ s+16(FP), BX             \
	ADDQ AX, BX                   \
	LD4((BX), Z24, Z25, Z26, Z27) \
	mulRows                       \
crz_terms_start:                  \
	MOVQ  p+32(FP), CX            \
	ADDQ  AX, CX                  \
	MOVQ  c+40(FP), DI            \
	MOVQ  R11, R10                \
	TESTQ R10, R10                \
	JZ    crz_fin                 \
	TESTQ R12, R12                \
	JZ    crz_terms               \
crz_terms_pf:                     \
	PREFETCHT1 (R12)              \
	ADDQ       $64, R12           \
	SUBQ       $64, R13           \
	JNZ        crz_pf_term        \
	ADDQ       R8, R12            \
	MOVQ       pfw+96(FP), R13    \
	SUBQ       R13, R12           \
crz_pf_term:                      \
	term                          \
	JNZ crz_terms_pf              \
	JMP crz_fin                   \
crz_terms:                        \
	term                          \
	JNZ crz_terms                 \
crz_fin:                          \
	CMPB         last+106(FP), $0 \
	JE           crz_store        \
	MOVQ         m+8(FP), BX      \
	ADDQ         AX, BX           \
	LD4((BX), Z24, Z25, Z26, Z27) \
	VBROADCASTSD sigma+48(FP), Z28 \
	finRows                       \
crz_store:                        \
	MOVQ x+0(FP), BX              \
	ADDQ AX, BX                   \
	LEAQ (BX)(R8*2), SI           \
	LEAQ (SI)(R8*2), DX           \
	CMPB nt+104(FP), $0           \
	JE   crz_st                   \
	ntRows                        \
	JMP  crz_next                 \
crz_st:                           \
	stRows                        \
crz_next:                         \
	ADDQ $256, AX                 \
	CMPQ AX, R9                   \
	JLT  crz_loop                 \
crz_done:                         \
	CMPB nt+104(FP), $0           \
	JE   crz_ret                  \
	SFENCE                        \
crz_ret:                          \
	VZEROUPPER                    \
	RET

// func combineRows6AVX512(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, pfp *float64, pfleft, pfw int, nt, first, last bool)
// Requires: AVX512F
//
// combineRows6AVX2 (the same chain for each element) on 6 rows × 32
// columns at a time, cols a multiple of 32: 24 zmm accumulators, a term's
// 32 columns of p loaded once for the 6 rows, each row's coefficient
// broadcast from c[t*6+r]. With pfp non-nil each term step also asks L2
// for a cache line of a walk in row order (the next block's panel, which
// would otherwise come from memory in the next block's first tile): the
// line at pfp, then the next ones to the end of its row's segment (pfleft
// bytes from pfp), then pfw bytes from the start of each next row's
// segment (stride on from the one before); and each 32-column step asks
// L1 for the 6 rows of z 1 KiB on (prefetches do not fault, so past the
// end is harmless). With nt set (x and its row stride 64-byte aligned)
// the rows of x are written with non-temporal stores, which do not read
// the lines first, and an SFENCE ends the call.
TEXT ·combineRows6AVX512(SB), NOSPLIT, $0-107
	COMB_ROWS_BODY(TERM6, PF_ROWS6, LOAD_ROWS6, MUL_ROWS6, FIN_ROWS6, NT_ROWS6, ST_ROWS6)

// func combineRows4AVX512(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, pfp *float64, pfleft, pfw int, nt, first, last bool)
// Requires: AVX512F
//
// combineRows6AVX512 for 4 rows × 32 columns at a time (16 zmm
// accumulators), cols a multiple of 32, the coefficients c[t*4+r]: the
// same chain for each element, with the same walk and nt.
TEXT ·combineRows4AVX512(SB), NOSPLIT, $0-107
	COMB_ROWS_BODY(TERM4, PF_ROWS4, LOAD_ROWS4, MUL_ROWS4, FIN_ROWS4, NT_ROWS4, ST_ROWS4)

// HSUM4_ADD reduces the ymm accumulators a, b, c, d to their horizontal
// sums [Σa, Σb, Σc, Σd] and adds them to the 4 float64 at mem (as the AVX2
// kernels do). All four registers are destroyed.
#define HSUM4_ADD(a, b, c, d, mem) \
	VHADDPD    b, a, a        \
	VHADDPD    d, c, c        \
	VPERM2F128 $0x20, c, a, b \
	VPERM2F128 $0x31, c, a, d \
	VADDPD     d, b, b        \
	VADDPD     mem, b, b      \
	VMOVUPD    b, mem

// func combineRows1AVX512(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, first, last bool)
// Requires: AVX512F
//
// combineRows6AVX512 for one row, with its coefficients c[t] contiguous:
// 32 columns a step (four zmm), cols a multiple of 32.
TEXT ·combineRows1AVX512(SB), NOSPLIT, $0-82
	MOVQ  cols+56(FP), R9
	MOVQ  stride+64(FP), R8
	MOVQ  kp+72(FP), R11
	SHLQ  $3, R8
	SHLQ  $3, R9
	XORQ  AX, AX
	TESTQ R9, R9
	JZ    cr1z_done

cr1z_loop:
	MOVQ z+24(FP), BX
	CMPB first+80(FP), $0
	JNE  cr1z_init
	MOVQ x+0(FP), BX

cr1z_init:
	ADDQ AX, BX
	LD4((BX), Z0, Z1, Z2, Z3)
	CMPB first+80(FP), $0
	JE   cr1z_terms_start
	MOVQ s+16(FP), BX
	ADDQ AX, BX
	LD4((BX), Z24, Z25, Z26, Z27)
	MUL4(Z0, Z1, Z2, Z3)

cr1z_terms_start:
	MOVQ  p+32(FP), CX
	ADDQ  AX, CX
	MOVQ  c+40(FP), DI
	MOVQ  R11, R10
	TESTQ R10, R10
	JZ    cr1z_fin

cr1z_terms:
	VBROADCASTSD (DI), Z28
	VFMADD231PD  0(CX), Z28, Z0
	VFMADD231PD  64(CX), Z28, Z1
	VFMADD231PD  128(CX), Z28, Z2
	VFMADD231PD  192(CX), Z28, Z3
	ADDQ         R8, CX
	ADDQ         $8, DI
	DECQ         R10
	JNZ          cr1z_terms

cr1z_fin:
	CMPB         last+81(FP), $0
	JE           cr1z_store
	MOVQ         m+8(FP), BX
	ADDQ         AX, BX
	LD4((BX), Z24, Z25, Z26, Z27)
	VBROADCASTSD sigma+48(FP), Z28
	FIN4(Z0, Z1, Z2, Z3)

cr1z_store:
	MOVQ x+0(FP), BX
	ADDQ AX, BX
	ST4(Z0, Z1, Z2, Z3, (BX))
	ADDQ $256, AX
	CMPQ AX, R9
	JLT  cr1z_loop

cr1z_done:
	VZEROUPPER
	RET

// DOT83_ROW is one row of a in a column step of dotRows8x3AVX512: the
// row's 8 columns at (base)(AX*1) into za, then its three FMAs with the
// rows of b (Z24-Z26) into the accumulators c0, c1, c2.
#define DOT83_ROW(base, za, c0, c1, c2) \
	VMOVUPD     base(AX*1), za \
	VFMADD231PD Z24, za, c0    \
	VFMADD231PD Z25, za, c1    \
	VFMADD231PD Z26, za, c2

// DOT83_STEP is one column step of dotRows8x3AVX512: 8 columns of the 3
// rows of b and of the 8 of a, 24 FMAs.
#define DOT83_STEP \
	VMOVUPD (BX)(AX*1), Z24             \
	VMOVUPD (R12)(AX*1), Z25            \
	VMOVUPD (R13)(AX*1), Z26            \
	DOT83_ROW((SI), Z27, Z0, Z1, Z2)    \
	DOT83_ROW((R9), Z28, Z3, Z4, Z5)    \
	DOT83_ROW((R10), Z29, Z6, Z7, Z8)   \
	DOT83_ROW((R11), Z30, Z9, Z10, Z11) \
	DOT83_ROW((DX), Z31, Z12, Z13, Z14) \
	DOT83_ROW((DI), Z27, Z15, Z16, Z17) \
	DOT83_ROW((R14), Z28, Z18, Z19, Z20) \
	DOT83_ROW((R8), Z29, Z21, Z22, Z23) \
	ADDQ $64, AX

// DOT83_PFA (DOT83_PFB) asks L2 for the cache line of the next block
// (dotRowsBlock columns on, 2048 bytes) in each row of a (of b).
#define DOT83_PFA \
	PREFETCHT1 2048(SI)(AX*1)  \
	PREFETCHT1 2048(R9)(AX*1)  \
	PREFETCHT1 2048(R10)(AX*1) \
	PREFETCHT1 2048(R11)(AX*1) \
	PREFETCHT1 2048(DX)(AX*1)  \
	PREFETCHT1 2048(DI)(AX*1)  \
	PREFETCHT1 2048(R14)(AX*1) \
	PREFETCHT1 2048(R8)(AX*1)

#define DOT83_PFB \
	PREFETCHT1 2048(BX)(AX*1)  \
	PREFETCHT1 2048(R12)(AX*1) \
	PREFETCHT1 2048(R13)(AX*1)

// FOLDZ adds the high 256 bits of the zmm accumulator z to its low half
// (lane l gets lanes l and l+4), through Z31, with 512-bit operations only
// (the accumulators past Z15 have no VEX form).
#define FOLDZ(z) \
	VEXTRACTF64X4 $1, z, Y31 \
	VADDPD        Z31, z, z

// DOT8_ROWS takes a in SI, cols in CX and the stride in R8 (float64s),
// and sets SI, R9, R10, R11, DX, DI, R14 and R8 to the 8 rows of a and CX
// to the bytes of cols, and clears AX.
#define DOT8_ROWS \
	SHLQ $3, R8              \
	SHLQ $3, CX              \
	LEAQ (SI)(R8*1), R9      \
	LEAQ (SI)(R8*2), R10     \
	LEAQ (R10)(R8*1), R11    \
	LEAQ (SI)(R8*4), DX      \
	LEAQ (DX)(R8*1), DI      \
	LEAQ (DX)(R8*2), R14     \
	LEAQ (R14)(R8*1), R8     \
	XORQ AX, AX

// ZERO8 clears the 8 zmm registers.
#define ZERO8(r0, r1, r2, r3, r4, r5, r6, r7) \
	VPXORQ r0, r0, r0 \
	VPXORQ r1, r1, r1 \
	VPXORQ r2, r2, r2 \
	VPXORQ r3, r3, r3 \
	VPXORQ r4, r4, r4 \
	VPXORQ r5, r5, r5 \
	VPXORQ r6, r6, r6 \
	VPXORQ r7, r7, r7

// FOLDZ8 is FOLDZ on the 8 accumulators.
#define FOLDZ8(r0, r1, r2, r3, r4, r5, r6, r7) \
	FOLDZ(r0); FOLDZ(r1); FOLDZ(r2); FOLDZ(r3) \
	FOLDZ(r4); FOLDZ(r5); FOLDZ(r6); FOLDZ(r7)

// func dotRows8x3AVX512(dst, a, b *float64, cols, stride, ldd, pfa, pfb int)
// Requires: AVX512F
//
// dotRows4x3AVX512 for 8 rows of a: dst[j*ldd+i] += a_i·b_j for i < 8,
// j < 3, each pair's sum the bits dotRows4x3AVX512 gives it.
TEXT ·dotRows8x3AVX512(SB), NOSPLIT, $0-64
	MOVQ   a+8(FP), SI
	MOVQ   b+16(FP), BX
	MOVQ   cols+24(FP), CX
	MOVQ   stride+32(FP), R8
	DOT8_ROWS
	MOVQ   stride+32(FP), R12
	SHLQ   $3, R12
	LEAQ   (BX)(R12*2), R13
	ADDQ   BX, R12
	ZERO8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)
	ZERO8(Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15)
	ZERO8(Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23)
	TESTQ  CX, CX
	JZ     dr83z_reduce

	CMPQ pfa+48(FP), $0
	JNE  dr83z_pfa
	CMPQ pfb+56(FP), $0
	JNE  dr83z_pfb

dr83z_loop:
	DOT83_STEP
	CMPQ AX, CX
	JLT  dr83z_loop
	JMP  dr83z_reduce

dr83z_pfa:
	CMPQ pfb+56(FP), $0
	JNE  dr83z_pfab

dr83z_pfaloop:
	DOT83_PFA
	DOT83_STEP
	CMPQ AX, CX
	JLT  dr83z_pfaloop
	JMP  dr83z_reduce

dr83z_pfb:
	DOT83_PFB
	DOT83_STEP
	CMPQ AX, CX
	JLT  dr83z_pfb
	JMP  dr83z_reduce

dr83z_pfab:
	DOT83_PFA
	DOT83_PFB
	DOT83_STEP
	CMPQ AX, CX
	JLT  dr83z_pfab

dr83z_reduce:
	FOLDZ8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)
	FOLDZ8(Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15)
	FOLDZ8(Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23)
	MOVQ dst+0(FP), DI
	MOVQ ldd+40(FP), DX
	SHLQ $3, DX
	HSUM4_ADD(Y0, Y3, Y6, Y9, (DI))
	HSUM4_ADD(Y1, Y4, Y7, Y10, (DI)(DX*1))
	HSUM4_ADD(Y2, Y5, Y8, Y11, (DI)(DX*2))
	VMOVAPD Z15, Z0
	VMOVAPD Z16, Z1
	VMOVAPD Z17, Z2
	VMOVAPD Z18, Z3
	VMOVAPD Z19, Z4
	VMOVAPD Z20, Z5
	VMOVAPD Z21, Z6
	VMOVAPD Z22, Z7
	VMOVAPD Z23, Z8
	HSUM4_ADD(Y12, Y0, Y3, Y6, 32(DI))
	HSUM4_ADD(Y13, Y1, Y4, Y7, 32(DI)(DX*1))
	HSUM4_ADD(Y14, Y2, Y5, Y8, 32(DI)(DX*2))
	VZEROUPPER
	RET

// DOT82_ROW is one row of a in a column step of dotRows8x2AVX512, its
// FMAs with the rows of b in Z24 and Z25.
#define DOT82_ROW(base, za, c0, c1) \
	VMOVUPD     base(AX*1), za \
	VFMADD231PD Z24, za, c0    \
	VFMADD231PD Z25, za, c1

// func dotRows8x2AVX512(dst, a, b *float64, cols, stride, ldd int)
// Requires: AVX512F
//
// dotRows8x3AVX512 for 2 rows of b: dst[j*ldd+i] += a_i·b_j for i < 8,
// j < 2, each pair's sum the bits dotRows4x1AVX512 gives it.
TEXT ·dotRows8x2AVX512(SB), NOSPLIT, $0-48
	MOVQ   a+8(FP), SI
	MOVQ   b+16(FP), BX
	MOVQ   cols+24(FP), CX
	MOVQ   stride+32(FP), R8
	DOT8_ROWS
	MOVQ   stride+32(FP), R12
	SHLQ   $3, R12
	ADDQ   BX, R12
	ZERO8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)
	ZERO8(Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15)
	TESTQ  CX, CX
	JZ     dr82z_reduce

dr82z_loop:
	VMOVUPD (BX)(AX*1), Z24
	VMOVUPD (R12)(AX*1), Z25
	DOT82_ROW((SI), Z26, Z0, Z1)
	DOT82_ROW((R9), Z27, Z2, Z3)
	DOT82_ROW((R10), Z28, Z4, Z5)
	DOT82_ROW((R11), Z29, Z6, Z7)
	DOT82_ROW((DX), Z26, Z8, Z9)
	DOT82_ROW((DI), Z27, Z10, Z11)
	DOT82_ROW((R14), Z28, Z12, Z13)
	DOT82_ROW((R8), Z29, Z14, Z15)
	ADDQ $64, AX
	CMPQ AX, CX
	JLT  dr82z_loop

dr82z_reduce:
	FOLDZ8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)
	FOLDZ8(Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15)
	MOVQ dst+0(FP), DI
	MOVQ ldd+40(FP), DX
	SHLQ $3, DX
	HSUM4_ADD(Y0, Y2, Y4, Y6, (DI))
	HSUM4_ADD(Y1, Y3, Y5, Y7, (DI)(DX*1))
	HSUM4_ADD(Y8, Y10, Y12, Y14, 32(DI))
	HSUM4_ADD(Y9, Y11, Y13, Y15, 32(DI)(DX*1))
	VZEROUPPER
	RET

// func dotRows8x1AVX512(dst, a, b *float64, cols, stride int)
// Requires: AVX512F
//
// dotRows4x1AVX512 for 8 rows of a: dst[i] += a_i·b for i < 8, with its
// bits.
TEXT ·dotRows8x1AVX512(SB), NOSPLIT, $0-40
	MOVQ   a+8(FP), SI
	MOVQ   b+16(FP), BX
	MOVQ   cols+24(FP), CX
	MOVQ   stride+32(FP), R8
	DOT8_ROWS
	ZERO8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)
	TESTQ  CX, CX
	JZ     dr81z_reduce

dr81z_loop:
	VMOVUPD     (BX)(AX*1), Z24
	VFMADD231PD (SI)(AX*1), Z24, Z0
	VFMADD231PD (R9)(AX*1), Z24, Z1
	VFMADD231PD (R10)(AX*1), Z24, Z2
	VFMADD231PD (R11)(AX*1), Z24, Z3
	VFMADD231PD (DX)(AX*1), Z24, Z4
	VFMADD231PD (DI)(AX*1), Z24, Z5
	VFMADD231PD (R14)(AX*1), Z24, Z6
	VFMADD231PD (R8)(AX*1), Z24, Z7
	ADDQ        $64, AX
	CMPQ        AX, CX
	JLT         dr81z_loop

dr81z_reduce:
	FOLDZ8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)
	MOVQ dst+0(FP), DI
	HSUM4_ADD(Y0, Y1, Y2, Y3, (DI))
	HSUM4_ADD(Y4, Y5, Y6, Y7, 32(DI))
	VZEROUPPER
	RET
