package mmaes

import (
	"math"
	"strconv"
)

// Restart selects the restart strategy (Config.Restart).
//
// A run restarts when it stops on a local criterion: TolFun, TolX,
// MaxCondition, NoEffect, Stagnation, FlatFitness, Hopeless, MaxGenerations
// (which counts the generations of each run), a numerical breakdown or a
// generation of NaN only, and, for a BIPOP small-population run, its
// budget. It does not restart on the global ones
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
	// A run counts at least λ evaluations, also one that failed to sample
	// its first generation.
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
// size λ0 (p.Lambda): the largest population, λ0·2^MaxRestarts, must fit.
func checkRestart(cfg *Config, p *Params) error {
	lambda0 := p.Lambda
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

// maxLambda returns the largest population the restarts can reach from λ0.
func maxLambda(cfg *Config, lambda0 int) int { return lambda0 << maxRestarts(cfg) }

// runs is the state of the sequence of runs of an optimization: the
// restart strategy, λ0 and the restarts made, the current run's generations,
// the evaluations before it and its generation limit.
type runs struct {
	policy   restartPolicy
	lambda0  int
	restarts int
	gen      int   // generations of the current run
	evals0   int   // evaluations before the current run
	maxGen   int   // the current run's generation limit; 0: none
	budget   int64 // the memory budget in bytes (0: none known)
}

// A restartPolicy is a restart strategy: it decides whether and how the
// next run starts when one stops on a local criterion. The optimizer checks
// the evaluation budget, validates the new run's parameters and starts it.
//
// Adding a strategy: a type implementing this interface in a file of its
// own, its Restart constant above, and its case in newRestartPolicy.
type restartPolicy interface {
	// allows reports whether the strategy may start another run after
	// the given number of restarts (a strategy that decides later says
	// yes here and no in plan).
	allows(restarts int) bool
	// plan returns the next run after the current one of population λ,
	// which spent the given evaluations, or false when none is left. It
	// may draw from src; it keeps the state it would move to aside, and
	// changes nothing until commit.
	plan(r *runs, lambda, spent int, src *xoshiro) (next runPlan, ok bool)
	// commit makes the state of the last plan current.
	commit()
	// runBudget returns the generation budget the strategy gave the
	// current run, of population λ (the plan's maxGen; 0: none).
	runBudget(r *runs, lambda int) int
	// valid reports whether the strategy's state fits the restarts made
	// and the current λ (for restored checkpoints).
	valid(r *runs, lambda int) bool
	// encode and decode save and restore the strategy's own state.
	encode(e *encoder)
	decode(d *decoder) error
}

// A runPlan is the start of a run: its population, step size and
// generation budget (0: Config.MaxGenerations alone).
type runPlan struct {
	lambda int
	sigma  float64
	maxGen int
}

// newRestartPolicy returns the strategy of a validated cfg.
func newRestartPolicy(cfg *Config) restartPolicy {
	switch cfg.Restart {
	case IPOP:
		return &ipop{max: maxRestarts(cfg), sigma0: cfg.Sigma}
	case BIPOP:
		return &bipop{max: maxRestarts(cfg), sigma0: cfg.Sigma, small: true}
	}
	return noRestart{}
}

// noRestart is the paper's single run.
type noRestart struct{}

func (noRestart) allows(int) bool                                { return false }
func (noRestart) plan(*runs, int, int, *xoshiro) (runPlan, bool) { return runPlan{}, false }
func (noRestart) commit()                                        {}
func (noRestart) runBudget(*runs, int) int                       { return 0 }
func (noRestart) valid(r *runs, lambda int) bool                 { return r.restarts == 0 && lambda == r.lambda0 }
func (noRestart) encode(*encoder)                                {}
func (noRestart) decode(*decoder) error                          { return nil }

// canRestart reports whether a run that stopped on a local criterion may
// restart as far as the strategy and the budget go.
func (o *Optimizer) canRestart() bool {
	return o.run.policy.allows(o.run.restarts) && (o.cfg.MaxEvals == 0 || o.evals < o.cfg.MaxEvals)
}

// restart ends the current run, which stopped for the local reason r, and
// starts the next one (see Restart). It returns NotStopped when the next
// run started; else, changing nothing, the reason the optimization ends
// with: r when the strategy has no run left (or the new run's parameters
// are invalid, which validation in New rules out), MaxMemoryReached when
// the next run would need more memory than the budget.
func (o *Optimizer) restart(r Reason) Reason {
	o.dropDeviates()
	src := *o.src // the strategy may draw from the generator: restored on failure
	spent := max(o.evals-o.run.evals0, o.pop.lambda)
	next, ok := o.run.policy.plan(&o.run, o.pop.lambda, spent, o.src)
	if !ok {
		*o.src = src
		return r
	}
	par, err := o.runParams(next.lambda)
	if err != nil || !(next.sigma > 0) {
		*o.src = src
		return r
	}
	if b := o.run.budget; b > 0 && o.memory(&o.cfg, par.Lambda, par.Mu) > float64(b) {
		*o.src = src
		return MaxMemoryReached
	}
	o.run.policy.commit()
	o.run.restarts++
	o.par = par
	o.startRun(next.sigma, next.maxGen)
	o.exactDeviations()
	return NotStopped
}

// runParams returns the parameters of a run with population λ (≥ λ0).
func (o *Optimizer) runParams(lambda int) (Params, error) {
	return computeParams(&o.cfg, lambda, runMu(&o.cfg, o.run.lambda0, lambda))
}

// runMu returns μ of a run with population λ when the first had λ0:
// ⌊λ/2⌋, or Config.Mu·λ/λ0 when Mu is set.
func runMu(cfg *Config, lambda0, lambda int) int {
	if cfg.Mu == 0 {
		return lambda / 2
	}
	return min(lambda, max(1, int(int64(cfg.Mu)*int64(lambda)/int64(lambda0))))
}

// Restarts returns the number of restarts made so far.
func (o *Optimizer) Restarts() int { return o.run.restarts }

// genLimitReached reports whether the current run has made the
// generations its limit allows.
func (r *runs) genLimitReached() bool { return r.maxGen > 0 && r.gen >= r.maxGen }

func (r *runs) encode(e *encoder) {
	e.int(r.restarts)
	e.int(r.gen)
	e.int(r.evals0)
	e.int(r.maxGen)
	r.policy.encode(e)
}

func (r *runs) decode(d *decoder) error {
	r.restarts, r.gen, r.evals0, r.maxGen = d.count(), d.count(), d.count(), d.count()
	if d.err != nil {
		return d.err
	}
	return r.policy.decode(d)
}
