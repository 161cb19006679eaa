package mmaes_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mmaes-go/mmaes"
	"github.com/mmaes-go/mmaes/benchfn"
)

// TestWorkersBitForBit: Optimize with Workers = 2, 3, 8 and 64 ends in the
// state of the sequential run, bit for bit, for each update rule and with
// rank-μ, bounds and restarts (run it with -race).
func TestWorkersBitForBit(t *testing.T) {
	type tc struct {
		name string
		cfg  func() mmaes.Config
		f    func([]float64) float64
	}
	var cases []tc
	for _, u := range allUpdates {
		cases = append(cases, tc{u.String(), func() mmaes.Config {
			c := startConfig(7, u, 5)
			c.TargetF = 1e-10
			return c
		}, ellipsoid})
	}
	cases = append(cases, tc{"rank-μ+bounds+BIPOP", func() mmaes.Config {
		c := startConfig(6, mmaes.MMA, 2)
		c.RankMu, c.Restart, c.MaxRestarts, c.MaxGenerations = true, mmaes.BIPOP, 3, 60
		c.Lower, c.Upper = make([]float64, 6), make([]float64, 6)
		for i := range c.Lower {
			c.Lower[i], c.Upper[i] = -10, 10
		}
		return c
	}, benchfn.Rastrigin})
	for _, c := range cases {
		seq := mustNew(t, c.cfg())
		want, err := seq.Optimize(context.Background(), c.f)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []int{2, 3, 8, 64} {
			cfg := c.cfg()
			cfg.Workers = w
			o := mustNew(t, cfg)
			var calls atomic.Int64
			got, err := o.Optimize(context.Background(), func(x []float64) float64 {
				calls.Add(1)
				return c.f(x)
			})
			if err != nil {
				t.Fatal(err)
			}
			if got.F != want.F || got.Evals != want.Evals || got.Restarts != want.Restarts || !slicesEqual(got.X, want.X) ||
				int(calls.Load()) != got.Evals {
				t.Errorf("%s workers=%d: %+v (%d calls), want %+v", c.name, w, got, calls.Load(), want)
			}
			// The checkpoint holds Config.Workers; compare the rest.
			if !bytes.Equal(noWorkers(t, o, state(t, o)), state(t, seq)) {
				t.Errorf("%s workers=%d: state differs from the sequential run", c.name, w)
			}
		}
	}
}

// noWorkers returns checkpoint b of o with Config.Workers set to 0 and the
// CRC fixed.
func noWorkers(t *testing.T, o *mmaes.Optimizer, b []byte) []byte {
	return rewrite(b, ckLayout(t, o)["cfg.Workers"], 0)
}

// TestWorkersConcurrent: with Workers = 4 and an objective that sleeps, the
// evaluations of a generation overlap (at least 2 run at once) and no more
// than 4 run at once.
func TestWorkersConcurrent(t *testing.T) {
	cfg := startConfig(4, mmaes.MMA, 1)
	cfg.Workers, cfg.MaxGenerations, cfg.Lambda = 4, 3, 16
	var running, peak atomic.Int64
	_, err := mustNew(t, cfg).Optimize(context.Background(), func(x []float64) float64 {
		r := running.Add(1)
		for {
			p := peak.Load()
			if r <= p || peak.CompareAndSwap(p, r) {
				break
			}
		}
		time.Sleep(2 * time.Millisecond)
		running.Add(-1)
		return sphere(x)
	})
	if err != nil {
		t.Fatal(err)
	}
	if p := peak.Load(); p < 2 || p > 4 {
		t.Errorf("peak concurrency %d, want 2..4", p)
	}
}

