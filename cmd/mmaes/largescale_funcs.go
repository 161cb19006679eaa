package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/mmaes-go/mmaes/kernel"
)

// The large-scale suite: six functions with a known minimum of 0, each plain
// and in the permuted block-rotated form of COCO's bbob-largescale suite
// (Varelas et al., "Benchmarking large-scale continuous optimizers: the
// bbob-largescale testbed", Applied Soft Computing 97, 2020; COCO's
// transform_vars_permblockdiag.c and its helpers). Unlike COCO's functions
// they are neither shifted nor normalized by the dimension, and the
// ellipsoid has no oscillation: the optimum is at the origin (Rosenbrock:
// at 1) and f(x_opt) = 0, so a target 1e-8 is the precision 1e-8.
//
// An objective is evaluated in O(n) time without allocating: the rotated
// forms cost one product with the block-diagonal matrix, at most
// largeBlockSize·n multiply-adds, and two gathers.

// largeBlockSize is COCO's largest block of the block-diagonal rotation
// (coco_rotation_matrix_block_size: min(n, 40)).
const largeBlockSize = 40

// largeKind is one of the suite's six functions before any rotation.
type largeKind int

// The six kinds, in table order.
const (
	largeSphere     largeKind = iota // Σ z_i²
	largeEllipsoid                   // Σ 10^(6(i−1)/(n−1))·z_i²
	largeDiscus                      // 10⁶·z_1² + Σ_{i≥2} z_i²
	largeCigar                       // z_1² + 10⁶·Σ_{i≥2} z_i²
	largeDiffPowers                  // Σ |z_i|^(2+4(i−1)/(n−1))
	largeRosenbrock                  // Σ_{i<n} 100·(z_i² − z_{i+1})² + (z_i − 1)²
)

// largeFunction names one function of the suite: a kind, plain or rotated.
type largeFunction struct {
	// Short is the name on the command line (-funcs): sph, ell, dis, cig,
	// dpw, ros, and the same with an "r" in front for the rotated forms.
	Short string
	// Name is the long name of the tables.
	Name    string
	kind    largeKind
	rotated bool
}

// largeFunctions lists the suite in table order: the six plain functions,
// then their rotated forms.
var largeFunctions = []largeFunction{
	{"sph", "sphere", largeSphere, false},
	{"ell", "ellipsoid", largeEllipsoid, false},
	{"dis", "discus", largeDiscus, false},
	{"cig", "cigar", largeCigar, false},
	{"dpw", "different powers", largeDiffPowers, false},
	{"ros", "Rosenbrock", largeRosenbrock, false},
	{"rsph", "rotated sphere", largeSphere, true},
	{"rell", "rotated ellipsoid", largeEllipsoid, true},
	{"rdis", "rotated discus", largeDiscus, true},
	{"rcig", "rotated cigar", largeCigar, true},
	{"rdpw", "rotated different powers", largeDiffPowers, true},
	{"rros", "rotated Rosenbrock", largeRosenbrock, true},
}

// lookupLargeFunction returns the suite's function with this short name.
func lookupLargeFunction(short string) (largeFunction, error) {
	var names []string
	for _, f := range largeFunctions {
		if f.Short == short {
			return f, nil
		}
		names = append(names, f.Short)
	}
	return largeFunction{}, fmt.Errorf("%w: unknown large-scale function %q (one of %s)",
		errUsage, short, strings.Join(names, ", "))
}

// center is the point the rotation turns about, which is also the
// unrotated function's minimizer: 1 for Rosenbrock, 0 for the others.
func (k largeKind) center() float64 {
	if k == largeRosenbrock {
		return 1
	}
	return 0
}

// blockRotation is COCO's permuted block-diagonal orthogonal matrix
// R = P2·B·P1: with the permutations as gathers, (P1·x)_j = x[perm1[j]] and
// (P2·y)_i = y[perm2[i]], and B block-diagonal with orthogonal blocks of
// largeBlockSize rows (the last block smaller when n is not a multiple of
// it). It is read-only once built, so objectives on several goroutines
// share one.
type blockRotation struct {
	n            int
	perm1, perm2 []int
	// blockStart[b] is the first row of block b; blockStart[len−1] = n.
	blockStart []int
	// blocks holds the blocks one after another, each row-major: block b,
	// of size s = blockStart[b+1] − blockStart[b], starts at blockOffset[b].
	blocks      []float64
	blockOffset []int
}

