package mmaes

import (
	"math"
	"strconv"

	"github.com/mmaes-go/mmaes/kernel"
)

// Restart selects the restart strategy (Config.Restart).
//
// A run restarts when it stops on a local criterion: TolFun, TolX,
// MaxCondition, MaxGenerations (which counts the generations of each run),
// a numerical breakdown or a generation of NaN only, and, for a BIPOP
// small-population run, its budget. It does not restart on the global ones
// — TargetF, MaxEvals (which counts the evaluations of all runs together) —
// nor on cancellation, nor once the restarts allowed by Config.MaxRestarts
// are used up (then the last run's reason is the optimizer's) or the
// evaluations reach MaxEvals. For IPOP, MaxRestarts limits the restarts; for
// BIPOP, as in Hansen (2009), it limits the large-population runs (the
// doublings of λ), and the small runs in between are bounded by the budget
// rule (their evaluations stay below those of the large runs).
//
// Each restart begins from a fresh state: the initial mean Config.Mean (the
// same point every time, as pycma does with a fixed x0), σ = σ0 (or σ0·0.01^U
// for a BIPOP small run), A = I (and A_inv = I), all paths zero, an empty
// TolFun history and the parameters of the paper's table for the new λ (μ =
// ⌊λ/2⌋, or Config.Mu·λ/λ0 when Mu is set; Config.C, C1, CMu, CSigma, DSigma
// and TolFunHist, when set, apply to every run). The random numbers of a
// restart (BIPOP's U) and of every later run come from the optimizer's own
// generator, which is never reseeded: the whole sequence of runs is one seed
// stream, reproducible and saved by MarshalBinary with the restart counters.
// The best point and value, Evals and Generation are kept over all runs.
//
// The observer (Config.Observer) is called once per generation, after a
// restart that the generation triggered: then Restarts() has grown and
// Lambda(), Sigma(), Mean() are the new run's.
//
// Population buffers are allocated in New for λ0; a restart to a λ larger
// than every λ so far allocates the larger buffers (and each restart
// allocates the new recombination weights). Generations between restarts
// allocate nothing.
type Restart int

const (
	// NoRestart: a single run (the paper's algorithm).
	NoRestart Restart = iota
	// IPOP restarts with the population doubled each time: run k (k = 0
	// for the first) has λ_k = λ0·2^k (Auger and Hansen 2005).
	IPOP
	// BIPOP interlaces two regimes (Hansen 2009, as pycma 4.4.0 implements
	// it): large-population runs as in IPOP (the j-th has λ0·2^j, σ0), and
	// small-population runs with σ = σ0·0.01^U1 and λ = ⌊λ0·(λ_L/λ0)^(U2²)⌋,
	// U1, U2 uniform in [0, 1) drawn in that order from the optimizer's
	// generator and λ_L the λ of the last large run. The first run (λ0)
	// counts as a small one; after each run, the next is small while the
	// evaluations spent in small runs are fewer than those spent in large
	// runs, and large otherwise; when a large run is due and
	// Config.MaxRestarts large runs have been made, the optimization stops.
	// A small run also stops (and restarts) after ⌊Σevals_large/(2λ)⌋
	// generations (at least 1) when that is below Config.MaxGenerations.
	BIPOP

	numRestarts
)

// defaultMaxRestarts is the restart limit when Config.MaxRestarts is 0.
const defaultMaxRestarts = 9

// String returns "none", "IPOP" or "BIPOP".
func (r Restart) String() string {
	switch r {
	case NoRestart:
		return "none"
	case IPOP:
		return "IPOP"
	case BIPOP:
		return "BIPOP"
	}
	return "Restart(" + strconv.Itoa(int(r)) + ")"
}

// maxRestarts returns the resolved restart limit.
func maxRestarts(cfg *Config) int {
	switch {
	case cfg.Restart == NoRestart:
		return 0
	case cfg.MaxRestarts == 0:
		return defaultMaxRestarts
	}
	return cfg.MaxRestarts
}

// checkRestart validates Restart and MaxRestarts for the base population
// size λ0: the largest population, λ0·2^MaxRestarts, must fit.
func checkRestart(cfg *Config, lambda0 int) error {
	if cfg.Restart < 0 || cfg.Restart >= numRestarts {
		return cfgErr("Restart", "%d: unknown restart strategy", int(cfg.Restart))
	}
	if cfg.MaxRestarts < 0 {
		return cfgErr("MaxRestarts", "%d: must be ≥ 0 (0: %d)", cfg.MaxRestarts, defaultMaxRestarts)
	}
	if cfg.MaxRestarts > 0 && cfg.Restart == NoRestart {
		return cfgErr("MaxRestarts", "%d: set without a Restart strategy", cfg.MaxRestarts)
	}
	// In float64 first: λ0·2^k must not wrap a 32-bit int before popFits.
	if k := maxRestarts(cfg); k > 40 || float64(lambda0)*math.Exp2(float64(k)) > 1<<20 || !popFits(lambda0<<k, cfg.Dim) {
		return cfgErr("MaxRestarts", "%d: the largest population λ0·2^%d (λ0 = %d) is too large", cfg.MaxRestarts, k, lambda0)
	}
	return nil
}

// localStop reports whether r ends one run but not the whole optimization
// when restarts are left.
func localStop(r Reason) bool {
	switch r {
	case TolFunReached, TolXReached, ConditionReached, MaxGenerationsReached, NumericalBreakdown, AllNaN:
		return true
	}
	return false
}

