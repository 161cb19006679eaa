package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"github.com/mmaes-go/mmaes"
)

// compareCmd is `mmaes compare`: the library's MMA-ES against gonum's
// optimize.CmaEsChol on the same functions, dimensions and starts; `mmaes
// compare large` is `mmaes largescale` (LMMA against LM-MA-ES and
// sep-CMA-ES).
func compareCmd(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "large" {
		return largescaleCmd(args[1:], stdout, stderr)
	}
	fs := newFlagSet("compare", stderr)
	dimsFlag := fs.String("dims", "4,8,16", "dimensions (at most 4096)")
	runs := fs.Int("runs", 5, "runs (seeds 1..runs) per function and dimension")
	funcsFlag := fs.String("funcs", "sp,cig,ell", "test functions (short names)")
	budget := fs.Int("max-evals", 100000, "evaluation budget of each run")
	workers := fs.Int("workers", runtime.NumCPU(), "runs at once")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	dims, err := parseInts("dims", *dimsFlag)
	if err != nil {
		return err
	}
	if *runs < 1 || *budget < 1 || *workers < 1 {
		return fmt.Errorf("%w: -runs, -max-evals and -workers must be positive", errUsage)
	}
	if err := checkWorkersFlag("workers", *workers, 1); err != nil {
		return err
	}
	fns, err := parseFuncs("funcs", *funcsFlag)
	if err != nil {
		return err
	}
	for _, n := range dims {
		if n > maxCompareDim {
			return fmt.Errorf("%w: -dims at most %d (gonum's CmaEsChol holds several n×n matrices a run)", errUsage, maxCompareDim)
		}
		if _, err := (problem{fn: fns[0], n: n}).config(mmaes.MMA, 1, *budget).Params(); err != nil {
			return fmt.Errorf("%w: n = %d: %v", errUsage, n, err)
		}
	}
	var probs []problem
	for _, fn := range fns {
		for _, n := range dims {
			probs = append(probs, problem{fn: fn, n: n})
		}
	}

	// One job per (problem, seed, optimizer); results in a fixed order.
	type job struct {
		p      problem
		seed   uint64
		gonum  bool
		result compareRun
	}
	var jobs []*job
	for _, p := range probs {
		for s := 1; s <= *runs; s++ {
			for _, g := range []bool{false, true} {
				jobs = append(jobs, &job{p: p, seed: uint64(s), gonum: g})
			}
		}
	}
	fmt.Fprintf(stdout, "mmaes (MMA) vs gonum optimize.CmaEsChol: %d runs, budget %d evaluations, target 1e-10; m0 ~ U[-10,10]^n, σ0 = 20/3 (gonum: InitCholesky = σ0²·I)\n",
		len(jobs), *budget)
	var wg sync.WaitGroup
	next := make(chan *job)
	done := make(chan struct{}, len(jobs))
	for w := 0; w < *workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				if j.gonum {
					j.result = runGonum(j.p, j.seed, *budget)
				} else {
					j.result = runMMAES(j.p, j.seed, *budget)
				}
				done <- struct{}{}
			}
		}()
	}
	go func() {
		for _, j := range jobs {
			next <- j
		}
		close(next)
	}()
	bar := newProgressBar(stderr, len(jobs))
	for range jobs {
		<-done
		bar.add(1)
	}
	wg.Wait()
	bar.finish()

	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "function\tn\tλ\tmmaes ok\tmmaes median evals\tgonum ok\tgonum median evals\tmmaes µs/gen\tgonum µs/gen\tgonum/mmaes time\t")
	for _, p := range probs {
		var mine, theirs []compareRun
		for _, j := range jobs {
			if j.p.fn.Short == p.fn.Short && j.p.n == p.n {
				if j.gonum {
					theirs = append(theirs, j.result)
				} else {
					mine = append(mine, j.result)
				}
			}
		}
		mOK, mEvals, mGen := summarize(mine)
		gOK, gEvals, gGen := summarize(theirs)
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d/%d\t%s\t%d/%d\t%s\t%.2f\t%.2f\t%.1f×\t\n",
			p.fn.Short, p.n, mine[0].lambda, mOK, len(mine), evalsString(mEvals), gOK, len(theirs), evalsString(gEvals),
			mGen.Seconds()*1e6, gGen.Seconds()*1e6, gGen.Seconds()/mGen.Seconds())
	}
	tw.Flush()
	fmt.Fprintln(stdout, "median evals are over the successful runs; µs/gen is the median wall time per generation, objective included.")
	return nil
}

