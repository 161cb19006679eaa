package mmaes

import (
	"encoding/binary"
	"errors"
	"math/bits"

	"github.com/mmaes-go/mmaes/kernel"
)

// xoshiro is the optimizer's random generator: xoshiro256++ of Blackman and
// Vigna ("Scrambled linear pseudorandom number generators", ACM TOMS 2021),
// a 256-bit-state generator that passes BigCrush and PractRand, used as the
// default by Java 17 and .NET 6. It is nine independent generators: the
// scalar one (s0-s3) for everything but the bulk of the normal deviates, and
// kernel.ZigLanes lanes that fillNormal runs side by side (one AVX-512
// register per state word) for the λ·n deviates of a generation. Its state
// is s0-s3 and lanes, which checkpoints save exactly; rej is fillNormal's
// scratch (kept here so that a fill does not clear 512 bytes of stack),
// never read before a fill writes it.
type xoshiro struct {
	s0, s1, s2, s3 uint64
	lanes          [4 * kernel.ZigLanes]uint64 // word w of lane l at lanes[w*ZigLanes+l]
	rej            [64]uint64
}

// newXoshiro seeds the state with outputs of SplitMix64 started at seed,
// the seeding its authors recommend: four for the scalar generator, then
// four for each lane. Every seed gives a different state, and no generator
// gets the all-zero state it cannot leave.
func newXoshiro(seed uint64) *xoshiro {
	var x xoshiro
	x.seed(seed)
	return &x
}

// seed sets the state as newXoshiro does, in place.
func (x *xoshiro) seed(seed uint64) {
	x.s0, seed = splitMix64(seed)
	x.s1, seed = splitMix64(seed)
	x.s2, seed = splitMix64(seed)
	x.s3, seed = splitMix64(seed)
	if x.s0|x.s1|x.s2|x.s3 == 0 {
		x.s0 = 1
	}
	x.seedLanes(seed)
}

// seedLanes sets the lanes from the SplitMix64 stream started at seed.
func (x *xoshiro) seedLanes(seed uint64) {
	for l := range kernel.ZigLanes {
		var zero uint64
		for w := range 4 {
			x.lanes[w*kernel.ZigLanes+l], seed = splitMix64(seed)
			zero |= x.lanes[w*kernel.ZigLanes+l]
		}
		if zero == 0 {
			x.lanes[l] = 1
		}
	}
}

// lanesValid reports whether no lane is all zero.
func (x *xoshiro) lanesValid() bool {
	for l := range kernel.ZigLanes {
		var or uint64
		for w := range 4 {
			or |= x.lanes[w*kernel.ZigLanes+l]
		}
		if or == 0 {
			return false
		}
	}
	return true
}

// splitMix64 returns the output for the state s and the next state.
func splitMix64(s uint64) (out, next uint64) {
	next = s + 0x9e3779b97f4a7c15
	z := next
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31, next
}

// xoshiroStep returns the output for the state (s0, s1, s2, s3) and the next
// state.
func xoshiroStep(s0, s1, s2, s3 uint64) (out, n0, n1, n2, n3 uint64) {
	out = bits.RotateLeft64(s0+s3, 23) + s0
	t := s1 << 17
	s2 ^= s0
	s3 ^= s1
	s1 ^= s2
	s0 ^= s3
	s2 ^= t
	s3 = bits.RotateLeft64(s3, 45)
	return out, s0, s1, s2, s3
}

// Uint64 returns the next 64 random bits.
func (x *xoshiro) Uint64() uint64 {
	var out uint64
	out, x.s0, x.s1, x.s2, x.s3 = xoshiroStep(x.s0, x.s1, x.s2, x.s3)
	return out
}

// xoshiroMagic starts the binary encoding of the nine generators; the older
// encoding of the scalar generator alone (checkpoints written before the
// lanes) starts with xoshiroMagic1.
const (
	xoshiroMagic  = "xoshiro256++x9:"
	xoshiroMagic1 = "xoshiro256++:"
)

// xoshiroWords is the number of state words of the encoding.
const xoshiroWords = 4 + 4*kernel.ZigLanes

// MarshalBinary encodes the state: xoshiroMagic, the four scalar state words
// and the lanes' words (in the order of xoshiro.lanes), big-endian.
func (x *xoshiro) MarshalBinary() ([]byte, error) {
	b := append(make([]byte, 0, len(xoshiroMagic)+8*xoshiroWords), xoshiroMagic...)
	for _, w := range [4]uint64{x.s0, x.s1, x.s2, x.s3} {
		b = binary.BigEndian.AppendUint64(b, w)
	}
	for _, w := range x.lanes {
		b = binary.BigEndian.AppendUint64(b, w)
	}
	return b, nil
}

var errXoshiroEncoding = errors.New("invalid xoshiro256++ encoding")

// encode writes the state words: the scalar generator's four, then the
// lanes' (in the order of xoshiro.lanes).
func (x *xoshiro) encode(e *encoder) {
	for _, w := range [4]uint64{x.s0, x.s1, x.s2, x.s3} {
		e.u64(w)
	}
	for _, w := range x.lanes {
		e.u64(w)
	}
}

// decode reads what encode wrote; a generator that no seeding produces (an
// all-zero scalar state or lane) is an error.
func (x *xoshiro) decode(d *decoder) error {
	var y xoshiro
	y.s0, y.s1, y.s2, y.s3 = d.u64(), d.u64(), d.u64(), d.u64()
	for i := range y.lanes {
		y.lanes[i] = d.u64()
	}
	if d.err != nil {
		return d.err
	}
	if y.s0|y.s1|y.s2|y.s3 == 0 || !y.lanesValid() {
		return ckErr("generator state: %v", errXoshiroEncoding)
	}
	*x = y
	return nil
}

// UnmarshalBinary decodes MarshalBinary's encoding; an all-zero generator,
// which no seeding produces, is invalid. The older encoding of the scalar
// generator alone is accepted too: the lanes are then seeded from it (the
// deviates differ from what the older version drew, as its generator did).
func (x *xoshiro) UnmarshalBinary(b []byte) error {
	var y xoshiro
	switch {
	case len(b) == len(xoshiroMagic)+8*xoshiroWords && string(b[:len(xoshiroMagic)]) == xoshiroMagic:
		b = b[len(xoshiroMagic):]
		for i := range y.lanes {
			y.lanes[i] = binary.BigEndian.Uint64(b[32+8*i:])
		}
	case len(b) == len(xoshiroMagic1)+32 && string(b[:len(xoshiroMagic1)]) == xoshiroMagic1:
		b = b[len(xoshiroMagic1):]
	default:
		return errXoshiroEncoding
	}
	y.s0, y.s1 = binary.BigEndian.Uint64(b), binary.BigEndian.Uint64(b[8:])
	y.s2, y.s3 = binary.BigEndian.Uint64(b[16:]), binary.BigEndian.Uint64(b[24:])
	if y.s0|y.s1|y.s2|y.s3 == 0 {
		return errXoshiroEncoding
	}
	if len(b) == 32 {
		y.seedLanes(y.s0 ^ y.s1 ^ y.s2 ^ y.s3)
	}
	if !y.lanesValid() {
		return errXoshiroEncoding
	}
	*x = y
	return nil
}
