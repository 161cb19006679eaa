//go:build gc && !purego

#include "textflag.h"

// FIRST_LANES sets CX to the number of lanes set in the mask AX and K5 to
// the first CX lanes.
#define FIRST_LANES \
	POPCNTL AX, CX \
	MOVQ    $1, AX \
	SHLQ    CX, AX \
	DECQ    AX     \
	KMOVW   AX, K5

// func zigguratAVX512(z []float64, s *[32]uint64, ratio, x *[256]float64, rej []uint64) (acc, nrej int)
// Requires: AVX512F, POPCNT
//
// Registers:
//   Z0-Z3  the state words s0-s3 of the 8 lanes
//   Z4     the mask of all but the sign bit; Z5 the exponent of [2, 4); Z6 3.0
//   Z7     255, the layer mask
//   DI, R13 z and len(z); SI, R10 rej and len(rej)
//   R8, R9 acc and nrej; R11, R12 ratio and x
// Per round: Z8 = r, Z10 = j, Z11 = u, K1 the live lanes (the first m),
// K3 the accepted and K4 the rejected ones among them.
TEXT ·zigguratAVX512(SB), NOSPLIT, $0-88
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
	MOVQ      z_base+0(FP), DI
	MOVQ      z_len+8(FP), R13
	MOVQ      rej_base+48(FP), SI
	MOVQ      rej_len+56(FP), R10
	MOVQ      ratio+32(FP), R11
	MOVQ      x+40(FP), R12
	XORQ      R8, R8
	XORQ      R9, R9

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

	// j = r & 255, u = float(2 + (r >> 12)·2⁻⁵²) − 3, accept |u| < ratio[j].
	// x[j] is gathered for every live lane at once, not only for the
	// accepted ones: the two gathers then do not wait for each other (on
	// Zen 4 that made a round 12 % faster), and the rejected lanes'
	// products are compressed away.
	VPANDQ     Z7, Z8, Z10
	VPSRLQ     $12, Z8, Z11
	VPORQ      Z5, Z11, Z11
	VSUBPD     Z6, Z11, Z11
	VPANDQ     Z4, Z11, Z12
	KMOVW      K1, K2
	VPXORQ     Z13, Z13, Z13
	VGATHERQPD (R11)(Z10*8), K2, Z13
	KMOVW      K1, K2
	VPXORQ     Z14, Z14, Z14
	VGATHERQPD (R12)(Z10*8), K2, Z14
	VCMPPD     $1, Z13, Z12, K1, K3    // K3 = live and |u| < ratio[j]
	KANDNW     K1, K3, K4              // K4 = live and not accepted

	// The accepted u·x[j] to z[acc:], the rejected r to rej[nrej:]:
	// compressed in a register, then stored under the mask of the first
	// popcount lanes (a compress straight to memory is slow on AMD).
	VMULPD      Z14, Z11, Z14
	VCOMPRESSPD Z14, K3, Z15
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
	MOVQ      R8, acc+72(FP)
	MOVQ      R9, nrej+80(FP)
	VZEROUPPER
	RET
