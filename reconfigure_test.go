package mmaes_test

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/mmaes-go/mmaes"
)

// runToStop runs o until it stops.
func runToStop(t *testing.T, o *mmaes.Optimizer, f func([]float64) float64) {
	t.Helper()
	for o.Reason() == mmaes.NotStopped {
		runGensAny(t, o, f, 1)
	}
}

// TestSetLimitsContinue: a run stopped by its evaluation budget continues
// when the budget grows, also from a checkpoint, and ends bit for bit as a
// run given that budget from the start; likewise a run that reached its
// target continues to a lower one.
func TestSetLimitsContinue(t *testing.T) {
	for _, restart := range []mmaes.Restart{mmaes.NoRestart, mmaes.BIPOP} {
		cfg := startConfig(8, mmaes.MMA, 6)
		cfg.Restart, cfg.TargetF, cfg.MaxEvals = restart, 1e-10, 40000
		whole := mustNew(t, cfg)
		runToStop(t, whole, ellipsoid)
		if whole.Reason() != mmaes.TargetReached || whole.Evals() <= 3000 {
			t.Fatalf("%v: the whole run ended %v after %d evaluations", restart, whole.Reason(), whole.Evals())
		}

		short := cfg
		short.MaxEvals = 3000
		o := mustNew(t, short)
		runToStop(t, o, ellipsoid)
		if o.Reason() != mmaes.MaxEvalsReached {
			t.Fatalf("%v: stopped by %v", restart, o.Reason())
		}
		b := state(t, o)
		if err := o.SetLimits(40000, cfg.MaxGenerations); err != nil {
			t.Fatal(err)
		}
		if o.Reason() != mmaes.NotStopped {
			t.Fatalf("%v: still stopped (%v) after the budget grew", restart, o.Reason())
		}
		runToStop(t, o, ellipsoid)
		if !bytes.Equal(state(t, o), state(t, whole)) {
			t.Errorf("%v: the continued run differs from the run with the larger budget", restart)
		}
		var r mmaes.Optimizer
		if err := r.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		if err := r.SetLimits(40000, cfg.MaxGenerations); err != nil {
			t.Fatal(err)
		}
		runToStop(t, &r, ellipsoid)
		if !bytes.Equal(state(t, &r), state(t, whole)) {
			t.Errorf("%v: the restored and continued run differs", restart)
		}
	}
	// A lower target.
	cfg := startConfig(6, mmaes.ECMA, 3)
	cfg.TargetF = 1e-12
	whole := mustNew(t, cfg)
	runToStop(t, whole, sphere)
	cfg.TargetF = 1e-3
	o := mustNew(t, cfg)
	runToStop(t, o, sphere)
	if err := o.Reconfigure(func(c *mmaes.Config) { c.TargetF = 1e-12 }); err != nil || o.Reason() != mmaes.NotStopped {
		t.Fatalf("lower target: %v, %v", err, o.Reason())
	}
	runToStop(t, o, sphere)
	if !bytes.Equal(state(t, o), state(t, whole)) || o.Reason() != mmaes.TargetReached {
		t.Errorf("the run continued to a lower target differs (%v)", o.Reason())
	}
}

