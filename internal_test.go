package mmaes

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRank checks the ranking policy against a plain stable sort with an
// explicit key: NaN last, ±Inf by value, ties by index.
func TestRank(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	vals := []float64{nan, inf, -inf, 0, math.Copysign(0, -1), 1, -1, 1e308, -1e308, 5e-324}
	// Values a few units in the last place apart: their keys agree but for
	// the low bits (where kernel.RankFloats' generic path packs the index).
	for _, d := range []uint64{1, 2, 5, 63, 64, 65} {
		vals = append(vals, math.Float64frombits(math.Float64bits(1)+d), -math.Float64frombits(math.Float64bits(1)+d))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var sc, short rankScratch // sc grows over the trials; short holds 4
	short.resize(4)
	for trial := 0; trial < 2000; trial++ {
		lam := 2 + rng.IntN(100) // both sides of kernel.RankFloatsMax
		sc.resize(lam)
		fit := make([]float64, lam)
		for i := range fit {
			if rng.IntN(3) == 0 {
				fit[i] = rng.NormFloat64()
			} else {
				fit[i] = vals[rng.IntN(len(vals))]
			}
		}
		idx := make([]int, lam)
		valid := rank(idx, fit, &sc)
		// The sorting path, without room for the keys, ranks the same.
		for _, other := range []*rankScratch{nil, &short} {
			idx2 := make([]int, lam)
			if v := rank(idx2, fit, other); !slices.Equal(idx2, idx) || v != valid {
				t.Fatalf("rank(%v) = %v (%d valid) by counting, %v (%d) by sorting", fit, idx, valid, idx2, v)
			}
		}
		want := make([]int, lam)
		for i := range want {
			want[i] = i
		}
		key := func(i int) (int, float64) {
			if math.IsNaN(fit[i]) {
				return 1, 0
			}
			return 0, fit[i]
		}
		slices.SortStableFunc(want, func(i, j int) int {
			ki, vi := key(i)
			kj, vj := key(j)
			switch {
			case ki != kj:
				return ki - kj
			case vi < vj:
				return -1
			case vi > vj:
				return 1
			}
			return 0
		})
		nv := 0
		for _, f := range fit {
			if !math.IsNaN(f) {
				nv++
			}
		}
		if !slices.Equal(idx, want) || valid != nv {
			t.Fatalf("rank(%v) = %v (%d valid), want %v (%d)", fit, idx, valid, want, nv)
		}
	}
}

func TestCoefficients(t *testing.T) {
	for _, c1 := range []float64{0.343, 0.1, 1e-3, 1e-8} {
		// The limit at q = 0.
		if b := ecmaCoef(c1, 0); math.Abs(b-c1/(2*math.Sqrt(1-c1))) > 1e-16*b {
			t.Errorf("ecmaCoef(%g, 0) = %v", c1, b)
		}
		_, bi := invCoef(c1, 0)
		if want := -c1 / (2 * math.Pow(1-c1, 1.5)); math.Abs(bi-want) > 1e-15*math.Abs(want) {
			t.Errorf("invCoef(%g, 0) = %v, want %v", c1, bi, want)
		}
		for _, nq := range []float64{1e-3, 0.5, 3, 100} {
			x := c1 / (1 - c1) * nq * nq
			// √(1+x) − 1 in the paper's form loses about u/x relative to
			// cancellation; a few more u for the other operations.
			tol := 8 * 0x1p-53 * (1 + 1/x)
			paper := math.Sqrt(1-c1) / (nq * nq) * (math.Sqrt(1+x) - 1)
			if b := ecmaCoef(c1, nq); math.Abs(b-paper) > tol*paper {
				t.Errorf("ecmaCoef(%g, %g) = %v, paper %v", c1, nq, b, paper)
			}
			paperInv := 1 / (math.Sqrt(1-c1) * nq * nq) * (1/math.Sqrt(1+x) - 1)
			if _, bi := invCoef(c1, nq); math.Abs(bi-paperInv) > tol*math.Abs(paperInv) {
				t.Errorf("invCoef(%g, %g) = %v, paper %v", c1, nq, bi, paperInv)
			}
		}
		if b := ecmaCoef(c1, math.Inf(1)); b != 0 {
			t.Errorf("ecmaCoef(‖q‖ = Inf) = %v", b)
		}
	}
}

// TestRowBound checks that rowA bounds the row norms of A over a run, and is
// exact after each scan.
func TestRowBound(t *testing.T) {
	for _, u := range []Update{MMA, ECMA, Cholesky} {
		for _, n := range []int{3, 65, 130} {
			cfg := DefaultConfig(n)
			cfg.Update = u
			cfg.MaxGenerations = 200
			o, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			fit := make([]float64, o.Lambda())
			d := o.dist.(*fullMatrix)
			for o.reason == NotStopped {
				xs := o.Ask()
				for i, x := range xs {
					fit[i] = 0
					for j, v := range x {
						fit[i] += float64(j+1) * v * v
					}
				}
				if err := o.Tell(fit); err != nil {
					t.Fatal(err)
				}
				bound, boundInv := d.rowA, d.rowAInv
				d.scanA()
				if d.rowA > bound {
					t.Fatalf("%v n=%d gen %d: max row norm %v > bound %v", u, n, o.gen, d.rowA, bound)
				}
				if o.gen%scanEvery(n) == 0 && d.rowA != bound {
					t.Fatalf("%v n=%d gen %d: bound %v not exact after a scan (%v)", u, n, o.gen, bound, d.rowA)
				}
				d.rowA = bound
				if d.ainv != nil {
					d.scanAInv()
					if d.rowAInv > boundInv {
						t.Fatalf("%v n=%d: A_inv row norm %v > bound %v", u, n, d.rowAInv, boundInv)
					}
					d.rowAInv = boundInv
				}
			}
		}
	}
}

func TestMaxAbs(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		x    []float64
		want float64
	}{
		{nil, 0},
		{[]float64{-3, 2, 0}, 3},
		{[]float64{math.Copysign(0, -1)}, 0},
		{[]float64{1, -inf, 2}, inf},
		{[]float64{1, nan, 5}, nan},
		{[]float64{nan, 1, -inf}, nan},
		{[]float64{5, 4, 3, 2, 1, nan}, nan},
	} {
		got := maxAbs(c.x)
		if !(got == c.want || got != got && c.want != c.want) || math.Signbit(got) {
			t.Errorf("maxAbs(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}

// maxAbs against the definition: every length up to 67, a NaN or an
// infinity at every position, signed zeros.
func TestMaxAbsSweep(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for n := 0; n <= 67; n++ {
		x := make([]float64, n)
		for i := range x {
			x[i] = r.NormFloat64() * math.Exp(4*r.NormFloat64())
		}
		want := 0.0
		for _, v := range x {
			if math.Abs(v) > want {
				want = math.Abs(v)
			}
		}
		if got := maxAbs(x); got != want {
			t.Fatalf("n = %d: %v, want %v", n, got, want)
		}
		for i := range x {
			for _, special := range []float64{math.NaN(), math.Inf(-1), math.Copysign(0, -1)} {
				y := append([]float64(nil), x...)
				y[i] = special
				got := maxAbs(y)
				switch {
				case math.IsNaN(special):
					if !math.IsNaN(got) {
						t.Fatalf("n = %d, NaN at %d: %v", n, i, got)
					}
				case math.IsInf(special, 0):
					if !math.IsInf(got, 1) {
						t.Fatalf("n = %d, −Inf at %d: %v", n, i, got)
					}
				default:
					w := 0.0
					for _, v := range y {
						w = math.Max(w, math.Abs(v))
					}
					if got != w || math.Signbit(got) {
						t.Fatalf("n = %d, −0 at %d: %v, want %v", n, i, got, w)
					}
				}
			}
		}
	}
}

func BenchmarkMaxAbs(b *testing.B) {
	x := make([]float64, 64)
	for i := range x {
		x[i] = float64(i%7) - 3
	}
	var s float64
	for b.Loop() {
		s += maxAbs(x)
	}
	_ = s
}

// allFinite against its definition: every length up to 67, one NaN (of
// either sign), ±Inf, ±MaxFloat64, the smallest subnormal or −0 at every
// position of finite values.
func TestAllFiniteSweep(t *testing.T) {
	negNaN := math.Float64frombits(math.Float64bits(math.NaN()) | 1<<63)
	for n := 0; n <= 67; n++ {
		x := make([]float64, n)
		for i := range x {
			x[i] = float64(i%7) - 3.5
		}
		if !allFinite(x) {
			t.Fatalf("n = %d: finite values reported non-finite", n)
		}
		for i := range x {
			for _, c := range []struct {
				v      float64
				finite bool
			}{
				{math.NaN(), false}, {negNaN, false}, {math.Inf(1), false}, {math.Inf(-1), false},
				{math.MaxFloat64, true}, {-math.MaxFloat64, true}, {math.SmallestNonzeroFloat64, true},
				{math.Copysign(0, -1), true},
			} {
				y := append([]float64(nil), x...)
				y[i] = c.v
				if got := allFinite(y); got != c.finite {
					t.Fatalf("n = %d, %v at %d: allFinite %v, want %v", n, c.v, i, got, c.finite)
				}
			}
		}
	}
}

// extremes against hand-worked cases: a NaN makes both NaN, −0 is a value
// (the smallest of +0 and −0 is −0) and no rows give 0 and +Inf.
func TestExtremes(t *testing.T) {
	nan, inf, negZero := math.NaN(), math.Inf(1), math.Copysign(0, -1)
	same := func(a, b float64) bool {
		return a == b && math.Signbit(a) == math.Signbit(b) || a != a && b != b
	}
	for _, c := range []struct {
		r      []float64
		hi, lo float64
	}{
		{nil, 0, inf},
		{[]float64{2}, 2, 2},
		{[]float64{3, 1e-300, 7, 0.5}, 7, 1e-300},
		{[]float64{0, 4, math.SmallestNonzeroFloat64}, 4, 0},
		{[]float64{1, inf, 2}, inf, 1},
		{[]float64{inf, inf}, inf, inf},
		{[]float64{1, nan, 2}, nan, nan},
		{[]float64{nan}, nan, nan},
		{[]float64{1, math.Float64frombits(math.Float64bits(nan) | 1<<63)}, nan, nan},
		{[]float64{2, negZero, 3}, 3, negZero},
		{[]float64{negZero}, 0, negZero},
	} {
		hi, lo := extremes(c.r)
		if !same(hi, c.hi) || !same(lo, c.lo) {
			t.Errorf("extremes(%v) = %v, %v; want %v, %v", c.r, hi, lo, c.hi, c.lo)
		}
	}
}
