package mmaes

import (
	"github.com/mmaes-go/mmaes/kernel"
	"math"
	"testing"
)

// xoshiroRef is xoshiro256++ written as in its authors' reference C code,
// on an array state, independently of rand.go's register form.
type xoshiroRef [4]uint64

func (s *xoshiroRef) next() uint64 {
	rotl := func(x uint64, k int) uint64 { return x<<k | x>>(64-k) }
	result := rotl(s[0]+s[3], 23) + s[0]
	t := s[1] << 17
	s[2] ^= s[0]
	s[3] ^= s[1]
	s[1] ^= s[2]
	s[0] ^= s[3]
	s[2] ^= t
	s[3] = rotl(s[3], 45)
	return result
}

// TestXoshiro checks the generator against the reference form, by hand for
// the first output of the state {1, 2, 3, 4} (rotl(1+4, 23) + 1), the
// SplitMix64 seeding against its published first output for seed 0
// (0xe220a8397b1dcdaf), and the binary encoding.
func TestXoshiro(t *testing.T) {
	x := &xoshiro{s0: 1, s1: 2, s2: 3, s3: 4}
	if got := x.Uint64(); got != 5<<23+1 {
		t.Fatalf("first output of {1,2,3,4} = %d, want %d", got, 5<<23+1)
	}
	if out, _ := splitMix64(0); out != 0xe220a8397b1dcdaf {
		t.Fatalf("splitMix64(0) = %#x, want 0xe220a8397b1dcdaf", out)
	}
	for _, seed := range []uint64{0, 1, 7, math.MaxUint64} {
		mine := newXoshiro(seed)
		ref := xoshiroRef{mine.s0, mine.s1, mine.s2, mine.s3}
		if ref == (xoshiroRef{}) {
			t.Fatalf("seed %d: zero state", seed)
		}
		for i := 0; i < 1000; i++ {
			if a, b := mine.Uint64(), ref.next(); a != b {
				t.Fatalf("seed %d, draw %d: %#x, reference %#x", seed, i, a, b)
			}
		}
		b, _ := mine.MarshalBinary()
		var back xoshiro
		if err := back.UnmarshalBinary(b); err != nil || back != *mine {
			t.Fatalf("round trip: %v, %v != %v", err, back, *mine)
		}
	}
	if a, b := newXoshiro(1), newXoshiro(2); *a == *b {
		t.Fatal("seeds 1 and 2 give the same state")
	}
	var p xoshiro
	good, _ := newXoshiro(3).MarshalBinary()
	zero, _ := (&xoshiro{}).MarshalBinary()
	zeroLane := newXoshiro(3)
	for w := range 4 {
		zeroLane.lanes[w*kernel.ZigLanes+5] = 0
	}
	badLane, _ := zeroLane.MarshalBinary()
	for _, bad := range [][]byte{nil, []byte(xoshiroMagic), good[:len(good)-1], append(good[:len(good):len(good)], 0),
		append([]byte("xoshiro256+-x9:"), good[len(xoshiroMagic):]...), zero, badLane,
		append([]byte(xoshiroMagic1), good[len(xoshiroMagic):]...)} {
		if err := p.UnmarshalBinary(bad); err == nil {
			t.Errorf("UnmarshalBinary(%q) accepted", bad)
		}
	}
	// The older encoding, the scalar generator alone: accepted, with lanes
	// seeded from it.
	old := append([]byte(xoshiroMagic1), good[len(xoshiroMagic):len(xoshiroMagic)+32]...)
	if err := p.UnmarshalBinary(old); err != nil {
		t.Fatalf("older encoding: %v", err)
	}
	if want := newXoshiro(3); p.s0 != want.s0 || p.s3 != want.s3 || !p.lanesValid() {
		t.Errorf("older encoding decoded to %+v", p)
	}
}

