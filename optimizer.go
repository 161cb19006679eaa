package mmaes

import (
	"context"
	"math"
	"runtime"

	"github.com/mmaes-go/mmaes/kernel"
)

// An Optimizer runs one (μ/μ_w, λ)-MMA-ES minimization (or eCMA-ES,
// Cholesky CMA-ES or the limited-memory LMMA: Config.Update). Make it with
// New (or restore one with UnmarshalBinary), then either call Optimize or
// drive it with Ask and Tell. It is not safe for
// concurrent use; distinct Optimizers share no mutable state.
type Optimizer struct {
	cfg Config // validated copy; cfg.Mean is the initial mean (a copy)
	par Params // of the current run

	src  *xoshiro     // the generator
	dist distribution // the search distribution: A and how it learns
	// threads splits dist's sampling over goroutines (Config.Threads);
	// nil without. threadsCleanup stops it when the optimizer is collected.
	threads        *rowThreads
	threadsCleanup runtime.Cleanup
	// ahead: the pool is drawing the next generation's deviates into
	// spareZ (drawAhead), with the chunks' seeds in fillSeeds.
	ahead     bool
	spareZ    []float64
	fillSeeds []uint64
	direct    directSampler // dist, when it writes the candidates itself; else nil
	scaled    scaledSampler // dist, when it leaves the scale of y to the placement; else nil
	step      stepSize      // σ and its path

	m, mNew []float64 // the mean, and the proposed one
	pop     population
	best    bestPoint
	hist    fitnessHistory // TolFun
	run     runs           // restarts and the current run
	watch   runWatch       // the stops that watch the run's progress
	box     *box           // nil without bounds
	fix     *fixedCoords   // nil without fixed coordinates
	margin  *integerMargin // nil without integer coordinates
	noise   *noiseAdapt    // nil without Config.Noise
	board   *statusBoard   // the status published for other goroutines
	inj     *injection     // nil before the first Inject

	gen, evals int
	reason     Reason
	// fired is the set of stops that fired in the generation that ended
	// the optimization, reason the winner among them (0 while it runs):
	// when a new budget lifts the winner, the others still apply.
	fired stopSet
	asked bool

	// observing is set while the observer runs; again, when a stop
	// during that call (a Reconfigure in the observer) is to be reported
	// to it once it returned.
	observing, again bool

	enc encoder // the checkpoint encoder's state (AppendBinary allocates nothing)
}

// Ask returns the λ candidates of the current generation, to be evaluated
// and passed (their fitness values, in the same order) to Tell. The vectors
// are views into the optimizer's buffer: valid until the next Tell, and
// writing into them does not change the update (which uses the sampled
// steps y_i, as the paper does) nor the best point; the returned slice of
// views is the optimizer's too, reused by every Ask, and not to be
// changed. Several goroutines may read the views at once (no method of the
// Optimizer may run meanwhile): evaluate them in parallel, then Tell the
// values in candidate order. Asking again before Tell returns the same
// candidates; no random numbers are drawn. After the run stopped (and for an
// uninitialized Optimizer) Ask returns nil: see Reason. Ask does not
// allocate.
func (o *Optimizer) Ask() [][]float64 {
	if o.dist == nil || o.reason != NotStopped {
		return nil
	}
	if !o.asked {
		restarted := false
		for !o.sample() {
			// A non-finite candidate ends the run: restart or stop, the
			// deviates drawn ahead (drawAheadEarly) dropped.
			o.dropDeviates()
			r := NumericalBreakdown
			if o.canRestart() {
				r = o.restart(r)
			}
			if r != NotStopped {
				o.setReason(r, 0)
				o.publish()
				return nil
			}
			restarted = true
		}
		if restarted {
			o.publish()
		}
		o.asked = true
		o.pop.evalDone = 0
		if !o.ahead { // not handed out during the sampling already
			o.drawAhead()
		}
	}
	if o.fix != nil {
		return o.fix.xs[:o.pop.lambda]
	}
	return o.pop.views()
}

