package mmaes

import (
	"math"
	"slices"

	"github.com/mmaes-go/mmaes/kernel"
)

// Ranking policy. Candidates are sorted by fitness, lower first, with
//
//   - −Inf and +Inf ranked by value (−Inf before every finite value, +Inf
//     after),
//   - NaN after everything, +Inf included,
//   - ties (equal values, −0 = +0, and NaN with NaN) broken by the
//     candidate's index, lower first.
//
// This is a total order, so the ranking is unique and the same on every
// platform. NaN candidates are selected only when fewer than μ values are not
// NaN (their sampled steps are as good as any for the update); a generation
// of NaN only stops the run (Reason AllNaN).

// cmpFitness compares two fitness values under the policy, without the
// index tie-break.
func cmpFitness(a, b float64) int {
	an, bn := a != a, b != b
	switch {
	case an || bn:
		switch {
		case an && bn:
			return 0
		case an:
			return 1
		}
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// rank sets idx to the candidate indices sorted by fit under the policy and
// returns the number of values that are not NaN (they come first). It does
// not allocate.
//
// Up to countRankMax candidates it sorts without a data-dependent branch:
// each candidate's rank is the number of smaller keys (kernel.CountLess, 8
// comparisons an instruction on AVX-512), on keys that carry the index in
// their 6 low bits, so that they are distinct and ties go by index. Only
// values whose keys agree in all other bits can come out of order, and one
// pass of insertion on the full keys (which moves nothing in the usual
// case, so its branches are predicted) puts them right. An insertion sort
// of random values mispredicts about once per element: at λ = 10 that was
// most of the cost of rank.
func rank(idx []int, fit []float64) (valid int) {
	n := len(idx)
	if n <= countRankMax {
		var keys, packed [countRankMax]int64
		var pos [countRankMax]int
		for i := range n {
			k := fitnessKey(fit[i])
			keys[i], packed[i] = k, k&^(countRankMax-1)|int64(i)
			if fit[i] == fit[i] {
				valid++
			}
		}
		kernel.CountLess(pos[:n], packed[:n])
		for i, p := range pos[:n] {
			idx[p] = i
		}
		for i := 1; i < n; i++ {
			c, j := idx[i], i
			for ; j > 0 && keys[c] < keys[idx[j-1]]; j-- {
				idx[j] = idx[j-1]
			}
			idx[j] = c
		}
		return valid
	}
	for i := range idx {
		idx[i] = i
		if fit[i] == fit[i] {
			valid++
		}
	}
	slices.SortFunc(idx, func(i, j int) int {
		if c := cmpFitness(fit[i], fit[j]); c != 0 {
			return c
		}
		return i - j
	})
	return valid
}

// fitnessKey maps a fitness value to an integer key in the policy's order:
// keys compare as cmpFitness compares the values (−0 and +0, and all NaNs,
// get one key each). Without a branch on the sign: the bits of a negative
// value, magnitude bits flipped, order as their two's complement.
func fitnessKey(f float64) int64 {
	if f != f {
		return math.MaxInt64
	}
	b := int64(math.Float64bits(f + 0)) // −0 + 0 = +0
	return b ^ (b >> 63 & math.MaxInt64)
}

// countRankMax is the largest λ ranked by counting (the index fits in the
// keys' low 6 bits).
const countRankMax = 64
