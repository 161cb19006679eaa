// Package benchfn holds the test functions of the MMA-ES paper, Z. Li and
// Q. Zhang, "A Simple Yet Efficient Rank One Update for Covariance Matrix
// Adaptation": the ten functions of its table "Test Problems" (tableFuncDef,
// section "Experimental Studies": Sp, Cig, Ctb, Ell, Tab, Tx, dP, Sch, Ros and
// pR, with the targets that table gives), the usual Schwefel 1.2 and
// Rastrigin, a registry of them, and the rotated variant f(R·x) the paper uses
// to show invariance under rotation ("Invariance Under Rotation in the Search
// Space").
//
// Every function has the signature func(x []float64) float64, takes the
// dimension n from len(x), does not modify x, allocates nothing and is safe
// for concurrent use. For len(x) == 0 every function returns 0. Where the
// paper's formula divides by n−1 (Ell, dP), the exponent is defined as 0 for
// n = 1; the doc comment of each function says what it computes for n = 1.
//
// Indices in the doc comments are 1-based, as in the paper: x_1 is x[0].
package benchfn

import (
	"math"
	"math/rand/v2"
	"strings"
)

// Sphere is the paper's f_Sp(x) = Σ_{i=1}^{n} x_i². Its minimum is 0 at the
// origin.
func Sphere(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	return s
}

// Cigar is the paper's f_Cig(x) = x_1² + 10⁶·Σ_{i=2}^{n} x_i². Its minimum is 0
// at the origin. For n = 1 it is x_1².
func Cigar(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	s := 0.0
	for _, v := range x[1:] {
		s += v * v
	}
	return x[0]*x[0] + 1e6*s
}

// CigarTablet is the paper's
// f_Ctb(x) = x_1² + 10⁴·Σ_{i=2}^{n−1} x_i² + 10⁶·x_n². Its minimum is 0 at the
// origin. For n = 2 the middle sum is empty. For n = 1, x_1 is also x_n and,
// as the formula reads, both end terms apply: (1 + 10⁶)·x_1².
func CigarTablet(x []float64) float64 {
	n := len(x)
	if n == 0 {
		return 0
	}
	s := 0.0
	if n > 2 {
		for _, v := range x[1 : n-1] {
			s += v * v
		}
	}
	return x[0]*x[0] + 1e4*s + 1e6*x[n-1]*x[n-1]
}

// Ellipsoid is the paper's f_Ell(x) = Σ_{i=1}^{n} 10^{6·(i−1)/(n−1)}·x_i²: an
// axis-parallel ellipsoid with condition number 10⁶. Its minimum is 0 at the
// origin. For n = 1 the exponent is defined as 0, so f_Ell(x) = x_1².
func Ellipsoid(x []float64) float64 {
	n := len(x)
	if n <= 1 {
		return Sphere(x)
	}
	// The weights 10^{6·(i−1)/(n−1)} are successive powers of one ratio;
	// multiplying is much faster than math.Pow per term, and the relative
	// error of the i-th weight is at most about i·2⁻⁵³.
	r := math.Pow(10, 6/float64(n-1))
	s, w := 0.0, 1.0
	for _, v := range x {
		s += w * v * v
		w *= r
	}
	return s
}

// Tablet is the paper's f_Tab(x) = 10⁶·x_1² + Σ_{i=2}^{n} x_i². Its minimum is
// 0 at the origin. For n = 1 it is 10⁶·x_1².
func Tablet(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	s := 0.0
	for _, v := range x[1:] {
		s += v * v
	}
	return 1e6*x[0]*x[0] + s
}

// TwoAxes is the paper's
// f_Tx(x) = Σ_{i=1}^{⌊n/2⌋} x_i² + 10⁶·Σ_{i=⌊n/2⌋+1}^{n} x_i². Its minimum is 0 at
// the origin. For n = 1 the first sum is empty: f_Tx(x) = 10⁶·x_1².
func TwoAxes(x []float64) float64 {
	h := len(x) / 2
	a, b := 0.0, 0.0
	for _, v := range x[:h] {
		a += v * v
	}
	for _, v := range x[h:] {
		b += v * v
	}
	return a + 1e6*b
}

