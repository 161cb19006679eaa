package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// UpdateMulVecs must be, bit for bit, ScaleAddOuter followed by MulVecs on
// the same path (that is its contract, so the optimizer may fuse the update
// of one generation into the sampling of the next without changing a run).
// The accuracy of each half is checked against the references in
// kernel_test.go; here the two-pass result on the same path is the
// reference, compared exactly, NaN payloads included.

// updateMulVecsShapes covers the tiles (n < 256), the panels (n ≥ 256 with
// k ≥ 8 or 4 ≤ k ≤ 6) with and without leftover rows (n mod 4), batches
// (k > 28) and more than one call of row blocks (n > 1024). On AVX-512 the
// panels update and copy each tile's block inside the previous tile's
// column loop: a last panel narrower than one cache line (341 = 336 + 5
// columns at k = 17-24; 261 = 256 + 5 for the 6-row tiles), and calls of
// panel tiles that start over (more than 128 tiles: 1032 has one tile left
// for the second call, 1043 two; 790 is 131 tiles of 6 rows).
func updateMulVecsShapes() [][2]int {
	var s [][2]int
	for n := 0; n <= 20; n++ {
		for _, k := range []int{0, 1, 3, 6, 7, 13} {
			s = append(s, [2]int{n, k})
		}
	}
	// The small-n kernel (n ≤ 32 on AVX-512) updates A as it loads it:
	// row blocks of 8 and column blocks of 16 to their last, and a k split
	// over two calls (n = 32: 64 vectors a call), the first alone updating.
	for _, n := range []int{23, 24, 25, 31, 32, 33} {
		for _, k := range []int{1, 9, 13} {
			s = append(s, [2]int{n, k})
		}
	}
	s = append(s, [2]int{32, 70}, [2]int{31, 80}, [2]int{8, 1030})
	for _, n := range []int{63, 64, 129, 255, 256, 257, 258, 259, 261, 263, 300, 515} {
		for _, k := range []int{1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16, 17, 20, 24, 25, 26, 27, 28, 30, 32, 33, 40, 42, 47, 52, 57, 63} {
			s = append(s, [2]int{n, k})
		}
	}
	s = append(s, [2]int{341, 17}, [2]int{341, 20}, [2]int{341, 24})
	// The AVX2 panels update A in their pass from n = 1536
	// (avx2PanelFusedMinN); with α = 1 and k ≥ 5 from 768, each tile
	// updating the next one's block in its first block, whatever its kind
	// (TestPanelAheadSameBitsAVX2). Each tile's own block has its kc mod 4
	// last columns masked, the next tile's its kc mod 8. k = 4 (blocks of
	// 1 register, never ahead), 13 (2+2), 28 (3+2+2), 24 (3+3) and 26 (2+2
	// and the paired block) take turns with the cases' α (α = 1 every third
	// case), so that each k meets α = 1 three times in 15 cases. 1536 + r
	// has a last panel of r mod 8 columns (k = 4: kc = 768; 13: 192; 24:
	// 128) or of 80 + r (k = 26, 28: 104), so every rest 0–7 is met, with kc
	// < 8 and without; leftover rows for r mod 4 ≠ 0; 384 tiles, three
	// calls.
	if startAVX2 {
		ks := []int{4, 13, 28, 24, 26}
		for r := 0; r < 15; r++ {
			s = append(s, [2]int{1536 + r, ks[r%5]})
		}
	}
	if !testing.Short() {
		s = append(s, [2]int{1031, 9}, [2]int{1031, 24}, [2]int{262, 260},
			[2]int{1032, 24}, [2]int{1043, 20}, [2]int{790, 28})
	}
	return s
}

