package mmaes

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestRankMuFormula checks one Tell with RankMu against a naive computation
// of A ← (1 − c1/2 − (c_μ/2)·Σw)·A + (c1/2)·p·vᵀ + (c_μ/2)·Σ_t w°_t·y_{t:λ}·z_{t:λ}ᵀ
// from A before it, the paths after it and the generation's steps: the μ
// selected ones (Σw = 1), and with Active also the λ − μ worst, whose
// weights are negative and enter as w°_t = w_t·n/‖z_{t:λ}‖².
func TestRankMuFormula(t *testing.T) {
	const u = 0x1p-53
	for _, c := range []struct {
		n, lambda int
		active    bool
	}{{1, 0, false}, {3, 0, false}, {8, 0, false}, {21, 0, false},
		{1, 0, true}, {2, 2, true}, {3, 3, true}, {8, 0, true}, {21, 0, true}, {5, 40, true}} {
		n := c.n
		cfg := DefaultConfig(n)
		cfg.RankMu, cfg.Active, cfg.Seed, cfg.Sigma, cfg.Lambda = true, c.active, 5, 3, c.lambda
		o, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		fit := make([]float64, o.Lambda())
		f := func(x []float64) float64 {
			s := 0.0
			for i, v := range x {
				s += float64(1+i*i) * v * v
			}
			return s
		}
		neg := o.par.NegWeights
		if c.active != (len(neg) == o.Lambda()-o.Mu()) || !c.active && neg != nil {
			t.Fatalf("n=%d λ=%d active %v: %d negative weights", n, o.Lambda(), c.active, len(neg))
		}
		sumW := 1.0
		for _, w := range neg {
			sumW += w
		}
		steps := o.Mu() + len(neg)
		for g := 0; g < 30; g++ {
			for i, x := range o.Ask() {
				fit[i] = f(x)
			}
			a0 := append([]float64(nil), o.A()...)
			if err := o.Tell(fit); err != nil {
				t.Fatal(err)
			}
			if o.reason != NotStopped {
				t.Fatalf("stopped: %v", o.reason)
			}
			a1 := o.A()
			c1, cmu, w := o.par.C1, o.par.CMu, o.par.Weights
			d := o.dist.(*fullMatrix)
			alpha := 1 - c1/2 - cmu/2*sumW
			coef := make([]float64, steps)
			for k, r := range o.pop.idx[:steps] {
				if k < o.Mu() {
					coef[k] = cmu / 2 * w[k]
					continue
				}
				zz := 0.0
				for _, z := range o.pop.z[r*n : r*n+n] {
					zz += z * z
				}
				coef[k] = cmu / 2 * neg[k-o.Mu()] * float64(n) / zz
			}
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					want := alpha * a0[i*n+j]
					mag := math.Abs(want)
					term := c1 / 2 * d.p[i] * d.v[j]
					want += term
					mag += math.Abs(term)
					for k, r := range o.pop.idx[:steps] {
						term := coef[k] * o.pop.y[r*n+i] * o.pop.z[r*n+j]
						want += term
						mag += math.Abs(term)
					}
					// A = s·Ã (scale.go) adds a few roundings: s·Ã read
					// before and after, the new s, each β_t/s.
					tol := float64(steps+8) * 4 * u * mag
					if diff := math.Abs(a1[i*n+j] - want); diff > tol {
						t.Fatalf("n=%d λ=%d active %v gen %d: A[%d,%d] = %v, want %v (Δ %g > %g)",
							n, o.Lambda(), c.active, o.gen, i, j, a1[i*n+j], want, diff, tol)
					}
				}
			}
			// The row-norm bound holds.
			bound := d.rowA
			d.scanA()
			if d.rowA > bound {
				t.Fatalf("n=%d gen %d: max row norm %v > bound %v", n, o.gen, d.rowA, bound)
			}
			d.rowA = bound
		}
	}
}

// TestRankMuParams checks the default rates against Hansen's tutorial.
func TestRankMuParams(t *testing.T) {
	for _, n := range []int{1, 2, 10, 100} {
		cfg := DefaultConfig(n)
		o, _ := New(cfg)
		paper := o.par
		cfg.RankMu = true
		o, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		p := o.par
		nf, me := float64(n), p.MuEff
		if c1 := 2 / ((nf+1.3)*(nf+1.3) + me); p.C1 != c1 {
			t.Errorf("n=%d: c1 = %v, want %v", n, p.C1, c1)
		}
		want := math.Min(1-p.C1, cmuFactor*2*(me-2+1/me)/((nf+2)*(nf+2)+me))
		if p.CMu != want || !(p.CMu > 0) || p.C1+p.CMu > 1 {
			t.Errorf("n=%d: c_μ = %v, want %v", n, p.CMu, want)
		}
		if p.C != paper.C || p.CSigma != paper.CSigma || p.DSigma != paper.DSigma || p.Lambda != paper.Lambda {
			t.Errorf("n=%d: rank-μ changed other parameters: %+v vs %+v", n, p, paper)
		}
		// Independently of the code: values computed outside Go (Python,
		// double precision) from the tutorial's formulas, λ = 10, μ = 5 at
		// n = 10; a few ulps of difference in summation order allowed.
		if n == 10 {
			for _, c := range []struct {
				name      string
				got, want float64
			}{
				{"μ_eff", p.MuEff, 3.4147720863376096},
				{"c1", p.C1, 0.015254974843195806},
				{"c_μ (3× the tutorial's)", p.CMu, 0.06950256239747268},
			} {
				if math.Abs(c.got-c.want) > 16*0x1p-53*c.want {
					t.Errorf("n=10: %s = %v, want %v", c.name, c.got, c.want)
				}
			}
		}
	}
}

