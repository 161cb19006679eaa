// Shared by the ziggurat kernels (ziggurat_avx512_amd64.s, ziggurat_avx2_amd64.s).

// ZIG_ARGS loads the arguments both keep in registers: DI and R13 z and
// len(z), SI and R10 rej and len(rej), R12 x; acc (R8) and nrej (R9) start
// at 0.
#define ZIG_ARGS(zbase, zlen, rejbase, rejlen, xp) \
	MOVQ zbase, DI   \
	MOVQ zlen, R13   \
	MOVQ rejbase, SI \
	MOVQ rejlen, R10 \
	MOVQ xp, R12     \
	XORQ R8, R8      \
	XORQ R9, R9
