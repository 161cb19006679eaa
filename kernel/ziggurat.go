package kernel

import (
	"math"
	"math/bits"
)

// ZigLanes is the number of xoshiro256++ generators that Ziggurat runs side
// by side (one AVX-512 register of 64-bit lanes).
const ZigLanes = 8

// ZigUniform maps a 64-bit draw r to the uniform u ∈ [−1, 1) of the ziggurat:
// its top 52 bits are the mantissa of a double in [2, 4), minus 3. Its low 8
// bits, independent of those, choose the layer.
func ZigUniform(r uint64) float64 {
	return math.Float64frombits(0x4000000000000000|r>>12) - 3
}

// Ziggurat runs the fast path of a 256-layer ziggurat over ZigLanes
// xoshiro256++ generators: per round every lane draws r, and the lanes
// below m = min(ZigLanes, len(z) − acc − nrej), in lane order, either
// accept
//
//	u := ZigUniform(r); j := r & 255; d := u·x[j]
//	|d| < x[j+1]  →  z[acc] = d; acc++
//
// or hand r to the caller in rej[nrej] (nrej++) for the slow path of the
// ziggurat. Rounds run while acc + nrej < len(z) and nrej + ZigLanes ≤
// len(rej), so the caller finishes z[acc:acc+nrej] from rej and calls again
// for the rest. Every path gives the same results, bit for bit, for the
// same state; AVX-512 runs the lanes in one register, AVX2 in two, the
// others one lane after another. z[acc:] and rej[nrej:] are scratch: a
// path may write them (AVX-512 stores a round's lanes as a whole register
// where the slices have room for 8), so only z[:acc] and rej[:nrej] are
// results. x holds the layers' edges, x[j+1] < x[j] the inner one (the
// form of the test needs no table of ratios x[j+1]/x[j]: AVX-512 reads
// x[j] and x[j+1] of a lane in one 16-byte load instead of gathering two
// tables). len(rej) ≥ ZigLanes.
func Ziggurat(z []float64, s *[4 * ZigLanes]uint64, x *[257]float64, rej []uint64) (acc, nrej int) {
	if len(rej) < ZigLanes {
		panic("kernel: short rej")
	}
	if len(z) == 0 {
		return 0, 0
	}
	return ziggurat(z, s, x, rej)
}

// zigguratGeneric is Ziggurat one lane after another.
func zigguratGeneric(z []float64, s *[4 * ZigLanes]uint64, x *[257]float64, rej []uint64) (acc, nrej int) {
	for acc+nrej < len(z) && nrej+ZigLanes <= len(rej) {
		m := min(ZigLanes, len(z)-acc-nrej)
		for l := 0; l < ZigLanes; l++ {
			s0, s1, s2, s3 := s[l], s[ZigLanes+l], s[2*ZigLanes+l], s[3*ZigLanes+l]
			r := bits.RotateLeft64(s0+s3, 23) + s0
			t := s1 << 17
			s2 ^= s0
			s3 ^= s1
			s1 ^= s2
			s0 ^= s3
			s2 ^= t
			s3 = bits.RotateLeft64(s3, 45)
			s[l], s[ZigLanes+l], s[2*ZigLanes+l], s[3*ZigLanes+l] = s0, s1, s2, s3
			if l >= m {
				continue
			}
			j := r & 255
			if d := ZigUniform(r) * x[j]; math.Abs(d) < x[j+1] {
				z[acc] = d
				acc++
				continue
			}
			rej[nrej] = r
			nrej++
		}
	}
	return acc, nrej
}
