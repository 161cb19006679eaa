package main

import (
	_ "embed"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// bbobPycmaData is the reference of the comparison: pycma 4.4.0 on
// instances 1–5 with the suite's standard settings.
//
//go:embed bbob_pycma.txt
var bbobPycmaData string

// pycmaRef is pycma's result on one function in one dimension.
type pycmaRef struct {
	bipopERT, defaultERT       float64
	bipopSolved, defaultSolved int
}

// pycmaReference parses bbobPycmaData, keyed by [dim, function].
func pycmaReference() map[[2]int]pycmaRef {
	ref := map[[2]int]pycmaRef{}
	for _, line := range strings.Split(bbobPycmaData, "\n") {
		fields := strings.Fields(line)
		if len(fields) != 6 || strings.HasPrefix(line, "#") {
			continue
		}
		var v [6]float64
		for i, s := range fields {
			v[i], _ = strconv.ParseFloat(s, 64)
		}
		ref[[2]int{int(v[0]), int(v[1])}] = pycmaRef{v[2], v[4], int(v[3]), int(v[5])}
	}
	return ref
}

// bbobGroups are COCO's five function groups.
var bbobGroups = []struct {
	name   string
	lo, hi int
}{
	{"separable (f1–f5)", 1, 5},
	{"low or moderate conditioning (f6–f9)", 6, 9},
	{"high conditioning, unimodal (f10–f14)", 10, 14},
	{"multimodal, adequate global structure (f15–f19)", 15, 19},
	{"multimodal, weak global structure (f20–f24)", 20, 24},
}

// ertOf is the expected running time of runs on one problem: evaluations
// summed over the runs (to the hit for a solved run, all of them for an
// unsolved one) divided by the runs solved; +Inf when none was.
func ertOf(runs []bbobRun) (ert float64, solved int) {
	sum := 0
	for _, r := range runs {
		if r.hit > 0 {
			sum += r.hit
			solved++
		} else {
			sum += r.evals
		}
	}
	if solved == 0 {
		return math.Inf(1), 0
	}
	return float64(sum) / float64(solved), solved
}

// bbobStandard reports whether o are the settings of the pycma reference,
// so that the comparison means something.
func bbobStandard(o *bbobOpts) bool {
	return o.budget == 1e4 && o.sigma0 == 2 && o.target == 1e-8
}

// A reference is another optimizer's result on the suite: its ERT and the
// runs it solved of those it made on function f in dimension n; ok false
// when it has none.
type reference interface {
	name() string
	about() string // a sentence for the summary
	stats(n, f int) (ert float64, solved, of int, ok bool)
}

// tableReference is the embedded pycma table (instances 1–5).
type tableReference map[[2]int]pycmaRef

func (tableReference) name() string { return "pycma BIPOP" }

func (tableReference) about() string {
	return "pycma BIPOP: pycma 4.4.0's BIPOP-aCMA-ES (`cma.fmin2(..., restarts=9, bipop=True)`) with the same settings on instances 1–5 (whatever the instances above), measured through COCO's C core."
}

func (t tableReference) stats(n, f int) (float64, int, int, bool) {
	r, ok := t[[2]int{n, f}]
	return r.bipopERT, r.bipopSolved, 5, ok
}

// runsReference is a reference of single runs (pycma_bbob.py's output),
// restricted to the instances of the suite run.
type runsReference struct {
	label string
	path  string
	runs  map[[2]int][]bbobRun // by [n, f]
}

func (r *runsReference) name() string { return r.label }

func (r *runsReference) about() string {
	return r.label + ": the runs of " + r.path + " on the same problems."
}

func (r *runsReference) stats(n, f int) (float64, int, int, bool) {
	runs := r.runs[[2]int{n, f}]
	if len(runs) == 0 {
		return 0, 0, 0, false
	}
	ert, solved := ertOf(runs)
	return ert, solved, len(runs), true
}

// readRunsReference reads the runs of pycma_bbob.py's output file ("f n
// instance evals hit best" a line, # comments) for the problems of o.
func readRunsReference(path string, o *bbobOpts) (*runsReference, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	inst := map[int]bool{}
	for _, i := range o.instances {
		inst[i] = true
	}
	ref := &runsReference{label: "pycma BIPOP", path: filepath.Base(path), runs: map[[2]int][]bbobRun{}}
	for k, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var r bbobRun
		var best float64
		if _, err := fmt.Sscan(line, &r.f, &r.n, &r.instance, &r.evals, &r.hit, &best); err != nil || r.evals < r.hit || r.hit < 0 {
			return nil, fmt.Errorf("%s:%d: %q is not \"f n instance evals hit best\"", path, k+1, line)
		}
		if inst[r.instance] {
			key := [2]int{r.n, r.f}
			if slices.ContainsFunc(ref.runs[key], func(q bbobRun) bool { return q.instance == r.instance }) {
				return nil, fmt.Errorf("%s:%d: function %d, n = %d, instance %d listed twice", path, k+1, r.f, r.n, r.instance)
			}
			ref.runs[key] = append(ref.runs[key], r)
		}
	}
	return ref, nil
}

