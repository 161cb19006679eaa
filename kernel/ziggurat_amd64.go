//go:build gc && !purego

package kernel

func ziggurat(z []float64, s *[4 * ZigLanes]uint64, ratio, x *[256]float64, rej []uint64) (acc, nrej int) {
	if useAVX512 {
		return zigguratAVX512(z, s, ratio, x, rej)
	}
	return zigguratGeneric(z, s, ratio, x, rej)
}

// zigguratAVX512 is zigguratGeneric with the 8 lanes in one register each
// of the four state words: the accepted deviates and the rejected draws are
// compress-stored in lane order. len(z) ≥ 1, len(rej) ≥ 8.
//
//go:noescape
func zigguratAVX512(z []float64, s *[4 * ZigLanes]uint64, ratio, x *[256]float64, rej []uint64) (acc, nrej int)
