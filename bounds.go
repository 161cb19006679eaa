package mmaes

import (
	"math"
	"slices"
	"strconv"
)

// Box constraints (Config.Lower, Config.Upper).
//
// The search distribution lives in the unconstrained space ℝⁿ; each sampled
// point m + σ·y_i is mapped into the box coordinate by coordinate, and the
// objective sees only the mapped point (Ask returns it, Optimize evaluates
// it, Result.X and BestX are mapped points). The update uses the unmapped
// steps y_i and z_i, as pycma's BoundTransform does. The map is pycma's
// BoxConstraintsLinQuadTransformation: for a coordinate with bounds
// [l, u] and
//
//	a_l = min((u − l)/2, (1 + |l|)/20),   a_u = min((u − l)/2, (1 + |u|)/20),
//
// it is the identity on [l + a_l, u − a_u], a quadratic on each side,
//
//	x ↦ l + (x − (l − a_l))²/(4a_l)   on [l − a_l, l + a_l],
//	x ↦ u − (x − (u + a_u))²/(4a_u)   on [u − a_u, u + 3a_u],
//
// and is extended to ℝ by mirroring at l − a_l and u + a_u and periodically
// (period 2(u − l + a_l + a_u)). It is continuously differentiable, so
// optimizing f∘T is as well-behaved as f: a minimum on the bound l is a
// smooth minimum of f∘T at l − a_l (T' = 0 there), which the strategy
// finds to full precision. A coordinate with one bound infinite uses the
// one-sided map (the mirror and the quadratic at the finite bound); with
// l = u the coordinate is fixed at l. Rounding cannot leave the box: the
// result is clamped to [l, u] last.
//
// The mean may leave the box (as in pycma); it is the mapped candidates
// that are evaluated. As for every such repair, the mapped distribution is
// not Gaussian near the bounds (its mean is biased towards the interior;
// see CMA-ES/pycma#229), which matters only when the optimum is near a
// bound, and there the quadratic piece keeps convergence linear.

// checkBounds validates Lower and Upper.
func checkBounds(cfg *Config, _ *Params) error {
	n := cfg.Dim
	for _, b := range []struct {
		name string
		v    []float64
		bad  float64 // the infinity that leaves no feasible point
	}{{"Lower", cfg.Lower, math.Inf(1)}, {"Upper", cfg.Upper, math.Inf(-1)}} {
		if b.v == nil {
			continue
		}
		if len(b.v) != n {
			return cfgErr(b.name, "length %d, want Dim = %d (or nil)", len(b.v), n)
		}
		for i, x := range b.v {
			if math.IsNaN(x) || x == b.bad {
				return cfgErr(b.name+"["+strconv.Itoa(i)+"]", "%g: must be a number (an infinity only on its own side)", x)
			}
		}
	}
	if cfg.Lower != nil && cfg.Upper != nil {
		for i := range n {
			if cfg.Lower[i] > cfg.Upper[i] {
				return cfgErr("Lower["+strconv.Itoa(i)+"]", "%g > Upper[%d] = %g", cfg.Lower[i], i, cfg.Upper[i])
			}
		}
	}
	return nil
}

// checkMeanInBounds reports an error naming Mean (or Mean[i]) when the
// initial mean (nil: the origin) lies outside the box in a coordinate that
// is not fixed.
func checkMeanInBounds(cfg *Config, _ *Params) error {
	for i := range cfg.Dim {
		if _, fixed := cfg.Fixed[i]; fixed {
			continue // its Mean is not used
		}
		x := 0.0
		if cfg.Mean != nil {
			x = cfg.Mean[i]
		}
		lo, hi := bound(cfg.Lower, i, -1), bound(cfg.Upper, i, 1)
		if x < lo || x > hi {
			if cfg.Mean == nil {
				return cfgErr("Mean", "nil (the origin) is outside the bounds in coordinate %d: [%g, %g]", i, lo, hi)
			}
			return cfgErr("Mean["+strconv.Itoa(i)+"]", "%g: outside the bounds [%g, %g]", x, lo, hi)
		}
	}
	return nil
}

