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
// Up to kernel.RankFloatsMax candidates it ranks without a data-dependent
// branch (kernel.RankFloats: each candidate's rank is the number of
// candidates before it in the order; an insertion sort of random values
// mispredicts about once per element, at λ = 10 most of the cost of rank).
// Its scratch lives in sc (sized by rankScratch.resize; arrays on the stack
// cost a fifth of rank in zeroing); without room there (sc nil or short)
// rank sorts, in the same order.
func rank(idx []int, fit []float64, sc *rankScratch) (valid int) {
	n := len(idx)
	if n <= kernel.RankFloatsMax && sc != nil && len(sc.pos) >= n {
		return kernel.RankFloats(idx, fit[:n], sc.keys, sc.pos)
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

// rankScratch is rank's room for up to kernel.RankFloatsMax values.
type rankScratch struct {
	keys []int64
	pos  []int
}

// resize makes room for lambda values (none above kernel.RankFloatsMax,
// where rank sorts), allocating only when it grows.
func (sc *rankScratch) resize(lambda int) {
	if lambda > kernel.RankFloatsMax || len(sc.pos) >= lambda {
		return
	}
	sc.keys, sc.pos = make([]int64, 2*lambda), make([]int, lambda)
}

// checkPopulation validates Lambda and Mu and resolves λ and μ of the first
// run into p.
func checkPopulation(cfg *Config, p *Params) error {
	n := cfg.Dim
	lambda := cfg.Lambda
	if lambda == 0 {
		lambda = defaultLambda(n)
	}
	if lambda < 2 {
		return cfgErr("Lambda", "%d: must be ≥ 2 (or 0 for the default)", cfg.Lambda)
	}
	if !popFits(lambda, n) {
		return cfgErr("Lambda", "%d: too large", cfg.Lambda)
	}
	mu := cfg.Mu
	if mu == 0 {
		mu = lambda / 2
	}
	if mu < 1 || mu > lambda {
		return cfgErr("Mu", "%d: must be in [1, Lambda = %d] (or 0 for ⌊λ/2⌋)", cfg.Mu, lambda)
	}
	p.Lambda, p.Mu = lambda, mu
	return nil
}

// defaultLambda is the paper's 4 + ⌊3 ln n⌋ for n ≥ 1.
func defaultLambda(n int) int { return 4 + int(math.Floor(3*math.Log(float64(n)))) }

// popFits reports whether a population of λ points of dimension n is within
// the sizes New accepts.
func popFits(lambda, n int) bool {
	return lambda <= 1<<20 && float64(lambda)*float64(n) <= math.MaxInt/4
}

// selectionRates sets the recombination weights of a run and μ_eff.
func selectionRates(_ *Config, p *Params) error {
	p.Weights = logWeights(p.Mu)
	sw2 := 0.0
	for _, w := range p.Weights {
		sw2 += w * w
	}
	p.MuEff = 1 / sw2
	return nil
}

// logWeights returns the paper's recombination weights for μ parents:
// w_i = (ln(μ+1) − ln i)/(μ ln(μ+1) − Σ_{j=1}^{μ} ln j).
func logWeights(mu int) []float64 {
	w := make([]float64, mu)
	logWeightsInto(w)
	return w
}

// logWeightsInto sets w to the weights for μ = len(w) parents and returns
// μ_eff = 1/Σ w_i².
func logWeightsInto(w []float64) (muEff float64) {
	mu := len(w)
	l := math.Log(float64(mu) + 1)
	den := float64(mu) * l
	for j := 1; j <= mu; j++ {
		den -= math.Log(float64(j))
	}
	sw2 := 0.0
	for i := range w {
		w[i] = (l - math.Log(float64(i+1))) / den
		sw2 += w[i] * w[i]
	}
	return 1 / sw2
}