// TestFillNormalStream checks that the deviates are a function of the
// generator's state and the length: the same seed gives the same deviates
// and leaves the same state, another seed other deviates, and a second fill
// continues with new ones.
func TestFillNormalStream(t *testing.T) {
	for _, n := range []int{1, 7, 8, 9, 100, 100000} {
		p, q := newXoshiro(3), newXoshiro(3)
		z, w := make([]float64, n), make([]float64, n)
		fillNormal(p, z)
		fillNormal(q, w)
		if *p != *q {
			t.Fatalf("n=%d: same seed, different states after a fill", n)
		}
		for i := range z {
			if z[i] != w[i] {
				t.Fatalf("n=%d: deviate %d: %v and %v from the same seed", n, i, z[i], w[i])
			}
		}
		fillNormal(q, w)
		fillNormal(newXoshiro(4), z[:0])
		other := make([]float64, n)
		fillNormal(newXoshiro(4), other)
		same, again := 0, 0
		for i := range z {
			if other[i] == z[i] {
				same++
			}
			if w[i] == z[i] {
				again++
			}
		}
		if same > n/100 || again > n/100 {
			t.Fatalf("n=%d: %d deviates equal for seeds 3 and 4, %d in the next fill", n, same, again)
		}
	}
}

// normalSample draws n deviates with a fixed seed.
func normalSample(n int) []float64 {
	z := make([]float64, n)
	fillNormal(newXoshiro(11), z)
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
	fillNormal(newXoshiro(17), z)
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
	p := newXoshiro(23)
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

// TestSqueeze checks that the squeeze of every layer's wedge bounds f, so
// that normalSlow's quick decisions are the ones math.Exp would make: on a
// grid of points across each wedge (and its ends), a quick accept must lie
// under f and a quick reject on or above it. It also reports how many wedge
// draws the squeeze decides (and fails if the bounds are so loose that the
// squeeze is useless).
func TestSqueeze(t *testing.T) {
	decided, total := 0, 0
	for j := 1; j < zigLayers; j++ {
		a, b, sq := zigX[j+1], zigX[j], &zigSq[j]
		const steps = 64
		for it := 0; it <= steps; it++ {
			x := a + (b-a)*float64(it)/steps
			if it == steps {
				x = math.Nextafter(b, 0)
			}
			f := math.Exp(-0.5 * x * x)
			for iy := 0; iy <= steps; iy++ {
				y := zigF[j+1] + float64(iy)/steps*(zigF[j]-zigF[j+1])
				total++
				switch {
				case y < (sq.lo0+sq.lo1*x)*(1-squeezeMargin):
					decided++
					if !(y < f) {
						t.Fatalf("layer %d, x = %v, y = %v: quick accept, but f(x) = %v", j, x, y, f)
					}
				case y >= (sq.hi0+sq.hi1*x)*(1+squeezeMargin):
					decided++
					if y < f {
						t.Fatalf("layer %d, x = %v, y = %v: quick reject, but f(x) = %v", j, x, y, f)
					}
				}
			}
		}
	}
	share := float64(decided) / float64(total)
	t.Logf("the squeeze decides %.1f %% of the wedge grid without math.Exp", 100*share)
	if share < 0.9 {
		t.Errorf("the squeeze decides only %.1f %% of the wedge grid", 100*share)
	}
}

// normalSlowExp is normalSlow as a plain loop, without the squeeze (math.Exp
// for every wedge draw) and with a branch for each decision: the reference
// of TestSqueezeSameDeviates.
func normalSlowExp(p *xoshiro, j uint64, u float64) float64 {
	for {
		x := u * zigX[j]
		if j == 0 {
			return normalTail(p, u < 0)
		}
		if zigF[j+1]+uniform(p)*(zigF[j]-zigF[j+1]) < math.Exp(-0.5*x*x) {
			return x
		}
		r := p.Uint64()
		j = r & (zigLayers - 1)
		u = float64(int64(r)>>11) * 0x1p-52
		if x := u * zigX[j]; math.Abs(x) < zigX[j+1] {
			return x
		}
	}
}

// TestSqueezeSameDeviates checks that the squeeze and the branch-free
// decisions change no deviate: normalSlow and the plain loop, from the same
// generator states, return the same bits and leave the same state, over
// 10⁶ draws that the fast path rejects.
func TestSqueezeSameDeviates(t *testing.T) {
	p := newXoshiro(23)
	for i := 0; i < 1_000_000; {
		r := p.Uint64()
		j, u := r&(zigLayers-1), kernel.ZigUniform(r)
		if math.Abs(u*zigX[j]) < zigX[j+1] {
			continue // the fast path's draw
		}
		i++
		q := *p
		got, want := normalSlow(p, j, u), normalSlowExp(&q, j, u)
		if math.Float64bits(got) != math.Float64bits(want) || *p != q {
			t.Fatalf("draw %d (layer %d, u = %v): %v with the squeeze, %v without", i, j, u, got, want)
		}
	}
}

// TestNormalMax checks normalMax against the largest deviate fillNormal
// can return: the base layer's edge zigR bounds the fast path and the
// wedges (the edges fall from zigX[1] = zigR), and the tail returns zigR +
// (−ln u)/zigR with u at least uniformOpen's smallest value, 2⁻⁵⁴.
func TestNormalMax(t *testing.T) {
	if zigX[1] != zigR {
		t.Fatalf("zigX[1] = %v, want zigR = %v", zigX[1], zigR)
	}
	for j := 1; j < zigLayers; j++ {
		if !(zigX[j+1] < zigX[j]) {
			t.Fatalf("zigX[%d] = %v not below zigX[%d] = %v", j+1, zigX[j+1], j, zigX[j])
		}
	}
	uMin := 0.5 * 0x1p-53
	tail := zigR + -math.Log(uMin)/zigR
	if !(tail < normalMax) {
		t.Fatalf("the tail reaches %v, normalMax is %v", tail, normalMax)
	}
	z := make([]float64, 1<<20)
	fillNormal(newXoshiro(7), z)
	if m := maxAbs(z); !(m < normalMax) {
		t.Fatalf("a deviate of %v, normalMax is %v", m, normalMax)
	}
}

// TestFillPopulation checks the chunked draw of a population against its
// definition: up to normalChunk deviates one fill from the generator,
// more in chunks of normalChunk, chunk c from newXoshiro of the c-th draw
// of the generator; and that the chunks are independent streams (the
// mean, the variance and the correlation of each chunk with the next
// within 6 standard errors).
func TestFillPopulation(t *testing.T) {
	for _, m := range []int{1, normalChunk - 1, normalChunk, normalChunk + 1, 3*normalChunk + 17, 40 * normalChunk} {
		p, q := newXoshiro(5), newXoshiro(5)
		z, want := make([]float64, m), make([]float64, m)
		fillPopulation(p, z)
		if m <= normalChunk {
			fillNormal(q, want)
		} else {
			for c0 := 0; c0 < m; c0 += normalChunk {
				fillNormal(newXoshiro(q.Uint64()), want[c0:min(m, c0+normalChunk)])
			}
		}
		if *p != *q {
			t.Fatalf("m=%d: the generator is not left where the definition leaves it", m)
		}
		for i := range z {
			if math.Float64bits(z[i]) != math.Float64bits(want[i]) {
				t.Fatalf("m=%d: deviate %d is %v, the definition's %v", m, i, z[i], want[i])
			}
		}
		if m < 4*normalChunk {
			continue
		}
		mean, sq, cross := 0.0, 0.0, 0.0
		for i, v := range z {
			mean += v
			sq += v * v
			if i+normalChunk < m {
				cross += v * z[i+normalChunk]
			}
		}
		nf := float64(m)
		mean /= nf
		variance := sq/nf - mean*mean
		corr := cross / float64(m-normalChunk)
		if math.Abs(mean) > 6/math.Sqrt(nf) || math.Abs(variance-1) > 6*math.Sqrt(2/nf) || math.Abs(corr) > 6/math.Sqrt(float64(m-normalChunk)) {
			t.Errorf("m=%d: mean %v, variance %v, correlation with the next chunk %v", m, mean, variance, corr)
		}
	}
}
