package mmaes

import (
	"context"
	"math"

	"github.com/mmaes-go/mmaes/kernel"
)

// An Optimizer runs one (μ/μ_w, λ)-MMA-ES (or eCMA-ES, or Cholesky CMA-ES)
// minimization. Make it with New (or restore one with UnmarshalBinary), then
// either call Optimize or drive it with Ask and Tell. It is not safe for
// concurrent use; distinct Optimizers share no mutable state.
type Optimizer struct {
	cfg Config // validated copy; cfg.Mean is nil
	par Params

	n, lambda, mu int
	cp, cs        float64 // √(c(2−c)μ_eff), √(c_σ(2−c_σ)μ_eff)

	src *xoshiro // the generator (rand.go)

	sigma float64
	m     []float64 // mean
	a     []float64 // A, n×n row-major
	ainv  []float64 // A_inv (Cholesky only), n×n row-major
	p     []float64
	v     []float64
	s     []float64

	// Scratch, all allocated in New: the next mean and paths (swapped in
	// when the update is accepted), z_w, y_w, u = A_inv·p and w = uᵀA_inv,
	// and the row norms of A of a scan (stop.go).
	mNew, pNew, vNew, sNew []float64
	zw, yw, u, w           []float64
	norms                  []float64
	// The sampling kernel's scratch space (kernel.WorkLen; sized with the
	// population): passed in, it is not cleared on the stack every call.
	work []float64

	// The population: λ×n row-major z_i, y_i = A·z_i, x_i = m + σ·y_i, and
	// the candidate views handed out by Ask.
	z, y, x []float64
	xs      [][]float64
	evalBuf []float64 // Optimize's fitness values
	fit     []float64 // Tell's copy of the fitness values
	idx     []int     // ranking: idx[k] is the k-th best candidate

	bestX   []float64
	bestF   float64
	hasBest bool

	hist    []float64 // TolFun: ring buffer of the best value per generation
	histPos int
	histLen int

	gen, evals int
	reason     Reason
	asked      bool

	// Upper bounds of the largest row norm of A and A_inv, exact after a
	// scan (stop.go).
	rowA, rowAInv float64

	// A is kept as aScale·Ã with Ã in o.a (scale.go): an update's factor α
	// goes into the scalar, so the pass over A adds the rank-one term with
	// one multiply-add per entry instead of a multiplication and a
	// multiply-add. aView holds the A that A() returns (allocated on its
	// first call).
	aScale float64
	aView  []float64

	// The pending rank-one update of Ã, Ã ← pendAlpha·Ã + pendBeta·p·pendQᵀ
	// (update.go; pendAlpha is 1 but for an exact rescaling, scale.go):
	// Tell records it and the next Ask applies it in the same
	// pass over A as the sampling (kernel.UpdateMulVecs). Whatever reads A
	// first calls flushA, which applies it alone; both give the same bits.
	pend                bool
	pendAlpha, pendBeta float64
	pendQ               []float64 // v, or u for Cholesky; p is o.p

	// Restarts (restart.go). lambda0 is the first run's λ; m0 the initial
	// mean (nil without restarts). runGen and runEvals0 are the generations
	// of the current run and the evaluations before it; runMaxGen its
	// generation limit (0: none). BIPOP: small tells whether the current
	// run counts as small, largeRuns counts the large runs, evalsSmall and
	// evalsLarge the evaluations of the finished runs of each regime.
	lambda0                int
	m0                     []float64
	restarts               int
	runGen, runEvals0      int
	runMaxGen              int
	small                  bool
	largeRuns              int
	evalsSmall, evalsLarge int

	// Box constraints (bounds.go): nil without bounds.
	lo, hi, al, au []float64

	// Rank-μ update (rankmu.go): the gathered (μ+1)×n blocks [p; y_{i:λ}]
	// and [v; z_{i:λ}] and their coefficients.
	rkP, rkQ, rkBeta []float64
}

