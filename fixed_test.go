package mmaes_test

import (
	"bytes"
	"errors"
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/mmaes-go/mmaes"
)

// fixedProblem is a rotated-free ellipsoid in 16-D, shifted, with the odd
// coordinates fixed: the full Config, the Config of the free coordinates
// alone, the full objective and the reduced one.
func fixedProblem(seed uint64) (full, reduced mmaes.Config, f, g func([]float64) float64) {
	const n = 16
	fixed := map[int]float64{}
	for i := 1; i < n; i += 2 {
		fixed[i] = 0.25 * float64(i)
	}
	f = func(x []float64) float64 {
		v := 0.0
		for i, xi := range x {
			d := xi - 1 - 0.1*float64(i)
			v += math.Pow(10, 3*float64(i)/(n-1)) * d * d
		}
		return v
	}
	// The minimum over the free coordinates: the fixed terms are constant.
	fmin := f(func() []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = 1 + 0.1*float64(i)
			if v, ok := fixed[i]; ok {
				x[i] = v
			}
		}
		return x
	}())
	full = mmaes.DefaultConfig(n)
	full.Seed, full.Sigma, full.Fixed = seed, 2, fixed
	full.TargetF = fmin + 1e-8
	full.Mean = slices.Repeat([]float64{0.5}, n)
	reduced = full
	reduced.Dim, reduced.Fixed, reduced.Mean = n-len(fixed), nil, slices.Repeat([]float64{0.5}, n-len(fixed))
	g = func(u []float64) float64 {
		x := make([]float64, n)
		k := 0
		for i := range x {
			if v, ok := fixed[i]; ok {
				x[i] = v
			} else {
				x[i], k = u[k], k+1
			}
		}
		return f(x)
	}
	return full, reduced, f, g
}

// TestFixedIsReduced: a run with fixed coordinates is the run of the
// reduced problem, bit for bit (same λ, weights, rates, evaluations, best
// value, the free coordinates of every point), where fixing them through
// Lower[i] = Upper[i] costs far more evaluations (median of 15 seeds).
func TestFixedIsReduced(t *testing.T) {
	var withFixed, withBox []int
	for seed := uint64(1); seed <= 15; seed++ {
		full, reduced, f, g := fixedProblem(seed)
		of, or := mustNew(t, full), mustNew(t, reduced)
		if of.Lambda() != or.Lambda() || of.Lambda() != 10 || of.Dim() != 16 {
			t.Fatalf("λ = %d with Fixed, %d reduced (want 10, the default for n = 8); Dim %d", of.Lambda(), or.Lambda(), of.Dim())
		}
		// Every candidate holds the fixed values.
		check := func(x []float64) float64 {
			for i, v := range full.Fixed {
				if x[i] != v {
					t.Fatalf("x[%d] = %v, fixed at %v", i, x[i], v)
				}
			}
			return f(x)
		}
		rf, err1 := of.Optimize(t.Context(), check)
		rr, err2 := or.Optimize(t.Context(), g)
		if err1 != nil || err2 != nil || rf.Reason != mmaes.TargetReached {
			t.Fatalf("seed %d: %v %v, %v %v", seed, rf.Reason, err1, rr.Reason, err2)
		}
		if rf.Evals != rr.Evals || rf.F != rr.F || rf.Generations != rr.Generations {
			t.Fatalf("seed %d: with Fixed %d evaluations, f = %v; reduced %d, %v", seed, rf.Evals, rf.F, rr.Evals, rr.F)
		}
		k := 0
		for i, x := range rf.X {
			if v, ok := full.Fixed[i]; ok {
				if x != v || rf.Mean[i] != v {
					t.Fatalf("Result.X[%d] = %v, Mean %v, fixed at %v", i, x, rf.Mean[i], v)
				}
				continue
			}
			if x != rr.X[k] || rf.Mean[i] != rr.Mean[k] {
				t.Fatalf("Result.X[%d] = %v, the reduced run's %v", i, x, rr.X[k])
			}
			k++
		}
		withFixed = append(withFixed, rf.Evals)

		box := full
		box.Fixed = nil
		box.Lower, box.Upper = make([]float64, 16), make([]float64, 16)
		for i := range box.Lower {
			box.Lower[i], box.Upper[i] = math.Inf(-1), math.Inf(1)
			if v, ok := full.Fixed[i]; ok {
				box.Lower[i], box.Upper[i], box.Mean[i] = v, v, v
			}
		}
		box.MaxEvals = 200000
		rb, err := mustNew(t, box).Optimize(t.Context(), f)
		if err != nil || rb.Reason != mmaes.TargetReached {
			t.Fatalf("seed %d, fixed by bounds: %v %v", seed, rb.Reason, err)
		}
		withBox = append(withBox, rb.Evals)
	}
	mf, mb := median(withFixed), median(withBox)
	t.Logf("median evaluations: Fixed %v (the reduced problem's, bit for bit), Lower = Upper %v (%.2f×)", mf, mb, mb/mf)
	if mb < 1.5*mf {
		t.Errorf("fixing by the bounds costs %v evaluations, Fixed %v: the test shows nothing", mb, mf)
	}
}

