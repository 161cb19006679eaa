package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBBOBRuns runs a small suite twice, on one and on two workers, and
// checks the outputs: the same summary and COCO files (each problem is
// deterministic), an .info file per function listing every run, a summary
// with a row per dimension and an ECDF plot.
func TestBBOBRuns(t *testing.T) {
	outs := []string{filepath.Join(t.TempDir(), "w1"), filepath.Join(t.TempDir(), "w2")}
	for k, out := range outs {
		code, stdout, stderr := exec("bbob", "-q", "-f", "1,8", "-dims", "2,3", "-instances", "1-2",
			"-config", "default,recommended", "-budget", "300", "-workers", []string{"1", "2"}[k], "-out", out)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if !strings.Contains(stdout, "16 runs") {
			t.Errorf("stdout: %s", stdout)
		}
	}
	read := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, rel := range []string{"summary.md", "mmaes-default/bbobexp_f1.info", "mmaes-recommended/bbobexp_f8.info",
		"mmaes-default/data_f8/bbobexp_f8_DIM3.dat", "mmaes-recommended/data_f1/bbobexp_f1_DIM2.tdat"} {
		if a, b := read(filepath.Join(outs[0], rel)), read(filepath.Join(outs[1], rel)); a != b {
			t.Errorf("%s differs between one and two workers", rel)
		}
	}
	info := read(filepath.Join(outs[0], "mmaes-default", "bbobexp_f1.info"))
	for _, want := range []string{"funcId = 1, DIM = 2", "funcId = 1, DIM = 3", "data_f1/bbobexp_f1_DIM2.dat, 1:", ", 2:"} {
		if !strings.Contains(info, want) {
			t.Errorf(".info lacks %q:\n%s", want, info)
		}
	}
	summary := read(filepath.Join(outs[0], "summary.md"))
	for _, want := range []string{"| 2 | ", "| 3 | ", "## 2-D: ERT", "## 3-D: ERT", "| f1 | ", "| f8 | "} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, summary)
		}
	}
	if strings.Contains(summary, "pycma") {
		t.Errorf("the summary compares with pycma under other settings than the reference's:\n%s", summary)
	}
	checkPNG(t, filepath.Join(outs[0], "ecdf.png"))
}

func TestBBOBBadCommandLines(t *testing.T) {
	for _, args := range [][]string{
		{"bbob", "-f", "0"}, {"bbob", "-f", "25"}, {"bbob", "-f", "3-1"}, {"bbob", "-f", "a"},
		{"bbob", "-dims", "1"}, {"bbob", "-dims", "41"}, {"bbob", "-instances", "0"},
		{"bbob", "-config", "best"}, {"bbob", "-budget", "0"}, {"bbob", "-sigma0", "-1"},
		{"bbob", "-target", "0"}, {"bbob", "-workers", "0"}, {"bbob", "stray"},
		{"bbob", "-config", "recommended-no-speed"}, {"bbob", "-pycma", "/nonexistent/runs.txt"},
		{"bbob", "-budget", "1e300"}, {"bbob", "-budget", "Inf"}, {"bbob", "-sigma0", "Inf"},
		{"bbob", "-workers", "100000000000"},
	} {
		if code, _, stderr := exec(args...); code != 2 || !strings.Contains(stderr, "mmaes") {
			t.Errorf("%q: exit %d, want 2; stderr:\n%s", args, code, stderr)
		}
	}
}

// TestERT checks the expected running time against values by hand.
func TestERT(t *testing.T) {
	runs := []bbobRun{{hit: 100, evals: 100}, {evals: 400}, {hit: 200, evals: 200}}
	if ert, solved := ertOf(runs); ert != 350 || solved != 2 {
		t.Errorf("ERT %g solved %d, want 350 and 2", ert, solved)
	}
	if ert, solved := ertOf(runs[1:2]); !math.IsInf(ert, 1) || solved != 0 {
		t.Errorf("nothing solved: ERT %g solved %d, want +Inf and 0", ert, solved)
	}
	for _, c := range []struct {
		ert        float64
		solved, of int
		want       string
	}{{350, 2, 3, "350 (2/3)"}, {1234.4, 5, 5, "1234"}, {245000, 1, 5, "2.45e+05 (1/5)"}, {math.Inf(1), 0, 5, "∞"}} {
		if got := fmtERT(c.ert, c.solved, c.of); got != c.want {
			t.Errorf("fmtERT(%g, %d, %d) = %q, want %q", c.ert, c.solved, c.of, got, c.want)
		}
	}
}

// TestECDF checks the ECDF of two runs of 51 targets each.
func TestECDF(t *testing.T) {
	a := bbobRun{config: "c", n: 2, targetHits: make([]int, 51)}
	b := bbobRun{config: "c", n: 2, targetHits: make([]int, 51)}
	for k := range 51 {
		a.targetHits[k] = 2 * (k + 1) // target k at k+1 evaluations per dimension
	}
	b.targetHits[0] = 20 // one target, at 10 per dimension
	other := bbobRun{config: "d", n: 2, targetHits: []int{2}}
	got := ecdf([]bbobRun{a, b, other}, "c", 2, []float64{0.5, 1, 10, 51, 1000})
	want := []float64{0, 1.0 / 102, 11.0 / 102, 52.0 / 102, 52.0 / 102}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-15 {
			t.Errorf("ECDF at %d: %g, want %g", i, got[i], want[i])
		}
	}
}

