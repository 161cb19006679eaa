package main

import (
	"math"
	"slices"
)

// Statistics of the paper's performance tables (section "Scaling on
// Dimension"): the success performance SP = E_s/p_s of Auger and Hansen, the
// relative performance β = FE2/FE1, and the median run.

// median (compare.go) gives the median of all runs, failures as +Inf.

// successPerformance returns SP = E_s/p_s: the mean evaluations of the
// successful runs (succEvals) divided by the success rate
// len(succEvals)/runs; +Inf when no run succeeded, NaN for runs = 0.
func successPerformance(succEvals []float64, runs int) float64 {
	if runs <= 0 {
		return math.NaN()
	}
	if len(succEvals) == 0 {
		return math.Inf(1)
	}
	sum := 0.0
	for _, e := range succEvals {
		sum += e
	}
	mean := sum / float64(len(succEvals))
	return mean / (float64(len(succEvals)) / float64(runs))
}

// beta returns the paper's relative performance β = FE2/FE1 = sp/spBase:
// below 1 when the compared update needs fewer evaluations than the
// baseline (Cholesky CMA-ES). 0 when only the compared update succeeded, +Inf
// when only the baseline did, NaN when neither did.
func beta(sp, spBase float64) float64 {
	if math.IsInf(sp, 1) && math.IsInf(spBase, 1) {
		return math.NaN()
	}
	return sp / spBase
}

// feStats summarizes the runs of one function × dimension × update.
type feStats struct {
	Runs, Successes int
	// Median is the median evaluations over all runs, a failed run counting
	// as +Inf (more than any successful run, as in the paper).
	Median float64
	// MeanSuccess is E_s, the mean evaluations of the successful runs (NaN
	// for none); SP is E_s/p_s (+Inf for none).
	MeanSuccess, SP float64
}

// SuccessRate returns p_s (NaN for no runs).
func (s feStats) SuccessRate() float64 {
	if s.Runs == 0 {
		return math.NaN()
	}
	return float64(s.Successes) / float64(s.Runs)
}

// computeStats returns the statistics of runs with these evaluation counts
// and outcomes.
func computeStats(evals []int, success []bool) feStats {
	all := make([]float64, len(evals))
	var succ []float64
	for i, e := range evals {
		if success[i] {
			all[i] = float64(e)
			succ = append(succ, float64(e))
		} else {
			all[i] = math.Inf(1)
		}
	}
	st := feStats{
		Runs:        len(evals),
		Successes:   len(succ),
		Median:      median(all),
		MeanSuccess: math.NaN(),
		SP:          successPerformance(succ, len(evals)),
	}
	if len(succ) > 0 {
		sum := 0.0
		for _, e := range succ {
			sum += e
		}
		st.MeanSuccess = sum / float64(len(succ))
	}
	return st
}

// medianIndex returns the index of the median run of these runs: ranked by
// success first (a failure costs more than any success), then evaluations,
// then index, it is the ⌈k/2⌉-th of k (the 11th of 21). −1 for none.
func medianIndex(evals []int, success []bool) int {
	if len(evals) == 0 {
		return -1
	}
	idx := make([]int, len(evals))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if success[a] != success[b] {
			if success[a] {
				return -1
			}
			return 1
		}
		return evals[a] - evals[b]
	})
	return idx[(len(idx)-1)/2]
}
