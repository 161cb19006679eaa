package mmaes

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// expPrec is the precision of the math/big references: e^x for |x| ≤ 700
// squares its series' sum up to 2^18 times, which costs 18 of its bits.
const expPrec = 256

// expRef returns e^x rounded to the nearest float64, from the Taylor series
// of e^(x/2^s) with |x/2^s| ≤ 2^-8 in expPrec bits, squared s times.
func expRef(x float64) float64 {
	s := max(0, math.Ilogb(x)+9)
	if x == 0 {
		s = 0
	}
	y := new(big.Float).SetPrec(expPrec).SetFloat64(x)
	y.SetMantExp(y, -s)
	sum := new(big.Float).SetPrec(expPrec).SetInt64(1)
	term := new(big.Float).SetPrec(expPrec).SetInt64(1)
	for i := int64(1); i <= 40; i++ {
		term.Mul(term, y)
		term.Quo(term, new(big.Float).SetPrec(expPrec).SetInt64(i))
		sum.Add(sum, term)
	}
	for range s {
		sum.Mul(sum, sum)
	}
	f, _ := sum.Float64()
	return f
}

// ulps is the distance between two finite, positive float64 values in
// units in the last place.
func ulps(a, b float64) int64 {
	d := int64(math.Float64bits(a)) - int64(math.Float64bits(b))
	if d < 0 {
		d = -d
	}
	return d
}

// TestExpReference checks the reference itself on values known exactly
// or from math.Exp (which is within one ulp).
func TestExpReference(t *testing.T) {
	if got := expRef(0); got != 1 {
		t.Fatalf("expRef(0) = %v", got)
	}
	if got := expRef(1); got != math.E {
		t.Fatalf("expRef(1) = %v, e is %v", got, math.E)
	}
	for _, x := range []float64{-700, -3.5, -1e-9, 0.25, 2, 88.7, 700} {
		if d := ulps(expRef(x), math.Exp(x)); d > 1 {
			t.Errorf("expRef(%v) = %v, math.Exp %v: %d ulps apart", x, expRef(x), math.Exp(x), d)
		}
	}
}

// TestExpTable checks each 2^(j/64) against 2^(1/64) from six square
// roots of 2 in math/big, raised to the power j there: its first part is
// that rounded once, its second the rest rounded once.
func TestExpTable(t *testing.T) {
	root := new(big.Float).SetPrec(expPrec).SetInt64(2)
	for range 6 {
		root.Sqrt(root)
	}
	p := new(big.Float).SetPrec(expPrec).SetInt64(1)
	for j, e := range expTable {
		hi, _ := p.Float64()
		lo, _ := new(big.Float).SetPrec(expPrec).Sub(p, new(big.Float).SetFloat64(hi)).Float64()
		if e[0] != hi || e[1] != lo {
			t.Errorf("expTable[%d] = {%x, %x}, 2^(%d/64) rounds to %x and the rest to %x", j, e[0], e[1], j, hi, lo)
		}
		p.Mul(p, root)
	}
}

// TestExpConstants checks ln2/64 in two parts and 64/ln2 against ln 2 from
// its series Σ 1/(k·2^k) in math/big, and that the first part times any k
// exp meets is exact.
func TestExpConstants(t *testing.T) {
	ln2 := new(big.Float).SetPrec(expPrec)
	pow := new(big.Float).SetPrec(expPrec).SetInt64(1)
	for k := int64(1); k <= expPrec+10; k++ {
		pow.SetMantExp(pow, -1)
		term := new(big.Float).SetPrec(expPrec).Quo(pow, new(big.Float).SetInt64(k))
		ln2.Add(ln2, term)
	}
	l := new(big.Float).SetPrec(expPrec).SetMantExp(ln2, -6) // ln2/64
	if hi, _ := l.Float64(); math.Abs(hi-expLn2Hi) > 0x1p-42 {
		t.Fatalf("expLn2Hi = %x, ln2/64 is %x", expLn2Hi, hi)
	}
	rest := new(big.Float).SetPrec(expPrec).Sub(l, new(big.Float).SetFloat64(expLn2Hi))
	if lo, _ := rest.Float64(); lo != expLn2Lo {
		t.Errorf("expLn2Lo = %x, ln2/64 − expLn2Hi rounds to %x", expLn2Lo, lo)
	}
	if m := math.Float64bits(expLn2Hi) & (1<<17 - 1); m != 0 {
		t.Errorf("expLn2Hi = %x has more than 36 significant bits", expLn2Hi)
	}
	if kmax := expFastMax*expInvLn2 + 1; kmax >= 1<<17 {
		t.Errorf("k reaches %v: k·expLn2Hi is not exact", kmax)
	}
	inv := new(big.Float).SetPrec(expPrec).Quo(new(big.Float).SetInt64(64), ln2)
	if want, _ := inv.Float64(); expInvLn2 != want {
		t.Errorf("expInvLn2 = %x, 64/ln2 rounds to %x", expInvLn2, want)
	}
}