// TestPycmaReference checks the embedded reference against the totals of
// its source's solved-fraction table (107, 96, 83 and 74 of 120 for BIPOP,
// 68, 59, 54 and 49 for the default).
func TestPycmaReference(t *testing.T) {
	ref := pycmaReference()
	if len(ref) != 96 {
		t.Fatalf("%d entries, want 96", len(ref))
	}
	want := map[int][2]int{2: {107, 68}, 5: {96, 59}, 10: {83, 54}, 20: {74, 49}}
	for n, w := range want {
		var b, d int
		for f := 1; f <= 24; f++ {
			r := ref[[2]int{n, f}]
			b += r.bipopSolved
			d += r.defaultSolved
			if (r.bipopSolved == 0) != math.IsInf(r.bipopERT, 1) {
				t.Errorf("%d-D f%d: ERT %g with %d solved", n, f, r.bipopERT, r.bipopSolved)
			}
		}
		if b != w[0] || d != w[1] {
			t.Errorf("%d-D: solved %d and %d, want %d and %d", n, b, d, w[0], w[1])
		}
	}
	if r := ref[[2]int{5, 15}]; r.bipopERT != 31042 || r.bipopSolved != 5 {
		t.Errorf("5-D f15: %+v", r)
	}
}

// TestSummaryRatio checks the comparison with pycma of a summary under the
// reference's settings: runs at exactly twice pycma's ERT on f1 in 2-D.
func TestSummaryRatio(t *testing.T) {
	o := &bbobOpts{configs: []string{"x"}, funcs: []int{1}, dims: []int{2}, instances: []int{1, 2},
		budget: 1e4, sigma0: 2, target: 1e-8}
	runs := []bbobRun{{config: "x", f: 1, n: 2, instance: 1, hit: 472, evals: 472},
		{config: "x", f: 1, n: 2, instance: 2, hit: 472, evals: 472}}
	s := bbobSummary(o, runs, tableReference(pycmaReference()))
	for _, want := range []string{"| f1 | 472 | 236 | 2.00 |", "| 2 | 2/2 = 1.00 | 5/5 = 1.00 |", "x 2.00 (1 functions)", "x 2.00 (1 pairs)"} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
}

func TestRanges(t *testing.T) {
	xs, err := parseRanges("f", "1-3,7, 9-10", 1, 24)
	if err != nil || rangesString(xs) != "1-3,7,9-10" || len(xs) != 6 {
		t.Errorf("parseRanges: %v %v", xs, err)
	}
}

// TestRunsReference reads a file of reference runs and compares with the
// runs of the instances of the suite only.
func TestRunsReference(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.txt")
	data := "# f n instance evals hit best\n" +
		"1 2 1 300 250 1e-9\n" +
		"1 2 2 500 0 1e-3\n" +
		"1 2 3 100 100 1e-9\n" + // not an instance of the suite
		"2 2 1 400 300 1e-9\n"
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	o := &bbobOpts{configs: []string{"x"}, funcs: []int{1, 2}, dims: []int{2}, instances: []int{1, 2},
		budget: 1e4, sigma0: 2, target: 1e-8}
	ref, err := readRunsReference(path, o)
	if err != nil {
		t.Fatal(err)
	}
	// f1: (250 + 500)/1 solved of 2.
	if ert, solved, of, ok := ref.stats(2, 1); ert != 750 || solved != 1 || of != 2 || !ok {
		t.Errorf("f1: ERT %g solved %d of %d (%v), want 750, 1 of 2", ert, solved, of, ok)
	}
	if _, _, _, ok := ref.stats(5, 1); ok {
		t.Error("a reference for a dimension without runs")
	}
	runs := []bbobRun{{config: "x", f: 1, n: 2, instance: 1, hit: 375, evals: 375},
		{config: "x", f: 1, n: 2, instance: 2, hit: 375, evals: 375},
		{config: "x", f: 2, n: 2, instance: 1, hit: 150, evals: 150},
		{config: "x", f: 2, n: 2, instance: 2, hit: 150, evals: 150}}
	s := bbobSummary(o, runs, ref)
	// f1: 375 against 750; f2: 150 against 300 (one run): both 0.5.
	for _, want := range []string{"| f1 | 375 | 750 (1/2) | 0.50 |", "| f2 | 150 | 300 | 0.50 |", "x 0.50 (2 functions)", "| 2 | 4/4 = 1.00 | 2/3 = 0.67 |"} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
	if err := os.WriteFile(path, []byte("1 2 x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readRunsReference(path, o); err == nil {
		t.Error("a malformed line accepted")
	}
}

// TestSummaryAgainstFirst: with two configurations the summary compares the
// second with the first: solved pairs more and the geometric mean of the
// ERT ratios (here 2 and 1/2 on two functions: 1).
func TestSummaryAgainstFirst(t *testing.T) {
	o := &bbobOpts{configs: []string{"a", "b"}, funcs: []int{1, 2}, dims: []int{2}, instances: []int{1},
		budget: 100, sigma0: 2, target: 1e-8}
	runs := []bbobRun{
		{config: "a", f: 1, n: 2, instance: 1, hit: 100, evals: 100},
		{config: "a", f: 2, n: 2, instance: 1, hit: 400, evals: 400},
		{config: "b", f: 1, n: 2, instance: 1, hit: 200, evals: 200},
		{config: "b", f: 2, n: 2, instance: 1, hit: 200, evals: 200},
	}
	s := bbobSummary(o, runs, nil)
	if !strings.Contains(s, "| b | +0 | 1.000 (2 pairs) |") {
		t.Errorf("summary lacks the comparison of b with a:\n%s", s)
	}
	runs[1].hit = 0 // a no longer solves f2
	s = bbobSummary(o, runs, nil)
	if !strings.Contains(s, "| b | +1 | 2.000 (1 pairs) |") {
		t.Errorf("summary lacks the comparison of b with a:\n%s", s)
	}
}
