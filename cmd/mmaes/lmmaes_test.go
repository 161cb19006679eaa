package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/mmaes-go/mmaes/kernel"
)

// filled returns a vector of n entries v.
func filled(n int, v float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = v
	}
	return x
}

// largeEval returns the suite's function with this short name at
// dimension n (instance seed) as an objective.
func largeEval(t testing.TB, short string, n int, seed uint64) func([]float64) float64 {
	t.Helper()
	fn, err := lookupLargeFunction(short)
	if err != nil {
		t.Fatal(err)
	}
	return newLargeObjective(fn, n, seed).Eval
}

// medianInt returns the median of xs (the lower middle for an even count).
func medianInt(xs []int) int {
	s := append([]int(nil), xs...)
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s[(len(s)-1)/2]
}

func TestLMMAESParameters(t *testing.T) {
	o, err := newLMMAES(baselineConfig{Mean: make([]float64, 1000), Sigma: 1})
	if err != nil {
		t.Fatal(err)
	}
	// n = 1000: λ = 4 + ⌊3·6.9078⌋ = 24, μ = 12, m = 24.
	if o.lambda != 24 || o.mu != 12 || o.memory != 24 {
		t.Errorf("λ, μ, m = %d, %d, %d, want 24, 12, 24", o.lambda, o.mu, o.memory)
	}
	if math.Abs(o.cSigma-0.048) > 1e-15 {
		t.Errorf("c_σ = %v, want 2λ/n = 0.048", o.cSigma)
	}
	if math.Abs(o.cd[0]-1e-3) > 1e-18 || math.Abs(o.cd[2]-1e-3/2.25) > 1e-18 {
		t.Errorf("c_d = %v…, want 1/(1.5^(i−1)·n)", o.cd[:3])
	}
	if math.Abs(o.cc[0]-0.024) > 1e-17 || math.Abs(o.cc[1]-0.006) > 1e-17 {
		t.Errorf("c_c = %v…, want λ/(4^(i−1)·n)", o.cc[:2])
	}
	sum, prev := 0.0, math.Inf(1)
	for i, w := range o.weights {
		if !(w > 0 && w < prev) {
			t.Errorf("w_%d = %v not positive and decreasing", i+1, w)
		}
		prev = w
		sum += w
	}
	if math.Abs(sum-1) > 1e-15 {
		t.Errorf("Σ w = %v", sum)
	}
	// w_i ∝ ln(μ + 1/2) − ln i: w_1/w_2 = ln 12.5 / (ln 12.5 − ln 2).
	if r, want := o.weights[0]/o.weights[1], math.Log(12.5)/(math.Log(12.5)-math.Log(2)); math.Abs(r-want) > 1e-14 {
		t.Errorf("w_1/w_2 = %v, want %v", r, want)
	}
	// The paper's rates need n ≥ 2λ.
	if _, err := newLMMAES(baselineConfig{Mean: make([]float64, 20), Sigma: 1}); err == nil {
		t.Error("n = 20 (c_σ = 2λ/n > 1) accepted")
	}
	for _, bad := range []baselineConfig{
		{Mean: nil, Sigma: 1},
		{Mean: make([]float64, 100), Sigma: 0},
		{Mean: make([]float64, 100), Sigma: math.Inf(1)},
		{Mean: make([]float64, 100), Sigma: 1, TargetF: math.NaN()},
		{Mean: make([]float64, 100), Sigma: 1, MaxEvals: -1},
		{Mean: make([]float64, 100), Sigma: 1, Lambda: 1},
		{Mean: []float64{math.NaN(), 0}, Sigma: 1},
	} {
		if _, err := newLMMAES(bad); err == nil {
			t.Errorf("config %+v accepted", bad)
		}
	}
}

// recursionDirections computes the directions of o's current population
// the way the paper writes it: for each candidate, d = z and then
// d ← (1 − c_d,j)·d + c_d,j·M_j·(M_jᵀd) for j = 1..min(t, m).
func recursionDirections(o *lmmaes) []float64 {
	n := o.n
	d := append([]float64(nil), o.z...)
	for c := 0; c < o.lambda; c++ {
		dc := d[c*n : (c+1)*n]
		for j := 0; j < min(o.gen, o.memory); j++ {
			mj := o.dirs[j*n : (j+1)*n]
			dot := 0.0
			for i := range dc {
				dot += mj[i] * dc[i]
			}
			for i := range dc {
				dc[i] = (1-o.cd[j])*dc[i] + o.cd[j]*dot*mj[i]
			}
		}
	}
	return d
}

