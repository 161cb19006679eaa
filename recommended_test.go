package mmaes_test

import (
	"slices"
	"testing"

	"github.com/mmaes-go/mmaes"
	"github.com/mmaes-go/mmaes/benchfn"
)

// TestRecommendedConfigValid: RecommendedConfig is a configuration New
// accepts in every dimension, and for n < 1 one it rejects; it leaves
// DefaultConfig's paper settings (λ, μ, the path and step-size rates)
// as they are.
func TestRecommendedConfigValid(t *testing.T) {
	for _, n := range []int{1, 2, 3, 10, 40, 200} {
		rec, def := mmaes.RecommendedConfig(n), mmaes.DefaultConfig(n)
		if _, err := mmaes.New(rec); err != nil {
			t.Errorf("n = %d: %v", n, err)
		}
		pr, _ := rec.Params()
		pd, _ := def.Params()
		if pr.Lambda != pd.Lambda || pr.Mu != pd.Mu || pr.C != pd.C || pr.CSigma != pd.CSigma || pr.DSigma != pd.DSigma {
			t.Errorf("n = %d: recommended %+v, paper %+v", n, pr, pd)
		}
	}
	for _, n := range []int{0, -1} {
		if _, err := mmaes.New(mmaes.RecommendedConfig(n)); err == nil {
			t.Errorf("n = %d accepted", n)
		}
	}
}

// TestRecommendedAllocs: with RecommendedConfig (active rank-μ, BIPOP, every
// stop of the recommended set), generations between restarts allocate
// nothing, NoEffect's decompositions and Stagnation's records included.
func TestRecommendedAllocs(t *testing.T) {
	const n = 6
	cfg := mmaes.RecommendedConfig(n)
	cfg.Mean = []float64{1, 2, 3, 4, 5, 6}
	o := mustNew(t, cfg)
	fit := make([]float64, 1<<12)
	gen := func() {
		xs := o.Ask()
		for i, x := range xs {
			fit[i] = benchfn.Rastrigin(x)
		}
		if err := o.Tell(fit[:len(xs)]); err != nil {
			t.Fatal(err)
		}
	}
	for o.Restarts() < 2 {
		gen()
	}
	restarts := o.Restarts()
	if a := testing.AllocsPerRun(3*n, gen); a != 0 || o.Restarts() != restarts {
		t.Errorf("%v allocs per generation (restarts %d → %d)", a, restarts, o.Restarts())
	}
}

// TestRecommendedRotationInvariant: the active update is rotation
// invariant like the paper's: RecommendedConfig on the ellipsoid at n = 8
// (the paper's start, 7 seeds) needs within 1.25× the median evaluations
// on f(R·x) of those on f(x), and reaches the target on both.
func TestRecommendedRotationInvariant(t *testing.T) {
	const n = 8
	fn, _ := benchfn.ByName("ell")
	rec := func(cfg *mmaes.Config) {
		r := mmaes.RecommendedConfig(n)
		cfg.RankMu, cfg.Active, cfg.NoEffect, cfg.Stagnation, cfg.FlatFitness, cfg.Hopeless =
			true, true, r.NoEffect, r.Stagnation, r.FlatFitness, r.Hopeless
	}
	var plain, rotated []int
	for seed := uint64(1); seed <= 7; seed++ {
		for _, rot := range []bool{false, true} {
			f := fn.F
			if rot {
				f = benchfn.Rotated(fn.F, benchfn.Rotation(n, 100+seed), n)
			}
			res, err := convRunOnce("MMA", f, n, seed, fn.Target, convBudget(n), rec)
			if err != nil || !(res.F <= fn.Target) {
				t.Fatalf("seed %d rotated %v: %v %v", seed, rot, res.Reason, err)
			}
			if rot {
				rotated = append(rotated, res.Evals)
			} else {
				plain = append(plain, res.Evals)
			}
		}
	}
	slices.Sort(plain)
	slices.Sort(rotated)
	mp, mr := float64(plain[3]), float64(rotated[3])
	t.Logf("ellipsoid n=%d, active: median evaluations %v on f(x), %v on f(R·x)", n, mp, mr)
	if mr > 1.25*mp || mp > 1.25*mr {
		t.Errorf("median evaluations %v on f(x) but %v on f(R·x)", mp, mr)
	}
}
