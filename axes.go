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
// forming A·Aᵀ would not. tmp is scratch of n floats. It returns false if
// it did not converge (which the tests never saw) or met a non-finite
// value.
func principalAxes(w []float64, n int, tmp []float64) bool {
	const maxSweeps = 40
	const tol = 1e-15
	norms := tmp[:n] // ‖w_p‖², then tmp's rotation scratch is w's own
	for sweep := 0; sweep < maxSweeps; sweep++ {
		for p := range norms {
			wp := w[p*n : p*n+n]
			norms[p] = kernel.Dot(wp, wp)
		}
		rotated := false
		for p := 0; p < n-1; p++ {
			wp := w[p*n : p*n+n : p*n+n]
			for q := p + 1; q < n; q++ {
				wq := w[q*n : q*n+n : q*n+n]
				alpha, beta := norms[p], norms[q]
				gamma := kernel.Dot(wp, wq)
				if !(math.Abs(gamma) > tol*math.Sqrt(alpha*beta)) {
					if gamma != gamma || alpha != alpha || beta != beta {
						return false
					}
					continue // orthogonal (or a zero row)
				}
				rotated = true
				zeta := (beta - alpha) / (2 * gamma)
				t := math.Copysign(1, zeta) / (math.Abs(zeta) + math.Sqrt(1+zeta*zeta))
				c := 1 / math.Sqrt(1+t*t)
				s := c * t
				// (w_p, w_q) ← (c·w_p − s·w_q, s·w_p + c·w_q), by way of
				// the rows: w_q first from the old w_p, then w_p from
				// w_q's new value (c·w_p − s·w_q = (w_p − s·w_q')/c).
				kernel.AxpBy(s, wp, c, wq)
				kernel.AxpBy(-s/c, wq, 1/c, wp)
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
