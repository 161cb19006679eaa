package mmaes

import (
	"math"

	"github.com/mmaes-go/mmaes/kernel"
)

// fullMatrix is the distribution of the paper's three rules (MMA, ECMA,
// Cholesky), optionally with the rank-μ term (MMA only): A is a dense n×n
// row-major matrix, learnt from two evolution paths,
//
//	p ← (1−c)·p + √(c(2−c)μ_eff)·y_w   (in the space of the steps y = A·z)
//	v ← (1−c)·v + √(c(2−c)μ_eff)·z_w   (in the space of z: v ≈ A⁻¹·p)
//
// and one rank-one update a generation, A ← α·A + β·p·qᵀ with the rule's α,
// β and q (v, or u = A_inv·p for Cholesky).
//
// A is held as s·Ã (see advanceScale): the update's factor α goes into the
// scalar s, so the pass over A adds the rank-one term with one multiply-add
// per entry. The update is not applied when it is made: commit records it,
// and the next sample applies it in the same pass over Ã as the sampling
// (kernel.UpdateMulVecsWork); whatever reads A before that calls flush,
// which applies it alone, with the same bits.
type fullMatrix struct {
	threads *rowThreads // splits sample over goroutines; nil: one
	n       int
	rule    Update
	rankMu  bool
	s0      []float64 // the initial diagonal of A (Config.Scales); nil: I
	eta     float64   // the rate of the rank-μ update (1 but with Config.Noise)

	// The rates of the run: c (paths), √(c(2−c)μ_eff), c1, c_μ.
	c, cp, c1, cmu float64

	a     []float64 // Ã, n×n row-major
	scale float64   // s in A = s·Ã, in [aScaleMin, 1]
	ainv  []float64 // A_inv (Cholesky only), n×n row-major
	p, v  []float64

	// The pending rank-one update Ã ← pendAlpha·Ã + pendBeta·p·pendQᵀ
	// (pendAlpha is 1 but for an exact rescaling of Ã).
	pend                bool
	pendAlpha, pendBeta float64
	pendQ               []float64 // v, or u for Cholesky

	// Upper bounds of the largest row norm of A and A_inv, exact after a
	// scan (rownorms.go).
	rowA, rowAInv float64

	// The proposal of propose, applied by commit: the new paths, the
	// coefficients of the rank-one update of A (α, β, q, ‖q‖) and of
	// A_inv, max_i |p_i| and ‖v‖.
	pNew, vNew         []float64
	alpha, beta        float64
	q                  []float64
	normQ, pInf, normV float64
	invAlpha, invBeta  float64
	normW              float64

	// Scratch: u = A_inv·p and w = uᵀ·A_inv (Cholesky), the row norms of a
	// scan, the sampling kernel's work space (kernel.WorkLen, for λ), the
	// rank-μ blocks and the copy of A that matrix returns (allocated on
	// its first call).
	u, w  []float64
	norms []float64
	work  []float64
	rk    rankMuBlocks
	view  []float64
	lu    []float64 // solve's copy of Ã (allocated on its first call)
	axes  []float64 // NoEffect's axes and scratch (n² + n), with Config.NoEffect

	// NoEffect's reference, its last decomposition (noEffectRef), and the
	// decompositions it spared (axesSkips); for the tests, whether it is
	// not used (axesAlways).
	axesRef    noEffectRef
	axesSkips  int
	axesAlways bool

	// The arguments of the kernel calls of proposeStep and samplePlace.
	stepState kernel.StepState
	stepRates kernel.StepRates
	rankOne   kernel.RankOne
	place     placement // samplePlaceSplit's, for the pool's job

	// scanned says norms holds the row norms of Ã from a scan made since
	// the last change of A (stdDevs then reads them instead of A).
	scanned bool
}

// newFullMatrix allocates a full-matrix distribution of dimension n; its
// rates and λ-sized buffers come with setParams.
func newFullMatrix(n int, rule Update, rankMu bool, scales []float64, noEffect bool) *fullMatrix {
	d := &fullMatrix{n: n, rule: rule, rankMu: rankMu, eta: 1}
	if noEffect {
		d.axes = make([]float64, n*n+n)
		d.axesRef = newNoEffectRef(n)
	}
	if scales != nil {
		d.s0 = append([]float64(nil), scales...)
	}
	vec := make([]float64, 7*n)
	next := func() []float64 {
		v := vec[:n:n]
		vec = vec[n:]
		return v
	}
	d.p, d.v, d.pNew, d.vNew = next(), next(), next(), next()
	d.u, d.w, d.norms = next(), next(), next()
	d.a = make([]float64, n*n)
	if rule == Cholesky {
		d.ainv = make([]float64, n*n)
	}
	d.scale, d.rowA, d.rowAInv = 1, 1, 1
	return d
}

