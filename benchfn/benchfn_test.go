package benchfn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

const u = 0x1p-53 // unit roundoff

// near reports whether got is within rel·max(|want|, 1e-300) of want.
func near(got, want, rel float64) bool {
	if got == want {
		return true
	}
	return math.Abs(got-want) <= rel*math.Max(math.Abs(want), 1e-300)
}

// The expected values below are worked out by hand from the table's formulas,
// not by calling the code.
func TestValues(t *testing.T) {
	x3 := []float64{1, 2, 3}
	x4 := []float64{1, -2, 0.5, 3}
	x2 := []float64{1, 2}
	x1 := []float64{3}
	cases := []struct {
		name string
		f    func([]float64) float64
		x    []float64
		want float64
	}{
		// x = (1, 2, 3): Σx² = 14, Σ_{i≥2} x² = 13.
		{"Sphere", Sphere, x3, 14},
		{"Cigar", Cigar, x3, 1 + 1e6*13},
		{"CigarTablet", CigarTablet, x3, 1 + 1e4*4 + 1e6*9},
		{"Ellipsoid", Ellipsoid, x3, 1 + 1e3*4 + 1e6*9}, // exponents 0, 3, 6
		{"Tablet", Tablet, x3, 1e6*1 + 4 + 9},
		{"TwoAxes", TwoAxes, x3, 1 + 1e6*(4+9)},             // ⌊3/2⌋ = 1
		{"DiffPowers", DiffPowers, x3, 1 + 16 + 729},        // powers 2, 4, 6
		{"Schwefel12Paper", Schwefel12Paper, x3, 0 + 1 + 9}, // 0², 1², (1+2)²
		{"Schwefel12", Schwefel12, x3, 1 + 9 + 36},          // 1², 3², 6²
		{"Rosenbrock", Rosenbrock, x3, (100*1 + 0) + (100*1 + 1)},
		{"ParabolicRidge", ParabolicRidge, x3, -1 + 100*13},
		{"Rastrigin", Rastrigin, x3, 30 + 14 - 30},

		// x = (1, −2, 0.5, 3): Σx² = 14.25, Σ_{i≥2} x² = 13.25.
		{"Sphere", Sphere, x4, 14.25},
		{"Cigar", Cigar, x4, 1 + 1e6*13.25},
		{"CigarTablet", CigarTablet, x4, 1 + 1e4*(4+0.25) + 1e6*9},
		{"Ellipsoid", Ellipsoid, x4, 1 + 1e2*4 + 1e4*0.25 + 1e6*9}, // exponents 0, 2, 4, 6
		{"Tablet", Tablet, x4, 1e6 + 13.25},
		{"TwoAxes", TwoAxes, x4, 1 + 4 + 1e6*(0.25+9)},
		{"DiffPowers", DiffPowers, x4, 1 + math.Pow(2, 2+4.0/3) + math.Pow(0.5, 2+8.0/3) + 729},
		{"Schwefel12Paper", Schwefel12Paper, x4, 0 + 1 + 1 + 0.25}, // partial sums 1, −1, −0.5
		{"Schwefel12", Schwefel12, x4, 1 + 1 + 0.25 + 6.25},        // partial sums 1, −1, −0.5, 2.5
		{"Rosenbrock", Rosenbrock, x4, (100*9 + 0) + (100*12.25 + 9) + (100*7.5625 + 0.25)},
		{"ParabolicRidge", ParabolicRidge, x4, -1 + 100*13.25},

		// n = 2, x = (1, 2).
		{"CigarTablet", CigarTablet, x2, 1 + 1e6*4},
		{"Ellipsoid", Ellipsoid, x2, 1 + 1e6*4},
		{"TwoAxes", TwoAxes, x2, 1 + 1e6*4},
		{"DiffPowers", DiffPowers, x2, 1 + 64},
		{"Schwefel12Paper", Schwefel12Paper, x2, 1},
		{"Rosenbrock", Rosenbrock, x2, 100*1 + 0},

		// n = 1, x = (3): the documented conventions.
		{"Sphere", Sphere, x1, 9},
		{"Cigar", Cigar, x1, 9},
		{"CigarTablet", CigarTablet, x1, 9 + 9e6},
		{"Ellipsoid", Ellipsoid, x1, 9},
		{"Tablet", Tablet, x1, 9e6},
		{"TwoAxes", TwoAxes, x1, 9e6},
		{"DiffPowers", DiffPowers, x1, 9},
		{"Schwefel12Paper", Schwefel12Paper, x1, 0},
		{"Schwefel12", Schwefel12, x1, 9},
		{"Rosenbrock", Rosenbrock, x1, 0},
		{"ParabolicRidge", ParabolicRidge, x1, -3},
		{"Rastrigin", Rastrigin, x1, 10 + 9 - 10},
	}
	for _, c := range cases {
		got := c.f(c.x)
		// Rastrigin's cos(2πk) is 1 only to within rounding of 2πk.
		if !near(got, c.want, 1e-13) && !(c.name == "Rastrigin" && math.Abs(got-c.want) < 1e-12) {
			t.Errorf("%s(%v) = %.17g, want %.17g", c.name, c.x, got, c.want)
		}
	}
}

