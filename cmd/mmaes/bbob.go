package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mmaes-go/mmaes"
	"github.com/mmaes-go/mmaes/benchfn/bbob"
)

// bbobCmd is `mmaes bbob`: configurations of the library on COCO's bbob
// suite, the way COCO's experiments run an optimizer: from the origin with
// σ0 = 2, a budget of evaluations proportional to n counted over all
// restarts, stopping at f − f_opt ≤ 1e-8. It writes COCO's data format
// (for cocopp), a Markdown summary and ECDF plots.
func bbobCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("mmaes bbob", flag.ContinueOnError)
	fs.SetOutput(stderr)
	configs := fs.String("config", "default,recommended", "configurations to run: default (DefaultConfig: the paper's MMA-ES), recommended (RecommendedConfig), rankmu-bipop (DefaultConfig with RankMu and BIPOP), "+
		"recommended-no-X (RecommendedConfig without X: active, noeffect, stagnation, flatfitness or hopeless)")
	funcs := fs.String("f", "1-24", "functions (1-24), as a list and ranges: 1-5,10")
	dims := fs.String("dims", "2,5,10,20", "dimensions (2 to 40)")
	instances := fs.String("instances", "1-5", "instances (1-15 is COCO's classic set; 1-5 those of the pycma reference)")
	budget := fs.Float64("budget", 1e4, "evaluations per run, times the dimension (over all restarts)")
	sigma0 := fs.Float64("sigma0", 2, "initial step size")
	target := fs.Float64("target", 1e-8, "a run is solved when f − f_opt ≤ target")
	out := fs.String("out", "bbob-out", "output folder: COCO data per configuration, summary.md, ecdf.png")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "problems run at once")
	pycma := fs.String("pycma", "", "`file` of pycma runs to compare with (tools/coco/pycma_bbob.py's output), or none; default: the embedded table of instances 1-5, under the standard settings")
	quiet := fs.Bool("q", false, "no progress")
	seed := fs.Uint64("seed", 0, "mixed into every run's seed (which follows from the problem): another seed, other runs of the same problems")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	o := bbobOpts{budget: *budget, sigma0: *sigma0, target: *target, out: *out, seed: *seed}
	var err error
	if o.funcs, err = parseRanges("f", *funcs, 1, 24); err != nil {
		return err
	}
	if o.dims, err = parseRanges("dims", *dims, 2, bbob.MaxDim); err != nil {
		return err
	}
	if o.instances, err = parseRanges("instances", *instances, 1, 1e6); err != nil {
		return err
	}
	o.configs = strings.Split(*configs, ",")
	if err := noRepeats("config", o.configs); err != nil {
		return err
	}
	for _, c := range o.configs {
		if _, err := bbobConfig(c, 2); err != nil {
			return err
		}
	}
	if !(o.budget >= 1 && o.budget <= maxBudgetPerN) || !(o.sigma0 > 0 && o.sigma0 <= math.MaxFloat64) || !(o.target > 0) {
		return fmt.Errorf("%w: -budget in [1, %g], -sigma0 > 0 and finite, -target > 0 required", errUsage, float64(maxBudgetPerN))
	}
	if err := checkWorkersFlag("workers", *workers, 1); err != nil {
		return err
	}
	switch {
	case *pycma == "none":
	case *pycma != "":
		ref, err := readRunsReference(*pycma, &o)
		if err != nil {
			return fmt.Errorf("%w: -pycma: %v", errUsage, err)
		}
		o.ref = ref
	case bbobStandard(&o):
		o.ref = tableReference(pycmaReference())
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return fmt.Errorf("%w: -out: %v", errUsage, err)
	}
	start := time.Now()
	runs := runSuite(&o, *workers, newProgress(stderr, !*quiet))
	if err := writeBBOB(&o, runs); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d runs in %v; results in %s (summary.md, ecdf.png, COCO data per configuration)\n",
		len(runs), time.Since(start).Round(time.Millisecond), o.out)
	return nil
}

// bbobOpts are the settings of a suite run.
type bbobOpts struct {
	configs                []string
	funcs, dims, instances []int
	budget, sigma0, target float64
	out                    string
	ref                    reference // nil: none
	seed                   uint64    // mixed into every run's seed
}

// bbobConfig returns the named configuration for dimension n.
func bbobConfig(name string, n int) (mmaes.Config, error) {
	switch name {
	case "default":
		return mmaes.DefaultConfig(n), nil
	case "recommended":
		return mmaes.RecommendedConfig(n), nil
	case "rankmu-bipop":
		c := mmaes.DefaultConfig(n)
		c.RankMu, c.Restart, c.MaxRestarts = true, mmaes.BIPOP, 9
		return c, nil
	}
	if element, ok := strings.CutPrefix(name, "recommended-no-"); ok {
		c := mmaes.RecommendedConfig(n)
		switch element {
		case "active":
			c.Active = false
		case "noeffect":
			c.NoEffect = false
		case "stagnation":
			c.Stagnation = false
		case "flatfitness":
			c.FlatFitness = 0
		case "hopeless":
			c.Hopeless = 0
		default:
			ok = false
		}
		if ok {
			return c, nil
		}
	}
	return mmaes.Config{}, fmt.Errorf("%w: -config: unknown configuration %q (default, recommended, rankmu-bipop, "+
		"or recommended-no-X for X one of active, noeffect, stagnation, flatfitness, hopeless)", errUsage, name)
}

// ecdfTargets are COCO's 51 targets of the ECDFs: f − f_opt ≤ 10^2 … 10^−8.
var ecdfTargets = func() []float64 {
	t := make([]float64, 51)
	for k := range t {
		t[k] = math.Pow(10, 2-0.2*float64(k))
	}
	return t
}()

