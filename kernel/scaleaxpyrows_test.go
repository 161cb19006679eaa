package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// ScaleAxpyRows must be, bit for bit, Scale (for s ≠ 1) followed by
// AxpByTo(x_i, σ, y_i, 1, m) for each row on the same path, and report
// exactly whether every x is finite.
func TestScaleAxpyRows(t *testing.T) {
	r := rand.New(rand.NewPCG(47, 53))
	type tc struct {
		n, k     int
		sigma, s float64
		y, m     []float64
		off      int
	}
	var cases []tc
	i := 0
	for n := 1; n <= 20; n++ {
		for _, k := range []int{1, 2, 3, 7, 10, 13} {
			c := tc{n: n, k: k, sigma: math.Exp(r.NormFloat64()), s: 1 - r.Float64()/8, off: i % 8}
			if i%3 == 1 {
				c.s = 1
			}
			c.y, c.m = randVals(r, k*n), randVals(r, n)
			switch i % 7 {
			case 2:
				c.y[r.IntN(k*n)] = math.NaN()
			case 3:
				c.m[r.IntN(n)] = math.Inf(-1)
			case 4:
				c.y[r.IntN(k*n)] = math.MaxFloat64 // σ·y overflows for σ > 1 …
				c.sigma = 4                        // … here it does
			case 5:
				c.y[r.IntN(k*n)] = 1e200 // huge, finite: Σx² overflows
			}
			cases = append(cases, c)
			i++
		}
	}
	// Several blocks of rows on AVX-512 (vecBlock elements a call).
	cases = append(cases, tc{n: 3000, k: 30, sigma: 0.5, s: 0.75, y: randVals(r, 90000), m: randVals(r, 3000)})
	forEachPath(t, func(t *testing.T) {
		for _, c := range cases {
			what := fmt.Sprintf("n=%d k=%d s=%v off=%d", c.n, c.k, c.s, c.off)
			// The reference: the separate kernels.
			y1 := append([]float64(nil), c.y...)
			x1 := make([]float64, c.k*c.n)
			if c.s != 1 {
				Scale(c.s, y1)
			}
			for i := 0; i < c.k; i++ {
				AxpByTo(x1[i*c.n:(i+1)*c.n], c.sigma, y1[i*c.n:(i+1)*c.n], 1, c.m)
			}
			want := true
			for _, v := range x1 {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					want = false
				}
			}
			gx, gy := newGuarded(c.off, c.k*c.n), newGuarded((c.off+5)%8, c.k*c.n)
			copy(gy.s, c.y)
			m := placed(7-c.off, c.m)
			if got := ScaleAxpyRows(gx.s, c.sigma, gy.s, c.s, m, c.k); got != want {
				t.Fatalf("%s: finite = %v, want %v", what, got, want)
			}
			for i := range x1 {
				if math.Float64bits(gx.s[i]) != math.Float64bits(x1[i]) {
					t.Fatalf("%s: x[%d] = %v, separate kernels give %v", what, i, gx.s[i], x1[i])
				}
				if math.Float64bits(gy.s[i]) != math.Float64bits(y1[i]) {
					t.Fatalf("%s: y[%d] = %v, separate kernels give %v", what, i, gy.s[i], y1[i])
				}
			}
			if i := gx.guardsIntact(); i != math.MinInt {
				t.Fatalf("%s: guard cell x[%d] written", what, i)
			}
			if i := gy.guardsIntact(); i != math.MinInt {
				t.Fatalf("%s: guard cell y[%d] written", what, i)
			}
		}
	})
}

func TestScaleAxpyRowsMisuse(t *testing.T) {
	buf := make([]float64, 40)
	x, y, m := buf[:16], buf[16:32], buf[32:36]
	mustPanic(t, "negative k", func() { ScaleAxpyRows(x, 1, y, 1, m, -1) })
	mustPanic(t, "short x", func() { ScaleAxpyRows(x[:15], 1, y, 1, m, 4) })
	mustPanic(t, "short y", func() { ScaleAxpyRows(x, 1, y[:15], 1, m, 4) })
	mustPanic(t, "x overlaps y", func() { ScaleAxpyRows(buf[:16], 1, buf[12:28], 1, m, 4) })
	mustPanic(t, "x overlaps m", func() { ScaleAxpyRows(x, 1, y, 1, buf[12:16], 4) })
	mustPanic(t, "y overlaps m", func() { ScaleAxpyRows(x, 1, y, 1, buf[28:32], 4) })
	if !ScaleAxpyRows(x, 1, y, 1, m, 0) || !ScaleAxpyRows(nil, 1, nil, 1, nil, 3) {
		t.Error("empty calls: not finite")
	}
}