// canRestart reports whether a run that stopped on a local criterion may
// restart as far as the strategy and the budget go: IPOP has restarts left,
// BIPOP may have (restart decides), the evaluation budget is not spent.
func (o *Optimizer) canRestart() bool {
	switch o.cfg.Restart {
	case NoRestart:
		return false
	case IPOP:
		if o.restarts >= maxRestarts(&o.cfg) {
			return false
		}
	}
	return o.cfg.MaxEvals == 0 || o.evals < o.cfg.MaxEvals
}

// runParams returns the parameters of a run with population λ (≥ λ0).
func (o *Optimizer) runParams(lambda int) (Params, error) {
	mu := lambda / 2
	if o.cfg.Mu != 0 {
		mu = min(lambda, max(1, int(int64(o.cfg.Mu)*int64(lambda)/int64(o.lambda0))))
	}
	return computeParams(&o.cfg, lambda, mu)
}

// restart ends the current run and starts the next one (see Restart). It
// reports false, changing nothing, if the new run's parameters are invalid
// (which validation in New rules out).
func (o *Optimizer) restart() bool {
	src := *o.src // BIPOP draws from the generator: restored on failure
	if !o.restartRun() {
		*o.src = src
		return false
	}
	return true
}

// restartRun is restart without the generator's restore: it changes no
// field before the new run's parameters are known to be valid (its BIPOP
// draws advance the generator, which restart puts back).
func (o *Optimizer) restartRun() bool {
	lambda0 := o.lambda0
	sigma, lambda, small, large := o.cfg.Sigma, 0, false, o.largeRuns
	evalsSmall, evalsLarge := o.evalsSmall, o.evalsLarge
	switch o.cfg.Restart {
	case IPOP:
		lambda = lambda0 << (o.restarts + 1)
	case BIPOP:
		// A run counts at least λ evaluations, also one that failed to
		// sample its first generation: so small runs cannot go on forever.
		spent := max(o.evals-o.runEvals0, o.lambda)
		if o.small {
			evalsSmall += spent
		} else {
			evalsLarge += spent
		}
		if evalsSmall < evalsLarge {
			small = true
			u1 := uniform(o.src)
			u2 := uniform(o.src)
			sigma *= math.Pow(0.01, u1)
			lamL := float64(lambda0 << large)
			l := math.Floor(float64(lambda0) * math.Pow(lamL/float64(lambda0), u2*u2))
			lambda = int(min(max(l, float64(lambda0)), lamL))
		} else {
			if large >= maxRestarts(&o.cfg) {
				return false // no large run left: stop
			}
			large++
			lambda = lambda0 << large
		}
	default:
		return false
	}
	par, err := o.runParams(lambda)
	if err != nil || !(sigma > 0) {
		return false
	}
	o.evalsSmall, o.evalsLarge = evalsSmall, evalsLarge
	o.small, o.largeRuns = small, large
	o.restarts++
	o.par = par
	o.startRun(sigma)
	o.runMaxGen = o.cfg.MaxGenerations
	if small {
		g := max(1, o.evalsLarge/(2*lambda))
		if o.runMaxGen == 0 || g < o.runMaxGen {
			o.runMaxGen = g
		}
	}
	return true
}

// startRun sets the fresh state of a run with the parameters o.par and step
// size σ: the initial mean, A = I (A_inv = I), zero paths, an empty TolFun
// history, no pending candidates. It sizes (and, if λ exceeds their
// capacity, allocates) the buffers for o.par.
func (o *Optimizer) startRun(sigma float64) {
	par := &o.par
	o.lambda, o.mu = par.Lambda, par.Mu
	o.cp = math.Sqrt(par.C * (2 - par.C) * par.MuEff)
	o.cs = math.Sqrt(par.CSigma * (2 - par.CSigma) * par.MuEff)
	o.sizeBuffers()
	n := o.n
	if o.m0 != nil {
		copy(o.m, o.m0)
	}
	o.sigma = sigma
	o.pend = false // A starts afresh
	o.aScale = 1
	clear(o.a)
	clear(o.ainv)
	for i := 0; i < n; i++ {
		o.a[i*n+i] = 1
		if o.ainv != nil {
			o.ainv[i*n+i] = 1
		}
	}
	clear(o.p)
	clear(o.v)
	clear(o.s)
	o.rowA, o.rowAInv = 1, 1
	o.histPos, o.histLen = 0, 0
	o.runGen, o.runEvals0 = 0, o.evals
	o.asked = false
}

// sizeBuffers reslices (growing if needed) the buffers that depend on λ, μ
// and the TolFun history length to the current parameters.
func (o *Optimizer) sizeBuffers() {
	n, lambda := o.n, o.lambda
	if cap(o.idx) < lambda {
		pop := make([]float64, 3*lambda*n)
		o.z, o.y, o.x = pop[:0:lambda*n], pop[lambda*n:lambda*n:2*lambda*n], pop[2*lambda*n:2*lambda*n]
		o.xs = make([][]float64, lambda)
		o.evalBuf = make([]float64, lambda)
		o.fit = make([]float64, lambda)
		o.idx = make([]int, lambda)
	}
	o.z, o.y, o.x = o.z[:lambda*n], o.y[:lambda*n], o.x[:lambda*n]
	if w := kernel.WorkLen(n, lambda); len(o.work) < w {
		o.work = make([]float64, w)
	}
	o.xs, o.evalBuf, o.fit, o.idx = o.xs[:lambda], o.evalBuf[:lambda], o.fit[:lambda], o.idx[:lambda]
	if h := o.par.TolFunHist; cap(o.hist) < h {
		o.hist = make([]float64, h)
	} else {
		o.hist = o.hist[:h]
	}
	if o.cfg.RankMu {
		o.rankMuBuffers(o.mu)
	}
}

// Restarts returns the number of restarts made so far.
func (o *Optimizer) Restarts() int { return o.restarts }
