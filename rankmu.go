package mmaes

import (
	"math"

	"github.com/mmaes-go/mmaes/kernel"
)

// Rank-μ update (Config.RankMu).
//
// The paper's MMA learns A from one direction per generation, the p-path
// (with v ≈ A⁻¹·p). With RankMu it also learns from the μ selected steps of
// the generation, as the rank-μ update of CMA-ES does:
//
//	A ← (1 − c1/2 − c_μ/2)·A + (c1/2)·p·vᵀ + (c_μ/2)·Σ_{i≤μ} w_i·y_{i:λ}·z_{i:λ}ᵀ,
//
// y_{i:λ} = A·z_{i:λ} the steps of the generation before the update. Since
// A·z·zᵀ·Aᵀ = y·yᵀ and A·v·pᵀ ≈ p·pᵀ, this is the first-order (in c1 and c_μ)
// square root of the CMA-ES covariance update
//
//	A·Aᵀ ≈ (1 − c1 − c_μ)·C + c1·p·pᵀ + c_μ·Σ w_i·y_{i:λ}·y_{i:λ}ᵀ,
//
// in the same way as the paper's rank-one rule is that of
// C ← (1 − c1)·C + c1·p·pᵀ, and it costs one pass over A for all μ + 1 terms
// (kernel.ScaleAddRankK), that is (μ+1)·n² multiply-adds instead of n².
//
// Parameters. The rates start from the defaults of CMA-ES with both updates
// (Hansen, "The CMA Evolution Strategy: A Tutorial", 2016, eqs. (57)–(58),
// α_cov = 2):
//
//	c1  = 2/((n + 1.3)² + μ_eff)
//	c_μ = min(1 − c1, 3·2·(μ_eff − 2 + 1/μ_eff)/((n + 2)² + μ_eff)).
//
// c1 replaces the paper's 2/(n + √2)², which is about the same for small
// μ_eff; the + μ_eff in its denominator makes the rank-one term give way to
// the rank-μ term as μ_eff grows (IPOP, BIPOP). c_μ is cmuFactor times the
// tutorial's value, capped at 1 − c1 so that the factor of A,
// 1 − c1/2 − c_μ/2, stays ≥ 1/2. The factor is measured, not derived: the
// tutorial's rates are tuned for CMA-ES with active CMA, which also learns
// from the λ − μ worst steps; this update learns only from the μ selected
// ones. docs/rank-mu.md has the measurements behind the factor and behind
// keeping the paper's path rates and damping. Config.C1 and Config.CMu
// override the two rates.

// rankMuC1 is CMA-ES's c1 with rank-μ.
func rankMuC1(n, muEff float64) float64 { return 2 / ((n+1.3)*(n+1.3) + muEff) }

// cmuFactor multiplies the tutorial's c_μ (see "Parameters" above).
const cmuFactor = 3

// rankMuCMu is the default c_μ: cmuFactor times CMA-ES's (α_cov = 2), at
// most 1 − c1.
func rankMuCMu(n, muEff, c1 float64) float64 {
	return min(1-c1, cmuFactor*2*(muEff-2+1/muEff)/((n+2)*(n+2)+muEff))
}

// activeC1 is pycma's c1 with the active update: CMA-ES's, smaller for
// λ < 6.
func activeC1(n, muEff float64, lambda int) float64 {
	return min(1, float64(lambda)/6) * 2 / ((n+1.3)*(n+1.3) + muEff)
}

// activeCMu is pycma's c_μ with the active update.
func activeCMu(n, muEff, c1 float64) float64 {
	return min(1-c1, 2*(0.25+muEff-2+1/muEff)/((n+2)*(n+2)+muEff))
}

// negativeWeights returns the weights of the λ − μ worst steps of the
// active update (see Params.NegWeights).
func negativeWeights(lambda, mu, n int, muEff, c1, cmu float64) []float64 {
	w := make([]float64, lambda-mu)
	negativeWeightsInto(w, lambda, mu, n, muEff, c1, cmu)
	return w
}

// negativeWeightsInto sets w (λ − μ of them) to the negative weights.
func negativeWeightsInto(w []float64, lambda, mu, n int, muEff, c1, cmu float64) {
	l := math.Log((float64(lambda) + 1) / 2)
	var sum, sum2 float64
	for k := range w {
		w[k] = min(0, l-math.Log(float64(mu+k+1)))
		sum += w[k]
		sum2 += w[k] * w[k]
	}
	if sum == 0 {
		return // λ = μ + 1 with odd λ: a single weight of 0
	}
	muEffNeg := sum * sum / sum2
	// At most 0 below: with c_μ = 1 − c1 the third bound is 0 and must
	// not round to a negative sum (positive weights for the worst).
	target := max(0, min(1+c1/cmu, 1+2*muEffNeg/(muEff+2), (1-c1-cmu)/(float64(n)*cmu)))
	for k := range w {
		w[k] *= target / -sum
	}
}

