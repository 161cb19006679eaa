// In-register transposes of 8×8 (and 6×8) blocks of float64 in zmm
// registers, for the AVX-512 kernels that sum in broadcast form and need
// the results (or the operands) the other way round: here for
// mulvecs_small_avx512_amd64.s; the generated column panels
// (mulvecs_panels_avx512_amd64.s) have the same sequences from kernel/_asm
// (transpose.go). Z24-Z31 hold the result and are scratch throughout.

// UNPACK6 and SHUF4 are the steps that TRANSPOSE8 and TRANSPOSE6 share:
// UNPACK6 pairs rows 0-5 (even columns of r0 and r1 into Z24, odd into
// Z25, and so on to Z29), SHUF4 gathers 128-bit lanes of rows 0-3 into
// r0-r3 (columns {0,4}, {2,6}, {1,5}, {3,7}).
#define UNPACK6(r0, r1, r2, r3, r4, r5) \
	VUNPCKLPD r1, r0, Z24 \
	VUNPCKHPD r1, r0, Z25 \
	VUNPCKLPD r3, r2, Z26 \
	VUNPCKHPD r3, r2, Z27 \
	VUNPCKLPD r5, r4, Z28 \
	VUNPCKHPD r5, r4, Z29

#define SHUF4(r0, r1, r2, r3) \
	VSHUFF64X2 $0x88, Z26, Z24, r0 \
	VSHUFF64X2 $0xdd, Z26, Z24, r1 \
	VSHUFF64X2 $0x88, Z27, Z25, r2 \
	VSHUFF64X2 $0xdd, Z27, Z25, r3

// TRANSPOSE8 transposes the 8×8 block held in r0-r7 (row r in register rr)
// into Z24-Z31: Z(24+l) = column l (in the panels: the 8 rows' sums for one
// vector). Three rounds of 8 shuffles (pairs of doubles, then 128-bit
// lanes); r0-r7 are scratch.
#define TRANSPOSE8(r0, r1, r2, r3, r4, r5, r6, r7) \
	UNPACK6(r0, r1, r2, r3, r4, r5)  \
	VUNPCKLPD  r7, r6, Z30         \
	VUNPCKHPD  r7, r6, Z31         \
	SHUF4(r0, r1, r2, r3)            \
	VSHUFF64X2 $0x88, Z30, Z28, r4 \
	VSHUFF64X2 $0xdd, Z30, Z28, r5 \
	VSHUFF64X2 $0x88, Z31, Z29, r6 \
	VSHUFF64X2 $0xdd, Z31, Z29, r7 \
	VSHUFF64X2 $0x88, r4, r0, Z24  \
	VSHUFF64X2 $0xdd, r4, r0, Z28  \
	VSHUFF64X2 $0x88, r5, r1, Z26  \
	VSHUFF64X2 $0xdd, r5, r1, Z30  \
	VSHUFF64X2 $0x88, r6, r2, Z25  \
	VSHUFF64X2 $0xdd, r6, r2, Z29  \
	VSHUFF64X2 $0x88, r7, r3, Z27  \
	VSHUFF64X2 $0xdd, r7, r3, Z31

// TRANSPOSE6 is TRANSPOSE8 for 6 rows: lanes 0-5 of Z(24+l) hold column l,
// lanes 6 and 7 are garbage (the caller masks them off).
#define TRANSPOSE6(r0, r1, r2, r3, r4, r5) \
	UNPACK6(r0, r1, r2, r3, r4, r5)  \
	SHUF4(r0, r1, r2, r3)            \
	VSHUFF64X2 $0x88, Z28, Z28, r4  \
	VSHUFF64X2 $0xdd, Z28, Z28, r5  \
	VSHUFF64X2 $0x88, Z29, Z29, Z30 \
	VSHUFF64X2 $0xdd, Z29, Z29, Z31 \
	VSHUFF64X2 $0x88, Z30, r2, Z25  \
	VSHUFF64X2 $0xdd, Z30, r2, Z29  \
	VSHUFF64X2 $0x88, Z31, r3, Z27  \
	VSHUFF64X2 $0xdd, Z31, r3, Z31  \
	VSHUFF64X2 $0x88, r4, r0, Z24   \
	VSHUFF64X2 $0xdd, r4, r0, Z28   \
	VSHUFF64X2 $0x88, r5, r1, Z26   \
	VSHUFF64X2 $0xdd, r5, r1, Z30
