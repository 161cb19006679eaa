package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mmaes-go/mmaes"
	"gonum.org/v1/gonum/mat"
)

// The runs of `mmaes paper`. Every experiment asks for runs by key (function,
// dimension, rotation, update, seed); a run asked for by several experiments
// (an FE run at n = 32 that the α study or the rotation study also needs) is
// made once, with the union of what they record. The runs are independent and
// go to a pool of workers, each run with its own optimizer and objective.

// runKey identifies one run.
type runKey struct {
	fn     string // short name
	n      int
	rotate bool
	update mmaes.Update
	seed   uint64
}

// paperRun is one run: what to record, then its outcome.
type paperRun struct {
	key      runKey
	prob     problem
	maxEvals int

	// What the observer records.
	wantTrace bool // best f and σ per generation
	wantAlpha bool // α and |b − c1/2|, their sums over the run
	alphaLog  bool // also α and |b − c1/2| per sampled generation
	alphaStep int  // α every alphaStep-th generation (it costs an LU)
	wantEig   bool // √eigenvalues of A·Aᵀ per generation

	// Outcome.
	res     mmaes.Result
	success bool
	wall    time.Duration
	tr      trace
	alpha   alphaLog
	eigs    [][]float64 // per generation, ascending d_i
}

// alphaLog holds the α study of one run: the sums over the run (for the
// per-dimension means) and, if asked, the samples.
type alphaLog struct {
	sumAlpha float64
	nAlpha   int
	sumDB    float64 // Σ |b − c1/2|
	nDB      int
	c1       float64

	gen, evals []int // generations where α was computed
	alpha, db  []float64
}

// runSet collects the runs the experiments ask for, without duplicates.
type runSet struct {
	byKey map[runKey]*paperRun
	order []*paperRun
}

func newRunSet() *runSet { return &runSet{byKey: map[runKey]*paperRun{}} }

// get returns the run with this key, adding it if new.
func (s *runSet) get(p problem, u mmaes.Update, seed uint64, maxEvals int) *paperRun {
	k := runKey{fn: p.fn.Short, n: p.n, rotate: p.rotate, update: u, seed: seed}
	if r, ok := s.byKey[k]; ok {
		return r
	}
	r := &paperRun{key: k, prob: p, maxEvals: maxEvals}
	s.byKey[k] = r
	s.order = append(s.order, r)
	return r
}

// group returns the runs of p with update u and seeds seeds.
func (s *runSet) group(p problem, u mmaes.Update, seeds []uint64) []*paperRun {
	out := make([]*paperRun, 0, len(seeds))
	for _, seed := range seeds {
		k := runKey{fn: p.fn.Short, n: p.n, rotate: p.rotate, update: u, seed: seed}
		if r, ok := s.byKey[k]; ok {
			out = append(out, r)
		}
	}
	return out
}

// statsOf returns the FE statistics of runs.
func statsOf(runs []*paperRun) feStats {
	evals, succ := outcomes(runs)
	return computeStats(evals, succ)
}

// medianRun returns the median run of runs (see medianIndex), nil for none.
func medianRun(runs []*paperRun) *paperRun {
	evals, succ := outcomes(runs)
	i := medianIndex(evals, succ)
	if i < 0 {
		return nil
	}
	return runs[i]
}

func outcomes(runs []*paperRun) ([]int, []bool) {
	evals := make([]int, len(runs))
	succ := make([]bool, len(runs))
	for i, r := range runs {
		evals[i], succ[i] = r.res.Evals, r.success
	}
	return evals, succ
}

// weight estimates the cost of a run, for scheduling the longest first and
// for the estimate of the time left. Measured on the paper's functions
// (MMA, n = 8..128), a run's time grows like n^2.6, the well-conditioned
// functions need a few times fewer evaluations, and the LU of the α study
// triples the cost when it runs every generation and doubles it otherwise.
func (r *paperRun) weight() float64 {
	w := math.Pow(float64(r.key.n), 2.6) + 50
	switch r.key.fn {
	case "sp", "cig", "ctb", "pr":
		w *= 0.25
	}
	if r.wantAlpha {
		if r.alphaStep == 1 {
			w *= 3
		} else {
			w *= 2
		}
	}
	return w
}

