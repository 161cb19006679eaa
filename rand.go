package mmaes

import (
	"encoding/binary"
	"errors"
	"math/bits"
)

// xoshiro is the optimizer's random generator: xoshiro256++ of Blackman and
// Vigna ("Scrambled linear pseudorandom number generators", ACM TOMS 2021),
// a 256-bit-state generator that passes BigCrush and PractRand, used as the
// default by Java 17 and .NET 6. Sampling draws λ·n deviates per generation;
// xoshiro256++ needs no multiplication, and fillNormal keeps its four state
// words in registers, which makes a normal deviate about twice as cheap as
// with math/rand/v2's PCG (BenchmarkNormal). Its state is this struct alone,
// so checkpoints save it exactly.
type xoshiro struct{ s0, s1, s2, s3 uint64 }

// newXoshiro seeds the state with four outputs of SplitMix64 started at
// seed, the seeding its authors recommend; every seed gives a different,
// non-zero state.
func newXoshiro(seed uint64) *xoshiro {
	var x xoshiro
	x.s0, seed = splitMix64(seed)
	x.s1, seed = splitMix64(seed)
	x.s2, seed = splitMix64(seed)
	x.s3, _ = splitMix64(seed)
	if x == (xoshiro{}) {
		x.s0 = 1 // the one state xoshiro cannot leave
	}
	return &x
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

// xoshiroMagic starts the binary encoding of the state.
const xoshiroMagic = "xoshiro256++:"

// MarshalBinary encodes the state: xoshiroMagic and the four state words,
// big-endian.
func (x *xoshiro) MarshalBinary() ([]byte, error) {
	b := append(make([]byte, 0, len(xoshiroMagic)+32), xoshiroMagic...)
	for _, w := range [4]uint64{x.s0, x.s1, x.s2, x.s3} {
		b = binary.BigEndian.AppendUint64(b, w)
	}
	return b, nil
}

var errXoshiroEncoding = errors.New("invalid xoshiro256++ encoding")

// UnmarshalBinary decodes MarshalBinary's encoding; the all-zero state,
// which no seeding produces, is invalid.
func (x *xoshiro) UnmarshalBinary(b []byte) error {
	if len(b) != len(xoshiroMagic)+32 || string(b[:len(xoshiroMagic)]) != xoshiroMagic {
		return errXoshiroEncoding
	}
	b = b[len(xoshiroMagic):]
	y := xoshiro{
		binary.BigEndian.Uint64(b), binary.BigEndian.Uint64(b[8:]),
		binary.BigEndian.Uint64(b[16:]), binary.BigEndian.Uint64(b[24:]),
	}
	if y == (xoshiro{}) {
		return errXoshiroEncoding
	}
	*x = y
	return nil
}
