package mmaes_test

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/mmaes-go/mmaes"
	"github.com/mmaes-go/mmaes/benchfn"
)

// runLog records, per generation, the λ, the restart count, σ and whether
// the mean is the initial one, as the observer sees them.
type runLog struct {
	lambda, restarts []int
	sigma            []float64
	atStart          []bool
	m0               []float64
}

func (l *runLog) observe(o *mmaes.Optimizer) {
	l.lambda = append(l.lambda, o.Lambda())
	l.restarts = append(l.restarts, o.Restarts())
	l.sigma = append(l.sigma, o.Sigma())
	l.atStart = append(l.atStart, slicesEqual(o.Mean(), l.m0))
}

// TestIPOPSchedule: a constant function stops every run on TolFun; IPOP
// restarts MaxRestarts times with λ doubling, from the initial mean with σ0,
// and reports the restarts and the last run's reason.
func TestIPOPSchedule(t *testing.T) {
	cfg := startConfig(5, mmaes.MMA, 3)
	cfg.Restart, cfg.MaxRestarts = mmaes.IPOP, 4
	log := runLog{m0: cfg.Mean}
	cfg.Observer = log.observe
	o := mustNew(t, cfg)
	lambda0 := o.Lambda()
	res, err := o.Optimize(context.Background(), func([]float64) float64 { return 1 })
	if err != nil || res.Reason != mmaes.TolFunReached || res.Restarts != 4 || o.Restarts() != 4 {
		t.Fatalf("%v %v restarts %d", res.Reason, err, res.Restarts)
	}
	// The observer runs after a restart: the generation that ended run k
	// already shows run k+1's λ, σ0 and the initial mean.
	k := 0
	evals := lambda0 // the first generation's
	for g := range log.lambda {
		if g > 0 {
			evals += log.lambda[g-1] // generation g ran with the λ seen after g−1
		}
		if log.restarts[g] != k {
			if log.restarts[g] != k+1 || log.sigma[g] != cfg.Sigma || !log.atStart[g] {
				t.Fatalf("generation %d: restarts %d after %d, σ %g, at the initial mean %v",
					g+1, log.restarts[g], k, log.sigma[g], log.atStart[g])
			}
			k++
		}
		if want := lambda0 << k; log.lambda[g] != want {
			t.Fatalf("generation %d (run %d): λ = %d, want %d", g+1, k, log.lambda[g], want)
		}
	}
	if res.Evals != evals {
		t.Errorf("Evals %d, want %d", res.Evals, evals)
	}
}

// TestBIPOPSchedule checks the BIPOP regimes against an independent
// replay of the rule: the first run counts as small; the next run is small
// while the small runs spent fewer evaluations than the large ones; large
// runs double λ; small ones have λ in [λ0, λ_L] and σ in (σ0/100, σ0].
func TestBIPOPSchedule(t *testing.T) {
	cfg := startConfig(4, mmaes.MMA, 8)
	cfg.Restart, cfg.MaxRestarts, cfg.RankMu = mmaes.BIPOP, 6, true
	cfg.MaxGenerations = 40
	var log runLog
	var runEvals []int // evaluations per finished run
	var runLambda []int
	last := 0
	cfg.Observer = func(o *mmaes.Optimizer) {
		if len(log.restarts) > 0 && o.Restarts() != log.restarts[len(log.restarts)-1] {
			runEvals = append(runEvals, o.Evals()-last)
			runLambda = append(runLambda, log.lambda[len(log.lambda)-1])
			last = o.Evals()
		}
		log.observe(o)
	}
	o := mustNew(t, cfg)
	lambda0 := o.Lambda()
	log.lambda, log.restarts, log.sigma = []int{lambda0}, []int{0}, []float64{cfg.Sigma}
	res, err := o.Optimize(context.Background(), func(x []float64) float64 { return benchfn.Rastrigin(x) })
	if err != nil || res.Restarts < 6 {
		t.Fatalf("%v %v restarts %d", res.Reason, err, res.Restarts)
	}
	small, large := 0, 0
	isSmall := true
	largeRuns := 0
	for k, e := range runEvals {
		if runLambda[k] < lambda0 {
			t.Fatalf("run %d: λ %d < λ0", k, runLambda[k])
		}
		if isSmall {
			small += e
		} else {
			large += e
		}
		// The next run.
		isSmall = small < large
		next := 0
		for g := range log.restarts {
			if log.restarts[g] == k+1 {
				next = g
				break
			}
		}
		lam, sig := log.lambda[next], log.sigma[next]
		if isSmall {
			lamL := lambda0 << largeRuns
			if lam < lambda0 || lam > lamL || !(sig > cfg.Sigma/100 && sig <= cfg.Sigma) {
				t.Fatalf("small run %d: λ %d (λ_L %d), σ %g", k+1, lam, lamL, sig)
			}
		} else {
			largeRuns++
			if lam != lambda0<<largeRuns || sig != cfg.Sigma {
				t.Fatalf("large run %d: λ %d, want %d; σ %g", k+1, lam, lambda0<<largeRuns, sig)
			}
		}
	}
	// MaxRestarts limits the large runs; small ones come in between.
	if largeRuns != 6 || largeRuns == len(runEvals) {
		t.Errorf("%d large runs of %d restarts, want 6 and some small ones", largeRuns, len(runEvals))
	}
}

