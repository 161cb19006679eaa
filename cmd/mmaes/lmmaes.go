package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/mmaes-go/mmaes/kernel"
)

// lmmaes is the limited-memory matrix adaptation evolution strategy,
// LM-MA-ES, of
//
//	Ilya Loshchilov, Tobias Glasmachers and Hans-Georg Beyer, "Large Scale
//	Black-box Optimization by Limited-Memory Matrix Adaptation", IEEE
//	Transactions on Evolutionary Computation 23(2), 353–358, 2019
//	(arXiv:1705.06693),
//
// its Algorithm 1 with the paper's default parameters. The search
// distribution is N(m, σ²·M·Mᵀ) with the transformation M implicit in
// memory direction vectors M_1..M_m: a candidate is x = m + σ·d with
//
//	z ~ N(0, I),  d = z,  for j = 1..min(t, m): d ← (1 − c_d,j)·d + c_d,j·M_j·(M_jᵀ·d)
//
// at generation t = 0, 1, … (so generation t uses only the first min(t, m)
// vectors), and after ranking, with the μ best (weights w_i):
//
//	m   ← m + σ·Σ w_i·d_{i:λ}
//	p_σ ← (1 − c_σ)·p_σ + √(μ_w·c_σ·(2 − c_σ))·Σ w_i·z_{i:λ}
//	M_i ← (1 − c_c,i)·M_i + √(μ_w·c_c,i·(2 − c_c,i))·Σ w_i·z_{i:λ}   (i = 1..m)
//	σ   ← σ·exp(c_σ/2·(‖p_σ‖²/n − 1))
//
// with λ = 4 + ⌊3 ln n⌋, μ = ⌊λ/2⌋, w_i ∝ ln(μ + 1/2) − ln i,
// μ_w = 1/Σ w_i², m = 4 + ⌊3 ln n⌋, c_σ = 2λ/n, c_d,i = 1/(1.5^(i−1)·n),
// c_c,i = λ/(4^(i−1)·n); p_σ and every M_i start at 0.
//
// Where the sources differ: the weights are w_i ∝ ln(μ + 1/2) − ln i, as in
// MA-ES (Beyer & Sendhoff 2017, which Algorithm 1 builds on) and in the
// implementation of Müller & Glasmachers (NiMlr/High-Dim-ES-RL, by an author
// of the paper); pypop7 uses ln((λ+1)/2) − ln i, the same for even λ. The
// σ update is the paper's, exp(c_σ/2·(‖p_σ‖²/n − 1)) (pypop7 and
// High-Dim-ES-RL agree; the latter calls the 2 a damping d_σ). Where the
// paper's rates leave [0, 1] (n < 2λ) pypop7 substitutes 0.5; newLMMAES
// refuses such a configuration.
//
// Up to n = lmmaesDirectMaxDim the sampling is the recursion as written.
// Above, it is the same recursion computed in another order, for speed:
// d_c = s_c·z_c + Σ_j a_cj·M_j for each candidate c,
// where the scalars s_c and a_cj follow from the recursion in O(m²) once
// the projections M_jᵀz_c and the Gram matrix M_jᵀM_i are known; those
// and the final combination are computed in one pass over Z and M each,
// a block of coordinates at a time, so that the λ·m·n multiply-adds of
// each pass run from cache instead of streaming M from memory λ times
// (it costs m²·n/2 more multiply-adds for the Gram matrix). The result is
// the recursion's up to rounding (TestLMMAESSamplingMatchesRecursion).
type lmmaes struct {
	baselineProgress
	n, lambda, mu  int
	memory         int       // m, the number of direction vectors
	weights        []float64 // w_1..w_μ
	muEff          float64   // μ_w
	cSigma         float64   // c_σ
	sigmaPathScale float64   // √(μ_w·c_σ·(2 − c_σ))
	cd, cc         []float64 // c_d,i and c_c,i
	dirPathScale   []float64 // √(μ_w·c_c,i·(2 − c_c,i))

	mean, ps []float64
	dirs     []float64 // memory×n, row i is M_{i+1}
	sigma    float64
	rng      *rand.Rand

	z, d   []float64 // λ×n: the normal deviates and the directions
	x      []float64 // the candidate being evaluated
	fit    []float64
	order  []int
	zw, dw []float64
	gram   []float64 // memory×memory, lower triangle: M_jᵀM_i, i < j
	proj   []float64 // λ×memory: M_jᵀz_c
	coef   []float64 // λ×memory: a_cj
	zScale []float64 // λ: s_c
}