// A Result summarizes a run.
type Result struct {
	// X is a copy of the best point evaluated so far (the initial mean
	// before any non-NaN fitness value was told), and F its fitness (NaN if
	// none).
	X []float64
	F float64
	// Evals and Generations count the fitness values and the generations
	// told so far.
	Evals       int
	Generations int
	// Reason says why the run stopped (NotStopped if it has not; Canceled
	// in the Result of an Optimize call whose context was cancelled). With
	// restarts it is the reason of the last run.
	Reason Reason
	// Restarts counts the restarts made (Config.Restart); X and F are the
	// best over all runs.
	Restarts int
}

// New validates cfg and returns an Optimizer at generation 0: mean cfg.Mean,
// step size cfg.Sigma, A = I (and A_inv = I), all paths zero. Every buffer
// the run needs is allocated here. An invalid cfg gives an error that wraps
// ErrInvalidConfig and is a *ConfigError naming the field.
func New(cfg Config) (*Optimizer, error) {
	par, err := resolve(&cfg)
	if err != nil {
		return nil, err
	}
	if err := checkMeanInBounds(&cfg); err != nil {
		return nil, err
	}
	o := newOptimizer(cfg, par, par.Lambda, par.TolFunHist)
	if cfg.Mean != nil {
		copy(o.m, cfg.Mean)
	}
	if o.m0 != nil {
		copy(o.m0, o.m)
	}
	o.src = newXoshiro(cfg.Seed)
	o.startRun(cfg.Sigma) // σ0, A = I (A_inv = I), zero paths
	o.runMaxGen = cfg.MaxGenerations
	o.small = cfg.Restart == BIPOP // the first run counts as small
	copy(o.bestX, o.m)
	o.bestF = math.NaN()
	return o, nil
}

// newOptimizer allocates an Optimizer's buffers for a validated config, the
// current run's parameters par, the first run's λ0 and a TolFun history of
// capacity histCap; the state is zero and the generator unset. It keeps
// copies of the bounds and clears cfg.Mean.
func newOptimizer(cfg Config, par Params, lambda0, histCap int) *Optimizer {
	n, lambda := cfg.Dim, par.Lambda
	cfg.Mean = nil
	if cfg.Lower != nil {
		cfg.Lower = append([]float64(nil), cfg.Lower...)
	}
	if cfg.Upper != nil {
		cfg.Upper = append([]float64(nil), cfg.Upper...)
	}
	o := &Optimizer{
		cfg: cfg, par: par,
		n: n, lambda: lambda, mu: par.Mu,
		cp:      math.Sqrt(par.C * (2 - par.C) * par.MuEff),
		cs:      math.Sqrt(par.CSigma * (2 - par.CSigma) * par.MuEff),
		lambda0: lambda0,
	}
	o.setBounds(cfg.Lower, cfg.Upper)
	if cfg.Restart != NoRestart {
		o.m0 = make([]float64, n)
	}
	// One backing array for the vectors keeps them close in memory.
	nv := 14
	vec := make([]float64, nv*n)
	next := func() []float64 {
		v := vec[:n:n]
		vec = vec[n:]
		return v
	}
	o.m, o.p, o.v, o.s = next(), next(), next(), next()
	o.mNew, o.pNew, o.vNew, o.sNew = next(), next(), next(), next()
	o.zw, o.yw, o.u, o.w = next(), next(), next(), next()
	o.bestX = next()
	o.norms = next()
	o.a = make([]float64, n*n)
	if cfg.Update == Cholesky {
		o.ainv = make([]float64, n*n)
	}
	o.hist = make([]float64, max(histCap, par.TolFunHist))
	o.sizeBuffers() // the population, ranking and rank-μ buffers for λ
	return o
}