// TestWorkersCancel: cancelling Optimize with workers returns Canceled with
// the generation pending and no goroutine left behind; the run then
// continues exactly as one never interrupted.
func TestWorkersCancel(t *testing.T) {
	cfg := startConfig(6, mmaes.MMA, 9)
	cfg.TargetF, cfg.Workers = 1e-8, 3
	whole, err := mustNew(t, cfg).Optimize(context.Background(), sphere)
	if err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	o := mustNew(t, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	var evals atomic.Int64
	res, err := o.Optimize(ctx, func(x []float64) float64 {
		if evals.Add(1) == 100 {
			cancel()
		}
		return sphere(x)
	})
	if res.Reason != mmaes.Canceled || !errors.Is(err, context.Canceled) || o.Reason() != mmaes.NotStopped {
		t.Fatalf("cancelled: %v, %v, %v", res.Reason, err, o.Reason())
	}
	if res.Evals >= 100 || res.Evals%o.Lambda() != 0 {
		t.Errorf("%d evals told at cancel", res.Evals)
	}
	waitGoroutines(t, before)
	rest, err := o.Optimize(context.Background(), sphere)
	if err != nil || rest.Evals != whole.Evals || rest.F != whole.F || !slicesEqual(rest.X, whole.X) {
		t.Errorf("resumed %+v, want %+v", rest, whole)
	}
	waitGoroutines(t, before)
}

// waitGoroutines waits (up to a second) until at most n goroutines run.
func waitGoroutines(t *testing.T, n int) {
	t.Helper()
	for i := 0; i < 100 && runtime.NumGoroutine() > n; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > n {
		t.Errorf("%d goroutines, want at most %d: the pool leaked", g, n)
	}
}

// TestWorkersPanic: a panic in the objective on a worker reaches the caller
// of Optimize, and the pool is gone.
func TestWorkersPanic(t *testing.T) {
	before := runtime.NumGoroutine()
	cfg := startConfig(4, mmaes.MMA, 1)
	cfg.Workers, cfg.Lambda = 4, 32
	var calls atomic.Int64
	func() {
		defer func() {
			r := recover()
			if r == nil || !strings.Contains(fmt.Sprint(r), "boom") {
				t.Errorf("recovered %v, want the objective's panic", r)
			}
		}()
		mustNew(t, cfg).Optimize(context.Background(), func(x []float64) float64 {
			if calls.Add(1) == 40 {
				panic("boom")
			}
			return sphere(x)
		})
		t.Error("Optimize returned")
	}()
	waitGoroutines(t, before)
}

// TestWorkersAllocs: a generation inside Optimize with workers allocates
// nothing (the pool is started once per Optimize call, not per
// generation).
func TestWorkersAllocs(t *testing.T) {
	for _, w := range []int{2, 4} {
		cfg := startConfig(16, mmaes.MMA, 1)
		cfg.TolFun, cfg.TolX, cfg.Workers, cfg.RankMu = 0, 0, w, true
		const gens = 30
		cfg.MaxGenerations = gens + 1
		var ms runtime.MemStats
		var first, last uint64
		cfg.Observer = func(o *mmaes.Optimizer) {
			runtime.ReadMemStats(&ms)
			if o.Generation() == 1 {
				first = ms.Mallocs
			}
			last = ms.Mallocs
		}
		if _, err := mustNew(t, cfg).Optimize(context.Background(), sphere); err != nil {
			t.Fatal(err)
		}
		if a := (last - first) / gens; a != 0 {
			t.Errorf("workers=%d: %d allocs in %d generations", w, last-first, gens)
		}
	}
}

// TestWorkersStoppedRun: Optimize on a stopped run starts no pool and
// returns at once.
func TestWorkersStoppedRun(t *testing.T) {
	cfg := startConfig(3, mmaes.MMA, 1)
	cfg.Workers, cfg.MaxGenerations = 4, 2
	o := mustNew(t, cfg)
	if _, err := o.Optimize(context.Background(), sphere); err != nil {
		t.Fatal(err)
	}
	called := false
	res, err := o.Optimize(context.Background(), func([]float64) float64 { called = true; return math.NaN() })
	if called || err != nil || res.Reason != mmaes.MaxGenerationsReached {
		t.Errorf("second Optimize: %+v %v called=%v", res, err, called)
	}
}

// goroutineID returns the id of the calling goroutine, from its stack
// header ("goroutine 7 [running]:").
func goroutineID() string {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return ""
	}
	return f[1]
}