// TestExp checks exp against the correctly rounded e^x: the result is
// within ½ ulp and about a hundredth of e^x (exp's doc), so it is at most
// one ulp from the rounded e^x, and one ulp only where e^x lies within a
// hundredth of an ulp of a midpoint: about 2 % of values spread over many
// ulps; the test allows 5 %.
func TestExp(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	var xs []float64
	for range 20000 {
		xs = append(xs, 2*r.Float64()-1) // the step size's range
	}
	for range 5000 {
		xs = append(xs, (2*r.Float64()-1)*expFastMax)
	}
	for k := -200; k <= 200; k++ { // the table's boundaries, both sides
		b := (float64(k) + 0.5) * math.Ln2 / 64
		xs = append(xs, b, math.Nextafter(b, math.Inf(1)), math.Nextafter(b, math.Inf(-1)))
	}
	xs = append(xs, expFastMax, -expFastMax, 1e-300, -1e-300, 5e-324, 0x1p-30, -0x1p-30, math.Ln2, -math.Ln2)
	exact := 0
	for _, x := range xs {
		got, want := exp(x), expRef(x)
		switch d := ulps(got, want); {
		case d > 1:
			t.Errorf("exp(%v) = %v, e^x rounds to %v: %d ulps", x, got, want, d)
		case d == 0:
			exact++
		}
	}
	t.Logf("%d of %d correctly rounded, the rest 1 ulp off", exact, len(xs))
	if off := len(xs) - exact; off > len(xs)/20 {
		t.Errorf("%d of %d 1 ulp off", off, len(xs))
	}
}

// TestExpSpecial checks the values exp leaves to math.Exp and the exact
// ones.
func TestExpSpecial(t *testing.T) {
	for _, x := range []float64{math.Inf(1), math.Inf(-1), 709.7, 710, -720, -745.2, -800, math.Nextafter(expFastMax, 1000)} {
		if got, want := exp(x), math.Exp(x); got != want {
			t.Errorf("exp(%v) = %v, math.Exp %v", x, got, want)
		}
	}
	if got := exp(math.NaN()); !math.IsNaN(got) {
		t.Errorf("exp(NaN) = %v", got)
	}
	for _, x := range []float64{0, math.Copysign(0, -1), 5e-324, -5e-324} {
		if got := exp(x); got != 1 {
			t.Errorf("exp(%v) = %v, want 1", x, got)
		}
	}
}

// BenchmarkExp times exp and math.Exp on a chain of dependent calls (the
// step size's use: its latency) and on independent ones.
func BenchmarkExp(b *testing.B) {
	for _, f := range []struct {
		name string
		fn   func(float64) float64
	}{{"impl=exp", exp}, {"impl=math.Exp", math.Exp}} {
		b.Run(f.name+"/chain", func(b *testing.B) {
			x := 0.01
			for b.Loop() {
				x = f.fn(x) * 0.01
			}
			expSink = x
		})
		b.Run(f.name+"/independent", func(b *testing.B) {
			x, s := 0.01, 0.0
			for b.Loop() {
				s += f.fn(x)
				x = -x
			}
			expSink = s
		})
	}
}

var expSink float64
