package mmaes

import (
	"math"

	"github.com/mmaes-go/mmaes/kernel"
)

// A Reason says why a run stopped. The zero value, NotStopped, means it has
// not.
type Reason int

const (
	// NotStopped: the run goes on.
	NotStopped Reason = iota
	// TargetReached: a fitness value ≤ Config.TargetF was evaluated.
	TargetReached
	// MaxEvalsReached: Evals() ≥ Config.MaxEvals.
	MaxEvalsReached
	// MaxGenerationsReached: the run made Config.MaxGenerations
	// generations (Generation() ≥ MaxGenerations without restarts; with
	// them, the generations since the last restart, or a BIPOP small run's
	// budget).
	MaxGenerationsReached
	// TolFunReached: over the last Config.TolFunHist generations the best
	// values, and the values of the last generation, spread less than
	// Config.TolFun.
	TolFunReached
	// TolXReached: σ times the largest row norm of A (the largest standard
	// deviation of a coordinate of the sampling distribution) is below
	// Config.TolX.
	TolXReached
	// ConditionReached: (max row norm / min row norm of A)², a lower bound of
	// the condition number of C = A·Aᵀ, exceeds Config.MaxCondition.
	ConditionReached
	// NumericalBreakdown: the update would have made σ, the mean, a path or
	// A (A_inv) non-finite, σ zero, or a row of A zero, or Ask sampled a
	// non-finite candidate. The failing update is not applied to σ, the
	// mean or the paths, so they stay finite (σ > 0); it may have been
	// applied to A when only the rescan after it found the problem.
	NumericalBreakdown
	// AllNaN: every fitness value of a generation was NaN. The generation
	// counts (Evals, Generation) but changes nothing else.
	AllNaN
	// Canceled: the context passed to Optimize was cancelled. It is only
	// ever reported in the Result of that Optimize call: the optimizer
	// itself does not stop, and a later Optimize, Ask or Tell continues
	// the run exactly.
	Canceled

	numReasons
)

var reasonNames = [numReasons]string{
	NotStopped:            "not stopped",
	TargetReached:         "target reached",
	MaxEvalsReached:       "MaxEvals reached",
	MaxGenerationsReached: "MaxGenerations reached",
	TolFunReached:         "TolFun: fitness values flat",
	TolXReached:           "TolX: step size tiny",
	ConditionReached:      "MaxCondition: mutation matrix ill-conditioned",
	NumericalBreakdown:    "numerical breakdown: state not finite or degenerate",
	AllNaN:                "all fitness values of a generation are NaN",
	Canceled:              "context canceled",
}

// String returns a short description of r.
func (r Reason) String() string {
	if r < 0 || r >= numReasons {
		return "Reason(invalid)"
	}
	return reasonNames[r]
}

// Failed reports whether r is a failure (NumericalBreakdown or AllNaN) rather
// than a criterion met or a budget spent.
func (r Reason) Failed() bool { return r == NumericalBreakdown || r == AllNaN }

// scanEvery returns how often (in generations) the row norms of A are
// computed exactly: every 4th generation up to n = 64, then every
// ⌈n/16⌉-th, so that the scan (a read of A, and the pending update applied
// on its own) costs at most 16/n of a pass per generation. At small n a
// kernel call per row makes it dearer than its bytes: at n = 64, scanning
// every generation took 18 % of a generation, and every 4th generation is
// 8 % faster (p = 0.026); at n = 8 the scan was 15 % of a generation.
// In between, rowA (an upper bound kept by the cheap recurrence in
// update.go) guards finiteness and can trigger TolX alone.
func scanEvery(n int) int { return max(4, (n+15)/16) }

