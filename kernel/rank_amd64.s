//go:build gc && !purego

#include "textflag.h"

// CountLess: for each key p, the keys below it are counted 8 (4) at a time:
// a signed comparison against p broadcast gives a mask, and its population
// count is added up. On AVX-512 the last len mod 8 keys are loaded once,
// masked, and compared under the mask; on AVX2 the last len mod 4 are
// compared one by one.

// func countLessAVX512(dst []int, keys []int64)
// Requires: AVX512F, POPCNT
TEXT ·countLessAVX512(SB), NOSPLIT, $0-48
	MOVQ dst_base+0(FP), DI
	MOVQ keys_base+24(FP), SI
	MOVQ keys_len+32(FP), BX
	MOVQ BX, R10
	SHRQ $3, R10              // whole groups of 8
	MOVQ BX, CX
	ANDQ $7, CX               // keys in the last, partial group
	MOVQ $1, AX               // K2 = its lanes
	SHLQ CX, AX
	DECQ AX
	KMOVW AX, K2
	MOVQ R10, AX
	SHLQ $6, AX
	VMOVDQU64.Z (SI)(AX*1), K2, Z2
	XORQ DX, DX               // i

cl512_key:
	VPBROADCASTQ (SI)(DX*8), Z1
	XORQ R9, R9               // the count
	MOVQ SI, R8
	MOVQ R10, CX
	TESTQ CX, CX
	JZ   cl512_part

cl512_group:
	VPCMPQ  $6, (R8), Z1, K1  // K1 = p > keys[j] (predicate 6: not ≤)
	KMOVW   K1, AX
	POPCNTL AX, AX
	ADDQ    AX, R9
	ADDQ    $64, R8
	DECQ    CX
	JNZ     cl512_group

cl512_part:
	VPCMPQ  $6, Z2, Z1, K2, K1
	KMOVW   K1, AX
	POPCNTL AX, AX
	ADDQ    AX, R9
	MOVQ    R9, (DI)(DX*8)
	INCQ    DX
	CMPQ    DX, BX
	JNE     cl512_key
	VZEROUPPER
	RET

// func countLessAVX2(dst []int, keys []int64)
// Requires: AVX2, POPCNT
TEXT ·countLessAVX2(SB), NOSPLIT, $0-48
	MOVQ dst_base+0(FP), DI
	MOVQ keys_base+24(FP), SI
	MOVQ keys_len+32(FP), BX
	MOVQ BX, R10
	SHRQ $2, R10              // whole groups of 4
	MOVQ BX, R11
	ANDQ $3, R11              // keys in the last, partial group
	MOVQ R10, AX
	SHLQ $5, AX
	LEAQ (SI)(AX*1), R12      // the partial group
	XORQ DX, DX               // i

cl256_key:
	VPBROADCASTQ (SI)(DX*8), Y1
	MOVQ (SI)(DX*8), R13      // p
	XORQ R9, R9
	MOVQ SI, R8
	MOVQ R10, CX
	TESTQ CX, CX
	JZ   cl256_part

cl256_group:
	VPCMPGTQ  (R8), Y1, Y0    // Y0 = p > keys[j]
	VMOVMSKPD Y0, AX
	POPCNTL   AX, AX
	ADDQ      AX, R9
	ADDQ      $32, R8
	DECQ      CX
	JNZ       cl256_group

cl256_part:
	MOVQ  R11, CX
	MOVQ  R12, R8
	TESTQ CX, CX
	JZ    cl256_store

cl256_one:
	CMPQ    (R8), R13         // keys[j] < p
	SETLT   AL
	MOVBQZX AL, AX
	ADDQ    AX, R9
	ADDQ    $8, R8
	DECQ    CX
	JNZ     cl256_one

cl256_store:
	MOVQ R9, (DI)(DX*8)
	INCQ DX
	CMPQ DX, BX
	JNE  cl256_key
	VZEROUPPER
	RET

// RankFloats in one call. First the keys, 8 values at a time (the last
// group masked): k = b ^ (b>>63 & MaxInt64) for the bits b of x + 0, and
// MaxInt64 for NaN; the values that are not NaN are counted from the
// ordered-compare mask. Then, for each group of 8 keys k_i, every key k_j
// is broadcast and lane i counts it when k_i > k_j, or k_i ≥ k_j and
// i > j (K5: the lanes above j), so ties go by index. The counts, stored
// after the keys, are the ranks: idx[count_i] = i.

