package mmaes

import "math"

// A Reason says why a run stopped. The zero value, NotStopped, means it has
// not.
type Reason int

const (
	// NotStopped: the run goes on.
	NotStopped Reason = iota
	// TargetReached: a fitness value ≤ Config.TargetF was evaluated.
	TargetReached
	// MaxEvalsReached: Evals() ≥ Config.MaxEvals.
	MaxEvalsReached
	// MaxGenerationsReached: the run made Config.MaxGenerations
	// generations (Generation() ≥ MaxGenerations without restarts; with
	// them, the generations since the last restart, or a BIPOP small run's
	// budget).
	MaxGenerationsReached
	// TolFunReached: over the last Config.TolFunHist generations the best
	// values, and the values of the last generation, spread less than
	// Config.TolFun.
	TolFunReached
	// TolXReached: σ times the largest row norm of A (the largest standard
	// deviation of a coordinate of the sampling distribution) is below
	// Config.TolX.
	TolXReached
	// ConditionReached: (max row norm / min row norm of A)², a lower bound of
	// the condition number of C = A·Aᵀ, exceeds Config.MaxCondition.
	ConditionReached
	// NumericalBreakdown: the update would have made σ, the mean, a path or
	// A (A_inv) non-finite, σ zero, or a row of A zero, or Ask sampled a
	// non-finite candidate. The failing update is not applied to σ, the
	// mean or the paths, so they stay finite (σ > 0); it may have been
	// applied to A when only the rescan after it found the problem.
	NumericalBreakdown
	// AllNaN: every fitness value of a generation was NaN. The generation
	// counts (Evals, Generation) but changes nothing else.
	AllNaN
	// Canceled: the context passed to Optimize was done (cancelled, or past
	// its deadline: Optimize returns ctx.Err(), which says which). It is only
	// ever reported in the Result of that Optimize call: the optimizer
	// itself does not stop, and a later Optimize, Ask or Tell continues
	// the run exactly.
	Canceled
	// MaxMemoryReached: a restart would have needed more memory than
	// Config.MaxMemory allows (see there); the optimization ends with the
	// best point of the runs so far.
	MaxMemoryReached
	// NoEffectAxis: 0.1σ times a principal axis of the distribution does
	// not change the mean (Config.NoEffect).
	NoEffectAxis
	// NoEffectCoord: 0.2σ times a coordinate's standard deviation does
	// not change that coordinate of the mean (Config.NoEffect).
	NoEffectCoord
	// Stagnated: the run's best and median values no longer improve
	// (Config.Stagnation).
	Stagnated
	// FlatFitnessReached: Config.FlatFitness generations in a row had a flat
	// fitness.
	FlatFitnessReached
	// Hopeless: the run cannot improve on the earlier ones
	// (Config.Hopeless).
	Hopeless

	numReasons
)

// reasonInfo describes a Reason.
type reasonInfo struct {
	name string
	// failed: a failure rather than a criterion met or a budget spent;
	// Optimize returns an error for it.
	failed bool
	// local: it ends one run, and a restart strategy starts the next
	// (see Restart); the others end the whole optimization.
	local bool
	// err is the sentinel the stop's error wraps besides ErrStopped, nil
	// for none.
	err error
}

// reasons describes every Reason, once.
var reasons = [numReasons]reasonInfo{
	NotStopped:            {name: "not stopped"},
	TargetReached:         {name: "target reached"},
	MaxEvalsReached:       {name: "MaxEvals reached"},
	MaxGenerationsReached: {name: "MaxGenerations reached", local: true},
	TolFunReached:         {name: "TolFun: fitness values flat", local: true},
	TolXReached:           {name: "TolX: step size tiny", local: true},
	ConditionReached:      {name: "MaxCondition: mutation matrix ill-conditioned", local: true},
	NumericalBreakdown:    {name: "numerical breakdown: state not finite or degenerate", failed: true, local: true, err: ErrBreakdown},
	AllNaN:                {name: "all fitness values of a generation are NaN", failed: true, local: true, err: ErrAllNaN},
	Canceled:              {name: "context done: cancelled or past its deadline"},
	MaxMemoryReached:      {name: "MaxMemory: a restart would exceed the memory budget"},
	NoEffectAxis:          {name: "NoEffect: a principal axis does not change the mean", local: true},
	NoEffectCoord:         {name: "NoEffect: a coordinate's deviation does not change the mean", local: true},
	Stagnated:             {name: "Stagnation: no improvement", local: true},
	FlatFitnessReached:    {name: "FlatFitness: fitness flat over the population", local: true},
	Hopeless:              {name: "Hopeless: cannot improve on the earlier runs", local: true},
}

