package main

import (
	"bytes"
	"encoding/csv"
	"errors"
	"flag"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// smallPaper are the smallest settings of every part of `mmaes paper`.
var smallPaper = []string{"-q", "-dims", "2,4", "-runs", "2", "-funcs", "sp,ell",
	"-traj-n", "4", "-traj-runs", "2", "-alpha-n", "4", "-alpha-dims", "2,4", "-alpha-runs", "2",
	"-eig-n", "3", "-rot-dims", "4", "-rot-runs", "2"}

func TestPaperSmall(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if err := paperCmd(append(slices.Clone(smallPaper), "-out", dir), &stdout, &stderr); err != nil {
		t.Fatalf("paper: %v\nstderr: %s", err, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"Findings next to the paper's claims", "| experiment | paper | this run |", "files written to"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}

	// CSV files: header and number of data rows (-1: at least one).
	csvs := []struct {
		name   string
		header []string
		rows   int
	}{
		{"fe.csv", []string{"function", "n", "update", "runs", "successes", "success_rate",
			"median_evals", "mean_evals_successful", "sp", "beta_vs_cholesky", "budget"}, 2 * 2 * 3},
		{"traj_n4.csv", []string{"function", "update", "seed", "generation", "evaluations", "best_f", "sigma"}, -1},
		{"alpha_n4.csv", []string{"function", "seed", "generation", "evaluations", "alpha", "abs_b_minus_c1half"}, -1},
		{"alpha_dims.csv", []string{"function", "n", "runs", "every_k_generations", "samples", "mean_alpha"}, 4 * 2},
		{"b_dims.csv", []string{"function", "n", "c1", "runs", "samples", "mean_abs_b_minus_c1half"}, 4 * 2},
		{"eig_n3.csv", []string{"generation", "evaluations", "best_f", "sigma", "d1", "d2", "d3"}, -1},
		{"rotation.csv", []string{"function", "n", "rotated", "runs", "successes", "success_rate", "median_evals", "sp"}, 2 * 2},
		{"rotation_traj.csv", []string{"function", "n", "rotated", "seed", "generation", "evaluations", "best_f"}, -1},
	}
	for _, c := range csvs {
		recs := readCSV(t, filepath.Join(dir, c.name))
		if len(recs) == 0 {
			t.Errorf("%s: empty", c.name)
			continue
		}
		if !slices.Equal(recs[0], c.header) {
			t.Errorf("%s: header %q, want %q", c.name, recs[0], c.header)
		}
		if got := len(recs) - 1; (c.rows >= 0 && got != c.rows) || got < 1 || got > 10000 {
			t.Errorf("%s: %d data rows, want %d", c.name, got, c.rows)
		}
	}

	// fe.csv: sane values; β of Cholesky is 1.
	for _, rec := range readCSV(t, filepath.Join(dir, "fe.csv"))[1:] {
		sp, err := strconv.ParseFloat(rec[8], 64)
		if err != nil || !(sp > 0) {
			t.Errorf("fe.csv: bad SP in %q", rec)
		}
		if rec[2] == "Cholesky" && rec[9] != "1" {
			t.Errorf("fe.csv: β of Cholesky %q, want 1", rec[9])
		}
		if rec[0] == "sp" && rec[4] != rec[3] {
			t.Errorf("fe.csv: failed runs on the sphere: %q", rec)
		}
	}
	// The α study: α and |b − c1/2| small and positive on average.
	for _, rec := range readCSV(t, filepath.Join(dir, "alpha_dims.csv"))[1:] {
		if a, _ := strconv.ParseFloat(rec[5], 64); !(a > 0 && a < 0.1) {
			t.Errorf("alpha_dims.csv: mean α %v out of (0, 0.1) in %q", a, rec)
		}
	}
	for _, rec := range readCSV(t, filepath.Join(dir, "b_dims.csv"))[1:] {
		if d, _ := strconv.ParseFloat(rec[5], 64); !(d > 0 && d < 0.1) {
			t.Errorf("b_dims.csv: mean |b − c1/2| %v out of (0, 0.1) in %q", d, rec)
		}
	}

	pngs := []string{"fe_dims.png", "beta_dims.png", "traj_sp_n4.png", "traj_ell_n4.png",
		"alpha_n4.png", "b_n4.png", "alpha_dims.png", "b_dims.png", "eig_n3.png", "rotation.png"}
	for _, name := range pngs {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Error(err)
			continue
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", name, err)
		} else if b := img.Bounds(); b.Dx() < 200 || b.Dy() < 200 {
			t.Errorf("%s: %v too small", name, b)
		}
	}

	md, err := os.ReadFile(filepath.Join(dir, "fe.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "| function | n | MMA median | MMA succ | MMA SP |") ||
		!strings.Contains(string(md), "| Ellipsoid | 4 |") {
		t.Errorf("fe.md lacks the table:\n%s", md)
	}
	sum, err := os.ReadFile(filepath.Join(dir, "summary.md"))
	if err != nil || !strings.Contains(string(sum), "rotation invariance") {
		t.Errorf("summary.md: %v\n%s", err, sum)
	}

	// Every file listed on stdout exists, and nothing else was written.
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !strings.Contains(out, "  "+e.Name()+"\n") {
			t.Errorf("%s written but not listed", e.Name())
		}
	}
	if want := len(csvs) + len(pngs) + 2; len(entries) != want {
		t.Errorf("%d files written, want %d", len(entries), want)
	}
}

// TestPaperDeterministic: the outputs depend on the seeds only, not on the
// number of workers.
func TestPaperDeterministic(t *testing.T) {
	args := []string{"-q", "-dims", "3", "-runs", "3", "-funcs", "ell,ros", "-traj-n", "3", "-traj-runs", "1",
		"-alpha-n", "3", "-alpha-dims", "3", "-alpha-runs", "1", "-eig-n", "2", "-rot-dims", "3", "-rot-runs", "1"}
	var fe [2][]byte
	for i, workers := range []string{"1", "3"} {
		dir := t.TempDir()
		if err := paperCmd(append(slices.Clone(args), "-workers", workers, "-out", dir), io.Discard, io.Discard); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, "fe.csv"))
		if err != nil {
			t.Fatal(err)
		}
		fe[i] = b
	}
	if !bytes.Equal(fe[0], fe[1]) {
		t.Errorf("fe.csv differs with 1 and 3 workers:\n%s\n%s", fe[0], fe[1])
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Error(err)
		return nil
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Errorf("%s: %v", path, err)
	}
	return recs
}

func TestPaperBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-dims", "0"}, {"-dims", "x"}, {"-dims", ""}, {"-dims", "2,,4"}, {"-dims", "5000"},
		{"-runs", "0"}, {"-runs", "-3"}, {"-runs", "many"},
		{"-funcs", "foo"}, {"-funcs", "sp,nope"}, {"-alpha-funcs", "x"}, {"-rot-funcs", ""},
		{"-workers", "0"}, {"-workers", "100000000000"}, {"-max-evals-factor", "0"}, {"-max-evals-factor", "-1"}, {"-max-evals-factor", "NaN"},
		{"-alpha-every", "-1"}, {"-alpha-dims", "-2"}, {"-eig-n", "0"}, {"-traj-n", "0"}, {"-rot-runs", "0"},
		{"-bogus"}, {"positional"}, {"-full", "extra"},
	} {
		dir := t.TempDir()
		var stderr bytes.Buffer
		err := paperCmd(append(args, "-out", filepath.Join(dir, "out")), io.Discard, &stderr)
		if !errors.Is(err, errUsage) {
			t.Errorf("paper %q: err = %v, want a usage error", args, err)
		}
		if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
			t.Errorf("paper %q: wrote output despite the usage error", args)
		}
	}
	if err := paperCmd([]string{"-h"}, io.Discard, io.Discard); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("paper -h: err = %v, want flag.ErrHelp", err)
	}
	// Through main: exit status 2, a message, no stack trace.
	var stdout, stderr bytes.Buffer
	if code := mainExit([]string{"paper", "-funcs", "nope"}, &stdout, &stderr); code != 2 {
		t.Errorf("mmaes paper -funcs nope: exit %d, want 2", code)
	}
	if s := stderr.String(); !strings.Contains(s, `unknown function "nope"`) || strings.Contains(s, "goroutine") {
		t.Errorf("stderr: %s", s)
	}
}

