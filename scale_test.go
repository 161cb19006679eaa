package mmaes

import (
	"math"
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
