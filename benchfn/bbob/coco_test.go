package bbob

import (
	"bufio"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// cocoTolerance is the largest relative difference from COCO's C core
// allowed for function f: 1e-12, but where cosines of large arguments turn
// the last-bit differences of the math libraries (Go's log, cos and pow
// against glibc's, in the rotations and the oscillations) into larger ones:
// Weierstrass (f16, frequencies up to 3¹¹) and Katsuura (f23, up to 2³²),
// and Griewank-Rosenbrock (f19, cos of Rosenbrock terms up to 10⁵ away
// from the optimum). The difference is taken relative to max(|f − f_opt|,
// |f_opt|, 1).
func cocoTolerance(f int) float64 {
	switch f {
	case 16, 23:
		return 1e-9
	case 19:
		return 1e-8
	}
	return 2e-12
}

// TestAgainstCOCO compares Eval and FOpt with COCO's own C core, when a
// program that evaluates it is given: MMAES_COCO_EVAL names an executable
// that reads lines "function dim instance x_1 … x_dim" and prints "f(x)
// f_opt" with 17 significant digits (docs/bbob.md says how to build one from
// COCO's sources; they are not part of this repository). Every function,
// the dimensions 2, 3, 5, 10, 20, 40, instances 1–15 and a few of later
// years, points uniform in [−5, 5]^n, near the optimum and outside the box.
func TestAgainstCOCO(t *testing.T) {
	exe := os.Getenv("MMAES_COCO_EVAL")
	if exe == "" {
		t.Skip("set MMAES_COCO_EVAL to a COCO evaluator to compare with COCO's C core")
	}
	type query struct {
		p *Problem
		x []float64
	}
	var qs []query
	rng := rand.New(rand.NewPCG(7, 11))
	instances := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 71, 80, 101, 110}
	for f := 1; f <= 24; f++ {
		for _, n := range []int{2, 3, 5, 10, 20, 40} {
			for _, inst := range instances {
				p, err := New(f, n, inst)
				if err != nil {
					t.Fatal(err)
				}
				for k := 0; k < 6; k++ {
					x := make([]float64, n)
					for i := range x {
						switch k {
						case 0:
							x[i] = p.XOpt[i]
						case 1, 2:
							x[i] = p.XOpt[i] + 1e-3*rng.NormFloat64()
						case 5:
							x[i] = 14*rng.Float64() - 7
						default:
							x[i] = 10*rng.Float64() - 5
						}
					}
					qs = append(qs, query{p, x})
				}
			}
		}
	}
	cmd := exec.Command(exe)
	var in strings.Builder
	for _, q := range qs {
		fmt.Fprintf(&in, "%d %d %d", q.p.Function, q.p.Dim, q.p.Instance)
		for _, xi := range q.x {
			fmt.Fprintf(&in, " %.17g", xi)
		}
		in.WriteByte('\n')
	}
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	worst, worstF := 0.0, ""
	bad := 0
	perF := map[int]float64{}
	for i := 0; sc.Scan(); i++ {
		fs := strings.Fields(sc.Text())
		want, _ := strconv.ParseFloat(fs[0], 64)
		wantOpt, _ := strconv.ParseFloat(fs[1], 64)
		q := qs[i]
		got := q.p.Eval(q.x)
		// Relative to the value's distance to f_opt, the quantity an
		// optimizer sees, and to f_opt's magnitude.
		scale := math.Max(math.Abs(want-wantOpt), math.Max(1, math.Abs(wantOpt)))
		rel := math.Abs(got-want) / scale
		if math.IsNaN(rel) && !(math.IsNaN(got) && math.IsNaN(want)) {
			rel = math.Inf(1)
		}
		perF[q.p.Function] = max(perF[q.p.Function], rel)
		if rel > worst {
			worst, worstF = rel, fmt.Sprintf("f%d n=%d i%d: %v, COCO %v", q.p.Function, q.p.Dim, q.p.Instance, got, want)
		}
		if rel > cocoTolerance(q.p.Function) || math.Abs(q.p.FOpt-wantOpt) > 1e-14*math.Max(1, math.Abs(wantOpt)) {
			bad++
			if bad <= 10 {
				t.Errorf("f%d n=%d i%d x=%v: %.17g (f_opt %.17g), COCO %.17g (%.17g)", q.p.Function, q.p.Dim, q.p.Instance, q.x, got, q.p.FOpt, want, wantOpt)
			}
		}
	}
	t.Logf("%d points; largest relative difference %.3g (%s)", len(qs), worst, worstF)
	for f := 1; f <= 24; f++ {
		t.Logf("f%d: %.2g", f, perF[f])
	}
}
