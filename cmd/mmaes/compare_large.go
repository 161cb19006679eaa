package main

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mmaes-go/mmaes"
)

// largeLibraryConfigs are the library configurations `mmaes largescale`
// runs at dimension n (the run's start, seed, target and budget are set on
// them): "lmma" the limited-memory MMA-ES with its defaults, "lmma-slow"
// the same without its fast terms (FastMemory −1: the slow ones only, as
// LMMA was before them), "mma" the full-matrix MMA-ES (O(n²) a candidate:
// up to -mma-max-dim).
var largeLibraryConfigs = map[string]func(n int) mmaes.Config{
	"lmma": func(n int) mmaes.Config {
		c := mmaes.DefaultConfig(n)
		c.Update = mmaes.LMMA
		return c
	},
	"lmma-slow": func(n int) mmaes.Config {
		c := mmaes.DefaultConfig(n)
		c.Update, c.FastMemory = mmaes.LMMA, -1
		return c
	},
	"mma": mmaes.DefaultConfig,
}

// The start of every run of `mmaes largescale`: m0 uniform in [−5, 5]^n,
// COCO's region of interest, drawn from the run's seed (all optimizers
// start a seed's run from the same m0, on the same function instance),
// and σ0 = 2, a fifth of the region's width (pycma's and COCO's usual
// σ0 for [−5, 5]^n).
const (
	largeInitRange = 5.0
	largeInitSigma = 2.0
)

// largeOptimizers are the optimizers `mmaes largescale` knows, in table
// order.
var largeOptimizers = []string{"lmmaes", "sepcma", "lmma", "lmma-slow", "mma"}

// largeJob is one run: a function at a dimension, a seed, an optimizer.
type largeJob struct {
	fn     largeFunction
	n      int
	seed   uint64
	opt    string
	budget int
	target float64
	result largeRun
}

// largeRun is the outcome of one run of `mmaes largescale`.
type largeRun struct {
	// hit is the index (from 1) of the first evaluation with f ≤ target,
	// 0 if none within the budget.
	hit int
	// evals counts the evaluations made, best is the best value seen.
	evals int
	best  float64
	// reason is the optimizer's reason for stopping.
	reason string
	wall   time.Duration
	// skipped: the optimizer does not run at this dimension; err: it
	// refused the configuration.
	skipped bool
	err     error
}

// solved reports whether the run reached the target within its budget.
func (r largeRun) solved() bool { return r.hit > 0 }

// countingObjective counts evaluations and records the first that reaches
// the target (within the budget), the same way for every optimizer.
type countingObjective struct {
	f       *largeObjective
	target  float64
	budget  int
	evals   int
	hit     int
	best    float64
	started bool
}

// eval evaluates f at x and keeps the counts.
func (c *countingObjective) eval(x []float64) float64 {
	v := c.f.Eval(x)
	c.evals++
	if !c.started || v < c.best {
		c.best, c.started = v, true
	}
	if c.hit == 0 && v <= c.target && c.evals <= c.budget {
		c.hit = c.evals
	}
	return v
}

// largeInitialMean draws m0 uniform in [−5, 5]^n from a generator of its
// own, seeded by seed.
func largeInitialMean(n int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 0x6c61726765)) // "large"
	m := make([]float64, n)
	for i := range m {
		m[i] = largeInitRange * (2*r.Float64() - 1)
	}
	return m
}

// runLargeJob runs j and sets j.result.
func runLargeJob(j *largeJob, mmaMaxDim int) {
	if j.opt == "mma" && mmaMaxDim > 0 && j.n > mmaMaxDim {
		j.result = largeRun{skipped: true}
		return
	}
	obj := &countingObjective{f: newLargeObjective(j.fn, j.n, j.seed), target: j.target, budget: j.budget}
	m0 := largeInitialMean(j.n, j.seed)
	start := time.Now()
	var reason string
	var err error
	switch j.opt {
	case "lmmaes", "sepcma":
		cfg := baselineConfig{Mean: m0, Sigma: largeInitSigma, Seed: j.seed, TargetF: j.target, MaxEvals: j.budget}
		var r baselineResult
		if j.opt == "lmmaes" {
			var o *lmmaes
			if o, err = newLMMAES(cfg); err == nil {
				r = o.run(obj.eval)
			}
		} else {
			var o *sepCMA
			if o, err = newSepCMA(cfg); err == nil {
				r = o.run(obj.eval)
			}
		}
		reason = r.Reason.String()
	case "lmma", "lmma-slow", "mma":
		reason, err = runLargeLibrary(j.opt, j.n, m0, j.seed, j.target, j.budget, obj.eval)
	default:
		err = fmt.Errorf("unknown optimizer %q", j.opt)
	}
	j.result = largeRun{hit: obj.hit, evals: obj.evals, best: obj.best, reason: reason, wall: time.Since(start), err: err}
}

