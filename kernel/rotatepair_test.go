package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestRotatePair checks RotatePair against its definition on every path:
// the bits of AxpBy(s, x, c, y) and then AxpBy(−t, y, r, x) on the same
// path, for every length up to 70 and beyond a block of vecBlock, unaligned
// rows with guard cells, and special values; and, for finite inputs,
// against the rotation (c·x − s·y, s·x + c·y) to a few roundings.
func TestRotatePair(t *testing.T) {
	r := rand.New(rand.NewPCG(71, 7))
	sizes := append(vecSizes(), vecBlock+37)
	forEachPath(t, func(t *testing.T) {
		for i, n := range sizes {
			special := i%3 == 2
			kind := i % numKinds
			if kind == kindHuge {
				kind = kindWide // keep the products finite
			}
			var x0, y0 []float64
			if special {
				x0, y0 = genSpecialVec(r, n, kind, 0.1), genSpecialVec(r, n, kind, 0.1)
			} else {
				x0, y0 = genVec(r, n, kind), genVec(r, n, kind)
			}
			theta := (r.Float64() - 0.5) * 1.5
			tn := math.Tan(theta)
			rr := math.Sqrt(1 + tn*tn)
			c := 1 / rr
			s := c * tn
			gx, gy := newGuarded(r.IntN(8), n), newGuarded(r.IntN(8), n)
			copy(gx.s, x0)
			copy(gy.s, y0)
			RotatePair(gx.s, gy.s, c, s, rr, tn)
			wx, wy := append([]float64(nil), x0...), append([]float64(nil), y0...)
			AxpBy(s, wx, c, wy)
			AxpBy(-tn, wy, rr, wx)
			if j := sameBits(gx.s, wx); j >= 0 {
				t.Fatalf("n=%d: x[%d] = %v, want AxpBy's %v", n, j, gx.s[j], wx[j])
			}
			if j := sameBits(gy.s, wy); j >= 0 {
				t.Fatalf("n=%d: y[%d] = %v, want AxpBy's %v", n, j, gy.s[j], wy[j])
			}
			if !checkGuards(t, gx, "x") || !checkGuards(t, gy, "y") {
				return
			}
			if special {
				continue
			}
			// y' = s·x + c·y: a product and a fused sum, and the
			// reference's three roundings, each at most 2⁻⁵³ of
			// |x| + |y|. x' = r·x − t·y' = c·x − s·y up to the same
			// roundings, t times y''s error (|t| < 1 for |θ| ≤ 0.75) and
			// the rounding of c, s and r against cos, sin and 1/cos
			// (r ≤ 1.4): twice the bound of y'.
			for j := range n {
				ey := s*x0[j] + c*y0[j]
				ex := c*x0[j] - s*y0[j]
				tol := 8 * 0x1p-53 * (math.Abs(x0[j]) + math.Abs(y0[j]))
				if math.Abs(gy.s[j]-ey) > tol || math.Abs(gx.s[j]-ex) > 2*tol {
					t.Fatalf("n=%d: (x, y)[%d] = (%v, %v), want (%v, %v)", n, j, gx.s[j], gy.s[j], ex, ey)
				}
			}
		}
	})
}

func TestRotatePairMisuse(t *testing.T) {
	buf := make([]float64, 16)
	mustPanic(t, "length mismatch", func() { RotatePair(buf[:4], buf[8:11], 1, 0, 1, 0) })
	mustPanic(t, "overlap", func() { RotatePair(buf[:4], buf[2:6], 1, 0, 1, 0) })
	RotatePair(nil, nil, 1, 0, 1, 0)
}
