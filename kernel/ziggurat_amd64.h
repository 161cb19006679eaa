// Shared by the ziggurat kernels (ziggurat_avx512_amd64.s, ziggurat_avx2_amd64.s).

// ZIG_ARGS loads the arguments both keep in registers: DI and R13 z and
// len(z), SI and R10 rej and len(rej), R12 x; acc (R8) and nrej (R9) start
// at 0. R14 is the base from which a round asks L1 for the line at
// (R14)(R8*8): ZIG_AHEAD bytes past the deviates it writes when z has at
// least ZIG_STREAM_MIN elements (a fill that goes to memory, whose lines
// would otherwise be read for ownership only when the stores reach them),
// the line being written otherwise.
#define ZIG_AHEAD 2048
#define ZIG_STREAM_MIN 32768
#define ZIG_ARGS(zbase, zlen, rejbase, rejlen, xp) \
	MOVQ zbase, DI                \
	MOVQ zlen, R13                \
	MOVQ rejbase, SI              \
	MOVQ rejlen, R10              \
	MOVQ xp, R12                  \
	XORQ R8, R8                   \
	XORQ R9, R9                   \
	LEAQ ZIG_AHEAD(DI), R14       \
	CMPQ R13, $ZIG_STREAM_MIN     \
	CMOVQLT DI, R14
