package mmaes

import (
	"errors"
	"reflect"
)

// ErrReconfigure is returned by Reconfigure for a change of a field that a
// running optimizer cannot take (one that sizes its state or defines its
// algorithm).
var ErrReconfigure = errors.New("mmaes: Reconfigure: only the limits, the stop criteria, TargetF, MinStd, MaxStd, Workers, Threads and the observer can change")

// errNilEdit is Reconfigure's error for a nil edit function.
var errNilEdit = errors.New("mmaes: Reconfigure: nil edit function")

// SetLimits sets Config.MaxEvals and Config.MaxGenerations (0: no limit)
// of a live, stopped or restored optimizer: see Reconfigure. A run stopped
// by the evaluation or generation budget continues when the budget grows.
func (o *Optimizer) SetLimits(maxEvals, maxGenerations int) error {
	return o.Reconfigure(func(c *Config) { c.MaxEvals, c.MaxGenerations = maxEvals, maxGenerations })
}

// Reconfigure changes the settings of a live, stopped or restored
// optimizer that do not size its state: edit receives a copy of the
// Config and may change MaxEvals, MaxGenerations, TargetF, TolFun, TolX,
// MaxCondition, FlatFitness, Hopeless, Endless, MinStd, MaxStd, Workers,
// Threads (the goroutines are stopped and started anew) and Observer; a
// change of any other field gives ErrReconfigure, an invalid value the
// error New gives, a nil edit an error, and either changes nothing. A
// generation budget a restart strategy gave the current run (BIPOP's
// small runs) still bounds it; with Stagnation, a new MaxGenerations
// resizes the records it keeps (an allocation of up to 480 KB, refused
// with the MaxMemory ConfigError beyond the memory budget), and a smaller
// one drops the oldest records for good. A run that stopped because of
// its budget (MaxEvalsReached, MaxGenerationsReached) or its target
// (TargetReached) continues when the new settings no longer stop it,
// exactly as if it had been configured so from the start (the generation
// that stopped it was complete; a criterion of the run that fired in that
// generation too then acts as it would have: a restart, or the stop, the
// observer called), except for Stagnation's records that a lowered
// MaxGenerations dropped: raised again, the run has fewer records than
// one configured with the higher value throughout, and its Stagnation
// stop can come later. Other stops are final. The new settings apply from
// the next Tell; a checkpoint stores them.
func (o *Optimizer) Reconfigure(edit func(*Config)) error {
	if o.dist == nil {
		return ErrNotInitialized
	}
	if edit == nil {
		return errNilEdit
	}
	old := o.Config()
	c := o.Config()
	edit(&c)
	// Every field but the changeable ones must be as it was.
	want := old
	want.MaxEvals, want.MaxGenerations, want.TargetF = c.MaxEvals, c.MaxGenerations, c.TargetF
	want.TolFun, want.TolX, want.MaxCondition = c.TolFun, c.TolX, c.MaxCondition
	want.FlatFitness, want.Hopeless, want.Endless = c.FlatFitness, c.Hopeless, c.Endless
	want.MinStd, want.MaxStd, want.Workers, want.Observer = c.MinStd, c.MaxStd, c.Workers, c.Observer
	want.Threads = c.Threads
	// The new values first (a NaN, which no field may hold, would also
	// fail the comparison below).
	for _, check := range []func(*Config, *Params) error{checkStops, checkStdBounds, checkWorkers, checkThreads} {
		if err := check(&c, nil); err != nil {
			return err
		}
	}
	a, b := want, c
	a.Observer, b.Observer = nil, nil
	if !reflect.DeepEqual(a, b) {
		return ErrReconfigure
	}
	apply := func(dst *Config) {
		dst.MaxEvals, dst.MaxGenerations, dst.TargetF = c.MaxEvals, c.MaxGenerations, c.TargetF
		dst.TolFun, dst.TolX, dst.MaxCondition = c.TolFun, c.TolX, c.MaxCondition
		dst.FlatFitness, dst.Hopeless, dst.Endless = c.FlatFitness, c.Hopeless, c.Endless
		dst.MinStd, dst.MaxStd, dst.Workers, dst.Observer = c.MinStd, c.MaxStd, c.Workers, c.Observer
		dst.Threads = c.Threads
	}
	// Stagnation's records grow with MaxGenerations, and the threads'
	// work space with Threads: the run, and so its checkpoint, must stay
	// within the memory budget (that of the searched coordinates' run).
	searched := o.cfg
	apply(&searched)
	if err := checkMemory(&searched, o.fix, &o.par, o.injected(&searched, o.par.Lambda)); err != nil {
		return err
	}
	apply(&o.cfg)
	if o.fix != nil {
		apply(&o.fix.cfg)
	}
	o.watch.resize(stagnationRecords(&o.cfg))
	if c.Threads != old.Threads {
		o.startThreads()
	}
	r := &o.run
	r.maxGen = runGenLimit(c.MaxGenerations, r.policy.runBudget(r, o.pop.lambda))
	switch o.reason {
	case MaxEvalsReached, MaxGenerationsReached, TargetReached:
		// The stops of the generation that ended the run, with the target
		// and the budgets as they are now: the run goes on when none is
		// left, and else stops (or restarts) on their winner, as it would
		// have in that generation.
		set := o.fired &^ (1<<MaxEvalsReached | 1<<MaxGenerationsReached | 1<<TargetReached)
		set |= o.globalStops()
		if r.genLimitReached() {
			set.add(MaxGenerationsReached)
		}
		if set.winner() == o.reason {
			o.fired = set
		} else {
			o.setReason(NotStopped, 0)
			if set != 0 {
				o.stop(set)
			}
		}
	}
	o.publish()
	return nil
}