// Ask returns the λ candidates of the current generation, to be evaluated
// and passed (their fitness values, in the same order) to Tell. The vectors
// are views into the optimizer's buffer: valid until the next Tell, and
// changing them does not change the update (which uses the sampled steps
// y_i, as the paper does). Asking again before Tell returns the same
// candidates; no random numbers are drawn. After the run stopped (and for an
// uninitialized Optimizer) Ask returns nil: see Reason. Ask does not
// allocate.
func (o *Optimizer) Ask() [][]float64 {
	if o.n == 0 || o.reason != NotStopped {
		return nil
	}
	if !o.asked {
		for !o.sample() {
			// A non-finite candidate ends the run: restart or stop.
			if !o.canRestart() || !o.restart() {
				o.reason = NumericalBreakdown
				return nil
			}
		}
		o.asked = true
	}
	n := o.n
	for i := range o.xs {
		o.xs[i] = o.x[i*n : i*n+n : i*n+n]
	}
	return o.xs
}

// sample draws z_i ~ N(0, I), computes Y = A·Z with one kernel call and
// x_i = m + σ·y_i, and reports whether every candidate is finite.
func (o *Optimizer) sample() bool {
	fillNormal(o.src, o.z)
	o.fillXY()
	// Σ x_i² is finite when every x_i is finite and not huge: one SIMD pass;
	// only when it is not does the element-by-element check decide.
	if s := kernel.Dot(o.x, o.x); !(s <= math.MaxFloat64) && !allFinite(o.x) {
		return false
	}
	if o.lo != nil {
		o.repairAll() // bounds.go
	}
	return true
}

// fillXY computes Y = A·Z and X = m + σ·Y from Z, applying the pending
// update of A in the same pass.
func (o *Optimizer) fillXY() {
	n := o.n
	if o.pend {
		kernel.UpdateMulVecsWork(o.y, o.a, n, o.pendAlpha, o.pendBeta, o.p, o.pendQ, o.z, o.lambda, o.work)
		o.pend = false
	} else {
		kernel.MulVecsWork(o.y, o.a, n, o.z, o.lambda, o.work)
	}
	// y_i = s·Ã·z_i, and x_i = m + σ·y_i for the whole population in one
	// kernel call.
	ln := o.lambda * n
	if o.aScale != 1 {
		kernel.Scale(o.aScale, o.y[:ln])
	}
	for i := 0; i < ln; i += n {
		copy(o.x[i:i+n], o.m)
	}
	kernel.Axpy(o.sigma, o.y[:ln], o.x[:ln])
}

// Tell passes the fitness values of the candidates of the last Ask (lower
// is better) and updates the distribution. See the package doc for how NaN
// and ±Inf rank. It returns ErrLength or ErrNotAsked, changing nothing, for
// a wrong length or a Tell without an Ask; after the run stopped it returns
// an error that wraps ErrStopped and names the reason (also from Reason).
// Tell copies fitness and does not allocate.
func (o *Optimizer) Tell(fitness []float64) error {
	switch {
	case o.n == 0:
		return ErrNotInitialized
	case o.reason != NotStopped:
		return stopErrs[o.reason]
	case !o.asked:
		return ErrNotAsked
	case len(fitness) != o.lambda:
		return ErrLength
	}
	copy(o.fit, fitness)
	o.asked = false
	o.gen++
	o.runGen++
	o.evals += o.lambda

	valid := rank(o.idx, o.fit)
	if valid == 0 {
		o.stop(AllNaN)
		return nil
	}
	n := o.n
	genBest := o.fit[o.idx[0]]
	genRange := o.fit[o.idx[valid-1]] - genBest
	if !o.hasBest || genBest < o.bestF {
		copy(o.bestX, o.x[o.idx[0]*n:o.idx[0]*n+n])
		o.bestF, o.hasBest = genBest, true
	}
	o.hist[o.histPos] = genBest
	o.histPos++
	if o.histPos == len(o.hist) {
		o.histPos = 0
	}
	o.histLen = min(o.histLen+1, len(o.hist))

	// The target and the evaluation budget are met by this generation's
	// values whatever its update does: they win over a breakdown found in
	// the update or by the stop checks.
	ok := o.update()
	switch r := o.checkStop(genRange, ok); {
	case o.targetReached():
		o.stop(TargetReached)
	case o.cfg.MaxEvals > 0 && o.evals >= o.cfg.MaxEvals:
		o.stop(MaxEvalsReached)
	default:
		o.stop(r)
	}
	return nil
}