func TestOptimum(t *testing.T) {
	for _, f := range append(All(), extraFuncs(t)...) {
		for n := 0; n <= 12; n++ {
			x := make([]float64, n)
			if f.Short == "ros" {
				for i := range x {
					x[i] = 1
				}
			}
			if got := f.F(x); got != 0 {
				t.Errorf("%s at its optimum, n=%d: %g, want 0", f.Name, n, got)
			}
		}
	}
	// The paper's Sch ignores x_n.
	if got := Schwefel12Paper([]float64{0, 0, 5}); got != 0 {
		t.Errorf("Schwefel12Paper(0, 0, 5) = %g, want 0", got)
	}
	// Rosenbrock's local minimum for n = 4 (Shang & Qiu 2006) is near
	// (−0.776, 0.613, 0.382, 0.146) with f ≈ 3.70.
	if got := Rosenbrock([]float64{-0.7756592, 0.6130934, 0.3820628, 0.1459720}); math.Abs(got-3.7015) > 1e-3 {
		t.Errorf("Rosenbrock at its n=4 local minimum = %g, want about 3.7015", got)
	}
}

func extraFuncs(t *testing.T) []Function {
	var fs []Function
	for _, s := range []string{"sch12", "rastrigin"} {
		f, ok := ByName(s)
		if !ok {
			t.Fatalf("ByName(%q) not found", s)
		}
		fs = append(fs, f)
	}
	return fs
}

func TestRegistry(t *testing.T) {
	all := All()
	want := []struct {
		short  string
		target float64
	}{
		{"sp", 1e-10}, {"cig", 1e-10}, {"ctb", 1e-10}, {"ell", 1e-10}, {"tab", 1e-10},
		{"tx", 1e-10}, {"dp", 1e-10}, {"sch", 1e-10}, {"ros", 1e-10}, {"pr", -1e10},
	}
	if len(all) != len(want) {
		t.Fatalf("All() has %d functions, want %d", len(all), len(want))
	}
	x := []float64{0.3, -1.2, 2.5, 0.7, -0.1}
	for i, w := range want {
		f := all[i]
		if f.Short != w.short || f.Target != w.target || f.Name == "" || f.F == nil {
			t.Errorf("All()[%d] = {%q %q %g}, want short %q target %g", i, f.Name, f.Short, f.Target, w.short, w.target)
		}
		g, ok := ByName(w.short)
		if !ok || g.Name != f.Name || g.F(x) != f.F(x) {
			t.Errorf("ByName(%q) = %q, %v", w.short, g.Name, ok)
		}
	}
	if g, ok := ByName("ELL"); !ok || g.Name != "Ellipsoid" {
		t.Errorf("ByName(\"ELL\") = %q, %v; want Ellipsoid", g.Name, ok)
	}
	if f, ok := ByName("sch12"); !ok || f.F(x) != Schwefel12(x) {
		t.Error("ByName(\"sch12\") is not Schwefel12")
	}
	if f, ok := ByName("rastrigin"); !ok || f.F(x) != Rastrigin(x) {
		t.Error("ByName(\"rastrigin\") is not Rastrigin")
	}
	if _, ok := ByName("nope"); ok {
		t.Error("ByName(\"nope\") found a function")
	}
	// All returns a fresh slice.
	all[0].Name = "changed"
	if All()[0].Name != "Sphere" {
		t.Error("modifying All()'s result changed the registry")
	}
}

func TestRotationOrthogonal(t *testing.T) {
	for _, n := range []int{1, 2, 3, 5, 8, 16, 33, 64, 100} {
		for seed := uint64(0); seed < 3; seed++ {
			r := Rotation(n, seed)
			if len(r) != n*n {
				t.Fatalf("n=%d: len %d", n, len(r))
			}
			bound := 10 * float64(n) * u
			worst := 0.0
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					var rrt, rtr float64 // (R·Rᵀ)_ij and (Rᵀ·R)_ij
					for k := 0; k < n; k++ {
						rrt += r[i*n+k] * r[j*n+k]
						rtr += r[k*n+i] * r[k*n+j]
					}
					if i == j {
						rrt--
						rtr--
					}
					worst = math.Max(worst, math.Max(math.Abs(rrt), math.Abs(rtr)))
				}
			}
			if worst > bound {
				t.Errorf("n=%d seed=%d: max |RRᵀ−I|, |RᵀR−I| = %.3g > %.3g", n, seed, worst, bound)
			}
		}
	}
	if len(Rotation(0, 1)) != 0 {
		t.Error("Rotation(0) is not empty")
	}
}