// scanA computes the row norms of A exactly: it sets rowA to the largest
// and returns the smallest. A non-finite entry makes the largest non-finite.
// A pending update is applied in the same pass (kernel.ScaleAddOuterNorms:
// the bits of flushA and then rowNorms, reading A once instead of twice).
func (o *Optimizer) scanA() (minRow float64) {
	if !o.pend {
		o.rowA, minRow = rowNorms(o.a, o.n)
	} else {
		kernel.ScaleAddOuterNorms(o.a, o.n, o.pendAlpha, o.pendBeta, o.p, o.pendQ, o.norms)
		o.pend = false
		o.rowA, minRow = extremes(o.norms)
	}
	// The norms of Ã's rows, times s.
	o.rowA *= o.aScale
	return minRow * o.aScale
}

// scanAInv checks A_inv (Cholesky) and resets its bound.
func (o *Optimizer) scanAInv() {
	o.rowAInv, _ = rowNorms(o.ainv, o.n)
}

// extremes returns the largest and the smallest of the row norms r, both
// NaN if one is NaN (as rowNorms).
func extremes(r []float64) (maxRow, minRow float64) {
	minRow = math.Inf(1)
	for _, x := range r {
		if x != x {
			return x, x
		}
		maxRow, minRow = max(maxRow, x), min(minRow, x)
	}
	return maxRow, minRow
}

// rowNorms returns the largest and the smallest row norm of the n×n
// row-major m; the largest is NaN as soon as a row has a NaN.
func rowNorms(m []float64, n int) (maxRow, minRow float64) {
	minRow = math.Inf(1)
	for i := 0; i < n; i++ {
		r := kernel.Norm(m[i*n : i*n+n])
		if r != r {
			return r, r
		}
		maxRow, minRow = max(maxRow, r), min(minRow, r)
	}
	return maxRow, minRow
}

// boundLimit is the largest row-norm bound that is taken as proof that every
// entry of A (or A_inv) is finite; above it, A is scanned.
const boundLimit = 1e300

// checkStop runs the stop criteria after a generation's update, in order of
// precedence, and returns the first that fires (or NotStopped). genRange is
// the spread of the generation's non-NaN values; updated says whether the
// update was applied (false: a numerical breakdown).
func (o *Optimizer) checkStop(genRange float64, updated bool) Reason {
	c := &o.cfg
	if !updated {
		return NumericalBreakdown
	}
	// Degenerate or non-finite A: the bound proves finiteness, or a scan
	// decides. Scans also run on a schedule for TolX and MaxCondition.
	scan := o.gen%scanEvery(o.n) == 0 || !(o.rowA < boundLimit)
	minRow := math.NaN()
	if scan {
		minRow = o.scanA()
		if !(o.rowA < math.Inf(1)) || !(minRow > 0) {
			return NumericalBreakdown
		}
	}
	if o.ainv != nil && !(o.rowAInv < boundLimit) {
		o.scanAInv()
		if !(o.rowAInv < math.Inf(1)) {
			return NumericalBreakdown
		}
	}
	if o.targetReached() {
		return TargetReached
	}
	if c.MaxEvals > 0 && o.evals >= c.MaxEvals {
		return MaxEvalsReached
	}
	// MaxGenerations (and a BIPOP small run's budget) count the
	// generations of the current run (restart.go).
	if o.runMaxGen > 0 && o.runGen >= o.runMaxGen {
		return MaxGenerationsReached
	}
	if c.TolFun > 0 && o.histLen == len(o.hist) && genRange < c.TolFun {
		lo, hi := o.hist[0], o.hist[0]
		for _, h := range o.hist {
			lo, hi = min(lo, h), max(hi, h)
		}
		if hi-lo < c.TolFun {
			return TolFunReached
		}
	}
	// σ·rowA is an upper bound of σ·max‖A_i‖ (exact after a scan).
	if c.TolX > 0 && o.sigma*o.rowA < c.TolX {
		return TolXReached
	}
	if scan && c.MaxCondition > 0 {
		q := o.rowA / minRow
		if q*q > c.MaxCondition {
			return ConditionReached
		}
	}
	return NotStopped
}