// TestFixedAccessors: full-length vectors with the fixed values, zero
// deviations there, copies of the map, and the reduced state in A.
func TestFixedAccessors(t *testing.T) {
	full, _, f, _ := fixedProblem(3)
	o := mustNew(t, full)
	runGensAny(t, o, f, 5)
	for name, v := range map[string][]float64{"Mean": o.Mean(), "BestX": o.BestX(), "StdDevs": o.StdDevs(nil)} {
		if len(v) != 16 {
			t.Fatalf("%s has %d entries, want 16", name, len(v))
		}
		for i, x := range full.Fixed {
			want := x
			if name == "StdDevs" {
				want = 0
			}
			if v[i] != want {
				t.Errorf("%s[%d] = %v, want %v", name, i, v[i], want)
			}
		}
	}
	if std := o.StdDevs(nil); std[0] <= 0 || std[2] <= 0 {
		t.Errorf("free deviations %v", std)
	}
	if len(o.A()) != 64 || len(o.P()) != 8 {
		t.Errorf("A has %d entries, P %d; want those of the 8 free coordinates", len(o.A()), len(o.P()))
	}
	c := o.Config()
	if c.Dim != 16 || !maps.Equal(c.Fixed, full.Fixed) {
		t.Fatalf("Config: Dim %d, Fixed %v", c.Dim, c.Fixed)
	}
	c.Fixed[1] = 99
	if o.Config().Fixed[1] == 99 {
		t.Error("Config shares Fixed with the optimizer")
	}
	if a := testing.AllocsPerRun(10, func() { o.Mean(); o.BestX() }); a != 0 {
		t.Errorf("Mean and BestX allocate %v times", a)
	}
	fit := make([]float64, o.Lambda())
	if a := testing.AllocsPerRun(10, func() { step(t, o, f, fit) }); a != 0 {
		t.Errorf("a generation with Fixed allocates %v times", a)
	}
}