// checkFullMatrix validates the options of the full-matrix rules: RankMu
// only with MMA, CMu and Active only with RankMu, CMu in range.
func checkFullMatrix(cfg *Config) error {
	if cfg.RankMu && cfg.Update != MMA {
		return cfgErr("RankMu", "only for the MMA update, not %v", cfg.Update)
	}
	if cfg.Active && !cfg.RankMu {
		return cfgErr("Active", "set without RankMu")
	}
	if cfg.CMu != 0 && !cfg.RankMu {
		return cfgErr("CMu", "%g: set without RankMu", cfg.CMu)
	}
	if !finite(cfg.CMu) || cfg.CMu < 0 || cfg.CMu >= 1 {
		return cfgErr("CMu", "%g: must be in (0, 1) (or 0 for the default)", cfg.CMu)
	}
	return nil
}

// fullMatrixRates resolves c (4/(n+4)), c1 (the paper's 2/(n+√2)², or
// CMA-ES's with rank-μ) and c_μ (rank-μ only).
func fullMatrixRates(cfg *Config, p *Params) error {
	nf := float64(cfg.Dim)
	var err error
	if p.C, err = rate("C", cfg.C, 4/(nf+4), true); err != nil {
		return err
	}
	c1 := 2 / ((nf + math.Sqrt2) * (nf + math.Sqrt2))
	switch {
	case cfg.Active:
		c1 = activeC1(nf, p.MuEff, p.Lambda)
	case cfg.RankMu:
		c1 = rankMuC1(nf, p.MuEff)
	}
	if p.C1, err = rate("C1", cfg.C1, c1, false); err != nil {
		return err
	}
	if cfg.RankMu {
		p.CMu = cfg.CMu
		if p.CMu == 0 {
			p.CMu = rankMuCMu(nf, p.MuEff, p.C1)
			if cfg.Active {
				p.CMu = activeCMu(nf, p.MuEff, p.C1)
			}
		}
		if !(p.C1+p.CMu <= 1) {
			return cfgErr("CMu", "%g: c1 + c_μ = %g must be ≤ 1", cfg.CMu, p.C1+p.CMu)
		}
	}
	if cfg.Active {
		p.NegWeights = negativeWeights(p.Lambda, p.Mu, cfg.Dim, p.MuEff, p.C1, p.CMu)
	}
	return nil
}

func (d *fullMatrix) setParams(par *Params, lambda int) {
	d.c, d.c1, d.cmu = par.C, par.C1, par.CMu
	d.cp = math.Sqrt(par.C * (2 - par.C) * par.MuEff)
	if w := kernel.WorkLen(d.n, lambda); len(d.work) < w {
		d.work = make([]float64, w)
	}
	if d.threads != nil {
		d.threads.size(d.n, lambda)
	}
	if d.rankMu {
		d.rk.size(d.n, par.Mu+len(par.NegWeights))
	}
}

func (d *fullMatrix) reset() {
	n := d.n
	d.scanned = false
	d.pend = false
	d.scale = 1
	clear(d.a)
	clear(d.ainv)
	d.rowA, d.rowAInv = 1, 1
	if d.s0 != nil {
		d.rowA, d.rowAInv = 0, 0
	}
	for i := 0; i < n; i++ {
		s := 1.0
		if d.s0 != nil {
			s = d.s0[i]
			d.rowA, d.rowAInv = max(d.rowA, s), max(d.rowAInv, 1/s)
		}
		d.a[i*n+i] = s
		if d.ainv != nil {
			d.ainv[i*n+i] = 1 / s
		}
	}
	clear(d.p)
	clear(d.v)
}

func (d *fullMatrix) setThreads(t *rowThreads, lambda int) {
	d.threads = t
	if t != nil {
		t.size(d.n, lambda)
	}
}

