package mmaes

import "slices"

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
	for i := range idx {
		idx[i] = i
		if fit[i] == fit[i] {
			valid++
		}
	}
	if len(idx) <= insertionMax {
		// Insertion sort: stable, and idx starts in index order, so ties
		// stay in index order. Faster than a sort call for the usual λ.
		for i := 1; i < len(idx); i++ {
			k, fk := idx[i], fit[idx[i]]
			j := i
			for ; j > 0 && cmpFitness(fk, fit[idx[j-1]]) < 0; j-- {
				idx[j] = idx[j-1]
			}
			idx[j] = k
		}
		return valid
	}
	slices.SortFunc(idx, func(i, j int) int {
		if c := cmpFitness(fit[i], fit[j]); c != 0 {
			return c
		}
		return i - j
	})
	return valid
}

// insertionMax is the largest λ ranked by insertion sort.
const insertionMax = 64
