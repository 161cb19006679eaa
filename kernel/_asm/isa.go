package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/gotypes"
	"github.com/mmcloughlin/avo/ir"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// scaleBy8 writes LEAQ (r*8), dst: dst = 8·r. avo's addresses need a base
// register, which this one has none of, so it is passed as text (a
// LabelRef prints as it is and names no register) and the instruction
// states its registers itself.
func scaleBy8(r, dst GPPhysical) {
	Instruction(&ir.Instruction{
		Opcode:   "LEAQ",
		Operands: []Op{LabelRef(fmt.Sprintf("(%s*8)", r.Asm())), dst},
		Inputs:   []Op{r},
		Outputs:  []Op{dst},
	})
}

// lowLanes sets AX to the bit mask of the first CX lanes, 2^CX − 1.
func lowLanes() {
	MOVQ(U32(1), RAX)
	SHLQ(CL, RAX)
	DECQ(RAX)
}

// loadTailMask sets K1 to select the first CX lanes (1 ≤ CX ≤ 7); AX is
// destroyed.
func loadTailMask() {
	lowLanes()
	KMOVW(EAX, K1)
}

// colTailMask takes cols mod lanes into CX (from cols in CX) and, unless
// it is 0 (then it goes on at skip), sets the mask of those lanes: K1 on
// AVX-512, mask on AVX2 (through R9; AX destroyed).
func (v isa) colTailMask(skip string, mask VecPhysical) {
	ANDQ(Imm(uint64(v.lanes-1)), RCX)
	JZ(LabelRef(skip))
	if v.lanes == 8 {
		loadTailMask()
		return
	}
	MOVQ(RCX, R9)
	v.tailMaskOf(R9, mask)
}

// fold512 adds the high half of zmm z into its low half through the zmm
// register scratch, with 512-bit operations only (the registers past Z15
// have no VEX form): afterwards the ymm view of z holds 4 partial sums,
// lane l the sum of lanes l and l+4.
func fold512(z, scratch VecPhysical) {
	VEXTRACTF64X4(Imm(1), z, scratch.AsY())
	VADDPD(scratch, z, z)
}

// sum8 leaves the horizontal sums of the 8 zmm accumulators x in Z28, in
// order: lane i = Σ x[i]. Each sum is the tree ((x0+x4) + (x1+x5)) +
// ((x2+x6) + (x3+x7)) of the accumulator's lanes, the one fold512 and
// hsum4 add along, with the shuffles shared by the accumulators: a pair of
// VSHUFF64X2 per two accumulators (i, i+2) gathers their low and their
// high 256 bits (the fold), VUNPCKLPD/VUNPCKHPD of accumulators i and i+1
// add neighbouring lanes, and a last pair of VSHUFF64X2 adds the two halves
// of each 256-bit sum: 14 shuffles and 7 adds where fold512 and hsum4 take
// 20 and 14. Z24-Z29 scratch; x[0], x[1], x[4] and x[5] are overwritten.
func sum8(x [8]VecPhysical) VecPhysical {
	for _, i := range []int{0, 1, 4, 5} {
		VSHUFF64X2(Imm(0x44), x[i+2], x[i], Z24)
		VSHUFF64X2(Imm(0xee), x[i+2], x[i], x[i])
		VADDPD(Z24, x[i], x[i])
	}
	for h, i := range []int{0, 4} {
		VUNPCKLPD(x[i+1], x[i], Z24)
		VUNPCKHPD(x[i+1], x[i], Z25)
		VADDPD(Z25, Z24, zmm[26+h])
	}
	VSHUFF64X2(Imm(0x88), Z27, Z26, Z28)
	VSHUFF64X2(Imm(0xdd), Z27, Z26, Z29)
	VADDPD(Z29, Z28, Z28)
	return Z28
}

// hsum4 reduces the four ymm accumulators y[0] … y[3] (registers below
// Y16), a, b, c, d, to their four horizontal sums [Σa, Σb, Σc, Σd] and
// stores them at m. All four registers are destroyed. After the two
// VHADDPD, a = [a0+a1, b0+b1, a2+a3, b2+b3] and c = [c0+c1, d0+d1, c2+c3,
// d2+d3]; b and d then take their low and high 128-bit halves, and b + d
// is the result.
func hsum4(y []VecPhysical, m Mem) {
	VMOVUPD(hsums(y[0], y[1], y[2], y[3]), m)
}

// hsum4Add is hsum4 that adds the four sums to the 4 float64 at m.
func hsum4Add(a, b, c, d VecPhysical, m Mem) {
	s := hsums(a, b, c, d)
	VADDPD(m, s, s)
	VMOVUPD(s, m)
}

