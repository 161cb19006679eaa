package main

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/mmaes-go/mmaes"
	"github.com/mmaes-go/mmaes/kernel"
)

// runCmd is `mmaes run`: one optimization with a live progress line, then a
// summary; optionally a CSV trace and a PNG of the trajectory.
func runCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("run", stderr)
	fname := fs.String("f", "ell", "test function (short name: sp, cig, ctb, ell, tab, tx, dp, sch, ros, pr, sch12, rastrigin)")
	n := fs.Int("n", 128, "dimension")
	update := fs.String("update", "mma", "matrix update: mma, ecma, cholesky or lmma (limited memory, for large n)")
	memory := fs.Int("memory", 0, "LMMA's number of stored slow rank-one terms (0: 2·(4 + ⌊3 ln n⌋) less the fast terms and 1)")
	fastMemory := fs.Int("fast-memory", 0, "LMMA's number of stored fast rank-one terms (0: ⌊(4 + ⌊3 ln n⌋)/4⌋; -1: none)")
	seed := fs.Uint64("seed", 1, "seed of the initial mean and of the optimizer")
	var target optFloat
	fs.Var(&target, "target", "stop when f ≤ target (default: the function's target, 1e-10 or -1e10)")
	maxEvals := fs.Int("max-evals", 0, "evaluation budget (0: the library's default stops)")
	rotate := fs.Bool("rotate", false, "minimize f(Rx) for a random rotation R")
	tracePath := fs.String("trace", "", "write a per-generation CSV trace to this file (best f, the smallest and largest coordinate standard deviation σ·‖A_i‖, σ, λ, restarts)")
	plotPath := fs.String("plot", "", "write a PNG of best f and the largest coordinate standard deviation against evaluations to this file")
	quiet := fs.Bool("q", false, "no progress line")
	restart := fs.String("restart", "", "restart strategy: none, ipop or bipop (turns the library's TolFun stop back on: it ends the runs that restart); default none, bipop with -recommended")
	maxRestarts := fs.Int("max-restarts", 0, "restart limit (BIPOP: large-population runs); 0: the library's default, 9")
	rankMu := fs.Bool("rank-mu", false, "add the rank-μ update (MMA only)")
	recommended := fs.Bool("recommended", false, "RecommendedConfig's settings: active rank-μ, BIPOP and its stops (MMA only)")
	bounds := fs.String("bounds", "", "box constraints lo,hi, the same in every coordinate (e.g. -5,5)")
	workers := fs.Int("workers", 0, "evaluate each generation with N parallel workers (0 or 1: sequential)")
	scales := fs.String("scales", "", "initial standard deviations relative to σ, one per coordinate or one for all (comma-separated)")
	fixed := fs.String("fixed", "", "coordinates held at values, removed from the search: i=v,j=w (0-based indices)")
	integer := fs.String("integer", "", "integer coordinates (0-based indices, comma-separated; ranges a-b)")
	noise := fs.Float64("noise", 0, "add Gaussian noise of this standard deviation to f and turn on the noise handling (Config.Noise); the summary then reports f at the mean")
	minStd := fs.Float64("minstd", 0, "lower bound of every coordinate's standard deviation σ·‖A_i‖ (0: off)")
	maxStd := fs.Float64("maxstd", 0, "upper bound of every coordinate's standard deviation (0: off)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	fn, err := lookupFunction(*fname)
	if err != nil {
		return err
	}
	u, err := parseUpdate(*update)
	if err != nil {
		return err
	}
	if err := checkDimFlag("n", *n); err != nil {
		return err
	}
	if err := checkWorkersFlag("workers", *workers, 0); err != nil {
		return err
	}
	if *rotate && float64(max(1, *workers))*float64(*n)*float64(*n)*8 > maxRotationBytes {
		return fmt.Errorf("%w: -rotate stores an n×n rotation per worker: n = %d with %d worker(s) needs more than %d GiB", errUsage, *n, max(1, *workers), maxRotationBytes>>30)
	}
	if *maxEvals < 0 {
		return fmt.Errorf("%w: -max-evals must not be negative", errUsage)
	}
	if !(*noise >= 0) || math.IsInf(*noise, 1) {
		return fmt.Errorf("%w: -noise must be a finite standard deviation ≥ 0", errUsage)
	}
	p := problem{fn: fn, n: *n, rotate: *rotate, noise: *noise}
	cfg := p.config(u, *seed, *maxEvals)
	cfg.Memory = *memory
	cfg.FastMemory = *fastMemory
	if target.set {
		cfg.TargetF = target.v
	}
	if *recommended {
		rec := mmaes.RecommendedConfig(cfg.Dim)
		cfg.RankMu, cfg.Active = true, true
		cfg.NoEffect, cfg.Stagnation, cfg.FlatFitness, cfg.Hopeless = rec.NoEffect, rec.Stagnation, rec.FlatFitness, rec.Hopeless
		*rankMu = true
		if *restart == "" {
			*restart = "bipop"
		}
	}
	if err := applyExtras(&cfg, *restart, *maxRestarts, *rankMu, *bounds, *workers, *seed); err != nil {
		return err
	}
	if err := applyObjectiveFlags(&cfg, *scales, *fixed, *integer, *minStd, *maxStd); err != nil {
		return err
	}
	if *noise > 0 {
		cfg.Noise = true
		if !target.set {
			cfg.TargetF = math.Inf(-1) // a noisy value below the target proves nothing
		}
	}

	var tr trace
	prog := newProgress(stderr, !*quiet)
	tracing := *tracePath != "" || *plotPath != ""
	var std []float64
	var lo, hi float64
	var stdCost time.Duration
	var stdAt time.Time
	cfg.Observer = func(o *mmaes.Optimizer) {
		if !tracing && !prog.due() {
			return
		}
		// The deviations scan A's rows (O(n²), or O(n·k²) with LMMA: at
		// n = 10⁵ longer than a generation): the progress line refreshes
		// them when the last scan's cost is under 5 % of the time since;
		// a trace takes them every generation.
		if tracing || time.Since(stdAt) >= 20*stdCost {
			start := time.Now()
			std = o.StdDevs(std)
			lo, hi = freeExtremes(std, cfg.Fixed)
			stdAt = time.Now()
			stdCost = stdAt.Sub(start)
		}
		if tracing {
			tr.add(o.Generation(), o.Evals(), o.BestF(), lo, hi, o.Sigma(), o.Lambda(), o.Restarts())
		}
		prog.update(o.Generation(), o.Evals(), o.BestF(), lo, hi)
	}
	opt, err := mmaes.New(cfg)
	if err != nil {
		if errors.Is(err, mmaes.ErrInvalidConfig) {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		return err
	}
	defer opt.Close()
	if err := checkOutputFiles("trace", *tracePath, "plot", *plotPath); err != nil {
		return err
	}
	name := fn.Name
	if *rotate {
		name += " (rotated)"
	}
	fmt.Fprintf(stdout, "%s, n = %d, %s, λ = %d, μ = %d, seed %d, kernel %s\n",
		name, *n, u, opt.Lambda(), opt.Mu(), *seed, kernel.Impl())

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	res, err := opt.Optimize(ctx, concurrentObjective(func() func([]float64) float64 { return p.objective(*seed) }, *workers))
	wall := time.Since(start)
	prog.done()
	if err != nil && res.Reason != mmaes.Canceled {
		fmt.Fprintf(stderr, "stopped by a failure: %v\n", err)
	}
	perGen := time.Duration(0)
	if res.Generations > 0 {
		perGen = wall / time.Duration(res.Generations)
	}
	fmt.Fprintf(stdout, "reason:      %s\n", res.Reason)
	fmt.Fprintf(stdout, "best f:      %.6g\n", res.F)
	if *noise > 0 {
		fmt.Fprintf(stdout, "f at mean:   %.6g (without the noise)\n", p.noiseless(*seed)(res.Mean))
	}
	fmt.Fprintf(stdout, "evaluations: %d in %d generations\n", res.Evals, res.Generations)
	if cfg.Restart != mmaes.NoRestart {
		fmt.Fprintf(stdout, "restarts:    %d (%s, λ now %d)\n", res.Restarts, cfg.Restart, opt.Lambda())
	}
	fmt.Fprintf(stdout, "wall time:   %v (%v per generation)\n", wall.Round(time.Microsecond), perGen)
	if *tracePath != "" {
		if err := tr.writeCSV(*tracePath); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "trace:       %s\n", *tracePath)
	}
	if *plotPath != "" {
		title := fmt.Sprintf("%s, n = %d, %s", name, *n, u)
		if err := plotRun(*plotPath, title, tr); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "plot:        %s\n", *plotPath)
	}
	if res.Reason.Failed() {
		return fmt.Errorf("the run failed: %s", res.Reason) // exit status 1
	}
	return nil
}