// compareRun is the outcome of one run.
type compareRun struct {
	ok          bool
	evals       int
	generations int
	lambda      int
	wall        time.Duration
}

func runMMAES(p problem, seed uint64, budget int) compareRun {
	cfg := p.config(mmaes.MMA, seed, budget)
	opt, err := mmaes.New(cfg)
	if err != nil {
		panic(err) // compareCmd checked the configuration of every n
	}
	start := time.Now()
	res, _ := opt.Optimize(context.Background(), p.objective(seed))
	return compareRun{
		ok:          res.F <= p.fn.Target,
		evals:       res.Evals,
		generations: res.Generations,
		lambda:      opt.Lambda(),
		wall:        time.Since(start),
	}
}

// maxCompareDim bounds the dimensions of compare, as of paper: gonum's
// runs cost O(n³) a generation.
const maxCompareDim = 4096

// runGonum runs gonum's CmaEsChol from the same start: the same m0, the
// initial covariance σ0²·I (gonum samples with its Cholesky factor, so σ0
// enters there), the same λ, and a stop at the target.
func runGonum(p problem, seed uint64, budget int) compareRun {
	n := p.n
	lambda := defaultLambda(n)
	f := p.objective(seed)
	best := math.Inf(1)
	prob := optimize.Problem{
		Func: func(x []float64) float64 {
			v := f(x)
			if v < best {
				best = v
			}
			return v
		},
		Status: func() (optimize.Status, error) {
			if best <= p.fn.Target {
				return optimize.Success, nil
			}
			return optimize.NotTerminated, nil
		},
	}
	diag := make([]float64, n)
	for i := range diag {
		diag[i] = initSigma * initSigma
	}
	var chol mat.Cholesky
	chol.Factorize(mat.NewDiagDense(n, diag))
	method := &optimize.CmaEsChol{
		Population:   lambda,
		InitCholesky: &chol,
		Src:          rand.NewPCG(seed, 0x676f6e756d),
	}
	settings := &optimize.Settings{
		FuncEvaluations: budget,
		Converger:       optimize.NeverTerminate{},
		Concurrent:      1,
	}
	start := time.Now()
	res, _ := optimize.Minimize(prob, initialMean(n, seed), settings, method)
	wall := time.Since(start)
	evals := 0
	if res != nil {
		evals = res.Stats.FuncEvaluations
	}
	return compareRun{
		ok:          best <= p.fn.Target,
		evals:       evals,
		generations: max(1, evals/lambda),
		lambda:      lambda,
		wall:        wall,
	}
}

// defaultLambda is the library's (the paper's) population size for n.
func defaultLambda(n int) int {
	par, err := mmaes.DefaultConfig(n).Params()
	if err != nil {
		return 0
	}
	return par.Lambda
}

// summarize returns the successes, the median evaluations of the
// successful runs (0 if none) and the median wall time per generation.
func summarize(rs []compareRun) (ok int, medianEvals float64, perGen time.Duration) {
	var evals []float64
	var gens []float64
	for _, r := range rs {
		if r.ok {
			ok++
			evals = append(evals, float64(r.evals))
		}
		if r.generations > 0 {
			gens = append(gens, float64(r.wall)/float64(r.generations))
		}
	}
	return ok, median(evals), time.Duration(median(gens))
}

// median returns the median of xs (the mean of the middle two for an even
// count), or NaN for no values. It sorts a copy.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

func evalsString(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return fmt.Sprintf("%.0f", v)
}

// progressBar draws "[#####     ] 12/40  eta 3s" on w, rewritten in place.
type progressBar struct {
	w     io.Writer
	total int
	n     int
	start time.Time
	last  time.Time
}

func newProgressBar(w io.Writer, total int) *progressBar {
	return &progressBar{w: w, total: total, start: time.Now()}
}

func (b *progressBar) add(k int) {
	b.n += k
	if time.Since(b.last) < progressInterval && b.n < b.total {
		return
	}
	b.last = time.Now()
	const width = 30
	filled := width * b.n / max(1, b.total)
	eta := "?"
	if b.n > 0 {
		left := time.Duration(float64(time.Since(b.start)) * float64(b.total-b.n) / float64(b.n))
		eta = left.Round(time.Second).String()
	}
	fmt.Fprintf(b.w, "\r[%s%s] %d/%d  elapsed %s  eta %s ", strings.Repeat("#", filled), strings.Repeat(" ", width-filled),
		b.n, b.total, time.Since(b.start).Round(time.Second), eta)
}

func (b *progressBar) finish() { fmt.Fprintln(b.w) }