// TestWorkersGoexit: runtime.Goexit in the objective (what t.FailNow does),
// on a worker or on Optimize's own goroutine, ends Optimize by
// runtime.Goexit on the caller's goroutine, as the objective would with
// Workers = 1; no goroutine is left behind and the optimizer can go on.
// (On a worker it used to hang Optimize: the pool waited for a worker that
// had ended.)
func TestWorkersGoexit(t *testing.T) {
	for _, onWorker := range []bool{true, false} {
		before := runtime.NumGoroutine()
		cfg := startConfig(4, mmaes.MMA, 1)
		cfg.Workers, cfg.Lambda = 4, 32
		o := mustNew(t, cfg)
		var exited atomic.Bool
		var caller atomic.Value
		done := make(chan bool)
		go func() {
			returned := false
			defer func() { done <- returned }()
			caller.Store(goroutineID())
			o.Optimize(context.Background(), func(x []float64) float64 {
				if (goroutineID() != caller.Load()) == onWorker && exited.CompareAndSwap(false, true) {
					runtime.Goexit()
				}
				time.Sleep(10 * time.Microsecond) // let every goroutine take candidates
				return sphere(x)
			})
			returned = true
		}()
		select {
		case returned := <-done:
			if returned || !exited.Load() {
				t.Errorf("Goexit on a worker %v: Optimize returned %v, Goexit called %v", onWorker, returned, exited.Load())
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("Goexit on a worker %v: Optimize hangs", onWorker)
		}
		waitGoroutines(t, before)
		// The generation is still pending: the run continues.
		res, err := o.Optimize(context.Background(), sphere)
		if err != nil || res.Evals == 0 {
			t.Errorf("Goexit on a worker %v: the optimizer does not go on: %v, %+v", onWorker, err, res)
		}
	}
}

// TestWorkersAtMostCandidates: Workers far above λ starts at most λ − 1
// extra goroutines, and more only when a restart grows λ.
func TestWorkersAtMostCandidates(t *testing.T) {
	before := runtime.NumGoroutine()
	cfg := startConfig(4, mmaes.MMA, 1)
	cfg.Workers, cfg.Restart, cfg.MaxRestarts, cfg.MaxGenerations = 65536, mmaes.IPOP, 2, 5
	o := mustNew(t, cfg)
	peak := map[int]int{} // λ → the most goroutines seen
	var mu sync.Mutex
	_, err := o.Optimize(context.Background(), func(x []float64) float64 {
		g := runtime.NumGoroutine() - before
		mu.Lock()
		peak[o.Lambda()] = max(peak[o.Lambda()], g)
		mu.Unlock()
		return sphere(x)
	})
	if err != nil || o.Restarts() != 2 {
		t.Fatalf("%v, %d restarts", err, o.Restarts())
	}
	for lam, g := range peak {
		if g > lam-1 {
			t.Errorf("λ = %d: %d extra goroutines", lam, g)
		}
	}
	if len(peak) != 3 {
		t.Errorf("λ values seen: %v", peak)
	}
	waitGoroutines(t, before)
}

// TestWorkersReconfigured: Workers changed by the observer during Optimize
// takes effect from the next generation: lowered to 1, the objective is
// never called concurrently (all the pool's goroutines were still woken);
// raised beyond the pool's first size, more calls run at once (the pool
// could not grow past it). The run is the same bits as with Workers = 1.
func TestWorkersReconfigured(t *testing.T) {
	cfg := mmaes.DefaultConfig(10)
	cfg.Seed, cfg.Workers, cfg.MaxGenerations = 9, 3, 12
	var inFlight, most atomic.Int32
	var phase atomic.Int32 // 0: Workers 3, 1: lowered to 1, 2: raised to 10
	var mostLowered, mostRaised atomic.Int32
	f := func(x []float64) float64 {
		now := inFlight.Add(1)
		defer inFlight.Add(-1)
		for {
			m := most.Load()
			if now <= m || most.CompareAndSwap(m, now) {
				break
			}
		}
		switch phase.Load() {
		case 1:
			if now > mostLowered.Load() {
				mostLowered.Store(now)
			}
		case 2:
			if now > mostRaised.Load() {
				mostRaised.Store(now)
			}
		}
		time.Sleep(500 * time.Microsecond)
		return sphere(x)
	}
	cfg.Observer = func(o *mmaes.Optimizer) {
		switch o.Generation() {
		case 3:
			if err := o.Reconfigure(func(c *mmaes.Config) { c.Workers = 1 }); err != nil {
				t.Error(err)
			}
			phase.Store(1)
		case 7:
			if err := o.Reconfigure(func(c *mmaes.Config) { c.Workers = 10 }); err != nil {
				t.Error(err)
			}
			phase.Store(2)
		}
	}
	o := mustNew(t, cfg)
	res, err := o.Optimize(t.Context(), f)
	if err != nil {
		t.Fatal(err)
	}
	if mostLowered.Load() != 1 || mostRaised.Load() <= 3 {
		t.Errorf("calls at once: %d with Workers lowered to 1 (want 1), %d raised to 10 (want > 3)", mostLowered.Load(), mostRaised.Load())
	}
	serial := cfg
	serial.Workers, serial.Observer = 1, nil
	want, err := mustNew(t, serial).Optimize(t.Context(), sphere)
	if err != nil {
		t.Fatal(err)
	}
	if res.F != want.F || res.Evals != want.Evals || !slices.Equal(res.X, want.X) {
		t.Errorf("result %v, want the serial run's %v", res, want)
	}
}
