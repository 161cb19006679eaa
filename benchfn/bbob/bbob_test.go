package bbob

import (
	"bufio"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// dims and instances of the tests.
var (
	testDims      = []int{2, 3, 5, 10, 20, 40}
	testInstances = []int{1, 2, 15, 101}
)

// fixturePoints returns the points of the fixture for p: near the
// optimum, uniform in [−5, 5]^n, and in [−7, 7]^n (outside the box).
func fixturePoints(p *Problem) [][]float64 {
	rng := rand.New(rand.NewPCG(uint64(p.Function), uint64(p.Dim*1000+p.Instance)))
	pts := make([][]float64, 3)
	for k := range pts {
		x := make([]float64, p.Dim)
		for i := range x {
			switch k {
			case 0:
				x[i] = p.XOpt[i] + 0.01*rng.NormFloat64()
			case 1:
				x[i] = 10*rng.Float64() - 5
			default:
				x[i] = 14*rng.Float64() - 7
			}
		}
		pts[k] = x
	}
	return pts
}

// TestCOCOValues compares Eval and FOpt with values COCO's C core (version
// 2.8.2, numbbo/coco-experiment e6356d2e) computed at the fixture's points,
// stored in testdata/coco-values.txt: every function, the dimensions 2 to
// 40 and instances 1, 2, 15, 101. MMAES_COCO_EVAL and MMAES_WRITE_COCO set
// (a COCO evaluator, see TestAgainstCOCO; the file to write) record the
// values anew.
func TestCOCOValues(t *testing.T) {
	path := filepath.Join("testdata", "coco-values.txt")
	if out := os.Getenv("MMAES_WRITE_COCO"); out != "" {
		writeCOCOValues(t, out)
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	lines := 0
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 6 || strings.HasPrefix(fs[0], "#") {
			continue
		}
		var fn, n, inst, k int
		fmt.Sscan(fs[0], &fn)
		fmt.Sscan(fs[1], &n)
		fmt.Sscan(fs[2], &inst)
		fmt.Sscan(fs[3], &k)
		want, _ := strconv.ParseFloat(fs[4], 64)
		wantOpt, _ := strconv.ParseFloat(fs[5], 64)
		p, err := New(fn, n, inst)
		if err != nil {
			t.Fatal(err)
		}
		got := p.Eval(fixturePoints(p)[k])
		scale := math.Max(math.Abs(want-wantOpt), math.Max(1, math.Abs(wantOpt)))
		if d := math.Abs(got-want) / scale; !(d <= cocoTolerance(fn)) {
			t.Errorf("f%d n=%d i%d point %d: %.17g, COCO %.17g (relative %.2g)", fn, n, inst, k, got, want, d)
		}
		if math.Abs(p.FOpt-wantOpt) > 1e-14*math.Max(1, math.Abs(wantOpt)) {
			t.Errorf("f%d n=%d i%d: FOpt %.17g, COCO %.17g", fn, n, inst, p.FOpt, wantOpt)
		}
		lines++
	}
	if want := 24 * len(testDims) * len(testInstances) * 3; lines != want {
		t.Fatalf("%d values in %s, want %d", lines, path, want)
	}
}

func writeCOCOValues(t *testing.T, out string) {
	exe := os.Getenv("MMAES_COCO_EVAL")
	if exe == "" {
		t.Fatal("MMAES_WRITE_COCO needs MMAES_COCO_EVAL")
	}
	var in strings.Builder
	var keys []string
	for fn := 1; fn <= 24; fn++ {
		for _, n := range testDims {
			for _, inst := range testInstances {
				p, _ := New(fn, n, inst)
				for k, x := range fixturePoints(p) {
					fmt.Fprintf(&in, "%d %d %d", fn, n, inst)
					for _, xi := range x {
						fmt.Fprintf(&in, " %.17g", xi)
					}
					in.WriteByte('\n')
					keys = append(keys, fmt.Sprintf("%d %d %d %d", fn, n, inst, k))
				}
			}
		}
	}
	cmd := exec.Command(exe)
	cmd.Stdin = strings.NewReader(in.String())
	res, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("# function dim instance point f(x) f_opt, computed by COCO 2.8.2's C core (numbbo/coco-experiment e6356d2e)\n")
	for i, line := range strings.Split(strings.TrimSpace(string(res)), "\n") {
		fmt.Fprintf(&b, "%s %s\n", keys[i], line)
	}
	if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestInstanceOneFOpt: f_opt of instance 1 of every function, as COCO's
// data files state them (the .info files of any bbob experiment).
func TestInstanceOneFOpt(t *testing.T) {
	want := [25]float64{0, 79.48, -209.88, -462.09, -462.09, -9.21, 35.90, 92.94, 149.15, 123.83, -54.94,
		76.27, -621.11, 29.97, -52.35, 1000, 71.35, -16.94, -16.94, -102.55, -546.50, 40.78, -1000, 6.87, 102.61}
	for f := 1; f <= 24; f++ {
		for _, n := range testDims {
			p, err := New(f, n, 1)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(p.FOpt-want[f]) > 1e-9 {
				t.Errorf("f%d n=%d: FOpt %v, want %v", f, n, p.FOpt, want[f])
			}
		}
	}
}

// TestOptimum: for every function, dimension and instances 1–15, XOpt lies
// in [−5, 5]^n (in [−4, 4]^n but for f5, whose optimum is a corner, f8 and
// f9), f(XOpt) = FOpt, and no point drawn in the box, near the optimum or
// outside is below it.
func TestOptimum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for f := 1; f <= 24; f++ {
		for _, n := range testDims {
			for inst := 1; inst <= 15; inst++ {
				p, err := New(f, n, inst)
				if err != nil {
					t.Fatal(err)
				}
				lim := 4.0
				if f == 5 {
					lim = 5
				}
				for _, x := range p.XOpt {
					if !(math.Abs(x) <= lim) {
						t.Fatalf("f%d n=%d i%d: XOpt %v outside [−%g, %g]", f, n, inst, p.XOpt, lim, lim)
					}
				}
				tol := 1e-12 * math.Max(1, math.Abs(p.FOpt))
				if v := p.Eval(p.XOpt); math.Abs(v-p.FOpt) > tol {
					t.Errorf("f%d n=%d i%d: f(XOpt) = %.17g, FOpt %.17g", f, n, inst, v, p.FOpt)
				}
				x := make([]float64, n)
				for k := 0; k < 30; k++ {
					for i := range x {
						switch k % 3 {
						case 0:
							x[i] = 10*rng.Float64() - 5
						case 1:
							x[i] = p.XOpt[i] + 1e-4*rng.NormFloat64()
						default:
							x[i] = 20*rng.Float64() - 10
						}
					}
					if v := p.Eval(x); v < p.FOpt-tol {
						t.Errorf("f%d n=%d i%d: f(%v) = %v below FOpt %v", f, n, inst, x, v, p.FOpt)
					}
				}
			}
		}
	}
}

// TestDefinitions checks functions against their written definitions,
// computed here independently of the package's transformations: f1 is
// ‖x − x_opt‖² + f_opt; f5 at the origin is Σ 5·10^((i−1)/(n−1)) + f_opt;
// f8 is the Rosenbrock function of z = max(1, √n/8)(x − x_opt) + 1; the
// separable functions change with one coordinate only; f_opt is a
// multiple of 0.01 in [−1000, 1000]; the rotations are orthogonal.
func TestDefinitions(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range testDims {
		for inst := 1; inst <= 5; inst++ {
			p1, _ := New(1, n, inst)
			p5, _ := New(5, n, inst)
			p8, _ := New(8, n, inst)
			x := make([]float64, n)
			for i := range x {
				x[i] = 10*rng.Float64() - 5
			}
			want := p1.FOpt
			for i := range x {
				want += (x[i] - p1.XOpt[i]) * (x[i] - p1.XOpt[i])
			}
			if got := p1.Eval(x); math.Abs(got-want) > 1e-13*math.Abs(want) {
				t.Errorf("f1 n=%d: %v, want %v", n, got, want)
			}
			want = p5.FOpt
			for i := 0; i < n; i++ {
				want += 5 * math.Pow(10, float64(i)/float64(n-1))
			}
			if got := p5.Eval(make([]float64, n)); math.Abs(got-want) > 1e-12*math.Abs(want) {
				t.Errorf("f5 n=%d at 0: %v, want %v", n, got, want)
			}
			fac := math.Max(1, math.Sqrt(float64(n))/8)
			r := 0.0
			for i := 0; i+1 < n; i++ {
				zi := fac*(x[i]-p8.XOpt[i]) + 1
				zj := fac*(x[i+1]-p8.XOpt[i+1]) + 1
				r += 100*(zi*zi-zj)*(zi*zi-zj) + (zi-1)*(zi-1)
			}
			if got := p8.Eval(x); math.Abs(got-(r+p8.FOpt)) > 1e-12*math.Abs(r+p8.FOpt) {
				t.Errorf("f8 n=%d: %v, want %v", n, got, r+p8.FOpt)
			}
			// Separable functions: changing x_j twice in a row, the two
			// changes of f add up (no coordinate interacts with another).
			for _, f := range []int{1, 2, 3, 4, 5} {
				p, _ := New(f, n, inst)
				j, k := 0, n-1
				a, b := append([]float64(nil), x...), append([]float64(nil), x...)
				a[j] += 0.3
				b[k] -= 0.2
				ab := append([]float64(nil), a...)
				ab[k] -= 0.2
				d := (p.Eval(ab) - p.Eval(b)) - (p.Eval(a) - p.Eval(x))
				if math.Abs(d) > 1e-9*math.Max(1, math.Abs(p.Eval(x))) {
					t.Errorf("f%d n=%d: not separable (%g)", f, n, d)
				}
			}
		}
	}
	for f := 1; f <= 24; f++ {
		for inst := 1; inst <= 50; inst++ {
			v := fopt(f, inst)
			if v < -1000 || v > 1000 || math.Abs(v*100-math.Round(v*100)) > 1e-6 {
				t.Errorf("f_opt(f%d, %d) = %v", f, inst, v)
			}
		}
	}
	for _, n := range testDims {
		r := rotation(n, 12345)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				s := 0.0
				for k := 0; k < n; k++ {
					s += r[i*n+k] * r[j*n+k]
				}
				if want := float64(btoi(i == j)); math.Abs(s-want) > 1e-13 {
					t.Fatalf("rotation n=%d: (R·Rᵀ)[%d][%d] = %v", n, i, j, s)
				}
			}
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestEvalNoAllocsConcurrent: Eval allocates nothing and gives the same
// values from many goroutines at once (run with -race).
func TestEvalNoAllocsConcurrent(t *testing.T) {
	for f := 1; f <= 24; f++ {
		p, _ := New(f, 10, 3)
		x := make([]float64, 10)
		for i := range x {
			x[i] = float64(i) - 4.5
		}
		want := p.Eval(x)
		if a := testing.AllocsPerRun(50, func() { p.Eval(x) }); a != 0 {
			t.Errorf("f%d: %v allocations per Eval", f, a)
		}
		var wg sync.WaitGroup
		for g := 0; g < 4; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := 0; k < 100; k++ {
					if v := p.Eval(x); v != want {
						t.Errorf("f%d: %v from a goroutine, %v", f, v, want)
						return
					}
				}
			}()
		}
		wg.Wait()
	}
}

// TestNewErrors: bad functions, dimensions and instances are errors.
func TestNewErrors(t *testing.T) {
	for _, c := range [][3]int{{0, 2, 1}, {25, 2, 1}, {1, 1, 1}, {1, MaxDim + 1, 1}, {1, 2, 0}, {1, 2, -3}} {
		if _, err := New(c[0], c[1], c[2]); err == nil {
			t.Errorf("New%v: no error", c)
		}
	}
}