// runLargeLibrary runs the library's optimizer of largeLibraryConfigs[name](n)
// from m0, σ0 = largeInitSigma, to the target or the budget, evaluating
// its candidates one after another (whatever its Workers), and returns
// its reason for stopping.
func runLargeLibrary(name string, n int, m0 []float64, seed uint64, target float64, budget int, f func([]float64) float64) (string, error) {
	cfg := largeLibraryConfigs[name](n)
	cfg.Mean = m0
	cfg.Sigma = largeInitSigma
	cfg.Seed = seed
	cfg.TargetF = target
	cfg.MaxEvals = budget
	opt, err := mmaes.New(cfg)
	if err != nil {
		return "", err
	}
	var fit []float64
	for opt.Reason() == mmaes.NotStopped {
		xs := opt.Ask()
		fit = fit[:0]
		for _, x := range xs {
			fit = append(fit, f(x))
		}
		if err := opt.Tell(fit); err != nil {
			return "", err
		}
	}
	return opt.Reason().String(), nil
}

// largescaleCmd is `mmaes largescale`: LM-MA-ES, sep-CMA-ES and the
// library's limited memory ("lmma"; "mma", the full matrix, on request) on the large-scale suite
// (largescale_funcs.go), every function × dimension × seed × optimizer,
// with a Markdown table per dimension of the median evaluations to the
// target.
func largescaleCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("largescale", stderr)
	dimsFlag := fs.String("dims", "1000", "dimensions")
	runs := fs.Int("runs", 5, "runs (seeds first-seed … first-seed+runs−1) per function, dimension and optimizer")
	firstSeed := fs.Int("first-seed", 1, "seed of the first run (to continue or split a comparison)")
	funcsFlag := fs.String("funcs", "all", "functions (short names: sph, ell, dis, cig, dpw, ros, and rsph … rros rotated), or all")
	optsFlag := fs.String("opts", "lmmaes,sepcma,lmma", "optimizers: lmmaes, sepcma, lmma (the library's LMMA), lmma-slow (LMMA without its fast terms), mma (the library's full-matrix MMA)")
	budgetPerN := fs.Int("budget-per-n", 1000, "evaluation budget of a run in multiples of n (see -max-evals)")
	maxEvals := fs.Int("max-evals", 0, "evaluation budget of a run; 0: -budget-per-n × n")
	target := fs.Float64("target", 1e-8, "target: a run succeeds at its first evaluation with f ≤ target (every function's minimum is 0)")
	mmaMaxDim := fs.Int("mma-max-dim", 2048, "largest n at which mma runs (the full matrix costs O(n²) a candidate); 0: no limit")
	workers := fs.Int("workers", runtime.NumCPU(), "runs at once")
	out := fs.String("out", "", "also write the Markdown tables to this file")
	quiet := fs.Bool("q", false, "quiet: no progress lines on stderr")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	dims, err := parseInts("dims", *dimsFlag)
	if err != nil {
		return err
	}
	if *runs < 1 || *firstSeed < 1 || *workers < 1 || *budgetPerN < 1 || *maxEvals < 0 || *mmaMaxDim < 0 {
		return fmt.Errorf("%w: -runs, -first-seed, -workers and -budget-per-n must be positive, -max-evals and -mma-max-dim ≥ 0", errUsage)
	}
	if *runs > maxFlagDim || *firstSeed > math.MaxInt-*runs {
		return fmt.Errorf("%w: -runs at most %d, -first-seed + -runs within an int", errUsage, maxFlagDim)
	}
	if err := checkWorkersFlag("workers", *workers, 1); err != nil {
		return err
	}
	if math.IsNaN(*target) {
		return fmt.Errorf("%w: -target is NaN", errUsage)
	}
	var funcs []largeFunction
	if *funcsFlag == "all" {
		funcs = largeFunctions
	} else {
		for _, name := range strings.Split(*funcsFlag, ",") {
			fn, err := lookupLargeFunction(strings.TrimSpace(name))
			if err != nil {
				return err
			}
			funcs = append(funcs, fn)
		}
		var names []string
		for _, f := range funcs {
			names = append(names, f.Short)
		}
		if err := noRepeats("funcs", names); err != nil {
			return err
		}
	}
	var opts []string
	for _, name := range strings.Split(*optsFlag, ",") {
		name = strings.TrimSpace(name)
		if !slices.Contains(largeOptimizers, name) {
			return fmt.Errorf("%w: unknown optimizer %q (one of %s)", errUsage, name, strings.Join(largeOptimizers, ", "))
		}
		if !slices.Contains(opts, name) {
			opts = append(opts, name)
		}
	}
	for _, n := range dims {
		if slices.ContainsFunc(funcs, func(f largeFunction) bool { return f.kind == largeRosenbrock }) && n < 2 {
			return fmt.Errorf("%w: Rosenbrock needs n ≥ 2", errUsage)
		}
	}
	for _, n := range dims {
		if *maxEvals == 0 && *budgetPerN > math.MaxInt/n {
			return fmt.Errorf("%w: -budget-per-n %d times n = %d overflows an int", errUsage, *budgetPerN, n)
		}
	}
	if err := checkOutputFiles("out", *out); err != nil {
		return err
	}
	budgetFor := func(n int) int {
		if *maxEvals > 0 {
			return *maxEvals
		}
		return *budgetPerN * n
	}

	var jobs []*largeJob
	for _, n := range dims {
		for _, fn := range funcs {
			for s := *firstSeed; s < *firstSeed+*runs; s++ {
				for _, opt := range opts {
					jobs = append(jobs, &largeJob{fn: fn, n: n, seed: uint64(s), opt: opt, budget: budgetFor(n), target: *target})
				}
			}
		}
	}
	var progress io.Writer = stderr
	if *quiet {
		progress = io.Discard
	}
	start := time.Now()
	runLargeJobs(jobs, *workers, *mmaMaxDim, progress)

	var md strings.Builder
	fmt.Fprintf(&md, "# Large-scale suite: %s\n\n", strings.Join(opts, ", "))
	fmt.Fprintf(&md, "%d runs per cell (seeds %d–%d), target f ≤ %g, m0 ~ U[−%g, %g]^n and σ0 = %g per seed; %d runs in %s on %d workers.\n",
		*runs, *firstSeed, *firstSeed+*runs-1, *target, largeInitRange, largeInitRange, largeInitSigma, len(jobs), time.Since(start).Round(time.Second), *workers)
	for _, n := range dims {
		writeLargeTable(&md, jobs, funcs, opts, n, budgetFor(n))
	}
	fmt.Fprint(stdout, md.String())
	if *out != "" {
		if err := os.WriteFile(*out, []byte(md.String()), 0o644); err != nil {
			return err
		}
	}
	for _, j := range jobs {
		if j.result.err != nil {
			return fmt.Errorf("%s on %s n=%d seed %d: %w", j.opt, j.fn.Short, j.n, j.seed, j.result.err)
		}
	}
	return nil
}