// sample draws z_i ~ N(0, I), lets the distribution compute y_i = A·z_i,
// sets x_i = m + σ·y_i (mapped into the box, if any), and reports whether
// every candidate is finite.
func (o *Optimizer) sample() bool {
	p := &o.pop
	if !o.takeDeviates() {
		fillPopulation(o.src, p.z)
	}
	o.drawAheadEarly()
	// The full matrix: at small n sampling and placement in one kernel
	// call where the kernel has it; split over the pool, each range of
	// rows placed once computed (the same bits as the calls below).
	if d, ok := o.dist.(*fullMatrix); ok && o.inj == nil && o.margin == nil {
		if d.threads == nil && kernel.StepFused(d.n) {
			return o.placed(d.samplePlace(p.x, p.y, p.z, p.lambda, o.m, o.step.sigma))
		}
		if split, finite := d.samplePlaceSplit(p.x, p.y, p.z, p.lambda, o.m, o.step.sigma); split {
			return o.placed(finite)
		}
	}
	s := 1.0 // the scale the placement applies to y
	switch {
	case o.direct != nil:
	case o.scaled != nil && o.inj == nil:
		s = o.scaled.sampleUnscaled(p.y, p.z, p.lambda)
	default:
		o.dist.sample(p.y, p.z, p.lambda)
	}
	zMax := float64(normalMax) // the deviates as fillNormal draws them
	if o.inj != nil {
		o.applyInjections()
		zMax = math.Inf(1) // an injected point's z is its own
	}
	return o.placeCandidates(s, zMax)
}

// placeCandidates sets x_i = m + σ·y_i (from z_i, with a distribution that
// samples directly) and maps them into the box; it reports whether every
// candidate is finite. s is the scale y still has to take first
// (scaledSampler), 1 when it has taken it; zMax bounds the magnitude of
// z's elements (+Inf: not known).
func (o *Optimizer) placeCandidates(s, zMax float64) bool {
	p := &o.pop
	ok := false // every x_i finite, when known
	if o.direct != nil {
		ok = o.direct.sampleDirect(p.x, p.z, o.m, o.step.sigma, p.lambda, zMax)
		if o.margin != nil {
			o.margin.widen(p.x, o.m, p.n, p.lambda)
			ok = false
		}
	} else {
		ok = p.place(o.m, o.step.sigma, s)
		if o.margin != nil {
			o.margin.place(p.x, o.m, p.y, o.step.sigma, p.n, p.lambda)
			ok = false
		}
	}
	return o.placed(ok)
}

// placed finishes the placement of the candidates, ok if every x_i is
// known to be finite: it checks them when not, maps them into the box and
// encodes the integer coordinates, puts the injected and fixed ones in,
// and reports whether every candidate is finite.
func (o *Optimizer) placed(ok bool) bool {
	p := &o.pop
	// Σ x_i² is finite when every x_i is finite and not huge: one SIMD pass;
	// only when it is not does the element-by-element check decide.
	if !ok {
		if s := kernel.Dot(p.x, p.x); !(s <= math.MaxFloat64) && !allFinite(p.x) {
			return false
		}
	}
	if o.box != nil {
		o.box.repairAll(p.x, p.n, p.lambda)
	}
	if o.margin != nil {
		o.margin.encode(p.x, p.n, p.lambda)
	}
	if o.inj != nil {
		copy(p.x, o.inj.x[:o.inj.count*p.n]) // the injected points, as given
	}
	if o.fix != nil {
		o.fix.place(p.x, p.lambda)
	}
	return true
}

// candidate sets dst to the candidate x_i = m + σ·y_i of the current
// generation, mapped into the box: the bits sample gave it.
func (o *Optimizer) candidate(dst []float64, i int) {
	n := o.pop.n
	if o.inj != nil && i < o.inj.count {
		copy(dst, o.inj.x[i*n:i*n+n])
		return
	}
	if o.direct != nil {
		o.direct.candidate(dst, o.pop.z[i*n:i*n+n], o.m, o.step.sigma, i)
		if o.margin != nil {
			o.margin.widen(dst, o.m, n, 1)
		}
	} else {
		y := o.pop.y[i*n : i*n+n]
		kernel.AxpByTo(dst, o.step.sigma, y, 1, o.m)
		if o.margin != nil {
			o.margin.place(dst, o.m, y, o.step.sigma, n, 1)
		}
	}
	if o.box != nil {
		o.box.repair(dst)
	}
	if o.margin != nil {
		o.margin.encode(dst, n, 1)
	}
}