// hsums leaves hsum4's four sums in b and returns it.
func hsums(a, b, c, d VecPhysical) VecPhysical {
	VHADDPD(b, a, a)
	VHADDPD(d, c, c)
	VPERM2F128(Imm(0x20), c, a, b)
	VPERM2F128(Imm(0x31), c, a, d)
	VADDPD(d, b, b)
	return b
}

// The vector registers by number.
var (
	zmm = []VecPhysical{Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15,
		Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27, Z28, Z29, Z30, Z31}
	ymm = []VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15}
)

// rowA addresses row r (0-7) of a tile of rows NBYTES apart at column
// offset d from base, with the strides NBYTES (R8), 3·NBYTES (R9),
// 5·NBYTES (R10) and 7·NBYTES (R13) as index registers.
func rowA(r, d int, base Register) Mem {
	m := Mem{Base: base, Disp: d}
	switch r {
	case 0:
	case 1:
		m.Index, m.Scale = R8, 1
	case 2:
		m.Index, m.Scale = R8, 2
	case 3:
		m.Index, m.Scale = R9, 1
	case 4:
		m.Index, m.Scale = R8, 4
	case 5:
		m.Index, m.Scale = R10, 1
	case 6:
		m.Index, m.Scale = R9, 2
	case 7:
		m.Index, m.Scale = R13, 1
	default:
		panic(fmt.Sprintf("no row %d in a tile", r))
	}
	return m
}

// frame is a function's frame of local variables, its slots named by their
// offset below its top as a hand-written file names them (x-8(SP) for the
// slot 8 bytes below): each is addressed from the hardware stack pointer,
// size−offset bytes above it, where the assembler puts the symbol's slot,
// so the instructions are the same either way. It panics when two slots
// overlap.
type frame struct {
	size  int
	slots map[int]int // offset below the top → bytes
}

// newFrame reserves size bytes of local variables.
func newFrame(size int) *frame {
	AllocLocal(size)
	return &frame{size: size, slots: map[int]int{}}
}

// at returns the 8-byte slot off bytes below the top of the frame.
func (f *frame) at(off int) Mem { return f.block(off, 8) }

// block returns the slot of bytes bytes that starts off bytes below the
// top of the frame.
func (f *frame) block(off, bytes int) Mem {
	if off > f.size || bytes > off {
		panic(fmt.Sprintf("frame slot %d (%d bytes) outside the frame of %d", off, bytes, f.size))
	}
	if b, ok := f.slots[off]; ok && b != bytes {
		panic(fmt.Sprintf("frame slot %d used as %d and %d bytes", off, b, bytes))
	}
	for o, b := range f.slots {
		if o != off && o-b < off && off-bytes < o {
			panic(fmt.Sprintf("frame slots %d (%d bytes) and %d (%d bytes) overlap", off, bytes, o, b))
		}
	}
	f.slots[off] = bytes
	return Mem{Base: StackPointer, Disp: f.size - off}
}

// arg returns the address of a parameter or result in the argument frame.
func arg(c gotypes.Component) Mem {
	b, err := c.Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}

// isa is one vector width's way of writing a loop over float64 elements:
// AVX-512 (8 lanes, opmask tails) or AVX2 (4 lanes, VMASKMOVPD tails).
type isa struct {
	name     string // "AVX512" or "AVX2": the functions' suffix
	label    string // "512" or "256": in the labels
	lanes    int    // float64 lanes a register
	regs     []VecPhysical
	lanesTag string // "eight" or "four": the label of the one-register step
	reg      string // "Z" or "Y": the registers' names
}

var (
	avx512 = isa{name: "AVX512", label: "512", lanes: 8, regs: zmm, lanesTag: "eight", reg: "Z"}
	avx2   = isa{name: "AVX2", label: "256", lanes: 4, regs: ymm, lanesTag: "four", reg: "Y"}
)

// bytes is the size of a register.
func (v isa) bytes() int { return 8 * v.lanes }

// r returns vector register i.
func (v isa) r(i int) VecPhysical { return v.regs[i] }

// fn is the name of kernel op on this path.
func (v isa) fn(op string) string { return op + v.name }

// l is the label s of kernel op on this path: op512_s or op256_s.
func (v isa) l(op, s string) string { return op + v.label + "_" + s }

// log2 returns the base-2 logarithm of a power of two.
func log2(x int) uint64 {
	n := uint64(0)
	for ; x > 1; x >>= 1 {
		n++
	}
	return n
}

