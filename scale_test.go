package mmaes

import (
	"context"
	"math"
	"slices"
	"testing"
)

// TestScaledA checks A = s·Ã against the plain update over a run
// long enough to rescale Ã several times (n = 2: α = 1 − c1/2 ≈ 0.92 per
// generation, so s falls below 2⁻³² every ~270 generations): after every
// Tell, A() must equal α·A_prev + β·p·qᵀ computed from the A() before it
// (MMA and eCMA: q = v) within the rounding of the two forms, s must stay
// in [aScaleMin, 1], and a reference A updated the plain way from the start
// must stay within the rounding accumulated over the run.
func TestScaledA(t *testing.T) {
	const u, n, gens = 0x1p-53, 2, 1000
	for _, upd := range []Update{MMA, ECMA} {
		cfg := DefaultConfig(n)
		cfg.Update, cfg.Seed, cfg.Sigma = upd, 11, 1
		cfg.TolX, cfg.TolFun = 0, 0 // run all the generations
		o, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		ref := append([]float64(nil), o.A()...)
		fit := make([]float64, o.Lambda())
		d := o.dist.(*fullMatrix)
		rescales := 0
		for g := 0; g < gens; g++ {
			for i, x := range o.Ask() {
				fit[i] = x[0]*x[0] + 1e3*x[1]*x[1] + 1 // its minimum is far from 0: σ stays normal
			}
			a0 := append([]float64(nil), o.A()...)
			s0 := d.scale
			if err := o.Tell(fit); err != nil {
				t.Fatal(err)
			}
			if o.reason != NotStopped {
				t.Fatalf("%v gen %d: stopped: %v", upd, g, o.reason)
			}
			if d.scale > s0 {
				rescales++
			}
			if !(d.scale >= aScaleMin && d.scale <= 1) {
				t.Fatalf("%v gen %d: s = %v out of [2⁻³², 1]", upd, g, d.scale)
			}
			c1 := o.par.C1
			alpha, beta := 1-c1/2, c1/2
			if upd == ECMA {
				alpha, beta = math.Sqrt(1-c1), ecmaCoef(c1, norm(d.v))
			}
			a1 := o.A()
			maxRef := 0.0
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					term := beta * d.p[i] * d.v[j]
					want := alpha*a0[i*n+j] + term
					// Per generation: the plain form rounds α·A, the
					// product and the sum; s·Ã rounds s' = α·s, β/s', the
					// multiply-add and s'·Ã: a few u of the magnitudes.
					mag := math.Abs(alpha*a0[i*n+j]) + math.Abs(term)
					if d := math.Abs(a1[i*n+j] - want); d > 8*u*mag {
						t.Fatalf("%v gen %d: A[%d,%d] = %v, plain update %v (Δ %g > %g)", upd, g, i, j, a1[i*n+j], want, d, 8*u*mag)
					}
					ref[i*n+j] = alpha*ref[i*n+j] + term
					maxRef = max(maxRef, math.Abs(ref[i*n+j]))
				}
			}
			// Over the run: the two differ by at most the per-generation
			// rounding of both, 16u·max|A| a generation, contracted by
			// α each generation (≤ 16u·max|A|/(1−α)); g+1 generations
			// bound it while that is smaller.
			tol := 16 * u * maxRef * min(float64(g+1), 1/(1-alpha))
			for i := range ref {
				if d := math.Abs(a1[i] - ref[i]); d > tol {
					t.Fatalf("%v gen %d: A[%d] = %v, plain from the start %v (Δ %g > %g)", upd, g, i, a1[i], ref[i], d, tol)
				}
			}
		}
		if rescales < 2 {
			t.Fatalf("%v: %d rescales of Ã in %d generations", upd, rescales, gens)
		}
	}
}

func norm(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	return math.Sqrt(s)
}

// TestRebalanceExact: rebalancing σ and A by powers of two changes no bit of
// a run: with and without it, a run long enough for several rebalances has
// the same mean, the same σ·A (its diagonal, computed the same way) and the
// same best point every generation.
func TestRebalanceExact(t *testing.T) {
	run := func(u Update, exp int) (means, steps [][]float64, rebalances int) {
		old := rebalanceExp
		rebalanceExp = exp
		defer func() { rebalanceExp = old }()
		cfg := DefaultConfig(2)
		cfg.Update, cfg.Seed, cfg.Sigma = u, 7, 20.0/3
		cfg.Mean = []float64{3, -7}
		cfg.TolFun, cfg.TolX, cfg.MaxCondition, cfg.MaxGenerations = 0, 0, 0, 2500
		lastSigma := cfg.Sigma
		cfg.Observer = func(o *Optimizer) {
			a := o.A()
			means = append(means, append([]float64(nil), o.Mean()...))
			steps = append(steps, []float64{o.Sigma() * a[0], o.Sigma() * a[3], o.BestF()})
			if s := o.Sigma(); s/lastSigma > 1e10 || lastSigma/s > 1e10 {
				rebalances++
			}
			lastSigma = o.Sigma()
		}
		o, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		o.Optimize(context.Background(), func(x []float64) float64 { return x[0]*x[0] + x[1]*x[1] })
		return means, steps, rebalances
	}
	for _, u := range []Update{MMA, ECMA, Cholesky} {
		m1, s1, r1 := run(u, 64)
		m2, s2, r2 := run(u, 1<<20)
		if r1 < 2 || r2 != 0 {
			t.Fatalf("%v: %d rebalances with, %d without", u, r1, r2)
		}
		for g := range m1 {
			if !slices.Equal(m1[g], m2[g]) || !slices.Equal(s1[g], s2[g]) {
				t.Fatalf("%v gen %d: mean %v, σ·A %v with rebalancing; %v, %v without", u, g+1, m1[g], s1[g], m2[g], s2[g])
			}
		}
	}
}

// TestRebalanceLimit: a rebalancing may move σ's exponent to ±1000 and no
// further, and never the other way. Each row gives σ = 2^e, the exponent
// k that A's scale asks for, and the exponent σ·2^−k may take.
func TestRebalanceLimit(t *testing.T) {
	for _, c := range []struct{ e, k, want int }{
		{0, -66, -66},     // σ = 1: the whole rebalance
		{0, 70, 70},       // shrinking σ
		{990, -66, -10},   // σ grows to 2^1000 and stops there
		{1000, -66, 0},    // σ at the limit already
		{1010, -66, 0},    // beyond it: no rebalance, never σ·2^−10
		{-990, 66, 10},    // σ shrinks to 2^−1000
		{-1010, 66, 0},    // below it: no rebalance
		{-1010, -66, -66}, // growing a tiny σ is always allowed
		{1010, 66, 66},
	} {
		got := rebalanceLimit(c.k, math.Ldexp(1, c.e))
		if got != c.want {
			t.Errorf("σ = 2^%d, k = %d: got %d, want %d", c.e, c.k, got, c.want)
		}
		if s := math.Ldexp(math.Ldexp(1, c.e), -got); math.IsInf(s, 0) || s == 0 {
			t.Errorf("σ = 2^%d, k = %d: σ·2^−k = %g", c.e, c.k, s)
		}
	}
}
