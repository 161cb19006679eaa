package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mmaes-go/mmaes/kernel"
)

// exec runs the command line and returns its exit status and outputs.
func exec(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = mainExit(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestBadCommandLines(t *testing.T) {
	for _, args := range [][]string{
		{"nosuchcommand"},
		{"run", "-f", "nosuchfunction"},
		{"run", "-update", "bfgs"},
		{"run", "-n", "0"},
		{"run", "-n", "x"},
		{"run", "-max-evals", "-5"},
		{"run", "-restart", "lpop"},
		{"run", "-max-restarts", "-1", "-restart", "ipop"},
		{"run", "-max-restarts", "3"},
		{"run", "-bounds", "5"},
		{"run", "-bounds", "5,-5"},
		{"run", "-bounds", "a,b"},
		{"run", "-bounds", "nan,1"},
		{"run", "-workers", "-2"},
		{"run", "-rank-mu", "-update", "ecma"},
		{"run", "-recommended", "-update", "cholesky"},
		{"run", "stray"},
		{"run", "-nosuchflag"},
		{"compare", "-dims", "4,zero"},
		{"compare", "-funcs", "sp,nope"},
		{"compare", "-runs", "0"},
		{"bench", "-runs", "0"},
		{"bench", "-reps", "0"},
		{"bench", "-dims", "16,x"},
		{"bench", "-latency-dims", "y"},
		{"bench", "-threads", "1"},
		// Sizes and counts that would not fit in memory: usage errors, not
		// a failed allocation.
		{"run", "-n", "9223372036854775807"},
		{"run", "-n", "100000", "-update", "lmma", "-rotate"},
		{"run", "-workers", "100000000000"},
		{"compare", "-dims", "9223372036854775807"},
		{"compare", "-workers", "100000000000"},
		{"largescale", "-dims", "9223372036854775807"},
		{"largescale", "-workers", "100000000000"},
		{"largescale", "-budget-per-n", "9223372036854775807"},
		{"largescale", "-budget-per-n", "1099511627776", "-dims", "16777216"},
		{"largescale", "-first-seed", "9223372036854775807"},
		{"bench", "-dims", "9223372036854775807"},
		{"bench", "-dims", "1000000"},
		{"bench", "-dims", "4", "-latency-dims", "1000000"},
		{"bench", "-dims", "4", "-threads", "100000"},
		{"compare", "-dims", "1000000"},
		// Lists: every entry a whole integer or range, listed once.
		{"bbob", "-f", "1-2-9"},
		{"bbob", "-f", "3-1"},
		{"bbob", "-dims", "2.5"},
		{"bbob", "-instances", "1e3"},
		{"bbob", "-f", "1,1"},
		{"bbob", "-f", "1-3,2"},
		{"bbob", "-config", "default,default"},
		{"run", "-n", "4", "-integer", "1x,2.9"},
		{"run", "-n", "4", "-integer", "a"},
		{"run", "-n", "4", "-fixed", "0=1,0=2"},
		{"run", "-n", "4", "-fixed", "0=NaN"},
		{"run", "-n", "4", "-fixed", "0=-Inf"},
		{"compare", "-dims", "2,2"},
		{"compare", "-funcs", "sp,sp"},
		{"largescale", "-dims", "10,10"},
		{"largescale", "-funcs", "sph,sph"},
		{"paper", "-funcs", "sp,sp"},
		{"paper", "-workers", "5000"},
		// Outputs that cannot be written, before any run.
		{"run", "-n", "4", "-trace", "/nonexistent-dir/x.csv"},
		{"run", "-n", "4", "-plot", "/nonexistent-dir/x.png"},
		{"bench", "-dims", "4", "-md", "/nonexistent-dir/x.md"},
		{"largescale", "-dims", "10", "-out", "/nonexistent-dir/x.md"},
		{"bbob", "-f", "1", "-dims", "2", "-instances", "1", "-out", "/dev/null/x"},
		// A run id the coordinator and the workers refuse, before connecting.
		{"work", "-run", "a.b", "-nats", "nats://127.0.0.1:1", "-wait", "1m"},
		{"coordinate", "-run", "a.b", "-nats", "nats://127.0.0.1:1", "-wait", "1m"},
	} {
		code, _, stderr := exec(args...)
		if code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
		if !strings.Contains(stderr, "mmaes") || strings.Contains(stderr, "goroutine") {
			t.Errorf("%q: stderr is not a usage message:\n%s", args, stderr)
		}
		// The message and the hint to -h, not the flags' listing (an
		// unknown command lists the commands).
		if lines := strings.Count(strings.TrimSpace(stderr), "\n") + 1; lines > 2 && args[0] != "nosuchcommand" {
			t.Errorf("%q: %d lines on stderr, want the message and the hint:\n%s", args, lines, stderr)
		}
	}
}

// TestBenchThreads checks the Threads tables, the full matrix's and
// LMMA's: a row per dimension with both times positive and their ratio.
func TestBenchThreads(t *testing.T) {
	code, stdout, stderr := exec("bench", "-dims", "16,520", "-reps", "1", "-gonum-max", "0",
		"-latency-dims", "", "-lmma-dims", "3000", "-threads", "2")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	// The tiling of each n, as the kernel reports it.
	for _, n := range []int{16, 520} {
		line := fmt.Sprintf("  n = %d, λ = %d: %s\n", n, defaultLambda(n), kernel.Tiling(n, defaultLambda(n)))
		if !strings.Contains(stdout, line) {
			t.Errorf("no line %q in\n%s", line, stdout)
		}
	}
	mat, lm, ok := strings.Cut(stdout, "LMMA threads (Config.Threads = 2")
	if !ok {
		t.Fatalf("no LMMA Threads table:\n%s", stdout)
	}
	_, mat, ok = strings.Cut(mat, "Threads (Config.Threads = 2")
	if !ok {
		t.Fatalf("no Threads table:\n%s", stdout)
	}
	checkThreadsTable(t, mat, "16", "520")
	checkThreadsTable(t, lm, "3000")
}

// checkThreadsTable checks that table has a row for each of dims, both
// times positive and their ratio as printed.
func checkThreadsTable(t *testing.T, table string, dims ...string) {
	t.Helper()
	rows := 0
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 7 || !slices.Contains(dims, strings.TrimSpace(cells[1])) {
			continue
		}
		rows++
		one, err1 := strconv.ParseFloat(strings.TrimSpace(cells[3]), 64)
		many, err2 := strconv.ParseFloat(strings.TrimSpace(cells[4]), 64)
		ratio, err3 := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(cells[5]), "×"), 64)
		// The times are printed to 0.005 µs and the ratio, of the unrounded
		// times, to 0.005: the quotient of the printed times is off by up to
		// ratio·(0.005/one + 0.005/many), plus the ratio's own rounding.
		tol := (one/many)*(0.005/one+0.005/many) + 0.005 + 1e-9
		if err1 != nil || err2 != nil || err3 != nil || one <= 0 || many <= 0 || math.Abs(ratio-one/many) > tol {
			t.Errorf("bad row %q", line)
		}
	}
	if rows != len(dims) {
		t.Errorf("%d rows for n = %v in\n%s", rows, dims, table)
	}
}

