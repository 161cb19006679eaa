package mmaes_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/mmaes-go/mmaes"
)

// badScales are the coordinate scales 10^(−3 + 6i/(n−1)): 10⁻³ … 10³.
func badScales(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = math.Pow(10, -3+6*float64(i)/float64(n-1))
	}
	return s
}

// evalsToTarget runs cfg on f until f ≤ 1e-10 and returns the evaluations
// (a failed run fails the test).
func evalsToTarget(t *testing.T, cfg mmaes.Config, f func([]float64) float64) int {
	t.Helper()
	cfg.TargetF, cfg.MaxEvals = 1e-10, 200000
	res, err := mustNew(t, cfg).Optimize(t.Context(), f)
	if err != nil || res.Reason != mmaes.TargetReached {
		t.Fatalf("%+v: %v, %v", cfg, res.Reason, err)
	}
	return res.Evals
}

func median(v []int) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return float64(s[len(s)/2]+s[(len(s)-1)/2]) / 2
}

// TestScalesEquivalent: with Scales = s, a run on f(x) = g(x/s) is the run
// on g from A = I (the update rules are invariant under x ↦ diag(s)·x):
// the first generation's candidates are s times the other run's, and the
// evaluations to the target match (median of 15 seeds within 1.1×), where
// the run without the scales needs several times more.
func TestScalesEquivalent(t *testing.T) {
	const n, seeds = 8, 15
	s := badScales(n)
	shift := []float64{1, -2, 0.5, 3, -1, 2, -0.5, 1.5}
	g := func(u []float64) float64 {
		v := 0.0
		for i, x := range u {
			v += (x - shift[i]) * (x - shift[i])
		}
		return v
	}
	f := func(x []float64) float64 {
		v := 0.0
		for i, xi := range x {
			d := xi/s[i] - shift[i]
			v += d * d
		}
		return v
	}
	for _, variant := range []struct {
		name string
		edit func(*mmaes.Config)
	}{
		{"MMA", nil},
		{"ECMA", func(c *mmaes.Config) { c.Update = mmaes.ECMA }},
		{"Cholesky", func(c *mmaes.Config) { c.Update = mmaes.Cholesky }},
		{"active rank-μ", func(c *mmaes.Config) { c.RankMu, c.Active = true, true }},
	} {
		mk := func(seed uint64) mmaes.Config {
			c := mmaes.DefaultConfig(n)
			c.Seed, c.Sigma = seed, 1
			if variant.edit != nil {
				variant.edit(&c)
			}
			return c
		}
		// The first generation, exactly: x = s∘u, up to the rounding of
		// m + σ·y (a few units in the last place).
		cs, cu := mk(1), mk(1)
		cs.Scales = s
		xs, us := mustNew(t, cs).Ask(), mustNew(t, cu).Ask()
		for k := range xs {
			for i := range xs[k] {
				if d := math.Abs(xs[k][i] - s[i]*us[k][i]); d > 4e-16*math.Abs(xs[k][i]) {
					t.Fatalf("%s: candidate %d, coordinate %d: %v, want s·u = %v", variant.name, k, i, xs[k][i], s[i]*us[k][i])
				}
			}
		}
		var scaled, plain, unscaled []int
		for seed := uint64(1); seed <= seeds; seed++ {
			c := mk(seed)
			plain = append(plain, evalsToTarget(t, c, g))
			c.Scales = s
			scaled = append(scaled, evalsToTarget(t, c, f))
			c.Scales = nil
			c.Sigma = 1e-3 // the smallest scale: the run must learn the others
			unscaled = append(unscaled, evalsToTarget(t, c, f))
		}
		ms, mp, mu := median(scaled), median(plain), median(unscaled)
		t.Logf("%s: median evaluations: scaled %v, well-scaled problem %v, without Scales %v", variant.name, ms, mp, mu)
		if r := ms / mp; r > 1.1 || r < 1/1.1 {
			t.Errorf("%s: with Scales %v evaluations, the well-scaled problem %v (ratio %.3f)", variant.name, ms, mp, r)
		}
		if mu < 3*mp {
			t.Errorf("%s: without Scales %v evaluations, hardly more than with (%v): the test shows nothing", variant.name, mu, ms)
		}
	}
}