// targetReached reports whether a value ≤ Config.TargetF was evaluated.
func (o *Optimizer) targetReached() bool {
	return !math.IsInf(o.cfg.TargetF, -1) && o.hasBest && o.bestF <= o.cfg.TargetF
}

// stop records r (if it is a stop) and calls the observer. A local stop
// starts the next run instead when a restart is left (restart.go).
func (o *Optimizer) stop(r Reason) {
	if localStop(r) && o.canRestart() && o.restart() {
		r = NotStopped
	}
	o.reason = r
	if o.cfg.Observer != nil {
		o.cfg.Observer(o)
	}
}

// Optimize minimizes f: it runs generations (Ask, f on each candidate, Tell)
// until a stop criterion fires or ctx is cancelled, and returns the best
// point seen. The error is nil when the run stopped on a criterion or budget
// (see Result.Reason), wraps ErrBreakdown or ErrAllNaN when it failed (the
// Result still holds the best point seen), and is ctx.Err() when ctx was
// cancelled: then Result.Reason is Canceled but the optimizer itself has not
// stopped, so Optimize (or Ask/Tell) can continue the run exactly. ctx is
// checked before each evaluation. A pending Ask is evaluated first. Called
// on a stopped run, Optimize returns at once. With Config.Workers ≥ 2, f is
// called from that many goroutines at once and must be safe for concurrent
// use; the result is the same, bit for bit (see parallel.go). Apart from
// the copy of the best point in the Result, the worker goroutines (started
// once per call) and restarts (see Restart), Optimize allocates nothing.
func (o *Optimizer) Optimize(ctx context.Context, f func(x []float64) float64) (Result, error) {
	if o.n == 0 {
		return Result{}, ErrNotInitialized
	}
	if f == nil {
		return o.Result(), ErrNilObjective
	}
	if ctx == nil {
		ctx = context.Background()
	}
	done := ctx.Done()
	var pool *evalPool
	if w := o.poolSize(); w > 0 && o.reason == NotStopped {
		pool = newEvalPool(f, done, w) // parallel.go
		defer pool.stop()
	}
	for o.reason == NotStopped {
		xs := o.Ask()
		if xs == nil {
			break
		}
		if pool != nil {
			if !pool.eval(xs, o.evalBuf) {
				res := o.Result()
				res.Reason = Canceled
				return res, ctx.Err()
			}
			if err := o.Tell(o.evalBuf); err != nil {
				break // unreachable, as below
			}
			continue
		}
		for i, x := range xs {
			if done != nil {
				select {
				case <-done:
					res := o.Result()
					res.Reason = Canceled
					return res, ctx.Err()
				default:
				}
			}
			o.evalBuf[i] = f(x)
		}
		if err := o.Tell(o.evalBuf); err != nil {
			break // unreachable: the run is live and asked, the length right
		}
	}
	res := o.Result()
	if res.Reason.Failed() {
		return res, stopErrs[res.Reason]
	}
	return res, nil
}

// Result returns the best point seen (a copy), its fitness, the counters
// and the stop reason.
func (o *Optimizer) Result() Result {
	if o.n == 0 {
		return Result{F: math.NaN()}
	}
	return Result{
		X:           append([]float64(nil), o.bestX...),
		F:           o.bestF,
		Evals:       o.evals,
		Generations: o.gen,
		Reason:      o.reason,
		Restarts:    o.restarts,
	}
}

// Reason returns why the run stopped, or NotStopped.
func (o *Optimizer) Reason() Reason { return o.reason }

