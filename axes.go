package mmaes

import (
	"math"

	"github.com/mmaes-go/mmaes/kernel"
)

// principalAxes overwrites w, which holds Aᵀ (n×n row-major: row k is
// column k of A), with (A·V)ᵀ for an orthogonal V that makes its rows
// orthogonal: row k is then s_k·u_k, the k-th principal axis of A·Aᵀ
// scaled by its standard deviation (s_k a singular value of A, u_k its left
// singular vector), in no particular order. It is the one-sided Jacobi
// method (Hestenes 1958): rotate pairs of rows until every pair is
// orthogonal to working precision, at most maxSweeps sweeps of n(n−1)/2
// pairs, each a dot product (the squared norms are carried along, and
// computed afresh every sweep) and, when they are not orthogonal yet, a
// rotation; it keeps the small axes to high relative accuracy, which
// forming A·Aᵀ would not. Two refinements of the cyclic order:
//
//   - de Rijk's pivoting (1989): row p of a sweep is the longest of the
//     rows p … n−1, swapped into place, which takes fewer sweeps;
//   - a row shorter than n·2⁻⁵³ times the longest is numerically zero (A's
//     entries carry errors of that size): it is orthogonal to every row.
//     Rotating two such rows, parallel up to rounding, never converges.
//
// tmp is scratch of n floats. It returns false if it did not converge
// (which the tests never saw) or met a non-finite value.
func principalAxes(w []float64, n int, tmp []float64) bool {
	// Entries far from 1 are scaled by a power of 2 first (exactly), so
	// that no squared norm or product of two overflows or underflows, and
	// the axes scaled back at the end.
	w = w[:n*n]
	big := 0.0
	for _, x := range w {
		big = max(big, math.Abs(x))
	}
	if !(big <= math.MaxFloat64) {
		return false // NaN or ±Inf
	}
	if big == 0 {
		return true
	}
	if e := math.Ilogb(big); e > axesScaleExp || e < -axesScaleExp {
		kernel.Scale(math.Ldexp(1, -e), w)
		ok := jacobiAxes(w, n, tmp)
		kernel.Scale(math.Ldexp(1, e), w)
		return ok
	}
	return jacobiAxes(w, n, tmp)
}

// axesScaleExp bounds the binary exponent of the largest entry that
// principalAxes decomposes unscaled: squares and products of two up to
// 2^±800, sums of n of them far from overflow.
const axesScaleExp = 400

// jacobiAxes is principalAxes for entries of moderate size.
func jacobiAxes(w []float64, n int, tmp []float64) bool {
	const maxSweeps = 40
	const tol = 1e-15
	norms := tmp[:n] // ‖w_p‖²
	tiny := float64(n) * 0x1p-53
	for sweep := 0; sweep < maxSweeps; sweep++ {
		longest := 0.0
		for p := range norms {
			wp := w[p*n : p*n+n]
			norms[p] = axesDot(wp, wp)
			if !(norms[p] <= math.MaxFloat64) {
				return false // NaN or ±Inf in the row, or its square
			}
			longest = max(longest, norms[p])
		}
		zero := longest * tiny * tiny
		rotated := false
		for p := 0; p < n-1; p++ {
			r := p
			for q := p + 1; q < n; q++ {
				if norms[q] > norms[r] {
					r = q
				}
			}
			if r != p {
				swapRows(w[p*n:p*n+n], w[r*n:r*n+n])
				norms[p], norms[r] = norms[r], norms[p]
			}
			if norms[p] <= zero {
				break // this row and the rest are numerically zero
			}
			wp := w[p*n : p*n+n : p*n+n]
			for q := p + 1; q < n; q++ {
				wq := w[q*n : q*n+n : q*n+n]
				alpha, beta := norms[p], norms[q]
				if beta <= zero {
					continue
				}
				gamma := axesDot(wp, wq)
				// Orthogonal to working precision: |γ| ≤ tol·√(α·β), squared
				// (√α·√β where α·β overflows).
				ab := alpha * beta
				orthogonal := !(gamma*gamma > tol*tol*ab)
				if ab > math.MaxFloat64 {
					orthogonal = !(math.Abs(gamma) > tol*math.Sqrt(alpha)*math.Sqrt(beta))
				}
				if orthogonal {
					if gamma != gamma {
						return false
					}
					continue
				}
				rotated = true
				// The rotation by the angle θ with t = tan θ the smaller
				// root of t² + 2ζt − 1 = 0, r = 1/cos θ: (w_p, w_q) ← (c·w_p −
				// s·w_q, s·w_p + c·w_q), w_q first from the old w_p, then w_p
				// from w_q's new value (c·w_p − s·w_q = r·w_p − t·w_q').
				zeta := (beta - alpha) / (2 * gamma)
				t := math.Copysign(1, zeta) / (math.Abs(zeta) + math.Sqrt(1+zeta*zeta))
				r := math.Sqrt(1 + t*t)
				c := 1 / r
				if n > axesSmall {
					kernel.RotatePair(wp, wq, c, c*t, r, t)
				} else {
					axesAxpBy(c*t, wp, c, wq)
					axesAxpBy(-t, wq, r, wp)
				}
				norms[p] -= t * gamma
				norms[q] += t * gamma
			}
		}
		if !rotated {
			return true
		}
	}
	return false
}

// swapRows exchanges the elements of a and b (of one length).
func swapRows(a, b []float64) {
	for j := range a {
		a[j], b[j] = b[j], a[j]
	}
}

// axesSmall is the largest n whose rows principalAxes handles with the
// loops below instead of the kernels: for a few elements a call into the
// kernels costs more than the arithmetic (docs/performance.md, "The
// principal axes of NoEffect").
const axesSmall = 8

// axesDot returns x·y (len(y) = len(x)).
func axesDot(x, y []float64) float64 {
	if len(x) > axesSmall {
		return kernel.Dot(x, y)
	}
	y = y[:len(x)]
	var s0, s1 float64
	i := 0
	for ; i+1 < len(x); i += 2 {
		s0 = math.FMA(x[i], y[i], s0)
		s1 = math.FMA(x[i+1], y[i+1], s1)
	}
	if i < len(x) {
		s0 = math.FMA(x[i], y[i], s0)
	}
	return s0 + s1
}

// axesAxpBy sets y = a·x + b·y (len(y) = len(x) ≤ axesSmall).
func axesAxpBy(a float64, x []float64, b float64, y []float64) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] = math.FMA(a, v, b*y[i])
	}
}