// TestBoxMap checks the boundary transformation: inside the box always
// (also for extreme inputs), the identity in the core, continuity and the
// values of pycma's BoxConstraintsLinQuadTransformation at a few points.
func TestBoxMap(t *testing.T) {
	inf := math.Inf(1)
	boxes := [][2]float64{{-1, 1}, {0, 10}, {-5, -4.999}, {3, 3}, {-inf, 2}, {-2, inf}, {-inf, inf},
		{-1e300, 1e300}, {-math.MaxFloat64, math.MaxFloat64}, {1e-300, 2e-300}, {-1e10, 5},
		{-5e-324, inf}, {-inf, 5e-324}, {1e308, inf}, {-inf, -1e308}, {-math.MaxFloat64, inf}}
	rng := rand.New(rand.NewPCG(1, 2))
	extremes := []float64{0, 1, -1, 1e308, -1e308, math.MaxFloat64, -math.MaxFloat64, 5e-324, 1e20, -1e20, 1e15 + 0.3}
	for _, b := range boxes {
		l, u := b[0], b[1]
		bx := newBox(1, []float64{l}, []float64{u}, nil)
		al, au := bx.al[0], bx.au[0]
		check := func(x float64) float64 {
			y := boxMap(x, l, u, al, au)
			if !(y >= l && y <= u) || math.IsInf(y, 0) {
				t.Fatalf("[%g, %g]: T(%g) = %g outside", l, u, x, y)
			}
			return y
		}
		for _, x := range extremes {
			check(x)
		}
		for i := 0; i < 20000; i++ {
			x := rng.NormFloat64() * math.Pow(10, float64(rng.IntN(12))-3)
			if !math.IsInf(l, 0) && !math.IsInf(u, 0) && u-l < 1e300 {
				x = l + (u-l)*(4*rng.Float64()-1.5)
			}
			check(x)
		}
		// The core is the identity.
		if l < u && !math.IsInf(u-l, 0) {
			lo, hi := l+al, u-au
			if math.IsInf(l, -1) {
				lo = hi - 100
			}
			if math.IsInf(u, 1) {
				hi = lo + 100
			}
			for i := 0; i <= 10; i++ {
				x := lo + (hi-lo)*float64(i)/10
				if x >= lo && x <= hi {
					if y := check(x); y != x {
						t.Errorf("[%g, %g]: T(%g) = %g in the core", l, u, x, y)
					}
				}
			}
		}
		// Continuity: small steps move T(x) by at most about as much
		// (|T'| ≤ 1).
		if l < u && u-l < 1e10 && u-l > 1e-10 {
			lo, hi := l-3*(u-l)-1, u+3*(u-l)+1
			if math.IsInf(l, -1) {
				lo = u - 10
			}
			if math.IsInf(u, 1) {
				hi = l + 10
			}
			h := (hi - lo) / 1e5
			prev := check(lo)
			for x := lo + h; x <= hi; x += h {
				y := check(x)
				if math.Abs(y-prev) > 1.001*h+1e-12*math.Abs(y) {
					t.Fatalf("[%g, %g]: jump at %g: %g → %g", l, u, x, prev, y)
				}
				prev = y
			}
		}
	}
	// pycma 4.4.0, BoxConstraintsLinQuadTransformation([[-1, 1]]):
	// al = au = min(1, 2/20) = 0.1.
	for _, c := range [][2]float64{
		{0, 0}, {0.5, 0.5}, {0.9, 0.9}, {1, 0.975}, {1.1, 1}, {1.2, 0.975}, {1.3, 0.9},
		{-1.1, -1}, {-1, -0.975},
		{3, -0.8}, // shifted by the period 2·(2 + 0.2) to −1.4, mirrored at −1.1
	} {
		bx := newBox(1, []float64{-1}, []float64{1}, nil)
		got := boxMap(c[0], -1, 1, bx.al[0], bx.au[0])
		if math.Abs(got-c[1]) > 1e-15 {
			t.Errorf("T(%g) = %v, want %v", c[0], got, c[1])
		}
	}
}
