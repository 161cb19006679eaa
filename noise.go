package mmaes

import (
	"math"

	"github.com/mmaes-go/mmaes/kernel"
)

// Noise handling (Config.Noise) by learning-rate adaptation, as LRA-CMA-ES
// does (Nomura, Akimoto, Ono, GECCO 2023): on a noisy objective a
// generation's update is mostly noise, and a run with the full learning
// rates stops improving at about the noise level; averaging over more
// generations, with smaller rates, goes on. The rates follow the update's
// signal-to-noise ratio, estimated from the updates themselves, so no
// evaluation is spent on it.
//
// Each generation the full-rate update is computed as usual; in the local
// coordinates of the distribution (those of z, y = A·z) the mean moves by
// δ_m = z_w, and the covariance σ²·A·Aᵀ by δ_Σ = (s²·M·Mᵀ − I)/√2, s the
// proposed σ ratio and M = A⁻¹·A_new the local form of the matrix update
// (αI + β·v·vᵀ, plus the rank-μ terms Σ β_t·z_t·z_tᵀ, with A⁻¹·p ≈ v as the
// MMA update itself assumes; for Cholesky M uses u = A_inv·p). For each of
// the two (with β_m = 0.1, β_Σ = 0.03):
//
//	E ← (1−β)·E + β·δ,  V ← (1−β)·V + β·‖δ‖²
//	SNR = (‖E‖² − β/(2−β)·V) / (V − ‖E‖²)
//	η ← min(1, η·exp(min(γη, β)·clip(SNR/(α·η) − 1, −1, 1)))   (α = 1.4, γ = 0.1)
//
// and the update is applied at those rates: m ← m + η_m·σ·y_w, A ←
// A·(I + η_Σ·(M − I)) (the rule's coefficients interpolated towards the
// identity), σ ← σ·s^η_Σ, and σ is multiplied by η_m(before)/η_m(after),
// the step size being inversely proportional to the mean's rate on a
// quadratic. The paths keep their full rates. The cost is O(n³) a
// generation (M·Mᵀ) and 2n² floats, for the small n of tuned knobs.

// The constants of the learning-rate adaptation (LRA-CMA-ES's).
const (
	lraAlpha = 1.4
	lraBetaM = 0.1
	lraBetaS = 0.03
	lraGamma = 0.1
)

// noiseAdapt is the learning-rate adaptation's state.
type noiseAdapt struct {
	n          int
	etaM, etaS float64   // the rates of the mean and of the covariance
	em, es     []float64 // E of the mean (n) and of the covariance (n²)
	vm, vs     float64   // V of each
	m, g       []float64 // scratch: M and G, n×n each; m holds the next E_Σ after adapt
	emNext     []float64 // the next E_m (n), after adapt
	next       noiseRates
}

// noiseRates is a generation's proposed rates and averages, which commit
// makes current.
type noiseRates struct {
	etaM, etaS, vm, vs float64
	adapted            bool // the estimate was finite: the E's moved too
}

func newNoiseAdapt(n int) *noiseAdapt {
	buf := make([]float64, 2*n+3*n*n)
	g := &noiseAdapt{n: n, em: buf[:n:n], es: buf[n : n+n*n : n+n*n], m: buf[n+n*n : n+2*n*n : n+2*n*n],
		g: buf[n+2*n*n : n+3*n*n : n+3*n*n], emNext: buf[n+3*n*n:]}
	g.reset()
	return g
}

// noiseMemory returns the bytes Noise adds to a run of cfg.
func noiseMemory(cfg *Config) float64 {
	if !cfg.Noise {
		return 0
	}
	n := float64(cfg.Dim)
	return 8 * (2*n + 3*n*n)
}

// reset starts a run: rates 1, averages 0.
func (g *noiseAdapt) reset() {
	g.etaM, g.etaS = 1, 1
	clear(g.em)
	clear(g.es)
	g.vm, g.vs = 0, 0
}

// adapt proposes the rates (in g.next) from the generation's full-rate
// update: z_w, the local matrix update M (in g.m, symmetric) and the
// proposed σ ratio s. Nothing changes until commit; a non-finite estimate
// proposes the state as it is.
func (g *noiseAdapt) adapt(zw []float64, s float64) {
	n := g.n
	g.next = noiseRates{etaM: g.etaM, etaS: g.etaS, vm: g.vm, vs: g.vs}
	// The covariance's local update G = s²·M·Mᵀ − I (symmetric).
	s2 := s * s
	for i := 0; i < n; i++ {
		mi := g.m[i*n : i*n+n]
		for j := i; j < n; j++ {
			gij := s2 * kernel.Dot(mi, g.m[j*n:j*n+n])
			if i == j {
				gij--
			}
			g.g[i*n+j], g.g[j*n+i] = gij, gij
		}
	}
	normG := kernel.Dot(g.g, g.g)
	if !finite(normG) || !allFinite(zw) {
		return
	}
	nx := &g.next
	nx.adapted = true
	b := lraBetaS
	esNext := g.m // M is no longer needed
	copy(esNext, g.es)
	kernel.AxpBy(b/math.Sqrt2, g.g, 1-b, esNext)
	nx.vs = (1-b)*g.vs + b*normG/2
	nx.etaS = lraStep(g.etaS, b, kernel.Dot(esNext, esNext), nx.vs)

	b = lraBetaM
	copy(g.emNext, g.em)
	kernel.AxpBy(b, zw, 1-b, g.emNext)
	nx.vm = (1-b)*g.vm + b*kernel.Dot(zw, zw)
	nx.etaM = lraStep(g.etaM, b, kernel.Dot(g.emNext, g.emNext), nx.vm)
}