// Tell passes the fitness values of the candidates of the last Ask (lower
// is better) and updates the distribution. See the package doc for how NaN
// and ±Inf rank. It returns ErrLength or ErrNotAsked, changing nothing, for
// a wrong length or a Tell without an Ask; after the run stopped it returns
// an error that wraps ErrStopped and names the reason (also from Reason).
// Tell copies fitness and does not allocate.
func (o *Optimizer) Tell(fitness []float64) error {
	switch {
	case o.dist == nil:
		return ErrNotInitialized
	case o.reason != NotStopped:
		return stopErrs[o.reason]
	case !o.asked:
		return ErrNotAsked
	case len(fitness) != o.pop.lambda:
		return ErrLength
	}
	return o.tell(fitness)
}

// tell ends the generation with the λ values of fitness.
func (o *Optimizer) tell(fitness []float64) error {
	p := &o.pop
	// One load per value, not copy: the caller has typically just stored
	// the values one by one, and copy's wider loads would wait until those
	// stores reach the cache (a load takes its data from one store in
	// flight, not several); these loads take theirs from the stores.
	fit := p.fit[:len(fitness)]
	for i, f := range fitness {
		fit[i] = f
	}
	return o.tellRanked(p.lambda, rank(p.idx, p.fit, &p.ranks))
}

// tellRanked ends the generation of the k candidates ranked in p.idx[:k]
// (their values in p.fit, valid of them not NaN): the counters, the best
// point, the update, the stops.
func (o *Optimizer) tellRanked(k, valid int) error {
	p := &o.pop
	o.endGeneration(k)

	if valid == 0 {
		fired := o.globalStops()
		fired.add(AllNaN)
		o.stop(fired)
		return nil
	}
	idx := p.idx[:k]
	genBest, genWorst := p.fit[idx[0]], p.fit[idx[valid-1]]
	genRange := 0.0 // equal values spread 0, also when they are ±Inf
	if genWorst != genBest {
		genRange = genWorst - genBest
	}
	o.recordBest(genBest, idx[0])
	if o.inj != nil {
		o.inj.keepLeader(idx[0], genBest, p.n)
	}
	o.hist.push(genBest)
	o.watch.observe(o.run.gen, p.fit, idx, valid)

	fired := o.globalStops()
	if o.update() {
		c := &o.cfg
		h := o.dist.inspect(o.gen, c.MinStd > 0 || c.MaxStd > 0 || o.margin != nil)
		if !h.broken {
			o.step.bound(c.MinStd, c.MaxStd, h.minRow, h.maxRow)
			if o.margin != nil {
				o.dist.stdDevs(o.margin.rows)
				o.margin.correct(o.m, o.step.sigma)
			}
		}
		o.noteScan(h) // with σ as bounded
		fired |= o.runStops(h, genRange)
	} else {
		fired.add(NumericalBreakdown)
	}
	o.stop(fired)
	return nil
}

// endGeneration counts a told generation of k values; no candidate is
// pending any more.
func (o *Optimizer) endGeneration(k int) {
	o.asked = false
	o.gen++
	o.run.gen++
	o.evals += k
}

// recordBest makes candidate i, of value f, the best point if it is better.
func (o *Optimizer) recordBest(f float64, i int) {
	if o.best.improves(f) {
		// The evaluated point, computed again from its step (the bits of
		// sample): the caller may have written into Ask's views.
		o.candidate(o.best.x, i)
		o.best.f, o.best.ok = f, true
	}
}

// update applies one generation's update after ranking (Algorithm 1, lines
// 10–15):
//
//	y_w = Σ w_i·y_{i:λ},  z_w = Σ w_i·z_{i:λ}
//	m  ← m + σ·y_w                          (= Σ w_i·x_{i:λ}, Σw = 1)
//	A and its paths: the distribution's rule
//	σ and its path: the step-size adaptation
//
// Each part computes its new state aside first; if any is non-finite (or σ
// is not > 0), update returns false and changes nothing. Otherwise all
// commit, and it returns true.
func (o *Optimizer) update() bool {
	p := &o.pop
	// The full matrix: recombination, mean and paths in one kernel call
	// where the kernel has it (the same bits as proposeEach).
	if d, ok := o.dist.(*fullMatrix); ok && o.inj == nil && recombineFused && kernel.RecombineFused(d.n) {
		if !d.proposeStep(&p.sel, &o.step, o.m, o.mNew, o.step.sigma) {
			return false
		}
	} else if relocated, ok := o.proposeEach(); !ok || relocated {
		return ok
	}
	if o.noise != nil && !o.adaptRates() {
		return false
	}
	o.m, o.mNew = o.mNew, o.m
	k := o.dist.commit(&p.sel, o.step.sigma)
	o.step.commit()
	if k != 0 {
		o.step.sigma = math.Ldexp(o.step.sigma, -k)
	}
	return true
}