// TestBenchRuns runs a tiny bench three times and checks the summary: a row
// per dimension whose medians lie within their ranges, and the plot.
func TestBenchRuns(t *testing.T) {
	dir := t.TempDir()
	mdPath, plotPath := filepath.Join(dir, "b.md"), filepath.Join(dir, "b.png")
	code, stdout, stderr := exec("bench", "-dims", "8,16", "-reps", "1", "-runs", "3", "-gonum-max", "8",
		"-latency-dims", "8", "-latency-gens", "50", "-lmma-dims", "3000", "-md", mdPath, "-plot", plotPath)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	md, err := os.ReadFile(mdPath)
	if err != nil || string(md) != stdout {
		t.Fatalf("-md file differs from the output (%v)", err)
	}
	_, summary, ok := strings.Cut(stdout, "median [min–max] over the 3 runs")
	if !ok || strings.Count(stdout, "\nrun ") != 3 {
		t.Fatalf("no summary of 3 runs:\n%s", stdout)
	}
	if i := strings.Index(summary, "\n|"); i >= 0 { // the summary's table alone
		if j := strings.Index(summary[i:], "\n\n"); j >= 0 {
			summary = summary[:i+j]
		}
	}
	rows := 0
	for _, line := range strings.Split(summary, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 7 || (strings.TrimSpace(cells[1]) != "8" && strings.TrimSpace(cells[1]) != "16") {
			continue
		}
		rows++
		for _, c := range cells[2:6] {
			c = strings.NewReplacer("×", "", "[", " ", "]", " ", "–", " ").Replace(c)
			f := strings.Fields(c)
			if len(f) == 0 {
				continue // no OpenBLAS in this build, or n above -gonum-max
			}
			v := make([]float64, 3)
			for i := range v {
				if v[i], err = strconv.ParseFloat(f[i], 64); err != nil {
					t.Fatalf("cell %q: %v", c, err)
				}
			}
			if !(v[1] <= v[0] && v[0] <= v[2] && v[1] > 0) {
				t.Errorf("median %v outside its range [%v, %v] in %q", v[0], v[1], v[2], line)
			}
		}
	}
	if rows != 2 {
		t.Errorf("summary has %d rows, want 2:\n%s", rows, summary)
	}
	if !strings.Contains(stdout, "| 8 | ") || !strings.Contains(stdout, "single-generation latency over 50 generations") {
		t.Errorf("no latency table:\n%s", stdout)
	}
	if !strings.Contains(stdout, "timing an empty function the same way takes ") || !strings.Contains(stdout, " µs (median of 50); the second column is the median less that.") {
		t.Errorf("no clock cost under the latency table:\n%s", stdout)
	}
	checkLatencyRow(t, stdout, 8)
	// The LMMA row: a time against a positive roofline, and the heap
	// within (2m + 2λ + 16)·n·8 bytes plus 1 MB.
	_, lm, _ := strings.Cut(stdout, "LMMA (limited memory)")
	var lmRow []string
	for _, line := range strings.Split(lm, "\n") {
		if strings.HasPrefix(line, "| 3000 |") {
			lmRow = strings.Split(line, "|")
		}
	}
	if len(lmRow) != 14 {
		t.Fatalf("no LMMA row of 12 cells:\n%s", lm)
	}
	cell := func(i int) float64 {
		v, err := strconv.ParseFloat(strings.TrimSpace(lmRow[i]), 64)
		if err != nil {
			t.Fatalf("LMMA cell %d %q: %v", i, lmRow[i], err)
		}
		return v
	}
	if r := cell(6); !(r > 0) {
		t.Errorf("LMMA time/T_roof %v", r)
	}
	if h, b := cell(11), cell(12); !(h > b/2 && h <= b+1) {
		t.Errorf("LMMA heap %v MB, bound %v MB", h, b)
	}
	if want := fmt.Sprintf("(kernel.CombineRowsBlock, from the L2 of %d KiB the CPU reports): n = 3000: ", kernel.L2Bytes()>>10); !strings.Contains(lm, want) {
		t.Errorf("no line of CombineRows' blocks %q:\n%s", want, lm)
	}
	if want := fmt.Sprintf("population exceed %.1f MiB (kernel.StreamBytes: ", float64(kernel.StreamBytes())/(1<<20)); !strings.Contains(lm, want) {
		t.Errorf("no line of DotRows' streaming size %q:\n%s", want, lm)
	}
	if want := fmt.Sprintf("where they exceed %.1f MiB (kernel.CombineStreamBytes: ", float64(kernel.CombineStreamBytes())/(1<<20)); !strings.Contains(lm, want) {
		t.Errorf("no line of CombineRows' streaming size %q:\n%s", want, lm)
	}
	checkPNG(t, plotPath)
}