// TestReconfigure: the changeable fields change (also on a live run), the
// others are refused with ErrReconfigure and bad values with a
// ConfigError, both changing nothing; a stop that is not a budget stays.
func TestReconfigure(t *testing.T) {
	cfg := startConfig(4, mmaes.MMA, 1)
	cfg.Fixed = map[int]float64{2: 0.5}
	o := mustNew(t, cfg)
	runGens(t, o, sphere, 5)
	before := state(t, o)
	for name, edit := range map[string]func(*mmaes.Config){
		"Dim":    func(c *mmaes.Config) { c.Dim = 5 },
		"Update": func(c *mmaes.Config) { c.Update = mmaes.ECMA },
		"Lambda": func(c *mmaes.Config) { c.Lambda = 20 },
		"Fixed":  func(c *mmaes.Config) { c.Fixed[2] = 1 },
		"Seed":   func(c *mmaes.Config) { c.Seed = 9 },
		"Noise":  func(c *mmaes.Config) { c.Noise = true },
	} {
		if err := o.Reconfigure(edit); !errors.Is(err, mmaes.ErrReconfigure) {
			t.Errorf("%s: %v, want ErrReconfigure", name, err)
		}
	}
	var ce *mmaes.ConfigError
	if err := o.Reconfigure(func(c *mmaes.Config) { c.TolFun = -1 }); !errors.As(err, &ce) || ce.Field != "TolFun" {
		t.Errorf("TolFun -1: %v", err)
	}
	if err := o.Reconfigure(func(c *mmaes.Config) { c.TargetF = math.NaN() }); !errors.As(err, &ce) || ce.Field != "TargetF" {
		t.Errorf("TargetF NaN: %v", err)
	}
	if err := o.Reconfigure(func(c *mmaes.Config) { c.MinStd, c.MaxStd = 2, 1 }); !errors.As(err, &ce) {
		t.Errorf("MinStd > MaxStd: %v", err)
	}
	if err := o.Reconfigure(nil); err == nil {
		t.Error("Reconfigure(nil) accepted")
	}
	if !bytes.Equal(state(t, o), before) {
		t.Fatal("a refused Reconfigure changed the optimizer")
	}
	if err := o.Reconfigure(func(c *mmaes.Config) { c.Workers, c.TolX, c.MaxEvals = 3, 1e-6, 1000 }); err != nil {
		t.Fatal(err)
	}
	if c := o.Config(); c.Workers != 3 || c.TolX != 1e-6 || c.MaxEvals != 1000 || c.Dim != 4 || c.Fixed[2] != 0.5 {
		t.Errorf("Config after Reconfigure: %+v", c)
	}
	// TolX is not a budget: the run stays stopped.
	cfg = startConfig(3, mmaes.MMA, 2)
	o = mustNew(t, cfg)
	runToStop(t, o, sphere)
	r := o.Reason()
	if err := o.SetLimits(1<<30, 0); err != nil || o.Reason() != r {
		t.Errorf("after %v, SetLimits: %v, reason %v", r, err, o.Reason())
	}
}

// TestReconfigureStagnationRecords: Stagnation keeps as many records as
// MaxGenerations allows, so a change of MaxGenerations resizes them. A run
// whose budget grows from 50 to 20 000 generations (through a checkpoint)
// and one whose budget shrinks from 20 000 to 1 000 in the middle end as
// the runs configured so from the start: stagnated, the same generation,
// the same bytes of state (the records' room included).
func TestReconfigureStagnationRecords(t *testing.T) {
	noisy := func(x []float64) float64 {
		h := uint64(1469598103934665603)
		s := 0.0
		for _, v := range x {
			h = (h ^ math.Float64bits(v)) * 1099511628211
			s += v * v
		}
		return s + float64(h>>11)/(1<<53)
	}
	config := func(maxGen int) mmaes.Config {
		cfg := mmaes.DefaultConfig(2)
		cfg.Stagnation = true
		cfg.TolFun, cfg.TolX, cfg.MaxCondition = 0, 0, 0
		cfg.MaxGenerations = maxGen
		cfg.Seed = 3
		return cfg
	}
	alone := func(maxGen int) *mmaes.Optimizer {
		o, err := mmaes.New(config(maxGen))
		if err != nil {
			t.Fatal(err)
		}
		runToStop(t, o, noisy)
		return o
	}
	same := func(what string, got, want *mmaes.Optimizer) {
		t.Helper()
		if got.Reason() != mmaes.Stagnated || got.Reason() != want.Reason() || got.Generation() != want.Generation() ||
			math.Float64bits(got.BestF()) != math.Float64bits(want.BestF()) || !bytes.Equal(state(t, got), state(t, want)) {
			t.Errorf("%s: %v after %d generations (best %v), want %v after %d (best %v), stagnated",
				what, got.Reason(), got.Generation(), got.BestF(), want.Reason(), want.Generation(), want.BestF())
		}
	}

	long := alone(20000)
	grown := alone(50)
	if grown.Reason() != mmaes.MaxGenerationsReached {
		t.Fatalf("the 50-generation run: %v", grown.Reason())
	}
	if err := grown.SetLimits(0, 20000); err != nil {
		t.Fatal(err)
	}
	b, err := grown.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	restored := new(mmaes.Optimizer)
	if err := restored.UnmarshalBinary(b); err != nil {
		t.Fatalf("checkpoint after SetLimits: %v", err)
	}
	runToStop(t, restored, noisy)
	same("50 then 20 000 generations, restored", restored, long)

	if long.Generation() >= 1000 {
		t.Fatalf("the long run stagnated after %d generations: the shrinking case needs fewer than 1000", long.Generation())
	}
	shrunk, err := mmaes.New(config(20000))
	if err != nil {
		t.Fatal(err)
	}
	runGensAny(t, shrunk, noisy, long.Generation()/2)
	if err := shrunk.SetLimits(0, 1000); err != nil {
		t.Fatal(err)
	}
	runToStop(t, shrunk, noisy)
	same("20 000 then 1 000 generations", shrunk, alone(1000))
}