// drawsAhead reports whether the sampling splits (from threadMinN), so
// that the pool draws the next generation's deviates.
func (d *fullMatrix) drawsAhead(lambda int) bool { return d.samplingSplits(lambda) }

// samplingSplits reports whether this generation's sampling splits: from
// threadMinN, every generation.
func (d *fullMatrix) samplingSplits(int) bool { return d.n >= threadMinN }

// splitsInOneCall reports true: the sampling is one call of the pool
// (rowThreads.sample), with the pending update.
func (d *fullMatrix) splitsInOneCall() bool { return true }

// sample computes Ã·z_i for the population with one kernel call, applying
// the pending update in the same pass, and scales the results by s.
func (d *fullMatrix) sample(y, z []float64, k int) {
	if s := d.sampleUnscaled(y, z, k); s != 1 {
		kernel.Scale(s, y[:k*d.n])
	}
}

// sampleUnscaled is sample without the scaling by s, which it returns.
func (d *fullMatrix) sampleUnscaled(y, z []float64, k int) (s float64) {
	n := d.n
	if split, _ := d.sampleSplit(y, z, k, nil); split {
		return d.scale
	}
	if d.pend {
		kernel.UpdateMulVecsWork(y, d.a, n, d.pendAlpha, d.pendBeta, d.p, d.pendQ, z, k, d.work)
		d.pend = false
	} else {
		kernel.MulVecsWork(y, d.a, n, z, k, d.work)
	}
	return d.scale
}

// sampleSplit is sampleUnscaled over the pool, with pl each range placing
// its rows of the candidates (rowThreads.sample); it reports whether the
// sampling split (else it computed nothing) and whether the placed
// candidates are finite.
func (d *fullMatrix) sampleSplit(y, z []float64, k int, pl *placement) (split, finite bool) {
	if d.threads == nil {
		return false, false
	}
	if d.pend {
		split, finite = d.threads.sample(true, y, d.a, d.n, d.pendAlpha, d.pendBeta, d.p, d.pendQ, z, k, pl)
		if split {
			d.pend = false
		}
		return split, finite
	}
	return d.threads.sample(false, y, d.a, d.n, 0, 0, nil, nil, z, k, pl)
}

// samplePlaceSplit is sampleSplit with the placement x_i = m + σ·s·y_i,
// y_i ← s·y_i (the bits of sampleUnscaled and population.place).
func (d *fullMatrix) samplePlaceSplit(x, y, z []float64, k int, m []float64, sigma float64) (split, finite bool) {
	d.place = placement{x: x, m: m, sigma: sigma, s: d.scale}
	split, finite = d.sampleSplit(y, z, k, &d.place)
	d.place = placement{}
	return split, finite
}

// samplePlace is sampleUnscaled (one goroutine) and the placement of the
// candidates, x_i = m + σ·s·y_i with y_i ← s·y_i, in one kernel call
// (kernel.SamplePlace: the bits of sampleUnscaled and population.place);
// it reports whether every x_i is finite.
func (d *fullMatrix) samplePlace(x, y, z []float64, k int, m []float64, sigma float64) bool {
	var u *kernel.RankOne
	if d.pend {
		// Set field by field: a literal is built on the stack and
		// copied whole.
		u = &d.rankOne
		u.Alpha, u.Beta, u.P, u.V = d.pendAlpha, d.pendBeta, d.p, d.pendQ
		d.pend = false
	}
	return kernel.SamplePlace(x, y, d.a, d.n, z, k, u, d.work, d.scale, sigma, m)
}

// propose computes the new paths and the coefficients of the rule's
// rank-one update: MMA α = 1 − c1/2, β = c1/2, q = v; ECMA α = √(1−c1),
// β = ecmaCoef(c1, ‖v‖), q = v; Cholesky the same with q = u = A_inv·p and
// the coefficients of the A_inv update.
func (d *fullMatrix) propose(g *generation) bool {
	cp := d.cp * g.pathScale
	d.normV = kernel.AxpByToNorm(d.vNew, 1-d.c, d.v, cp, g.zw) // path and ‖v‖ in one pass
	path(d.pNew, d.p, 1-d.c, cp, g.yw)
	d.pInf = maxAbs(d.pNew)
	if !finite(d.pInf) || !finite(d.normV) {
		return false
	}
	return d.proposeRule()
}