// TestFixedRestartsCheckpoint: with IPOP restarts (λ grows), bounds and a
// checkpoint between Ask and Tell, the fixed coordinates stay fixed and the
// run resumes bit for bit.
func TestFixedRestartsCheckpoint(t *testing.T) {
	cfg := startConfig(6, mmaes.MMA, 9)
	cfg.Restart, cfg.MaxGenerations, cfg.MaxRestarts = mmaes.IPOP, 20, 6
	cfg.Fixed = map[int]float64{0: -1, 4: 2.5}
	cfg.Lower = slices.Repeat([]float64{-8}, 6)
	cfg.Upper = slices.Repeat([]float64{8}, 6)
	cfg.Mean = []float64{100, 1, 2, 3, 100, 4} // the fixed entries are not used
	check := func(o *mmaes.Optimizer) {
		xs := o.Ask()
		if len(xs) != o.Lambda() {
			t.Fatalf("%d candidates, λ = %d", len(xs), o.Lambda())
		}
		for _, x := range xs {
			if len(x) != 6 || x[0] != -1 || x[4] != 2.5 || slices.Max(x) > 8 || slices.Min(x) < -8 {
				t.Fatalf("candidate %v", x)
			}
		}
	}
	whole := mustNew(t, cfg)
	for g := 0; g < 100; g++ {
		check(whole)
		runGensAny(t, whole, rastrigin, 1)
	}
	if whole.Restarts() < 2 || whole.Reason() != mmaes.NotStopped {
		t.Fatalf("%d restarts, %v", whole.Restarts(), whole.Reason())
	}
	o := mustNew(t, cfg)
	runGensAny(t, o, rastrigin, 45)
	o.Ask()
	b := state(t, o)
	var r mmaes.Optimizer
	if err := r.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(state(t, &r), b) || !slices.Equal(r.Ask()[0], o.Ask()[0]) {
		t.Fatal("the restored run differs")
	}
	for g := 45; g < 100; g++ {
		check(&r)
		runGensAny(t, &r, rastrigin, 1)
	}
	if !bytes.Equal(state(t, &r), state(t, whole)) {
		t.Error("resumed run differs from the whole run")
	}
}

// TestFixedErrors: bad Fixed entries are refused naming the entry.
func TestFixedErrors(t *testing.T) {
	for _, tc := range []struct {
		field string
		edit  func(*mmaes.Config)
	}{
		{"Fixed[-1]", func(c *mmaes.Config) { c.Fixed = map[int]float64{-1: 0} }},
		{"Fixed[4]", func(c *mmaes.Config) { c.Fixed = map[int]float64{0: 1, 4: 0} }},
		{"Fixed[2]", func(c *mmaes.Config) { c.Fixed = map[int]float64{2: math.NaN()} }},
		{"Fixed[1]", func(c *mmaes.Config) { c.Fixed = map[int]float64{1: math.Inf(1)} }},
		{"Fixed[3]", func(c *mmaes.Config) {
			c.Fixed, c.Upper = map[int]float64{3: 2}, []float64{1, 1, 1, 1}
		}},
		{"Fixed", func(c *mmaes.Config) { c.Fixed = map[int]float64{0: 0, 1: 0, 2: 0, 3: 0} }},
		{"Mean[2]", func(c *mmaes.Config) {
			c.Fixed, c.Mean, c.Upper = map[int]float64{0: 0}, []float64{5, 0, 5, 0}, []float64{1, 1, 1, 1}
		}},
		{"Lambda", func(c *mmaes.Config) { c.Fixed, c.Lambda = map[int]float64{0: 0}, 1 }},
		{"Scales", func(c *mmaes.Config) { c.Fixed, c.Scales = map[int]float64{0: 0}, []float64{1, 1, 1} }},
	} {
		cfg := mmaes.DefaultConfig(4)
		tc.edit(&cfg)
		_, err := mmaes.New(cfg)
		var ce *mmaes.ConfigError
		if !errors.As(err, &ce) || ce.Field != tc.field {
			t.Errorf("%s: New: %v", tc.field, err)
		}
		if _, err2 := cfg.Params(); err2 == nil || err2.Error() != err.Error() {
			t.Errorf("%s: Params: %v, New: %v", tc.field, err2, err)
		}
	}
	// The fixed entry's Mean outside the box is not used.
	cfg := mmaes.DefaultConfig(4)
	cfg.Fixed, cfg.Mean, cfg.Upper = map[int]float64{0: 0}, []float64{5, 0, 0, 0}, []float64{1, 1, 1, 1}
	if _, err := mmaes.New(cfg); err != nil {
		t.Error(err)
	}
	// An empty map fixes nothing.
	cfg = mmaes.DefaultConfig(4)
	cfg.Fixed = map[int]float64{}
	if o := mustNew(t, cfg); o.Lambda() != 8 || len(o.A()) != 16 {
		t.Errorf("empty Fixed: λ %d, A %d", o.Lambda(), len(o.A()))
	}
}
