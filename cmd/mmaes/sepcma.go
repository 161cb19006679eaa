package main

import (
	"math"
	"math/rand/v2"

	"github.com/mmaes-go/mmaes/kernel"
)

// sepCMA is sep-CMA-ES, the CMA-ES with a diagonal covariance matrix of
//
//	Raymond Ros and Nikolaus Hansen, "A Simple Modification in CMA-ES
//	Achieving Linear Time and Space Complexity", PPSN X, LNCS 5199,
//	296–305, 2008:
//
// CMA-ES whose covariance matrix is kept diagonal, C = diag(c_1..c_n), so
// that sampling and update cost O(n) per candidate, with the covariance
// learning rates multiplied by (n + 2)/3 (the diagonal has n, not
// n(n+1)/2, degrees of freedom to learn). With D = diag(√c_i), a
// generation samples z_k ~ N(0, I), y_k = D·z_k, x_k = m + σ·y_k, ranks,
// and with the μ best
//
//	m   ← m + σ·y_w,   y_w = Σ w_i·y_{i:λ},  z_w = Σ w_i·z_{i:λ}
//	p_σ ← (1 − c_σ)·p_σ + √(c_σ(2 − c_σ)μ_eff)·z_w           (C^(−1/2)·y_w = z_w)
//	p_c ← (1 − c_c)·p_c + h_σ·√(c_c(2 − c_c)μ_eff)·y_w
//	c_i ← (1 − c1 − cμ + (1 − h_σ)·c1·c_c(2 − c_c))·c_i + c1·p_c,i² + cμ·Σ w_j·y_{j:λ,i}²
//	σ   ← σ·exp(c_σ/d_σ·(‖p_σ‖/E‖N(0,I)‖ − 1))
//
// with h_σ = 1 when ‖p_σ‖/√(1 − (1 − c_σ)^(2(g+1))) < (1.4 + 2/(n+1))·E‖N(0,I)‖
// and 0 otherwise. The parameters are the defaults of CMA-ES in Hansen's
// tutorial (arXiv:1604.00772, its Table 1 with positive weights only):
//
//	λ = 4 + ⌊3 ln n⌋, μ = ⌊λ/2⌋, w_i ∝ ln((λ+1)/2) − ln i, μ_eff = 1/Σ w_i²,
//	c_σ = (μ_eff + 2)/(n + μ_eff + 5), d_σ = 1 + 2·max(0, √((μ_eff−1)/(n+1)) − 1) + c_σ,
//	c_c = (4 + μ_eff/n)/(n + 4 + 2μ_eff/n),
//	c1 = 2/((n+1.3)² + μ_eff), cμ = min(1 − c1, 2(μ_eff − 2 + 1/μ_eff)/((n+2)² + μ_eff)),
//
// and sep-CMA-ES's c1_sep = c1·(n+2)/3, cμ_sep = min(1 − c1_sep, cμ·(n+2)/3).
// Ros and Hansen state the modification for the single rate c_cov of the
// CMA-ES of their time (c_cov split into the rank-one and rank-μ parts by
// 1/μ_cov with μ_cov = μ_eff) and the older c_c = 4/(n+4),
// c_σ = (μ_eff+2)/(n+μ_eff+3); the tutorial's c1 and cμ are the same
// split with today's constants, so the factor (n+2)/3 applies to each.
// pycma's CMA_diagonal uses other, separately tuned rates (c1_sep =
// 1/(n + 2√n + μ_eff/n), …); this follows the paper's rule.
type sepCMA struct {
	baselineProgress
	n, lambda, mu      int
	weights            []float64
	muEff              float64
	cSigma, dSigma     float64
	cc, c1, cmu        float64
	chiN               float64 // E‖N(0, I)‖
	sigmaPathScale     float64 // √(c_σ(2 − c_σ)μ_eff)
	covPathScale       float64 // √(c_c(2 − c_c)μ_eff)
	mean, ps, pc       []float64
	variances, stdDevs []float64 // c_i and √c_i
	sigma              float64
	rng                *rand.Rand

	z, x   []float64 // λ×n: the deviates, and the candidate being evaluated (n)
	fit    []float64
	order  []int
	zw, yw []float64
	rankMu []float64 // Σ w_j·y_{j:λ,i}²
}

