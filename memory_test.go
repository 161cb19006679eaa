package mmaes_test

import (
	"context"
	"errors"
	"math"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/mmaes-go/mmaes"
)

// withMemoryLimit runs f with the Go runtime's memory limit set to limit.
func withMemoryLimit(limit int64, f func()) {
	old := debug.SetMemoryLimit(limit)
	defer debug.SetMemoryLimit(old)
	f()
}

// TestMemoryRefused: a Config whose first run needs more than the budget is
// refused by New (and Config.Params) with a ConfigError naming MaxMemory,
// instead of dying in the allocation: n = 100000 (A alone is 80 GB), λ =
// 2²⁰ at n = 1000 (a 25 GB population); the budget is Config.MaxMemory or,
// when it is 0, the runtime's memory limit.
func TestMemoryRefused(t *testing.T) {
	big := mmaes.DefaultConfig(100000)
	pop := mmaes.DefaultConfig(1000)
	pop.Lambda = 1 << 20
	for _, c := range []struct {
		name string
		cfg  mmaes.Config
	}{{"n=100000", big}, {"λ=2^20", pop}} {
		withMemoryLimit(1<<30, func() {
			_, err := mmaes.New(c.cfg)
			var ce *mmaes.ConfigError
			if strconv.IntSize == 32 {
				// Neither fits a 32-bit address space: refused by size.
				if !errors.As(err, &ce) {
					t.Errorf("%s on a 32-bit platform: err = %v", c.name, err)
				}
				return
			}
			if !errors.As(err, &ce) || ce.Field != "MaxMemory" || !strings.Contains(err.Error(), "GiB") {
				t.Errorf("%s with a 1 GiB runtime limit: err = %v", c.name, err)
			}
			if c.name == "n=100000" && !strings.Contains(err.Error(), "LMMA") {
				t.Errorf("%s: the error does not name LMMA: %v", c.name, err)
			}
			if _, err := c.cfg.Params(); err == nil {
				t.Errorf("%s: Config.Params accepts it", c.name)
			}
		})
		cfg := c.cfg
		cfg.MaxMemory = 1 << 30
		if _, err := mmaes.New(cfg); !errors.Is(err, mmaes.ErrInvalidConfig) {
			t.Errorf("%s with MaxMemory 1 GiB: err = %v", c.name, err)
		}
	}
	// The limited memory at n = 10⁵ within 1 GiB: accepted; n = 10⁶ with
	// a budget of 24 GiB too, and refused below its need.
	lm := mmaes.DefaultConfig(100000)
	lm.Update, lm.MaxMemory = mmaes.LMMA, 1<<30
	if _, err := lm.Params(); err != nil {
		t.Errorf("LMMA at n = 10⁵ within 1 GiB: %v", err)
	}
	lm = mmaes.DefaultConfig(1000000)
	lm.Update, lm.MaxMemory = mmaes.LMMA, 24<<30
	if _, err := lm.Params(); (err != nil) != (strconv.IntSize == 32) {
		// 2.3 GB of vectors: beyond what a 32-bit process can address.
		t.Errorf("LMMA at n = 10⁶ within 24 GiB, %d-bit int: %v", strconv.IntSize, err)
	}
	lm.MaxMemory = 1 << 30
	if _, err := lm.Params(); !errors.Is(err, mmaes.ErrInvalidConfig) {
		t.Errorf("LMMA at n = 10⁶ within 1 GiB: err = %v", err)
	}

	// Within the budget: accepted.
	cfg := mmaes.DefaultConfig(64)
	cfg.MaxMemory = 1 << 20
	if _, err := mmaes.New(cfg); err != nil {
		t.Errorf("n = 64 within 1 MiB: %v", err)
	}
	cfg.MaxMemory = 1 << 14 // A alone is 32 KiB
	if _, err := mmaes.New(cfg); err == nil {
		t.Error("n = 64 within 16 KiB: accepted")
	}
	cfg.MaxMemory = -1
	if _, err := mmaes.New(cfg); !errors.Is(err, mmaes.ErrInvalidConfig) {
		t.Errorf("MaxMemory = -1: err = %v", err)
	}
}