// DiffPowers is the paper's f_dP(x) = Σ_{i=1}^{n} |x_i|^{2+4·(i−1)/(n−1)} (sum
// of different powers; the paper writes x_i, the absolute value makes the
// non-integer powers real). Its minimum is 0 at the origin. For n = 1 the
// exponent's fraction is defined as 0, so f_dP(x) = x_1².
func DiffPowers(x []float64) float64 {
	n := len(x)
	if n <= 1 {
		return Sphere(x)
	}
	s := x[0] * x[0]
	d := float64(n - 1)
	for i := 1; i < n; i++ {
		s += math.Pow(math.Abs(x[i]), 2+4*float64(i)/d)
	}
	return s
}

// Schwefel12Paper is f_Sch exactly as the paper's table writes it:
// Σ_{i=1}^{n} (Σ_{j=1}^{i−1} x_j)². The inner sum stops at i−1, so the term
// for i = 1 is 0 and x_n appears nowhere: the function does not depend on
// x_n, and its minimum 0 is reached on the whole line x_1 = … = x_{n−1} = 0
// (for n = 1 it is identically 0). Schwefel12 is the usual Schwefel 1.2.
func Schwefel12Paper(x []float64) float64 {
	s, f := 0.0, 0.0
	for _, v := range x {
		f += s * s
		s += v
	}
	return f
}

// Schwefel12 is the usual Schwefel 1.2 (double sum) function,
// Σ_{i=1}^{n} (Σ_{j=1}^{i} x_j)², which, unlike Schwefel12Paper, depends on
// every coordinate. Its minimum is 0 at the origin.
func Schwefel12(x []float64) float64 {
	s, f := 0.0, 0.0
	for _, v := range x {
		s += v
		f += s * s
	}
	return f
}

// Rosenbrock is the paper's
// f_Ros(x) = Σ_{i=1}^{n−1} (100·(x_{i+1} − x_i²)² + (x_i − 1)²). Its global
// minimum is 0 at (1, …, 1). For n ≥ 4 it also has a local minimum with x_1
// near −1 (x_1 ≈ −0.776 and f ≈ 3.701 for n = 4, x_1 ≈ −0.993 and f ≈ 3.987
// for n ≥ 8), where optimizers may end. For n = 1 the sum is empty and the
// function is identically 0.
func Rosenbrock(x []float64) float64 {
	f := 0.0
	for i := 0; i+1 < len(x); i++ {
		a := x[i+1] - x[i]*x[i]
		b := x[i] - 1
		f += 100*a*a + b*b
	}
	return f
}

// ParabolicRidge is the paper's f_pR(x) = −x_1 + 100·Σ_{i=2}^{n} x_i². It is
// unbounded below (along +x_1); the paper's target is −10¹⁰. For n = 1 it is
// −x_1.
func ParabolicRidge(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	s := 0.0
	for _, v := range x[1:] {
		s += v * v
	}
	return -x[0] + 100*s
}

// Rastrigin is f(x) = 10·n + Σ_{i=1}^{n} (x_i² − 10·cos(2π·x_i)), a multimodal
// function that is not in the paper's table. Its global minimum is 0 at the
// origin.
func Rastrigin(x []float64) float64 {
	f := 10 * float64(len(x))
	for _, v := range x {
		f += v*v - 10*math.Cos(2*math.Pi*v)
	}
	return f
}

// Function describes one test function.
type Function struct {
	// Name is the function's full name, such as "Ellipsoid".
	Name string
	// Short is the lower-case short name, such as "ell" (the paper's
	// subscript, lower-cased); ByName looks functions up by it.
	Short string
	// F evaluates the function. It does not allocate and is safe for
	// concurrent use.
	F func([]float64) float64
	// Target is the value a run must reach (f ≤ Target) to count as a
	// success: 1e-10, or -1e10 for the parabolic ridge, as in the paper.
	Target float64
}

// paper lists the paper's ten functions in its table's order; extra lists
// the functions available only through ByName.
var (
	paper = [...]Function{
		{"Sphere", "sp", Sphere, 1e-10},
		{"Cigar", "cig", Cigar, 1e-10},
		{"CigarTablet", "ctb", CigarTablet, 1e-10},
		{"Ellipsoid", "ell", Ellipsoid, 1e-10},
		{"Tablet", "tab", Tablet, 1e-10},
		{"TwoAxes", "tx", TwoAxes, 1e-10},
		{"DiffPowers", "dp", DiffPowers, 1e-10},
		{"Schwefel12Paper", "sch", Schwefel12Paper, 1e-10},
		{"Rosenbrock", "ros", Rosenbrock, 1e-10},
		{"ParabolicRidge", "pr", ParabolicRidge, -1e10},
	}
	extra = [...]Function{
		{"Schwefel12", "sch12", Schwefel12, 1e-10},
		{"Rastrigin", "rastrigin", Rastrigin, 1e-10},
	}
)

