package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// largeTableRows returns the rows of the Markdown table in out, each as its
// cells (trimmed), header and separator excluded.
func largeTableRows(t *testing.T, out string) (header []string, rows [][]string) {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "|") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		switch {
		case header == nil:
			header = cells
		case strings.HasPrefix(cells[0], "---"):
		default:
			rows = append(rows, cells)
		}
	}
	return header, rows
}

var largeCellPattern = regexp.MustCompile(`^(?:(\d+)|–) \((\d+)/(\d+)(?:, f [^)]+)?\)$`)

// TestLargescaleTable runs a small suite (n = 60, two seeds) and checks the
// table against the runs themselves: a row per function, a cell per
// optimizer whose solved count and median agree with runLargeJob's
// results, the ratio columns, the -out file and the progress lines.
func TestLargescaleTable(t *testing.T) {
	dir := t.TempDir()
	mdPath := filepath.Join(dir, "large.md")
	args := []string{"largescale", "-dims", "60", "-runs", "2", "-funcs", "sph,rsph,ell", "-max-evals", "30000", "-workers", "2", "-out", mdPath}
	code, stdout, stderr := exec(args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	md, err := os.ReadFile(mdPath)
	if err != nil || string(md) != stdout {
		t.Fatalf("-out file differs from the output (%v)", err)
	}
	if got := strings.Count(stderr, "\n["); got != 3*2*3-1 || !strings.HasPrefix(stderr, "[") {
		t.Errorf("%d progress lines, want 18:\n%s", got+1, stderr)
	}
	header, rows := largeTableRows(t, stdout)
	wantHeader := []string{"function", "lmmaes", "sepcma", "lmma", "lmma/lmmaes", "lmma/sepcma"}
	if fmt.Sprint(header) != fmt.Sprint(wantHeader) {
		t.Fatalf("header %q, want %q", header, wantHeader)
	}
	if len(rows) != 3 {
		t.Fatalf("%d rows, want 3:\n%s", len(rows), stdout)
	}
	for _, row := range rows {
		fn, err := lookupLargeFunction(row[0])
		if err != nil || len(row) != len(header) {
			t.Fatalf("row %q", row)
		}
		medians := map[string]float64{}
		for k, opt := range []string{"lmmaes", "sepcma", "lmma"} {
			m := largeCellPattern.FindStringSubmatch(row[1+k])
			if m == nil {
				t.Fatalf("%s %s: cell %q", fn.Short, opt, row[1+k])
			}
			solved, _ := strconv.Atoi(m[2])
			if m[3] != "2" || (m[1] == "") != (solved == 0) {
				t.Errorf("%s %s: cell %q inconsistent", fn.Short, opt, row[1+k])
			}
			// The same runs again, directly.
			var hits []float64
			for seed := uint64(1); seed <= 2; seed++ {
				j := &largeJob{fn: fn, n: 60, seed: seed, opt: opt, budget: 30000, target: 1e-8}
				runLargeJob(j, 2048)
				if j.result.err != nil {
					t.Fatal(j.result.err)
				}
				if j.result.solved() {
					if j.result.hit > 30000 || j.result.best > 1e-8 {
						t.Errorf("%s %s seed %d: hit %d, best %g", fn.Short, opt, seed, j.result.hit, j.result.best)
					}
					hits = append(hits, float64(j.result.hit))
				}
			}
			if len(hits) != solved {
				t.Errorf("%s %s: table says %d solved, the runs %d", fn.Short, opt, solved, len(hits))
			}
			if solved > 0 {
				if got := fmt.Sprintf("%.0f", median(hits)); got != m[1] {
					t.Errorf("%s %s: table median %s, runs %s", fn.Short, opt, m[1], got)
				}
				medians[opt] = median(hits)
			}
		}
		for k, other := range []string{"lmmaes", "sepcma"} {
			want := "–"
			if medians["lmma"] > 0 && medians[other] > 0 {
				want = fmt.Sprintf("%.2f", medians["lmma"]/medians[other])
			}
			if row[4+k] != want {
				t.Errorf("%s lmma/%s = %q, want %q", fn.Short, other, row[4+k], want)
			}
		}
		// The sphere is solved by all, in every run.
		if fn.kind == largeSphere && strings.Count(strings.Join(row, " "), "(2/2)") != 3 {
			t.Errorf("sphere row %q: not every run solved", row)
		}
	}
}

func TestLargescaleOptions(t *testing.T) {
	// As `mmaes compare large`; -q: no progress; mma skipped above
	// -mma-max-dim; lmma runs.
	code, stdout, stderr := exec("compare", "large", "-dims", "60", "-runs", "1", "-funcs", "sph", "-opts", "sepcma,lmma,mma",
		"-mma-max-dim", "50", "-budget-per-n", "200", "-q", "-workers", "1")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	header, rows := largeTableRows(t, stdout)
	if fmt.Sprint(header) != "[function sepcma lmma mma lmma/sepcma]" || len(rows) != 1 {
		t.Fatalf("header %q, rows %q", header, rows)
	}
	if rows[0][3] != "skipped" || strings.HasPrefix(rows[0][2], "skipped") {
		t.Errorf("row %q: mma not skipped, or lmma skipped", rows[0])
	}
	if !strings.Contains(stdout, "budget 12000 evaluations") {
		t.Errorf("-budget-per-n 200 at n = 60 is not a budget of 12000:\n%s", stdout)
	}
	// A budget too small to solve anything.
	_, stdout, _ = exec("largescale", "-dims", "60", "-runs", "2", "-funcs", "rros", "-opts", "lmmaes", "-max-evals", "100", "-q")
	if _, rows := largeTableRows(t, stdout); len(rows) != 1 || !strings.HasPrefix(rows[0][1], "– (0/2, f ") {
		t.Errorf("rows %q", rows)
	}
	// -first-seed continues a comparison: its run of seed 2 is the second
	// run of a comparison from seed 1.
	_, _, both := exec("largescale", "-dims", "60", "-runs", "2", "-funcs", "sph", "-opts", "lmma", "-max-evals", "3000", "-workers", "1")
	_, stdout, second := exec("largescale", "-dims", "60", "-runs", "1", "-first-seed", "2", "-funcs", "sph", "-opts", "lmma", "-max-evals", "3000", "-workers", "1")
	result := func(progress string, seed int) string {
		for _, line := range strings.Split(progress, "\n") {
			if _, after, ok := strings.Cut(line, fmt.Sprintf("seed %d: ", seed)); ok {
				what, _, _ := strings.Cut(after, " (")
				return what
			}
		}
		return ""
	}
	if r := result(second, 2); r == "" || r != result(both, 2) || result(second, 1) != "" || !strings.Contains(stdout, "seeds 2–2") {
		t.Errorf("-first-seed 2: %q, from seed 1: %q\n%s\n%s", r, result(both, 2), second, stdout)
	}
	// An optimizer that refuses the dimension (LM-MA-ES needs n ≥ 2λ) is an
	// error, not a silent row of failures.
	if code, _, stderr := exec("largescale", "-dims", "20", "-runs", "1", "-funcs", "sph", "-opts", "lmmaes", "-q"); code != 1 || !strings.Contains(stderr, "2λ") {
		t.Errorf("n = 20: exit %d, %q", code, stderr)
	}
	for _, args := range [][]string{
		{"largescale", "-opts", "lmmaes,cmaes"},
		{"largescale", "-funcs", "sph,nope"},
		{"largescale", "-runs", "0"},
		{"largescale", "-first-seed", "0"},
		{"largescale", "-dims", "100,x"},
		{"largescale", "-budget-per-n", "0"},
		{"largescale", "-target", "NaN"},
		{"largescale", "-dims", "1", "-funcs", "ros"},
		{"largescale", "stray"},
	} {
		if code, _, stderr := exec(args...); code != 2 || !strings.Contains(stderr, "mmaes largescale") {
			t.Errorf("%q: exit %d, %q", args, code, stderr)
		}
	}
}

func TestCountingObjective(t *testing.T) {
	fn, _ := lookupLargeFunction("sph")
	c := &countingObjective{f: newLargeObjective(fn, 3, 1), target: 1, budget: 3}
	for _, x := range [][]float64{{2, 0, 0}, {0.5, 0, 0}, {0, 0, 0}, {0, 0, 0}} {
		c.eval(x)
	}
	if c.evals != 4 || c.hit != 2 || c.best != 0 {
		t.Errorf("evals %d, hit %d, best %g; want 4, 2, 0", c.evals, c.hit, c.best)
	}
	late := &countingObjective{f: newLargeObjective(fn, 3, 1), target: 1, budget: 1}
	late.eval([]float64{2, 0, 0})
	late.eval([]float64{0, 0, 0})
	if late.hit != 0 {
		t.Errorf("a hit after the budget counted (%d)", late.hit)
	}
}

// TestLargeCellRefused: a cell with runs whose optimizer refused the
// configuration says so, rather than a best f of 0 from runs that never
// evaluated, and gives no ratio.
func TestLargeCellRefused(t *testing.T) {
	refused := summarizeLarge([]largeRun{{err: fmt.Errorf("c_σ > 1")}})
	if s := refused.String(); !strings.HasPrefix(s, "error") {
		t.Errorf("refused cell %q, want an error cell", s)
	}
	solved := summarizeLarge([]largeRun{{hit: 100, evals: 100}})
	if r := largeRatio(refused, solved); r != "–" {
		t.Errorf("ratio with a refused cell: %q", r)
	}
	if s := solved.String(); s != "100 (1/1)" {
		t.Errorf("solved cell %q", s)
	}
}
