// The column steps and the walk over a tile's blocks of vectors (3, 2 or 1
// registers each), shared by the column panels of mulvecs_panels_avx512_amd64.s (AVX-512) and
// mulvecs_panels_avx2_amd64.s (AVX2). The arguments and frame slots are the caller's.

// PANELS_START loads what every panel kernel keeps from its arguments: R8 =
// NBYTES (n·8, a row of A), R9 = 3·NBYTES, SI = a (the first tile's first
// row), and in the frame ytile = y, tilesleft = tiles, stride = 8·kp (a
// packed row), kc8 = kc/8 and kcrest = kc mod 8, which it leaves in CX with
// the flags set by it (ZF when 0). AX and BX scratch.
#define PANELS_START(n, a, y, tiles, kp, kc, ytile, tilesleft, stride, kc8, kcrest) \
	MOVQ n, R8             \
	SHLQ $3, R8            \
	LEAQ (R8)(R8*2), R9    \
	MOVQ a, SI             \
	MOVQ y, AX             \
	MOVQ AX, ytile         \
	MOVQ tiles, AX         \
	MOVQ AX, tilesleft     \
	MOVQ kp, AX            \
	SHLQ $3, AX            \
	MOVQ AX, stride        \
	MOVQ kc, CX            \
	MOVQ CX, BX            \
	SHRQ $3, BX            \
	MOVQ BX, kc8           \
	ANDQ $7, CX            \
	MOVQ CX, kcrest

// STEPS8 is the column steps of one cache line of each row: step at the
// column offsets 0, 8, …, 56 bytes.
#define STEPS8(step) \
	step(0)          \
	step(8)          \
	step(16)         \
	step(24)         \
	step(32)         \
	step(40)         \
	step(48)         \
	step(56)

// BLOCKS_START sets the tile's block counters left3, left2 and left1 from
// the arguments g3, g2 and g1, points xtb at the packed panel xt and kleft
// at the vector count k, and DX at the tile's first output ytile (AX
// scratch).
#define BLOCKS_START(g3, g2, g1, xt, k, left3, left2, left1, xtb, kleft, ytile) \
	MOVQ g3, AX    \
	MOVQ AX, left3 \
	MOVQ g2, AX    \
	MOVQ AX, left2 \
	MOVQ g1, AX    \
	MOVQ AX, left1 \
	MOVQ xt, AX    \
	MOVQ AX, xtb   \
	MOVQ k, AX     \
	MOVQ AX, kleft \
	MOVQ ytile, DX

// NEXT_BLOCK jumps to b3, b2 or b1 for the tile's next block (the first
// counter of left3, left2, left1 not yet zero), or to done after the last.
#define NEXT_BLOCK(left3, left2, left1, b3, b2, b1, done) \
	CMPQ left3, $0 \
	JNE  b3        \
	CMPQ left2, $0 \
	JNE  b2        \
	CMPQ left1, $0 \
	JNE  b1        \
	JMP  done