// proposeStep is the optimizer's recombination, its new mean and σ's path
// and propose in one kernel call (kernel.RecombineStep, the same bits as
// population.recombine, the mean's step, stepSize.advance and the paths of
// propose), then propose's coefficients and st.propose. It reports whether
// all is finite, as their calls in turn would.
func (d *fullMatrix) proposeStep(g *generation, st *stepSize, m, mNew []float64, sigma float64) bool {
	// Kept in d and set field by field: a StepState built on the stack
	// is cleared and copied whole first.
	ks, kr := &d.stepState, &d.stepRates
	ks.M, ks.S, ks.V, ks.P = m, st.s, d.v, d.p
	ks.MNew, ks.SNew, ks.VNew, ks.PNew = mNew, st.sNew, d.vNew, d.pNew
	ks.YW, ks.ZW = g.yw, g.zw
	kr.Sigma, kr.DecayS, kr.RateS, kr.Decay, kr.Rate = sigma, 1-st.cSigma, st.cs*g.pathScale, 1-d.c, d.cp*g.pathScale
	var meanFinite bool
	st.normSNew, d.normV, d.pInf, meanFinite = kernel.RecombineStep(ks, kr, g.y, g.z, g.weights, g.idx)
	if !meanFinite || !finite(d.pInf) || !finite(d.normV) {
		return false
	}
	return d.proposeRule() && st.propose()
}

// proposeRule computes the coefficients of the rule's rank-one update from
// the proposed paths (and, for Cholesky, u and w).
func (d *fullMatrix) proposeRule() bool {
	n := d.n
	c1 := d.c1
	d.q, d.normQ = d.vNew, d.normV
	switch d.rule {
	case MMA:
		d.alpha, d.beta = 1-c1/2, c1/2
	case ECMA:
		d.alpha, d.beta = math.Sqrt(1-c1), ecmaCoef(c1, d.normV)
	case Cholesky:
		// u = A_inv·p and w = uᵀ·A_inv, both with the old A_inv.
		kernel.MulVec(d.u, d.ainv, n, d.pNew)
		normU := kernel.Norm(d.u)
		if !finite(normU) {
			return false
		}
		kernel.MulVecTrans(d.w, d.ainv, n, d.u)
		d.normW = kernel.Norm(d.w)
		if !finite(d.normW) {
			return false
		}
		d.alpha, d.beta = math.Sqrt(1-c1), ecmaCoef(c1, normU)
		d.q, d.normQ = d.u, normU
		d.invAlpha, d.invBeta = invCoef(c1, normU)
	}
	return true
}

// localUpdate writes the proposed update of A in A's own coordinates,
// M = A⁻¹·A_new, into dst (n×n): αI + β·q·qᵀ (A⁻¹·p taken as v, as the MMA
// update assumes; for Cholesky q = u = A_inv·p), with rank-μ also
// Σ β_t·z_t·z_tᵀ (A⁻¹·y_t = z_t). It is symmetric.
func (d *fullMatrix) localUpdate(g *generation, dst []float64) {
	n := d.n
	alpha, beta, q := d.alpha, d.beta, d.q
	if d.rankMu {
		alpha, beta, q = d.rankMuAlpha(g, d.c1, d.cmu), d.c1/2, d.vNew
	}
	for i := 0; i < n; i++ {
		row := dst[i*n : i*n+n]
		kernel.AxpByTo(row, beta*q[i], q, 0, row)
		row[i] += alpha
	}
	if d.rankMu {
		for t, i := range g.idx[:len(g.weights)+len(g.negWeights)] {
			z := g.z[i*n : i*n+n]
			b := rankMuBeta(g, t, n, d.cmu, kernel.Norm(z))
			if b == 0 {
				continue
			}
			for r := 0; r < n; r++ {
				kernel.Axpy(b*z[r], z, dst[r*n:r*n+n])
			}
		}
	}
}

// scaleProposal takes the proposed update at the rate η ∈ (0, 1]:
// A·(I + η·(M − I)), the rule's coefficients interpolated towards the
// identity (and those of A_inv the exact inverse of the interpolated
// update, for Cholesky).
func (d *fullMatrix) scaleProposal(eta float64) {
	d.eta = eta
	if d.rankMu {
		return // rankMuUpdate scales c1 and c_μ
	}
	d.alpha, d.beta = 1-eta*(1-d.alpha), eta*d.beta
	if d.rule == Cholesky {
		a, b, u2 := d.alpha, d.beta, d.normQ*d.normQ
		d.invAlpha, d.invBeta = 1/a, -b/(a*(a+b*u2))
	}
}

