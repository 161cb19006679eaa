//go:build gc && !purego

package kernel

func ziggurat(z []float64, s *[4 * ZigLanes]uint64, x *[257]float64, rej []uint64) (acc, nrej int) {
	switch {
	case useAVX512:
		return zigguratAVX512(z, s, x, rej)
	case useAVX2:
		return zigguratAVX2(z, s, x, rej)
	}
	return zigguratGeneric(z, s, x, rej)
}

// zigguratAVX512 is zigguratGeneric with the 8 lanes in one register each
// of the four state words: each lane's x[j] and x[j+1] are one 16-byte load
// (faster than two gathers), and the accepted deviates and the rejected
// draws are compressed in lane order and stored as whole registers while
// len(z) − acc − nrej ≥ 8 and len(rej) − nrej ≥ 8, under a mask in the
// last round. len(z) ≥ 1, len(rej) ≥ 8.
//
//go:noescape
func zigguratAVX512(z []float64, s *[4 * ZigLanes]uint64, x *[257]float64, rej []uint64) (acc, nrej int)

// zigguratAVX2 is zigguratGeneric with the 8 lanes in two 256-bit registers
// of each state word, each lane's x[j] and x[j+1] one 16-byte load; without
// compress-stores, a round with a rejected or dead lane walks its lanes in
// order (rare at the normal's tables). len(z) ≥ 1, len(rej) ≥ 8.
//
//go:noescape
func zigguratAVX2(z []float64, s *[4 * ZigLanes]uint64, x *[257]float64, rej []uint64) (acc, nrej int)
