package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
)

// largeTestDims are dimensions below, at and above a block, with a last
// block smaller than the others (97, 1001) and none (1000).
var largeTestDims = []int{2, 7, 40, 97, 1000, 1001}

// randomPoint returns a point uniform in [−5, 5]^n.
func randomPoint(n int, r *rand.Rand) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = 10*r.Float64() - 5
	}
	return x
}

func TestLargeFunctionsOptimum(t *testing.T) {
	for _, fn := range largeFunctions {
		for _, n := range largeTestDims {
			o := newLargeObjective(fn, n, 3)
			if f := o.Eval(o.Optimum()); f != 0 {
				t.Errorf("%s n=%d: f(x_opt) = %g, want 0", fn.Short, n, f)
			}
			// Away from the optimum f is positive.
			x := o.Optimum()
			x[n/2] += 0.5
			if f := o.Eval(x); !(f > 0) {
				t.Errorf("%s n=%d: f(x_opt + 0.5·e) = %g, want > 0", fn.Short, n, f)
			}
		}
	}
}

// TestLargeFunctionsValues checks each unrotated function at points whose
// value follows from its definition.
func TestLargeFunctionsValues(t *testing.T) {
	const n = 50
	unit := func(i int, v float64) []float64 {
		x := make([]float64, n)
		x[i] = v
		return x
	}
	ones := make([]float64, n)
	for i := range ones {
		ones[i] = 1
	}
	for _, c := range []struct {
		short string
		x     []float64
		want  float64
	}{
		{"sph", ones, n},
		{"ell", unit(0, 1), 1},
		{"ell", unit(n-1, 1), 1e6},
		{"ell", unit(n-1, 2), 4e6},
		{"dis", unit(0, 1), 1e6},
		{"dis", unit(1, 1), 1},
		{"cig", unit(0, 1), 1},
		{"cig", unit(n-1, 1), 1e6},
		{"dpw", unit(0, 2), 4},
		{"dpw", unit(n-1, 2), 64},
		{"dpw", unit(n-1, -0.5), 1.0 / 64},
		{"ros", make([]float64, n), n - 1},
		{"ros", ones, 0},
	} {
		fn, err := lookupLargeFunction(c.short)
		if err != nil {
			t.Fatal(err)
		}
		got := newLargeObjective(fn, n, 1).Eval(c.x)
		if math.Abs(got-c.want) > 1e-12*math.Abs(c.want) {
			t.Errorf("%s: f = %.17g, want %.17g", c.short, got, c.want)
		}
	}
	// Different powers against math.Pow at a random point.
	fn, _ := lookupLargeFunction("dpw")
	x := randomPoint(n, rand.New(rand.NewPCG(8, 8)))
	want := 0.0
	for i, v := range x {
		want += math.Pow(math.Abs(v), 2+4*float64(i)/(n-1))
	}
	if got := newLargeObjective(fn, n, 1).Eval(x); math.Abs(got-want) > 1e-14*want {
		t.Errorf("dpw: f = %.17g, Σ|x_i|^e_i = %.17g", got, want)
	}
	if _, err := lookupLargeFunction("nope"); err == nil {
		t.Error("lookupLargeFunction accepted an unknown name")
	}
}

func TestBlockRotationBlocksOrthogonal(t *testing.T) {
	for _, n := range largeTestDims {
		r := newBlockRotation(n, 11)
		nb := len(r.blockStart) - 1
		if want := (n + largeBlockSize - 1) / largeBlockSize; nb != want {
			t.Errorf("n=%d: %d blocks, want %d", n, nb, want)
		}
		for b := 0; b < nb; b++ {
			s := r.blockStart[b+1] - r.blockStart[b]
			if s > largeBlockSize || (b < nb-1 && s != min(n, largeBlockSize)) {
				t.Errorf("n=%d: block %d has %d rows", n, b, s)
			}
			q := r.blocks[r.blockOffset[b] : r.blockOffset[b]+s*s]
			worst := 0.0
			for i := 0; i < s; i++ {
				for j := 0; j < s; j++ {
					dot := 0.0 // column i · column j: (BᵀB)_ij
					for k := 0; k < s; k++ {
						dot += q[k*s+i] * q[k*s+j]
					}
					if i == j {
						dot--
					}
					worst = max(worst, math.Abs(dot))
				}
			}
			if worst > 1e-13 {
				t.Errorf("n=%d block %d: max |BᵀB − I| = %.3g", n, b, worst)
			}
		}
		// O(n): at most 40 stored entries per row.
		if len(r.blocks) > largeBlockSize*n {
			t.Errorf("n=%d: %d block entries > 40·n", n, len(r.blocks))
		}
	}
}

func TestTruncatedSwapPermutations(t *testing.T) {
	for _, n := range []int{7, 40, 41, 97, 1000, 12345} {
		r := newBlockRotation(n, 5)
		for which, p := range [][]int{r.perm1, r.perm2} {
			seen := make([]bool, n)
			moved := 0
			for i, v := range p {
				if v < 0 || v >= n || seen[v] {
					t.Fatalf("n=%d perm%d: not a permutation (entry %d = %d)", n, which+1, i, v)
				}
				seen[v] = true
				if v != i {
					moved++
				}
			}
			// COCO: the identity up to one block; above, n swaps move most
			// of the variables.
			if n <= largeBlockSize && moved != 0 {
				t.Errorf("n=%d perm%d: %d entries moved, want the identity", n, which+1, moved)
			}
			if n > 2*largeBlockSize && moved < n/2 {
				t.Errorf("n=%d perm%d: only %d of %d entries moved", n, which+1, moved, n)
			}
		}
		if n > largeBlockSize && fmt.Sprint(r.perm1) == fmt.Sprint(r.perm2) {
			t.Errorf("n=%d: P1 = P2", n)
		}
	}
}