// commit makes the proposed paths current and records the update of A (or,
// with rank-μ, applies it), applies the update of A_inv, and rebalances.
func (d *fullMatrix) commit(g *generation, sigma float64) int {
	d.scanned = false
	if d.rule == Cholesky {
		kernel.ScaleAddOuter(d.ainv, d.n, d.invAlpha, d.invBeta, d.u, d.w)
		d.rowAInv = (d.invAlpha*d.rowAInv + math.Abs(d.invBeta)*maxAbs(d.u)*d.normW) * boundSlack
	}
	d.p, d.pNew = d.pNew, d.p
	d.v, d.vNew = d.vNew, d.v
	if d.rankMu {
		d.rankMuUpdate(g) // MMA with the rank-μ term, applied at once
	} else {
		// Applied by the next sample (or by flush), to Ã:
		// s·Ã ← α·s·Ã + β·p·qᵀ is s' = α·s/ρ and Ã ← ρ·Ã + (β/s')·p·qᵀ.
		rho := d.advanceScale(d.alpha)
		d.pend, d.pendAlpha, d.pendBeta, d.pendQ = true, rho, d.beta/d.scale, d.q
		d.rowA = (d.alpha*d.rowA + math.Abs(d.beta)*d.pInf*d.normQ) * boundSlack
	}
	return d.rebalance(sigma)
}

// rebalance multiplies A by 2^k so that its largest row norm is near 1, with
// p (in the space of A·z) and the row bound, and A_inv by 2^−k; all exact
// (powers of two), so the run goes on as it would have, σ·A unchanged.
func (d *fullMatrix) rebalance(sigma float64) int {
	if !(d.rowA > 0 && d.rowA < boundLimit) {
		return 0 // a scan decides first
	}
	if d.rowA >= rebalanceLow && d.rowA < rebalanceHigh {
		return 0 // the common case, without taking the exponent apart
	}
	e := math.Ilogb(d.rowA)
	if e >= -rebalanceExp && e <= rebalanceExp {
		return 0
	}
	k := rebalanceLimit(-e, sigma)
	if k == 0 {
		return 0
	}
	d.flush()
	f := math.Ldexp(1, k)
	kernel.Scale(f, d.a)
	kernel.Scale(f, d.p)
	d.rowA = math.Ldexp(d.rowA, k)
	if d.ainv != nil {
		kernel.Scale(1/f, d.ainv)
		d.rowAInv = math.Ldexp(d.rowAInv, -k)
	}
	return k
}

func (d *fullMatrix) flush() {
	if d.pend {
		kernel.ScaleAddOuter(d.a, d.n, d.pendAlpha, d.pendBeta, d.p, d.pendQ)
		d.pend = false
	}
}

// matrix returns s·Ã in a copy the distribution keeps (allocated on the
// first call).
func (d *fullMatrix) matrix() []float64 {
	d.flush()
	if len(d.view) != len(d.a) {
		d.view = make([]float64, len(d.a))
	}
	copy(d.view, d.a)
	kernel.Scale(d.scale, d.view)
	return d.view
}

func (d *fullMatrix) inverse() []float64      { return d.ainv }
func (d *fullMatrix) paths() (p, v []float64) { return d.p, d.v }

// encode writes s, the row bounds, p, v, Ã and A_inv (Cholesky). A pending
// update is applied first (flush: the same bits as the next sampling
// would give).
func (d *fullMatrix) encode(e *encoder) {
	d.flush()
	e.f64(d.scale)
	e.f64(d.rowA)
	e.f64(d.rowAInv)
	e.floats(d.p)
	e.floats(d.v)
	e.floats(d.a)
	e.floats(d.ainv)
}

func (d *fullMatrix) decode(r *decoder, live bool) error {
	d.pend, d.scanned = false, false
	d.scale = r.f64()
	d.rowA, d.rowAInv = r.f64(), r.f64()
	r.floats(d.p)
	r.floats(d.v)
	r.floats(d.a)
	r.floats(d.ainv)
	if r.err != nil {
		return r.err
	}
	return d.validate(live)
}

