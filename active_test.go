package mmaes

import (
	"bufio"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestNegativeWeightsPycma compares the active update's rates and negative
// weights with those of pycma 4.4.0 for the same λ, n and μ_eff, in
// testdata (written by pycma: tools/pycma/negative_weights.py): from λ = 2
// to 1280, where each of the three bounds on their sum binds, and the sum 0
// when c_μ = 1 − c1.
func TestNegativeWeightsPycma(t *testing.T) {
	f, err := os.Open("testdata/pycma-negative-weights.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	cases := 0
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		fields := strings.Fields(sc.Text())
		num := func(i int) float64 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		lambda, n, mu := int(num(0)), int(num(1)), int(num(2))
		c1 := activeC1(float64(n), num(3), lambda)
		cmu := activeCMu(float64(n), num(3), c1)
		if math.Abs(c1-num(4)) > 1e-15*num(4) || math.Abs(cmu-num(5)) > 1e-15*num(5) {
			t.Errorf("λ=%d n=%d: c1 = %v, c_μ = %v; pycma %v, %v", lambda, n, c1, cmu, num(4), num(5))
		}
		got := negativeWeights(lambda, mu, n, num(3), num(4), num(5))
		want := fields[6:]
		if len(got) != len(want) {
			t.Fatalf("λ=%d n=%d: %d weights, pycma %d", lambda, n, len(got), len(want))
		}
		for k := range got {
			w := num(6 + k)
			// A sum of λ logarithms, scaled: a few ulp of the largest.
			if math.Abs(got[k]-w) > 1e-14*max(1, math.Abs(w)) || got[k] > 0 {
				t.Errorf("λ=%d n=%d: w[μ+%d] = %v, pycma %v", lambda, n, k+1, got[k], w)
			}
		}
		cases++
	}
	if cases < 10 {
		t.Fatalf("%d cases", cases)
	}
}

// TestActiveDegenerate: the active update stays finite and A invertible
// (its smallest principal axis positive) under the worst the ranking can
// hand it: a constant function (every rank a tie), the worst half NaN, and
// a function that punishes every step but a few, for λ = 2 (one negative
// weight), 3 (a weight of 0) and the default, over 200 generations.
func TestActiveDegenerate(t *testing.T) {
	fns := map[string]func(x []float64) float64{
		"constant": func([]float64) float64 { return 1 },
		"NaN half": func(x []float64) float64 { return x[0] * x[0] }, // and see below
		"needle": func(x []float64) float64 {
			if math.Abs(x[0]) < 0.01 {
				return 0
			}
			return 1
		},
	}
	for name, f := range fns {
		for _, lambda := range []int{2, 3, 0} {
			n := 4
			cfg := DefaultConfig(n)
			cfg.RankMu, cfg.Active, cfg.Lambda, cfg.Seed, cfg.Endless = true, true, lambda, 3, true
			cfg.TolFun, cfg.TolX, cfg.MaxCondition, cfg.MaxGenerations = 0, 0, 0, 0
			o, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			fit := make([]float64, o.Lambda())
			for g := 0; g < 200 && o.Reason() == NotStopped; g++ {
				xs := o.Ask()
				if xs == nil {
					break
				}
				for i, x := range xs {
					fit[i] = f(x)
				}
				if name == "NaN half" {
					// The worse half of the values (not the best) NaN.
					sorted := append([]float64(nil), fit...)
					slices.Sort(sorted)
					for i := range fit {
						if fit[i] > sorted[0] && fit[i] >= sorted[len(fit)/2] {
							fit[i] = math.NaN()
						}
					}
				}
				if err := o.Tell(fit); err != nil {
					t.Fatal(err)
				}
			}
			if r := o.Reason(); r.Failed() {
				t.Errorf("%s λ=%d: %v", name, o.Lambda(), r)
			}
			w := make([]float64, n*n)
			a := o.A()
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					w[j*n+i] = a[i*n+j]
				}
			}
			if !principalAxes(w, n, make([]float64, n)) || !allFinite(a) {
				t.Fatalf("%s λ=%d: A not finite", name, o.Lambda())
			}
			for k := 0; k < n; k++ {
				if !(dot(w[k*n:k*n+n], w[k*n:k*n+n]) > 0) {
					t.Errorf("%s λ=%d: A singular after %d generations", name, o.Lambda(), o.Generation())
				}
			}
		}
	}
}

