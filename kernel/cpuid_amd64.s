//go:build gc && !purego

#include "textflag.h"

// func cpuVendorIntel() bool
//
// CPUID leaf 0: EBX, EDX, ECX spell the vendor, "GenuineIntel" on Intel.
TEXT ·cpuVendorIntel(SB), NOSPLIT, $0-1
	XORL  AX, AX
	XORL  CX, CX
	CPUID
	CMPL  BX, $0x756e6547 // "Genu"
	JNE   other
	CMPL  DX, $0x49656e69 // "ineI"
	JNE   other
	CMPL  CX, $0x6c65746e // "ntel"
	JNE   other
	MOVB  $1, ret+0(FP)
	RET

other:
	MOVB $0, ret+0(FP)
	RET