// applyExtras sets the options beyond the paper from the flags -restart,
// -max-restarts, -rank-mu, -bounds and -workers. A restart strategy turns
// the library's default TolFun back on (the paper's set-up turns it off):
// runs stuck in a local minimum end, and restart, on it. With -bounds the initial
// mean is drawn (from the seed) uniformly in the box intersected with the
// paper's [−10, 10]^n, or in the box if they do not meet.
func applyExtras(cfg *mmaes.Config, restart string, maxRestarts int, rankMu bool, bounds string, workers int, seed uint64) error {
	switch strings.ToLower(restart) {
	case "none", "":
		cfg.Restart = mmaes.NoRestart
	case "ipop":
		cfg.Restart = mmaes.IPOP
	case "bipop":
		cfg.Restart = mmaes.BIPOP
	default:
		return fmt.Errorf("%w: unknown -restart %q (none, ipop or bipop)", errUsage, restart)
	}
	if maxRestarts < 0 {
		return fmt.Errorf("%w: -max-restarts must not be negative", errUsage)
	}
	if maxRestarts > 0 && cfg.Restart == mmaes.NoRestart {
		return fmt.Errorf("%w: -max-restarts needs -restart ipop or bipop", errUsage)
	}
	if cfg.Restart != mmaes.NoRestart {
		cfg.TolFun = mmaes.DefaultConfig(cfg.Dim).TolFun
	}
	cfg.MaxRestarts = maxRestarts
	cfg.RankMu = rankMu
	if workers < 0 {
		return fmt.Errorf("%w: -workers must not be negative", errUsage)
	}
	cfg.Workers = workers
	if bounds == "" {
		return nil
	}
	parts := strings.Split(bounds, ",")
	if len(parts) != 2 {
		return fmt.Errorf("%w: -bounds %q: want lo,hi", errUsage, bounds)
	}
	lo, err1 := strconv.ParseFloat(strings.TrimSpace(parts[0]), 64)
	hi, err2 := strconv.ParseFloat(strings.TrimSpace(parts[1]), 64)
	if err1 != nil || err2 != nil || math.IsNaN(lo) || math.IsNaN(hi) || !(lo <= hi) ||
		math.IsInf(lo, 1) || math.IsInf(hi, -1) {
		return fmt.Errorf("%w: -bounds %q: want numbers lo ≤ hi", errUsage, bounds)
	}
	n := cfg.Dim
	cfg.Lower, cfg.Upper = make([]float64, n), make([]float64, n)
	a, b := max(lo, -initRange), min(hi, initRange)
	if a > b {
		a, b = lo, hi
	}
	if math.IsInf(a, 0) || math.IsInf(b, 0) { // only when the box misses [−10, 10] on an infinite side
		a, b = max(lo, min(hi, 0)), max(lo, min(hi, 0))
	}
	r := rand.New(rand.NewPCG(seed, 0x626f78))
	for i := range n {
		cfg.Lower[i], cfg.Upper[i] = lo, hi
		cfg.Mean[i] = min(hi, max(lo, a+(b-a)*r.Float64()))
	}
	return nil
}