// newBlockRotation draws the permuted block rotation of dimension n from
// seed, the way COCO builds bbob-largescale's: blocks of min(n, 40) rows,
// each a Gram–Schmidt-orthonormalized Gaussian matrix (bbob2009's
// rotation), and the permutations P1 (applied first, to the columns of B)
// and P2 (to its rows) are truncated uniform swap permutations of n swaps
// of range ⌊n/3⌋ each, from two generators of the seed. The generators are
// this program's (PCG), not COCO's, so the instances are COCO's in kind,
// not in value.
func newBlockRotation(n int, seed uint64) *blockRotation {
	r := &blockRotation{n: n}
	size := min(n, largeBlockSize)
	for start := 0; start < n; start += size {
		r.blockStart = append(r.blockStart, start)
	}
	r.blockStart = append(r.blockStart, n)
	gauss := rand.New(rand.NewPCG(seed, 0x626c6f636b)) // "block"
	for b := 0; b+1 < len(r.blockStart); b++ {
		s := r.blockStart[b+1] - r.blockStart[b]
		r.blockOffset = append(r.blockOffset, len(r.blocks))
		r.blocks = append(r.blocks, orthogonalMatrix(s, gauss)...)
	}
	r.perm1 = truncatedSwapPermutation(n, n, n/3, rand.New(rand.NewPCG(seed, 0x7065726d31))) // "perm1"
	r.perm2 = truncatedSwapPermutation(n, n, n/3, rand.New(rand.NewPCG(seed, 0x7065726d32))) // "perm2"
	return r
}

// orthogonalMatrix returns a random s×s orthogonal matrix, row-major: the
// rows of a matrix of standard normal deviates, orthonormalized by modified
// Gram–Schmidt, twice (the second pass brings BᵀB to the identity within a
// few ulps).
func orthogonalMatrix(s int, r *rand.Rand) []float64 {
	q := make([]float64, s*s)
	for i := range q {
		q[i] = r.NormFloat64()
	}
	for pass := 0; pass < 2; pass++ {
		for i := 0; i < s; i++ {
			row := q[i*s : (i+1)*s]
			for j := 0; j < i; j++ {
				prev := q[j*s : (j+1)*s]
				kernel.Axpy(-kernel.Dot(prev, row), prev, row)
			}
			kernel.Scale(1/kernel.Norm(row), row)
		}
	}
	return q
}

// truncatedSwapPermutation returns COCO's "truncated uniform swap"
// permutation (coco_compute_truncated_uniform_swap_permutation): starting
// from the identity, the positions in a uniformly random order each swap,
// for the first swaps of them, with a position drawn uniformly from those
// within swapRange of it (other than itself). Variables thus move by about
// swapRange at most, so that a permuted block stays local. For n ≤ 40, as
// in COCO, it is the identity.
func truncatedSwapPermutation(n, swaps, swapRange int, r *rand.Rand) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	if n <= largeBlockSize {
		return p
	}
	order := r.Perm(n) // the positions in uniformly random order
	for _, first := range order[:min(swaps, n)] {
		lo := max(0, first-swapRange)
		hi := min(n-1, first+swapRange)
		second := lo + r.IntN(hi-lo) // uniform in [lo, hi) …
		if second >= first {
			second++ // … mapped onto [lo, hi] without first
		}
		p[first], p[second] = p[second], p[first]
	}
	return p
}

// apply sets z = R·(x − c) + c, using work (length n) as scratch; z, x and
// work must not overlap.
func (r *blockRotation) apply(z, x, work []float64, c float64) {
	for j, src := range r.perm1 {
		work[j] = x[src] - c
	}
	// y = B·work into z (its rows are gathered by P2 below, so z serves as
	// the scratch of y and work as the output).
	for b := 0; b+1 < len(r.blockStart); b++ {
		lo, hi := r.blockStart[b], r.blockStart[b+1]
		s := hi - lo
		kernel.MulVec(z[lo:hi], r.blocks[r.blockOffset[b]:r.blockOffset[b]+s*s], s, work[lo:hi])
	}
	copy(work, z)
	for i, src := range r.perm2 {
		z[i] = work[src] + c
	}
}

