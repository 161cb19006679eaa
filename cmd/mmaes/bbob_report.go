package main

import (
	_ "embed"
	"fmt"
	"math"
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
	s := strconv.FormatFloat(ert, 'g', 5, 64)
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

// bbobSummary is the Markdown summary of a suite run: solved fractions per
// dimension and function group, ERT per function and, with the standard
// settings, the ratio to pycma's BIPOP-aCMA-ES.
func bbobSummary(o *bbobOpts, runs []bbobRun) string {
	var b strings.Builder
	std := bbobStandard(o)
	ref := pycmaReference()
	fmt.Fprintf(&b, "# mmaes on COCO's bbob suite\n\n")
	fmt.Fprintf(&b, "Functions %s, dimensions %s, instances %s; x0 = 0, σ0 = %g, budget %g·n evaluations over all restarts, solved at f − f_opt ≤ %g.\n\n",
		rangesString(o.funcs), rangesString(o.dims), rangesString(o.instances), o.sigma0, o.budget, o.target)
	if std {
		b.WriteString("pycma: 4.4.0's BIPOP-aCMA-ES (`cma.fmin2(..., restarts=9, bipop=True)`) on instances 1–5 with the same settings, measured through COCO's C core.\n\n")
	}
	per := len(o.instances)

	b.WriteString("## Solved (function, instance) pairs\n\n| dim |")
	for _, c := range o.configs {
		fmt.Fprintf(&b, " %s |", c)
	}
	if std {
		b.WriteString(" pycma BIPOP |")
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(o.configs)+boolInt(std)) + "\n")
	for _, n := range o.dims {
		fmt.Fprintf(&b, "| %d |", n)
		for _, c := range o.configs {
			solved := 0
			for _, f := range o.funcs {
				_, s := ertOf(selectRuns(runs, c, f, n))
				solved += s
			}
			total := len(o.funcs) * per
			fmt.Fprintf(&b, " %d/%d = %.2f |", solved, total, float64(solved)/float64(total))
		}
		if std {
			solved, total := 0, 0
			for _, f := range o.funcs {
				if r, ok := ref[[2]int{n, f}]; ok {
					solved += r.bipopSolved
					total += 5
				}
			}
			if total > 0 {
				fmt.Fprintf(&b, " %d/%d = %.2f |", solved, total, float64(solved)/float64(total))
			} else {
				b.WriteString(" |")
			}
		}
		b.WriteString("\n")
	}

	b.WriteString("\n## Solved fraction by function group\n\n| dim | group |")
	for _, c := range o.configs {
		fmt.Fprintf(&b, " %s |", c)
	}
	if std {
		b.WriteString(" pycma BIPOP |")
	}
	b.WriteString("\n|---|---|" + strings.Repeat("---|", len(o.configs)+boolInt(std)) + "\n")
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
				solved := 0
				for _, f := range fs {
					_, s := ertOf(selectRuns(runs, c, f, n))
					solved += s
				}
				fmt.Fprintf(&b, " %.2f |", float64(solved)/float64(len(fs)*per))
			}
			if std {
				solved, total := 0, 0
				for _, f := range fs {
					if r, ok := ref[[2]int{n, f}]; ok {
						solved += r.bipopSolved
						total += 5
					}
				}
				if total > 0 {
					fmt.Fprintf(&b, " %.2f |", float64(solved)/float64(total))
				} else {
					b.WriteString(" |")
				}
			}
			b.WriteString("\n")
		}
	}

	for _, n := range o.dims {
		fmt.Fprintf(&b, "\n## %d-D: ERT (evaluations)\n\n| f |", n)
		for _, c := range o.configs {
			fmt.Fprintf(&b, " %s |", c)
		}
		if std {
			b.WriteString(" pycma BIPOP |")
			for _, c := range o.configs {
				fmt.Fprintf(&b, " %s ÷ pycma |", c)
			}
		}
		b.WriteString("\n|---|" + strings.Repeat("---|", len(o.configs)*(1+boolInt(std))+boolInt(std)) + "\n")
		logSum := make([]float64, len(o.configs))
		count := make([]int, len(o.configs))
		for _, f := range o.funcs {
			fmt.Fprintf(&b, "| f%d |", f)
			erts := make([]float64, len(o.configs))
			for k, c := range o.configs {
				ert, solved := ertOf(selectRuns(runs, c, f, n))
				erts[k] = ert
				fmt.Fprintf(&b, " %s |", fmtERT(ert, solved, per))
			}
			if std {
				r, ok := ref[[2]int{n, f}]
				if !ok {
					b.WriteString(strings.Repeat(" |", 1+len(o.configs)) + "\n")
					continue
				}
				fmt.Fprintf(&b, " %s |", fmtERT(r.bipopERT, r.bipopSolved, 5))
				for k := range o.configs {
					if math.IsInf(erts[k], 1) || r.bipopSolved == 0 {
						b.WriteString(" |")
						continue
					}
					ratio := erts[k] / r.bipopERT
					logSum[k] += math.Log(ratio)
					count[k]++
					fmt.Fprintf(&b, " %.2f |", ratio)
				}
			}
			b.WriteString("\n")
		}
		if std {
			b.WriteString("\nGeometric mean of the ERT ratio to pycma BIPOP over the functions both solve:")
			for k, c := range o.configs {
				if count[k] > 0 {
					fmt.Fprintf(&b, " %s %.2f (%d functions);", c, math.Exp(logSum[k]/float64(count[k])), count[k])
				}
			}
			b.WriteString("\n")
		}
	}
	return b.String()
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