func TestPaperStats(t *testing.T) {
	inf := math.Inf(1)
	same := func(a, b float64) bool {
		return a == b || (math.IsNaN(a) && math.IsNaN(b)) || math.Abs(a-b) <= 1e-12*math.Abs(b)
	}
	for _, c := range []struct {
		xs   []float64
		want float64
	}{
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{7}, 7},
		{[]float64{1, 2, 3, inf}, 2.5},
		{[]float64{1, inf, inf}, inf},
		{[]float64{1, 2, inf, inf}, inf},
		{nil, math.NaN()},
	} {
		if got := median(c.xs); !same(got, c.want) {
			t.Errorf("median(%v) = %v, want %v", c.xs, got, c.want)
		}
	}

	for _, c := range []struct {
		succ []float64
		runs int
		want float64
	}{
		{[]float64{100, 200}, 2, 150},
		{[]float64{100, 200}, 4, 300},      // E_s = 150, p_s = 1/2
		{[]float64{100, 200, 600}, 7, 700}, // 300 / (3/7)
		{nil, 5, inf},
		{nil, 0, math.NaN()},
	} {
		if got := successPerformance(c.succ, c.runs); !same(got, c.want) {
			t.Errorf("successPerformance(%v, %d) = %v, want %v", c.succ, c.runs, got, c.want)
		}
	}

	for _, c := range []struct{ sp, base, want float64 }{
		{300, 600, 0.5}, {600, 300, 2}, {100, inf, 0}, {inf, 100, inf}, {inf, inf, math.NaN()},
	} {
		if got := beta(c.sp, c.base); !same(got, c.want) {
			t.Errorf("beta(%v, %v) = %v, want %v", c.sp, c.base, got, c.want)
		}
	}

	st := computeStats([]int{100, 200, 300, 400}, []bool{true, false, true, true})
	want := feStats{Runs: 4, Successes: 3, Median: 350, MeanSuccess: 800.0 / 3, SP: 3200.0 / 9}
	if st.Runs != want.Runs || st.Successes != want.Successes || !same(st.Median, want.Median) ||
		!same(st.MeanSuccess, want.MeanSuccess) || !same(st.SP, want.SP) || !same(st.SuccessRate(), 0.75) {
		t.Errorf("computeStats = %+v, want %+v", st, want)
	}
	st = computeStats([]int{50, 60}, []bool{false, false})
	if st.Successes != 0 || !math.IsInf(st.SP, 1) || !math.IsInf(st.Median, 1) || !math.IsNaN(st.MeanSuccess) {
		t.Errorf("computeStats with no success = %+v", st)
	}

	// The median run: successes by evaluations, then the failures.
	if got := medianIndex([]int{50, 10, 30}, []bool{true, false, true}); got != 0 {
		t.Errorf("medianIndex = %d, want 0", got)
	}
	if got := medianIndex([]int{5, 4, 3, 2, 1}, []bool{true, true, true, true, true}); got != 2 {
		t.Errorf("medianIndex = %d, want 2", got)
	}
	if got := medianIndex(nil, nil); got != -1 {
		t.Errorf("medianIndex(nil) = %d, want -1", got)
	}

	if got, want := thin(10, 3), []int{0, 4, 8, 9}; !slices.Equal(got, want) {
		t.Errorf("thin(10, 3) = %v, want %v", got, want)
	}
	if got, want := thin(3, 10), []int{0, 1, 2}; !slices.Equal(got, want) {
		t.Errorf("thin(3, 10) = %v, want %v", got, want)
	}

	var tr trace
	for g := 1; g <= 9; g++ {
		tr.add(g, 10*g, float64(100-g), 0.5, 1, 1, 8, 0)
	}
	if got, want := halveTrace(tr, 2).gen, []int{2, 4, 6, 8, 9}; !slices.Equal(got, want) {
		t.Errorf("halveTrace: generations %v, want %v", got, want)
	}
}

// TestPaperFullFlags: -full sets the paper's study, explicit flags win.
func TestPaperFullFlags(t *testing.T) {
	var got paperOpts
	capture := func(args ...string) {
		t.Helper()
		o, err := paperFlags(args, io.Discard)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		got = o
	}
	capture("-full")
	if got.runs != 21 || got.trajRuns != 21 || got.alphaRuns != 21 || got.rotRuns != 21 ||
		!slices.Equal(got.dims, []int{2, 4, 8, 16, 32, 64}) || got.alphaDims[len(got.alphaDims)-1] != 256 {
		t.Errorf("-full: %+v", got)
	}
	capture("-full", "-runs", "3", "-dims", "8,2")
	if got.runs != 3 || !slices.Equal(got.dims, []int{2, 8}) || got.alphaRuns != 21 {
		t.Errorf("-full -runs 3 -dims 8,2: %+v", got)
	}
	capture()
	if got.runs != 5 || len(got.funcs) != 10 || got.trajN != 64 || got.alphaN != 32 || got.eigN != 10 {
		t.Errorf("defaults: %+v", got)
	}
}