// execute runs r to its end (or until ctx is cancelled).
func (r *paperRun) execute(ctx context.Context) error {
	cfg := r.prob.config(r.key.update, r.key.seed, r.maxEvals)
	n := r.key.n
	var obs []func(*mmaes.Optimizer)
	if r.wantTrace {
		// Every generation for the eigenvalue study (its rows line up with
		// the eigenvalues); otherwise every stride-th generation and the
		// last, the stride doubling whenever traceCap points are reached,
		// so that the 21-run study keeps its memory small.
		stride, thinning := 1, !r.wantEig
		obs = append(obs, func(o *mmaes.Optimizer) {
			g := o.Generation()
			if g%stride != 0 && o.Reason() == mmaes.NotStopped {
				return
			}
			// The paper's figures plot σ; the deviations are not needed.
			r.tr.add(g, o.Evals(), o.BestF(), math.NaN(), math.NaN(), o.Sigma(), o.Lambda(), o.Restarts())
			if thinning && len(r.tr.gen) >= traceCap {
				stride *= 2
				r.tr = halveTrace(r.tr, stride)
			}
		})
	}
	if r.wantAlpha {
		obs = append(obs, newAlphaObserver(n, r.alphaStep, r.alphaLog, &r.alpha))
	}
	if r.wantEig {
		obs = append(obs, newEigObserver(n, &r.eigs))
	}
	if len(obs) > 0 {
		cfg.Observer = func(o *mmaes.Optimizer) {
			for _, f := range obs {
				f(o)
			}
		}
	}
	opt, err := mmaes.New(cfg)
	if err != nil {
		return err
	}
	start := time.Now()
	// A numerical breakdown (an error with a Result) is a failed run, not a
	// failure of the study.
	res, _ := opt.Optimize(ctx, r.prob.objective(r.key.seed))
	r.wall = time.Since(start)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	r.res = res
	r.success = res.F <= r.prob.fn.Target
	return nil
}

// traceCap bounds the points of a thinned trace.
const traceCap = 4096

// halveTrace keeps the points of t at generations that are multiples of
// stride, and its last point.
func halveTrace(t trace, stride int) trace {
	var out trace
	last := len(t.gen) - 1
	for i := range t.gen {
		if t.gen[i]%stride == 0 || i == last {
			out.add(t.gen[i], t.evals[i], t.bestF[i], t.stdMin[i], t.stdMax[i], t.sigma[i], t.lambda[i], t.restarts[i])
		}
	}
	return out
}