// TestRestartRules: no restart on TargetF or MaxEvals, nor without a
// strategy; MaxEvals counts all runs; the best is the best over all runs.
func TestRestartRules(t *testing.T) {
	ctx := context.Background()
	for _, r := range []mmaes.Restart{mmaes.IPOP, mmaes.BIPOP} {
		cfg := startConfig(4, mmaes.MMA, 1)
		cfg.Restart, cfg.TargetF = r, 1e-3
		res, err := mustNew(t, cfg).Optimize(ctx, sphere)
		if err != nil || res.Reason != mmaes.TargetReached || res.Restarts != 0 {
			t.Errorf("%v target: %v %v %d", r, res.Reason, err, res.Restarts)
		}

		cfg = startConfig(4, mmaes.MMA, 1)
		cfg.Restart, cfg.MaxGenerations, cfg.MaxEvals = r, 10, 1000
		o := mustNew(t, cfg)
		res, err = o.Optimize(ctx, sphere)
		if err != nil || res.Reason != mmaes.MaxEvalsReached || res.Restarts == 0 || res.Evals < 1000 || res.Evals >= 1000+o.Lambda() {
			t.Errorf("%v MaxEvals: %v %v restarts %d evals %d", r, res.Reason, err, res.Restarts, res.Evals)
		}

		// All NaN: each run stops after one generation; the restarts run
		// out and the last reason is AllNaN.
		cfg = startConfig(4, mmaes.MMA, 1)
		cfg.Restart, cfg.MaxRestarts = r, 3
		res, err = mustNew(t, cfg).Optimize(ctx, func([]float64) float64 { return math.NaN() })
		// (BIPOP: 3 large runs and the small ones the budget rule allows.)
		if res.Reason != mmaes.AllNaN || res.Restarts < 3 || res.Generations != res.Restarts+1 || err == nil ||
			r == mmaes.IPOP && res.Restarts != 3 {
			t.Errorf("%v AllNaN: %v %v restarts %d gens %d", r, res.Reason, err, res.Restarts, res.Generations)
		}

		// The best over all runs: a function whose value decreases with
		// the generation count keeps improving, and a function that only
		// the first run sees well keeps the first run's best.
		calls := 0
		cfg = startConfig(3, mmaes.MMA, 2)
		cfg.Restart, cfg.MaxGenerations, cfg.MaxRestarts = r, 5, 3
		res, _ = mustNew(t, cfg).Optimize(ctx, func(x []float64) float64 {
			calls++
			if calls == 3 {
				return -1
			}
			return sphere(x)
		})
		if res.F != -1 || res.Restarts < 3 || r == mmaes.IPOP && res.Restarts != 3 {
			t.Errorf("%v best over runs: F %g, restarts %d", r, res.F, res.Restarts)
		}
	}
	// NoRestart: MaxGenerations ends the run.
	cfg := startConfig(4, mmaes.MMA, 1)
	cfg.MaxGenerations = 5
	res, _ := mustNew(t, cfg).Optimize(ctx, sphere)
	if res.Restarts != 0 || res.Reason != mmaes.MaxGenerationsReached || res.Generations != 5 {
		t.Errorf("no restart: %+v", res)
	}
}

