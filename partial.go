package mmaes

import "math"

// Partial generations (TellSome): results that come back late or not at
// all. The generation is the k candidates whose values were received; it
// is ranked, selected and weighted as a population of k would be: μ' =
// max(1, k·μ/λ) parents with the log weights for μ' (and, with the active
// update, the negative weights of k − μ'), and the paths' normalization
// √(c(2−c)·μ_eff) taken with μ'_eff (the weighted sum of μ' selected steps
// of N(0, I) has the covariance I/μ'_eff). The rates (c, c1, c_μ, c_σ, d_σ)
// stay the run's. Only the k values count as evaluations.

// partialBufs are TellSome's scratch space, sized for λ.
type partialBufs struct {
	fit      []float64 // the received values, in the order given
	idx      []int     // their ranking (positions in fit)
	weights  []float64 // μ' positive weights
	neg      []float64 // k − μ' negative weights (active update)
	received []bool    // per candidate: a value was given
}

func (b *partialBufs) resize(lambda int) {
	if cap(b.idx) < lambda {
		b.fit = make([]float64, lambda)
		b.idx = make([]int, lambda)
		b.weights = make([]float64, lambda)
		b.neg = make([]float64, lambda)
		b.received = make([]bool, lambda)
	}
}

// TellSome ends the generation with the fitness values of some of the
// candidates of the last Ask: fitness[j] is the value of candidate
// indices[j] (an index into Ask's slice). The update uses exactly those
// candidates, as a population of len(indices) (see the package doc);
// the others are not evaluations (Evals counts len(indices)). Without any
// value (empty indices) it changes nothing: the generation stays pending
// and Ask returns the same candidates. A single (non-NaN) value counts as
// an evaluation and may become the best point, but ranks nothing: the
// generation ends without an update. NaN keeps its meaning (evaluated,
// infeasible). With every candidate given once it is Tell with the values
// in candidate order, bit for bit. It returns ErrLength when the two
// lengths differ, ErrIndex for an index outside [0, λ) or repeated
// (changing nothing), and otherwise what Tell returns. It does not
// allocate.
func (o *Optimizer) TellSome(indices []int, fitness []float64) error {
	switch {
	case o.dist == nil:
		return ErrNotInitialized
	case o.reason != NotStopped:
		return stopErrs[o.reason]
	case !o.asked:
		return ErrNotAsked
	case len(indices) != len(fitness):
		return ErrLength
	}
	p := &o.pop
	b := &p.part
	k, lambda := len(indices), p.lambda
	if k > lambda {
		return ErrIndex
	}
	clear(b.received[:lambda])
	for _, i := range indices {
		if i < 0 || i >= lambda || b.received[i] {
			return ErrIndex
		}
		b.received[i] = true
	}
	if k == 0 {
		return nil
	}
	if k == 1 && fitness[0] == fitness[0] {
		// One value ranks nothing: it is an evaluation and may be the
		// best point, but the distribution does not move (an update from
		// a single unranked step is noise: with 90 % of the results
		// missing, such generations shrank σ until TolX).
		o.endGeneration(1)
		p.fit[indices[0]] = fitness[0]
		o.recordBest(fitness[0], indices[0])
		fired := o.globalStops()
		if o.run.genLimitReached() {
			fired.add(MaxGenerationsReached) // the generation counts
		}
		o.stop(fired)
		return nil
	}
	if k == lambda {
		// The whole generation: Tell, with the values in candidate order.
		for j, i := range indices {
			b.fit[i] = fitness[j]
		}
		return o.tell(b.fit[:lambda])
	}
	// Rank the received values; idx holds candidate indices.
	copy(b.fit, fitness)
	valid := rank(b.idx[:k], b.fit[:k], &p.ranks)
	for j := range k {
		p.idx[j] = indices[b.idx[j]]
		p.fit[indices[j]] = fitness[j]
	}
	mu := max(1, k*o.par.Mu/lambda)
	w := b.weights[:mu]
	muEff := logWeightsInto(w)
	var neg []float64
	if o.cfg.Active {
		neg = b.neg[:k-mu]
		negativeWeightsInto(neg, k, mu, o.cfg.Dim, muEff, o.par.C1, o.par.CMu)
	}
	s := &p.sel
	s.idx, s.weights, s.negWeights, s.pathScale = p.idx[:k], w, neg, math.Sqrt(muEff/o.par.MuEff)
	err := o.tellRanked(k, valid)
	s.idx, s.weights, s.negWeights, s.pathScale = p.idx, o.par.Weights, o.par.NegWeights, 1
	return err
}