// bound returns b[i], or the infinity of sign s for a nil b.
func bound(b []float64, i, s int) float64 {
	if b == nil {
		return math.Inf(s)
	}
	return b[i]
}

// A box holds the bounds of a validated Config and the widths of the
// quadratic pieces of each coordinate's map.
type box struct {
	lo, hi, al, au []float64
}

// newBox returns the box of n coordinates with the given bounds (nil: none
// on that side), or nil without bounds. The integer coordinates are left
// unbounded: their encoding clamps them.
func newBox(n int, lower, upper []float64, integer []int) *box {
	if lower == nil && upper == nil {
		return nil
	}
	buf := make([]float64, 4*n)
	b := &box{lo: buf[:n:n], hi: buf[n : 2*n : 2*n], al: buf[2*n : 3*n : 3*n], au: buf[3*n:]}
	for i := range n {
		l, u := bound(lower, i, -1), bound(upper, i, 1)
		if slices.Contains(integer, i) {
			l, u = math.Inf(-1), math.Inf(1)
		}
		b.lo[i], b.hi[i] = l, u
		b.al[i] = min((u-l)/2, (1+math.Abs(l))/20)
		b.au[i] = min((u-l)/2, (1+math.Abs(u))/20)
	}
	return b
}

// repair maps x into the box in place.
func (b *box) repair(x []float64) {
	for i, xi := range x {
		x[i] = boxMap(xi, b.lo[i], b.hi[i], b.al[i], b.au[i])
	}
}

// contains reports whether x lies in the box.
func (b *box) contains(x []float64) bool {
	for i, xi := range x {
		if !(xi >= b.lo[i] && xi <= b.hi[i]) {
			return false
		}
	}
	return true
}

// repairAll maps the k candidates of x (n each, row-major) into the box.
func (b *box) repairAll(x []float64, n, k int) {
	for i := 0; i < k; i++ {
		b.repair(x[i*n : i*n+n])
	}
}

// boxMap is the transformation of one coordinate (see above): bounds
// l ≤ u, widths al, au of the quadratic pieces.
func boxMap(x, l, u, al, au float64) float64 {
	lInf, uInf := math.IsInf(l, -1), math.IsInf(u, 1)
	switch {
	case l == u:
		return l
	case lInf && uInf:
		return x
	case uInf: // lower bound only
		if b := l - al; x < b {
			x = b + (b - x) // the mirror image 2b − x, without overflow for small b
		}
		if x < l+al {
			x = l + (x-(l-al))*(x-(l-al))/(4*al)
		}
	case lInf: // upper bound only
		if b := u + au; x > b {
			x = b - (x - b)
		}
		if x > u-au {
			x = u - (x-(u+au))*(x-(u+au))/(4*au)
		}
	default:
		// Shift into [l − 2a_l − (u−l)/2, u + 2a_u + (u−l)/2] by the period,
		// then mirror into [l − a_l, u + a_u].
		if x < l-2*al-(u-l)/2 || x > u+2*au+(u-l)/2 {
			r := 2 * (u - l + al + au)
			s := l - 2*al - (u-l)/2
			x -= r * math.Floor((x-s)/r)
		}
		if b := u + au; x > b {
			x = b - (x - b)
		}
		if b := l - al; x < b {
			x = b + (b - x)
		}
		if x < l+al {
			x = l + (x-(l-al))*(x-(l-al))/(4*al)
		} else if x > u-au {
			x = u - (x-(u+au))*(x-(u+au))/(4*au)
		}
	}
	// Rounding (or a far-away x) must not leave the box; an overflow to
	// ±Inf or NaN (x near ±MaxFloat64 and a huge bound) maps to a finite
	// bound.
	if !finite(x) {
		if math.IsInf(l, -1) {
			return u
		}
		return l
	}
	if !(x >= l) {
		x = l
	}
	if !(x <= u) {
		x = u
	}
	return x
}
