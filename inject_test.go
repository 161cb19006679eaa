package mmaes_test

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
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
// first generation cuts the evaluations to at most 0.6× (median of 15
// seeds; starting at that point, the bound of what injection can buy,
// takes 0.46×: docs/service.md), and an injected outlier does not wreck
// the run.
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
	if i > 0.6*p {
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

// nearStart is a run of the sphere started at 50 in every coordinate with
// σ0 = 1, far from the optimum at the origin.
func nearStart(n int, seed uint64) mmaes.Config {
	cfg := mmaes.DefaultConfig(n)
	cfg.Seed, cfg.Sigma = seed, 1
	cfg.Mean = slices.Repeat([]float64{50}, n)
	return cfg
}

// tellAll evaluates the candidates of the next Ask with f and tells them;
// it returns the candidates (copies) and their values.
func tellAll(t *testing.T, o *mmaes.Optimizer, f func([]float64) float64) ([][]float64, []float64) {
	t.Helper()
	xs := o.Ask()
	cs := make([][]float64, len(xs))
	fit := make([]float64, len(xs))
	for i, x := range xs {
		cs[i], fit[i] = slices.Clone(x), f(x)
	}
	if err := o.Tell(fit); err != nil {
		t.Fatal(err)
	}
	return cs, fit
}

// TestInjectRelocation: a generation whose selected injected candidate is
// far (its step longer than a typical one in the distribution's metric)
// moves the mean and nothing else: the new mean is the weighted sum of the
// selected candidates, with the injected point whole, and σ, A and every
// path keep their values. A generation whose injected point lies within a
// typical step of the mean is an ordinary one: σ changes.
func TestInjectRelocation(t *testing.T) {
	const n = 6
	o := mustNew(t, nearStart(n, 3))
	runGens(t, o, sphere, 3)
	sigma, a, p, v, s := o.Sigma(), slices.Clone(o.A()), slices.Clone(o.P()), slices.Clone(o.V()), slices.Clone(o.S())
	target := slices.Repeat([]float64{0.1}, n)
	if err := o.Inject(target); err != nil {
		t.Fatal(err)
	}
	cs, fit := tellAll(t, o, sphere)
	if !slices.Equal(cs[0], target) || slices.MinFunc(fit, cmpFloat) != fit[0] {
		t.Fatalf("the injected point is not the first candidate, or not the best: %v", fit)
	}
	// m' = Σ w_k·x_{k:λ}, the injected point whole.
	idx := make([]int, len(fit))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(i, j int) int { return cmpFloat(fit[i], fit[j]) })
	w := o.Params().Weights
	for j := range n {
		want := 0.0
		for k, wk := range w {
			want += wk * cs[idx[k]][j]
		}
		if got := o.Mean()[j]; math.Abs(got-want) > 1e-12*math.Abs(want)+1e-12 {
			t.Fatalf("mean[%d] = %v, want Σ w·x = %v", j, got, want)
		}
	}
	if o.Sigma() != sigma || !slices.Equal(o.A(), a) || !slices.Equal(o.P(), p) || !slices.Equal(o.V(), v) || !slices.Equal(o.S(), s) {
		t.Error("a relocation changed σ, A or a path")
	}

	// Within a typical step: an ordinary generation.
	o = mustNew(t, nearStart(n, 3))
	runGens(t, o, sphere, 3)
	sigma = o.Sigma()
	x := slices.Clone(o.Mean())
	x[0] -= 0.5 * o.Sigma()
	if err := o.Inject(x); err != nil {
		t.Fatal(err)
	}
	tellAll(t, o, sphere)
	if o.Sigma() == sigma {
		t.Error("a generation with a near injected point did not adapt σ")
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestInjectLeader: an injected point that ranks first is the first
// candidate of the next generation again, until a sampled candidate beats
// it; a restart drops it; a checkpoint holds it.
func TestInjectLeader(t *testing.T) {
	const n = 6
	target := slices.Repeat([]float64{0.5}, n)
	o := mustNew(t, nearStart(n, 5))
	if err := o.Inject(target); err != nil {
		t.Fatal(err)
	}
	led := 0
	for g := 0; ; g++ {
		if g > 200 {
			t.Fatal("the injected point led for 200 generations")
		}
		b := state(t, o) // resumes exactly with a leader pending
		cs, fit := tellAll(t, o, sphere)
		if g > 0 && !slices.Equal(cs[0], target) {
			t.Fatalf("generation %d: the leader was not injected again", g)
		}
		var r mmaes.Optimizer
		if err := r.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		r.Ask()
		if err := r.Tell(fit); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(state(t, &r), state(t, o)) {
			t.Fatalf("generation %d: a restored run differs", g)
		}
		if slices.Min(fit[1:]) < fit[0] {
			break // beaten by a sample
		}
		led++
	}
	if led < 2 {
		t.Errorf("the injected point led %d generations", led)
	}
	if xs := o.Ask(); slices.Equal(xs[0], target) {
		t.Error("a beaten leader was injected again")
	}

	// Generations with the leader allocate nothing (after the first
	// injection, which allocates the scratch space).
	o = mustNew(t, nearStart(n, 5))
	if err := o.Inject(target); err != nil {
		t.Fatal(err)
	}
	tellAll(t, o, sphere)
	fit := make([]float64, o.Lambda())
	if a := testing.AllocsPerRun(3, func() {
		xs := o.Ask()
		if !slices.Equal(xs[0], target) {
			t.Fatal("setup: the leader was beaten")
		}
		for i, x := range xs {
			fit[i] = sphere(x)
		}
		if err := o.Tell(fit); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("a generation with the leader: %v allocations", a)
	}

	// A restart drops the leader: one generation a run.
	cfg := nearStart(n, 6)
	cfg.Restart, cfg.MaxGenerations, cfg.MaxEvals = mmaes.IPOP, 1, 1000
	o = mustNew(t, cfg)
	if err := o.Inject(target); err != nil {
		t.Fatal(err)
	}
	if _, fit := tellAll(t, o, sphere); slices.Min(fit[1:]) < fit[0] || o.Restarts() != 1 {
		t.Fatalf("setup: the injected point does not lead (%v) or no restart (%d)", fit, o.Restarts())
	}
	if xs := o.Ask(); slices.Equal(xs[0], target) {
		t.Error("the leader of the last run was injected into the next")
	}
}

// TestInjectV6: a version-6 checkpoint with an injected candidate pending
// and a point waiting (testdata/checkpoint-v6/inject-n6-asked.ckp, written
// by that version after 5 generations of the ellipsoid from startConfig(6,
// MMA, 41)) is read: the pending candidate is the first of Ask, the
// waiting one the first of the next generation.
func TestInjectV6(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "checkpoint-v6", "inject-n6-asked.ckp"))
	if err != nil {
		t.Fatal(err)
	}
	var o mmaes.Optimizer
	if err := o.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if o.Generation() != 5 {
		t.Fatalf("generation %d, want 5", o.Generation())
	}
	if xs := o.Ask(); !slices.Equal(xs[0], []float64{1, 2, 3, 4, 5, 6}) {
		t.Fatalf("pending injected candidate %v", xs[0])
	}
	fit := make([]float64, o.Lambda())
	for i, x := range o.Ask() {
		fit[i] = ellipsoid(x)
	}
	fit[0] = 1e300 // the injected candidate does not lead
	if err := o.Tell(fit); err != nil {
		t.Fatal(err)
	}
	if xs := o.Ask(); !slices.Equal(xs[0], []float64{-1, -2, -3, -4, -5, -6}) {
		t.Fatalf("waiting injected point %v not the first candidate", xs[0])
	}
}

// TestInjectProblems: a point injected at the start (or later) never costs
// evaluations and never costs solved runs, on problems where it is near
// the optimum, halfway, barely better than the start or bad (n = 10,
// σ0 = 1, target 1e-10, median of 15 seeds; the table in
// docs/service.md).
func TestInjectProblems(t *testing.T) {
	if testing.Short() || raceEnabled || runtime.GOARCH != "amd64" {
		t.Skip("2·15 runs of 11 problems; measured on amd64")
	}
	const n = 10
	shift := func(f func([]float64) float64) func([]float64) float64 {
		return func(x []float64) float64 {
			y := make([]float64, len(x))
			for i := range x {
				y[i] = x[i] - float64(i+1)
			}
			return f(y)
		}
	}
	off := func(d float64) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(i+1) + d
		}
		return v
	}
	for _, c := range []struct {
		name        string
		f           func([]float64) float64
		x0          float64
		point       []float64
		recommended bool
		at          int     // the generation before which the point is injected
		bound       float64 // of the ratio of the medians; 0: 1.05
	}{
		{"sphere, 0.5 off", shift(sphere), 100, off(0.5), false, 0, 0},
		{"sphere, halfway", shift(sphere), 100, off(50), false, 0, 0},
		{"sphere, 90 off", shift(sphere), 100, off(90), false, 0, 0},
		{"sphere, 0.5 off at generation 30", shift(sphere), 100, off(0.5), false, 30, 0},
		{"ellipsoid, 0.5 off", shift(ellipsoid), 100, off(0.5), false, 0, 0},
		{"ellipsoid, bad", shift(ellipsoid), 100, off(1e6), false, 0, 0},
		{"rosenbrock, 0.1 off", shift(rosenbrock), 0, off(1.1), false, 0, 0},
		{"recommended sphere, 0.5 off", shift(sphere), 100, off(0.5), true, 0, 0},
		{"recommended ellipsoid, 0.5 off", shift(ellipsoid), 100, off(0.5), true, 0, 0},
		// Restarts decide the evaluations; the injection helps the first
		// run only, and the median of 15 moves by ±5 % with the kernel
		// path's rounding (0.95× on AVX2, 1.05× generic).
		{"recommended rastrigin, 0.02 off", shift(rastrigin), 3, off(1.02), true, 0, 1.15},
	} {
		var evals [2][]int
		var solved [2]int
		for seed := uint64(1); seed <= 15; seed++ {
			cfg := mmaes.DefaultConfig(n)
			if c.recommended {
				cfg = mmaes.RecommendedConfig(n)
			}
			cfg.Seed, cfg.Sigma, cfg.TargetF, cfg.MaxEvals = seed, 1, 1e-10, 200000
			cfg.Mean = slices.Repeat([]float64{c.x0}, n)
			for k := range 2 {
				o := mustNew(t, cfg)
				var fit []float64
				for o.Reason() == mmaes.NotStopped {
					if k == 1 && o.Generation() == c.at {
						if err := o.Inject(c.point); err != nil {
							t.Fatal(err)
						}
					}
					xs := o.Ask()
					if xs == nil {
						break
					}
					fit = fit[:0]
					for _, x := range xs {
						fit = append(fit, c.f(x))
					}
					if err := o.Tell(fit); err != nil {
						t.Fatal(err)
					}
				}
				evals[k] = append(evals[k], o.Evals())
				if o.Reason() == mmaes.TargetReached {
					solved[k]++
				}
			}
		}
		p, i := median(evals[0]), median(evals[1])
		t.Logf("%-34s without %6.0f (%2d/15 solved)  injected %6.0f (%2d/15)  %.2f×", c.name, p, solved[0], i, solved[1], i/p)
		bound := c.bound
		if bound == 0 {
			bound = 1.05
		}
		if i > bound*p || solved[1] < solved[0] {
			t.Errorf("%s: injected %v evaluations (%d solved), without %v (%d)", c.name, i, solved[1], p, solved[0])
		}
	}
}