// recursionDirectionsKernel is recursionDirections into o.d with the
// kernel's Dot and AxpBy: the direct form's speed, for the benchmark.
func recursionDirectionsKernel(o *lmmaes) {
	n := o.n
	copy(o.d, o.z)
	for c := 0; c < o.lambda; c++ {
		dc := o.d[c*n : (c+1)*n]
		for j := 0; j < min(o.gen, o.memory); j++ {
			mj := o.dirs[j*n : (j+1)*n]
			kernel.AxpBy(o.cd[j]*kernel.Dot(mj, dc), mj, 1-o.cd[j], dc)
		}
	}
}

// TestLMMAESSamplingMatchesRecursion checks the sampling against the
// paper's recursion, in the first generations (fewer than m vectors) and
// later ones: direct (n ≤ lmmaesDirectMaxDim) and blocked, at dimensions
// that are and are not multiples of the block.
func TestLMMAESSamplingMatchesRecursion(t *testing.T) {
	for _, n := range []int{60, 1000, lmmaesDirectMaxDim + 1, 3*lmmaesBlock + lmmaesDirectMaxDim} {
		o, err := newLMMAES(baselineConfig{Mean: filled(n, 1), Sigma: 1, Seed: 3, TargetF: math.Inf(-1)})
		if err != nil {
			t.Fatal(err)
		}
		f := largeEval(t, "rell", n, 1)
		moved := 0.0
		for g := 0; g <= o.memory+2; g++ {
			if g > 2 && g < o.memory {
				o.generation(f)
				continue
			}
			for i := range o.z {
				o.z[i] = o.rng.NormFloat64()
			}
			o.sampleDirections()
			want := recursionDirections(o)
			worst := 0.0
			for i := range want {
				worst = max(worst, math.Abs(o.d[i]-want[i])/(1+math.Abs(want[i])))
			}
			if worst > 1e-12 {
				t.Fatalf("n=%d generation %d: the sampling differs from the recursion by %.3g", n, g, worst)
			}
			moved = 0
			for i := range want {
				moved = max(moved, math.Abs(o.d[i]-o.z[i]))
			}
			o.generation(f) // moves the state on (with its own deviates)
		}
		// With all m vectors in use, the directions differ from the deviates.
		if moved < 0.01 {
			t.Errorf("n=%d: max |d − z| = %.3g with %d vectors", n, moved, o.memory)
		}
	}
}

// TestLMMAESSphere: from x0 = 3·1, σ0 = 2 at n = 100, every seed reaches
// 1e-8 in about 10 000 evaluations (591, 581, 612 generations for seeds
// 1–3); an isotropic ES with σ held (no step-size control) would not reach
// it at all, and a control that adapts σ a few times too slowly or too
// fast needs several times more.
func TestLMMAESSphere(t *testing.T) {
	const n = 100
	f := largeEval(t, "sph", n, 1)
	var evals []int
	for seed := uint64(1); seed <= 5; seed++ {
		o, err := newLMMAES(baselineConfig{Mean: filled(n, 3), Sigma: 2, Seed: seed, TargetF: 1e-8, MaxEvals: 20000})
		if err != nil {
			t.Fatal(err)
		}
		r := o.run(f)
		if r.Reason != reachedTarget || r.F > 1e-8 || f(r.X) != r.F {
			t.Fatalf("seed %d: %v after %d evaluations, f = %g", seed, r.Reason, r.Evals, r.F)
		}
		evals = append(evals, r.Evals)
	}
	if m := medianInt(evals); m < 7000 || m > 14000 {
		t.Errorf("median %d evaluations (%v), expected about 10 000", m, evals)
	}
}