// checkPNG fails the test unless path holds a PNG image that decodes.
func checkPNG(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Errorf("%s: %v", path, err)
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"run", "-h"}, {"compare", "-h"}} {
		if code, _, _ := exec(args...); code != 0 {
			t.Errorf("%q: exit %d, want 0", args, code)
		}
	}
}

// TestRun runs a small optimization with a trace and a plot and checks the
// summary, the CSV (monotone best f reaching the target) and the PNG.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	tracePath, plotPath := filepath.Join(dir, "t.csv"), filepath.Join(dir, "p.png")
	code, stdout, stderr := exec("run", "-f", "sp", "-n", "4", "-q", "-trace", tracePath, "-plot", plotPath)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"reason:      target reached", "best f:", "evaluations:", "per generation"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
	f, err := os.Open(tracePath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 10 || strings.Join(rows[0], ",") != "generation,evaluations,best_f,std_min,std_max,sigma,lambda,restarts" {
		t.Fatalf("trace: %d rows, header %q", len(rows), rows[0])
	}
	prev := 0.0
	for i, r := range rows[1:] {
		var v [6]float64
		for k := range v {
			if v[k], err = strconv.ParseFloat(r[2+k], 64); err != nil {
				t.Fatal(err)
			}
		}
		best, lo, hi, lambda := v[0], v[1], v[2], v[4]
		if i > 0 && best > prev {
			t.Fatalf("best f rises at row %d: %g after %g", i+1, best, prev)
		}
		if !(lo > 0 && lo <= hi) || lambda != 8 || v[5] != 0 {
			t.Fatalf("row %d: std %g–%g, λ %g, restarts %g", i+1, lo, hi, lambda, v[5])
		}
		prev = best
	}
	if prev > 1e-10 {
		t.Errorf("last best f %g above the target", prev)
	}
	checkPNG(t, plotPath)
}

