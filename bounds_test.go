package mmaes_test

import (
	"context"
	"math"
	"testing"

	"github.com/mmaes-go/mmaes"
)

// inBox reports whether x lies in [lo, hi] (nil: unbounded).
func inBox(x, lo, hi []float64) bool {
	for i, v := range x {
		if lo != nil && !(v >= lo[i]) || hi != nil && !(v <= hi[i]) {
			return false
		}
	}
	return true
}

// TestBoundsFeasible: every point Ask hands out and every point Optimize
// evaluates lies in the box, for narrow, one-sided, degenerate and huge
// boxes, objectives that pull outside, each update rule, and restarts.
func TestBoundsFeasible(t *testing.T) {
	inf := math.Inf(1)
	boxes := []struct{ lo, hi []float64 }{
		{[]float64{-1, -1, -1, -1}, []float64{1, 1, 1, 1}},
		{[]float64{0, -inf, 2, -1e-9}, []float64{1e-12, 0, 2, 1e-9}},
		{nil, []float64{0, 0, 0, 0}},
		{[]float64{5, 5, 5, 5}, nil},
		{[]float64{-1e300, -1, -1e-300, 0}, []float64{1e300, 1, 1e-300, 1e308}},
	}
	pulls := []func([]float64) float64{
		sphere,
		func(x []float64) float64 { return -sphere(x) }, // towards infinity
		func(x []float64) float64 { return sphere(x) - 1e3*x[0] },
	}
	for bi, b := range boxes {
		for _, u := range allUpdates {
			for pi, f := range pulls {
				cfg := startConfig(4, u, uint64(bi))
				cfg.Lower, cfg.Upper = b.lo, b.hi
				cfg.Mean = make([]float64, 4)
				for i := range cfg.Mean {
					lo, hi := -inf, inf
					if b.lo != nil {
						lo = b.lo[i]
					}
					if b.hi != nil {
						hi = b.hi[i]
					}
					cfg.Mean[i] = math.Max(lo, math.Min(hi, 0.3))
				}
				cfg.Sigma = 3
				cfg.MaxGenerations = 150
				if u == mmaes.MMA {
					cfg.Restart, cfg.MaxRestarts = mmaes.IPOP, 2
				}
				o := mustNew(t, cfg)
				bad := 0
				res, _ := o.Optimize(context.Background(), func(x []float64) float64 {
					if !inBox(x, b.lo, b.hi) {
						bad++
					}
					return f(x)
				})
				if bad > 0 || !inBox(res.X, b.lo, b.hi) {
					t.Errorf("box %d %v pull %d: %d points outside, result %v", bi, u, pi, bad, res.X)
				}
				o = mustNew(t, cfg)
				for g := 0; g < 30 && o.Reason() == mmaes.NotStopped; g++ {
					xs := o.Ask()
					fit := make([]float64, len(xs))
					for i, x := range xs {
						if !inBox(x, b.lo, b.hi) {
							t.Fatalf("box %d %v: Ask returned %v", bi, u, x)
						}
						fit[i] = f(x)
					}
					if err := o.Tell(fit); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
}

// TestBoundaryOptimum: Σ(x_i − c_i)² with c partly outside the box [−1, 2]^n
// has its minimum at the projection of c, on the boundary in the
// coordinates where c is outside. The run must find it to full precision:
// f − f* ≤ 1e-12, the coordinates on a bound within 1e-12 of it and the
// others within 1e-5 of c_i.
func TestBoundaryOptimum(t *testing.T) {
	for _, rankMu := range []bool{false, true} {
		for _, n := range []int{2, 5, 12} {
			c := make([]float64, n)
			lo, hi := make([]float64, n), make([]float64, n)
			xstar := make([]float64, n)
			for i := range c {
				lo[i], hi[i] = -1, 2
				c[i] = []float64{3, -4, 0.5, 1.9, -1.5, 0}[i%6] // outside, outside, inside, ...
				xstar[i] = math.Max(lo[i], math.Min(hi[i], c[i]))
			}
			f := func(x []float64) float64 {
				s := 0.0
				for i, v := range x {
					s += (v - c[i]) * (v - c[i])
				}
				return s
			}
			fstar := f(xstar)
			for seed := uint64(1); seed <= 3; seed++ {
				cfg := mmaes.DefaultConfig(n)
				cfg.Lower, cfg.Upper, cfg.RankMu, cfg.Seed = lo, hi, rankMu, seed
				cfg.Mean = make([]float64, n) // the origin, inside
				cfg.TolFun, cfg.TolX = 0, 1e-14
				cfg.TargetF = fstar + 1e-13
				res, err := mustNew(t, cfg).Optimize(context.Background(), f)
				if err != nil || !(res.F-fstar <= 1e-12) {
					t.Errorf("rank-μ %v n=%d seed %d: f − f* = %g (%v, %d evals)", rankMu, n, seed, res.F-fstar, res.Reason, res.Evals)
					continue
				}
				for i, x := range res.X {
					tol := 1e-5
					if xstar[i] != c[i] {
						tol = 1e-12
					}
					if math.Abs(x-xstar[i]) > tol {
						t.Errorf("rank-μ %v n=%d seed %d: x[%d] = %v, want %v", rankMu, n, seed, i, x, xstar[i])
					}
				}
			}
		}
	}
}

// TestBoundsIdentityInside: with a box far wider than the run goes, the
// run is bit for bit the unconstrained one (the map is the identity in the
// core).
func TestBoundsIdentityInside(t *testing.T) {
	cfg := startConfig(6, mmaes.MMA, 3)
	cfg.TargetF = 1e-10
	want, _ := mustNew(t, cfg).Optimize(context.Background(), sphere)
	cfg.Lower, cfg.Upper = make([]float64, 6), make([]float64, 6)
	for i := range cfg.Lower {
		cfg.Lower[i], cfg.Upper[i] = -1e6, 1e6
	}
	got, _ := mustNew(t, cfg).Optimize(context.Background(), sphere)
	if got.F != want.F || got.Evals != want.Evals || !slicesEqual(got.X, want.X) {
		t.Errorf("wide box changed the run: %+v vs %+v", got, want)
	}
}

// TestResultMeanInDomain: Result.Mean is a point of the objective's domain
// even when the distribution's mean has left the box: inside the bounds,
// integer coordinates whole, fixed ones at their values.
func TestResultMeanInDomain(t *testing.T) {
	const n = 5
	lo, hi := []float64{-1, -1, -1, -1, -1}, []float64{2, 2, 2, 2, 2}
	c := []float64{3, -4, 0.7, 0.5, 9} // optima outside the box pull the mean out
	cfg := mmaes.DefaultConfig(n)
	cfg.Lower, cfg.Upper, cfg.Seed = lo, hi, 3
	cfg.Integer = []int{2}
	cfg.Fixed = map[int]float64{4: 0.25}
	cfg.Mean = make([]float64, n)
	cfg.TolFun, cfg.TolX, cfg.TargetF, cfg.MaxEvals = 0, 0, math.Inf(-1), 3000
	o := mustNew(t, cfg)
	res, err := o.Optimize(context.Background(), func(x []float64) float64 {
		s := 0.0
		for i, v := range x {
			s += (v - c[i]) * (v - c[i])
		}
		return s
	})
	if err != nil {
		t.Fatal(err)
	}
	if m := o.Mean(); inBox(m, lo, hi) {
		t.Fatalf("the distribution's mean %v stayed in the box: the test no longer checks the mapping", m)
	}
	if len(res.Mean) != n || !inBox(res.Mean, lo, hi) {
		t.Fatalf("Result.Mean = %v, not in [%v, %v]", res.Mean, lo, hi)
	}
	if v := res.Mean[2]; v != math.Round(v) {
		t.Errorf("integer coordinate of Result.Mean = %v", v)
	}
	if res.Mean[4] != 0.25 {
		t.Errorf("fixed coordinate of Result.Mean = %v, want 0.25", res.Mean[4])
	}
	// Far inside the box the map is the identity: coordinate 3 (optimum
	// 0.5) is the distribution's own.
	if m := o.Mean(); res.Mean[3] != m[3] {
		t.Errorf("Result.Mean[3] = %v, the mean's %v", res.Mean[3], m[3])
	}
}