// selectRuns returns the runs of config on function f in dimension n.
func selectRuns(runs []bbobRun, config string, f, n int) []bbobRun {
	var out []bbobRun
	for _, r := range runs {
		if r.config == config && r.f == f && r.n == n {
			out = append(out, r)
		}
	}
	return out
}

// fmtERT formats an ERT with the solved count when not all were solved.
func fmtERT(ert float64, solved, of int) string {
	if solved == 0 {
		return "∞"
	}
	var s string
	if ert >= 1e5 {
		s = strconv.FormatFloat(ert, 'e', 2, 64)
	} else {
		s = strconv.Itoa(int(math.Round(ert)))
	}
	if solved < of {
		s += fmt.Sprintf(" (%d/%d)", solved, of)
	}
	return s
}

// fraction formats solved/total and its value.
func fraction(solved, total int) string {
	return fmt.Sprintf("%d/%d = %.2f", solved, total, float64(solved)/float64(total))
}

// bbobSummary is the Markdown summary of a suite run: solved fractions per
// dimension and function group, ERT per function and, with a reference
// (nil: none), the ratio to it.
func bbobSummary(o *bbobOpts, runs []bbobRun, ref reference) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# mmaes on COCO's bbob suite\n\n")
	fmt.Fprintf(&b, "Functions %s, dimensions %s, instances %s; x0 = 0, σ0 = %g, budget %g·n evaluations over all restarts, solved at f − f_opt ≤ %g.\n\n",
		rangesString(o.funcs), rangesString(o.dims), rangesString(o.instances), o.sigma0, o.budget, o.target)
	if ref != nil {
		b.WriteString(ref.about() + "\n\n")
	}
	cols := len(o.configs)
	header := func(first string) {
		b.WriteString(first)
		for _, c := range o.configs {
			fmt.Fprintf(&b, " %s |", c)
		}
		if ref != nil {
			fmt.Fprintf(&b, " %s |", ref.name())
			cols++
		}
		b.WriteString("\n|" + strings.Repeat("---|", strings.Count(first, "|")-1+cols) + "\n")
		cols = len(o.configs)
	}
	// solvedIn counts the solved runs of config (or of the reference, for
	// config "") over the functions fs in dimension n.
	solvedIn := func(config string, n int, fs []int) (solved, total int) {
		for _, f := range fs {
			if config == "" {
				if _, s, of, ok := ref.stats(n, f); ok {
					solved += s
					total += of
				}
				continue
			}
			_, s := ertOf(selectRuns(runs, config, f, n))
			solved += s
			total += len(o.instances)
		}
		return solved, total
	}

	b.WriteString("## Solved (function, instance) pairs\n\n")
	header("| dim |")
	for _, n := range o.dims {
		fmt.Fprintf(&b, "| %d |", n)
		for _, c := range o.configs {
			fmt.Fprintf(&b, " %s |", fraction(solvedIn(c, n, o.funcs)))
		}
		if ref != nil {
			if s, t := solvedIn("", n, o.funcs); t > 0 {
				fmt.Fprintf(&b, " %s |", fraction(s, t))
			} else {
				b.WriteString(" |")
			}
		}
		b.WriteString("\n")
	}

	b.WriteString("\n## Solved fraction by function group\n\n")
	header("| dim | group |")
	for _, n := range o.dims {
		for _, g := range bbobGroups {
			var fs []int
			for _, f := range o.funcs {
				if f >= g.lo && f <= g.hi {
					fs = append(fs, f)
				}
			}
			if len(fs) == 0 {
				continue
			}
			fmt.Fprintf(&b, "| %d | %s |", n, g.name)
			for _, c := range o.configs {
				s, t := solvedIn(c, n, fs)
				fmt.Fprintf(&b, " %.2f |", float64(s)/float64(t))
			}
			if ref != nil {
				if s, t := solvedIn("", n, fs); t > 0 {
					fmt.Fprintf(&b, " %.2f |", float64(s)/float64(t))
				} else {
					b.WriteString(" |")
				}
			}
			b.WriteString("\n")
		}
	}

	allLog := make([]float64, len(o.configs))
	allCount := make([]int, len(o.configs))
	for _, n := range o.dims {
		fmt.Fprintf(&b, "\n## %d-D: ERT (evaluations)\n\n", n)
		b.WriteString("| f |")
		for _, c := range o.configs {
			fmt.Fprintf(&b, " %s |", c)
		}
		k := len(o.configs)
		if ref != nil {
			fmt.Fprintf(&b, " %s |", ref.name())
			for _, c := range o.configs {
				fmt.Fprintf(&b, " %s ÷ %s |", c, ref.name())
			}
			k = 2*k + 1
		}
		b.WriteString("\n|---|" + strings.Repeat("---|", k) + "\n")
		logSum := make([]float64, len(o.configs))
		count := make([]int, len(o.configs))
		for _, f := range o.funcs {
			fmt.Fprintf(&b, "| f%d |", f)
			erts := make([]float64, len(o.configs))
			for k, c := range o.configs {
				ert, solved := ertOf(selectRuns(runs, c, f, n))
				erts[k] = ert
				fmt.Fprintf(&b, " %s |", fmtERT(ert, solved, len(o.instances)))
			}
			if ref != nil {
				rert, rsolved, of, ok := ref.stats(n, f)
				if !ok {
					b.WriteString(strings.Repeat(" |", 1+len(o.configs)) + "\n")
					continue
				}
				fmt.Fprintf(&b, " %s |", fmtERT(rert, rsolved, of))
				for k := range o.configs {
					if math.IsInf(erts[k], 1) || rsolved == 0 {
						b.WriteString(" |")
						continue
					}
					ratio := erts[k] / rert
					logSum[k] += math.Log(ratio)
					count[k]++
					allLog[k] += math.Log(ratio)
					allCount[k]++
					fmt.Fprintf(&b, " %.2f |", ratio)
				}
			}
			b.WriteString("\n")
		}
		if ref != nil {
			fmt.Fprintf(&b, "\nGeometric mean of the ERT ratio to %s over the functions both solve:", ref.name())
			geoMeans(&b, o.configs, logSum, count, "functions")
		}
	}
	if len(o.configs) > 1 {
		base := o.configs[0]
		fmt.Fprintf(&b, "\n## Against %s\n\nSolved pairs more than %s, and the geometric mean of the ERT ratio to %s over the (function, dimension) pairs both solve:\n\n| configuration | solved − %s | ERT ÷ %s |\n|---|---|---|\n", base, base, base, base, base)
		for _, c := range o.configs[1:] {
			diff, logSum, count := 0, 0.0, 0
			for _, n := range o.dims {
				for _, f := range o.funcs {
					e0, s0 := ertOf(selectRuns(runs, base, f, n))
					e1, s1 := ertOf(selectRuns(runs, c, f, n))
					diff += s1 - s0
					if s0 > 0 && s1 > 0 {
						logSum += math.Log(e1 / e0)
						count++
					}
				}
			}
			ratio := "–"
			if count > 0 {
				ratio = fmt.Sprintf("%.3f (%d pairs)", math.Exp(logSum/float64(count)), count)
			}
			fmt.Fprintf(&b, "| %s | %+d | %s |\n", c, diff, ratio)
		}
	}
	if ref != nil {
		fmt.Fprintf(&b, "\n## All dimensions\n\nGeometric mean of the ERT ratio to %s over the (function, dimension) pairs both solve:", ref.name())
		geoMeans(&b, o.configs, allLog, allCount, "pairs")
	}
	return b.String()
}