// newSepCMA returns a sep-CMA-ES with the defaults above.
func newSepCMA(cfg baselineConfig) (*sepCMA, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	n := len(cfg.Mean)
	lambda := cfg.Lambda
	if lambda == 0 {
		lambda = defaultPopulation(n)
	}
	o := &sepCMA{baselineProgress: newBaselineProgress(cfg), n: n, lambda: lambda, mu: lambda / 2}
	o.weights, o.muEff = logWeights(o.mu, float64(lambda+1)/2)
	fn, mueff := float64(n), o.muEff
	o.cSigma = (mueff + 2) / (fn + mueff + 5)
	o.dSigma = 1 + 2*max(0, math.Sqrt((mueff-1)/(fn+1))-1) + o.cSigma
	o.cc = (4 + mueff/fn) / (fn + 4 + 2*mueff/fn)
	c1 := 2 / ((fn+1.3)*(fn+1.3) + mueff)
	cmu := min(1-c1, 2*(mueff-2+1/mueff)/((fn+2)*(fn+2)+mueff))
	o.c1 = min(1, c1*(fn+2)/3)
	o.cmu = min(1-o.c1, cmu*(fn+2)/3)
	o.chiN = expectedNormChi(n)
	o.sigmaPathScale = math.Sqrt(o.cSigma * (2 - o.cSigma) * mueff)
	o.covPathScale = math.Sqrt(o.cc * (2 - o.cc) * mueff)
	o.mean = append([]float64(nil), cfg.Mean...)
	o.ps = make([]float64, n)
	o.pc = make([]float64, n)
	o.variances = filled1(n)
	o.stdDevs = filled1(n)
	o.sigma = cfg.Sigma
	o.rng = rand.New(rand.NewPCG(cfg.Seed, 0x736570636d61)) // "sepcma"
	o.z = make([]float64, lambda*n)
	o.x = make([]float64, n)
	o.fit = make([]float64, lambda)
	o.order = make([]int, lambda)
	o.zw = make([]float64, n)
	o.yw = make([]float64, n)
	o.rankMu = make([]float64, n)
	return o, nil
}

// filled1 returns n ones.
func filled1(n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = 1
	}
	return x
}

// run minimizes f until a stop and returns the result. f is called on one
// goroutine, with a slice it must not keep.
func (o *sepCMA) run(f func([]float64) float64) baselineResult {
	for o.reason == notStopped {
		o.generation(f)
	}
	return o.result(o.sigma)
}

// generation samples, evaluates and ranks one population and updates the
// distribution; it stops (o.reason) at the target, at the budget (the
// generation then ends without an update) or on a numerical failure. It
// allocates nothing.
func (o *sepCMA) generation(f func([]float64) float64) {
	n := o.n
	for i := range o.z {
		o.z[i] = o.rng.NormFloat64()
	}
	for k := 0; k < o.lambda; k++ {
		zk := o.z[k*n : (k+1)*n]
		for i := range o.x {
			o.x[i] = o.mean[i] + o.sigma*o.stdDevs[i]*zk[i]
		}
		o.fit[k] = f(o.x)
		if o.observe(o.x, o.fit[k]) {
			return
		}
	}
	rankByFitness(o.order, o.fit)
	kernel.WeightedSum(o.zw, o.weights, o.z, n, o.order)
	clear(o.rankMu)
	for j, w := range o.weights {
		zj := o.z[o.order[j]*n : (o.order[j]+1)*n]
		for i, v := range zj {
			y := o.stdDevs[i] * v
			o.rankMu[i] += w * y * y
		}
	}
	for i := range o.yw {
		o.yw[i] = o.stdDevs[i] * o.zw[i]
	}
	kernel.Axpy(o.sigma, o.yw, o.mean)
	kernel.AxpBy(o.sigmaPathScale, o.zw, 1-o.cSigma, o.ps)
	psNorm := kernel.Norm(o.ps)
	g := float64(o.gen + 1)
	hSigma := psNorm/math.Sqrt(1-math.Pow(1-o.cSigma, 2*g)) < (1.4+2/float64(n+1))*o.chiN
	keep := 1 - o.c1 - o.cmu
	if hSigma {
		kernel.AxpBy(o.covPathScale, o.yw, 1-o.cc, o.pc)
	} else {
		kernel.Scale(1-o.cc, o.pc)
		keep += o.c1 * o.cc * (2 - o.cc)
	}
	failed := false
	for i := range o.variances {
		c := keep*o.variances[i] + o.c1*o.pc[i]*o.pc[i] + o.cmu*o.rankMu[i]
		if !(c > 0) || math.IsInf(c, 1) {
			failed = true
		}
		o.variances[i] = c
		o.stdDevs[i] = math.Sqrt(c)
	}
	o.sigma *= math.Exp(o.cSigma / o.dSigma * (psNorm/o.chiN - 1))
	o.gen++
	if failed || !(o.sigma > 0) || math.IsInf(o.sigma, 1) || math.IsNaN(psNorm) || math.IsInf(psNorm, 0) || !allFinite(o.mean) {
		o.reason = numericalFailure
	}
}
