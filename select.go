package mmaes

import (
	"math"
	"slices"
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
// not allocate: slices.SortFunc sorts in place, and the comparison is a
// total order, so the unstable sort gives the one correct order.
func rank(idx []int, fit []float64) (valid int) {
	if len(idx) <= insertionMax {
		var keys [insertionMax]uint64
		for i := range idx {
			keys[i] = fitnessKey(fit[i])
			if fit[i] == fit[i] {
				valid++
			}
		}
		// Insertion sort on order-preserving integer keys, moved along with
		// the indices, inserting the candidates in index order: stable, so
		// ties stay in index order. Faster than a sort call for the usual λ,
		// and than comparing the float64 values under the policy (94 against
		// 132 ns at λ = 10).
		for i := range idx {
			k, j := keys[i], i
			for ; j > 0 && k < keys[j-1]; j-- {
				keys[j], idx[j] = keys[j-1], idx[j-1]
			}
			keys[j], idx[j] = k, i
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
// get one key each).
func fitnessKey(f float64) uint64 {
	if f != f {
		return math.MaxUint64
	}
	b := math.Float64bits(f + 0) // −0 + 0 = +0
	if b>>63 != 0 {
		return ^b // negative: the larger the magnitude, the smaller the key
	}
	return b | 1<<63
}

// insertionMax is the largest λ ranked by insertion sort.
const insertionMax = 64