// commit makes the rates and averages adapt proposed current.
func (g *noiseAdapt) commit() {
	nx := &g.next
	g.etaM, g.etaS, g.vm, g.vs = nx.etaM, nx.etaS, nx.vm, nx.vs
	if nx.adapted {
		g.es, g.m = g.m, g.es
		copy(g.em, g.emNext)
	}
}

// lraStep returns the next rate from η, β and the averages ‖E‖², V.
func lraStep(eta, beta, e2, v float64) float64 {
	snr := (e2 - beta/(2-beta)*v) / (v - e2)
	x := snr/(lraAlpha*eta) - 1
	switch {
	case v-e2 <= 0 || x > 1: // (no spread: all signal)
		x = 1
	case x < -1:
		x = -1
	case x != x:
		return eta
	}
	return min(1, eta*math.Exp(min(lraGamma*eta, beta)*x))
}

// adaptRates adapts the learning rates to the generation's full-rate
// proposal and takes the proposal at them: the mean's step times η_m, A's
// and σ's updates at η_Σ, σ times η_m(before)/η_m(after). It reports
// whether σ stays finite and > 0; when not, the rates and averages are
// left as they were, as update leaves the rest of the state.
func (o *Optimizer) adaptRates() bool {
	p, g := &o.pop, o.noise
	o.dist.localUpdate(&p.sel, g.m)
	g.adapt(p.sel.zw, math.Exp(o.step.logRatio))
	etaM, etaS := g.next.etaM, g.next.etaS
	o.dist.scaleProposal(etaS)
	copy(o.mNew, o.m)
	kernel.Axpy(etaM*o.step.sigma, p.sel.yw, o.mNew)
	if o.inj != nil && o.inj.count > 0 {
		o.inj.meanShift(o.mNew, etaM*o.step.sigma, &p.sel, p.n)
	}
	f := g.etaM / etaM
	if f > 1 && o.box != nil {
		f = o.boxCompensation(f, etaS, g.g[:p.n])
	}
	if !o.step.scaleProposal(etaS, f) {
		return false
	}
	g.commit()
	return true
}

// With a box, the compensation of a falling η_m takes no coordinate's
// standard deviation σ·‖A_i‖ above noiseBoxStd of its box's width, and
// where one is above it already, lowers σ by at most the factor
// noiseBoxFloor a generation (docs/objectives.md, noise and a box).
const (
	noiseBoxStd   = 0.25
	noiseBoxFloor = 0.9
)

// boxCompensation returns the factor by which a falling η_m changes σ,
// f (> 1) as LRA-CMA-ES has it, cut so that no coordinate's standard
// deviation σ·‖A_i‖ ends above noiseBoxStd of its box's width, and not
// below noiseBoxFloor. The box maps ℝⁿ onto itself periodically: a
// deviation wider than the box samples copies of it, the selection sees
// little but their aliasing, the signal-to-noise ratio falls, η_m falls
// with it and the compensation would raise σ further, without end. etaS
// is the generation's η_Σ, rows scratch space of n.
func (o *Optimizer) boxCompensation(f, etaS float64, rows []float64) float64 {
	o.dist.stdDevs(rows)
	r := 0.0 // the largest ‖A_i‖ over its width
	for i, a := range rows {
		if w := o.box.hi[i] - o.box.lo[i]; w > 0 && w < math.Inf(1) { // not pinned, bounded
			r = max(r, a/w)
		}
	}
	sigma := o.step.sigma * math.Exp(etaS*o.step.logRatio) // σ before f
	if lim := noiseBoxStd / (sigma * r); lim < f {
		f = max(noiseBoxFloor, lim)
	}
	return f
}

func (g *noiseAdapt) encode(e *encoder) {
	e.f64(g.etaM)
	e.f64(g.etaS)
	e.f64(g.vm)
	e.f64(g.vs)
	e.floats(g.em)
	e.floats(g.es)
}

// decode reads the state: rates in (0, 1], finite averages.
func (g *noiseAdapt) decode(d *decoder) error {
	g.etaM, g.etaS, g.vm, g.vs = d.f64(), d.f64(), d.f64(), d.f64()
	d.floats(g.em)
	d.floats(g.es)
	if d.err != nil {
		return d.err
	}
	if !(g.etaM > 0 && g.etaM <= 1 && g.etaS > 0 && g.etaS <= 1) || !(g.vm >= 0) || !(g.vs >= 0) ||
		!finite(g.vm) || !finite(g.vs) || !allFinite(g.em) || !allFinite(g.es) {
		return ckErr("inconsistent noise-handling state")
	}
	return nil
}