// rankMuBlocks are the gathered k×n blocks [p; y_{1:λ}; …; y_{k−1:λ}] and
// [v; z_{1:λ}; …; z_{k−1:λ}] of the rank-μ update (k = μ+1, or λ+1 with
// the active update) and their coefficients.
type rankMuBlocks struct {
	p, q, beta, normQ []float64
}

// size sizes the blocks for k−1 steps, allocating only when they grow.
func (rk *rankMuBlocks) size(n, steps int) {
	k := steps + 1
	if cap(rk.p) < k*n {
		rk.p = make([]float64, k*n)
		rk.q = make([]float64, k*n)
	}
	if cap(rk.beta) < k {
		rk.beta = make([]float64, k)
		rk.normQ = make([]float64, k)
	}
	rk.p, rk.q, rk.beta, rk.normQ = rk.p[:k*n], rk.q[:k*n], rk.beta[:k], rk.normQ[:k]
}

// rankMuAlpha returns the factor of A in the rank-μ update at rates c1
// and c_μ: 1 − c1/2 − (c_μ/2)·Σw (the positive weights sum to 1).
func (d *fullMatrix) rankMuAlpha(g *generation, c1, cmu float64) float64 {
	sumW := 1.0
	for _, w := range g.negWeights {
		sumW += w
	}
	return 1 - c1/2 - cmu/2*sumW
}

// rankMuBeta returns the coefficient of y_t·z_tᵀ, the t-th ranked step
// (‖z_t‖ = normQ), in the rank-μ update at rate c_μ.
func rankMuBeta(g *generation, t, n int, cmu, normQ float64) float64 {
	mu := len(g.weights)
	if t < mu {
		return cmu / 2 * g.weights[t]
	}
	if w := g.negWeights[t-mu]; w != 0 && normQ > 1e-150 {
		// w° = w·n/‖z‖²: a long z (an unlikely, far step) pulls no
		// harder than a typical one. (A step shorter than 1e-150, which
		// the generator all but never draws, is left out rather than
		// divided by ‖z‖² underflowing.)
		return cmu / 2 * w * float64(n) / (normQ * normQ)
	}
	return 0
}

// rankMuUpdate applies the rank-μ MMA update to A in one kernel call, with
// the committed paths p and v and the selected steps of the generation, and
// updates the row-norm bound of A (the row-i norm of a·bᵀ is |a_i|·‖b‖).
func (d *fullMatrix) rankMuUpdate(g *generation) {
	n, rk := d.n, &d.rk
	c1, cmu := d.c1*d.eta, d.cmu*d.eta
	steps := len(g.weights) + len(g.negWeights)
	alpha := d.rankMuAlpha(g, c1, cmu)
	copy(rk.p[:n], d.p)
	copy(rk.q[:n], d.v)
	rk.beta[0] = c1 / 2
	bound := alpha*d.rowA + c1/2*d.pInf*d.normV
	for t, i := range g.idx[:steps] {
		copy(rk.p[(t+1)*n:(t+2)*n], g.y[i*n:i*n+n])
		copy(rk.q[(t+1)*n:(t+2)*n], g.z[i*n:i*n+n])
	}
	// The steps' norms in one call (the bits of kernel.Norm of each).
	kernel.RowNorms(rk.normQ[1:steps+1], rk.q[n:(steps+1)*n], n)
	for t := range steps {
		normQ := rk.normQ[t+1]
		b := rankMuBeta(g, t, n, cmu, normQ)
		rk.beta[t+1] = b
		bound += math.Abs(b) * maxAbs(rk.p[(t+1)*n:(t+2)*n]) * normQ
	}
	d.flush() // no-op: rank-μ runs never leave a rank-one update pending
	// On Ã: s' = α·s/ρ and Ã ← ρ·Ã + Σ (β_t/s')·p_t·q_tᵀ.
	rho := d.advanceScale(alpha)
	for t := range rk.beta {
		rk.beta[t] /= d.scale
	}
	kernel.ScaleAddRankK(d.a, n, rho, rk.beta, rk.p, rk.q, steps+1)
	// Each entry sums steps+2 rounded terms: a relative slack of a few
	// units in the last place per term.
	d.rowA = bound * (boundSlack + float64(steps+2)*0x1p-50)
	if d.rowA != d.rowA {
		d.rowA = math.Inf(1) // a NaN row norm: force the rescan
	}
}