// Err returns nil while the run goes on, else the error Tell returns: it
// wraps ErrStopped (and ErrBreakdown or ErrAllNaN for a failure) and names
// the reason.
func (o *Optimizer) Err() error {
	if o.reason == NotStopped {
		return nil
	}
	return stopErrs[o.reason]
}

// Read-only accessors. The slices are views of the optimizer's state: valid
// until the next Tell (or UnmarshalBinary), and not to be modified.

// Dim returns the dimension n.
func (o *Optimizer) Dim() int { return o.n }

// Lambda returns the population size λ (of the current run: restarts change
// it).
func (o *Optimizer) Lambda() int { return o.lambda }

// Mu returns the number of parents μ (of the current run).
func (o *Optimizer) Mu() int { return o.mu }

// Update returns the matrix update rule.
func (o *Optimizer) Update() Update { return o.cfg.Update }

// Generation returns the number of generations told.
func (o *Optimizer) Generation() int { return o.gen }

// Evals returns the number of fitness values told.
func (o *Optimizer) Evals() int { return o.evals }

// Sigma returns the step size σ.
func (o *Optimizer) Sigma() float64 { return o.sigma }

// Mean returns the mean m (a view, valid until the next Tell).
func (o *Optimizer) Mean() []float64 { return o.m }

// A returns the mutation matrix A, n×n row-major: A[i][j] is A()[i*n+j]
// (the candidates are x_i = m + σ·A·z_i). It is a copy that the optimizer
// keeps and overwrites on the next call (n² float64s, allocated on the
// first): the optimizer holds A as s·Ã (scale.go), and reading A does not
// change the run.
func (o *Optimizer) A() []float64 {
	o.flushA()
	if len(o.aView) != len(o.a) {
		o.aView = make([]float64, len(o.a))
	}
	copy(o.aView, o.a)
	kernel.Scale(o.aScale, o.aView)
	return o.aView
}

// flushA applies the pending update of A, if any (see Optimizer.pend).
func (o *Optimizer) flushA() {
	if o.pend {
		kernel.ScaleAddOuter(o.a, o.n, o.pendAlpha, o.pendBeta, o.p, o.pendQ)
		o.pend = false
	}
}

// AInv returns A_inv, the inverse factor the Cholesky update keeps (a view
// as for A), or nil for the other updates.
func (o *Optimizer) AInv() []float64 { return o.ainv }

// P returns the p-path (a view, valid until the next Tell).
func (o *Optimizer) P() []float64 { return o.p }

// V returns the v-path (a view, valid until the next Tell).
func (o *Optimizer) V() []float64 { return o.v }

// S returns the s-path of the step-size adaptation (a view, valid until the
// next Tell).
func (o *Optimizer) S() []float64 { return o.s }

// BestX returns the best point seen (a view, valid until the next Tell);
// BestF returns its fitness (NaN if none yet).
func (o *Optimizer) BestX() []float64 { return o.bestX }

// BestF returns the best fitness value seen, NaN before the first.
func (o *Optimizer) BestF() float64 {
	if !o.hasBest {
		return math.NaN()
	}
	return o.bestF
}

// Params returns the resolved strategy parameters of the current run (with
// a copy of the weights).
func (o *Optimizer) Params() Params {
	p := o.par
	p.Weights = append([]float64(nil), p.Weights...)
	return p
}

// Config returns the configuration the optimizer runs with (Mean is nil: see
// Mean for the current mean; Lower and Upper are copies).
func (o *Optimizer) Config() Config {
	c := o.cfg
	if c.Lower != nil {
		c.Lower = append([]float64(nil), c.Lower...)
	}
	if c.Upper != nil {
		c.Upper = append([]float64(nil), c.Upper...)
	}
	return c
}

// SetObserver replaces the observer (Config.Observer), for instance after
// UnmarshalBinary, which does not restore it.
func (o *Optimizer) SetObserver(fn func(*Optimizer)) { o.cfg.Observer = fn }