// TestWatchStops checks Hopeless, FlatFitness and Stagnation on made-up
// generations.
func TestWatchStops(t *testing.T) {
	cfg := DefaultConfig(10)
	cfg.FlatFitness, cfg.Hopeless, cfg.Stagnation = 2, 10, true
	par, err := cfg.Params()
	if err != nil {
		t.Fatal(err)
	}
	// Hopeless: the run's best 5, an earlier run's 1.
	w := newRunWatch(&cfg)
	w.start(1)
	idx := []int{0, 1, 2, 3}
	w.observe(1, []float64{5, 5.5, 6, 7}, idx, 4)
	if s := w.stops(&cfg, &par, 1, 2); s.winner() != NotStopped {
		t.Errorf("spread 2: %v (5 − 10·2 < 1: it may still win)", s.winner())
	}
	if s := w.stops(&cfg, &par, 1, 0.3); s.winner() != Hopeless {
		t.Errorf("spread 0.3: %v, want Hopeless (5 − 10·0.3 > 1)", s.winner())
	}
	if s := w.stops(&cfg, &par, 1, math.NaN()); s.winner() != NotStopped {
		t.Errorf("spread NaN: %v", s.winner())
	}
	w.start(math.NaN()) // the first run is never hopeless
	w.observe(1, []float64{5, 5.5, 6, 7}, idx, 4)
	if s := w.stops(&cfg, &par, 1, 0); s.winner() != NotStopped {
		t.Errorf("first run: %v", s.winner())
	}
	// FlatFitness: the best equal to the value ranked ⌊0.75λ⌋+1 = 4th of
	// 4, two generations in a row.
	w.start(math.NaN())
	w.observe(1, []float64{1, 1, 1, 1}, idx, 4)
	if s := w.stops(&cfg, &par, 1, 0); s.winner() != NotStopped {
		t.Errorf("one flat generation: %v", s.winner())
	}
	w.observe(2, []float64{1, 1, 1, 2}, idx, 4) // not flat: the count restarts
	w.observe(3, []float64{2, 2, 2, 2}, idx, 4)
	if s := w.stops(&cfg, &par, 3, 0); s.winner() != NotStopped {
		t.Errorf("flat, not flat, flat: %v", s.winner())
	}
	w.observe(4, []float64{2, 2, 2, 2}, idx, 4)
	if s := w.stops(&cfg, &par, 4, 0); s.winner() != FlatFitnessReached {
		t.Errorf("two flat generations: %v", s.winner())
	}
	// Stagnation: T = ⌊100 + 100·10^1.5/10⌋ = 416 at n = 10, λ = 10.
	if par.Stagnation != 416 {
		t.Fatalf("T = %d, want 416", par.Stagnation)
	}
	cfg.FlatFitness, cfg.Hopeless = 0, 0
	// MaxGenerations 8116 (the default) keeps 1624 records; 600, 121, so
	// that the records wrap around.
	for _, maxGen := range []int{cfg.MaxGenerations, 600} {
		cfg.MaxGenerations = maxGen
		run := func(f func(gen int) float64, gens int) (stopped int) {
			w := newRunWatch(&cfg)
			w.start(math.NaN())
			for g := 1; g <= gens; g++ {
				v := f(g)
				w.observe(g, []float64{v, v + 1, v + 2, v + 3}, idx, 4)
				if w.stops(&cfg, &par, g, 3).winner() == Stagnated {
					return g
				}
			}
			return 0
		}
		// Improving steadily: never.
		if g := run(func(g int) float64 { return 1 / float64(g) }, 5000); g != 0 {
			t.Errorf("improving run stagnated at generation %d", g)
		}
		// Improving until generation 300, then flat: records of both series
		// flat over the last 2L; the best older than T/2 = 208 generations;
		// more than 100 records (500 generations): at generation 510 at the
		// earliest, by when L = ⌊416/10⌋ = 41 records cover 205 generations.
		g := run(func(g int) float64 { return 1 / float64(min(g, 300)) }, 5000)
		if g < 505 || g > 800 {
			t.Errorf("MaxGenerations %d, flat after generation 300: stagnated at %d, want soon after 505", maxGen, g)
		}
		// Improving until generation 3000 (the records have wrapped at
		// 600): the median of the older L records is the flat value once
		// more than 1.5·L records are flat, L = max(41, records/10): at
		// about 3000 + 5·1.5·41 = 3310 (600) and 3000 + 0.15·3530 = 3530
		// (the default).
		g = run(func(g int) float64 { return 1 / float64(min(g, 3000)) }, 5000)
		if g < 3205 || g > 3600 {
			t.Errorf("MaxGenerations %d, flat after generation 3000: stagnated at %d, want soon after 3205", maxGen, g)
		}
	}
}

// TestNoEffect: a mean so large that 0.1σ times every axis is below its
// resolution stops a run with NoEffect at generation n (NoEffectCoord too,
// which comes first); a mean large in one coordinate only, with
// NoEffectCoord; a mean of ordinary size not at all.
func TestNoEffect(t *testing.T) {
	const n = 3
	for _, c := range []struct {
		mean []float64
		want Reason
	}{
		{[]float64{1e20, 1e20, 1e20}, NoEffectAxis},
		{[]float64{1e20, 1, 1}, NoEffectCoord},
		{[]float64{1, 1, 1}, NotStopped},
	} {
		cfg := DefaultConfig(n)
		cfg.NoEffect, cfg.Mean, cfg.Seed = true, c.mean, 1
		o, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		fit := make([]float64, o.Lambda())
		var got Reason
		for g := 1; g <= 2*n; g++ {
			for i, x := range o.Ask() {
				fit[i] = x[0] // never flat
			}
			if err := o.Tell(fit); err != nil {
				t.Fatal(err)
			}
			if g%n != 0 && o.Reason() != NotStopped {
				t.Fatalf("mean %v: stopped at generation %d, not a multiple of n", c.mean, g)
			}
			if o.Reason() != NotStopped {
				got = o.Reason()
				break
			}
		}
		if c.want == NoEffectAxis {
			// Both fire at generation n; the axis test outranks.
			if got != NoEffectAxis {
				t.Errorf("mean %v: %v, want %v", c.mean, got, c.want)
			}
			continue
		}
		if got != c.want {
			t.Errorf("mean %v: %v, want %v", c.mean, got, c.want)
		}
	}
}
