package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestWeightedSum2 checks on every path that WeightedSum2 gives the bits
// of its two WeightedSum calls, for n through the column tails of the
// kernels, several μ, repeated rows and special values (±0, ±Inf, NaN,
// subnormals) in x, x2 and w, and that it panics as they would.
func TestWeightedSum2(t *testing.T) {
	r := rand.New(rand.NewPCG(47, 53))
	specials := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, -0x1p-1022, math.MaxFloat64}
	val := func() float64 {
		if r.IntN(8) == 0 {
			return specials[r.IntN(len(specials))]
		}
		return r.NormFloat64()
	}
	forEachPath(t, func(t *testing.T) {
		for n := 1; n <= 70; n++ {
			for _, mu := range []int{1, 2, 5, 12} {
				lam := mu + r.IntN(4)
				x, x2 := make([]float64, lam*n), make([]float64, lam*n+r.IntN(3))
				for i := range x {
					x[i] = val()
				}
				for i := range x2 {
					x2[i] = val()
				}
				w, rows := make([]float64, mu), make([]int, mu)
				for i := range w {
					w[i], rows[i] = val(), r.IntN(lam)
				}
				want, want2 := make([]float64, n), make([]float64, n)
				WeightedSum(want, w, x, n, rows)
				WeightedSum(want2, w, x2, n, rows)
				got, got2 := make([]float64, n+1), make([]float64, n+1)
				got[n], got2[n] = 7, 7
				WeightedSum2(got, x, got2, x2, w, n, rows)
				for i := range n {
					if math.Float64bits(got[i]) != math.Float64bits(want[i]) || math.Float64bits(got2[i]) != math.Float64bits(want2[i]) {
						t.Fatalf("n=%d μ=%d: element %d is %v, %v, want %v, %v", n, mu, i, got[i], got2[i], want[i], want2[i])
					}
				}
				if got[n] != 7 || got2[n] != 7 {
					t.Fatalf("n=%d μ=%d: wrote past n", n, mu)
				}
			}
		}
		x := make([]float64, 12)
		mustPanic(t, "WeightedSum2 row out of range of x2", func() {
			WeightedSum2(make([]float64, 3), x, make([]float64, 3), x[:6], []float64{1}, 3, []int{2})
		})
		mustPanic(t, "WeightedSum2 short dst2", func() {
			WeightedSum2(make([]float64, 3), x, make([]float64, 2), x, []float64{1}, 3, []int{0})
		})
		mustPanic(t, "WeightedSum2 dst2 overlaps x2", func() {
			WeightedSum2(make([]float64, 3), x, x[1:4], x, []float64{1}, 3, []int{0})
		})
		WeightedSum2(nil, nil, nil, nil, nil, 0, nil) // nothing to do
	})
}