// TestRotatedEqualsPlainAtTransformedPoint checks that a rotated function
// is its plain form at R·(x − c) + c, that this map is an isometry about c
// (so the rotated function keeps the plain one's optimum and values along
// rays), and that it is the product of its dense matrix.
func TestRotatedEqualsPlainAtTransformedPoint(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range largeTestDims {
		for _, fn := range largeFunctions {
			if !fn.rotated {
				continue
			}
			plainFn, _ := lookupLargeFunction(fn.Short[1:])
			rot := newLargeObjective(fn, n, 9)
			plain := newLargeObjective(plainFn, n, 9)
			c := fn.kind.center()
			for trial := 0; trial < 3; trial++ {
				x := randomPoint(n, r)
				z := make([]float64, n)
				rot.Transform(z, x)
				if got, want := rot.Eval(x), plain.Eval(z); got != want {
					t.Errorf("%s n=%d: f_rot(x) = %.17g, f(Rx) = %.17g", fn.Short, n, got, want)
				}
				dx, dz := 0.0, 0.0
				for i := range x {
					dx += (x[i] - c) * (x[i] - c)
					dz += (z[i] - c) * (z[i] - c)
				}
				if math.Abs(dx-dz) > 1e-12*dx {
					t.Errorf("%s n=%d: ‖x − c‖² = %.17g, ‖R(x − c)‖² = %.17g", fn.Short, n, dx, dz)
				}
			}
		}
	}
	// The dense matrix of x ↦ R·x (sphere: c = 0) is orthogonal, and has
	// at most 40 nonzeros a row.
	const n = 97
	fn, _ := lookupLargeFunction("rsph")
	o := newLargeObjective(fn, n, 4)
	cols := make([][]float64, n)
	for j := range cols {
		e := make([]float64, n)
		e[j] = 1
		cols[j] = make([]float64, n)
		o.Transform(cols[j], e)
	}
	for i := 0; i < n; i++ {
		nonzero := 0
		for j := 0; j < n; j++ {
			if cols[j][i] != 0 {
				nonzero++
			}
			dot := 0.0
			for k := 0; k < n; k++ {
				dot += cols[i][k] * cols[j][k]
			}
			if i == j {
				dot--
			}
			if math.Abs(dot) > 1e-13 {
				t.Fatalf("RᵀR − I at (%d,%d) = %.3g", i, j, dot)
			}
		}
		if nonzero > largeBlockSize {
			t.Errorf("row %d of R has %d nonzeros", i, nonzero)
		}
	}
}

func TestLargeObjectiveDeterministic(t *testing.T) {
	x := randomPoint(321, rand.New(rand.NewPCG(3, 3)))
	for _, fn := range largeFunctions {
		a := newLargeObjective(fn, 321, 17).Eval(x)
		b := newLargeObjective(fn, 321, 17).Eval(x)
		c := newLargeObjective(fn, 321, 18).Eval(x)
		if a != b {
			t.Errorf("%s: same seed, %v and %v", fn.Short, a, b)
		}
		if fn.rotated && fn.kind != largeSphere && a == c {
			t.Errorf("%s: seeds 17 and 18 give the same value %v", fn.Short, a)
		}
	}
}

func TestLargeObjectiveAllocs(t *testing.T) {
	x := randomPoint(1000, rand.New(rand.NewPCG(4, 4)))
	for _, fn := range largeFunctions {
		o := newLargeObjective(fn, 1000, 1)
		if a := testing.AllocsPerRun(20, func() { o.Eval(x) }); a != 0 {
			t.Errorf("%s: %v allocations per evaluation", fn.Short, a)
		}
	}
}

// TestLargeObjectiveClones evaluates clones on several goroutines (under
// -race this also checks that they share no scratch).
func TestLargeObjectiveClones(t *testing.T) {
	fn, _ := lookupLargeFunction("rell")
	o := newLargeObjective(fn, 500, 2)
	r := rand.New(rand.NewPCG(5, 5))
	xs := make([][]float64, 40)
	want := make([]float64, len(xs))
	for i := range xs {
		xs[i] = randomPoint(500, r)
		want[i] = o.Eval(xs[i])
	}
	var wg sync.WaitGroup
	got := make([][]float64, 4)
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := o.Clone()
			for _, x := range xs {
				got[g] = append(got[g], c.Eval(x))
			}
		}()
	}
	wg.Wait()
	for g := range got {
		for i := range xs {
			if got[g][i] != want[i] {
				t.Fatalf("goroutine %d point %d: %v, want %v", g, i, got[g][i], want[i])
			}
		}
	}
}

// BenchmarkLargeObjective times one evaluation of the rotated ellipsoid: the
// time per evaluation over n stays flat from 10³ to 10⁵ (O(n): 40 n
// multiply-adds, and the block matrix, 40 n floats, read once).
func BenchmarkLargeObjective(b *testing.B) {
	for _, short := range []string{"ell", "rell", "rros"} {
		for _, n := range []int{1000, 10000, 100000} {
			b.Run(fmt.Sprintf("%s/n=%d", short, n), func(b *testing.B) {
				fn, _ := lookupLargeFunction(short)
				o := newLargeObjective(fn, n, 1)
				x := randomPoint(n, rand.New(rand.NewPCG(1, 1)))
				b.ReportAllocs()
				for b.Loop() {
					o.Eval(x)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/coord")
			})
		}
	}
}
