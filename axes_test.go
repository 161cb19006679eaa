package mmaes

import (
	"fmt"
	"math"
	"testing"
)

// TestPrincipalAxes builds A = U·diag(s)·Vᵀ from random orthogonal U, V
// (Gram–Schmidt of Gaussian matrices) and known s, down to 1e-13, and
// checks the axes: orthogonal rows whose norms are the s_k (to a relative
// 1e-9 for the smallest, as accurate as A's entries allow), along ±u_k.
func TestPrincipalAxes(t *testing.T) {
	src := newXoshiro(7)
	for _, n := range []int{1, 2, 3, 5, 8, 10, 31, 64} {
		u, v := randomOrthogonal(src, n), randomOrthogonal(src, n)
		s := make([]float64, n)
		for k := range s {
			s[k] = math.Pow(10, -13*float64(k)/float64(max(1, n-1)))
		}
		// w = Aᵀ: w[j][i] = A[i][j] = Σ_k u[i][k]·s[k]·v[j][k].
		w := make([]float64, n*n)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				sum := 0.0
				for k := 0; k < n; k++ {
					sum += u[i*n+k] * s[k] * v[j*n+k]
				}
				w[j*n+i] = sum
			}
		}
		if !principalAxes(w, n, make([]float64, n)) {
			t.Fatalf("n = %d: no convergence", n)
		}
		norms := make([]float64, n)
		for k := 0; k < n; k++ {
			norms[k] = math.Sqrt(dot(w[k*n:k*n+n], w[k*n:k*n+n]))
		}
		for k := 0; k < n; k++ {
			// The row with the norm nearest s[k] must be along u_k.
			best := 0
			for r := range norms {
				if math.Abs(math.Log(norms[r]/s[k])) < math.Abs(math.Log(norms[best]/s[k])) {
					best = r
				}
			}
			// The entries of A carry an absolute error of about 1e-16·s[0],
			// so a singular value s[k] is known to 1e-16·s[0]/s[k] relative.
			tol := 1e-14 + 1e-15*s[0]/s[k]
			if math.Abs(norms[best]-s[k]) > tol*s[k] {
				t.Errorf("n = %d: axis %d has norm %g, want %g", n, k, norms[best], s[k])
			}
			uk := make([]float64, n)
			for i := range uk {
				uk[i] = u[i*n+k]
			}
			cos := math.Abs(dot(w[best*n:best*n+n], uk)) / norms[best]
			if 1-cos > tol*100 {
				t.Errorf("n = %d: axis %d off u_k by 1 − cos = %g", n, k, 1-cos)
			}
		}
		for p := 0; p < n; p++ {
			for q := p + 1; q < n; q++ {
				if c := math.Abs(dot(w[p*n:p*n+n], w[q*n:q*n+n])); c > 1e-14*norms[p]*norms[q]+1e-30 {
					t.Errorf("n = %d: rows %d and %d not orthogonal (%g)", n, p, q, c)
				}
			}
		}
	}
}

// TestPrincipalAxesSpecial: a zero matrix and a rank-one matrix converge
// (zero rows are orthogonal to everything); NaN is refused.
func TestPrincipalAxesSpecial(t *testing.T) {
	w := make([]float64, 9)
	if !principalAxes(w, 3, make([]float64, 3)) {
		t.Error("zero matrix")
	}
	w = []float64{1, 2, 3, 2, 4, 6, 3, 6, 9}
	if !principalAxes(w, 3, make([]float64, 3)) {
		t.Error("rank one")
	}
	nonzero := 0
	for k := 0; k < 3; k++ {
		if dot(w[3*k:3*k+3], w[3*k:3*k+3]) > 1e-20 {
			nonzero++
		}
	}
	if nonzero != 1 {
		t.Errorf("rank one: %d nonzero axes", nonzero)
	}
	w = []float64{1, math.NaN(), 0, 1}
	if principalAxes(w, 2, make([]float64, 2)) {
		t.Error("NaN accepted")
	}
	w = []float64{1, 0, math.Inf(-1), 1}
	if principalAxes(w, 2, make([]float64, 2)) {
		t.Error("Inf accepted")
	}
	// Rows whose squared norms overflow, orthogonal and not: the test
	// of orthogonality must not overflow into either answer.
	w = []float64{1e200, 0, 0, 1e200}
	if !principalAxes(w, 2, make([]float64, 2)) || w[1] != 0 || w[2] != 0 {
		t.Errorf("orthogonal huge rows: %v", w)
	}
	w = []float64{1e200, 1e200, 1e200, -1e199}
	if !principalAxes(w, 2, make([]float64, 2)) {
		t.Fatal("huge rows")
	}
	if c := w[0]/1e200*w[2]/1e200 + w[1]/1e200*w[3]/1e200; math.Abs(c) > 1e-15 {
		t.Errorf("huge rows not orthogonal: %v (cos %g)", w, c)
	}
	// Two rows parallel but for rounding, far below the first: they are
	// numerically zero, left as they are.
	w = []float64{1, 2, 0, 1e-17, 2e-17, 0, 3e-30, 6e-30, 0}
	if !principalAxes(w, 3, make([]float64, 3)) {
		t.Error("rank one with rounding noise")
	}
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// randomOrthogonal returns an n×n orthogonal matrix (row-major): the
// Gram–Schmidt orthonormalization, done twice, of a Gaussian matrix.
func randomOrthogonal(src *xoshiro, n int) []float64 {
	q := make([]float64, n*n)
	for i := range q {
		// Box–Muller; uniform is in [0, 1), so 1 − u is in (0, 1].
		q[i] = math.Sqrt(-2*math.Log(1-uniform(src))) * math.Cos(2*math.Pi*uniform(src))
	}
	// Orthonormalize the columns.
	col := func(j int) []float64 {
		c := make([]float64, n)
		for i := range c {
			c[i] = q[i*n+j]
		}
		return c
	}
	set := func(j int, c []float64) {
		for i := range c {
			q[i*n+j] = c[i]
		}
	}
	for j := 0; j < n; j++ {
		c := col(j)
		for pass := 0; pass < 2; pass++ {
			for k := 0; k < j; k++ {
				ck := col(k)
				d := dot(c, ck)
				for i := range c {
					c[i] -= d * ck[i]
				}
			}
		}
		norm := math.Sqrt(dot(c, c))
		for i := range c {
			c[i] /= norm
		}
		set(j, c)
	}
	return q
}

// BenchmarkPrincipalAxes times the decomposition of NoEffect (every n
// generations of a run with it) on A = U·diag(s)·Vᵀ with random orthogonal
// U, V and singular values from 1 down to 10⁻⁶.
func BenchmarkPrincipalAxes(b *testing.B) {
	for _, n := range []int{8, 16, 64, 256} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			src := newXoshiro(11)
			u, v := randomOrthogonal(src, n), randomOrthogonal(src, n)
			w0 := make([]float64, n*n)
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					sum := 0.0
					for k := 0; k < n; k++ {
						sum += u[i*n+k] * math.Pow(10, -6*float64(k)/float64(n-1)) * v[j*n+k]
					}
					w0[j*n+i] = sum
				}
			}
			w, tmp := make([]float64, n*n), make([]float64, n)
			b.ReportAllocs()
			for b.Loop() {
				copy(w, w0)
				if !principalAxes(w, n, tmp) {
					b.Fatal("no convergence")
				}
			}
		})
	}
}
