package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/mmaes-go/mmaes"
	"github.com/mmaes-go/mmaes/benchfn"
	"github.com/mmaes-go/mmaes/kernel"
)

// `mmaes paper` reproduces the section "Experimental Studies" of the paper:
//
//  1. evaluations to target per function × dimension × update (median,
//     success rate, SP = E_s/p_s, β = SP/SP(Cholesky)): fe.csv, fe.md,
//     fe_dims.png, beta_dims.png;
//  2. the approximations: α = 1 − vᵀu/(‖v‖‖u‖), u = A_t⁻¹p_{t+1}, and
//     |b − c1/2| over the median run at n = 32 on Cig, Ell, Tab, Ros and their
//     means over whole runs per dimension: alpha_n32.csv, alpha_dims.csv,
//     b_dims.csv and their figures;
//  3. the eigenvalues of A·Aᵀ on Ell at n = 10: eig_n10.csv, eig_n10.png;
//  4. rotation invariance on Ell and Ros at n = 32, 64: rotation.csv,
//     rotation_traj.csv, rotation.png;
//  5. the median-run trajectories of every function at n = 64 for the
//     three updates: traj_n64.csv, traj_<f>_n64.png;
//
// then prints a summary of the findings next to the paper's claims
// (also summary.md) and the files written.

// updates are the three rules the paper compares, the baseline last.
var updates = []mmaes.Update{mmaes.MMA, mmaes.ECMA, mmaes.Cholesky}

// budgetBase is the constant part of a run's evaluation budget
// F·n² + budgetBase.
const budgetBase = 10000

// paperOpts are the settings of `mmaes paper`.
type paperOpts struct {
	dims        []int
	runs        int
	out         string
	funcs       []benchfn.Function
	workers     int
	evalsFactor float64
	seed        uint64

	trajN, trajRuns int

	alphaN     int
	alphaDims  []int
	alphaRuns  int
	alphaEvery int
	alphaFuncs []benchfn.Function

	eigN int

	rotDims  []int
	rotRuns  int
	rotFuncs []benchfn.Function

	quiet bool
}

// The defaults finish in a few minutes on two cores; -full selects the
// paper's 21 runs and dimensions up to 256 for the α and b study.
const (
	defDims      = "2,4,8,16,32"
	fullDims     = "2,4,8,16,32,64"
	defAlphaDims = "2,4,8,16,32,64,128"
	fullAlpha    = "2,4,8,16,32,64,128,256"
)

func paperCmd(args []string, stdout, stderr io.Writer) error {
	o, err := paperFlags(args, stderr)
	if err != nil {
		return err
	}
	return runPaper(o, stdout, stderr)
}