// TestScalesCondition: MaxCondition measures A against diag(Scales): scales
// spread 10⁸ (a condition of 10¹⁶ above the default 10¹⁴) do not stop a run
// on the matching problem.
func TestScalesCondition(t *testing.T) {
	s := []float64{1e-4, 1e-2, 1, 1e2, 1e4}
	f := func(x []float64) float64 {
		v := 0.0
		for i, xi := range x {
			v += (xi/s[i] - 1) * (xi/s[i] - 1)
		}
		return v
	}
	cfg := mmaes.DefaultConfig(len(s))
	cfg.Scales, cfg.TargetF = s, 1e-10
	res, err := mustNew(t, cfg).Optimize(t.Context(), f)
	if err != nil || res.Reason != mmaes.TargetReached {
		t.Fatalf("%v, %v; want TargetReached", res.Reason, err)
	}
	// The same spread learnt from A = I does reach the condition limit.
	cfg.Scales, cfg.Sigma = nil, 1e-4
	res, err = mustNew(t, cfg).Optimize(t.Context(), f)
	if err != nil || res.Reason != mmaes.ConditionReached {
		t.Fatalf("without Scales: %v, %v; want ConditionReached", res.Reason, err)
	}
}

// refStdDevs computes σ·‖A_i‖ from A() and Sigma(), each norm summed in
// extended precision (math.FMA residuals).
func refStdDevs(o *mmaes.Optimizer) []float64 {
	n, a := o.Dim(), o.A()
	out := make([]float64, n)
	for i := range out {
		hi, lo := 0.0, 0.0
		for _, x := range a[i*n : i*n+n] {
			p := x * x
			e := math.FMA(x, x, -p)
			s := hi + p
			lo += (hi - s) + p + e
			hi = s
		}
		out[i] = o.Sigma() * math.Sqrt(hi+lo)
	}
	return out
}

// TestStdDevs: StdDevs is σ·‖A_i‖ (against an extended-precision reference:
// the kernel's norm rounds n terms, the product twice), it is σ·Scales at
// the start, it reuses dst and allocates nothing then.
func TestStdDevs(t *testing.T) {
	for _, edit := range []func(*mmaes.Config){
		nil,
		func(c *mmaes.Config) { c.Update = mmaes.ECMA },
		func(c *mmaes.Config) { c.Update = mmaes.Cholesky },
		func(c *mmaes.Config) { c.RankMu, c.Active = true, true },
	} {
		cfg := startConfig(9, mmaes.MMA, 5)
		if edit != nil {
			edit(&cfg)
		}
		cfg.Scales = badScales(9)
		o := mustNew(t, cfg)
		got := o.StdDevs(nil)
		for i, s := range cfg.Scales {
			if want := cfg.Sigma * s; math.Abs(got[i]-want) > 2e-16*want {
				t.Fatalf("%v at the start: StdDevs[%d] = %v, want σ·Scales = %v", cfg.Update, i, got[i], want)
			}
		}
		runGens(t, o, ellipsoid, 30)
		buf := make([]float64, 0, 9)
		got = o.StdDevs(buf)
		if &got[0] != &buf[:1][0] {
			t.Fatal("StdDevs did not reuse dst")
		}
		for i, want := range refStdDevs(o) {
			if math.Abs(got[i]-want) > 1e-14*want {
				t.Errorf("%v: StdDevs[%d] = %v, reference %v", cfg.Update, i, got[i], want)
			}
		}
		if a := testing.AllocsPerRun(20, func() { o.StdDevs(buf) }); a != 0 {
			t.Errorf("StdDevs allocates %v times", a)
		}
	}
	var zero mmaes.Optimizer
	if zero.StdDevs(nil) != nil {
		t.Error("StdDevs of an uninitialized Optimizer is not nil")
	}
}

// noisySphere is the sphere times (1 + 0.01·N(0,1)), its own generator.
func noisySphere(seed uint64) func([]float64) float64 {
	r := rand.New(rand.NewPCG(seed, 1))
	return func(x []float64) float64 { return sphere(x) * (1 + 0.01*r.NormFloat64()) }
}