// runLargeJobs runs the jobs on workers goroutines, printing a line per
// finished run on progress.
func runLargeJobs(jobs []*largeJob, workers, mmaMaxDim int, progress io.Writer) {
	next := make(chan *largeJob)
	done := make(chan *largeJob)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				runLargeJob(j, mmaMaxDim)
				done <- j
			}
		}()
	}
	go func() {
		for _, j := range jobs {
			next <- j
		}
		close(next)
	}()
	width := len(fmt.Sprint(len(jobs)))
	for k := 1; k <= len(jobs); k++ {
		j := <-done
		r := j.result
		var what string
		switch {
		case r.skipped:
			what = "skipped"
		case r.err != nil:
			what = "error: " + r.err.Error()
		case r.solved():
			what = fmt.Sprintf("solved at %d evaluations", r.hit)
		default:
			what = fmt.Sprintf("not solved: f = %.3g after %d evaluations (%s)", r.best, r.evals, r.reason)
		}
		fmt.Fprintf(progress, "[%*d/%d] %-6s %-4s n=%d seed %d: %s (%.1f s)\n",
			width, k, len(jobs), j.opt, j.fn.Short, j.n, j.seed, what, r.wall.Seconds())
	}
	wg.Wait()
}

// largeCell summarizes the runs of one optimizer on one function and
// dimension.
type largeCell struct {
	runs, solved int
	skipped      bool
	failed       int     // runs whose optimizer refused the configuration
	medianEvals  float64 // median evaluations to target of the solved runs (NaN: none)
	medianBest   float64 // median best value of all runs
	seconds      float64 // total wall time
}