// TestRestartCheckpoint saves and restores runs with restarts (and bounds
// and rank-μ) at many points, also right after restarts and between Ask
// and Tell: every resumed run ends in the state of the run never
// interrupted.
func TestRestartCheckpoint(t *testing.T) {
	for _, r := range []mmaes.Restart{mmaes.IPOP, mmaes.BIPOP} {
		for _, variant := range []string{"paper", "rank-μ", "recommended"} {
			rankMu := variant != "paper"
			cfg := startConfig(5, mmaes.MMA, 4)
			cfg.Restart, cfg.RankMu, cfg.MaxGenerations, cfg.MaxRestarts = r, rankMu, 25, 6
			if variant == "recommended" {
				rec := mmaes.RecommendedConfig(5)
				cfg.Active, cfg.NoEffect, cfg.Stagnation, cfg.FlatFitness, cfg.Hopeless =
					rec.Active, rec.NoEffect, rec.Stagnation, rec.FlatFitness, rec.Hopeless
			}
			cfg.Lower = []float64{-10, -10, -1, 0, -20}
			cfg.Upper = []float64{10, 10, 1, 10, 20}
			cfg.Mean = []float64{1, 2, 0.5, 4, -3}
			whole := mustNew(t, cfg)
			res, err := whole.Optimize(context.Background(), benchfn.Rastrigin)
			if err != nil || res.Restarts < 6 {
				t.Fatalf("%v: %v %v restarts %d", r, res.Reason, err, res.Restarts)
			}
			want := state(t, whole)
			for _, cut := range []int{1, 25, 26, 51, 70, 100} {
				o := mustNew(t, cfg)
				runGensAny(t, o, benchfn.Rastrigin, cut)
				if cut%2 == 0 {
					o.Ask() // save with pending candidates
				}
				var back mmaes.Optimizer
				if err := back.UnmarshalBinary(state(t, o)); err != nil {
					t.Fatalf("%v cut %d: %v", r, cut, err)
				}
				if !bytes.Equal(state(t, &back), state(t, o)) {
					t.Fatalf("%v cut %d: restored state differs", r, cut)
				}
				if _, err := back.Optimize(context.Background(), benchfn.Rastrigin); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(state(t, &back), want) {
					t.Errorf("%v %s: resumed at generation %d, the run differs", r, variant, cut)
				}
			}
		}
	}
}

// TestRestartAllocs: generations between restarts allocate nothing, also
// after a restart has grown the population.
func TestRestartAllocs(t *testing.T) {
	for _, r := range []mmaes.Restart{mmaes.IPOP, mmaes.BIPOP} {
		cfg := startConfig(8, mmaes.MMA, 1)
		cfg.Restart, cfg.RankMu, cfg.MaxGenerations = r, true, 40
		cfg.Lower, cfg.Upper = make([]float64, 8), make([]float64, 8)
		for i := range cfg.Lower {
			cfg.Lower[i], cfg.Upper[i] = -10, 10
		}
		o := mustNew(t, cfg)
		fit := make([]float64, 1<<12)
		gen := func() {
			xs := o.Ask()
			for i, x := range xs {
				fit[i] = sphere(x)
			}
			if err := o.Tell(fit[:len(xs)]); err != nil {
				t.Fatal(err)
			}
		}
		for o.Restarts() < 1 {
			gen()
		}
		if o.Generation() != 40 {
			t.Fatalf("%v: restarted at generation %d", r, o.Generation())
		}
		if a := testing.AllocsPerRun(20, gen); a != 0 || o.Restarts() != 1 {
			t.Errorf("%v: %v allocs per generation after a restart", r, a)
		}
	}
}