func TestUpdateMulVecs(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 43))
	type tc struct {
		n, k        int
		a, p, v, x  []float64
		alpha, beta float64
		off         int
	}
	var cases []tc
	for i, sh := range updateMulVecsShapes() {
		n, k := sh[0], sh[1]
		c := tc{n: n, k: k, alpha: 1 - r.Float64()/100, beta: r.NormFloat64() / 100, off: i % 8}
		if i%3 == 1 {
			c.alpha = 1 // the optimizer's case (A = s·Ã): no multiplication on AVX-512
		}
		c.a, c.p, c.v, c.x = randVals(r, n*n), randVals(r, n), randVals(r, n), randVals(r, k*n)
		if i%5 == 4 && n > 0 { // special values ride along
			c.a[r.IntN(n*n)] = math.NaN()
			c.p[r.IntN(n)] = math.Inf(1)
			if k > 0 {
				c.x[r.IntN(k*n)] = 0x1p-1070
			}
		}
		cases = append(cases, c)
	}
	forEachPath(t, func(t *testing.T) {
		for _, c := range cases {
			what := fmt.Sprintf("n=%d k=%d off=%d", c.n, c.k, c.off)
			// Two passes: the reference.
			a1 := append([]float64(nil), c.a...)
			y1 := make([]float64, c.k*c.n)
			ScaleAddOuter(a1, c.n, c.alpha, c.beta, c.p, c.v)
			MulVecs(y1, a1, c.n, c.x, c.k)
			// Fused, on unaligned slices with guard cells around the outputs.
			ga, gy := newGuarded(c.off, c.n*c.n), newGuarded((c.off+3)%8, c.k*c.n)
			copy(ga.s, c.a)
			p, v, x := placed(c.off, c.p), placed(7-c.off, c.v), placed(c.off, c.x)
			// Every other case passes scratch space in (garbage contents,
			// guard cells past WorkLen).
			w := newWork(c.off, c.n, c.k)
			if c.off%2 == 0 {
				UpdateMulVecs(gy.s, ga.s, c.n, c.alpha, c.beta, p, v, x, c.k)
			} else {
				UpdateMulVecsWork(gy.s, ga.s, c.n, c.alpha, c.beta, p, v, x, c.k, w.s)
			}
			if i := w.guardsIntact(); i != math.MinInt {
				t.Fatalf("%s: wrote work[%d], past WorkLen", what, i)
			}
			for i := range a1 {
				if math.Float64bits(ga.s[i]) != math.Float64bits(a1[i]) {
					t.Fatalf("%s: a[%d] = %v, two passes give %v", what, i, ga.s[i], a1[i])
				}
			}
			for i := range y1 {
				if math.Float64bits(gy.s[i]) != math.Float64bits(y1[i]) {
					t.Fatalf("%s: y[%d] = %v, two passes give %v", what, i, gy.s[i], y1[i])
				}
			}
			if i := ga.guardsIntact(); i != math.MinInt {
				t.Fatalf("%s: guard cell a[%d] written", what, i)
			}
			if i := gy.guardsIntact(); i != math.MinInt {
				t.Fatalf("%s: guard cell y[%d] written", what, i)
			}
		}
	})
}

// randVals returns n normal deviates.
func randVals(r *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = r.NormFloat64()
	}
	return s
}

func TestUpdateMulVecsMisuse(t *testing.T) {
	const n, k = 6, 4
	a, p, v, x, y := make([]float64, n*n), make([]float64, n), make([]float64, n), make([]float64, k*n), make([]float64, k*n)
	buf := make([]float64, n*n+k*n)
	mustPanic(t, "negative n", func() { UpdateMulVecs(y, a, -1, 1, 1, p, v, x, k) })
	mustPanic(t, "negative k", func() { UpdateMulVecs(y, a, n, 1, 1, p, v, x, -1) })
	mustPanic(t, "overflow", func() { UpdateMulVecs(nil, nil, math.MaxInt/2, 1, 1, nil, nil, nil, math.MaxInt/2) })
	mustPanic(t, "short a", func() { UpdateMulVecs(y, a[:n*n-1], n, 1, 1, p, v, x, k) })
	mustPanic(t, "short p", func() { UpdateMulVecs(y, a, n, 1, 1, p[:n-1], v, x, k) })
	mustPanic(t, "short v", func() { UpdateMulVecs(y, a, n, 1, 1, p, v[:n-1], x, k) })
	mustPanic(t, "short x", func() { UpdateMulVecs(y, a, n, 1, 1, p, v, x[:k*n-1], k) })
	mustPanic(t, "short y", func() { UpdateMulVecs(y[:k*n-1], a, n, 1, 1, p, v, x, k) })
	mustPanic(t, "p in a", func() { UpdateMulVecs(y, a, n, 1, 1, a[:n], v, x, k) })
	mustPanic(t, "v in a", func() { UpdateMulVecs(y, a, n, 1, 1, p, a[n:], x, k) })
	mustPanic(t, "y over a", func() { UpdateMulVecs(buf[n*n-1:], buf[:n*n], n, 1, 1, p, v, x, k) })
	mustPanic(t, "y over x", func() { UpdateMulVecs(x, a, n, 1, 1, p, v, x, k) })
	mustPanic(t, "y over p", func() { UpdateMulVecs(y, a, n, 1, 1, y[:n], v, x, k) })
	// n = 0 does nothing; k = 0 is the update alone.
	UpdateMulVecs(nil, nil, 0, 1, 1, nil, nil, nil, 3)
	for i := range a {
		a[i] = 1
	}
	for i := range p {
		p[i], v[i] = 1, 2
	}
	UpdateMulVecs(nil, a, n, 0.5, 0.25, p, v, nil, 0)
	for i, ai := range a {
		if ai != 1 {
			t.Fatalf("k = 0: a[%d] = %v, want 0.5·1 + 0.25·1·2 = 1", i, ai)
		}
	}
}

func TestUpdateMulVecsNoAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, sh := range [][2]int{{16, 12}, {300, 20}} {
		n, k := sh[0], sh[1]
		a, p, v, x, y := randVals(r, n*n), randVals(r, n), randVals(r, n), randVals(r, k*n), make([]float64, k*n)
		forEachPath(t, func(t *testing.T) {
			if got := testing.AllocsPerRun(10, func() { UpdateMulVecs(y, a, n, 0.999, 1e-3, p, v, x, k) }); got != 0 {
				t.Errorf("n=%d k=%d: %v allocations", n, k, got)
			}
		})
	}
}
