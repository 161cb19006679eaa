// HSUM8 reduces the 8 lanes of zmm z into its low lane as dotAVX512 (and
// axpbyDotAVX512) reduce their accumulators when all but one are zeros (x
// + 0 = x for a sum of squares, which is never −0): the high half onto the
// low, then the high 128 bits, then the two lanes. y and x are the ymm and
// xmm views of z; ty and tx those of a scratch register (all below 16).
#define HSUM8(z, y, x, ty, tx) \
	VEXTRACTF64X4 $1, z, ty \
	VADDPD        ty, y, y  \
	VEXTRACTF128  $1, y, tx \
	VADDPD        tx, x, x  \
	VPERMILPD     $1, x, tx \
	VADDSD        tx, x, x