// rastriginStart is the restart set-up: x0 uniform in [−5, 5]^10 (its own
// generator, seeded by seed), σ0 = 2, target 1e-8, budget 10⁶ evaluations.
func rastriginStart(seed uint64, r mmaes.Restart, rankMu bool) mmaes.Config {
	const n = 10
	rng := rand.New(rand.NewPCG(seed, 0x7261))
	cfg := mmaes.DefaultConfig(n)
	cfg.Mean = make([]float64, n)
	for i := range cfg.Mean {
		cfg.Mean[i] = 10*rng.Float64() - 5
	}
	cfg.Sigma, cfg.Seed = 2, seed
	cfg.TargetF, cfg.MaxEvals = 1e-8, 1_000_000
	cfg.Restart, cfg.RankMu = r, rankMu
	return cfg
}

// TestRastrigin: IPOP and BIPOP (with rank-μ) reach
// f ≤ 1e-8 on Rastrigin at n = 10 within 10⁶ evaluations on at least 5 of 7
// seeds, where single runs (with and without rank-μ) mostly fail (at most 2
// of 7). IPOP and BIPOP without rank-μ are run for the record. About two
// seconds; skipped with -short.
func TestRastrigin(t *testing.T) {
	if testing.Short() {
		t.Skip("about ten seconds")
	}
	cases := []struct {
		name    string
		r       mmaes.Restart
		rankMu  bool
		atLeast int
		atMost  int
	}{
		{"single", mmaes.NoRestart, false, 0, 2},
		{"single+rank-μ", mmaes.NoRestart, true, 0, 2},
		{"IPOP+rank-μ", mmaes.IPOP, true, 5, 7},
		{"BIPOP+rank-μ", mmaes.BIPOP, true, 5, 7},
		{"IPOP", mmaes.IPOP, false, 0, 7}, // for the record
		{"BIPOP", mmaes.BIPOP, false, 0, 7},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ok := 0
			for seed := uint64(1); seed <= 7; seed++ {
				res, err := mustNew(t, rastriginStart(seed, c.r, c.rankMu)).Optimize(context.Background(), benchfn.Rastrigin)
				if err != nil {
					t.Log(err)
				}
				if res.F <= 1e-8 {
					ok++
				}
				t.Logf("seed %d: f=%.3g evals=%d restarts=%d reason=%v", seed, res.F, res.Evals, res.Restarts, res.Reason)
			}
			if ok < c.atLeast || ok > c.atMost {
				t.Errorf("%d of 7 runs reached 1e-8, want %d to %d", ok, c.atLeast, c.atMost)
			}
			t.Logf("Rastrigin n=10 %s: %d/7", c.name, ok)
		})
	}
}

// runGensAny runs g generations by Ask and Tell with a λ that may change
// (restarts).
func runGensAny(t testing.TB, o *mmaes.Optimizer, f func([]float64) float64, g int) {
	t.Helper()
	var fit []float64
	for i := 0; i < g && o.Reason() == mmaes.NotStopped; i++ {
		xs := o.Ask()
		fit = append(fit[:0], make([]float64, len(xs))...)
		for k, x := range xs {
			fit[k] = f(x)
		}
		if err := o.Tell(fit); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRestartBreakdownEnds: runs that break down (σ0 near the largest
// float64, the objective pushing outward), also in sampling, end the
// optimization after finitely many restarts for both strategies.
func TestRestartBreakdownEnds(t *testing.T) {
	for _, r := range []mmaes.Restart{mmaes.IPOP, mmaes.BIPOP} {
		for _, sigma := range []float64{1e300, 1e307, math.MaxFloat64 / 8} {
			cfg := startConfig(3, mmaes.MMA, 5)
			cfg.Restart, cfg.Sigma = r, sigma
			// Runs that do not break down end at their generation limit;
			// small limits keep the test short under emulation (qemu).
			cfg.MaxGenerations, cfg.MaxRestarts = 2000, 4
			done := make(chan mmaes.Result, 1)
			go func() {
				res, _ := mustNew(t, cfg).Optimize(context.Background(), func(x []float64) float64 { return -sphere(x) })
				done <- res
			}()
			select {
			case res := <-done:
				if res.Reason == mmaes.NotStopped || res.Reason == mmaes.Canceled {
					t.Errorf("%v σ0=%g: %v after %d restarts", r, sigma, res.Reason, res.Restarts)
				}
			case <-time.After(2 * time.Minute): // a hang detector, not a timing
				t.Fatalf("%v σ0=%g: no end", r, sigma)
			}
		}
	}
}