func TestRotationDeterministic(t *testing.T) {
	a, b, c := Rotation(7, 42), Rotation(7, 42), Rotation(7, 43)
	same := true
	for i := range a {
		if a[i] != b[i] {
			t.Fatal("same seed gave different matrices")
		}
		if a[i] != c[i] {
			same = false
		}
	}
	if same {
		t.Error("different seeds gave the same matrix")
	}
}

func TestRotatedSphere(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 5, 16, 50} {
		r := Rotation(n, uint64(n))
		g := Rotated(Sphere, r, n)
		x := make([]float64, n)
		for trial := 0; trial < 20; trial++ {
			for i := range x {
				x[i] = 10 * rng.NormFloat64()
			}
			got, want := g(x), Sphere(x)
			// ‖Rx‖² = ‖x‖²: the product and the orthogonality error are
			// each a few n·u relative.
			if !near(got, want, 40*float64(n)*u) {
				t.Errorf("n=%d: Sphere(Rx) = %.17g, Sphere(x) = %.17g", n, got, want)
			}
		}
		if got := Rotated(Ellipsoid, r, n)(make([]float64, n)); got != 0 {
			t.Errorf("n=%d: rotated Ellipsoid at 0 = %g", n, got)
		}
	}
}

func TestRotatedIdentity(t *testing.T) {
	const n = 6
	id := make([]float64, n*n)
	for i := 0; i < n; i++ {
		id[i*n+i] = 1
	}
	x := []float64{1, -2, 3, 0.5, -0.25, 4}
	for _, f := range All() {
		g := Rotated(f.F, id, n)
		id[0] = 7 // Rotated copied the matrix: this must not matter.
		if got, want := g(x), f.F(x); got != want {
			t.Errorf("%s with R = I: %g, want %g", f.Name, got, want)
		}
		id[0] = 1
	}
}

func TestRotatedPanics(t *testing.T) {
	mustPanic := func(name string, fn func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s did not panic", name)
			}
		}()
		fn()
	}
	mustPanic("Rotated with a short matrix", func() { Rotated(Sphere, make([]float64, 3), 2) })
	g := Rotated(Sphere, Rotation(3, 1), 3)
	mustPanic("rotated function with the wrong length", func() { g(make([]float64, 2)) })
	mustPanic("Rotation(-1)", func() { Rotation(-1, 0) })
	// Sizes whose n·n overflows (wraps to 0, or not): the stated panic,
	// before any allocation (n·n wrapped to 0 passed the length check, and
	// a buffer of n was allocated: 32 GiB at 2³²).
	for _, n := range []int{1 << (strconv.IntSize / 2), int(math.Sqrt(math.MaxInt)) + 1} {
		for name, fn := range map[string]func(){
			"Rotation": func() { Rotation(n, 1) },
			"Rotated":  func() { Rotated(Sphere, nil, n) },
		} {
			func() {
				defer func() {
					if r := recover(); r == nil || !strings.HasPrefix(fmt.Sprint(r), "benchfn: ") {
						t.Errorf("%s at n = %d: panic %v, want the package's", name, n, r)
					}
				}()
				fn()
			}()
		}
	}
}

func TestNoAllocs(t *testing.T) {
	const n = 16
	x := make([]float64, n)
	for i := range x {
		x[i] = float64(i) - 7.5
	}
	var sink float64
	for _, f := range append(All(), extraFuncs(t)...) {
		if a := testing.AllocsPerRun(100, func() { sink += f.F(x) }); a != 0 {
			t.Errorf("%s: %v allocs per call", f.Name, a)
		}
		g := Rotated(f.F, Rotation(n, 3), n)
		if a := testing.AllocsPerRun(100, func() { sink += g(x) }); a != 0 {
			t.Errorf("rotated %s: %v allocs per call", f.Name, a)
		}
	}
	_ = sink
}

func BenchmarkFunctions(b *testing.B) {
	const n = 64
	x := make([]float64, n)
	for i := range x {
		x[i] = float64(i)/10 - 3
	}
	r := Rotation(n, 1)
	for _, f := range All() {
		b.Run(f.Short, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				f.F(x)
			}
		})
	}
	b.Run("rotated-ell", func(b *testing.B) {
		g := Rotated(Ellipsoid, r, n)
		b.ReportAllocs()
		for b.Loop() {
			g(x)
		}
	})
}

// TestEllipsoidWeights checks the multiplied weights against math.Pow.
func TestEllipsoidWeights(t *testing.T) {
	for _, n := range []int{2, 3, 7, 32, 100, 1000} {
		x := make([]float64, n)
		for i := range x {
			x[i] = 1
			want := math.Pow(10, 6*float64(i)/float64(n-1))
			if got := Ellipsoid(x); !near(got, want, float64(n)*u) {
				t.Errorf("n=%d: weight %d = %.17g, want %.17g", n, i+1, got, want)
			}
			x[i] = 0
		}
	}
}