// recombineFused lets update use the kernel's one-pass recombination
// (tests turn it off to compare the bits with proposeEach).
var recombineFused = true

// proposeEach is update's proposal by its parts in turn: the
// recombination, the new mean, σ's path, the distribution's and σ's
// proposals. It reports whether they are finite, and whether an injection
// relocated the mean instead (made current: nothing else changes).
func (o *Optimizer) proposeEach() (relocated, ok bool) {
	p := &o.pop
	p.recombine()
	if o.direct != nil {
		o.direct.weightedStep(p.sel.yw, p.sel.zw, p.sel.weights, p.sel.idx)
	}
	kernel.AxpByTo(o.mNew, o.step.sigma, p.sel.yw, 1, o.m) // the bits of copy and Axpy
	if o.inj != nil && o.inj.count > 0 {
		o.inj.meanShift(o.mNew, o.step.sigma, &p.sel, p.n)
		if o.inj.relocates(&p.sel, p.n) {
			if !allFinite(o.mNew) {
				return true, false
			}
			o.m, o.mNew = o.mNew, o.m
			return true, true
		}
	}
	// The paths' norms come with the paths (kernel.AxpByToNorm): a norm
	// read back right after its path was written waits for the stores (at
	// small n that was a tenth of a generation).
	o.step.advance(p.sel.zw, p.sel.pathScale)
	ok = allFinite(o.mNew) && o.dist.propose(&p.sel) && o.step.propose()
	return false, ok
}

// stop records the winner of the stops that fired (if any) and calls the
// observer. A local stop starts the next run instead when a restart is
// left.
func (o *Optimizer) stop(fired stopSet) {
	r := fired.winner()
	if r.local() && o.canRestart() {
		r = o.restart(r)
	}
	o.setReason(r, fired)
	o.publish()
	o.notify()
}

// notify calls the observer; called again while the observer runs, it
// calls it once more after that call returned, never inside it (an
// observer holding a lock would wait for itself).
func (o *Optimizer) notify() {
	if o.cfg.Observer == nil {
		return
	}
	if o.observing {
		o.again = true
		return
	}
	o.observing = true
	defer func() { o.observing = false }()
	for {
		o.again = false
		o.cfg.Observer(o)
		if !o.again || o.cfg.Observer == nil {
			return
		}
	}
}

// setReason sets the reason the optimization stopped (NotStopped: it
// goes on) and the stops that fired with it: fired when r is its winner,
// else r alone (a restart that could not start, a broken sampling).
func (o *Optimizer) setReason(r Reason, fired stopSet) {
	o.reason, o.fired = r, 0
	if r != NotStopped {
		o.fired = 1 << r
		if fired.winner() == r {
			o.fired = fired
		}
	}
}

