package main

import (
	"fmt"
	"math"
)

// The baselines of the large-scale comparison (lmmaes.go: LM-MA-ES,
// sepcma.go: sep-CMA-ES) share this run interface: a start, a seed, a
// target and a budget in, the best point and the reason for stopping out.

// baselineConfig is the start and the stops of one baseline run.
type baselineConfig struct {
	// Mean is the initial mean m0 (its length is the dimension n); the
	// optimizer copies it.
	Mean []float64
	// Sigma is the initial step size σ0 > 0.
	Sigma float64
	// Seed seeds the optimizer's generator (PCG); the same config gives the
	// same run, bit for bit, on the same kernel path.
	Seed uint64
	// TargetF stops the run at the first evaluation with f ≤ TargetF; −Inf
	// turns it off (an f of −Inf does not stop the run then).
	TargetF float64
	// MaxEvals stops the run after exactly that many evaluations (the last
	// generation may be cut short); 0: no limit.
	MaxEvals int
	// Lambda is the population size; 0: the default 4 + ⌊3 ln n⌋.
	Lambda int
}

// check validates the fields every baseline uses.
func (c baselineConfig) check() error {
	switch {
	case len(c.Mean) == 0:
		return fmt.Errorf("baseline: empty initial mean")
	case !(c.Sigma > 0) || math.IsInf(c.Sigma, 1):
		return fmt.Errorf("baseline: σ0 = %v, want finite and > 0", c.Sigma)
	case math.IsNaN(c.TargetF):
		return fmt.Errorf("baseline: target is NaN")
	case c.MaxEvals < 0:
		return fmt.Errorf("baseline: MaxEvals = %d < 0", c.MaxEvals)
	case c.Lambda != 0 && c.Lambda < 2:
		return fmt.Errorf("baseline: λ = %d < 2", c.Lambda)
	}
	for _, v := range c.Mean {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("baseline: initial mean has %v", v)
		}
	}
	return nil
}

// stopReason says why a baseline run ended.
type stopReason int

// The reasons, in the order of the checks (the target before the budget).
const (
	notStopped       stopReason = iota
	reachedTarget               // an evaluation reached TargetF
	budgetExhausted             // MaxEvals evaluations were made
	numericalFailure            // σ, the mean, a path or the matrix became non-finite (or C ≤ 0)
)

// String names the reason, as the progress lines of `mmaes largescale`
// print it.
func (r stopReason) String() string {
	switch r {
	case notStopped:
		return "not stopped"
	case reachedTarget:
		return "target"
	case budgetExhausted:
		return "budget"
	case numericalFailure:
		return "numerical failure"
	}
	return fmt.Sprintf("stopReason(%d)", int(r))
}

// baselineResult is the outcome of a baseline run.
type baselineResult struct {
	// X is the best point evaluated (a copy) and F its value.
	X []float64
	F float64
	// Evals counts the evaluations; when the run reached its target it is
	// the index (from 1) of the evaluation that reached it.
	Evals       int
	Generations int
	Reason      stopReason
	// Sigma is the last step size.
	Sigma float64
}

// baselineProgress is what both baselines keep of a run besides their
// search distribution: the configuration, the counts, the best point and
// the reason for stopping. They embed it.
type baselineProgress struct {
	cfg        baselineConfig
	evals, gen int
	bestX      []float64
	bestF      float64
	reason     stopReason
}

// newBaselineProgress returns the progress of a run not yet started.
func newBaselineProgress(cfg baselineConfig) baselineProgress {
	return baselineProgress{cfg: cfg, bestX: append([]float64(nil), cfg.Mean...), bestF: math.Inf(1)}
}

// observe counts the evaluation of candidate x with value v, keeps the best
// point, and reports whether the run stops here: at the target (when on)
// or at the budget.
func (p *baselineProgress) observe(x []float64, v float64) (stop bool) {
	p.evals++
	if v < p.bestF {
		p.bestF = v
		copy(p.bestX, x)
	}
	switch {
	case v <= p.cfg.TargetF && p.cfg.TargetF > math.Inf(-1):
		p.reason = reachedTarget
	case p.cfg.MaxEvals > 0 && p.evals >= p.cfg.MaxEvals:
		p.reason = budgetExhausted
	}
	return p.reason != notStopped
}

// result summarizes the run so far; sigma is the optimizer's step size.
func (p *baselineProgress) result(sigma float64) baselineResult {
	return baselineResult{
		X: append([]float64(nil), p.bestX...), F: p.bestF, Evals: p.evals,
		Generations: p.gen, Reason: p.reason, Sigma: sigma,
	}
}

// defaultPopulation is λ = 4 + ⌊3 ln n⌋ of CMA-ES and LM-MA-ES.
func defaultPopulation(n int) int {
	return 4 + int(math.Floor(3*math.Log(float64(n))))
}

// logWeights returns the μ positive recombination weights
// w_i ∝ ln(base) − ln i, i = 1..μ, normalized to sum 1, and
// μ_eff = 1/Σ w_i².
func logWeights(mu int, base float64) (w []float64, muEff float64) {
	w = make([]float64, mu)
	sum := 0.0
	for i := range w {
		w[i] = math.Log(base) - math.Log(float64(i+1))
		sum += w[i]
	}
	sq := 0.0
	for i := range w {
		w[i] /= sum
		sq += w[i] * w[i]
	}
	return w, 1 / sq
}

// rankByFitness sets order to the indices 0..len(fit)−1 sorted by fit,
// ascending, NaN last, ties in index order (an insertion sort: λ is small,
// and it allocates nothing).
func rankByFitness(order []int, fit []float64) {
	less := func(a, b float64) bool {
		if math.IsNaN(b) {
			return !math.IsNaN(a)
		}
		return a < b
	}
	for i := range order {
		order[i] = i
	}
	for i := 1; i < len(order); i++ {
		k := order[i]
		j := i - 1
		for j >= 0 && less(fit[k], fit[order[j]]) {
			order[j+1] = order[j]
			j--
		}
		order[j+1] = k
	}
}

// expectedNormChi is E‖N(0, I_n)‖ ≈ √n·(1 − 1/(4n) + 1/(21n²)).
func expectedNormChi(n int) float64 {
	fn := float64(n)
	return math.Sqrt(fn) * (1 - 1/(4*fn) + 1/(21*fn*fn))
}

// allFinite reports whether every entry of x is finite.
func allFinite(x []float64) bool {
	s := 0.0
	for _, v := range x {
		s += v * 0 // NaN for ±Inf and NaN entries, 0 otherwise
	}
	return s == 0
}