// summarizeLarge returns the cell of these runs.
func summarizeLarge(rs []largeRun) largeCell {
	c := largeCell{runs: len(rs)}
	var hits, bests []float64
	for _, r := range rs {
		if r.skipped {
			c.skipped = true
			continue
		}
		if r.err != nil {
			c.failed++
			continue
		}
		if r.solved() {
			c.solved++
			hits = append(hits, float64(r.hit))
		}
		bests = append(bests, r.best)
		c.seconds += r.wall.Seconds()
	}
	c.medianEvals = median(hits)
	c.medianBest = median(bests)
	return c
}

// String is the cell as the table shows it: "12345 (11/11)", or, when no
// run solved the function, "– (0/11, f 2.3e+03)" with the median best f;
// "error (…)" when the optimizer refused the configuration of some runs.
func (c largeCell) String() string {
	switch {
	case c.skipped:
		return "skipped"
	case c.failed > 0:
		return fmt.Sprintf("error (%d/%d runs refused)", c.failed, c.runs)
	case c.solved == 0:
		return fmt.Sprintf("– (0/%d, f %.2g)", c.runs, c.medianBest)
	}
	return fmt.Sprintf("%.0f (%d/%d)", c.medianEvals, c.solved, c.runs)
}

// largeRatio is a/b of the median evaluations, "–" unless both solved at
// least once.
func largeRatio(a, b largeCell) string {
	if a.skipped || b.skipped || a.failed > 0 || b.failed > 0 || a.solved == 0 || b.solved == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", a.medianEvals/b.medianEvals)
}

// writeLargeTable writes the table of dimension n: a row per function, a
// column per optimizer, and the ratio columns lmma/lmmaes and lmma/sepcma
// when those optimizers ran.
func writeLargeTable(w io.Writer, jobs []*largeJob, funcs []largeFunction, opts []string, n, budget int) {
	fmt.Fprintf(w, "\n## n = %d (budget %d evaluations = %.4g·n)\n\n", n, budget, float64(budget)/float64(n))
	var ratios []string
	if slices.Contains(opts, "lmma") {
		for _, o := range []string{"lmmaes", "sepcma"} {
			if slices.Contains(opts, o) {
				ratios = append(ratios, o)
			}
		}
	}
	fmt.Fprint(w, "| function |")
	for _, o := range opts {
		fmt.Fprintf(w, " %s |", o)
	}
	for _, o := range ratios {
		fmt.Fprintf(w, " lmma/%s |", o)
	}
	fmt.Fprint(w, "\n|---|")
	fmt.Fprint(w, strings.Repeat("---:|", len(opts)+len(ratios)))
	fmt.Fprintln(w)
	seconds := make([]float64, len(opts))
	for _, fn := range funcs {
		cells := map[string]largeCell{}
		for k, o := range opts {
			var rs []largeRun
			for _, j := range jobs {
				if j.n == n && j.fn.Short == fn.Short && j.opt == o {
					rs = append(rs, j.result)
				}
			}
			cells[o] = summarizeLarge(rs)
			seconds[k] += cells[o].seconds
		}
		fmt.Fprintf(w, "| %s |", fn.Short)
		for _, o := range opts {
			fmt.Fprintf(w, " %s |", cells[o])
		}
		for _, o := range ratios {
			fmt.Fprintf(w, " %s |", largeRatio(cells["lmma"], cells[o]))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\nA cell is the median number of evaluations to the target over the runs that reached it (the index of the first evaluation with f ≤ target), and (solved/runs); with none solved, the median best f instead. Ratios are of those medians. Run time (wall, all runs):")
	for k, o := range opts {
		fmt.Fprintf(w, " %s %.1f s", o, seconds[k])
		if k+1 < len(opts) {
			fmt.Fprint(w, ",")
		}
	}
	fmt.Fprintln(w, ".")
}
