package mmaes_test

import (
	"bytes"
	"context"
	"encoding"
	"errors"
	"fmt"
	"runtime"
	"testing"

	"github.com/mmaes-go/mmaes"
)

// TestAllocs checks that a generation (Ask, evaluation, Tell) allocates
// nothing after New, at n = 2, 64 and 1024 for each update rule, and that
// Optimize's allocations do not grow with the number of generations (it
// allocates only the copy of the best point in its Result).
func TestAllocs(t *testing.T) {
	// The new features: rank-μ (MMA), bounds, restarts (no restart within
	// these generations), workers (Optimize), scales, bounds on the
	// deviations, a fixed coordinate.
	features := func(cfg *mmaes.Config) {
		cfg.RankMu = cfg.Update == mmaes.MMA
		cfg.Lower, cfg.Upper = make([]float64, cfg.Dim), make([]float64, cfg.Dim)
		cfg.Scales = make([]float64, cfg.Dim)
		for i := range cfg.Lower {
			cfg.Lower[i], cfg.Upper[i], cfg.Scales[i] = -20, 20, 1+float64(i%3)
		}
		cfg.Restart, cfg.Workers = mmaes.BIPOP, 2
		cfg.MinStd, cfg.MaxStd, cfg.Fixed = 1e-12, 1e6, map[int]float64{0: 0.5}
	}
	for _, u := range allUpdates {
		for _, n := range []int{2, 64, 1024} {
			for _, all := range []bool{false, true} {
				if n == 1024 && testing.Short() {
					continue // takes a while
				}
				t.Run(fmt.Sprintf("update=%v/n=%d/features=%v", u, n, all), func(t *testing.T) {
					cfg := startConfig(n, u, 1)
					if all {
						features(&cfg)
					}
					cfg.TolFun, cfg.TolX, cfg.MaxGenerations = 0, 0, 0
					o := mustNew(t, cfg)
					fit := make([]float64, o.Lambda())
					gen := func() {
						xs := o.Ask()
						for i, x := range xs {
							fit[i] = sphere(x)
						}
						if err := o.Tell(fit); err != nil {
							t.Fatal(err)
						}
					}
					runs := 20
					if n >= 1024 {
						runs = 3
					}
					if a := testing.AllocsPerRun(runs, gen); a != 0 {
						t.Errorf("Ask+evaluate+Tell: %v allocs per generation", a)
					}
					// Ask twice, a rejected Tell, accessors: nothing either.
					if a := testing.AllocsPerRun(runs, func() {
						o.Ask()
						o.Ask()
						_ = o.Tell(fit[:1])
						_ = o.Mean()
						_ = o.A()
						_ = o.Sigma()
						gen()
					}); a != 0 {
						t.Errorf("with a rejected Tell: %v allocs", a)
					}

					// Optimize: the observer reads the allocation count after
					// each generation. As in testing.AllocsPerRun, the average
					// per generation (rounded down) must be 0: a stray runtime
					// allocation during a long generation is not the optimizer's.
					const gens = 12
					cfg.MaxGenerations = gens + 1
					if all {
						// MaxGenerations would restart: end on the budget.
						cfg.MaxGenerations, cfg.MaxEvals = 0, (gens+1)*o.Lambda()
					}
					o = mustNew(t, cfg)
					var ms runtime.MemStats
					var first, last uint64
					o.SetObserver(func(o *mmaes.Optimizer) {
						runtime.ReadMemStats(&ms)
						if o.Generation() == 1 {
							first = ms.Mallocs
						}
						last = ms.Mallocs
					})
					defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
					if _, err := o.Optimize(context.Background(), sphere); err != nil {
						t.Fatal(err)
					}
					if a := (last - first) / gens; a != 0 {
						t.Errorf("Optimize: %d allocs in %d generations", last-first, gens)
					}
				})
			}
		}
	}
}

// TestAllocsLargeLambda covers the ranking of more than 64 candidates,
// which sorts with slices.SortFunc instead of the insertion sort.
func TestAllocsLargeLambda(t *testing.T) {
	cfg := startConfig(8, mmaes.MMA, 1)
	cfg.Lambda = 100
	cfg.TolFun, cfg.TolX, cfg.MaxGenerations = 0, 0, 0
	o := mustNew(t, cfg)
	fit := make([]float64, o.Lambda())
	if a := testing.AllocsPerRun(20, func() {
		for i, x := range o.Ask() {
			fit[i] = sphere(x)
		}
		if err := o.Tell(fit); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("λ = 100: %v allocs per generation", a)
	}
}

var _ encoding.BinaryAppender = (*mmaes.Optimizer)(nil)

// TestAppendBinaryAllocs: a checkpoint appended into a buffer with room
// allocates nothing (a service that checkpoints every generation makes no
// garbage), between generations and between Ask and Tell, for every update
// rule and with every option; the bytes are MarshalBinary's, after what
// the buffer held.
func TestAppendBinaryAllocs(t *testing.T) {
	for _, u := range allUpdates {
		for _, all := range []bool{false, true} {
			cfg := startConfig(128, u, 3)
			if all {
				cfg.RankMu = u == mmaes.MMA
				cfg.Restart, cfg.Workers = mmaes.BIPOP, 2
				cfg.Lower, cfg.Upper = make([]float64, 128), make([]float64, 128)
				for i := range cfg.Lower {
					cfg.Lower[i], cfg.Upper[i] = -20, 20
				}
			}
			o := mustNew(t, cfg)
			runGens(t, o, sphere, 3)
			for _, asked := range []bool{false, true} {
				if asked {
					o.Ask()
				}
				want := state(t, o)
				buf := make([]byte, 0, 16+len(want))
				buf = append(buf, "prefix"...)
				var got []byte
				if a := testing.AllocsPerRun(10, func() {
					var err error
					got, err = o.AppendBinary(buf)
					if err != nil {
						t.Fatal(err)
					}
				}); a != 0 {
					t.Errorf("%v features=%v asked=%v: AppendBinary allocates %v times", u, all, asked, a)
				}
				if string(got[:6]) != "prefix" || !bytes.Equal(got[6:], want) {
					t.Errorf("%v features=%v asked=%v: AppendBinary differs from MarshalBinary", u, all, asked)
				}
			}
		}
	}
	var zero mmaes.Optimizer
	if b, err := zero.AppendBinary([]byte("x")); !errors.Is(err, mmaes.ErrNotInitialized) || string(b) != "x" {
		t.Errorf("zero Optimizer: %q, %v", b, err)
	}
}