// TestRunObjectiveFlags: -scales, -fixed, -minstd and -maxstd reach the
// Config (λ follows the free dimension; the deviations stay within the
// bounds in the trace), and bad values are usage errors.
func TestRunObjectiveFlags(t *testing.T) {
	tracePath := filepath.Join(t.TempDir(), "t.csv")
	code, stdout, stderr := exec("run", "-f", "ell", "-n", "6", "-q", "-fixed", "1=0.5,4=-1", "-scales", "1,2,3,4,5,6", "-integer", "2-3",
		"-minstd", "1e-6", "-maxstd", "50", "-max-evals", "3000", "-trace", tracePath)
	if code != 0 || !strings.Contains(stdout, "λ = 8") {
		t.Fatalf("exit %d (want λ = 8, the default for 4 free coordinates)\n%s\n%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(tracePath)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
	if err != nil || len(rows) < 10 {
		t.Fatalf("trace: %v, %d rows", err, len(rows))
	}
	for _, r := range rows[1:] {
		lo, _ := strconv.ParseFloat(r[3], 64)
		hi, _ := strconv.ParseFloat(r[4], 64)
		if lo < 1e-6*(1-1e-12) || hi > 50*(1+1e-12) {
			t.Fatalf("generation %s: deviations %g–%g outside [1e-6, 50]", r[0], lo, hi)
		}
	}
	for _, args := range [][]string{
		{"-fixed", "1"}, {"-fixed", "a=1"}, {"-fixed", "9=1"}, {"-scales", "1,2"}, {"-scales", "x"},
		{"-scales", "-1"}, {"-minstd", "-1"}, {"-minstd", "2", "-maxstd", "1"},
		{"-integer", "4"}, {"-integer", "1,1"}, {"-integer", "x"},
	} {
		code, _, stderr := exec(append([]string{"run", "-f", "sp", "-n", "4", "-q"}, args...)...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2 (usage)\n%s", args, code, stderr)
		}
	}
}

// TestRunNoise: -noise adds the noise, turns the handling on and reports f
// at the mean, which ends below the noise's standard deviation.
func TestRunNoise(t *testing.T) {
	code, stdout, stderr := exec("run", "-f", "sp", "-n", "6", "-q", "-noise", "1", "-max-evals", "30000")
	if code != 0 || !strings.Contains(stdout, "f at mean:") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	var fm float64
	for _, line := range strings.Split(stdout, "\n") {
		if rest, ok := strings.CutPrefix(line, "f at mean:"); ok {
			fm, _ = strconv.ParseFloat(strings.Fields(rest)[0], 64)
		}
	}
	if !(fm > 0 && fm < 0.1) {
		t.Errorf("f at the mean %v: want well below the noise (1)\n%s", fm, stdout)
	}
	if code, _, _ := exec("run", "-f", "sp", "-n", "4", "-q", "-noise", "-1"); code != 2 {
		t.Errorf("-noise -1: exit %d, want 2", code)
	}
}

// TestCompare runs a tiny comparison and checks that the table has a row per
// function and dimension with both optimizers' columns filled.
func TestCompare(t *testing.T) {
	code, stdout, stderr := exec("compare", "-dims", "2,3", "-runs", "2", "-funcs", "sp", "-max-evals", "20000")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	var rows int
	for _, line := range strings.Split(stdout, "\n") {
		fields := strings.Fields(line)
		if len(fields) >= 10 && fields[0] == "sp" {
			rows++
			if fields[3] != "2/2" {
				t.Errorf("mmaes should solve the sphere: %q", line)
			}
		}
	}
	if rows != 2 {
		t.Errorf("want 2 rows, got %d:\n%s", rows, stdout)
	}
}

// TestRunExtras runs with restarts, rank-μ, bounds and workers: the summary
// reports the restarts, and the run reaches Rastrigin's target inside the
// box.
func TestRunExtras(t *testing.T) {
	code, stdout, stderr := exec("run", "-f", "rastrigin", "-n", "6", "-q", "-restart", "bipop", "-rank-mu",
		"-bounds", "-5,5", "-workers", "2", "-seed", "3", "-max-evals", "300000")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"restarts:", "BIPOP", "best f:"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
	// -recommended: BIPOP by default, reaching Rastrigin's minimum.
	code, stdout, stderr = exec("run", "-f", "rastrigin", "-n", "6", "-q", "-recommended", "-seed", "2", "-max-evals", "300000")
	if code != 0 || !strings.Contains(stdout, "target reached") || !strings.Contains(stdout, "BIPOP") {
		t.Fatalf("-recommended: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// A rotated function reuses a buffer: each worker gets its own (run
	// with -race).
	code, stdout, stderr = exec("run", "-f", "ell", "-n", "8", "-q", "-rotate", "-workers", "3")
	if code != 0 || !strings.Contains(stdout, "target reached") {
		t.Fatalf("rotated with workers: exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = exec("run", "-f", "sp", "-n", "5", "-q", "-bounds", "1,5", "-restart", "ipop", "-max-restarts", "2")
	if code != 0 || !strings.Contains(stdout, "restarts:") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	// The sphere's minimum in [1, 5]^5 is 5, at the corner (1, …, 1).
	var best float64
	for _, line := range strings.Split(stdout, "\n") {
		if v, ok := strings.CutPrefix(line, "best f:"); ok {
			best, _ = strconv.ParseFloat(strings.TrimSpace(v), 64)
		}
	}
	if !(best >= 5 && best < 5+1e-8) {
		t.Errorf("best f %v, want 5 (the corner of the box)\n%s", best, stdout)
	}
}

// TestFlagsOnlyIsRun: `mmaes -n 4 …` (flags without a command) is `mmaes
// run -n 4 …`, as the usage says of `mmaes` alone.
func TestFlagsOnlyIsRun(t *testing.T) {
	code, out, errOut := exec("-n", "4", "-f", "sp", "-q")
	if code != 0 || !strings.Contains(out, "Sphere, n = 4") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if code, _, _ := exec("-h"); code != 0 {
		t.Errorf("-h: exit %d", code)
	}
}

// TestTargetHelp: the help of -target shows no "(default NaN)".
func TestTargetHelp(t *testing.T) {
	_, _, errOut := exec("run", "-h")
	if !strings.Contains(errOut, "-target") || strings.Contains(errOut, "NaN") {
		t.Errorf("run -h:\n%s", errOut)
	}
	code, out, _ := exec("run", "-f", "sp", "-n", "3", "-target", "1e-3", "-q")
	if code != 0 || !strings.Contains(out, "target reached") {
		t.Errorf("-target 1e-3: exit %d\n%s", code, out)
	}
}

// TestProgressNotTerminal: written to a file or a pipe, progress lines end
// in newlines, with no carriage return.
func TestProgressNotTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "progress"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := newProgress(f, true)
	p.update(1, 10, 3, 0.5, 1)
	p.update(2, 20, 2, 0.5, 1) // within the interval: not shown
	p.done()
	b, _ := os.ReadFile(f.Name())
	if strings.Contains(string(b), "\r") || strings.Count(string(b), "\n") != 1 || !strings.Contains(string(b), "generation        1") {
		t.Errorf("progress into a file: %q", b)
	}
	var buf bytes.Buffer
	p = newProgress(&buf, true)
	p.update(1, 10, 3, 0.5, 1)
	if strings.Contains(buf.String(), "\r") {
		t.Errorf("progress into a buffer: %q", buf.String())
	}
}

// checkLatencyRow checks the latency table's row for n: a positive median,
// the median without the clock below it by the clock's cost printed under
// the table (to the rounding of the figures), and p99 and max not below
// the median.
func checkLatencyRow(t *testing.T, stdout string, n int) {
	t.Helper()
	_, table, _ := strings.Cut(stdout, "single-generation latency")
	var med, net, p99, mx, clock float64
	found := false
	for _, line := range strings.Split(table, "\n") {
		if _, err := fmt.Sscanf(line, "| "+strconv.Itoa(n)+" | %g | %g | %g | %g |", &med, &net, &p99, &mx); err == nil {
			found = true
			break
		}
	}
	_, after, _ := strings.Cut(table, "the same way takes ")
	if _, err := fmt.Sscanf(after, "%g", &clock); err != nil || !found {
		t.Fatalf("no latency row for n = %d or no clock cost (%v):\n%s", n, err, table)
	}
	if !(med > 0 && net < med && p99 >= med-0.005 && mx >= p99) { // p99 and max have two decimals
		t.Errorf("n = %d: median %v, without the clock %v, p99 %v, max %v", n, med, net, p99, mx)
	}
	if d := med - clock - net; math.Abs(d) > 0.0016 {
		t.Errorf("n = %d: median %v − clock %v = %v, the table says %v", n, med, clock, med-clock, net)
	}
}
