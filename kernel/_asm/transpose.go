package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The in-register transposes of 8×8 (and 6×8) blocks of float64 in zmm
// registers, for the kernels that sum in broadcast form and need the
// results (or the operands) the other way round: the column panels
// (panels512.go) and the small-n kernels (small.go). Z24-Z31 hold the
// result and are scratch throughout.

// unpack6 and shuf4 are the steps that transpose8 and transpose6 share:
// unpack6 pairs rows 0-5 (even columns of r0 and r1 into Z24, odd into Z25,
// and so on to Z29), shuf4 gathers 128-bit lanes of rows 0-3 into r0-r3
// (columns {0,4}, {2,6}, {1,5}, {3,7}).
func unpack6(r []VecPhysical) {
	for i := 0; i < 3; i++ {
		VUNPCKLPD(r[2*i+1], r[2*i], zmm[24+2*i])
		VUNPCKHPD(r[2*i+1], r[2*i], zmm[25+2*i])
	}
}

func shuf4(r []VecPhysical) {
	VSHUFF64X2(Imm(0x88), Z26, Z24, r[0])
	VSHUFF64X2(Imm(0xdd), Z26, Z24, r[1])
	VSHUFF64X2(Imm(0x88), Z27, Z25, r[2])
	VSHUFF64X2(Imm(0xdd), Z27, Z25, r[3])
}

// transpose8 transposes the 8×8 block held in r[0]-r[7] (row i in r[i])
// into Z24-Z31: Z(24+l) = column l. Three rounds of 8 shuffles (pairs of
// doubles, then 128-bit lanes); r is scratch.
func transpose8(r []VecPhysical) {
	unpack6(r)
	VUNPCKLPD(r[7], r[6], Z30)
	VUNPCKHPD(r[7], r[6], Z31)
	shuf4(r)
	VSHUFF64X2(Imm(0x88), Z30, Z28, r[4])
	VSHUFF64X2(Imm(0xdd), Z30, Z28, r[5])
	VSHUFF64X2(Imm(0x88), Z31, Z29, r[6])
	VSHUFF64X2(Imm(0xdd), Z31, Z29, r[7])
	VSHUFF64X2(Imm(0x88), r[4], r[0], Z24)
	VSHUFF64X2(Imm(0xdd), r[4], r[0], Z28)
	VSHUFF64X2(Imm(0x88), r[5], r[1], Z26)
	VSHUFF64X2(Imm(0xdd), r[5], r[1], Z30)
	VSHUFF64X2(Imm(0x88), r[6], r[2], Z25)
	VSHUFF64X2(Imm(0xdd), r[6], r[2], Z29)
	VSHUFF64X2(Imm(0x88), r[7], r[3], Z27)
	VSHUFF64X2(Imm(0xdd), r[7], r[3], Z31)
}

// transpose6 is transpose8 for 6 rows: lanes 0-5 of Z(24+l) hold column l,
// lanes 6 and 7 are garbage (the caller masks them off).
func transpose6(r []VecPhysical) {
	unpack6(r)
	shuf4(r)
	VSHUFF64X2(Imm(0x88), Z28, Z28, r[4])
	VSHUFF64X2(Imm(0xdd), Z28, Z28, r[5])
	VSHUFF64X2(Imm(0x88), Z29, Z29, Z30)
	VSHUFF64X2(Imm(0xdd), Z29, Z29, Z31)
	VSHUFF64X2(Imm(0x88), Z30, r[2], Z25)
	VSHUFF64X2(Imm(0xdd), Z30, r[2], Z29)
	VSHUFF64X2(Imm(0x88), Z31, r[3], Z27)
	VSHUFF64X2(Imm(0xdd), Z31, r[3], Z31)
	VSHUFF64X2(Imm(0x88), r[4], r[0], Z24)
	VSHUFF64X2(Imm(0xdd), r[4], r[0], Z28)
	VSHUFF64X2(Imm(0x88), r[5], r[1], Z26)
	VSHUFF64X2(Imm(0xdd), r[5], r[1], Z30)
}
