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
// the rank-μ term as μ_eff grows (IPOP, BIPOP). c_μ is three times the
// tutorial's value (cmuFactor), capped at 1 − c1 so that the factor of A,
// 1 − c1/2 − c_μ/2, stays ≥ 1/2. The factor is measured, not derived: the
// tutorial's rates are tuned for CMA-ES as pycma runs it by default, with
// active CMA, which also learns from the λ − μ worst steps (negative
// weights); the update here learns only from the μ selected steps (positive
// weights). With the tutorial's c_μ the ellipsoid at n = 16 and 32 needs
// 1.30× and 1.26× pycma 4.4.0's median evaluations; with 3× it needs 1.03×
// and 1.01×, and over the paper's ten functions at n = 8 to 64 (21 seeds,
// rankmu_report_test.go) it saves 27–85% of the paper's evaluations on
// the ill-conditioned ones (ctb, ell, tab, dp, sch, ros; tx up to n = 32,
// 2% at n = 64) and costs at most 7% on the sphere, cigar and parabolic
// ridge (2× leaves the ellipsoid at n = 16 at 1.12× pycma's). The path
// rates (c, c_σ) and the damping d_σ stay the paper's: CMA-ES's c_c and
// c_σ, tried in their place, cost 0–8% more evaluations on the sphere,
// cigar and ellipsoid at n = 16, 32. Config.C1 and Config.CMu override the
// two rates.

// rankMuC1 is CMA-ES's c1 with rank-μ.
func rankMuC1(n, muEff float64) float64 { return 2 / ((n+1.3)*(n+1.3) + muEff) }

// cmuFactor multiplies the tutorial's c_μ (see "Parameters" above).
const cmuFactor = 3

// rankMuCMu is the default c_μ: cmuFactor times CMA-ES's (α_cov = 2), at
// most 1 − c1.
func rankMuCMu(n, muEff, c1 float64) float64 {
	return min(1-c1, cmuFactor*2*(muEff-2+1/muEff)/((n+2)*(n+2)+muEff))
}

// rankMuBuffers sizes the gather blocks of the rank-μ update for μ parents.
func (o *Optimizer) rankMuBuffers(mu int) {
	k, n := mu+1, o.n
	if cap(o.rkP) < k*n {
		o.rkP = make([]float64, k*n)
		o.rkQ = make([]float64, k*n)
	}
	if cap(o.rkBeta) < k {
		o.rkBeta = make([]float64, k)
	}
	o.rkP, o.rkQ, o.rkBeta = o.rkP[:k*n], o.rkQ[:k*n], o.rkBeta[:k]
}

// rankMuUpdate applies the rank-μ MMA update to A in one kernel call, with
// the committed paths p and v and the selected steps of the generation, and
// updates the row-norm bound of A (the row-i norm of a·bᵀ is |a_i|·‖b‖).
func (o *Optimizer) rankMuUpdate(pInf, normV float64) {
	n, par := o.n, &o.par
	c1, cmu := par.C1, par.CMu
	alpha := 1 - c1/2 - cmu/2
	copy(o.rkP[:n], o.p)
	copy(o.rkQ[:n], o.v)
	o.rkBeta[0] = c1 / 2
	bound := alpha*o.rowA + c1/2*pInf*normV
	for t, i := range o.idx[:o.mu] {
		pt := o.rkP[(t+1)*n : (t+2)*n]
		qt := o.rkQ[(t+1)*n : (t+2)*n]
		copy(pt, o.y[i*n:i*n+n])
		copy(qt, o.z[i*n:i*n+n])
		b := cmu / 2 * par.Weights[t]
		o.rkBeta[t+1] = b
		bound += b * maxAbs(pt) * kernel.Norm(qt)
	}
	o.flushA() // no-op: rank-μ runs never leave a rank-one update pending
	// On Ã (scale.go): s' = α·s/ρ and Ã ← ρ·Ã + Σ (β_t/s')·p_t·q_tᵀ.
	rho := o.advanceScale(alpha)
	for t := range o.rkBeta {
		o.rkBeta[t] /= o.aScale
	}
	kernel.ScaleAddRankK(o.a, n, rho, o.rkBeta, o.rkP, o.rkQ, o.mu+1)
	// Each entry sums μ+2 rounded terms: a relative slack of a few units
	// in the last place per term.
	o.rowA = bound * (boundSlack + float64(o.mu+2)*0x1p-50)
	if o.rowA != o.rowA {
		o.rowA = math.Inf(1) // a NaN row norm: force the rescan
	}
}