// paperFlags parses the command line of `mmaes paper`; every error is a
// usage error (or flag.ErrHelp).
func paperFlags(args []string, stderr io.Writer) (paperOpts, error) {
	fs := newFlagSet("paper", stderr)
	dims := fs.String("dims", defDims, "dimensions of the evaluations-to-target study (-full: "+fullDims+")")
	runs := fs.Int("runs", 5, "independent runs per function × dimension × update (-full: 21)")
	out := fs.String("out", "paper-out", "output directory")
	funcs := fs.String("funcs", "", "test functions of the FE study and the trajectories, by short name (default: the paper's ten, sp,cig,ctb,ell,tab,tx,dp,sch,ros,pr)")
	workers := fs.Int("workers", runtime.NumCPU(), "number of runs in parallel")
	factor := fs.Float64("max-evals-factor", 1000, fmt.Sprintf("evaluation budget of a run: F·n² + %d (TolFun is off, as in the paper; the library's TolX and condition stops stay on)", budgetBase))
	full := fs.Bool("full", false, "the paper's full study: 21 runs everywhere, FE dims "+fullDims+", α/b dims "+fullAlpha+" (flags given explicitly still win)")
	seed := fs.Uint64("seed", 1, "seed of the first run; run k of every cell has seed+k (the same starts for the three updates)")
	trajN := fs.Int("traj-n", 64, "dimension of the median-run trajectories per function")
	trajRuns := fs.Int("traj-runs", 5, "runs per function × update for the trajectories (-full: 21)")
	alphaN := fs.Int("alpha-n", 32, "dimension of the α and |b − c1/2| trajectories")
	alphaDims := fs.String("alpha-dims", defAlphaDims, "dimensions of the mean α and |b − c1/2| (-full: "+fullAlpha+")")
	alphaRuns := fs.Int("alpha-runs", 5, "runs per function × dimension of the α study (-full: 21)")
	alphaEvery := fs.Int("alpha-every", 0, "compute α (an O(n³) LU) every k-th generation; 0: 1 up to n = 32, then (n/32)²")
	alphaFuncs := fs.String("alpha-funcs", "cig,ell,tab,ros", "test functions of the α study")
	eigN := fs.Int("eig-n", 10, "dimension of the eigenvalue study on Ell")
	rotDims := fs.String("rot-dims", "32,64", "dimensions of the rotation study")
	rotRuns := fs.Int("rot-runs", 5, "runs per function × dimension × rotation (-full: 21)")
	rotFuncs := fs.String("rot-funcs", "ell,ros", "test functions of the rotation study")
	quiet := fs.Bool("q", false, "no progress bar")
	if err := parseFlags(fs, args); err != nil {
		return paperOpts{}, err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *full {
		fullDefault := func(name string, apply func()) {
			if !set[name] {
				apply()
			}
		}
		fullDefault("dims", func() { *dims = fullDims })
		fullDefault("runs", func() { *runs = 21 })
		fullDefault("traj-runs", func() { *trajRuns = 21 })
		fullDefault("alpha-dims", func() { *alphaDims = fullAlpha })
		fullDefault("alpha-runs", func() { *alphaRuns = 21 })
		fullDefault("rot-runs", func() { *rotRuns = 21 })
	}

	o := paperOpts{out: *out, workers: *workers, evalsFactor: *factor, seed: *seed,
		runs: *runs, trajN: *trajN, trajRuns: *trajRuns, alphaN: *alphaN, alphaRuns: *alphaRuns,
		alphaEvery: *alphaEvery, eigN: *eigN, rotRuns: *rotRuns, quiet: *quiet}
	var err error
	if o.dims, err = parseInts("dims", *dims); err != nil {
		return paperOpts{}, err
	}
	if o.alphaDims, err = parseInts("alpha-dims", *alphaDims); err != nil {
		return paperOpts{}, err
	}
	if o.rotDims, err = parseInts("rot-dims", *rotDims); err != nil {
		return paperOpts{}, err
	}
	if *funcs == "" {
		o.funcs = benchfn.All()
	} else if o.funcs, err = parseFuncs("funcs", *funcs); err != nil {
		return paperOpts{}, err
	}
	if o.alphaFuncs, err = parseFuncs("alpha-funcs", *alphaFuncs); err != nil {
		return paperOpts{}, err
	}
	if o.rotFuncs, err = parseFuncs("rot-funcs", *rotFuncs); err != nil {
		return paperOpts{}, err
	}
	for _, c := range []struct {
		name string
		v    int
	}{{"runs", o.runs}, {"traj-n", o.trajN}, {"traj-runs", o.trajRuns},
		{"alpha-n", o.alphaN}, {"alpha-runs", o.alphaRuns}, {"eig-n", o.eigN}, {"rot-runs", o.rotRuns}} {
		if c.v < 1 || c.v > maxFlagDim {
			return paperOpts{}, fmt.Errorf("%w: -%s must be in [1, %d]", errUsage, c.name, maxFlagDim)
		}
	}
	if err := checkWorkersFlag("workers", o.workers, 1); err != nil {
		return paperOpts{}, err
	}
	if o.alphaEvery < 0 {
		return paperOpts{}, fmt.Errorf("%w: -alpha-every must not be negative", errUsage)
	}
	if math.IsNaN(o.evalsFactor) || o.evalsFactor <= 0 || o.evalsFactor > 1e9 {
		return paperOpts{}, fmt.Errorf("%w: -max-evals-factor must be in (0, 1e9]", errUsage)
	}
	for _, n := range slices.Concat(o.dims, o.alphaDims, o.rotDims, []int{o.trajN, o.alphaN, o.eigN}) {
		if n > 4096 {
			return paperOpts{}, fmt.Errorf("%w: dimension %d too large for this study (at most 4096)", errUsage, n)
		}
	}
	o.dims = sortedUnique(o.dims)
	o.alphaDims = sortedUnique(o.alphaDims)
	o.rotDims = sortedUnique(o.rotDims)
	return o, nil
}

// parseFuncs parses a comma-separated list of distinct short function
// names (flag -flagName).
func parseFuncs(flagName, s string) ([]benchfn.Function, error) {
	var out []benchfn.Function
	var names []string
	for _, name := range strings.Split(s, ",") {
		f, err := lookupFunction(strings.TrimSpace(name))
		if err != nil {
			return nil, err
		}
		out, names = append(out, f), append(names, f.Short)
	}
	return out, noRepeats(flagName, names)
}

func sortedUnique(xs []int) []int {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return slices.Compact(xs)
}

// budget is the evaluation budget of a run at dimension n.
func (o *paperOpts) budget(n int) int {
	return int(math.Ceil(o.evalsFactor*float64(n)*float64(n))) + budgetBase
}

// alphaStep is how often the α study solves with A at dimension n.
func (o *paperOpts) alphaStep(n int) int {
	if o.alphaEvery > 0 {
		return o.alphaEvery
	}
	if n <= 32 {
		return 1
	}
	return (n / 32) * (n / 32)
}

// seeds returns the seeds of k runs.
func (o *paperOpts) seeds(k int) []uint64 {
	s := make([]uint64, k)
	for i := range s {
		s[i] = o.seed + uint64(i)
	}
	return s
}

// plan lists the runs every experiment needs.
func (o *paperOpts) plan() *runSet {
	rs := newRunSet()
	for _, f := range o.funcs {
		for _, n := range o.dims {
			for _, u := range updates {
				for _, s := range o.seeds(o.runs) {
					rs.get(problem{fn: f, n: n}, u, s, o.budget(n))
				}
			}
		}
		for _, u := range updates {
			for _, s := range o.seeds(o.trajRuns) {
				rs.get(problem{fn: f, n: o.trajN}, u, s, o.budget(o.trajN)).wantTrace = true
			}
		}
	}
	for _, f := range o.alphaFuncs {
		for _, n := range sortedUnique(append(slices.Clone(o.alphaDims), o.alphaN)) {
			for _, s := range o.seeds(o.alphaRuns) {
				r := rs.get(problem{fn: f, n: n}, mmaes.MMA, s, o.budget(n))
				r.wantAlpha, r.alphaStep = true, o.alphaStep(n)
				r.alphaLog = r.alphaLog || n == o.alphaN
				r.wantTrace = r.wantTrace || n == o.alphaN
			}
		}
	}
	ell, _ := benchfn.ByName("ell")
	r := rs.get(problem{fn: ell, n: o.eigN}, mmaes.MMA, o.seed, o.budget(o.eigN))
	r.wantEig, r.wantTrace = true, true
	for _, f := range o.rotFuncs {
		for _, n := range o.rotDims {
			for _, rot := range []bool{false, true} {
				for _, s := range o.seeds(o.rotRuns) {
					rs.get(problem{fn: f, n: n, rotate: rot}, mmaes.MMA, s, o.budget(n)).wantTrace = true
				}
			}
		}
	}
	return rs
}

// runPaper runs the study and writes its outputs.
func runPaper(o paperOpts, stdout, stderr io.Writer) error {
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	rs := o.plan()
	fmt.Fprintf(stdout, "mmaes paper: %d runs on %d workers (kernel %s), output in %s\n",
		len(rs.order), o.workers, kernel.Impl(), o.out)
	fmt.Fprintf(stdout, "FE study: functions %s, n = %s, %d runs, budget F·n² + %d evaluations (F = %g)\n",
		funcNames(o.funcs), intsString(o.dims), o.runs, budgetBase, o.evalsFactor)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var bar io.Writer
	if !o.quiet {
		bar = stderr
	}
	start := time.Now()
	if err := runAll(ctx, rs.order, o.workers, bar); err != nil {
		return err
	}
	wall := time.Since(start)

	w := &outWriter{dir: o.out}
	rep := &paperReport{opts: &o, rs: rs}
	rep.writeFE(w)
	rep.writeTrajectories(w)
	rep.writeAlpha(w)
	rep.writeEig(w)
	rep.writeRotation(w)
	rep.writeSummary(w, stdout)
	if w.err != nil {
		return w.err
	}
	fmt.Fprintf(stdout, "\n%d runs in %v; files written to %s:\n", len(rs.order), wall.Round(time.Millisecond), o.out)
	for _, f := range w.files {
		fmt.Fprintf(stdout, "  %s\n", f)
	}
	return nil
}

func funcNames(fs []benchfn.Function) string {
	var s []string
	for _, f := range fs {
		s = append(s, f.Short)
	}
	return strings.Join(s, ",")
}

func intsString(xs []int) string {
	var s []string
	for _, x := range xs {
		s = append(s, fmt.Sprint(x))
	}
	return strings.Join(s, ",")
}
