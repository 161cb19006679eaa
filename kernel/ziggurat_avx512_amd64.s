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

// ZROUND steps the 8 lanes' generators and computes their round: Z8 = r,
// Z11 = u, Z13 = d = u·x[j] and Z14 = x[j+1], for every lane, live or not.
// x[j] and x[j+1] of a lane are one 16-byte load: the pairs of lanes 0, 2,
// 4, 6 go into the four 128-bit parts of Z13 and those of lanes 1, 3, 5, 7
// into Z14, and one unpack of the low and one of the high elements parts
// them into x[j] and x[j+1] in lane order. The layer index j = r & 255 is
// the low byte of r, which a round stores (R11: a slot of one cache line)
// and reads back byte by byte into AX-DX for the loads' addresses. Scratch:
// AX, BX, CX, DX, Z9 and Z12.
#define ZROUND \
	VPADDQ        Z3, Z0, Z8                \
	VPROLQ        $23, Z8, Z8               \
	VPADDQ        Z0, Z8, Z8                \
	VPSLLQ        $17, Z1, Z9               \
	VPXORQ        Z0, Z2, Z2                \
	VPXORQ        Z1, Z3, Z3                \
	VPXORQ        Z2, Z1, Z1                \
	VPXORQ        Z3, Z0, Z0                \
	VPXORQ        Z9, Z2, Z2                \
	VPROLQ        $45, Z3, Z3               \
	VPSRLQ        $12, Z8, Z11              \
	VPORQ         Z5, Z11, Z11              \
	VSUBPD        Z6, Z11, Z11              \
	VMOVDQA       Y8, (R11)                 \
	VEXTRACTI64X4 $1, Z8, 32(R11)           \
	MOVBQZX       0(R11), AX                \
	MOVBQZX       8(R11), BX                \
	MOVBQZX       16(R11), CX               \
	MOVBQZX       24(R11), DX               \
	VMOVUPD       (R12)(AX*8), X13          \
	VMOVUPD       (R12)(BX*8), X14          \
	VINSERTF64X2  $1, (R12)(CX*8), Z13, Z13 \
	VINSERTF64X2  $1, (R12)(DX*8), Z14, Z14 \
	MOVBQZX       32(R11), AX               \
	MOVBQZX       40(R11), BX               \
	MOVBQZX       48(R11), CX               \
	MOVBQZX       56(R11), DX               \
	VINSERTF64X2  $2, (R12)(AX*8), Z13, Z13 \
	VINSERTF64X2  $2, (R12)(BX*8), Z14, Z14 \
	VINSERTF64X2  $3, (R12)(CX*8), Z13, Z13 \
	VINSERTF64X2  $3, (R12)(DX*8), Z14, Z14 \
	VUNPCKHPD     Z14, Z13, Z12             \
	VUNPCKLPD     Z14, Z13, Z13             \
	VMOVAPD       Z12, Z14                  \
	VMULPD        Z13, Z11, Z13

// func zigguratAVX512(z []float64, s *[32]uint64, x *[257]float64, rej []uint64) (acc, nrej int)
// Requires: AVX512F, AVX512VL, AVX512DQ, POPCNT
//
// Registers:
//   Z0-Z3  the state words s0-s3 of the 8 lanes
//   Z4     the mask of all but the sign bit; Z5 the exponent of [2, 4); Z6 3.0
//   DI, R13 z and len(z); SI, R10 rej and len(rej)
//   R8, R9 acc and nrej; R12 x; R14 the prefetch base (ZIG_ARGS)
// Per round (ZROUND): Z8 = r, Z11 = u, Z13 = d, Z14 = x[j+1]; K3 the
// accepted and K4 the rejected lanes among the live ones.
//
// A round with all 8 lanes live (m = 8; all but the last of a fill) stores
// the compressed deviates and draws as whole registers: z has room for 8
// after acc (acc + nrej + 8 ≤ len(z)) and rej for 8 after nrej; the lanes
// past the counts are scratch (z's are written over by the next round or by
// the caller's slow path). A round of fewer live lanes stores under the mask
// of the first popcount lanes (a compress straight to memory is slow on AMD).
//
// The slot at R11 is aligned to 64 bytes in the frame whatever the stack
// pointer's alignment: a store that straddles two lines forwards to the
// loads after it only after it reaches the cache, which made the speed of
// a round depend on the caller's stack depth. r goes into the slot as two
// 32-byte stores: on some Intel Xeons a 64-byte store does not forward to
// the narrower loads of its upper half, and each round would wait for the
// store to reach the cache (docs/performance.md).
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
	CMPQ BX, $8
	JLT  partial

	ZROUND
	VPANDQ      Z4, Z13, Z12        // |d|
	VCMPPD      $1, Z14, Z12, K3    // K3 = |d| < x[j+1]
	KNOTW       K3, K4
	VCOMPRESSPD Z13, K3, Z15
	PREFETCHT0  (R14)(R8*8)
	KMOVW       K3, AX
	POPCNTL     AX, CX
	VMOVUPD     Z15, (DI)(R8*8)
	ADDQ        CX, R8
	VPCOMPRESSQ Z8, K4, Z15
	VMOVDQU64   Z15, (SI)(R9*8)
	ADDQ        $8, R9
	SUBQ        CX, R9
	JMP         round

partial:
	// The first m = BX < 8 lanes: (1 << m) − 1.
	MOVQ BX, CX
	MOVQ $1, AX
	SHLQ CX, AX
	DECQ AX
	KMOVW AX, K1
	ZROUND
	VPANDQ      Z4, Z13, Z12
	VCMPPD      $1, Z14, Z12, K1, K3 // K3 = live and |d| < x[j+1]
	KANDNW      K1, K3, K4           // K4 = live and not accepted
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
