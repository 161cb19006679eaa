package mmaes

import (
	"context"
	"math"
	"testing"

	"github.com/mmaes-go/mmaes/kernel"
)

// TestFusedUpdateSameBits checks that deferring the rank-one update of A to
// the next Ask, where kernel.UpdateMulVecs applies it in the sampling pass,
// changes no bit of a run: the same run with an observer that reads A after
// every Tell (which applies the update on its own, flushA) ends in the same
// state. The dimensions take the AVX-512 panel path (n ≥ 256, with and
// without leftover rows) and the tile path.
func TestFusedUpdateSameBits(t *testing.T) {
	dims := []int{8, 258, 300}
	if testing.Short() {
		dims = []int{8, 258}
	}
	for _, u := range []Update{MMA, ECMA, Cholesky} {
		for _, n := range dims {
			run := func(flushEveryGeneration bool) *Optimizer {
				cfg := DefaultConfig(n)
				cfg.Update, cfg.Seed, cfg.Sigma, cfg.MaxGenerations = u, 3, 0.5, 25
				cfg.Mean = make([]float64, n)
				for i := range cfg.Mean {
					cfg.Mean[i] = float64(i%7) - 3
				}
				pendingSeen := false
				cfg.Observer = func(o *Optimizer) {
					pendingSeen = pendingSeen || o.dist.(*fullMatrix).pend
					if flushEveryGeneration {
						o.A()
					}
				}
				o, err := New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				f := func(x []float64) float64 {
					s := 0.0
					for i, xi := range x {
						s += float64(i+1) * xi * xi
					}
					return s
				}
				if _, err := o.Optimize(context.Background(), f); err != nil {
					t.Fatal(err)
				}
				// Up to n = 16 the row scan of A (stop.go) reads A, and so
				// applies the update, after every Tell.
				if !pendingSeen && n > 16 {
					t.Fatalf("%v n=%d: no update was ever left pending", u, n)
				}
				return o
			}
			fused, separate := run(false), run(true)
			if fused.Generation() != 25 || separate.Generation() != 25 {
				t.Fatalf("%v n=%d: runs ended early: %v, %v", u, n, fused.Reason(), separate.Reason())
			}
			same := func(what string, a, b []float64) {
				t.Helper()
				for i := range a {
					if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
						t.Fatalf("%v n=%d: %s[%d] = %v fused, %v in two passes", u, n, what, i, a[i], b[i])
					}
				}
			}
			same("A", fused.A(), separate.A())
			same("mean", fused.Mean(), separate.Mean())
			same("σ", []float64{fused.Sigma()}, []float64{separate.Sigma()})
			same("best f", []float64{fused.Result().F}, []float64{separate.Result().F})
		}
	}
}

// TestTargetWinsOverBreakdown: a generation that evaluates a value ≤
// TargetF ends the run as TargetReached even when its update breaks down
// (here the sampled steps are made huge after Ask, so the new mean
// overflows), and Optimize's caller gets no failure.
func TestTargetWinsOverBreakdown(t *testing.T) {
	for _, target := range []bool{true, false} {
		cfg := DefaultConfig(4)
		cfg.TargetF = 0
		o, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		xs := o.Ask()
		for i := range o.pop.y {
			o.pop.y[i] = math.MaxFloat64
		}
		fit := make([]float64, len(xs))
		for i := range fit {
			fit[i] = float64(i + 1)
		}
		if target {
			fit[3] = -1
		}
		if err := o.Tell(fit); err != nil {
			t.Fatal(err)
		}
		want := NumericalBreakdown
		if target {
			want = TargetReached
		}
		if o.Reason() != want {
			t.Errorf("target %v: reason %v, want %v", target, o.Reason(), want)
		}
	}
}

// TestFusedRecombineSameBits: the full matrix's recombination, mean and
// paths in one kernel call (kernel.RecombineStep, where RecombineFused)
// give the run the bits of the calls one by one (proposeEach), for every
// rule and MMA with rank-μ, at n on the kernel's 32- and 8-column steps,
// through an IPOP restart (each run ends at MaxGenerations, the first
// restarts). Paths without the one-pass kernel skip it.
func TestFusedRecombineSameBits(t *testing.T) {
	for _, u := range []Update{MMA, ECMA, Cholesky} {
		for _, n := range []int{16, 40, 64, 136} {
			if !kernel.RecombineFused(n) {
				t.Skipf("no one-pass RecombineStep for n = %d on this path", n)
			}
			for _, rankMu := range []bool{false, true} {
				if rankMu && u != MMA {
					continue // rank-μ is MMA's
				}
				run := func(fused bool) *Optimizer {
					defer func(old bool) { recombineFused = old }(recombineFused)
					recombineFused = fused
					cfg := DefaultConfig(n)
					cfg.Update, cfg.Seed, cfg.Sigma, cfg.MaxGenerations = u, 5, 0.5, 60
					cfg.RankMu = rankMu
					cfg.TolFun, cfg.Restart, cfg.MaxRestarts = 1e-3, IPOP, 1
					cfg.Mean = make([]float64, n)
					for i := range cfg.Mean {
						cfg.Mean[i] = float64(i%5) - 2
					}
					o, err := New(cfg)
					if err != nil {
						t.Fatal(err)
					}
					f := func(x []float64) float64 {
						s := 0.0
						for i, xi := range x {
							s += float64(i%4+1) * xi * xi
						}
						return s
					}
					if _, err := o.Optimize(context.Background(), f); err != nil {
						t.Fatal(err)
					}
					return o
				}
				fused, each := run(true), run(false)
				if fused.Result().Restarts != 1 {
					t.Fatalf("%v n=%d rank-μ %v: %d restarts, want 1", u, n, rankMu, fused.Result().Restarts)
				}
				if fused.Generation() != each.Generation() || fused.Evals() != each.Evals() {
					t.Fatalf("%v n=%d rank-μ %v: %d generations, %d evaluations fused; %d, %d one by one",
						u, n, rankMu, fused.Generation(), fused.Evals(), each.Generation(), each.Evals())
				}
				same := func(what string, a, b []float64) {
					t.Helper()
					for i := range a {
						if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
							t.Fatalf("%v n=%d rank-μ %v: %s[%d] = %v fused, %v one by one", u, n, rankMu, what, i, a[i], b[i])
						}
					}
				}
				same("A", fused.A(), each.A())
				same("mean", fused.Mean(), each.Mean())
				same("path", fused.P(), each.P())
				same("σ's path", fused.S(), each.S())
				same("σ", []float64{fused.Sigma()}, []float64{each.Sigma()})
				same("best f", []float64{fused.Result().F}, []float64{each.Result().F})
			}
		}
	}
}
