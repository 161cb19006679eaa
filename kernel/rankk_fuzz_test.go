package kernel

// The differential fuzz target of ScaleAddRankK (see fuzz_test.go for the
// input helpers and rankk_test.go for the case and its checks):
//
//	go test -run '^$' -fuzz '^FuzzScaleAddRankK$' -fuzztime 20s ./kernel/

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func FuzzScaleAddRankK(f *testing.F) {
	f.Add(uint16(5), uint8(3), uint8(0), uint64(1), 0.9, 0.1)
	f.Add(uint16(8), uint8(1), uint8(13), uint64(2), 1.0, -1.0)
	f.Add(uint16(17), uint8(16), uint8(7), uint64(3), 0.0, 2.0)
	f.Add(uint16(33), uint8(17), uint8(63), uint64(4), 0.5, 1e-3)
	f.Add(uint16(70), uint8(0), uint8(21), uint64(5), -0.999, 1.0)
	f.Add(uint16(129), uint8(40), uint8(22), uint64(6), 0.9, 0.1)
	f.Add(uint16(300), uint8(7), uint8(45), uint64(7), 0.75, -0.5)
	f.Add(uint16(3), uint8(2), uint8(1), uint64(8), math.NaN(), 1.0)
	f.Add(uint16(9), uint8(5), uint8(2), uint64(9), 1.0, math.Inf(-1))
	f.Add(uint16(1), uint8(1), uint8(9), uint64(10), 1e-310, 0x1p-1074)
	f.Fuzz(func(t *testing.T, nIn uint16, kIn, off uint8, seed uint64, alpha, betaScale float64) {
		// n up to 320, k up to 40: several chunks of rankKChunk terms and
		// blocks of rankKRows rows.
		n, k := int(nIn)%321, int(kIn)%41
		alpha, betaScale = fuzzScalar(alpha), fuzzScalar(betaScale)
		r := rand.New(rand.NewPCG(seed, uint64(n)<<8|uint64(k)))
		// A may hold huge specials (|α| < 2^65 keeps α·a finite); β = the
		// fuzzed scale times values below 2^42 (or specials), p and q stay
		// below 2^42: each term is below 2^190, far from overflow.
		a0 := fuzzVec(r, n*n, 1, false, false)
		beta := fuzzVec(r, k, 1, false, true)
		for t := range beta {
			beta[t] *= betaScale
		}
		p0, q0 := fuzzVec(r, k*n, 1, false, true), fuzzVec(r, k*n, 1, false, true)
		c := newRKCase(r, n, k, alpha, a0, beta, p0, q0, "")
		c.offA, c.offB, c.offP = int(off&7), int(off>>3&7), int(off>>6)
		c.beta, c.p = placed(c.offB, beta), placed(c.offP, p0)
		c.desc = fmt.Sprintf("n=%d k=%d offa=%d offβ=%d offp=%d offq=%d α=%v β scale=%v",
			n, k, c.offA, c.offB, c.offP, c.offQ, alpha, betaScale)
		eachPath(func(path string) {
			c.check(t, path, &checker{t: t})
		})
	})
}
