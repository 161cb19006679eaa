package mmaes_test

import (
	"context"
	"math"
	"runtime"
	"testing"

	"github.com/mmaes-go/mmaes"
)

// movingTarget returns the sphere around a point that moves on a circle of
// radius 10 in the plane of the first two coordinates (the others at 0),
// by speed radians per generation of o.
func movingTarget(o **mmaes.Optimizer, speed float64) func([]float64) float64 {
	return func(x []float64) float64 {
		a := speed * float64((*o).Generation())
		c0, c1 := 10*math.Cos(a), 10*math.Sin(a)
		s := (x[0]-c0)*(x[0]-c0) + (x[1]-c1)*(x[1]-c1)
		for _, xi := range x[2:] {
			s += xi * xi
		}
		return s
	}
}

// TestNoScaleDrift: σ and A trade scale (only σ·A matters), and on a
// target that never stops moving their scales drifted apart until one
// overflowed and the other underflowed, ending a tuner that runs for
// months in NumericalBreakdown. With every stop off the run now goes on
// for 10⁶ generations at n = 2 and 10 (10⁵ with -short, under the race
// detector and off amd64), and σ stays within 2^±90 (A within 2^±64 and a
// step size within 2^±26).
func TestNoScaleDrift(t *testing.T) {
	gens := 1000000
	if testing.Short() || raceEnabled || runtime.GOARCH != "amd64" {
		gens = 100000
	}
	for _, n := range []int{2, 10} {
		for _, u := range allUpdates {
			cfg := mmaes.DefaultConfig(n)
			cfg.Update, cfg.Seed = u, 5
			cfg.TolFun, cfg.TolX, cfg.MaxCondition, cfg.MaxGenerations, cfg.Endless = 0, 0, 0, 0, true
			o := mustNew(t, cfg)
			f := movingTarget(&o, 1e-3)
			fit := make([]float64, o.Lambda())
			minS, maxS := math.Inf(1), 0.0
			for g := 0; g < gens; g++ {
				xs := o.Ask()
				if xs == nil {
					t.Fatalf("n=%d %v: stopped after %d generations: %v (σ = %g)", n, u, g, o.Reason(), o.Sigma())
				}
				for i, x := range xs {
					fit[i] = f(x)
				}
				if err := o.Tell(fit); err != nil {
					t.Fatal(err)
				}
				minS, maxS = min(minS, o.Sigma()), max(maxS, o.Sigma())
			}
			if minS < 0x1p-90 || maxS > 0x1p90 {
				t.Errorf("n=%d %v: σ in [%g, %g]", n, u, minS, maxS)
			}
			t.Logf("n=%d %v: %d generations, σ in [%g, %g]", n, u, gens, minS, maxS)
		}
	}
}

// raceEnabled is set under the race detector.
var raceEnabled bool

// TestInfFlat: a constant +Inf (or −Inf) fitness is flat: TolFun ends the
// run after its history fills (Inf − Inf is NaN, which never compared below
// TolFun, so such a run went on to MaxGenerations).
func TestInfFlat(t *testing.T) {
	for _, v := range []float64{math.Inf(1), math.Inf(-1)} {
		cfg := mmaes.DefaultConfig(4)
		o := mustNew(t, cfg)
		res, err := o.Optimize(context.Background(), func([]float64) float64 { return v })
		hist := o.Params().TolFunHist
		if err != nil || res.Reason != mmaes.TolFunReached || res.Generations != hist {
			t.Errorf("f = %v: %v after %d generations (history %d), err %v", v, res.Reason, res.Generations, hist, err)
		}
	}
}