// Optimize minimizes f: it runs generations (Ask, f on each candidate, Tell)
// until a stop criterion fires or ctx is cancelled, and returns the best
// point seen. The error is nil when the run stopped on a criterion or budget
// (see Result.Reason), wraps ErrBreakdown or ErrAllNaN when it failed (the
// Result still holds the best point seen), and is ctx.Err() when ctx was
// cancelled: then Result.Reason is Canceled but the optimizer itself has not
// stopped, so Optimize (or Ask/Tell) can continue the run exactly. ctx is
// checked before each evaluation. A pending Ask is evaluated first; with
// one worker, the values a cancelled Optimize computed for it are kept, and
// the next Optimize evaluates only the candidates after them (Tell and
// TellSome instead take the caller's values). Called on a stopped run,
// Optimize returns at once.
//
// With Config.Workers ≥ 2, f is called from that many goroutines at once
// and must be safe for concurrent use; the result is the same, bit for bit.
// Apart from the copies of the best point and the mean in the Result, the worker
// goroutines (started once per call) and restarts (see Restart), Optimize
// allocates nothing.
func (o *Optimizer) Optimize(ctx context.Context, f func(x []float64) float64) (Result, error) {
	if o.dist == nil {
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
	defer func() {
		if pool != nil {
			pool.stop()
		}
	}()
	for o.reason == NotStopped {
		xs := o.Ask()
		if xs == nil {
			break
		}
		// Workers may change from one generation to the next (Reconfigure
		// from the observer): the pool grows, or is made anew beyond its
		// capacity, and wakes only the goroutines the generation may use.
		w := o.poolSize()
		if w > 0 {
			if pool != nil && w > pool.capacity() {
				pool.stop()
				pool = nil
			}
			if pool == nil {
				pool = newEvalPool(f, done, w, o.cfg.Workers-1)
			}
			pool.grow(w)
		}
		out := o.pop.evalBuf
		if w > 0 {
			if !pool.eval(xs, out, w) {
				return o.canceled(ctx)
			}
		} else {
			// Values a cancelled call computed for this generation are
			// kept: go on from the next candidate.
			for i := o.pop.evalDone; i < len(xs); i++ {
				if done != nil {
					select {
					case <-done:
						o.pop.evalDone = i
						return o.canceled(ctx)
					default:
					}
				}
				out[i] = f(xs[i])
			}
		}
		if err := o.Tell(out); err != nil {
			break // unreachable: the run is live and asked, the length right
		}
	}
	res := o.Result()
	if res.Reason.Failed() {
		return res, stopErrs[res.Reason]
	}
	return res, nil
}

// canceled is Optimize's return when ctx was cancelled.
func (o *Optimizer) canceled(ctx context.Context) (Result, error) {
	res := o.Result()
	res.Reason = Canceled
	return res, ctx.Err()
}

// Reason returns why the run stopped, or NotStopped.
func (o *Optimizer) Reason() Reason { return o.reason }

// Err returns nil while the run goes on, ErrNotInitialized for an
// Optimizer that New or UnmarshalBinary did not make, else the error a
// further Tell would return: it wraps ErrStopped (and ErrBreakdown or
// ErrAllNaN for a failure) and names the reason. So it is not nil after a
// successful stop either (TargetReached, TolFun, …): a run failed when
// Reason().Failed(), or when errors.Is(err, ErrBreakdown) or ErrAllNaN.
func (o *Optimizer) Err() error {
	if o.dist == nil {
		return ErrNotInitialized
	}
	if o.reason == NotStopped {
		return nil
	}
	return stopErrs[o.reason]
}

// Read-only accessors. The slices are views of the optimizer's state: valid
// until the next Tell (or UnmarshalBinary), and not to be modified.

// Dim returns the dimension n (Config.Dim, fixed coordinates included).
func (o *Optimizer) Dim() int {
	if o.fix != nil {
		return o.fix.cfg.Dim
	}
	return o.cfg.Dim
}

// Lambda returns the population size λ (of the current run: restarts change
// it).
func (o *Optimizer) Lambda() int { return o.pop.lambda }

// Mu returns the number of parents μ (of the current run).
func (o *Optimizer) Mu() int { return o.par.Mu }

// Update returns the matrix update rule.
func (o *Optimizer) Update() Update { return o.cfg.Update }

// Generation returns the number of generations told.
func (o *Optimizer) Generation() int { return o.gen }

// Evals returns the number of fitness values told.
func (o *Optimizer) Evals() int { return o.evals }

// Sigma returns the step size σ.
func (o *Optimizer) Sigma() float64 { return o.step.sigma }

// Mean returns the mean m of the search distribution (a view, valid until
// the next Tell; with fixed coordinates, until the next call of Mean). With
// bounds it may lie outside the box, and its integer coordinates are not
// rounded: Result.Mean is the point of the objective's domain it stands
// for.
func (o *Optimizer) Mean() []float64 {
	if o.fix != nil && o.m != nil {
		return o.fix.expand(o.fix.mean, o.m)
	}
	return o.m
}

// StdDevs sets dst[i] to the standard deviation of coordinate i of the
// search distribution, σ·‖A_i‖ (A_i the i-th row of A: the square root of
// the diagonal of σ²·A·Aᵀ), and returns dst, which is reused when its
// capacity holds Dim values (else a new slice is made). This is the step
// size of each coordinate: σ alone is not, since σ and A trade scale
// (only σ·A matters). It reads A (n² values) and allocates nothing when
// dst has room. A fixed coordinate's deviation is 0. An integer
// coordinate (Config.Integer) is sampled with σ·d_i·‖A_i‖, d_i the
// margin's factor that keeps a candidate off the mean's integer often
// enough, and StdDevs reports that. Nil for an uninitialized Optimizer.
func (o *Optimizer) StdDevs(dst []float64) []float64 {
	if o.dist == nil {
		return nil
	}
	n := o.Dim()
	if cap(dst) < n {
		dst = make([]float64, n)
	}
	dst = dst[:n]
	std := dst
	if o.fix != nil {
		std = o.fix.std
	}
	o.dist.stdDevs(std)
	kernel.Scale(o.step.sigma, std)
	if o.margin != nil {
		o.margin.scaleStdDevs(std)
	}
	if o.fix != nil {
		clear(dst)
		for k, i := range o.fix.free {
			dst[i] = std[k]
		}
	}
	return dst
}

// A returns the mutation matrix A, n×n row-major: A[i][j] is A()[i*n+j]
// (the candidates are x_i = m + σ·A·z_i). It is a copy that the optimizer
// keeps and overwrites on the next call (n² float64s, allocated on the
// first); reading A does not change the run. Nil for an uninitialized
// Optimizer. With LMMA, which never stores A, the first call allocates
// those n² floats (at n = 20 000, 3.2 GB) and later calls rebuild them in
// O(m·n²); it returns nil when they would take more than a quarter of the
// memory budget (Config.MaxMemory; by default the Go memory limit, else the
// machine's memory). StdDevs gives the coordinates' deviations in O(m·n)
// instead.
func (o *Optimizer) A() []float64 {
	if o.dist == nil {
		return nil
	}
	return o.dist.matrix()
}

// AInv returns A_inv, the inverse factor the Cholesky update keeps (a view
// as for A), or nil for the other updates.
func (o *Optimizer) AInv() []float64 {
	if o.dist == nil {
		return nil
	}
	return o.dist.inverse()
}

// P returns the p-path of the matrix update (a view, valid until the next
// Tell).
func (o *Optimizer) P() []float64 {
	if o.dist == nil {
		return nil
	}
	p, _ := o.dist.paths()
	return p
}

// V returns the v-path of the matrix update (a view, valid until the next
// Tell).
func (o *Optimizer) V() []float64 {
	if o.dist == nil {
		return nil
	}
	_, v := o.dist.paths()
	return v
}

// S returns the s-path of the step-size adaptation (a view, valid until the
// next Tell).
func (o *Optimizer) S() []float64 { return o.step.s }

// Params returns the resolved strategy parameters of the current run (with
// copies of the weights, positive and negative).
func (o *Optimizer) Params() Params {
	p := o.par
	p.Weights = append([]float64(nil), p.Weights...)
	if p.NegWeights != nil {
		p.NegWeights = append([]float64(nil), p.NegWeights...)
	}
	return p
}

// Config returns the configuration the optimizer runs with (Mean is nil: see
// Mean for the current mean; Lower, Upper, Scales and Fixed are copies).
func (o *Optimizer) Config() Config {
	if o.fix != nil {
		c := o.fix.config()
		c.Mean, c.Observer = nil, o.cfg.Observer
		return c
	}
	c := o.cfg
	c.Mean = nil
	if c.Lower != nil {
		c.Lower = append([]float64(nil), c.Lower...)
	}
	if c.Upper != nil {
		c.Upper = append([]float64(nil), c.Upper...)
	}
	if c.Scales != nil {
		c.Scales = append([]float64(nil), c.Scales...)
	}
	if c.Integer != nil {
		c.Integer = append([]int(nil), c.Integer...)
	}
	return c
}

// SetObserver replaces the observer (Config.Observer), for instance after
// UnmarshalBinary, which does not restore it.
func (o *Optimizer) SetObserver(fn func(*Optimizer)) { o.cfg.Observer = fn }
