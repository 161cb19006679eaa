//go:build gc && !purego

#include "textflag.h"
#include "ziggurat_amd64.h"

// FIRST_LANES sets CX to the number of lanes set in the mask AX and K5 to
// the first CX lanes.
#define FIRST_LANES \
	POPCNTL AX, CX \
	MOVQ    $1, AX \
	SHLQ    CX, AX \
	DECQ    AX     \
	KMOVW   AX, K5

// PAIR loads x[j] and x[j+1] (x at R12) for the layer index j at slot into
// xr, through the general register r.
#define PAIR(slot, r, xr) \
	MOVQ    slot, r \
	VMOVUPD (R12)(r*8), xr

// func zigguratAVX512(z []float64, s *[32]uint64, x *[257]float64, rej []uint64) (acc, nrej int)
// Requires: AVX512F, AVX512VL, AVX512DQ, POPCNT
//
// Registers:
//   Z0-Z3  the state words s0-s3 of the 8 lanes
//   Z4     the mask of all but the sign bit; Z5 the exponent of [2, 4); Z6 3.0
//   Z7     255, the layer mask
//   Z21, Z22 the even and odd element indices 0, 2, …, 14 and 1, 3, …, 15
//   DI, R13 z and len(z); SI, R10 rej and len(rej)
//   R8, R9 acc and nrej; R12 x; R14 the prefetch base (ZIG_ARGS)
// Per round: Z8 = r, Z10 = j (stored a half at a time), Z11 = u, Z13 = x[j]
// and then d = u·x[j], Z14 = x[j+1]; K1 the live lanes (the first m), K3
// the accepted and K4 the rejected ones among them. The frame passes the 8
// layer indices to AX-DX through a slot of one cache line (R11, aligned to
// 64 bytes in the frame whatever the stack pointer's alignment): a 64-byte
// store that straddles two lines forwards to the loads after it only after
// it reaches the cache, which made the speed of a round depend on the
// caller's stack depth. The indices go into the slot as two 32-byte stores:
// on the Intel Xeon measured a 64-byte store did not forward to the 8-byte
// loads of its upper half, and each round waited for the store to reach the
// cache (a round took twice as long as with two 32-byte stores).
TEXT ·zigguratAVX512(SB), NOSPLIT, $128-80
	MOVQ      s+24(FP), AX
	VMOVDQU64 (AX), Z0
	VMOVDQU64 64(AX), Z1
	VMOVDQU64 128(AX), Z2
	VMOVDQU64 192(AX), Z3
	MOVQ      $0x7fffffffffffffff, AX
	VPBROADCASTQ AX, Z4
	MOVQ      $0x4000000000000000, AX
	VPBROADCASTQ AX, Z5
	MOVQ      $0x4008000000000000, AX
	VPBROADCASTQ AX, Z6
	MOVQ      $255, AX
	VPBROADCASTQ AX, Z7
	MOVQ      $0x0e0c0a0806040200, AX
	VMOVQ     AX, X21
	VPMOVZXBQ X21, Z21
	MOVQ      $0x0f0d0b0907050301, AX
	VMOVQ     AX, X22
	VPMOVZXBQ X22, Z22
	ZIG_ARGS(z_base+0(FP), z_len+8(FP), rej_base+40(FP), rej_len+48(FP), x+32(FP))
	LEAQ 63(SP), R11
	ANDQ $~63, R11

round:
	// m = len(z) − acc − nrej lanes are live (all 8 if m ≥ 8); stop at 0
	// or when rej has no room for a round.
	MOVQ R13, BX
	SUBQ R8, BX
	SUBQ R9, BX
	JLE  done
	LEAQ 8(R9), AX
	CMPQ AX, R10
	JGT  done
	MOVQ $0xff, AX
	CMPQ BX, $8
	JGE  live
	MOVQ BX, CX          // the first BX lanes: (1 << BX) − 1
	MOVQ $1, AX
	SHLQ CX, AX
	DECQ AX

live:
	KMOVW AX, K1

	// xoshiro256++ on every lane: r = rotl(s0 + s3, 23) + s0, then the
	// state moves on.
	VPADDQ Z3, Z0, Z8
	VPROLQ $23, Z8, Z8
	VPADDQ Z0, Z8, Z8
	VPSLLQ $17, Z1, Z9
	VPXORQ Z0, Z2, Z2
	VPXORQ Z1, Z3, Z3
	VPXORQ Z2, Z1, Z1
	VPXORQ Z3, Z0, Z0
	VPXORQ Z9, Z2, Z2
	VPROLQ $45, Z3, Z3

	// j = r & 255, u = float(2 + (r >> 12)·2⁻⁵²) − 3, d = u·x[j], accept
	// |d| < x[j+1]. x[j] and x[j+1] of every lane, live or not: one 16-byte
	// load a lane, four lanes' pairs inserted into Z13 (lanes 0-3) and
	// Z17 (4-7), then parted by two permutations (faster than two gathers
	// of 8).
	VPANDQ       Z7, Z8, Z10
	VPSRLQ       $12, Z8, Z11
	VPORQ        Z5, Z11, Z11
	VSUBPD       Z6, Z11, Z11
	VMOVDQA       Y10, (R11)
	VEXTRACTI64X4 $1, Z10, Y10
	VMOVDQA       Y10, 32(R11)
	PAIR(0(R11), AX, X13)
	PAIR(8(R11), BX, X14)
	PAIR(16(R11), CX, X15)
	PAIR(24(R11), DX, X16)
	PAIR(32(R11), AX, X17)
	PAIR(40(R11), BX, X18)
	PAIR(48(R11), CX, X19)
	PAIR(56(R11), DX, X20)
	VINSERTF64X2 $1, X14, Z13, Z13
	VINSERTF64X2 $2, X15, Z13, Z13
	VINSERTF64X2 $3, X16, Z13, Z13
	VINSERTF64X2 $1, X18, Z17, Z17
	VINSERTF64X2 $2, X19, Z17, Z17
	VINSERTF64X2 $3, X20, Z17, Z17
	VMOVAPD      Z13, Z14
	VPERMT2PD    Z17, Z21, Z13          // x[j]: the even elements of Z13:Z17
	VPERMT2PD    Z17, Z22, Z14          // x[j+1]: the odd ones
	VMULPD       Z13, Z11, Z13          // d
	VPANDQ       Z4, Z13, Z12           // |d|
	VCMPPD       $1, Z14, Z12, K1, K3   // K3 = live and |d| < x[j+1]
	KANDNW       K1, K3, K4             // K4 = live and not accepted

	// The accepted d to z[acc:], the rejected r to rej[nrej:]:
	// compressed in a register, then stored under the mask of the first
	// popcount lanes (a compress straight to memory is slow on AMD).
	VCOMPRESSPD Z13, K3, Z15
	PREFETCHT0  (R14)(R8*8)
	KMOVW       K3, AX
	FIRST_LANES
	VMOVUPD     Z15, K5, (DI)(R8*8)
	ADDQ        CX, R8
	VPCOMPRESSQ Z8, K4, Z15
	KMOVW       K4, AX
	FIRST_LANES
	VMOVDQU64   Z15, K5, (SI)(R9*8)
	ADDQ        CX, R9
	JMP         round

done:
	MOVQ      s+24(FP), AX
	VMOVDQU64 Z0, (AX)
	VMOVDQU64 Z1, 64(AX)
	VMOVDQU64 Z2, 128(AX)
	VMOVDQU64 Z3, 192(AX)
	MOVQ      R8, acc+64(FP)
	MOVQ      R9, nrej+72(FP)
	VZEROUPPER
	RET