// TestInjectMemory: the first Inject of a run that the budget holds only
// without Inject's space (the LU factors of A and the injected
// candidates) returns the MaxMemory ConfigError and changes nothing; with
// room for it, A(), Inject and a generation allocate no more than the
// budget and a few structs (they allocated 150 % of it), and a restored checkpoint with
// injected points waiting is refused where the budget does not hold them.
func TestInjectMemory(t *testing.T) {
	const n = 300
	cfg := mmaes.DefaultConfig(n)
	cfg.Seed = 5
	hi := smallestBudget(cfg)
	cfg.MaxMemory = hi
	o, twin := mustNew(t, cfg), mustNew(t, cfg)
	var ce *mmaes.ConfigError
	if err := o.Inject(make([]float64, n)); !errors.As(err, &ce) || ce.Field != "MaxMemory" {
		t.Fatalf("Inject beyond the budget: err = %v", err)
	}
	runGens(t, o, sphere, 3)
	runGens(t, twin, sphere, 3)
	if !bytes.Equal(state(t, o), state(t, twin)) {
		t.Error("a refused Inject changed the run")
	}

	lambda := o.Lambda()
	room := hi + int64(8*(n*n+2*lambda*n+5*n)) + 4096 // and Inject's: the LU factors, 2·λ·n floats and a few vectors
	cfg.MaxMemory = room
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	o = mustNew(t, cfg)
	o.A()
	if err := o.Inject(make([]float64, n)); err != nil {
		t.Fatalf("Inject within the budget: %v", err)
	}
	runGens(t, o, sphere, 2)
	runtime.ReadMemStats(&m1)
	// The count leaves out a few structs and slice headers, and the test's
	// own slices: 64 KiB (the LU factors alone are 720 KB).
	if got := int64(m1.TotalAlloc - m0.TotalAlloc); got > cfg.MaxMemory+64<<10 {
		t.Errorf("New, A(), Inject and 2 generations allocated %d bytes, more than MaxMemory %d", got, cfg.MaxMemory)
	}

	if err := o.Inject(make([]float64, n)); err != nil {
		t.Fatal(err)
	}
	cfg.MaxMemory = 0
	o = mustNew(t, cfg)
	if err := o.Inject(make([]float64, n)); err != nil {
		t.Fatal(err)
	}
	b, err := o.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	withMemoryLimit(hi, func() {
		var r mmaes.Optimizer
		if err := r.UnmarshalBinary(b); !errors.Is(err, mmaes.ErrCheckpoint) {
			t.Errorf("a checkpoint with a waiting point, restored within the budget without Inject's space: err = %v", err)
		}
	})
	withMemoryLimit(room, func() {
		var r mmaes.Optimizer
		if err := r.UnmarshalBinary(b); err != nil {
			t.Errorf("restored within a budget with Inject's space: %v", err)
		}
	})
}
