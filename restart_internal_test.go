package mmaes

import (
	"math"
	"testing"
)

// TestBIPOPBudgetAfterSetLimits: a small BIPOP run keeps the generation
// budget the strategy gave it, ⌊evals of the large runs/(2λ)⌋, when
// SetLimits raises MaxGenerations above it during the run, also through a
// checkpoint; lowering MaxGenerations below it takes the new limit.
func TestBIPOPBudgetAfterSetLimits(t *testing.T) {
	rastrigin := func(x []float64) float64 {
		s := 10 * float64(len(x))
		for _, v := range x {
			s += v*v - 10*math.Cos(2*math.Pi*v)
		}
		return s
	}
	cfg := DefaultConfig(4)
	cfg.Restart, cfg.MaxGenerations, cfg.Sigma = BIPOP, 30, 2
	cfg.TolFun, cfg.TolX = 0, 0 // every run ends on its generation limit
	o, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b := o.run.policy.(*bipop)
	var fit []float64
	for o.Reason() == NotStopped && !(b.small && o.run.restarts > 0 && b.evalsLarge/(2*o.pop.lambda) >= cfg.MaxGenerations) {
		xs := o.Ask()
		fit = append(fit[:0], make([]float64, len(xs))...)
		for i, x := range xs {
			fit[i] = rastrigin(x)
		}
		if err := o.Tell(fit); err != nil {
			t.Fatal(err)
		}
	}
	if o.Reason() != NotStopped || o.run.gen != 0 {
		t.Fatalf("no small run with a budget of at least %d generations started (%v)", cfg.MaxGenerations, o.Reason())
	}
	budget := b.evalsLarge / (2 * o.pop.lambda)
	if o.run.maxGen != cfg.MaxGenerations {
		t.Fatalf("the small run's limit is %d, want MaxGenerations %d (its budget is %d)", o.run.maxGen, cfg.MaxGenerations, budget)
	}
	if err := o.SetLimits(0, budget+1000); err != nil {
		t.Fatal(err)
	}
	if o.run.maxGen != budget {
		t.Errorf("MaxGenerations raised to %d: the run's limit is %d, want its budget %d", budget+1000, o.run.maxGen, budget)
	}
	data, err := o.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var r Optimizer
	if err := r.UnmarshalBinary(data); err != nil || r.run.maxGen != budget {
		t.Errorf("restored: limit %d (%v), want %d", r.run.maxGen, err, budget)
	}
	if err := r.SetLimits(0, budget-1); err != nil || r.run.maxGen != budget-1 {
		t.Errorf("MaxGenerations lowered to %d: limit %d (%v)", budget-1, r.run.maxGen, err)
	}
}