// validate checks a decoded state: for a live run s in [aScaleMin, 1],
// finite paths and matrices, and row bounds that bound the rows (the stop
// tests trust them).
func (d *fullMatrix) validate(live bool) error {
	if !live {
		return nil
	}
	if !allFinite(d.p) || !allFinite(d.v) || !allFinite(d.a) || !allFinite(d.ainv) ||
		!(d.scale >= aScaleMin && d.scale <= 1) || !(d.rowA >= 0) || !(d.rowAInv >= 0) {
		return ckErr("live run with a non-finite state")
	}
	const slack = 1 - 1e-12 // the rounding of the norms
	if maxRow, _ := rowNorms(d.a, d.n); !(d.rowA >= maxRow*d.scale*slack) {
		return ckErr("row bound of A below its rows")
	}
	if d.ainv != nil {
		if maxRow, _ := rowNorms(d.ainv, d.n); !(d.rowAInv >= maxRow*slack) {
			return ckErr("row bound of A_inv below its rows")
		}
	}
	return nil
}

// boundSlack covers the rounding of one rank-one update in the row-norm
// bounds (a few units in the last place of each term).
const boundSlack = 1 + 1e-14

// ecmaCoef returns the coefficient of p·qᵀ in the eCMA-ES and Cholesky
// updates,
//
//	b = √(1−c1)/‖q‖²·(√(1 + c1/(1−c1)·‖q‖²) − 1) = c1/(√(1−c1)·(√(1+x) + 1)),
//
// x = c1/(1−c1)·‖q‖², in the second form, which is the same value without
// the cancellation in √(1+x) − 1 and without dividing by ‖q‖²: at q = 0 it
// is the limit c1/(2√(1−c1)), and for ‖q‖² = +Inf it is 0.
func ecmaCoef(c1, normQ float64) float64 {
	x := c1 / (1 - c1) * normQ * normQ
	return c1 / (math.Sqrt(1-c1) * (math.Sqrt(1+x) + 1))
}

// invCoef returns the scale and rank-one coefficient of the A_inv update of
// the Cholesky CMA-ES:
//
//	1/√(1−c1)  and  1/(√(1−c1)·‖u‖²)·(1/√(1+x) − 1) = −c1/((1−c1)^{3/2}·√(1+x)·(√(1+x) + 1)),
//
// x = c1/(1−c1)·‖u‖², again in the cancellation-free second form (limit
// −c1/(2(1−c1)^{3/2}) at u = 0).
func invCoef(c1, normU float64) (alpha, beta float64) {
	x := c1 / (1 - c1) * normU * normU
	r := math.Sqrt(1 + x)
	sq := math.Sqrt(1 - c1)
	return 1 / sq, -c1 / ((1 - c1) * sq * r * (r + 1))
}

// solve sets z to A⁻¹·y by Gaussian elimination with partial pivoting on
// a copy of A (n² floats, allocated on the first call) and reports whether
// A was regular to working precision.
func (d *fullMatrix) solve(z, y []float64) bool {
	n := d.n
	d.flush()
	if len(d.lu) != n*n {
		d.lu = make([]float64, n*n)
	}
	lu := d.lu
	copy(lu, d.a)
	copy(z, y)
	for c := 0; c < n; c++ {
		p, big := c, math.Abs(lu[c*n+c])
		for r := c + 1; r < n; r++ {
			if v := math.Abs(lu[r*n+c]); v > big {
				p, big = r, v
			}
		}
		if !(big > 0) {
			return false
		}
		if p != c {
			for k := c; k < n; k++ {
				lu[c*n+k], lu[p*n+k] = lu[p*n+k], lu[c*n+k]
			}
			z[c], z[p] = z[p], z[c]
		}
		for r := c + 1; r < n; r++ {
			f := lu[r*n+c] / lu[c*n+c]
			if f != 0 {
				kernel.Axpy(-f, lu[c*n+c+1:c*n+n], lu[r*n+c+1:r*n+n])
				z[r] -= f * z[c]
			}
		}
	}
	for c := n - 1; c >= 0; c-- {
		s := z[c] - kernel.Dot(lu[c*n+c+1:c*n+n], z[c+1:])
		z[c] = s / lu[c*n+c]
	}
	// A = s·Ã: A⁻¹·y = Ã⁻¹·y / s.
	kernel.Scale(1/d.scale, z)
	return true
}