// newAlphaObserver returns an observer that computes, every step-th
// generation t+1, the paper's α = 1 − vᵀu/(‖v‖‖u‖) with u = A_t⁻¹·p_{t+1}
// (A_t the matrix before the generation's update, solved by LU; p and v
// after it), and every generation |b − c1/2| with the ECMA coefficient
// b = √(1−c1)/‖v‖²·(√(1 + c1/(1−c1)·‖v‖²) − 1).
func newAlphaObserver(n, step int, keep bool, out *alphaLog) func(*mmaes.Optimizer) {
	prevA := make([]float64, n*n) // A_t: the identity before the first generation
	for i := range n {
		prevA[i*n+i] = 1
	}
	aDense := mat.NewDense(n, n, prevA) // a view of prevA
	var lu mat.LU
	pv := mat.NewVecDense(n, nil)
	u := mat.NewVecDense(n, nil)
	c1 := math.NaN()
	return func(o *mmaes.Optimizer) {
		if math.IsNaN(c1) {
			c1 = o.Params().C1
			out.c1 = c1
		}
		g := o.Generation()
		v, p := o.V(), o.P()
		vv := dot(v, v)
		if vv > 0 && !math.IsInf(vv, 0) {
			x := c1 / (1 - c1) * vv
			b := math.Sqrt(1-c1) / vv * (x / (math.Sqrt(1+x) + 1)) // √(1+x) − 1 without cancellation
			db := math.Abs(b - c1/2)
			out.sumDB += db
			out.nDB++
			if g%step == 0 {
				alpha := math.NaN()
				lu.Factorize(aDense)
				copy(pv.RawVector().Data, p)
				err := lu.SolveVecTo(u, false, pv)
				if err == nil || errors.As(err, new(mat.Condition)) {
					ud := u.RawVector().Data
					uu := dot(ud, ud)
					if uu > 0 {
						alpha = 1 - dot(v, ud)/math.Sqrt(vv*uu)
					}
				}
				if !math.IsNaN(alpha) && !math.IsInf(alpha, 0) {
					out.sumAlpha += alpha
					out.nAlpha++
				}
				if keep {
					out.gen = append(out.gen, g)
					out.evals = append(out.evals, o.Evals())
					out.alpha = append(out.alpha, alpha)
					out.db = append(out.db, db)
				}
			}
		}
		// A_t for the next sampled generation.
		if (g+1)%step == 0 {
			copy(prevA, o.A())
		}
	}
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// newEigObserver returns an observer that appends, every generation, the
// square roots d_i of the eigenvalues of C = A·Aᵀ (ascending), from
// gonum's mat.EigenSym.
func newEigObserver(n int, out *[][]float64) func(*mmaes.Optimizer) {
	c := mat.NewSymDense(n, nil)
	var eig mat.EigenSym
	return func(o *mmaes.Optimizer) {
		a := o.A()
		for i := range n {
			for j := i; j < n; j++ {
				c.SetSym(i, j, dot(a[i*n:i*n+n], a[j*n:j*n+n]))
			}
		}
		d := make([]float64, n)
		if eig.Factorize(c, false) {
			eig.Values(d)
			for i := range d {
				d[i] = math.Sqrt(max(d[i], 0))
			}
		} else {
			for i := range d {
				d[i] = math.NaN()
			}
		}
		*out = append(*out, d)
	}
}

// runAll runs the runs on workers goroutines, the costliest first, with a
// progress bar on progress (nil: none).
func runAll(ctx context.Context, runs []*paperRun, workers int, progress io.Writer) error {
	todo := slices.Clone(runs)
	slices.SortStableFunc(todo, func(a, b *paperRun) int { return cmp.Compare(b.weight(), a.weight()) })
	total := 0.0
	for _, r := range todo {
		total += r.weight()
	}
	bar := newPaperBar(progress, len(todo), total)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	jobs := make(chan *paperRun)
	var (
		wg       sync.WaitGroup
		errOnce  sync.Once
		firstErr error
	)
	for range max(1, workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range jobs {
				if err := r.execute(ctx); err != nil {
					errOnce.Do(func() { firstErr = err; cancel() })
					continue
				}
				bar.finished(r.weight())
			}
		}()
	}
	stopBar := bar.start()
feed:
	for _, r := range todo {
		select {
		case jobs <- r:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	stopBar()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

// paperBar is the progress bar with the estimate of the time left, redrawn
// in place (carriage return) a few times per second.
type paperBar struct {
	w      io.Writer
	total  int
	totalW float64
	began  time.Time

	done  atomic.Int64
	mu    sync.Mutex
	doneW float64
}

func newPaperBar(w io.Writer, total int, totalW float64) *paperBar {
	return &paperBar{w: w, total: total, totalW: totalW, began: time.Now()}
}

func (b *paperBar) finished(w float64) {
	b.done.Add(1)
	b.mu.Lock()
	b.doneW += w
	b.mu.Unlock()
}

// start starts redrawing and returns the function that stops it and draws
// the final state.
func (b *paperBar) start() func() {
	if b.w == nil {
		return func() {}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				b.draw(true)
				return
			case <-t.C:
				b.draw(false)
			}
		}
	}()
	return func() { close(stop); wg.Wait() }
}

func (b *paperBar) draw(final bool) {
	const width = 30
	done := int(b.done.Load())
	b.mu.Lock()
	frac := 0.0
	if b.totalW > 0 {
		frac = min(1, b.doneW/b.totalW)
	}
	b.mu.Unlock()
	elapsed := time.Since(b.began)
	fill := int(frac * width)
	left := "?"
	switch {
	case final:
		left = "0s"
	case frac > 0:
		left = (time.Duration(float64(elapsed) * (1 - frac) / frac)).Round(time.Second).String()
	}
	fmt.Fprintf(b.w, "\r[%s%s] %d/%d runs %3.0f%%  elapsed %v  left ~%s   ",
		strings.Repeat("#", fill), strings.Repeat(".", width-fill),
		done, b.total, 100*frac, elapsed.Round(time.Second), left)
	if final {
		fmt.Fprintln(b.w)
	}
}