// TestSetLimitsSameGeneration: when the evaluation budget ends a run in the
// generation in which a criterion of the run fires too, a larger budget
// lets that criterion act as it would have: an IPOP restart (and, without
// restarts, the stop), so that the continued run, live or restored from
// the checkpoint of the stop, ends with the bytes of the run that had the
// larger budget from the start.
func TestSetLimitsSameGeneration(t *testing.T) {
	probeCfg := startConfig(4, mmaes.MMA, 2)
	probe := mustNew(t, probeCfg)
	runToStop(t, probe, sphere)
	local := probe.Reason()
	if local == mmaes.MaxEvalsReached || local == mmaes.TargetReached || local.Failed() {
		t.Fatalf("the probe run ended %v, want a criterion of the run", local)
	}
	for _, restart := range []mmaes.Restart{mmaes.NoRestart, mmaes.IPOP} {
		cfg := probeCfg
		cfg.Restart, cfg.MaxEvals = restart, 1<<20
		if restart != mmaes.NoRestart {
			cfg.MaxRestarts = 2
		}
		whole := mustNew(t, cfg)
		runToStop(t, whole, sphere)

		short := cfg
		short.MaxEvals = probe.Evals() // reached in the generation the criterion fires
		o := mustNew(t, short)
		runToStop(t, o, sphere)
		if o.Reason() != mmaes.MaxEvalsReached || o.Generation() != probe.Generation() {
			t.Fatalf("%v: the short run ended %v after %d generations, want MaxEvals after %d", restart, o.Reason(), o.Generation(), probe.Generation())
		}
		b := state(t, o)
		var r mmaes.Optimizer
		if err := r.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		for name, c := range map[string]*mmaes.Optimizer{"live": o, "restored": &r} {
			if err := c.SetLimits(cfg.MaxEvals, cfg.MaxGenerations); err != nil {
				t.Fatal(err)
			}
			if restart == mmaes.NoRestart && c.Reason() != local {
				t.Errorf("%v, %s: %v after the budget grew, want %v (it fired with the budget)", restart, name, c.Reason(), local)
			}
			runToStop(t, c, sphere)
			if !bytes.Equal(state(t, c), state(t, whole)) {
				t.Errorf("%v, %s: ended %v after %d generations, %d restarts; the run with the budget from the start %v after %d, %d",
					restart, name, c.Reason(), c.Generation(), c.Restarts(), whole.Reason(), whole.Generation(), whole.Restarts())
			}
		}
	}
}