// The lane numbers 0–15.
DATA rfLanes<>+0(SB)/8, $0
DATA rfLanes<>+8(SB)/8, $1
DATA rfLanes<>+16(SB)/8, $2
DATA rfLanes<>+24(SB)/8, $3
DATA rfLanes<>+32(SB)/8, $4
DATA rfLanes<>+40(SB)/8, $5
DATA rfLanes<>+48(SB)/8, $6
DATA rfLanes<>+56(SB)/8, $7
DATA rfLanes<>+64(SB)/8, $8
DATA rfLanes<>+72(SB)/8, $9
DATA rfLanes<>+80(SB)/8, $10
DATA rfLanes<>+88(SB)/8, $11
DATA rfLanes<>+96(SB)/8, $12
DATA rfLanes<>+104(SB)/8, $13
DATA rfLanes<>+112(SB)/8, $14
DATA rfLanes<>+120(SB)/8, $15
GLOBL rfLanes<>(SB), RODATA|NOPTR, $128

// func rankFloatsAVX512(idx []int, x []float64, keys []int64) (valid int)
// Requires: AVX512F, POPCNT
TEXT ·rankFloatsAVX512(SB), NOSPLIT, $128-80
	MOVQ idx_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ x_len+32(FP), BX
	MOVQ keys_base+48(FP), R8
	LEAQ (R8)(BX*8), R12      // the counts
	VPXORQ Z31, Z31, Z31
	MOVQ $0x7fffffffffffffff, AX
	VPBROADCASTQ AX, Z30
	MOVQ $1, AX
	VPBROADCASTQ AX, Z29
	XORQ R9, R9               // valid
	CMPQ BX, $16
	JLE  rf_small
	XORQ AX, AX               // the group's first index

rf_keys:
	MOVQ BX, CX
	SUBQ AX, CX
	CMPQ CX, $8
	JLE  rf_keys_mask
	MOVQ $8, CX

rf_keys_mask:
	MOVL $1, DX
	SHLQ CX, DX
	DECQ DX
	KMOVW DX, K7
	VMOVUPD.Z (SI)(AX*8), K7, Z0
	VADDPD    Z31, Z0, Z0           // −0 + 0 = +0
	VCMPPD    $3, Z0, Z0, K3        // NaN
	VCMPPD    $7, Z0, Z0, K7, K4    // not NaN, in the group
	KMOVW     K4, DX
	POPCNTL   DX, DX
	ADDQ      DX, R9
	VPSRAQ    $63, Z0, Z1
	VPANDQ    Z30, Z1, Z1
	VPXORQ    Z0, Z1, Z1
	VMOVDQA64 Z30, K3, Z1
	VMOVDQU64 Z1, K7, (R8)(AX*8)
	ADDQ      $8, AX
	CMPQ      AX, BX
	JLT       rf_keys

	XORQ AX, AX

rf_group:
	MOVQ BX, CX
	SUBQ AX, CX
	CMPQ CX, $8
	JLE  rf_group_mask
	MOVQ $8, CX

rf_group_mask:
	MOVL $1, DX
	SHLQ CX, DX
	DECQ DX
	KMOVW DX, K7
	VMOVDQU64.Z (R8)(AX*8), K7, Z2
	VPXORQ Z3, Z3, Z3
	MOVQ   $-2, R10               // the indices above j = 0
	MOVQ   AX, CX                 // shifted by the group's first index
	XORQ   R11, R11               // j

rf_count:
	MOVQ         R10, DX
	SHRQ         CX, DX
	KMOVW        DX, K5
	SHLQ         $1, R10
	VPBROADCASTQ (R8)(R11*8), Z1
	VPCMPQ       $6, Z1, Z2, K1     // k_i > k_j
	VPCMPQ       $5, Z1, Z2, K5, K2 // k_i ≥ k_j, i > j
	KORW         K1, K2, K1
	VPADDQ       Z29, Z3, K1, Z3
	INCQ         R11
	CMPQ         R11, BX
	JLT          rf_count

	VMOVDQU64 Z3, K7, (R12)(AX*8)
	ADDQ      $8, AX
	CMPQ      AX, BX
	JLT       rf_group

	XORQ AX, AX

rf_scatter:
	MOVQ (R12)(AX*8), DX
	MOVQ AX, (DI)(DX*8)
	INCQ AX
	CMPQ AX, BX
	JLT  rf_scatter

rf_done:
	MOVQ R9, valid+72(FP)
	VZEROUPPER
	RET

	// Up to 16 values: the keys stay in Z4 and Z5 (lanes 0–7 and 8–15,
	// masks K6 and K7) and key j is broadcast from them by VPERMI2Q (a
	// load right after a masked store of the keys waited for the store).
	// The counts (Z3, Z9) are first of the keys below alone, one compare
	// a group; only when that finds a tie, they are counted again with the
	// lanes above j (the lane numbers Z7, Z8 against j in Z6) counting
	// k_i ≥ k_j.