// lmmaesBlock is the number of coordinates the blocked sampling handles at
// a time: the blocks of M it reads for each candidate (m·lmmaesBlock
// floats, 304 KiB at n = 10⁵) stay in the L2 cache.
const lmmaesBlock = 1024

// lmmaesDirectMaxDim is the largest n sampled by the recursion itself:
// up to there M and the population (2·24·n floats at n = 1000) stay in
// the L2 cache anyway, and the recursion saves the Gram matrix's m²·n/2
// multiply-adds (BenchmarkLMMAESSampling, one core of an AVX2 EPYC: the
// recursion 177 µs against 240 µs blocked for a population at n = 1000,
// 4.9 against 5.1 ms at 10⁴, and blocked ahead at 10⁵: 67 ms against
// 125 ms).
const lmmaesDirectMaxDim = 4096

// newLMMAES returns an LM-MA-ES with the paper's m = 4 + ⌊3 ln n⌋ direction
// vectors.
func newLMMAES(cfg baselineConfig) (*lmmaes, error) {
	return newLMMAESMemory(cfg, defaultPopulation(len(cfg.Mean)))
}

// newLMMAESMemory returns an LM-MA-ES with memory direction vectors; with
// 0 it is the isotropic (μ/μ_w, λ)-ES with the same step-size control.
func newLMMAESMemory(cfg baselineConfig, memory int) (*lmmaes, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	n := len(cfg.Mean)
	lambda := cfg.Lambda
	if lambda == 0 {
		lambda = defaultPopulation(n)
	}
	if memory < 0 {
		return nil, fmt.Errorf("LM-MA-ES: %d direction vectors", memory)
	}
	o := &lmmaes{baselineProgress: newBaselineProgress(cfg), n: n, lambda: lambda, mu: lambda / 2, memory: memory}
	o.weights, o.muEff = logWeights(o.mu, float64(o.mu)+0.5)
	o.cSigma = 2 * float64(lambda) / float64(n)
	if o.cSigma > 1 {
		return nil, fmt.Errorf("LM-MA-ES: c_σ = 2λ/n = %.3g > 1: the paper's rates need n ≥ 2λ (n = %d, λ = %d)",
			o.cSigma, n, lambda)
	}
	o.sigmaPathScale = math.Sqrt(o.muEff * o.cSigma * (2 - o.cSigma))
	for i := 0; i < memory; i++ {
		cd := 1 / (math.Pow(1.5, float64(i)) * float64(n))
		cc := float64(lambda) / (math.Pow(4, float64(i)) * float64(n))
		o.cd = append(o.cd, cd)
		o.cc = append(o.cc, cc)
		o.dirPathScale = append(o.dirPathScale, math.Sqrt(o.muEff*cc*(2-cc)))
	}
	o.mean = append([]float64(nil), cfg.Mean...)
	o.ps = make([]float64, n)
	o.dirs = make([]float64, memory*n)
	o.sigma = cfg.Sigma
	o.rng = rand.New(rand.NewPCG(cfg.Seed, 0x6c6d6d616573)) // "lmmaes"
	o.z = make([]float64, lambda*n)
	o.d = make([]float64, lambda*n)
	o.x = make([]float64, n)
	o.fit = make([]float64, lambda)
	o.order = make([]int, lambda)
	o.zw = make([]float64, n)
	o.dw = make([]float64, n)
	o.gram = make([]float64, memory*memory)
	o.proj = make([]float64, lambda*memory)
	o.coef = make([]float64, lambda*memory)
	o.zScale = make([]float64, lambda)
	return o, nil
}

// run minimizes f until a stop and returns the result. f is called on one
// goroutine, with a slice it must not keep.
func (o *lmmaes) run(f func([]float64) float64) baselineResult {
	for o.reason == notStopped {
		o.generation(f)
	}
	return o.result(o.sigma)
}

