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
