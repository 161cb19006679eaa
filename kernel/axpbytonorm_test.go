package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAxpByToNorm checks on every path that AxpByToNorm gives the bits of
// AxpByTo followed by Norm, in dst and in the norm (on the generic path any
// NaN for a NaN: Go code compiled in two places may order the operands of
// an operation on two NaNs either way): every length through
// the tails of the 8- and 32-element blocks and some longer ones, special
// values (±0, ±Inf, NaN, subnormals) in x, y, α and β, magnitudes whose
// norm needs the scaled pass, and dst the same slice as x or y.
func TestAxpByToNorm(t *testing.T) {
	r := rand.New(rand.NewPCG(59, 61))
	specials := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, -0x1p-1022, math.MaxFloat64}
	coefs := []float64{0.7, -1.3, 0, math.Copysign(0, -1), 1, math.Inf(1), math.NaN(), 1e-200, 1e200}
	lens := []int{}
	for n := 0; n <= 70; n++ {
		lens = append(lens, n)
	}
	lens = append(lens, 95, 96, 97, 255, 1000)
	forEachPath(t, func(t *testing.T) {
		same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
		if Impl() == "generic" {
			same = sameFloat
		}
		for _, n := range lens {
			for trial := range 12 {
				scale := []float64{1, 1e-170, 1e170, 1e-300}[trial%4]
				x, y := make([]float64, n), make([]float64, n)
				for i := range x {
					x[i], y[i] = r.NormFloat64()*scale, r.NormFloat64()*scale
					if trial >= 8 && r.IntN(6) == 0 {
						x[i] = specials[r.IntN(len(specials))]
					}
					if trial >= 8 && r.IntN(6) == 0 {
						y[i] = specials[r.IntN(len(specials))]
					}
				}
				alpha, beta := coefs[r.IntN(len(coefs))], coefs[r.IntN(len(coefs))]
				if trial < 6 {
					alpha, beta = 0.9, 0.3
				}
				alias := trial % 3 // 0: own dst, 1: dst is x, 2: dst is y
				want, wx, wy := make([]float64, n), append([]float64(nil), x...), append([]float64(nil), y...)
				got, gx, gy := make([]float64, n+1), append([]float64(nil), x...), append([]float64(nil), y...)
				got[n] = 7
				var wn, gn float64
				switch alias {
				case 0:
					AxpByTo(want, alpha, wx, beta, wy)
					wn = Norm(want)
					gn = AxpByToNorm(got[:n], alpha, gx, beta, gy)
				case 1:
					AxpByTo(wx, alpha, wx, beta, wy)
					want, wn = wx, Norm(wx)
					gn = AxpByToNorm(gx, alpha, gx, beta, gy)
					copy(got, gx)
				default:
					AxpByTo(wy, alpha, wx, beta, wy)
					want, wn = wy, Norm(wy)
					gn = AxpByToNorm(gy, alpha, gx, beta, gy)
					copy(got, gy)
				}
				if !same(gn, wn) {
					t.Fatalf("n=%d trial=%d α=%v β=%v: norm %v, want %v", n, trial, alpha, beta, gn, wn)
				}
				for i := range n {
					if !same(got[i], want[i]) {
						t.Fatalf("n=%d trial=%d α=%v β=%v: dst[%d] = %v, want %v", n, trial, alpha, beta, i, got[i], want[i])
					}
				}
				if alias == 0 && got[n] != 7 {
					t.Fatalf("n=%d: wrote past len(dst)", n)
				}
			}
		}
		mustPanic(t, "AxpByToNorm length mismatch", func() { AxpByToNorm(make([]float64, 3), 1, make([]float64, 3), 1, make([]float64, 2)) })
		x := make([]float64, 8)
		mustPanic(t, "AxpByToNorm overlap", func() { AxpByToNorm(x[1:5], 1, x[:4], 1, make([]float64, 4)) })
		if AxpByToNorm(nil, 1, nil, 1, nil) != 0 {
			t.Fatal("AxpByToNorm of nothing is not 0")
		}
	})
}

// sameFloat reports whether a and b have the same bits or are both NaN.
func sameFloat(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || a != a && b != b
}