// generation samples, evaluates and ranks one population and updates the
// distribution; it stops (o.reason) at the target, at the budget (the
// generation then ends without an update) or on a numerical failure. It
// allocates nothing.
func (o *lmmaes) generation(f func([]float64) float64) {
	n := o.n
	for i := range o.z {
		o.z[i] = o.rng.NormFloat64()
	}
	o.sampleDirections()
	for c := 0; c < o.lambda; c++ {
		kernel.AxpByTo(o.x, o.sigma, o.d[c*n:(c+1)*n], 1, o.mean)
		o.fit[c] = f(o.x)
		if o.observe(o.x, o.fit[c]) {
			return
		}
	}
	rankByFitness(o.order, o.fit)
	kernel.WeightedSum(o.zw, o.weights, o.z, n, o.order)
	kernel.WeightedSum(o.dw, o.weights, o.d, n, o.order)
	kernel.Axpy(o.sigma, o.dw, o.mean)
	kernel.AxpBy(o.sigmaPathScale, o.zw, 1-o.cSigma, o.ps)
	for i := 0; i < o.memory; i++ {
		kernel.AxpBy(o.dirPathScale[i], o.zw, 1-o.cc[i], o.dirs[i*n:(i+1)*n])
	}
	psSq := kernel.Dot(o.ps, o.ps)
	o.sigma *= math.Exp(o.cSigma / 2 * (psSq/float64(n) - 1))
	o.gen++
	if !(o.sigma > 0) || math.IsInf(o.sigma, 1) || math.IsNaN(psSq) || math.IsInf(psSq, 0) || !allFinite(o.mean) {
		o.reason = numericalFailure
	}
}

// sampleDirections sets the λ directions d_c (rows of o.d) from the
// deviates z_c (rows of o.z) by the recursion over the first
// k = min(t, m) direction vectors (see the type's comment for the order
// of computation).
func (o *lmmaes) sampleDirections() {
	n, lam := o.n, o.lambda
	k := min(o.gen, o.memory)
	if k == 0 {
		copy(o.d, o.z)
		return
	}
	if n <= lmmaesDirectMaxDim {
		copy(o.d, o.z)
		for c := 0; c < lam; c++ {
			dc := o.d[c*n : (c+1)*n]
			for j := 0; j < k; j++ {
				mj := o.dirs[j*n : (j+1)*n]
				kernel.AxpBy(o.cd[j]*kernel.Dot(mj, dc), mj, 1-o.cd[j], dc)
			}
		}
		return
	}
	o.sampleBlocked(k)
}

// sampleBlocked is sampleDirections for large n: the recursion carried
// out on the coefficients s_c and a_cj, with the projections, the Gram
// matrix and the combination computed a block of coordinates at a time.
func (o *lmmaes) sampleBlocked(k int) {
	n, lam := o.n, o.lambda
	gram := o.gram[:k*k]
	proj := o.proj[:lam*k]
	clear(gram)
	clear(proj)
	for lo := 0; lo < n; lo += lmmaesBlock {
		hi := min(n, lo+lmmaesBlock)
		for j := 1; j < k; j++ {
			mj := o.dirs[j*n+lo : j*n+hi]
			for i := 0; i < j; i++ {
				gram[j*k+i] += kernel.Dot(mj, o.dirs[i*n+lo:i*n+hi])
			}
		}
		for c := 0; c < lam; c++ {
			zc := o.z[c*n+lo : c*n+hi]
			for j := 0; j < k; j++ {
				proj[c*k+j] += kernel.Dot(zc, o.dirs[j*n+lo:j*n+hi])
			}
		}
	}
	// The recursion on the coefficients: d^(j) = s·z + Σ_{i<j} a_i·M_i, so
	// M_jᵀd^(j−1) = s·M_jᵀz + Σ_{i<j} a_i·M_jᵀM_i.
	for c := 0; c < lam; c++ {
		coef := o.coef[c*k : (c+1)*k]
		s := 1.0
		for j := 0; j < k; j++ {
			p := s * proj[c*k+j]
			for i := 0; i < j; i++ {
				p += coef[i] * gram[j*k+i]
			}
			keep := 1 - o.cd[j]
			s *= keep
			for i := 0; i < j; i++ {
				coef[i] *= keep
			}
			coef[j] = o.cd[j] * p
		}
		o.zScale[c] = s
	}
	for lo := 0; lo < n; lo += lmmaesBlock {
		hi := min(n, lo+lmmaesBlock)
		for c := 0; c < lam; c++ {
			coef := o.coef[c*k : (c+1)*k]
			dc := o.d[c*n+lo : c*n+hi]
			kernel.AxpByTo(dc, coef[0], o.dirs[lo:hi], o.zScale[c], o.z[c*n+lo:c*n+hi])
			for j := 1; j < k; j++ {
				kernel.Axpy(coef[j], o.dirs[j*n+lo:j*n+hi], dc)
			}
		}
	}
}