// All returns the paper's ten test functions, in the order of its table (sp,
// cig, ctb, ell, tab, tx, dp, sch, ros, pr), with the paper's targets. The
// slice is new on every call; the caller may modify it.
func All() []Function {
	fs := make([]Function, len(paper))
	copy(fs, paper[:])
	return fs
}

// ByName returns the function with the given short name: one of All's ten or
// "sch12" (Schwefel12) or "rastrigin" (Rastrigin, target 1e-10). The match
// ignores case. The second result is false if no function has that name.
func ByName(short string) (Function, bool) {
	for _, f := range paper {
		if strings.EqualFold(f.Short, short) {
			return f, true
		}
	}
	for _, f := range extra {
		if strings.EqualFold(f.Short, short) {
			return f, true
		}
	}
	return Function{}, false
}

// Rotation returns a random orthogonal n×n matrix R as a row-major slice of
// length n·n (R[i][j] at r[i*n+j]), made as the paper says by the
// Gram–Schmidt process: n vectors of independent standard normal entries,
// drawn from math/rand/v2's PCG seeded by seed, are orthonormalised in turn by
// modified Gram–Schmidt, applied twice to each vector so that R·Rᵀ equals the
// identity to within a small multiple of n·2⁻⁵³. The rows are Haar
// distributed; det R is +1 or −1. The same n and seed give the same matrix.
// Rotation panics if n < 0 or n·n overflows an int; for n = 0 it returns
// an empty slice.
func Rotation(n int, seed uint64) []float64 {
	if n < 0 {
		panic("benchfn: negative dimension")
	}
	if squareOverflows(n) {
		panic("benchfn: n·n overflows an int")
	}
	rng := rand.New(rand.NewPCG(seed, 0x6d6d6165735f726f)) // "mmaes_ro"
	r := make([]float64, n*n)
	for i := 0; i < n; i++ {
		row := r[i*n : (i+1)*n]
		for {
			for j := range row {
				row[j] = rng.NormFloat64()
			}
			norm0 := math.Sqrt(dot(row, row))
			for pass := 0; pass < 2; pass++ {
				for k := 0; k < i; k++ {
					q := r[k*n : (k+1)*n]
					c := dot(row, q)
					for j := range row {
						row[j] -= c * q[j]
					}
				}
			}
			norm := math.Sqrt(dot(row, row))
			// A vector (almost) in the span of the previous ones has
			// probability zero; draw a new one rather than divide by ~0.
			if norm > 1e-8*norm0 && norm > 0 {
				for j := range row {
					row[j] /= norm
				}
				break
			}
		}
	}
	return r
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

// Rotated returns the function x ↦ f(R·x), where r is an n×n row-major matrix
// (such as one from Rotation). Rotated copies r and allocates the buffer for
// R·x once, here; the returned function allocates nothing per call (if f does
// not), but it reuses that buffer, so it is not safe for concurrent use: give
// each goroutine its own Rotated function. f is passed the buffer and must not
// keep it. Rotated panics if len(r) != n·n or n < 0 (or n·n overflows an
// int), and the returned function panics if len(x) != n.
func Rotated(f func([]float64) float64, r []float64, n int) func([]float64) float64 {
	if n < 0 || squareOverflows(n) || len(r) != n*n {
		panic("benchfn: rotation matrix is not n×n")
	}
	rc := make([]float64, n*n)
	copy(rc, r)
	y := make([]float64, n)
	return func(x []float64) float64 {
		if len(x) != n {
			panic("benchfn: rotated function called with the wrong dimension")
		}
		for i := range y {
			y[i] = dot(rc[i*n:(i+1)*n], x)
		}
		return f(y)
	}
}

// squareOverflows reports whether n·n (n ≥ 0) overflows an int.
func squareOverflows(n int) bool { return n > 0 && n > math.MaxInt/n }
