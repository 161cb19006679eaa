package mmaes

import (
	"math"

	"github.com/mmaes-go/mmaes/kernel"
)

// stepSize is the step size σ and its cumulative adaptation (CSA), as in the
// paper's Algorithm 1:
//
//	s ← (1−c_σ)·s + √(c_σ(2−c_σ)μ_eff)·z_w
//	σ ← σ·exp(c_σ/d_σ·(‖s‖/E‖N(0,I)‖ − 1))
type stepSize struct {
	sigma   float64
	s, sNew []float64 // the path, and the proposed one

	// The rates of the run: c_σ, d_σ, E‖N(0,I)‖ and √(c_σ(2−c_σ)μ_eff).
	cSigma, dSigma, chiN, cs float64

	normSNew float64 // ‖sNew‖, set with sNew by advance
	sigmaNew float64 // the proposed σ
	logRatio float64 // ln(σ_new/σ) of the proposal
}

// stepSizeRates resolves c_σ, d_σ and E‖N(0,I)‖ of a run into p, whose μ_eff
// is set.
func stepSizeRates(cfg *Config, p *Params) error {
	nf := float64(cfg.Dim)
	sqMu := math.Sqrt(p.MuEff)
	var err error
	if p.CSigma, err = rate("CSigma", cfg.CSigma, sqMu/(math.Sqrt(nf)+sqMu), true); err != nil {
		return err
	}
	p.DSigma = cfg.DSigma
	if p.DSigma == 0 {
		p.DSigma = 1 + 2*max(0, math.Sqrt((p.MuEff-1)/(nf+1))-1) + p.CSigma
	}
	if !finite(p.DSigma) || p.DSigma <= 0 {
		return cfgErr("DSigma", "%g: must be finite and > 0 (or 0 for the default)", cfg.DSigma)
	}
	p.ChiN = math.Sqrt(nf) * (1 - 1/(4*nf) + 1/(21*nf*nf))
	return nil
}

func newStepSize(n int) stepSize {
	v := make([]float64, 2*n)
	return stepSize{s: v[:n:n], sNew: v[n:]}
}

// setParams takes the rates of a run.
func (st *stepSize) setParams(par *Params) {
	st.cSigma, st.dSigma, st.chiN = par.CSigma, par.DSigma, par.ChiN
	st.cs = math.Sqrt(par.CSigma * (2 - par.CSigma) * par.MuEff)
}

// reset starts a run with step size sigma and a zero path.
func (st *stepSize) reset(sigma float64) {
	st.sigma = sigma
	clear(st.s)
}

// advance computes the new path from z_w, its normalization times scale,
// (1 for a whole generation; see generation.pathScale) and its norm.
func (st *stepSize) advance(zw []float64, scale float64) {
	st.normSNew = kernel.AxpByToNorm(st.sNew, 1-st.cSigma, st.s, st.cs*scale, zw)
}

// propose computes the new σ from the new path (advance) and reports
// whether both are finite (and σ > 0).
func (st *stepSize) propose() bool {
	normS := st.normSNew
	st.logRatio = st.cSigma / st.dSigma * (normS/st.chiN - 1)
	st.sigmaNew = st.sigma * math.Exp(st.logRatio)
	return finite(normS) && finite(st.sigmaNew) && st.sigmaNew > 0
}

// scaleProposal takes the proposed change of σ at the rate η (in log) and
// multiplies the result by f; it reports whether σ stays finite and > 0.
func (st *stepSize) scaleProposal(eta, f float64) bool {
	st.sigmaNew = st.sigma * math.Exp(eta*st.logRatio) * f
	return finite(st.sigmaNew) && st.sigmaNew > 0
}

// commit makes the proposal current.
func (st *stepSize) commit() {
	st.s, st.sNew = st.sNew, st.s
	st.sigma = st.sigmaNew
}

// bound raises σ so that σ·minRow ≥ minStd, then lowers it so that
// σ·maxRow ≤ maxStd (Config.MinStd, MaxStd; 0: off), minRow and maxRow the
// exact extreme row norms of A. A bound σ cannot meet with a finite value
// leaves it.
func (st *stepSize) bound(minStd, maxStd, minRow, maxRow float64) {
	if minStd > 0 && st.sigma*minRow < minStd {
		if s := minStd / minRow; finite(s) {
			st.sigma = s
		}
	}
	if maxStd > 0 && st.sigma*maxRow > maxStd {
		if s := maxStd / maxRow; s > 0 {
			st.sigma = s
		}
	}
}

// checkStdBounds validates MinStd and MaxStd.
func checkStdBounds(cfg *Config, _ *Params) error {
	if !finite(cfg.MinStd) || cfg.MinStd < 0 {
		return cfgErr("MinStd", "%g: must be finite and ≥ 0 (0: off)", cfg.MinStd)
	}
	if !finite(cfg.MaxStd) || cfg.MaxStd < 0 {
		return cfgErr("MaxStd", "%g: must be finite and ≥ 0 (0: off)", cfg.MaxStd)
	}
	if cfg.MaxStd > 0 && cfg.MinStd > cfg.MaxStd {
		return cfgErr("MinStd", "%g: above MaxStd = %g", cfg.MinStd, cfg.MaxStd)
	}
	return nil
}

func (st *stepSize) encode(e *encoder) {
	e.f64(st.sigma)
	e.floats(st.s)
}

func (st *stepSize) decode(d *decoder, live bool) error {
	st.sigma = d.f64()
	d.floats(st.s)
	if d.err == nil && live && (!finite(st.sigma) || st.sigma <= 0 || !allFinite(st.s)) {
		return ckErr("live run with a non-finite step size or path")
	}
	return d.err
}
