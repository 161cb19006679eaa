package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
)

// COCO's bbob data format, as its C logger (logger_bbob.c, coco_observer.c
// of COCO 2.8) writes it, so that COCO's post-processing (cocopp) reads the
// results: per function an .info index file, per function and dimension a
// .dat file (a line whenever the best value so far crosses one of 20
// logarithmic targets a decade, or a linear one of precision 1e5), a .tdat
// file (a line at 20 evaluation counts a decade and at {1, 2, 5}·10^k·n) and
// .rdat (a line at each restart) and .mdat files (recommendations: empty
// here), each run under a header line.

// cocoRun logs one run of an optimizer on one problem.
type cocoRun struct {
	n          int
	fopt       float64
	evals      int
	best       float64
	bestX      []float64
	dat, tdat  strings.Builder
	rdat       strings.Builder
	lastDat    int
	lastTdat   int
	restarted  bool
	logExp     int     // the log target reached: ⌈20·log10(best − fopt)⌉
	linValue   float64 // the linear target reached
	evalValue1 int     // the next evaluation trigger of the 20 a decade
	evalExp1   int
	evalValue2 int // the next trigger of {1, 2, 5}·10^k·n
	evalExp2   int
	evalBase   int
}

const (
	cocoTargetsPerDecade = 20
	cocoLogPrecision     = 1e-8
	cocoLinPrecision     = 1e5
	cocoEvalsPerDecade   = 20
	cocoNaN              = 2e21 // NAN_FOR_LOGGING
	cocoInf              = 3e21 // INFINITY_FOR_LOGGING
)

var cocoEvalBases = []int{1, 2, 5}

// cocoHeader is the header of each run in the data files.
func cocoHeader(fopt float64) string {
	return fmt.Sprintf("%% f evaluations | g evaluations | best noise-free fitness - Fopt (%13.12e) + sum g_i+ | "+
		"measured fitness | best measured fitness or single-digit g-values | x1 | x2...\n", fopt)
}

func newCocoRun(n int, fopt float64) *cocoRun {
	r := &cocoRun{n: n, fopt: fopt, bestX: make([]float64, n), logExp: math.MaxInt32, linValue: math.MaxFloat64,
		evalValue1: 1, evalValue2: n * cocoEvalBases[0]}
	h := cocoHeader(fopt)
	r.dat.WriteString(h)
	r.tdat.WriteString(h)
	r.rdat.WriteString(h)
	return r
}

// evaluated records the evaluation of x with value y. As in COCO, a point
// with a NaN coordinate is not evaluated: not counted, not logged.
func (r *cocoRun) evaluated(x []float64, y float64) {
	for _, xi := range x {
		if xi != xi {
			return
		}
	}
	r.evals++
	switch {
	case math.IsNaN(y):
		y = cocoNaN
	case math.IsInf(y, 0):
		y = cocoInf
	}
	v := math.Max(y, r.fopt)
	if r.evals == 1 || v < r.best {
		r.best = v
		copy(r.bestX, x)
		// The first evaluation is logged without consulting the targets
		// (they stay unset); later, both are updated, whichever triggers.
		if r.evals == 1 || r.targetsTrigger(r.best-r.fopt) {
			r.output(&r.dat, x, y, r.best)
			r.lastDat = r.evals
		}
	}
	if r.evalTrigger(r.evals) {
		r.output(&r.tdat, x, y, r.best)
		r.lastTdat = r.evals
	}
	if r.restarted {
		r.output(&r.rdat, x, y, r.best)
		r.restarted = false
	}
}

// restart marks a restart of the optimizer: the next evaluation goes to
// the .rdat file.
func (r *cocoRun) restart() {
	if r.evals > 0 {
		r.restarted = true
	}
}

// finish writes the last lines of the run.
func (r *cocoRun) finish() {
	if r.evals != r.lastDat {
		r.output(&r.dat, r.bestX, r.best, r.best)
	}
	if r.evals != r.lastTdat {
		r.output(&r.tdat, r.bestX, r.best, r.best)
	}
}

// output writes a data line: evaluations, constraint evaluations (0), best
// − f_opt, the current value, the best value and, below 7 variables, x.
func (r *cocoRun) output(w *strings.Builder, x []float64, current, best float64) {
	fmt.Fprintf(w, "%d %d %+10.9e %+10.9e %+10.9e", r.evals, 0, best-r.fopt, current, best)
	if r.n < 7 {
		for _, xi := range x {
			fmt.Fprintf(w, " %+5.4e", xi)
		}
	}
	w.WriteByte('\n')
}

// targetsTrigger reports whether v reached a new logarithmic or linear
// target, updating both.
func (r *cocoRun) targetsTrigger(v float64) bool {
	logT := r.logTrigger(v)
	linT := r.linTrigger(v)
	return logT || linT
}