// precedence orders the stops that can fire together at the end of a
// generation, the winner first: a generation of NaN only; then the global
// ones, which this generation's values meet whatever its update does; then
// a failed update or a broken state; then the criteria of the run.
var precedence = [...]Reason{
	AllNaN, TargetReached, MaxEvalsReached, NumericalBreakdown,
	MaxGenerationsReached, TolFunReached, TolXReached, ConditionReached,
	NoEffectAxis, NoEffectCoord, FlatFitnessReached, Stagnated, Hopeless,
}

// precedenceSet returns the set of the stops in precedence: those that
// fire at the end of a generation.
func precedenceSet() (s stopSet) {
	for _, r := range precedence {
		s.add(r)
	}
	return s
}

// String returns a short description of r.
func (r Reason) String() string {
	if r < 0 || r >= numReasons {
		return "Reason(invalid)"
	}
	return reasons[r].name
}

// Failed reports whether r is a failure (NumericalBreakdown or AllNaN) rather
// than a criterion met or a budget spent.
func (r Reason) Failed() bool { return r >= 0 && r < numReasons && reasons[r].failed }

// local reports whether r ends one run but not the whole optimization when
// a restart is left.
func (r Reason) local() bool { return r >= 0 && r < numReasons && reasons[r].local }

// A stopSet is the set of stops that fired in one generation.
type stopSet uint32

func (s *stopSet) add(r Reason) { *s |= 1 << r }

// winner returns the stop of s that takes precedence, or NotStopped.
func (s stopSet) winner() Reason {
	if s == 0 {
		return NotStopped
	}
	for _, r := range precedence {
		if s&(1<<r) != 0 {
			return r
		}
	}
	return NotStopped
}

// checkStops validates the stop criteria of cfg.
func checkStops(cfg *Config, _ *Params) error {
	if math.IsNaN(cfg.TargetF) {
		return cfgErr("TargetF", "NaN (use -Inf to turn it off)")
	}
	if cfg.MaxEvals < 0 {
		return cfgErr("MaxEvals", "%d: must be ≥ 0 (0: no limit)", cfg.MaxEvals)
	}
	if cfg.MaxGenerations < 0 {
		return cfgErr("MaxGenerations", "%d: must be ≥ 0 (0: no limit)", cfg.MaxGenerations)
	}
	if !finite(cfg.TolFun) || cfg.TolFun < 0 {
		return cfgErr("TolFun", "%g: must be finite and ≥ 0 (0: off)", cfg.TolFun)
	}
	if !finite(cfg.TolX) || cfg.TolX < 0 {
		return cfgErr("TolX", "%g: must be finite and ≥ 0 (0: off)", cfg.TolX)
	}
	if math.IsNaN(cfg.MaxCondition) || cfg.MaxCondition < 0 {
		return cfgErr("MaxCondition", "%g: must be ≥ 0 (0: off)", cfg.MaxCondition)
	}
	if cfg.FlatFitness < 0 {
		return cfgErr("FlatFitness", "%d: must be ≥ 0 (0: off)", cfg.FlatFitness)
	}
	if !finite(cfg.Hopeless) || cfg.Hopeless < 0 {
		return cfgErr("Hopeless", "%g: must be finite and ≥ 0 (0: off)", cfg.Hopeless)
	}
	if !cfg.Endless && cfg.MaxEvals == 0 && cfg.MaxGenerations == 0 && cfg.TolFun == 0 && cfg.TolX == 0 && cfg.MaxCondition == 0 {
		return cfgErr("Endless", "no stop criterion (MaxEvals, MaxGenerations, TolFun, TolX and MaxCondition are all 0, "+
			"as in a Config literal; DefaultConfig sets them): set one, or set Endless for a run that goes on until the caller stops it")
	}
	return nil
}

