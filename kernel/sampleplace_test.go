package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSamplePlace checks on every path that SamplePlace gives the bits of
// its sequence of calls (UpdateMulVecsWork or MulVecsWork, then
// ScaleAxpyRows) in y, x and A, and the same result: n through the 8-lane
// tails and beyond the fused kernel's n ≤ 8, k up to past one call's
// vectors, with and without the update, slices at odd offsets in their
// buffers, and special values (±0, ±Inf, NaN, subnormals, huge) in A, z,
// p, v, m and the scalars; that it writes nothing past k·n; and that it
// panics as the calls do.
func TestSamplePlace(t *testing.T) {
	r := rand.New(rand.NewPCG(79, 83))
	specials := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, -0x1p-1022, math.MaxFloat64, 1e200}
	scalars := []float64{0.7, -1.3, 0, math.Copysign(0, -1), 1, math.Inf(1), math.NaN(), 1e-200, 1e200}
	forEachPath(t, func(t *testing.T) {
		for _, n := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 33} {
			for _, k := range []int{1, 3, 10, 64, 70} {
				for trial := range 8 {
					special := trial >= 4
					val := func() float64 {
						if special && r.IntN(12) == 0 {
							return specials[r.IntN(len(specials))]
						}
						return r.NormFloat64()
					}
					scalar := func(x float64) float64 {
						if special && r.IntN(4) == 0 {
							return scalars[r.IntN(len(scalars))]
						}
						return x
					}
					off := r.IntN(3)
					fill := func(l int) []float64 {
						b := make([]float64, l+off+1)
						for i := range b {
							b[i] = val()
						}
						return b[off : off+l]
					}
					a, z, m := fill(n*n), fill(k*n), fill(n)
					var u *RankOne
					if trial%2 == 1 {
						u = &RankOne{Alpha: scalar(0.9), Beta: scalar(0.05), P: fill(n), V: fill(n)}
					}
					s, sigma := scalar(0.5), scalar(0.3)
					wantA, wantY, wantX := append([]float64(nil), a...), make([]float64, k*n), make([]float64, k*n)
					if u != nil {
						UpdateMulVecsWork(wantY, wantA, n, u.Alpha, u.Beta, u.P, u.V, z, k, nil)
					} else {
						MulVecsWork(wantY, wantA, n, z, k, nil)
					}
					wantF := ScaleAxpyRows(wantX, sigma, wantY, s, m, k)

					gy, gx := make([]float64, k*n+off+1), make([]float64, k*n+off+1)
					gy[off+k*n], gx[off+k*n] = 7, 7
					y, x := gy[off:off+k*n], gx[off:off+k*n]
					gotF := SamplePlace(x, y, a, n, z, k, u, nil, s, sigma, m)
					if gotF != wantF {
						t.Fatalf("n=%d k=%d trial=%d: finite %v, want %v", n, k, trial, gotF, wantF)
					}
					for i := range wantY {
						if math.Float64bits(y[i]) != math.Float64bits(wantY[i]) || math.Float64bits(x[i]) != math.Float64bits(wantX[i]) {
							t.Fatalf("n=%d k=%d trial=%d: y, x[%d] = %v, %v, want %v, %v", n, k, trial, i, y[i], x[i], wantY[i], wantX[i])
						}
					}
					for i := range wantA {
						if math.Float64bits(a[i]) != math.Float64bits(wantA[i]) {
							t.Fatalf("n=%d k=%d trial=%d: A[%d] = %v, want %v", n, k, trial, i, a[i], wantA[i])
						}
					}
					if gy[off+k*n] != 7 || gx[off+k*n] != 7 {
						t.Fatalf("n=%d k=%d: wrote past k·n", n, k)
					}
				}
			}
		}
		n, k := 4, 3
		buf := func(l int) []float64 { return make([]float64, l) }
		u := &RankOne{Alpha: 1, Beta: 1, P: buf(n), V: buf(n)}
		mustPanic(t, "SamplePlace short m", func() { SamplePlace(buf(12), buf(12), buf(16), n, buf(12), k, u, nil, 1, 1, buf(3)) })
		mustPanic(t, "SamplePlace short a", func() { SamplePlace(buf(12), buf(12), buf(15), n, buf(12), k, u, nil, 1, 1, buf(4)) })
		mustPanic(t, "SamplePlace short x", func() { SamplePlace(buf(11), buf(12), buf(16), n, buf(12), k, nil, nil, 1, 1, buf(4)) })
		mustPanic(t, "SamplePlace short p", func() {
			SamplePlace(buf(12), buf(12), buf(16), n, buf(12), k, &RankOne{P: buf(3), V: buf(4)}, nil, 1, 1, buf(4))
		})
		y := buf(24)
		mustPanic(t, "SamplePlace x overlaps y", func() { SamplePlace(y[4:16], y[:12], buf(16), n, buf(12), k, u, nil, 1, 1, buf(4)) })
		mustPanic(t, "SamplePlace y overlaps z", func() { SamplePlace(buf(12), y[:12], buf(16), n, y[8:20], k, u, nil, 1, 1, buf(4)) })
		mustPanic(t, "SamplePlace y overlaps p", func() {
			SamplePlace(buf(12), y[:12], buf(16), n, buf(12), k, &RankOne{P: y[:4], V: buf(4)}, nil, 1, 1, buf(4))
		})
	})
}