// logTrigger reports whether v (≥ 0) reached a new logarithmic target.
func (r *cocoRun) logTrigger(v float64) bool {
	verified := v
	switch {
	case v == 0:
		verified = cocoLogPrecision / 10
	case v < cocoLogPrecision:
		verified = cocoLogPrecision
	}
	e := int(math.Ceil(math.Log10(verified) * cocoTargetsPerDecade))
	if e < r.logExp {
		r.logExp = e
		return true
	}
	return false
}

// linTrigger reports whether v reached a new linear target (v rounded up
// to a multiple of the precision).
func (r *cocoRun) linTrigger(v float64) bool {
	t := roundUpWithPrecision(v, cocoLinPrecision)
	if t < r.linValue {
		r.linValue = t
		return true
	}
	return false
}

func roundUpWithPrecision(x, p float64) float64 {
	up := math.Ceil(x/p) * p
	rounded := math.Floor(x/p+0.5) * p
	if math.Abs(rounded-up) < p {
		return up
	}
	if math.Abs(x-rounded) < 1e-12 {
		return rounded
	}
	return up
}

// evalTrigger reports whether evaluation number e is logged in .tdat.
func (r *cocoRun) evalTrigger(e int) bool {
	first := false
	if e >= r.evalValue1 {
		for int(math.Floor(math.Pow(10, float64(r.evalExp1)/cocoEvalsPerDecade))) <= r.evalValue1 {
			r.evalExp1++
		}
		r.evalValue1 = int(math.Floor(math.Pow(10, float64(r.evalExp1)/cocoEvalsPerDecade)))
		first = true
	}
	second := false
	if e >= r.evalValue2 {
		if r.evalBase < len(cocoEvalBases)-1 {
			r.evalBase++
		} else {
			r.evalBase = 0
			r.evalExp2++
		}
		r.evalValue2 = int(math.Pow(10, float64(r.evalExp2)) * float64(r.n) * float64(cocoEvalBases[r.evalBase]))
		second = true
	}
	return first || second
}

// cocoResult is a finished run, to be written with the others of its
// function and dimension.
type cocoResult struct {
	function, dim, instance int
	run                     *cocoRun
}

// writeCoco writes the runs in COCO's format under dir: per function
// bbobexp_f<f>.info, and data_f<f>/bbobexp_f<f>_DIM<n>.{dat,tdat,rdat,mdat}.
// The runs are written in the order given (sorted by function, dimension,
// instance by the caller).
func writeCoco(dir, algID, algInfo string, runs []cocoResult) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	info := map[int]*strings.Builder{}
	var funcs []int
	type key struct{ f, n int }
	files := map[key]*[4]strings.Builder{}
	var keys []key
	for _, res := range runs {
		f, n := res.function, res.dim
		ib, ok := info[f]
		if !ok {
			ib = &strings.Builder{}
			info[f] = ib
			funcs = append(funcs, f)
		}
		k := key{f, n}
		fb, ok := files[k]
		if !ok {
			fb = &[4]strings.Builder{}
			files[k] = fb
			keys = append(keys, k)
			if ib.Len() > 0 {
				ib.WriteString("\n")
			}
			fmt.Fprintf(ib, "suite = 'bbob', funcId = %d, DIM = %d, Precision = %.3e, algId = '%s', "+
				"coco_version = '2.8.2', logger = 'bbob', data_format = 'bbob-new2', settings = ''\n",
				f, n, math.Pow(10, -8), algID)
			fmt.Fprintf(ib, "%% %s\n", algInfo)
			fmt.Fprintf(ib, "data_f%d/bbobexp_f%d_DIM%d.dat", f, f, n)
		}
		r := res.run
		fmt.Fprintf(ib, ", %d:%d|%.1e", res.instance, r.evals, r.best-r.fopt)
		fb[0].WriteString(r.dat.String())
		fb[1].WriteString(r.tdat.String())
		fb[2].WriteString(r.rdat.String())
		fb[3].WriteString(cocoHeader(r.fopt))
	}
	for _, f := range funcs {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("bbobexp_f%d.info", f)), []byte(info[f].String()), 0o644); err != nil {
			return err
		}
	}
	for _, k := range keys {
		sub := filepath.Join(dir, fmt.Sprintf("data_f%d", k.f))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return err
		}
		for i, ext := range []string{"dat", "tdat", "rdat", "mdat"} {
			name := filepath.Join(sub, fmt.Sprintf("bbobexp_f%d_DIM%d.%s", k.f, k.n, ext))
			if err := os.WriteFile(name, []byte(files[k][i].String()), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}