// stopRates resolves the length of the TolFun history of a run into p,
// whose λ is set: Config.TolFunHist, or 10 + ⌈30·n/λ⌉.
func stopRates(cfg *Config, p *Params) error {
	if cfg.TolFunHist < 0 || cfg.TolFunHist > 1<<24 {
		return cfgErr("TolFunHist", "%d: must be in [0, 2^24] (0: the default)", cfg.TolFunHist)
	}
	p.TolFunHist = cfg.TolFunHist
	if p.TolFunHist == 0 {
		p.TolFunHist = 10 + (30*cfg.Dim+p.Lambda-1)/p.Lambda
	}
	if cfg.Stagnation {
		nf := float64(cfg.Dim)
		p.Stagnation = int(min(1<<30, 100+100*nf*math.Sqrt(nf)/float64(p.Lambda)))
	}
	return nil
}

// globalStops returns the stops that end the whole optimization and that
// the values told so far meet: the target and the evaluation budget.
func (o *Optimizer) globalStops() (s stopSet) {
	if o.targetReached() {
		s.add(TargetReached)
	}
	if o.cfg.MaxEvals > 0 && o.evals >= o.cfg.MaxEvals {
		s.add(MaxEvalsReached)
	}
	return s
}

// targetReached reports whether a value ≤ Config.TargetF was evaluated.
func (o *Optimizer) targetReached() bool {
	return !math.IsInf(o.cfg.TargetF, -1) && o.best.ok && o.best.f <= o.cfg.TargetF
}

// runStops returns the criteria of the current run that fire after a
// generation whose update was applied, given the distribution's health h;
// genRange is the spread of the generation's non-NaN values.
func (o *Optimizer) runStops(h health, genRange float64) (s stopSet) {
	c := &o.cfg
	if h.broken {
		s.add(NumericalBreakdown)
		return s
	}
	if o.run.genLimitReached() {
		s.add(MaxGenerationsReached)
	}
	if c.TolFun > 0 && genRange < c.TolFun && o.hist.flat(c.TolFun) {
		s.add(TolFunReached)
	}
	// σ·maxRow is an upper bound of σ·max‖A_i‖ (exact after a scan).
	if c.TolX > 0 && o.step.sigma*h.maxRow < c.TolX {
		s.add(TolXReached)
	}
	if h.scanned && c.MaxCondition > 0 {
		if q := h.cond; q*q > c.MaxCondition {
			s.add(ConditionReached)
		}
	}
	if c.NoEffect && o.run.gen%o.cfg.Dim == 0 {
		s |= o.dist.noEffect(o.m, o.step.sigma)
	}
	s |= o.watch.stops(c, &o.par, o.run.gen, genRange)
	return s
}

// fitnessHistory is the ring buffer of the best value of each of the last
// generations of a run, for TolFun.
type fitnessHistory struct {
	buf      []float64 // its length is the run's TolFunHist
	pos, len int
}

// resize empties the history and sizes it for h generations, allocating
// only when h exceeds its capacity. The entries are cleared, so that no
// value of an earlier run is left in the buffer a checkpoint stores (a
// restored run, whose buffer is new, continues with the same bytes).
func (fh *fitnessHistory) resize(h int) {
	if cap(fh.buf) < h {
		fh.buf = make([]float64, h)
	}
	fh.buf = fh.buf[:h]
	clear(fh.buf)
	fh.pos, fh.len = 0, 0
}

// push records a generation's best value.
func (fh *fitnessHistory) push(f float64) {
	fh.buf[fh.pos] = f
	fh.pos++
	if fh.pos == len(fh.buf) {
		fh.pos = 0
	}
	fh.len = min(fh.len+1, len(fh.buf))
}

// flat reports whether the history is full and spreads less than tol.
func (fh *fitnessHistory) flat(tol float64) bool {
	if fh.len != len(fh.buf) {
		return false
	}
	lo, hi := fh.buf[0], fh.buf[0]
	for _, h := range fh.buf {
		lo, hi = min(lo, h), max(hi, h)
	}
	return hi == lo || hi-lo < tol // equal ±Inf values are flat too
}

func (fh *fitnessHistory) encode(e *encoder) {
	e.int(fh.pos)
	e.int(fh.len)
	e.floats(fh.buf)
}

func (fh *fitnessHistory) decode(d *decoder) error {
	pos, n := d.int(), d.int()
	d.floats(fh.buf)
	if d.err == nil && (pos >= len(fh.buf) || n > len(fh.buf)) {
		return ckErr("inconsistent TolFun history")
	}
	for _, f := range fh.buf[:n] {
		if f != f {
			return ckErr("NaN in the TolFun history")
		}
	}
	fh.pos, fh.len = pos, n
	return d.err
}
