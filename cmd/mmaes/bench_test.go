package main

import (
	"math"
	"slices"
	"testing"
)

// TestSteadyCost runs steadyCost on a model of optimize.Minimize: a run of g
// generations costs a setup, g samplings and g−1 updates. The cost per
// generation must be one sampling plus one update, exactly (the model's
// values are small integers, so the differences are exact).
func TestSteadyCost(t *testing.T) {
	const setup, sample, update = 1000.0, 3.0, 40.0
	const setupAllocs, sampleAllocs, updateAllocs = 500.0, 20.0, 100.0
	var calls []int
	run := func(g int) (float64, float64) {
		calls = append(calls, g)
		gf := float64(g)
		return setup + gf*sample + (gf-1)*update, setupAllocs + gf*sampleAllocs + (gf-1)*updateAllocs
	}
	for _, extra := range []int{1, 2, 7} {
		calls = calls[:0]
		sec, allocs := steadyCost(run, extra)
		if sec != sample+update || allocs != sampleAllocs+updateAllocs {
			t.Errorf("extra %d: %v s, %v allocs a generation, want %v, %v", extra, sec, allocs, sample+update, sampleAllocs+updateAllocs)
		}
		if len(calls) != 2 || calls[1]-calls[0] != extra || calls[0] < 2 {
			t.Errorf("extra %d: runs of %v generations, want two, the longer by %d, each with an update", extra, calls, extra)
		}
	}
	// Noise that makes the longer run faster gives 0, not a negative cost.
	sec, allocs := steadyCost(func(g int) (float64, float64) { return 10 - float64(g), 5 }, 3)
	if sec != 0 || allocs != 0 || math.Signbit(sec) {
		t.Errorf("noisy runs: %v s, %v allocs, want 0, 0", sec, allocs)
	}
}

// TestRandomValue checks the neutral objective's values: all distinct over
// 10⁵ of them, with the mean and the share of ascents (v_i < v_{i+1}) of
// uniform values on [0, 2⁵³): 2⁵² and 1/2, each within 5 standard errors
// (2⁵³/√(12N), and √((N+1)/12)/(N−1) for the ascents, whose indicators
// are correlated); and that successive generations of a neutral run are
// given other values.
func TestRandomValue(t *testing.T) {
	const n = 100000
	seen := make(map[float64]bool, n)
	var sum float64
	ascents := 0
	prev := randomValue(0)
	for i := range uint64(n) {
		v := randomValue(i)
		if seen[v] {
			t.Fatalf("value %d: %v repeated", i, v)
		}
		seen[v] = true
		sum += v
		if i > 0 && prev < v {
			ascents++
		}
		prev = v
	}
	if mean, se := sum/n, 0x1p53/math.Sqrt(12*n); math.Abs(mean-0x1p52) > 5*se {
		t.Errorf("mean %v, want 2⁵² = %v ± %v", mean, 0x1p52, 5*se)
	}
	if share, se := float64(ascents)/(n-1), math.Sqrt((n+1)/12.0)/(n-1); math.Abs(share-0.5) > 5*se {
		t.Errorf("share of ascents %v, want 0.5 ± %v", share, 5*se)
	}
	r := newNeutral(8)
	defer r.opt.Close()
	r.generation()
	first := append([]float64(nil), r.fit...)
	r.generation()
	if slices.Equal(first, r.fit) {
		t.Errorf("two generations evaluated to the same values %v", first)
	}
}
