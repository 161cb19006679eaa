package mmaes_test

import (
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/mmaes-go/mmaes"
)

// TestStatus: a goroutine reads the status while another runs Optimize
// (with workers, restarts and a fixed coordinate): the counters never go
// back, the best value never rises, the vectors are full length, and the
// last status is the Result. Reading allocates nothing. Under -race this
// also checks the locking.
func TestStatus(t *testing.T) {
	cfg := startConfig(5, mmaes.MMA, 4)
	cfg.Restart, cfg.MaxEvals, cfg.Workers = mmaes.IPOP, 20000, 2
	cfg.Fixed = map[int]float64{1: 0.5}
	o := mustNew(t, cfg)
	var st mmaes.Status
	o.Status(&st)
	if st.Generation != 0 || !math.IsNaN(st.BestF) || len(st.Mean) != 5 || st.Mean[1] != 0.5 ||
		math.Abs(st.StdMin-cfg.Sigma) > 1e-15*cfg.Sigma || st.StdMax != st.StdMin {
		t.Fatalf("status at the start: %+v", st)
	}
	done, started := make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	reads := 0
	go func() {
		defer wg.Done()
		var s mmaes.Status
		lastGen, lastBest := 0, math.Inf(1)
		for {
			select {
			case <-done:
				return
			default:
			}
			o.Status(&s)
			reads++
			if reads == 1 {
				close(started) // the run starts once the reader runs
			}
			if s.Generation < lastGen || s.BestF > lastBest || len(s.BestX) != 5 || s.BestX[1] != 0.5 || !(s.StdMin <= s.StdMax) {
				t.Errorf("status %+v after generation %d, best %v", s, lastGen, lastBest)
				return
			}
			lastGen = s.Generation
			if !math.IsNaN(s.BestF) {
				lastBest = s.BestF
			}
		}
	}()
	<-started
	res, err := o.Optimize(t.Context(), rastrigin)
	close(done)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	o.Status(&st)
	if st.Generation != res.Generations || st.Evals != res.Evals || st.BestF != res.F || st.Reason != res.Reason ||
		st.Restarts != res.Restarts || !slices.Equal(st.BestX, res.X) || !slices.Equal(st.Mean, res.Mean) || st.Lambda != o.Lambda() {
		t.Errorf("last status %+v, result %+v", st, res)
	}
	if reads == 0 {
		t.Error("the reader never ran")
	}
	if a := testing.AllocsPerRun(20, func() { o.Status(&st) }); a != 0 {
		t.Errorf("Status allocates %v times", a)
	}
	var zero mmaes.Optimizer
	zero.Status(&st)
	if !math.IsNaN(st.BestF) || st.Generation != 0 {
		t.Errorf("status of an uninitialized optimizer: %+v", st)
	}
}

// TestStatusDeviationsBoundedAndRestarted: with MinStd or MaxStd (A is
// scanned every generation), Status's StdMin and StdMax are those of
// StdDevs after σ was bounded (they were taken before); after an IPOP
// restart they are the new run's (they stayed the stopped run's until the
// next scan). Both sides are σ times row norms of A summed in different
// orders: they agree to 16·n roundings.
func TestStatusDeviationsBoundedAndRestarted(t *testing.T) {
	agree := func(t *testing.T, o *mmaes.Optimizer, what string) {
		t.Helper()
		var st mmaes.Status
		o.Status(&st)
		dev := o.StdDevs(nil)
		lo, hi := slices.Min(dev), slices.Max(dev)
		tol := 16 * float64(len(dev)) * 0x1p-52
		if math.Abs(st.StdMin-lo) > tol*lo || math.Abs(st.StdMax-hi) > tol*hi {
			t.Fatalf("%s, generation %d: Status has %g … %g, StdDevs %g … %g", what, o.Generation(), st.StdMin, st.StdMax, lo, hi)
		}
	}
	for _, c := range []struct {
		name string
		edit func(*mmaes.Config)
	}{
		{"MinStd", func(c *mmaes.Config) { c.MinStd = 0.5 }},
		{"MaxStd", func(c *mmaes.Config) { c.MaxStd = 0.05 }},
	} {
		for _, u := range allUpdates {
			cfg := mmaes.DefaultConfig(4)
			cfg.Update, cfg.Seed, cfg.Sigma = u, 1, 1
			c.edit(&cfg)
			o := mustNew(t, cfg)
			for range 30 {
				runGens(t, o, sphere, 1)
				agree(t, o, c.name+"/"+u.String())
			}
		}
	}
	for _, u := range allUpdates {
		cfg := mmaes.DefaultConfig(40)
		cfg.Update, cfg.Seed, cfg.Sigma = u, 3, 1
		cfg.Restart, cfg.MaxRestarts, cfg.TolX = mmaes.IPOP, 2, 1e-3
		o := mustNew(t, cfg)
		for o.Reason() == mmaes.NotStopped && o.Restarts() == 0 {
			runGens(t, o, sphere, 1)
		}
		if o.Restarts() != 1 {
			t.Fatalf("%v: no restart (%v)", u, o.Reason())
		}
		agree(t, o, "restarted/"+u.String())
	}
}

// TestStatusAskRestart: an Ask whose candidates overflow (a mean at the
// edge of the float64 range) restarts the run before the candidates it
// returns; Status shows that run (its restarts and λ) at once, not only
// after the next Tell.
func TestStatusAskRestart(t *testing.T) {
	cfg := mmaes.DefaultConfig(4)
	cfg.Mean = slices.Repeat([]float64{1.7e308}, 4)
	cfg.Sigma, cfg.Restart, cfg.Seed = 1e307, mmaes.BIPOP, 3
	opt, err := mmaes.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if opt.Ask() == nil || opt.Restarts() == 0 {
		t.Fatalf("Ask: %v after %d restarts; the test needs a restart in Ask", opt.Reason(), opt.Restarts())
	}
	var st mmaes.Status
	opt.Status(&st)
	if st.Restarts != opt.Restarts() || st.Lambda != opt.Lambda() || st.Reason != mmaes.NotStopped {
		t.Errorf("Status after Ask: %d restarts, λ %d, %v; the optimizer: %d, %d", st.Restarts, st.Lambda, st.Reason, opt.Restarts(), opt.Lambda())
	}
}
