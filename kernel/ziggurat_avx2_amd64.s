//go:build gc && !purego

#include "textflag.h"
#include "ziggurat_amd64.h"

// ZHALF runs one half of a round (4 of the 8 lanes) of zigguratAVX2: the
// state words s0-s3 of those lanes step on, and the frame at BX receives
// their draws r (at roff) and deviates d = u·x[j] (at doff); DX gets the
// bits of the lanes with |d| < x[j+1]. Y8-Y15, AX scratch; x at R12. The
// layer index j = r & 255 of a lane is the low byte of its r, read back
// from the frame; the pairs x[j], x[j+1] are one 16-byte load a lane:
// lanes 0 and 2 in Y11, 1 and 3 in Y12, parted by unpacking.
#define ZHALF(s0, s1, s2, s3, roff, doff) \
	VPADDQ      s3, s0, Y8          \
	VPSLLQ      $23, Y8, Y9         \
	VPSRLQ      $41, Y8, Y8         \
	VPOR        Y9, Y8, Y8          \
	VPADDQ      s0, Y8, Y8          \
	VPSLLQ      $17, s1, Y9         \
	VPXOR       s0, s2, s2          \
	VPXOR       s1, s3, s3          \
	VPXOR       s2, s1, s1          \
	VPXOR       s3, s0, s0          \
	VPXOR       Y9, s2, s2          \
	VPSLLQ      $45, s3, Y9         \
	VPSRLQ      $19, s3, s3         \
	VPOR        Y9, s3, s3          \
	VMOVDQU     Y8, roff(BX)        \
	VPSRLQ      $12, Y8, Y10        \
	VPOR        224(BX), Y10, Y10   \
	VSUBPD      256(BX), Y10, Y10   \
	MOVBQZX     roff(BX), AX        \
	VMOVUPD     (R12)(AX*8), X11    \
	MOVBQZX     (roff+8)(BX), DX    \
	VMOVUPD     (R12)(DX*8), X12    \
	MOVBQZX     (roff+16)(BX), AX   \
	VMOVUPD     (R12)(AX*8), X13    \
	MOVBQZX     (roff+24)(BX), DX   \
	VMOVUPD     (R12)(DX*8), X14    \
	VINSERTF128 $1, X13, Y11, Y11   \
	VINSERTF128 $1, X14, Y12, Y12   \
	VUNPCKLPD   Y12, Y11, Y13       \
	VUNPCKHPD   Y12, Y11, Y14       \
	VMULPD      Y13, Y10, Y13       \
	VMOVUPD     Y13, doff(BX)       \
	VANDPD      288(BX), Y13, Y15   \
	VCMPPD      $1, Y14, Y15, Y15   \
	VMOVMSKPD   Y15, DX

// BCAST4Q writes the constant c to the 4 quadwords at off(BX) (AX, Y8
// scratch).
#define BCAST4Q(c, off) \
	MOVQ         c, AX     \
	VMOVQ        AX, X8    \
	VPBROADCASTQ X8, Y8    \
	VMOVDQU      Y8, off(BX)

// func zigguratAVX2(z []float64, s *[32]uint64, x *[257]float64, rej []uint64) (acc, nrej int)
// Requires: AVX2
//
// zigguratGeneric with the 8 lanes in two registers of 4 for each state
// word (Y0/Y1 s0, Y2/Y3 s1, Y4/Y5 s2, Y6/Y7 s3). A round whose 8 lanes are
// all live and all accepted (95 % of them) stores its deviates as they are;
// any other round walks its live lanes in order from the frame.
//
// Registers: DI, R13 z and len(z); SI, R10 rej and len(rej); R8, R9 acc and
// nrej; R11 the live lanes m; R12 x; R14 the prefetch base (ZIG_ARGS); CX
// the accepted lanes' bits; BX the frame: d (0) and r (64) of the round,
// and the constants: the exponent of [2, 4) (224), 3.0 (256) and the mask
// of all but the sign (288), 4 quadwords each.
//
// BX is aligned to 64 bytes in the frame, so that no 32-byte store to it
// straddles two cache lines (such a store forwards to the loads after it
// only once it reaches the cache).
TEXT ·zigguratAVX2(SB), NOSPLIT, $384-80
	LEAQ    63(SP), BX
	ANDQ    $~63, BX
	BCAST4Q($0x4000000000000000, 224)
	BCAST4Q($0x4008000000000000, 256)
	BCAST4Q($0x7fffffffffffffff, 288)
	MOVQ    s+24(FP), AX
	VMOVDQU (AX), Y0
	VMOVDQU 32(AX), Y1
	VMOVDQU 64(AX), Y2
	VMOVDQU 96(AX), Y3
	VMOVDQU 128(AX), Y4
	VMOVDQU 160(AX), Y5
	VMOVDQU 192(AX), Y6
	VMOVDQU 224(AX), Y7
	ZIG_ARGS(z_base+0(FP), z_len+8(FP), rej_base+40(FP), rej_len+48(FP), x+32(FP))

z2_round:
	// m = len(z) − acc − nrej live lanes (at most 8); stop at 0 or when
	// rej has no room for a round.
	MOVQ R13, R11
	SUBQ R8, R11
	SUBQ R9, R11
	JLE  z2_done
	LEAQ 8(R9), AX
	CMPQ AX, R10
	JGT  z2_done
	MOVQ $8, AX
	CMPQ R11, AX
	CMOVQGT AX, R11

	PREFETCHT0 (R14)(R8*8)
	ZHALF(Y0, Y2, Y4, Y6, 64, 0)
	MOVQ DX, CX
	ZHALF(Y1, Y3, Y5, Y7, 96, 32)
	SHLQ $4, DX
	ORQ  DX, CX

	CMPQ R11, $8
	JNE  z2_lanes
	CMPQ CX, $0xff
	JNE  z2_lanes
	VMOVUPD (BX), Y8
	VMOVUPD Y8, (DI)(R8*8)
	VMOVUPD 32(BX), Y9
	VMOVUPD Y9, 32(DI)(R8*8)
	ADDQ    $8, R8
	JMP     z2_round

z2_lanes:
	// The live lanes in order: an accepted d to z[acc], a rejected r to
	// rej[nrej].
	XORQ DX, DX

z2_lane:
	BTQ  DX, CX
	JCC  z2_reject
	MOVQ (BX)(DX*8), AX
	MOVQ AX, (DI)(R8*8)
	INCQ R8
	JMP  z2_next

z2_reject:
	MOVQ 64(BX)(DX*8), AX
	MOVQ AX, (SI)(R9*8)
	INCQ R9

z2_next:
	INCQ DX
	CMPQ DX, R11
	JLT  z2_lane
	JMP  z2_round

z2_done:
	MOVQ    s+24(FP), AX
	VMOVDQU Y0, (AX)
	VMOVDQU Y1, 32(AX)
	VMOVDQU Y2, 64(AX)
	VMOVDQU Y3, 96(AX)
	VMOVDQU Y4, 128(AX)
	VMOVDQU Y5, 160(AX)
	VMOVDQU Y6, 192(AX)
	VMOVDQU Y7, 224(AX)
	MOVQ    R8, acc+64(FP)
	MOVQ    R9, nrej+72(FP)
	VZEROUPPER
	RET