// TestSetLimitsCoFiredBudgets: MaxEvals and MaxGenerations reached in the
// same generation, SetLimits lifting MaxEvals alone: the run stops on
// MaxGenerations (without restarts) or restarts on it (IPOP), as the run
// given that evaluation budget from the start; the target reached with the
// evaluation budget and lowered below the best value leaves MaxEvals.
func TestSetLimitsCoFiredBudgets(t *testing.T) {
	for _, restart := range []mmaes.Restart{mmaes.NoRestart, mmaes.IPOP} {
		cfg := startConfig(4, mmaes.MMA, 2)
		cfg.Restart, cfg.MaxGenerations, cfg.MaxEvals = restart, 20, 1<<20
		if restart != mmaes.NoRestart {
			cfg.MaxRestarts = 2
		}
		whole := mustNew(t, cfg)
		runToStop(t, whole, sphere)
		short := cfg
		short.MaxEvals = 20 * mustNew(t, cfg).Lambda()
		o := mustNew(t, short)
		runToStop(t, o, sphere)
		if o.Reason() != mmaes.MaxEvalsReached || o.Generation() != 20 {
			t.Fatalf("%v: the short run ended %v after %d generations", restart, o.Reason(), o.Generation())
		}
		if err := o.SetLimits(cfg.MaxEvals, cfg.MaxGenerations); err != nil {
			t.Fatal(err)
		}
		if restart == mmaes.NoRestart && o.Reason() != mmaes.MaxGenerationsReached {
			t.Errorf("MaxEvals lifted: %v, want MaxGenerationsReached (it fired in the same generation)", o.Reason())
		}
		runToStop(t, o, sphere)
		if !bytes.Equal(state(t, o), state(t, whole)) {
			t.Errorf("%v: ended %v after %d generations, %d restarts; from the start %v after %d, %d",
				restart, o.Reason(), o.Generation(), o.Restarts(), whole.Reason(), whole.Generation(), whole.Restarts())
		}
	}

	cfg := startConfig(4, mmaes.MMA, 2)
	cfg.TolFun, cfg.TolX = 0, 0
	probe := mustNew(t, cfg)
	runGensAny(t, probe, sphere, 30)
	cfg.TargetF = probe.BestF()
	first := mustNew(t, cfg) // the evaluations to the target
	runToStop(t, first, sphere)
	cfg.MaxEvals = first.Evals()
	o := mustNew(t, cfg)
	runToStop(t, o, sphere)
	if o.Reason() != mmaes.TargetReached || o.Evals() != cfg.MaxEvals {
		t.Fatalf("the target run ended %v after %d evaluations, want the target at %d", o.Reason(), o.Evals(), cfg.MaxEvals)
	}
	if err := o.Reconfigure(func(c *mmaes.Config) { c.TargetF = -1 }); err != nil {
		t.Fatal(err)
	}
	if o.Reason() != mmaes.MaxEvalsReached {
		t.Errorf("target lowered below the best, the budget spent: %v, want MaxEvalsReached", o.Reason())
	}
	var r mmaes.Optimizer
	if err := r.UnmarshalBinary(state(t, o)); err != nil || r.Reason() != mmaes.MaxEvalsReached {
		t.Errorf("restored: %v, %v", r.Reason(), err)
	}
}

// TestObserverNotReentered: an observer that lifts the evaluation budget
// when it fires together with the generation budget (MaxEvals 80 and
// MaxGenerations 10 at λ = 8 end the same generation) makes SetLimits stop
// the run on MaxGenerations; the observer hears of that after its call
// returned, not inside it (it was called inside SetLimits, which
// deadlocked an observer guarding its state with a mutex). It is called
// once more, with the final reason, and the run ends as it would have;
// also when the observer restores a checkpoint of the optimizer before or
// after SetLimits (the restore reset what notify keeps).
func TestObserverNotReentered(t *testing.T) {
	for _, restore := range []string{"", "before", "after"} {
		t.Run("restore="+restore, func(t *testing.T) {
			cfg := mmaes.DefaultConfig(4)
			cfg.Seed, cfg.MaxGenerations, cfg.MaxEvals = 2, 10, 80
			var mu sync.Mutex
			calls := 0
			var reasons []mmaes.Reason
			roundTrip := func(o *mmaes.Optimizer) {
				b, err := o.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				if err := o.UnmarshalBinary(b); err != nil {
					t.Fatal(err)
				}
			}
			cfg.Observer = func(o *mmaes.Optimizer) {
				if !mu.TryLock() {
					t.Fatal("the observer was called inside its own call")
				}
				defer mu.Unlock()
				calls++
				if o.Reason() != mmaes.NotStopped {
					reasons = append(reasons, o.Reason())
				}
				if o.Reason() == mmaes.MaxEvalsReached {
					if restore == "before" {
						roundTrip(o)
					}
					if err := o.SetLimits(1000, o.Config().MaxGenerations); err != nil {
						t.Error(err)
					}
					if restore == "after" {
						roundTrip(o)
					}
				}
			}
			o := mustNew(t, cfg)
			if o.Lambda() != 8 {
				t.Fatalf("λ = %d, want 8", o.Lambda())
			}
			res, err := o.Optimize(t.Context(), sphere)
			if err != nil {
				t.Fatal(err)
			}
			if res.Reason != mmaes.MaxGenerationsReached || res.Generations != 10 || calls != 11 ||
				!slices.Equal(reasons, []mmaes.Reason{mmaes.MaxEvalsReached, mmaes.MaxGenerationsReached}) {
				t.Errorf("%v after %d generations, %d calls of the observer, stop reasons it saw %v; want MaxGenerations after 10, 11 calls, [MaxEvals MaxGenerations]",
					res.Reason, res.Generations, calls, reasons)
			}
		})
	}
}
