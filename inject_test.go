package mmaes_test

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/mmaes-go/mmaes"
)

// shiftedSphere has its minimum 0 at (1, 2, …, n).
func shiftedSphere(x []float64) float64 {
	s := 0.0
	for i, v := range x {
		d := v - float64(i+1)
		s += d * d
	}
	return s
}

// TestInject: on a shifted sphere started far away (n = 10, x0 = 100,
// σ0 = 1, target 1e-10), one point near the optimum injected before the
// first generation cuts the evaluations (median of 15 seeds; 0.88×
// measured, where starting at that point, the bound of what injection can
// buy, takes 0.46×: docs/service.md), and an injected outlier does not
// wreck the run.
func TestInject(t *testing.T) {
	const n = 10
	near := make([]float64, n)
	for i := range near {
		near[i] = float64(i+1) + 0.5
	}
	var plain, injected, started, outlier []int
	for seed := uint64(1); seed <= 15; seed++ {
		cfg := mmaes.DefaultConfig(n)
		cfg.Seed, cfg.Sigma, cfg.TargetF = seed, 1, 1e-10
		cfg.Mean = slices.Repeat([]float64{100}, n)
		plain = append(plain, evalsToTarget(t, cfg, shiftedSphere))

		o := mustNew(t, cfg)
		if err := o.Inject(near); err != nil {
			t.Fatal(err)
		}
		res, err := o.Optimize(t.Context(), shiftedSphere)
		if err != nil || res.Reason != mmaes.TargetReached {
			t.Fatalf("injected, seed %d: %v %v", seed, res.Reason, err)
		}
		injected = append(injected, res.Evals)

		o = mustNew(t, cfg)
		if err := o.Inject(slices.Repeat([]float64{1e12}, n)); err != nil {
			t.Fatal(err)
		}
		res, err = o.Optimize(t.Context(), shiftedSphere)
		if err != nil || res.Reason != mmaes.TargetReached {
			t.Fatalf("outlier injected, seed %d: %v %v", seed, res.Reason, err)
		}
		outlier = append(outlier, res.Evals)

		cfg.Mean = near
		started = append(started, evalsToTarget(t, cfg, shiftedSphere))
	}
	p, i, s, out := median(plain), median(injected), median(started), median(outlier)
	t.Logf("median evaluations: without %v, one point injected %v (%.2f×), started there %v (%.2f×), an outlier injected %v", p, i, i/p, s, s/p, out)
	if i > 0.95*p {
		t.Errorf("injection: %v evaluations, without %v", i, p)
	}
	if out > 1.2*p {
		t.Errorf("an injected outlier: %v evaluations, without %v", out, p)
	}
}

// TestInjectCandidates: the injected point is evaluated as given (clamped
// into the box, integers rounded, the fixed coordinate set), can become the
// best point, waits for the next generation when candidates are pending,
// and survives a checkpoint; bad points are refused.
func TestInjectCandidates(t *testing.T) {
	cfg := startConfig(5, mmaes.MMA, 3)
	cfg.Lower, cfg.Upper = slices.Repeat([]float64{-10}, 5), slices.Repeat([]float64{10}, 5)
	cfg.Integer, cfg.Fixed = []int{4}, map[int]float64{2: 1}
	o := mustNew(t, cfg)
	if err := o.Inject([]float64{1, 2}); !errors.Is(err, mmaes.ErrLength) {
		t.Errorf("short point: %v", err)
	}
	if err := o.Inject([]float64{1, 2, 3, math.NaN(), 5}); !errors.Is(err, mmaes.ErrInject) {
		t.Errorf("NaN point: %v", err)
	}
	xs := o.Ask()
	first := slices.Clone(xs[0])
	if err := o.Inject([]float64{0.25, 20, 7, -3, 2.6}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(o.Ask()[0], first) {
		t.Fatal("an injection changed the pending generation")
	}
	b := state(t, o) // the injection waits in the checkpoint
	fit := make([]float64, len(xs))
	for i, x := range xs {
		fit[i] = sphere(x)
	}
	if err := o.Tell(fit); err != nil {
		t.Fatal(err)
	}
	want := []float64{0.25, 10, 1, -3, 3}
	if got := o.Ask()[0]; !slices.Equal(got, want) {
		t.Fatalf("injected candidate %v, want %v", got, want)
	}
	var r mmaes.Optimizer
	if err := r.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if err := r.Tell(fit); err != nil {
		t.Fatal(err)
	}
	c := state(t, &r) // the injected candidate pending in the checkpoint
	var r2 mmaes.Optimizer
	if err := r2.UnmarshalBinary(c); err != nil {
		t.Fatal(err)
	}
	xs, xr := o.Ask(), r2.Ask()
	if !slices.Equal(xr[0], want) {
		t.Fatalf("restored injected candidate %v", xr[0])
	}
	for i, x := range xs {
		fit[i] = sphere(x) + 100
	}
	fit[0] = -1 // the injected point is the best
	if err := o.Tell(fit); err != nil {
		t.Fatal(err)
	}
	if err := r2.Tell(fit); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(o.BestX(), want) || o.BestF() != -1 {
		t.Errorf("best %v at %v, want -1 at the injected point", o.BestF(), o.BestX())
	}
	if !bytes.Equal(state(t, o), state(t, &r2)) {
		t.Error("the restored run differs after the injected generation")
	}
}