// largeObjective is one function of the suite at dimension n, ready to be
// evaluated. It owns scratch buffers, so a value is used by one goroutine
// at a time; Clone makes an independent copy for another goroutine (the
// rotation and the coefficients, read-only, are shared).
type largeObjective struct {
	fn  largeFunction
	n   int
	rot *blockRotation // nil for the plain functions
	// coef holds the ellipsoid's coefficients 10^(6i/(n−1)) or the
	// different powers' exponents 2 + 4i/(n−1) (read-only, shared).
	coef []float64
	// z and work are the evaluation's scratch (owned).
	z, work []float64
}

// newLargeObjective returns fn at dimension n ≥ 2 (Rosenbrock) or n ≥ 1
// (the others); a rotated function's rotation is drawn from seed (the
// instance), a plain one ignores it.
func newLargeObjective(fn largeFunction, n int, seed uint64) *largeObjective {
	o := &largeObjective{fn: fn, n: n}
	if fn.rotated {
		o.rot = newBlockRotation(n, seed)
	}
	switch fn.kind {
	case largeEllipsoid, largeDiffPowers:
		o.coef = make([]float64, n)
		for i := range o.coef {
			t := 0.0
			if n > 1 {
				t = float64(i) / float64(n-1)
			}
			if fn.kind == largeEllipsoid {
				o.coef[i] = math.Pow(10, 6*t)
			} else {
				o.coef[i] = 2 + 4*t
			}
		}
	}
	o.z = make([]float64, n)
	o.work = make([]float64, n)
	return o
}

// Clone returns an objective equal to o with scratch buffers of its own,
// for use on another goroutine.
func (o *largeObjective) Clone() *largeObjective {
	c := *o
	c.z = make([]float64, o.n)
	c.work = make([]float64, o.n)
	return &c
}

// Optimum returns the minimizer x_opt (f(x_opt) = 0): the origin, or 1 for
// Rosenbrock (the rotation turns about it).
func (o *largeObjective) Optimum() []float64 {
	x := make([]float64, o.n)
	for i := range x {
		x[i] = o.fn.kind.center()
	}
	return x
}

// Transform sets z to the point at which the unrotated function is
// evaluated: R·(x − c) + c for a rotated function (c the center, 0 or 1),
// x itself otherwise. z must not overlap x or o's scratch.
func (o *largeObjective) Transform(z, x []float64) {
	if o.rot == nil {
		copy(z, x)
		return
	}
	o.rot.apply(z, x, o.work, o.fn.kind.center())
}

// Eval returns f(x); len(x) must be the dimension. It does not allocate.
func (o *largeObjective) Eval(x []float64) float64 {
	if len(x) != o.n {
		panic(fmt.Sprintf("largeObjective.Eval: len(x) = %d, dimension %d", len(x), o.n))
	}
	z := x
	if o.rot != nil {
		o.rot.apply(o.z, x, o.work, o.fn.kind.center())
		z = o.z
	}
	return evalLargeKind(o.fn.kind, z, o.coef)
}

// evalLargeKind evaluates the unrotated function of this kind at z; coef
// are its coefficients (ellipsoid) or exponents (different powers).
func evalLargeKind(k largeKind, z, coef []float64) float64 {
	switch k {
	case largeSphere:
		return kernel.Dot(z, z)
	case largeEllipsoid:
		s := 0.0
		for i, v := range z {
			s += coef[i] * v * v
		}
		return s
	case largeDiscus:
		rest := kernel.Dot(z[1:], z[1:])
		return 1e6*z[0]*z[0] + rest
	case largeCigar:
		rest := kernel.Dot(z[1:], z[1:])
		return z[0]*z[0] + 1e6*rest
	case largeDiffPowers:
		// |v|^e as exp(e·ln|v|): 1.8× faster than math.Pow (measured), and
		// within a few ulps of it for the exponents 2…6 (relative error
		// about |e·ln|v||·2⁻⁵³).
		s := 0.0
		for i, v := range z {
			if v != 0 {
				s += math.Exp(coef[i] * math.Log(math.Abs(v)))
			}
		}
		return s
	case largeRosenbrock:
		s := 0.0
		for i := 0; i+1 < len(z); i++ {
			a := z[i]*z[i] - z[i+1]
			b := z[i] - 1
			s += 100*a*a + b*b
		}
		return s
	}
	panic("evalLargeKind: unknown kind")
}
