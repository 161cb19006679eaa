package mmaes

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPCGMatchesRandPCG checks that pcg is math/rand/v2's PCG: the same
// stream and the same binary encoding for the same seeds.
func TestPCGMatchesRandPCG(t *testing.T) {
	for _, s := range [][2]uint64{{0, 0}, {1, 2}, {7, 7 ^ 0x9e3779b97f4a7c15}, {math.MaxUint64, 12345}} {
		mine, theirs := newPCG(s[0], s[1]), rand.NewPCG(s[0], s[1])
		for i := 0; i < 1000; i++ {
			if a, b := mine.Uint64(), theirs.Uint64(); a != b {
				t.Fatalf("seed %v, draw %d: %#x, rand.PCG %#x", s, i, a, b)
			}
		}
		a, _ := mine.MarshalBinary()
		b, _ := theirs.MarshalBinary()
		if string(a) != string(b) {
			t.Fatalf("seed %v: encoding %x, rand.PCG %x", s, a, b)
		}
		var back pcg
		if err := back.UnmarshalBinary(a); err != nil || back != *mine {
			t.Fatalf("round trip: %v, %v != %v", err, back, *mine)
		}
	}
	var p pcg
	for _, bad := range []string{"", "pcg:", "pcg:0123456789abcde", "PCG:0123456789abcdefg", "pcg:0123456789abcdefgh"} {
		if err := p.UnmarshalBinary([]byte(bad)); err == nil {
			t.Errorf("UnmarshalBinary(%q) accepted", bad)
		}
	}
}

// TestFillNormalStream checks that fillNormal and normal draw the same
// stream, and that a fixed seed gives a fixed stream.
func TestFillNormalStream(t *testing.T) {
	const n = 100000
	z := make([]float64, n)
	fillNormal(newPCG(3, 4), z)
	p := newPCG(3, 4)
	for i := range z {
		if v := normal(p); v != z[i] {
			t.Fatalf("deviate %d: normal %v, fillNormal %v", i, v, z[i])
		}
	}
	// Split fills continue the same stream.
	w := make([]float64, n)
	q := newPCG(3, 4)
	fillNormal(q, w[:777])
	fillNormal(q, w[777:])
	for i := range z {
		if w[i] != z[i] {
			t.Fatalf("deviate %d differs after a split fill", i)
		}
	}
}

// normalSample draws n deviates with a fixed seed.
func normalSample(n int) []float64 {
	z := make([]float64, n)
	fillNormal(newPCG(11, 13), z)
	return z
}

// TestNormalMoments compares the sample mean, variance, skewness and excess
// kurtosis with 0, 1, 0, 0 within 6 standard errors (1/√N, √(2/N), √(6/N),
// √(24/N)): a deterministic test (fixed seed) that a biased generator fails.
func TestNormalMoments(t *testing.T) {
	const n = 4_000_000
	z := normalSample(n)
	var m1, m2, m3, m4 float64
	for _, v := range z {
		v2 := v * v
		m1 += v
		m2 += v2
		m3 += v2 * v
		m4 += v2 * v2
	}
	m1, m2, m3, m4 = m1/n, m2/n, m3/n, m4/n
	N := float64(n)
	check := func(name string, got, want, se float64) {
		t.Helper()
		if math.Abs(got-want) > 6*se {
			t.Errorf("%s = %.6f, want %.6f ± 6·%.2g", name, got, want, se)
		}
	}
	check("mean", m1, 0, 1/math.Sqrt(N))
	check("variance", m2, 1, math.Sqrt(2/N))
	check("skewness", m3, 0, math.Sqrt(6/N))
	check("excess kurtosis", m4-3, 0, math.Sqrt(24/N))
}

// Φ is the standard normal distribution function; phiInv its inverse.
func Φ(x float64) float64      { return 0.5 * math.Erfc(-x/math.Sqrt2) }
func phiInv(p float64) float64 { return math.Sqrt2 * math.Erfinv(2*p-1) }

