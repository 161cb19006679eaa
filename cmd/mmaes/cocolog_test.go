package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mmaes-go/mmaes/benchfn/bbob"
)

// cocoSequence is a deterministic sequence of evaluations on a problem, as
// an optimizer makes them: a random walk that closes in on the optimum,
// with restarts, so that every trigger of the logger fires.
func cocoSequence(p *bbob.Problem, evals int, seed uint64) (xs [][]float64, restarts map[int]bool) {
	rng := rand.New(rand.NewPCG(seed, 99))
	restarts = map[int]bool{}
	x := make([]float64, p.Dim)
	for i := range x {
		x[i] = 8*rng.Float64() - 4
	}
	for e := 0; e < evals; e++ {
		if e > 0 && e%(evals/3) == 0 {
			restarts[e] = true
		}
		s := math.Pow(0.97, float64(e%(evals/3)))
		y := make([]float64, p.Dim)
		for i := range y {
			y[i] = p.XOpt[i] + (x[i]-p.XOpt[i])*s + 0.01*s*rng.NormFloat64()
		}
		if e%7 == 3 {
			y[0] = math.NaN()
		}
		xs = append(xs, y)
	}
	return xs, restarts
}

// TestCocoLogger compares the files the Go logger writes with those of
// COCO's own C logger for the same evaluations, when MMAES_COCO_LOGGER names
// a program that drives COCO's bbob observer (reading "P f dim instance",
// "X x…", "R" for a restart and "E"; docs/bbob.md says how to build one).
// Without it, it compares with testdata/coco-logger, which that program
// wrote.
func TestCocoLogger(t *testing.T) {
	problems := [][3]int{{1, 2, 1}, {1, 2, 2}, {8, 5, 3}, {21, 10, 1}, {24, 3, 7}}
	var runs []cocoResult
	var in strings.Builder
	for k, pr := range problems {
		p, err := bbob.New(pr[0], pr[1], pr[2])
		if err != nil {
			t.Fatal(err)
		}
		xs, restarts := cocoSequence(p, 600, uint64(k+1))
		r := newCocoRun(p.Dim, p.FOpt)
		fmt.Fprintf(&in, "P %d %d %d\n", pr[0], pr[1], pr[2])
		for e, x := range xs {
			if restarts[e] {
				r.restart()
				in.WriteString("R\n")
			}
			r.evaluated(x, p.Eval(x))
			in.WriteString("X")
			for _, xi := range x {
				fmt.Fprintf(&in, " %.17g", xi)
			}
			in.WriteString("\n")
		}
		in.WriteString("E\n")
		r.finish()
		runs = append(runs, cocoResult{pr[0], pr[1], pr[2], r})
	}
	got := t.TempDir()
	if err := writeCoco(got, "mmaes", "test", runs); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join("testdata", "coco-logger")
	if exe := os.Getenv("MMAES_COCO_LOGGER"); exe != "" {
		outer := t.TempDir()
		want = filepath.Join(outer, "coco")
		cmd := osexec.Command(exe, outer)
		cmd.Dir = outer // COCO makes an exdata folder in the working directory
		cmd.Stdin = strings.NewReader(in.String())
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		if dst := os.Getenv("MMAES_WRITE_COCO_LOGGER"); dst != "" {
			os.RemoveAll(dst)
			if err := os.CopyFS(dst, os.DirFS(want)); err != nil {
				t.Fatal(err)
			}
		}
	}
	compared := 0
	err := filepath.WalkDir(want, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(want, path)
		wb, _ := os.ReadFile(path)
		gb, err := os.ReadFile(filepath.Join(got, rel))
		if err != nil {
			t.Errorf("%s: not written", rel)
			return nil
		}
		if string(wb) != string(gb) {
			wl, gl := strings.Split(string(wb), "\n"), strings.Split(string(gb), "\n")
			for i := 0; i < max(len(wl), len(gl)); i++ {
				var a, b string
				if i < len(wl) {
					a = wl[i]
				}
				if i < len(gl) {
					b = gl[i]
				}
				if a != b {
					t.Errorf("%s line %d:\nCOCO: %s\nGo:   %s", rel, i+1, a, b)
					break
				}
			}
		}
		compared++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if compared < 5*4 {
		t.Fatalf("compared %d files", compared)
	}
}