// geoMeans writes, for each configuration with a count, the geometric mean
// exp(logSum/count) and the count of what it is over, and ends the line.
func geoMeans(b *strings.Builder, configs []string, logSum []float64, count []int, over string) {
	for k, c := range configs {
		if count[k] > 0 {
			fmt.Fprintf(b, " %s %.2f (%d %s);", c, math.Exp(logSum[k]/float64(count[k])), count[k], over)
		}
	}
	b.WriteString("\n")
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// rangesString formats sorted integers as "1-5,10".
func rangesString(xs []int) string {
	var parts []string
	for i := 0; i < len(xs); {
		j := i
		for j+1 < len(xs) && xs[j+1] == xs[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", xs[i], xs[j]))
		} else {
			parts = append(parts, strconv.Itoa(xs[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// ecdf returns, for the runs of config in dimension n, the fraction of
// (function, instance, target) triples reached within x·n evaluations at
// each x of xs (COCO's empirical cumulative distribution of runtimes over
// the 51 targets 10^2 … 10^−8).
func ecdf(runs []bbobRun, config string, n int, xs []float64) []float64 {
	var hits []float64
	total := 0
	for _, r := range runs {
		if r.config != config || r.n != n {
			continue
		}
		for _, h := range r.targetHits {
			total++
			if h > 0 {
				hits = append(hits, float64(h)/float64(n))
			}
		}
	}
	ys := make([]float64, len(xs))
	if total == 0 {
		return ys
	}
	for i, x := range xs {
		k := 0
		for _, h := range hits {
			if h <= x {
				k++
			}
		}
		ys[i] = float64(k) / float64(total)
	}
	return ys
}

// plotECDF draws the ECDF of each configuration, a panel per dimension.
func plotECDF(path string, o *bbobOpts, runs []bbobRun) error {
	var xs []float64
	for e := 0.0; e <= math.Log10(o.budget)+1e-9; e += 0.02 {
		xs = append(xs, e)
	}
	var plots []*plot.Plot
	for _, n := range o.dims {
		p := plot.New()
		p.Title.Text = fmt.Sprintf("bbob f%s, %d-D, instances %s", rangesString(o.funcs), n, rangesString(o.instances))
		p.X.Label.Text = "log10(evaluations / dimension)"
		p.Y.Label.Text = "fraction of (function, instance, target)"
		p.Y.Min, p.Y.Max = 0, 1
		p.X.Min, p.X.Max = 0, math.Log10(o.budget)
		p.Legend.Top, p.Legend.Left = true, true
		p.Add(plotter.NewGrid())
		for k, c := range o.configs {
			pts := make(plotter.XYs, len(xs))
			for j, y := range ecdf(runs, c, n, pow10s(xs)) {
				pts[j] = plotter.XY{X: xs[j], Y: y}
			}
			l, err := plotter.NewLine(pts)
			if err != nil {
				return err
			}
			col, dashes, _, width := seriesStyle(k)
			l.Color, l.Dashes, l.Width = col, dashes, width
			p.Add(l)
			p.Legend.Add("mmaes "+c, l)
		}
		plots = append(plots, p)
	}
	return saveGrid(path, plots, 2, figureWidth, figureHeight)
}

func pow10s(es []float64) []float64 {
	out := make([]float64, len(es))
	for i, e := range es {
		out[i] = math.Pow(10, e)
	}
	return out
}