// TestNormalDistribution bins the sample into 200 cells of equal probability
// under Φ and requires the χ² statistic (199 degrees of freedom: mean 199,
// standard deviation 20) below 199 + 6·20.
func TestNormalDistribution(t *testing.T) {
	const n, cells = 4_000_000, 200
	z := normalSample(n)
	count := make([]float64, cells)
	for _, v := range z {
		c := int(Φ(v) * cells)
		count[min(max(c, 0), cells-1)]++
	}
	e := float64(n) / cells
	chi2 := 0.0
	for _, c := range count {
		chi2 += (c - e) * (c - e) / e
	}
	if chi2 > 199+6*20 {
		t.Errorf("χ² = %.1f over %d cells, want ≤ %d", chi2, cells, 199+6*20)
	}
	_ = phiInv
}

// TestNormalTails counts the deviates beyond thresholds in the tails, where
// the ziggurat uses its separate tail and wedge code (the base starts at
// zigR ≈ 3.654), and compares each count with N·2Φ(−t) within 6 standard
// deviations of a Poisson count, on both sides separately.
func TestNormalTails(t *testing.T) {
	const n = 16_000_000
	z := make([]float64, n)
	fillNormal(newPCG(17, 19), z)
	for _, th := range []float64{1, 2, 3, 3.5, zigR, 3.8, 4, 4.5, 5} {
		var pos, neg float64
		for _, v := range z {
			if v > th {
				pos++
			} else if v < -th {
				neg++
			}
		}
		e := n * Φ(-th)
		for _, c := range []float64{pos, neg} {
			if math.Abs(c-e) > 6*math.Sqrt(e)+1 {
				t.Errorf("beyond ±%.3f: %v and %v deviates, want %.1f each (±%.1f)", th, pos, neg, e, 6*math.Sqrt(e)+1)
			}
		}
	}
	// No deviate is absurdly far out: P(|Z| > 7) ≈ 2.6e-12 per draw.
	for i, v := range z {
		if math.IsNaN(v) || math.Abs(v) > 7 {
			t.Fatalf("deviate %d = %v", i, v)
		}
	}
}

// TestZigguratTables checks the layer construction: every layer has the
// area zigV, the widths decrease to 0, and the base layer's width makes its
// area (rectangle plus tail) zigV too.
func TestZigguratTables(t *testing.T) {
	f := func(x float64) float64 { return math.Exp(-0.5 * x * x) }
	for i := 1; i < zigLayers-1; i++ {
		if !(zigX[i+1] < zigX[i]) {
			t.Fatalf("widths not decreasing at %d: %v, %v", i, zigX[i], zigX[i+1])
		}
		area := zigX[i] * (f(zigX[i+1]) - f(zigX[i]))
		if math.Abs(area-zigV) > 1e-9*zigV {
			t.Errorf("layer %d area %v, want %v", i, area, zigV)
		}
	}
	// Tail area beyond R under f: √(π/2)·erfc(R/√2).
	base := zigR*f(zigR) + math.Sqrt(math.Pi/2)*math.Erfc(zigR/math.Sqrt2)
	if math.Abs(base-zigV) > 1e-9*zigV || math.Abs(zigX[0]*f(zigR)-zigV) > 1e-12 {
		t.Errorf("base layer area %v, width %v: want %v", base, zigX[0], zigV)
	}
}

// TestNormalTailShape draws directly from the tail sampler and bins its
// deviates by their conditional distribution function beyond zigR,
// G(v) = 1 − Φ(−v)/Φ(−zigR), into 50 cells of equal probability; the χ²
// statistic (49 degrees of freedom: mean 49, standard deviation 10) must
// stay below 49 + 6·10. The tail is 0.03% of all draws, too few in the
// other tests to see its shape.
func TestNormalTailShape(t *testing.T) {
	const n, cells = 1_000_000, 50
	p := newPCG(23, 29)
	tail := Φ(-zigR)
	count := make([]float64, cells)
	for i := 0; i < n; i++ {
		v := normalTail(p, i%2 == 1)
		if (v < 0) != (i%2 == 1) || math.Abs(v) <= zigR {
			t.Fatalf("tail deviate %v has the wrong sign or lies inside ±zigR", v)
		}
		g := 1 - Φ(-math.Abs(v))/tail
		count[min(int(g*cells), cells-1)]++
	}
	e := float64(n) / cells
	chi2 := 0.0
	for _, c := range count {
		chi2 += (c - e) * (c - e) / e
	}
	if chi2 > 49+6*10 {
		t.Errorf("tail χ² = %.1f over %d cells, want ≤ %d", chi2, cells, 49+6*10)
	}
}