func TestLMMAESDeterministic(t *testing.T) {
	f := largeEval(t, "rros", 200, 2)
	run := func(seed uint64) baselineResult {
		o, err := newLMMAES(baselineConfig{Mean: filled(200, 0.5), Sigma: 0.5, Seed: seed, TargetF: math.Inf(-1), MaxEvals: 5000})
		if err != nil {
			t.Fatal(err)
		}
		return o.run(f)
	}
	a, b, c := run(7), run(7), run(8)
	if a.F != b.F || a.Sigma != b.Sigma || a.Evals != 5000 || a.Reason != budgetExhausted {
		t.Errorf("seed 7 twice: f %v and %v, σ %v and %v, %d evaluations, %v", a.F, b.F, a.Sigma, b.Sigma, a.Evals, a.Reason)
	}
	if a.F == c.F {
		t.Errorf("seeds 7 and 8 end at the same f %v", a.F)
	}
}

// TestLMMAESAllocs: no allocation per generation once the run is set up,
// before and after all m vectors are in use.
func TestLMMAESAllocs(t *testing.T) {
	for _, n := range []int{64, 1000} {
		f := largeEval(t, "ell", n, 1)
		o, err := newLMMAES(baselineConfig{Mean: filled(n, 1), Sigma: 1, TargetF: math.Inf(-1)})
		if err != nil {
			t.Fatal(err)
		}
		if a := testing.AllocsPerRun(50, func() { o.generation(f) }); a != 0 {
			t.Errorf("n=%d: %v allocations per generation", n, a)
		}
	}
}

// TestLMMAESNumericalFailure: a σ that overflows stops the run with
// numericalFailure instead of running on with Inf or NaN.
func TestLMMAESNumericalFailure(t *testing.T) {
	const n = 50
	// A linear function rewards ever longer steps: σ grows without bound.
	linear := func(x []float64) float64 { return -x[0] }
	o, err := newLMMAES(baselineConfig{Mean: make([]float64, n), Sigma: 1e300, TargetF: math.Inf(-1), MaxEvals: 1e6})
	if err != nil {
		t.Fatal(err)
	}
	r := o.run(linear)
	if r.Reason != numericalFailure {
		t.Errorf("stopped on %v after %d evaluations (σ = %v)", r.Reason, r.Evals, r.Sigma)
	}
}

// TestLMMAESRotatedEllipsoid: LM-MA-ES solves the block-rotated ellipsoid
// at n = 100 (it starts isotropic and learns directions, so a rotation
// costs it nothing: plain and rotated, seeds 1–3, both took 2.0–2.2
// million evaluations), where sep-CMA-ES, whose diagonal cannot follow the
// rotation, is still orders of magnitude above the target after as many
// evaluations (410–2960 after a million, seeds 1–3; it solves the plain
// ellipsoid in 30 000).
func TestLMMAESRotatedEllipsoid(t *testing.T) {
	if testing.Short() {
		t.Skip("two runs of 2–3 million evaluations (10–35 s)")
	}
	const n = 100
	o, err := newLMMAES(baselineConfig{Mean: filled(n, 3), Sigma: 2, Seed: 1, TargetF: 1e-8, MaxEvals: 3000000})
	if err != nil {
		t.Fatal(err)
	}
	r := o.run(largeEval(t, "rell", n, 1))
	if r.Reason != reachedTarget || r.Evals > 2600000 {
		t.Fatalf("LM-MA-ES: %v, f = %g after %d evaluations", r.Reason, r.F, r.Evals)
	}
	s, err := newSepCMA(baselineConfig{Mean: filled(n, 3), Sigma: 2, Seed: 1, TargetF: 1e-8, MaxEvals: r.Evals})
	if err != nil {
		t.Fatal(err)
	}
	if rs := s.run(largeEval(t, "rell", n, 1)); rs.F < 1 {
		t.Errorf("sep-CMA-ES reached f = %g on the rotated ellipsoid in %d evaluations (LM-MA-ES: 1e-8)", rs.F, rs.Evals)
	}
}

// pypopEllipsoid1000 are the best values of pypop7's LMMAES on its
// ellipsoid at n = 1000 from x0 = 4·1, σ0 = 0.1 (seed 0), after these
// evaluations, from its published log (docs/repeatability/lmmaes/
// _test_lmmaes.txt in Evolutionary-Intelligence/pypop).
var pypopEllipsoid1000 = []struct {
	evals int
	f     float64
}{
	{120024, 6.18460e+05},
	{240024, 1.72598e+05},
	{480024, 5.40664e+04},
	{960024, 1.58090e+04},
	{1920024, 2.83316e+03},
}