// tailMask is the AVX2 paths' table of masks: 4 all-ones quadwords, then 4
// zero ones; the 32 bytes at tailMask+32-8r select the first r lanes.
var tailMask Mem

// tailMaskData writes tailMask into the file.
func tailMaskData() {
	tailMask = GLOBL("tailMask", RODATA|NOPTR)
	for i := 0; i < 8; i++ {
		v := int64(0)
		if i < 4 {
			v = -1
		}
		DATA(8*i, I64(v))
	}
}

// tailMask sets the mask of the first CX lanes (1 ≤ CX < lanes): into K1
// on AVX-512 (AX destroyed), into the given ymm register on AVX2 (CX and AX
// destroyed).
func (v isa) tailMask(mask VecPhysical) {
	if v.lanes == 8 {
		loadTailMask()
		return
	}
	v.tailMaskOf(RCX, mask)
}

// tailMaskOf is tailMask for AVX2 with the count in r (destroyed).
func (v isa) tailMaskOf(r GPPhysical, mask VecPhysical) {
	LEAQ(tailMask.Offset(32), RAX)
	SHLQ(Imm(3), r)
	SUBQ(r, RAX)
	VMOVUPD(Mem{Base: RAX}, mask)
}

// load loads the tail's lanes at m into dst and zeroes the others, without
// reading past them.
func (v isa) load(m Mem, mask, dst VecPhysical) {
	if v.lanes == 8 {
		VMOVUPD_Z(m, K1, dst)
		return
	}
	VMASKMOVPD(m, mask, dst)
}

// store stores the tail's lanes of src at m.
func (v isa) store(src VecPhysical, mask VecPhysical, m Mem) {
	if v.lanes == 8 {
		VMOVUPD(src, K1, m)
		return
	}
	VMASKMOVPD(src, mask, m)
}

// zero zeroes register r: VPXORQ on AVX-512, VXORPD on AVX2.
func (v isa) zero(r VecPhysical) {
	if v.lanes == 8 {
		VPXORQ(r, r, r)
		return
	}
	VXORPD(r, r, r)
}

// at returns the address base + off.
func at(base Register, off int) Mem { return Mem{Base: base, Disp: off} }

// stream writes the column loop of a streaming kernel: blocks of two
// registers (label loop) while count allows, then one block of one register
// (label eight or four) if count has that bit, each computed by block(k)
// for k registers, the pointers ptrs advanced after each; then the code
// goes on at label tail, which the caller writes. BX is the loop counter.
func (v isa) stream(op, loop string, count GPPhysical, ptrs []GPPhysical, block func(k int)) {
	MOVQ(count, RBX)
	SHRQ(Imm(log2(2*v.lanes)), RBX)
	JZ(LabelRef(v.l(op, v.lanesTag)))

	Label(v.l(op, loop))
	block(2)
	for _, p := range ptrs {
		ADDQ(U32(2*v.bytes()), p)
	}
	DECQ(RBX)
	JNZ(LabelRef(v.l(op, loop)))

	Label(v.l(op, v.lanesTag))
	TESTQ(U32(v.lanes), count)
	JZ(LabelRef(v.l(op, "tail")))
	block(1)
	for _, p := range ptrs {
		ADDQ(U32(v.bytes()), p)
	}
}

// tail starts the masked tail of kernel op at its label tail: it jumps to
// label after when len mod lanes (CX) is 0, else sets the mask of the CX
// lanes left (K1, or mask on AVX2).
func (v isa) tail(op, after string, mask VecPhysical) {
	Label(v.l(op, "tail"))
	ANDQ(Imm(uint64(v.lanes-1)), RCX)
	JZ(LabelRef(v.l(op, after)))
	v.tailMask(mask)
}

// alignLoop pads the code to a 64-byte boundary (PCALIGN) before a hot
// loop's label, so that the loop's speed does not depend on how much code
// comes before it (docs/performance.md, "Zen 4, 2026-12-04, second
// session").
func alignLoop() {
	Instruction(&ir.Instruction{Opcode: "PCALIGN", Operands: []Op{Imm(64)}})
}

// alphaIsOne stores 1 in slot when the argument alpha is 1.0 (its bits
// compared), else 0 (AX, BX, CX and DX scratch).
func alphaIsOne(slot Mem) {
	XORQ(RCX, RCX)
	MOVQ(U32(1), RDX)
	MOVQ(arg(Param("alpha")), RAX)
	MOVQ(U64(0x3ff0000000000000), RBX)
	CMPQ(RAX, RBX)
	CMOVQEQ(RDX, RCX)
	MOVQ(RCX, slot)
}