rf_small:
	MOVQ BX, CX
	CMPQ CX, $8
	JLE  rf_small_mask
	MOVQ $8, CX

rf_small_mask:
	MOVL $1, DX
	SHLQ CX, DX
	DECQ DX
	KMOVW DX, K6
	MOVL $1, DX
	MOVQ BX, CX
	SHLQ CX, DX
	DECQ DX
	SHRQ $8, DX
	KMOVW DX, K7
	VMOVUPD.Z 0(SI), K6, Z4
	VMOVUPD.Z 64(SI), K7, Z5
	VADDPD    Z31, Z4, Z4
	VADDPD    Z31, Z5, Z5
	VCMPPD    $7, Z4, Z4, K6, K1
	VCMPPD    $7, Z5, Z5, K7, K2
	KMOVW     K1, DX
	POPCNTL   DX, R9
	KMOVW     K2, DX
	POPCNTL   DX, DX
	ADDQ      DX, R9
	VCMPPD    $3, Z4, Z4, K1
	VCMPPD    $3, Z5, Z5, K2
	VPSRAQ    $63, Z4, Z0
	VPSRAQ    $63, Z5, Z1
	VPANDQ    Z30, Z0, Z0
	VPANDQ    Z30, Z1, Z1
	VPXORQ    Z0, Z4, Z4
	VPXORQ    Z1, Z5, Z5
	VMOVDQA64 Z30, K1, Z4
	VMOVDQA64 Z30, K2, Z5
	VPXORQ    Z6, Z6, Z6
	VPXORQ    Z3, Z3, Z3
	VPXORQ    Z9, Z9, Z9
	MOVQ      BX, CX

rf_small_count:
	VMOVDQA64 Z6, Z1
	VPERMI2Q  Z5, Z4, Z1          // k_j in every lane
	VPCMPQ    $6, Z1, Z4, K1      // k_i > k_j
	VPCMPQ    $6, Z1, Z5, K2
	VPADDQ    Z29, Z3, K1, Z3
	VPADDQ    Z29, Z9, K2, Z9
	VPADDQ    Z29, Z6, Z6
	DECQ      CX
	JNZ       rf_small_count

	// Without ties the counts are a permutation of 0, …, n−1; a tie
	// leaves their sum short of n(n−1)/2, and the counts are made again
	// with the ties going by index.
	VMOVDQU64 Z3, 0(SP)
	VMOVDQU64 Z9, 64(SP)
	XORQ      AX, AX
	XORQ      R11, R11

rf_scatter_a:
	MOVQ (SP)(AX*8), DX
	ADDQ DX, R11
	MOVQ AX, (DI)(DX*8)
	INCQ AX
	CMPQ AX, BX
	JLT  rf_scatter_a
	MOVQ BX, DX
	DECQ DX
	IMULQ BX, DX
	SHRQ $1, DX
	CMPQ R11, DX
	JEQ  rf_done

	VMOVDQU64 rfLanes<>+0(SB), Z7
	VMOVDQU64 rfLanes<>+64(SB), Z8
	VPXORQ    Z6, Z6, Z6
	VPXORQ    Z3, Z3, Z3
	VPXORQ    Z9, Z9, Z9
	MOVQ      BX, CX

rf_small_ties:
	VMOVDQA64 Z6, Z1
	VPERMI2Q  Z5, Z4, Z1
	VPCMPQ    $6, Z6, Z7, K3      // lanes above j
	VPCMPQ    $6, Z6, Z8, K4
	VPCMPQ    $6, Z1, Z4, K1      // k_i > k_j
	VPCMPQ    $6, Z1, Z5, K2
	VPCMPQ    $5, Z1, Z4, K3, K3  // k_i ≥ k_j, i > j
	VPCMPQ    $5, Z1, Z5, K4, K4
	KORW      K1, K3, K1
	KORW      K2, K4, K2
	VPADDQ    Z29, Z3, K1, Z3
	VPADDQ    Z29, Z9, K2, Z9
	VPADDQ    Z29, Z6, Z6
	DECQ      CX
	JNZ       rf_small_ties
	VMOVDQU64 Z3, 0(SP)
	VMOVDQU64 Z9, 64(SP)
	XORQ      AX, AX
	XORQ      R11, R11

rf_scatter_b:
	MOVQ (SP)(AX*8), DX
	ADDQ DX, R11
	MOVQ AX, (DI)(DX*8)
	INCQ AX
	CMPQ AX, BX
	JLT  rf_scatter_b
	JMP rf_done