// TestLMMAESMatchesPypop7 compares the run with pypop7's published one on
// the same problem (n = 1000, x0 = 4·1, σ0 = 0.1, λ = m = 24, the ellipsoid
// with condition 10⁶): at the same evaluation counts the best values must
// agree within a factor 1.5. The first two checkpoints run by default
// (about 5 s); MMAES_LONG=1 runs all five (about 40 s). Measured,
// seeds 1–3, against pypop7: 6.3e5, 5.0e5, 5.3e5 (6.2e5) at 1.2e5
// evaluations, 1.9e5, 1.6e5, 1.7e5 (1.7e5) at 2.4e5, 5.7e4, 4.8e4, 4.8e4
// (5.4e4) at 4.8e5, 1.41e4, 1.40e4, 1.30e4 (1.58e4) at 9.6e5 and 2.4e3,
// 2.3e3, 2.6e3 (2.8e3) at 1.92e6; σ ends at 1.5–1.8e-4 (pypop7: 1.75e-4).
// On Rosenbrock from the same start the three seeds pass 1.8e3, 1.4e3, 1.0e3
// and 400–630 at 1.2e5, 2.4e5, 4.8e5 and 9.6e5 evaluations, pypop7 1.7e3,
// 1.4e3, 1.2e3 and 660.
func TestLMMAESMatchesPypop7(t *testing.T) {
	if testing.Short() {
		t.Skip("240 000 evaluations at n = 1000 (about 5 s)")
	}
	checkpoints := pypopEllipsoid1000[:2]
	if os.Getenv("MMAES_LONG") != "" {
		checkpoints = pypopEllipsoid1000
	}
	const n = 1000
	f := largeEval(t, "ell", n, 0)
	o, err := newLMMAES(baselineConfig{Mean: filled(n, 4), Sigma: 0.1, Seed: 1, TargetF: 1e-10})
	if err != nil {
		t.Fatal(err)
	}
	if f0 := f(o.mean); math.Abs(f0-1.16e9) > 0.01e9 {
		t.Fatalf("f(x0) = %g, pypop7's is 1.16e9", f0)
	}
	for _, cp := range checkpoints {
		for o.evals < cp.evals {
			o.generation(f)
		}
		if ratio := o.bestF / cp.f; ratio < 1/1.5 || ratio > 1.5 {
			t.Errorf("after %d evaluations f = %.4g, pypop7 %.4g (ratio %.2f)", o.evals, o.bestF, cp.f, ratio)
		}
	}
}

// BenchmarkLMMAESGeneration times one generation (sampling, λ evaluations
// of the sphere, update) with all m vectors in use.
func BenchmarkLMMAESGeneration(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			f := func(x []float64) float64 {
				s := 0.0
				for _, v := range x {
					s += v * v
				}
				return s
			}
			o, err := newLMMAES(baselineConfig{Mean: filled(n, 1), Sigma: 1, TargetF: math.Inf(-1)})
			if err != nil {
				b.Fatal(err)
			}
			for o.gen < o.memory+1 {
				o.generation(f)
			}
			b.ReportAllocs()
			for b.Loop() {
				o.generation(f)
			}
		})
	}
}

// BenchmarkLMMAESSampling times the sampling of the λ directions alone,
// blocked and by the recursion itself (sampleDirections takes the latter
// up to n = lmmaesDirectMaxDim), and the normal deviates it starts from.
func BenchmarkLMMAESSampling(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		o, err := newLMMAES(baselineConfig{Mean: filled(n, 1), Sigma: 1, TargetF: math.Inf(-1)})
		if err != nil {
			b.Fatal(err)
		}
		r := rand.New(rand.NewPCG(1, 1))
		for i := range o.dirs {
			o.dirs[i] = r.NormFloat64()
		}
		for i := range o.z {
			o.z[i] = r.NormFloat64()
		}
		o.gen = o.memory
		b.Run(fmt.Sprintf("blocked/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				o.sampleBlocked(o.memory)
			}
		})
		b.Run(fmt.Sprintf("recursion/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				recursionDirectionsKernel(o)
			}
		})
		b.Run(fmt.Sprintf("normals/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				for i := range o.z {
					o.z[i] = o.rng.NormFloat64()
				}
			}
		})
	}
}