// TestMinStd: a run that never ends on a noisy sphere keeps every
// coordinate's deviation at MinStd or above, generation after generation
// (10⁶ generations; 10⁴ with -short, under the race detector and off
// amd64, where it would take a minute), and does not break down; without
// MinStd the deviations fall below it.
func TestMinStd(t *testing.T) {
	const n, minStd = 8, 1e-4
	gens := 1000000
	if testing.Short() || raceEnabled || runtime.GOARCH != "amd64" {
		gens = 10000
	}
	cfg := mmaes.DefaultConfig(n)
	cfg.Seed, cfg.Mean = 3, slices.Repeat([]float64{1}, n)
	cfg.TolFun, cfg.TolX, cfg.MaxCondition, cfg.MaxGenerations, cfg.Endless = 0, 0, 0, 0, true
	// Without MinStd: the deviations shrink below it within a few hundred
	// generations.
	o := mustNew(t, cfg)
	f := noisySphere(1)
	fell := false
	for g := 0; g < 2000 && !fell; g++ {
		runGens(t, o, f, 1)
		fell = slices.Min(o.StdDevs(nil)) < minStd
	}
	if !fell {
		t.Fatal("without MinStd the deviations stayed above it: the test shows nothing")
	}
	cfg.MinStd = minStd
	o = mustNew(t, cfg)
	f = noisySphere(1)
	std := make([]float64, n)
	for g := 0; g < gens; g++ {
		runGens(t, o, f, 1)
		if o.Reason() != mmaes.NotStopped {
			t.Fatalf("generation %d: stopped (%v)", g, o.Reason())
		}
		if g%97 == 0 || g == gens-1 {
			if m := slices.Min(o.StdDevs(std)); m < minStd*(1-1e-14) {
				t.Fatalf("generation %d: a deviation %v below MinStd", g, m)
			}
		}
	}
	if m := slices.Min(o.StdDevs(std)); m > 10*minStd {
		t.Errorf("after %d generations the smallest deviation is %v: the noise should have held the run near MinStd", gens, m)
	}
}

// TestMaxStd: on a linear function σ grows without bound; MaxStd holds
// every coordinate's deviation at or below it.
func TestMaxStd(t *testing.T) {
	linear := func(x []float64) float64 { return x[0] + 0.5*x[1] }
	cfg := mmaes.DefaultConfig(4)
	cfg.MaxGenerations = 300
	o := mustNew(t, cfg)
	runGens(t, o, linear, 300)
	if m := slices.Max(o.StdDevs(nil)); m < 100 {
		t.Fatalf("without MaxStd the largest deviation is %v after 300 generations: the test shows nothing", m)
	}
	cfg.MaxStd = 10
	o = mustNew(t, cfg)
	for g := 0; g < 300; g++ {
		runGens(t, o, linear, 1)
		if m := slices.Max(o.StdDevs(nil)); m > 10*(1+1e-14) {
			t.Fatalf("generation %d: a deviation %v above MaxStd", g, m)
		}
	}
}

// TestScalesCheckpoint: a run with Scales, MinStd and MaxStd resumes from a
// checkpoint bit for bit, and Config returns copies of the scales.
func TestScalesCheckpoint(t *testing.T) {
	cfg := startConfig(6, mmaes.MMA, 8)
	cfg.Scales, cfg.MinStd, cfg.MaxStd = badScales(6), 1e-3, 50
	cfg.TolFun, cfg.TolX = 0, 0
	whole := mustNew(t, cfg)
	runGens(t, whole, ellipsoid, 80)
	o := mustNew(t, cfg)
	runGens(t, o, ellipsoid, 30)
	var r mmaes.Optimizer
	if err := r.UnmarshalBinary(state(t, o)); err != nil {
		t.Fatal(err)
	}
	runGens(t, &r, ellipsoid, 50)
	if !bytes.Equal(state(t, &r), state(t, whole)) {
		t.Error("resumed run differs from the whole run")
	}
	c := r.Config()
	if !slices.Equal(c.Scales, cfg.Scales) || c.MinStd != cfg.MinStd || c.MaxStd != cfg.MaxStd {
		t.Fatalf("restored Config: %v %v %v", c.Scales, c.MinStd, c.MaxStd)
	}
	c.Scales[0] = 99
	if r.Config().Scales[0] == 99 {
		t.Error("Config shares Scales with the optimizer")
	}
}

// TestResultMean: Result.Mean is a copy of the mean.
func TestResultMean(t *testing.T) {
	o := mustNew(t, startConfig(4, mmaes.MMA, 2))
	runGens(t, o, sphere, 10)
	res := o.Result()
	if !slices.Equal(res.Mean, o.Mean()) {
		t.Fatalf("Result.Mean %v, Mean %v", res.Mean, o.Mean())
	}
	res.Mean[0] = math.NaN()
	if math.IsNaN(o.Mean()[0]) {
		t.Error("Result.Mean shares the optimizer's mean")
	}
}
