package mmaes

import (
	"encoding/binary"
	"errors"
	"math/bits"
)

// pcg is math/rand/v2's PCG (a 128-bit LCG with the DXSM output function),
// the same algorithm, stream and MarshalBinary encoding as *rand.PCG, with
// its state in exported-to-the-package fields so that fillNormal can keep it
// in registers while it draws a whole population. It implements
// rand.Source, so rand.New can wrap it for occasional other draws.
type pcg struct{ hi, lo uint64 }

// PCG's constants: the 128-bit multiplier and increment, and the 64-bit
// multiplier of the DXSM output function.
const (
	pcgMulHi    = 2549297995355413924
	pcgMulLo    = 4865540595714422341
	pcgIncHi    = 6364136223846793005
	pcgIncLo    = 1442695040888963407
	pcgCheapMul = 0xda942042e4dd58b5
)

func newPCG(seed1, seed2 uint64) *pcg { return &pcg{seed1, seed2} }

// pcgStep advances the state (hi, lo) and returns the new state and the
// output for it.
func pcgStep(hi, lo uint64) (nhi, nlo, out uint64) {
	// state = state·mul + inc (mod 2¹²⁸)
	nhi, nlo = bits.Mul64(lo, pcgMulLo)
	nhi += hi*pcgMulLo + lo*pcgMulHi
	var c uint64
	nlo, c = bits.Add64(nlo, pcgIncLo, 0)
	nhi, _ = bits.Add64(nhi, pcgIncHi, c)
	// DXSM output
	out = nhi
	out ^= out >> 32
	out *= pcgCheapMul
	out ^= out >> 48
	out *= nlo | 1
	return nhi, nlo, out
}

// Uint64 returns the next 64 random bits.
func (p *pcg) Uint64() uint64 {
	var out uint64
	p.hi, p.lo, out = pcgStep(p.hi, p.lo)
	return out
}

// MarshalBinary encodes the state as *rand.PCG does: "pcg:" and the two
// state words, big-endian.
func (p *pcg) MarshalBinary() ([]byte, error) {
	b := append(make([]byte, 0, 20), "pcg:"...)
	b = binary.BigEndian.AppendUint64(b, p.hi)
	return binary.BigEndian.AppendUint64(b, p.lo), nil
}

var errPCGEncoding = errors.New("invalid PCG encoding")

// UnmarshalBinary decodes MarshalBinary's encoding.
func (p *pcg) UnmarshalBinary(b []byte) error {
	if len(b) != 20 || string(b[:4]) != "pcg:" {
		return errPCGEncoding
	}
	p.hi = binary.BigEndian.Uint64(b[4:])
	p.lo = binary.BigEndian.Uint64(b[12:])
	return nil
}