// TestMemoryRestartStops: IPOP with a NaN objective doubles λ at every
// restart; with MaxRestarts 15 the largest population would be far over
// the budget, and the optimization ends with MaxMemoryReached, the last
// population within the budget, instead of allocating it.
func TestMemoryRestartStops(t *testing.T) {
	cfg := mmaes.DefaultConfig(500)
	cfg.Restart, cfg.MaxRestarts, cfg.MaxMemory = mmaes.IPOP, 15, 64<<20
	o := mustNew(t, cfg)
	res, err := o.Optimize(context.Background(), func([]float64) float64 { return math.NaN() })
	if err != nil || res.Reason != mmaes.MaxMemoryReached || res.Reason.Failed() {
		t.Fatalf("reason %v, err %v", res.Reason, err)
	}
	// λ0 = 22: populations of 22·2^k points of 500 (24 KiB a point with
	// Z, Y, X); A and its copy take 4 MiB. 2^9 would need 264 MiB.
	if o.Restarts() < 5 || o.Restarts() > 8 {
		t.Errorf("%d restarts, λ = %d", o.Restarts(), o.Lambda())
	}
	if o.Ask() != nil {
		t.Error("Ask after MaxMemoryReached")
	}
}

// TestLMMAHeap: an LMMA optimizer at n = 10⁵ holds at most (2m + 2λ + 16)
// vectors of n on the heap after a few generations (m = Memory +
// FastMemory + 1, the stored pairs p_t, v_t of both rings besides the live
// slow one; the population's Z and X; the mean, the paths, the live slow
// pair, the best point and the scratch space counted in the 16), and
// nothing per generation.
func TestLMMAHeap(t *testing.T) {
	const n = 100000
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	cfg := mmaes.DefaultConfig(n)
	cfg.Update = mmaes.LMMA
	o := mustNew(t, cfg)
	fit := make([]float64, o.Lambda())
	for range 3 {
		for i, x := range o.Ask() {
			fit[i] = x[0]
		}
		if err := o.Tell(fit); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	par := o.Params()
	if par.FastMemory == 0 {
		t.Fatal("no fast terms by default")
	}
	m := par.Memory + par.FastMemory + 1
	bound := uint64(2*m+2*par.Lambda+16) * n * 8
	used := m1.HeapAlloc - m0.HeapAlloc - uint64(8*len(fit))
	t.Logf("heap %.1f MB = %.2f vectors of n; bound %d vectors (m = %d, λ = %d)",
		float64(used)/1e6, float64(used)/(8*n), 2*m+2*par.Lambda+16, m, par.Lambda)
	if used > bound {
		t.Errorf("heap %d bytes, more than %d", used, bound)
	}
	runtime.KeepAlive(o)
}

// fixedAllBut returns a Config of dimension dim with every coordinate but
// the first fixed at 0.
func fixedAllBut(dim, lambda int) mmaes.Config {
	cfg := mmaes.DefaultConfig(dim)
	cfg.Lambda = lambda
	cfg.Fixed = map[int]float64{}
	for i := 1; i < dim; i++ {
		cfg.Fixed[i] = 0
	}
	return cfg
}

// TestMemoryFixed: with Fixed coordinates the candidates Ask returns are
// full length (λ × Dim), which the budget counts: New, Config.Params and
// UnmarshalBinary refuse a run whose full candidates exceed it (the
// searched coordinates' run alone is small: it was accepted, and New then
// allocated 16× the budget, or died allocating 800 GB at Dim = 10⁵ with
// λ = 2²⁰); Reconfigure and SetLimits of a run with many fixed coordinates
// check the searched coordinates' run (they sized a full n×n matrix and
// refused it).
func TestMemoryFixed(t *testing.T) {
	var ce *mmaes.ConfigError
	cfg := fixedAllBut(1000, 100000) // 763 MiB of full candidates, 1 searched coordinate
	cfg.MaxMemory = 50 << 20
	if _, err := mmaes.New(cfg); !errors.As(err, &ce) || ce.Field != "MaxMemory" || !strings.Contains(err.Error(), "Dim = 1000") {
		t.Errorf("Dim 1000, λ = 10⁵, 1 free within 50 MiB: err = %v", err)
	}
	if _, err := cfg.Params(); err == nil {
		t.Error("Config.Params accepts it")
	}
	if strconv.IntSize == 64 {
		huge := fixedAllBut(100000, 1<<20) // 800 GB
		if _, err := mmaes.New(huge); !errors.As(err, &ce) || ce.Field != "MaxMemory" {
			t.Errorf("Dim 10⁵, λ = 2²⁰, 1 free, the default budget: err = %v", err)
		}
	}

	// A checkpoint made within a larger budget is refused within a
	// smaller one, before the allocation.
	small := fixedAllBut(1000, 10000) // 76 MiB of full candidates
	var b []byte
	withMemoryLimit(400<<20, func() {
		o := mustNew(t, small)
		runGens(t, o, sphere, 2)
		var err error
		if b, err = o.MarshalBinary(); err != nil {
			t.Fatal(err)
		}
	})
	withMemoryLimit(50<<20, func() {
		var r mmaes.Optimizer
		if err := r.UnmarshalBinary(b); !errors.Is(err, mmaes.ErrCheckpoint) || !strings.Contains(err.Error(), "budget") {
			t.Errorf("restored within 50 MiB: err = %v", err)
		}
	})

	// 10 searched coordinates of 20 000: a few MB, whatever the limits.
	few := mmaes.DefaultConfig(20000)
	few.MaxMemory = 1 << 30
	few.Fixed = map[int]float64{}
	for i := 10; i < 20000; i++ {
		few.Fixed[i] = 0
	}
	o := mustNew(t, few)
	if err := o.SetLimits(1000, 0); err != nil {
		t.Errorf("SetLimits: %v", err)
	}
	if err := o.Reconfigure(func(c *mmaes.Config) { c.TargetF = 1e-3 }); err != nil {
		t.Errorf("Reconfigure: %v", err)
	}
	if err := o.Reconfigure(func(c *mmaes.Config) { c.MaxMemory = 1 << 20 }); !errors.Is(err, mmaes.ErrReconfigure) {
		t.Errorf("Reconfigure of MaxMemory: err = %v", err)
	}
}

// TestUnmarshalThreadsMemory: a checkpoint restored into an optimizer
// with Threads goes on with the receiver's goroutines, whose work space
// and stacks the checkpoint's budget must hold too; where it does not,
// UnmarshalBinary refuses and the receiver goes on as it was.
func TestUnmarshalThreadsMemory(t *testing.T) {
	const n = 512
	cfg := mmaes.DefaultConfig(n)
	cfg.Seed = 3
	cfg.MaxMemory = smallestBudget(cfg)
	src := mustNew(t, cfg)
	runGens(t, src, sphere, 2)
	b, err := src.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}

	small := mmaes.DefaultConfig(16)
	small.Threads = 64
	r := mustNew(t, small)
	defer r.Close()
	if err := r.UnmarshalBinary(b); !errors.Is(err, mmaes.ErrCheckpoint) || !strings.Contains(err.Error(), "Threads = 64") {
		t.Errorf("restored into Threads = 64 within the source's smallest budget: err = %v", err)
	}
	if got := len(r.Mean()); got != 16 {
		t.Fatalf("the refused restore changed the receiver: its mean has %d coordinates", got)
	}
	runGens(t, r, sphere, 2)
	// Closed, the receiver goes on alone: the checkpoint fits.
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if err := r.UnmarshalBinary(b); err != nil {
		t.Errorf("restored into a closed optimizer with Threads = 64: %v", err)
	}

	var plain mmaes.Optimizer
	if err := plain.UnmarshalBinary(b); err != nil {
		t.Errorf("restored without Threads: %v", err)
	}
}

// smallestBudget returns the smallest MaxMemory with which New accepts cfg,
// to 4 KiB (at most 1 GiB).
func smallestBudget(cfg mmaes.Config) int64 {
	lo, hi := int64(1<<10), int64(1<<30)
	for hi-lo > 1<<12 {
		cfg.MaxMemory = (lo + hi) / 2
		if _, err := mmaes.New(cfg); err != nil {
			lo = cfg.MaxMemory
		} else {
			hi = cfg.MaxMemory
		}
	}
	return hi
}