// applyObjectiveFlags sets Scales, Fixed, Integer, MinStd and MaxStd from
// the flags -scales (n values, or one for every coordinate), -fixed (i=v
// pairs), -integer (indices and ranges), -minstd and -maxstd; the library
// validates the values.
func applyObjectiveFlags(cfg *mmaes.Config, scales, fixed, integer string, minStd, maxStd float64) error {
	if scales != "" {
		v, err := parseFloats(scales)
		if err != nil {
			return fmt.Errorf("%w: -scales %q: %v", errUsage, scales, err)
		}
		if len(v) == 1 {
			for len(v) < cfg.Dim {
				v = append(v, v[0])
			}
		}
		cfg.Scales = v
	}
	if fixed != "" {
		cfg.Fixed = map[int]float64{}
		for _, part := range strings.Split(fixed, ",") {
			i, v, ok := strings.Cut(strings.TrimSpace(part), "=")
			idx, err1 := strconv.Atoi(i)
			val, err2 := strconv.ParseFloat(v, 64)
			switch {
			case !ok || err1 != nil || err2 != nil:
				return fmt.Errorf("%w: -fixed %q: want index=value pairs, e.g. 0=1.5,3=-2", errUsage, fixed)
			case math.IsNaN(val) || math.IsInf(val, 0):
				return fmt.Errorf("%w: -fixed %q: the value of coordinate %d must be finite", errUsage, fixed, idx)
			}
			if _, twice := cfg.Fixed[idx]; twice {
				return fmt.Errorf("%w: -fixed %q: coordinate %d listed twice", errUsage, fixed, idx)
			}
			cfg.Fixed[idx] = val
			if idx >= 0 && idx < len(cfg.Mean) {
				cfg.Mean[idx] = val // not used; keeps the drawn mean inside bounds checks simple
			}
		}
	}
	if integer != "" {
		idx, err := parseRanges("integer", integer, 0, cfg.Dim-1)
		if err != nil {
			return err
		}
		cfg.Integer = idx
	}
	cfg.MinStd, cfg.MaxStd = minStd, maxStd
	return nil
}

// parseFloats parses a comma-separated list of numbers.
func parseFloats(s string) ([]float64, error) {
	var out []float64
	for _, part := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(part), 64)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// freeExtremes returns the smallest and the largest of the deviations std
// over the coordinates that are not fixed.
func freeExtremes(std []float64, fixed map[int]float64) (lo, hi float64) {
	lo = math.Inf(1)
	for i, s := range std {
		if _, ok := fixed[i]; !ok {
			lo, hi = min(lo, s), max(hi, s)
		}
	}
	return lo, hi
}

// concurrentObjective returns an objective safe for k concurrent callers:
// k copies made by mk (a rotated function reuses a buffer), each lent to one
// call at a time through a channel. For k ≤ 1 it is mk() itself.
func concurrentObjective(mk func() func([]float64) float64, k int) func([]float64) float64 {
	if k <= 1 {
		return mk()
	}
	fs := make(chan func([]float64) float64, k)
	for range k {
		fs <- mk()
	}
	return func(x []float64) float64 {
		f := <-fs
		defer func() { fs <- f }()
		return f(x)
	}
}

// trace records a run generation by generation: the best value, the
// smallest and the largest standard deviation of a coordinate (σ·‖A_i‖,
// the step sizes; σ alone trades scale with A), σ, λ and the restarts.
type trace struct {
	gen, evals       []int
	bestF            []float64
	stdMin, stdMax   []float64
	sigma            []float64
	lambda, restarts []int
}

func (t *trace) add(gen, evals int, bestF, stdMin, stdMax, sigma float64, lambda, restarts int) {
	t.gen = append(t.gen, gen)
	t.evals = append(t.evals, evals)
	t.bestF = append(t.bestF, bestF)
	t.stdMin = append(t.stdMin, stdMin)
	t.stdMax = append(t.stdMax, stdMax)
	t.sigma = append(t.sigma, sigma)
	t.lambda = append(t.lambda, lambda)
	t.restarts = append(t.restarts, restarts)
}

func (t *trace) writeCSV(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	w.Write([]string{"generation", "evaluations", "best_f", "std_min", "std_max", "sigma", "lambda", "restarts"})
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for i := range t.gen {
		w.Write([]string{
			strconv.Itoa(t.gen[i]), strconv.Itoa(t.evals[i]),
			g(t.bestF[i]), g(t.stdMin[i]), g(t.stdMax[i]), g(t.sigma[i]),
			strconv.Itoa(t.lambda[i]), strconv.Itoa(t.restarts[i]),
		})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// progress prints a progress line at most every interval: on a terminal
// rewritten in place with a carriage return, elsewhere (a file, a pipe) as
// a line of its own, less often.
type progress struct {
	w        io.Writer
	on       bool
	terminal bool
	last     time.Time
	printed  bool
}

// The intervals between progress lines on a terminal and elsewhere.
const (
	progressInterval     = 200 * time.Millisecond
	progressLineInterval = 2 * time.Second
)

func newProgress(w io.Writer, on bool) *progress {
	return &progress{w: w, on: on, terminal: isTerminal(w), last: time.Now()}
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// update shows the state of a run, when a line is due: the counters, the
// best value and the range of the coordinates' standard deviations.
func (p *progress) update(gen, evals int, bestF, stdMin, stdMax float64) {
	if !p.due() {
		return
	}
	p.show(fmt.Sprintf("generation %8d  evaluations %10d  best f %12.4e  std %9.3e–%9.3e  [%s]",
		gen, evals, bestF, stdMin, stdMax, kernel.Impl()))
}

// due reports whether a progress line is due: the first at once, then one
// per interval.
func (p *progress) due() bool {
	interval := progressInterval
	if !p.terminal {
		interval = progressLineInterval
	}
	return p.on && !(p.printed && time.Since(p.last) < interval)
}

// show prints line as the progress line.
func (p *progress) show(line string) {
	p.last = time.Now()
	p.printed = true
	if p.terminal {
		fmt.Fprint(p.w, "\r"+line)
	} else {
		fmt.Fprintln(p.w, line)
	}
}

func (p *progress) done() {
	if p.printed && p.terminal {
		fmt.Fprintln(p.w)
	}
}

// optFloat is a float flag that records whether it was set, and shows no
// default in the flag's help.
type optFloat struct {
	v   float64
	set bool
}

func (f *optFloat) String() string {
	if f == nil || !f.set {
		return ""
	}
	return strconv.FormatFloat(f.v, 'g', -1, 64)
}

func (f *optFloat) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return err
	}
	f.v, f.set = v, true
	return nil
}