// bbobRun is one run of a configuration on a problem.
type bbobRun struct {
	config         string
	f, n, instance int
	evals          int     // all evaluations of the run
	hit            int     // evaluations to f − f_opt ≤ target; 0: not reached
	best           float64 // best f − f_opt
	targetHits     []int   // evaluations to each of ecdfTargets; 0: not reached
	coco           *cocoRun
}

// runSuite runs every configuration on every problem, on workers
// goroutines; each run is deterministic (its seed follows from the
// problem), so the results do not depend on the order.
func runSuite(o *bbobOpts, workers int, prog *progress) []bbobRun {
	type job struct {
		config         string
		f, n, instance int
	}
	var jobs []job
	for _, c := range o.configs {
		for _, n := range o.dims {
			for _, f := range o.funcs {
				for _, i := range o.instances {
					jobs = append(jobs, job{c, f, n, i})
				}
			}
		}
	}
	runs := make([]bbobRun, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done, solved := 0, 0
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				j := jobs[k]
				runs[k] = runBBOB(o, j.config, j.f, j.n, j.instance)
				mu.Lock()
				done++
				if runs[k].hit > 0 {
					solved++
				}
				if prog.due() {
					prog.show(fmt.Sprintf("runs %6d of %d  solved %6d  last: %s f%d %d-D instance %d",
						done, len(jobs), solved, j.config, j.f, j.n, j.instance))
				}
				mu.Unlock()
			}
		}()
	}
	for k := range jobs {
		next <- k
	}
	close(next)
	wg.Wait()
	prog.done()
	return runs
}

// runBBOB runs one configuration on one problem.
func runBBOB(o *bbobOpts, config string, f, n, instance int) bbobRun {
	p, err := bbob.New(f, n, instance)
	if err != nil {
		panic(err) // the options were validated
	}
	cfg, _ := bbobConfig(config, n)
	cfg.Mean = make([]float64, n)
	cfg.Sigma = o.sigma0
	cfg.Seed = (uint64(f)<<40 | uint64(n)<<24 | uint64(instance)) ^ o.seed*0x9e3779b97f4a7c15
	cfg.MaxEvals = int(o.budget * float64(n))
	cfg.TargetF = p.FOpt + o.target
	r := bbobRun{config: config, f: f, n: n, instance: instance, best: math.Inf(1),
		targetHits: make([]int, len(ecdfTargets)), coco: newCocoRun(n, p.FOpt)}
	next := 0 // the next ecdf target to reach
	restarts := 0
	cfg.Observer = func(opt *mmaes.Optimizer) {
		if opt.Restarts() > restarts {
			restarts = opt.Restarts()
			r.coco.restart()
		}
	}
	opt, err := mmaes.New(cfg)
	if err != nil {
		panic(fmt.Sprintf("%s f%d n=%d: %v", config, f, n, err))
	}
	opt.Optimize(context.Background(), func(x []float64) float64 {
		v := p.Eval(x)
		r.coco.evaluated(x, v)
		r.evals++
		if d := v - p.FOpt; d < r.best {
			r.best = d
			for next < len(ecdfTargets) && d <= ecdfTargets[next] {
				r.targetHits[next] = r.evals
				next++
			}
			if r.hit == 0 && d <= o.target {
				r.hit = r.evals
			}
		}
		return v
	})
	r.coco.finish()
	return r
}

// writeBBOB writes the COCO data of each configuration, the summary and
// the ECDF plot.
func writeBBOB(o *bbobOpts, runs []bbobRun) error {
	sort.SliceStable(runs, func(a, b int) bool {
		ra, rb := runs[a], runs[b]
		if ra.config != rb.config {
			return indexOf(o.configs, ra.config) < indexOf(o.configs, rb.config)
		}
		if ra.f != rb.f {
			return ra.f < rb.f
		}
		if ra.n != rb.n {
			return ra.n < rb.n
		}
		return ra.instance < rb.instance
	})
	for _, c := range o.configs {
		var res []cocoResult
		for _, r := range runs {
			if r.config == c {
				res = append(res, cocoResult{r.f, r.n, r.instance, r.coco})
			}
		}
		info := fmt.Sprintf("mmaes %s, x0 = 0, sigma0 = %g, budget %g*n", c, o.sigma0, o.budget)
		if err := writeCoco(filepath.Join(o.out, "mmaes-"+c), "mmaes-"+c, info, res); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(o.out, "summary.md"), []byte(bbobSummary(o, runs, o.ref)), 0o644); err != nil {
		return err
	}
	return plotECDF(filepath.Join(o.out, "ecdf.png"), o, runs)
}

func indexOf(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

// parseRanges parses "1-5,10" into the integers in [lo, hi], each listed
// once: every entry a whole integer or a range a-b with a ≤ b.
func parseRanges(flagName, s string, lo, hi int) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		a, b, isRange := strings.Cut(part, "-")
		x, errA := strconv.Atoi(strings.TrimSpace(a))
		y, errB := x, error(nil)
		if isRange {
			y, errB = strconv.Atoi(strings.TrimSpace(b))
		}
		switch {
		case errA != nil || errB != nil:
			return nil, fmt.Errorf("%w: -%s: %q is not an integer or a range a-b", errUsage, flagName, part)
		case x > y:
			return nil, fmt.Errorf("%w: -%s: %q runs from high to low", errUsage, flagName, part)
		case x < lo || y > hi:
			return nil, fmt.Errorf("%w: -%s: %q outside %d..%d", errUsage, flagName, part, lo, hi)
		}
		for v := x; v <= y; v++ {
			out = append(out, v)
		}
	}
	return out, noRepeats(flagName, out)
}
