package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMaxAbs compares MaxAbs on every path with the largest |x_i| found by
// a plain loop over the values (NaN wins, and of NaNs the one with the
// largest bits), for every length up to 70 and beyond a block, unaligned,
// with the largest element at every position of short vectors and special
// values.
func TestMaxAbs(t *testing.T) {
	r := rand.New(rand.NewPCG(72, 7))
	want := func(x []float64) float64 {
		m := 0.0
		for _, v := range x {
			a := math.Abs(v)
			switch {
			case a != a && (m == m || math.Float64bits(a) > math.Float64bits(m)):
				m = a
			case m == m && a > m:
				m = a
			}
		}
		return m
	}
	forEachPath(t, func(t *testing.T) {
		for i, n := range append(vecSizes(), vecBlock+13) {
			kind := i % numKinds
			x := genVec(r, n, kind)
			if i%3 == 2 {
				x = genSpecialVec(r, n, kind, 0.1)
			}
			for pos := -1; pos < n && pos < 40; pos++ {
				y := placed(r.IntN(8), x)
				if pos >= 0 {
					y[pos] = -math.Ldexp(want(x)+1, 3) // the largest, negative, at pos
				}
				got, w := MaxAbs(y), want(y)
				if math.Float64bits(got) != math.Float64bits(w) {
					t.Fatalf("n=%d pos=%d: MaxAbs = %v (%#x), want %v (%#x)", n, pos, got, math.Float64bits(got), w, math.Float64bits(w))
				}
			}
		}
		if MaxAbs(nil) != 0 {
			t.Error("MaxAbs(nil) ≠ 0")
		}
		nan1, nan2 := math.Float64frombits(0x7ff8000000000001), math.Float64frombits(0xfff8000000000002)
		if got := MaxAbs([]float64{1, nan1, math.Inf(-1), nan2, 2}); math.Float64bits(got) != 0x7ff8000000000002 {
			t.Errorf("NaNs: %#x, want the larger payload 0x7ff8000000000002", math.Float64bits(got))
		}
	})
}
