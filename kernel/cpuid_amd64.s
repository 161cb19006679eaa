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

// func cpuidL2KiB() uint32
//
// CPUID leaf 0x80000006, on AMD and Intel: ECX bits 31–16 give the size of
// a core's L2 cache in KiB. 0 where leaf 0x80000000 says the CPU has no
// such leaf.
TEXT ·cpuidL2KiB(SB), NOSPLIT, $0-4
	MOVL  $0x80000000, AX
	XORL  CX, CX
	CPUID
	CMPL  AX, $0x80000006
	JCS   none
	MOVL  $0x80000006, AX
	XORL  CX, CX
	CPUID
	SHRL  $16, CX
	MOVL  CX, ret+0(FP)
	RET

none:
	MOVL $0, ret+0(FP)
	RET

// func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX
	MOVL sub+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET
