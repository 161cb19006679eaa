package mmaes

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mmaes-go/mmaes/kernel"
)

// maxThreads bounds Config.Threads.
const maxThreads = 1024

// threadMinN is the smallest n whose generations are split: below it
// handing work to another goroutine (waking it takes microseconds) costs
// more than it saves (docs/performance.md, Threads).
const threadMinN = 512

// threadRangesPer is the number of ranges of rows per goroutine above
// threadOneRangeMaxN: each goroutine owns a block of them and helps with
// the others' once its own are done, so that one that starts late or runs
// slower (sharing its core) computes fewer. More ranges balance better but
// each packs its own panels of the population and starts its tiles'
// pipeline anew: 2 measured faster than 4 at n = 2048 and than 1 at n =
// 4096 (docs/performance.md, Threads).
const threadRangesPer = 2

// threadOneRangeMaxN is the largest n whose generations split into one
// range per goroutine (a helper that has not started its range still
// leaves it to the others): once the next deviates were carried by the
// sampling's call, one range measured faster than two at n = 1024 and
// 2048 (docs/performance.md, Threads). A variable for the tests, which
// split small runs into blocks of two.
var threadOneRangeMaxN = 2048

// rowParts returns the number of ranges a sampling of an n×n A asks
// kernel.SplitRows for.
func (t *rowThreads) rowParts(n int) int {
	if n <= threadOneRangeMaxN {
		return len(t.works)
	}
	return len(t.works) * threadRangesPer
}

// threadMinRows is the fewest rows of A in a range.
const threadMinRows = 64

// threadSpin is how long a goroutine of the pool that has finished its
// ranges waits at least, spinning, for the next call before it parks: a
// parked goroutine takes 10–30 µs to wake on some machines (a futex
// through the hypervisor), as long as the serial part of a generation at
// n = 1024, and about 190 µs on others (its processor halted; the waker
// spends 30 µs in the system call), longer than many objectives take to
// evaluate a population (docs/performance.md, Threads). So a helper spins
// for 1.5 times the longest gap it met before its last few calls (from
// finishing its work to the next hand-out), at least threadSpin, as long
// as that is at most threadSpinMax; beyond, it spins threadSpin:
// spinning through gaps that long would waste more of its processor than
// the wake costs (spinLimit). The spinning yields the processor
// (runtime.Gosched) every few hundred checks, so other goroutines (an
// objective evaluated in parallel) still run.
const (
	threadSpin    = 100 * time.Microsecond
	threadSpinMax = time.Millisecond
)

// spinLimit returns how long a helper spins for the next call when the
// longest gap before its recent calls had the given length (see
// threadSpin).
func spinLimit(gap time.Duration) time.Duration {
	if s := gap + gap/2; s <= threadSpinMax {
		return max(threadSpin, s)
	}
	return threadSpin
}

// threadYield is the number of spinning checks between two yields.
const threadYield = 256

func checkThreads(cfg *Config, _ *Params) error {
	if cfg.Threads < 0 || cfg.Threads > maxThreads {
		return cfgErr("Threads", "%d: must be in [0, %d]", cfg.Threads, maxThreads)
	}
	return nil
}

// rowThreads splits a generation's linear algebra over goroutines by
// ranges (of rows of the full matrix A, kernel.SplitRows; of the limited
// memory's stored vectors and of its columns, splitRange): the caller's
// goroutine and Threads − 1 goroutines started with the pool take the
// ranges of a job, each with its own kernel work space. Every element is
// the same bits whoever computes it, so a run does not depend on Threads.
//
// Goroutine w owns the w-th block of a call's ranges (blockOf): it takes
// its own first, in order, and then the others' that are still left, so
// that while the goroutines keep pace each computes the same rows of A
// every generation. Those rows' cache lines then stay with the core that
// writes them; a core writing lines another core holds pays for taking
// them over (docs/performance.md, Threads).
//
// The goroutines hold the pool, never the Optimizer: when the Optimizer is
// collected a cleanup closes the pool and they end; Close ends them at
// once.
//
// A call hands work to a helper that is spinning (it finished the last
// call less than its spin ago: spinLimit) by compare-and-swap on its
// state, and to a parked one through its channel; the caller computes
// ranges too, then waits, spinning, for the helpers' count to reach zero.
// One job, the next generation's deviates, is handed to the first helpers
// (one per chunk of the population, one where it is drawn in one fill) and
// waited for later (wait): at once (start), while the caller computes the
// sampling where it does not split, or carried by the helpers of the next
// call once they have computed its ranges (chain), while the caller
// finishes its ranges, places and evaluates the candidates and tells them.
type rowThreads struct {
	helpers []*poolHelper
	once    sync.Once
	running sync.WaitGroup // the helpers' goroutines
	closed  bool           // stop ran (on the optimizer's goroutine, or in the cleanup once the optimizer is unreachable)
	bounds  []int
	finite  []bool       // per range: whether the placement of its rows gave finite candidates
	works   [][]float64  // one per goroutine, the caller's first
	taken   []blockCount // per goroutine: how many ranges of its block are taken
	active  int          // the goroutines the current call's blocks are for
	pending atomic.Int64 // helpers still computing the current call's ranges

	// The call being split, set before the helpers are handed it: its
	// ranges, and the job that computes one.
	used int
	job  rangeJob
	mat  matrixJob // the full matrix's job

	// async: a job handed to the first helpers by start or chain, which
	// the caller does not wait for; wait (and run, unless it carries it,
	// and stop's callers) wait for it. fill is its job: the next
	// generation's deviates. then is the job chain set, for its first
	// thenHelpers helpers, chained while no call has carried it; the
	// first carriers helpers of the current call carry it, and carrying
	// counts those still computing it.
	async       bool
	fill        fillJob
	then        rangeJob
	thenHelpers int
	chained     bool
	carriers    int
	carrying    atomic.Int64
}

// blockCount counts the ranges taken from one goroutine's block, alone in
// its cache line.
type blockCount struct {
	atomic.Int64
	_ [56]byte
}

// A rangeJob computes range i of the pool's bounds with the work space of
// goroutine w.
type rangeJob interface {
	runRange(t *rowThreads, i, w int)
}

// matrixJob is the full matrix's sampling, with the pending update or not
// (kernel.UpdateMulVecsRowsWork, kernel.MulVecsRowsWork), by ranges of
// rows; with place, each range then places its rows of the candidates.
type matrixJob struct {
	y, a, x, p, v []float64
	n, k          int
	alpha, beta   float64
	update        bool
	place         *placement
}

func (j *matrixJob) runRange(t *rowThreads, i, w int) {
	r0, r1 := t.bounds[i], t.bounds[i+1]
	if j.update {
		kernel.UpdateMulVecsRowsWork(j.y, j.a, j.n, j.alpha, j.beta, j.p, j.v, j.x, j.k, r0, r1, t.works[w])
	} else {
		kernel.MulVecsRowsWork(j.y, j.a, j.n, j.x, j.k, r0, r1, t.works[w])
	}
	if j.place != nil {
		t.finite[i] = j.place.rows(j.y, j.n, j.k, r0, r1)
	}
}

// placement is the placement of the candidates x_i = m + σ·(s·y_i), with
// y_i ← s·y_i (population.place), that a split sampling computes range by
// range, each range's rows while they are in its core's cache: the bits
// of the whole placement, element by element.
type placement struct {
	x, m     []float64
	sigma, s float64
}

// rows places the rows r0 … r1−1 of the k candidates of n from the steps
// y and reports whether they are finite.
func (pl *placement) rows(y []float64, n, k, r0, r1 int) bool {
	finite := true
	for j := range k {
		lo, hi := j*n+r0, j*n+r1
		if !kernel.ScaleAxpyRows(pl.x[lo:hi], pl.sigma, y[lo:hi], pl.s, pl.m[r0:r1], 1) {
			finite = false
		}
	}
	return finite
}

// fillJob draws a population's deviates z from a copy of the generator
// (fillPopulation), src then the generator where the draw leaves it: the
// deviates of the next generation, drawn while the caller evaluates this
// one. A population of more than normalChunk deviates is drawn in chunks,
// whose seeds setFill draws from src at once: the helpers the job is
// handed to (up to one per chunk) take the chunks one at a time, and so
// does the caller once it needs the deviates (takeDeviates), so that a
// helper slower than the caller (a core shared with another thread) does
// not hold it up.
type fillJob struct {
	src   xoshiro
	z     []float64
	seeds []uint64     // the chunks' seeds (none: one fill from src)
	next  atomic.Int64 // chunks taken
}

func (j *fillJob) runRange(*rowThreads, int, int) {
	if len(j.seeds) == 0 {
		fillNormal(&j.src, j.z)
		return
	}
	j.drawChunks()
}

// drawChunks draws chunks until none is left to take.
func (j *fillJob) drawChunks() {
	for {
		c := int(j.next.Add(1) - 1)
		if c >= len(j.seeds) {
			return
		}
		fillChunk(j.seeds[c], j.z, c)
	}
}

// setFill sets the job to draw the population z from the generator src:
// its chunks' seeds drawn into seeds' space (normalChunks(len(z)) of them;
// seeds has the room: sizeSpare).
func (j *fillJob) setFill(src *xoshiro, z []float64, seeds []uint64) {
	j.src, j.z, j.seeds = *src, z, seeds[:normalChunks(len(z))]
	for c := range j.seeds {
		j.seeds[c] = j.src.Uint64()
	}
	j.next.Store(0)
}

// helpers returns how many of the pool's goroutines the job is handed to:
// one per chunk (the caller takes those left when it needs them), one
// for a population drawn in one fill from src.
func (j *fillJob) helpers() int { return max(1, len(j.seeds)) }

// clearFill forgets the job's population.
func (j *fillJob) clearFill() { j.z, j.seeds = nil, nil }

// poolHelper is one goroutine of a rowThreads.
type poolHelper struct {
	wake  chan struct{} // hands a call to the parked goroutine; closed by stop
	state atomic.Int32  // helperParked, helperSpinning or helperClaimed

	// idle is when it finished its last call (poolClock); spinFor how
	// long it spins for the next one (noteGap: the longest of the gaps
	// before its last calls, kept in gaps, as a generation hands out
	// several calls with one long gap, the evaluation, among short ones).
	idle, spinFor atomic.Int64
	gaps          [helperGaps]time.Duration // the caller's: handTo runs on it
	nextGap       int
}

// noteGap records the gap before a call and returns how long the helper
// spins after it: spinLimit of the longest of the last helperGaps gaps.
func (h *poolHelper) noteGap(gap time.Duration) time.Duration {
	h.gaps[h.nextGap] = gap
	h.nextGap = (h.nextGap + 1) % helperGaps
	return spinLimit(slices.Max(h.gaps[:]))
}

// helperGaps is the number of gaps a helper's spin is sized by: the
// calls of a generation (the limited memory's two passes, y_w, the
// deviates drawn ahead, a scan of the row norms).
const helperGaps = 6

// poolClock returns the monotonic time in nanoseconds since the package
// started, for the helpers' gaps.
func poolClock() int64 { return int64(time.Since(poolEpoch)) }

var poolEpoch = time.Now()

// handTo hands the call set up by handOut to helper h: by compare-and-swap
// while it spins, through its channel once it parked; and sets how long it
// spins after this call from the gap it waited for it.
func (h *poolHelper) handTo() {
	h.spinFor.Store(int64(h.noteGap(time.Duration(poolClock() - h.idle.Load()))))
	if !h.state.CompareAndSwap(helperSpinning, helperClaimed) {
		h.wake <- struct{}{} // parked: its channel is empty
	}
}

const (
	helperParked   = iota // blocked on wake (or about to be)
	helperSpinning        // waiting for a call by spinning
	helperClaimed         // handed a call while spinning
)

// newRowThreads starts threads − 1 goroutines (threads ≥ 2).
func newRowThreads(threads int) *rowThreads {
	t := &rowThreads{
		helpers: make([]*poolHelper, threads-1),
		bounds:  make([]int, threads*threadRangesPer+1),
		finite:  make([]bool, threads*threadRangesPer),
		works:   make([][]float64, threads),
		taken:   make([]blockCount, threads),
	}
	for i := range t.helpers {
		h := &poolHelper{wake: make(chan struct{}, 1)}
		t.helpers[i] = h
		t.running.Add(1)
		go t.serve(h, i+1)
	}
	return t
}

// serve is helper h's goroutine, with work space w: it computes the calls
// handed to it (their ranges, then the job a call carries if it is one of
// its carriers), spinning between them for up to threadSpin, parked after.
func (t *rowThreads) serve(h *poolHelper, w int) {
	defer t.running.Done()
	for range h.wake {
		for {
			t.drain(w)
			if w <= t.carriers {
				// The caller may go on once the ranges are done, but
				// hands out nothing before the carried job is.
				t.pending.Add(-1)
				t.then.runRange(t, w-1, w)
				h.idle.Store(poolClock())
				h.state.Store(helperSpinning)
				t.carrying.Add(-1)
			} else {
				h.idle.Store(poolClock())
				h.state.Store(helperSpinning)
				t.pending.Add(-1)
			}
			if !h.spin() && h.state.CompareAndSwap(helperSpinning, helperParked) {
				break
			}
			// Claimed: the next call's fields are set.
		}
	}
}

// spin waits up to its spinFor (at least threadSpin) for the helper to be
// claimed and reports whether it was.
func (h *poolHelper) spin() bool {
	deadline := time.Now().Add(max(threadSpin, time.Duration(h.spinFor.Load())))
	for i := 1; ; i++ {
		if h.state.Load() == helperClaimed {
			return true
		}
		if i%threadYield == 0 {
			if time.Now().After(deadline) {
				return false
			}
			runtime.Gosched()
		}
	}
}

// drain computes ranges until none is left, as goroutine w (with its work
// space): those of its own block, then those left of the others'.
func (t *rowThreads) drain(w int) {
	for b := range t.active {
		owner := (w + b) % t.active
		lo, hi := t.blockOf(owner)
		for {
			i := lo + int(t.taken[owner].Add(1)-1)
			if i >= hi {
				break
			}
			t.job.runRange(t, i, w)
		}
	}
}

// blockOf returns the ranges lo … hi−1 that goroutine w owns in the
// current call: the used ranges in t.active blocks, in order, the first
// goroutine's first (a block may be empty).
func (t *rowThreads) blockOf(w int) (lo, hi int) {
	return w * t.used / t.active, (w + 1) * t.used / t.active
}

// handOut starts a call of used ranges for the caller and the first
// helpers goroutines of the pool (the blocks are theirs, none taken), with
// no job to carry.
func (t *rowThreads) handOut(job rangeJob, used, helpers int) {
	t.used, t.job, t.active, t.carriers = used, job, helpers+1, 0
	for i := range t.taken[:t.active] {
		t.taken[i].Store(0)
	}
	t.pending.Store(int64(helpers))
}

// size gives each goroutine the kernel work space of an n×n A and k
// vectors.
func (t *rowThreads) size(n, k int) {
	w := kernel.WorkLen(n, k)
	for i := range t.works {
		if len(t.works[i]) < w {
			t.works[i] = make([]float64, w)
		}
	}
}

// stop ends the goroutines; the pool then computes nothing (sample
// reports false). The goroutines end soon after (a spinning one within
// threadSpin); close waits for them.
func (t *rowThreads) stop() {
	t.closed = true
	t.once.Do(func() {
		for _, h := range t.helpers {
			close(h.wake)
		}
	})
}

// close stops the goroutines and waits for them to end, so that their
// work space is garbage when it returns.
func (t *rowThreads) close() {
	t.stop()
	t.running.Wait()
}

// sample computes kernel.UpdateMulVecsWork (update) or MulVecsWork over
// the ranges, and with pl the placement, and reports true and whether the
// placed candidates are finite (true without pl); false, computing
// nothing, when A is too small to split or the pool is stopped.
func (t *rowThreads) sample(update bool, y, a []float64, n int, alpha, beta float64, p, v, x []float64, k int, pl *placement) (split, finite bool) {
	if t == nil || t.closed || n < threadMinN {
		return false, false
	}
	used := kernel.SplitRows(t.bounds, n, t.rowParts(n), threadMinRows)
	if used < 2 {
		return false, false
	}
	t.mat = matrixJob{y: y, a: a, x: x, p: p, v: v, n: n, k: k, alpha: alpha, beta: beta, update: update, place: pl}
	t.run(&t.mat, used)
	t.mat = matrixJob{}
	finite = true
	if pl != nil {
		for _, f := range t.finite[:used] {
			finite = finite && f
		}
	}
	return true, finite
}

// split sets the pool's bounds to ranges of 0 … total−1 for a job
// (splitRange) and returns their number, or 0 when the pool is nil or
// stopped.
func (t *rowThreads) split(total, align, minLen int) int {
	if t == nil || t.closed {
		return 0
	}
	return splitRange(t.bounds, total, len(t.bounds)-1, align, minLen)
}

// splitRange divides 0 … total−1 into at most parts ranges, range i being
// bounds[i] … bounds[i+1]−1 for i below the count it returns, each at
// least minLen long (but the only one) and its boundaries multiples of
// align.
func splitRange(bounds []int, total, parts, align, minLen int) int {
	parts = max(1, min(parts, total/max(minLen, align, 1)))
	bounds[0] = 0
	used := 1
	for i := 1; i < parts; i++ {
		b := i * (total / parts) / align * align
		if b <= bounds[used-1] || total-b < minLen {
			continue
		}
		bounds[used] = b
		used++
	}
	bounds[used] = total
	return used
}

// start hands job to as many of the pool's helpers as helpers says (at
// least one, at most all), one range each, and returns at once; wait
// returns when they are done. With more than one, job must give the same result
// however many of its ranges run, and at once: the fill's chunks, which
// every range takes from one counter (fillJob.drawChunks). It reports
// false, starting nothing, when the pool is stopped.
func (t *rowThreads) start(job rangeJob, helpers int) bool {
	if t == nil || t.closed {
		return false
	}
	t.wait()
	h := t.helpersFor(helpers)
	t.handOut(job, h, h) // the caller's block is empty: helper w's is range w−1
	t.async = true
	for _, hp := range t.helpers[:h] {
		hp.handTo()
	}
	return true
}

// helpersFor returns how many of the pool's helpers a job for the given
// number (at least one) takes: at most all.
func (t *rowThreads) helpersFor(helpers int) int {
	return min(max(helpers, 1), len(t.helpers))
}

// chain sets job to be carried by the next call's first helpers (as many
// as helpers says, at least one, at most all) once they have computed its
// ranges (run), and returns at once; wait returns when it is done, and
// computes it on the caller's goroutine if no call carried it. job is as
// start's. It reports false, setting nothing, when the pool is stopped.
func (t *rowThreads) chain(job rangeJob, helpers int) bool {
	if t == nil || t.closed {
		return false
	}
	t.wait()
	t.then, t.thenHelpers, t.chained, t.async = job, t.helpersFor(helpers), true, true
	return true
}

// unchain forgets the job chain set while no call has carried it yet and
// reports whether it did.
func (t *rowThreads) unchain() bool {
	if !t.chained {
		return false
	}
	t.then, t.chained, t.async = nil, false, false
	return true
}

// drawing reports whether the job start or chain handed out is still
// running (or waits for a call to carry it).
func (t *rowThreads) drawing() bool {
	return t != nil && t.async && (t.chained || t.pending.Load() != 0 || t.carrying.Load() != 0)
}

// wait returns when the job start or chain handed out is done (at once
// without one); it computes a chained job that no call carried on the
// caller's goroutine.
func (t *rowThreads) wait() {
	if !t.async {
		return
	}
	if t.chained {
		t.then.runRange(t, 0, 0)
		t.unchain()
		return
	}
	for i := 1; t.pending.Load() != 0 || t.carrying.Load() != 0; i++ {
		if i%threadYield == 0 {
			runtime.Gosched()
		}
	}
	t.job, t.then, t.async = nil, nil, false
}

// run computes the used ranges of the pool's bounds with job, on the
// caller's goroutine and as many helpers as there are other ranges (at
// least as many as a chained job asks for), and returns when all are done
// (after the job start handed out, or the one a call carried). The job
// chain set, if any, goes to the first helpers with the call: they compute
// it once the ranges are done, and run does not wait for it.
func (t *rowThreads) run(job rangeJob, used int) {
	chained := t.chained
	if !chained {
		t.wait()
	}
	helpers := min(len(t.helpers), used-1)
	carriers := 0
	if chained {
		carriers = t.thenHelpers
		helpers = max(helpers, carriers)
	}
	t.handOut(job, used, helpers)
	if chained {
		t.carriers, t.chained = carriers, false
		t.carrying.Store(int64(carriers))
	}
	for _, h := range t.helpers[:helpers] {
		h.handTo()
	}
	t.drain(0)
	for i := 1; t.pending.Load() != 0; i++ {
		if i%threadYield == 0 {
			runtime.Gosched()
		}
	}
	t.job = nil
}

// threadedSampler is a distribution whose sampling can use a rowThreads;
// setThreads hands it the pool (nil: none) for a population of λ;
// drawsAhead reports whether its sampling of a population of λ splits (in
// a run's steady state), so that the pool draws the next generation's
// deviates (Optimizer.drawAhead) and the optimizer holds their buffer;
// samplingSplits whether the current generation's sampling splits, and
// splitsInOneCall whether it then splits in one call of the pool (run),
// which decide when the pool draws them (Optimizer.drawAheadEarly).
type threadedSampler interface {
	setThreads(t *rowThreads, lambda int)
	drawsAhead(lambda int) bool
	samplingSplits(lambda int) bool
	splitsInOneCall() bool
}

// startThreads gives the optimizer the pool Config.Threads asks for
// (stopping one it had), hands it to the distribution, and arranges for
// the pool to stop when the optimizer is collected.
func (o *Optimizer) startThreads() {
	o.releaseThreads()
	if o.cfg.Threads >= 2 {
		if _, ok := o.dist.(threadedSampler); ok {
			o.threads = newRowThreads(o.cfg.Threads)
			o.threadsCleanup = runtime.AddCleanup(o, (*rowThreads).stop, o.threads)
		}
	}
	o.attachThreads()
}

// attachThreads hands the optimizer's pool (nil: none) to the
// distribution, sized for its λ.
func (o *Optimizer) attachThreads() {
	if ts, ok := o.dist.(threadedSampler); ok {
		ts.setThreads(o.threads, o.par.Lambda)
	}
	o.sizeSpare()
}

// sizeSpare gives the deviates drawAhead draws a buffer of the capacity of
// the population's z, when it will draw them (New allocates it, a restart
// to a larger λ in its first generation, as the population's).
func (o *Optimizer) sizeSpare() {
	t, p := o.threads, &o.pop
	if t == nil || len(t.helpers) == 0 || !o.drawsAhead() {
		return
	}
	if cap(o.spareZ) != cap(p.z) {
		o.spareZ = make([]float64, cap(p.z))
	}
	if c := normalChunks(cap(p.z)); cap(o.fillSeeds) < c {
		o.fillSeeds = make([]uint64, c)
	}
}

// Close ends the goroutines that Config.Threads started and returns when
// they have ended, their work space then garbage. The optimizer stays
// usable and computes its generations on the calling goroutine alone, the
// same bits; a Reconfigure that changes Threads starts a new pool. An
// optimizer that is not closed ends its goroutines when it is collected.
// Close is idempotent; it must not run concurrently with Ask, Tell or
// Optimize. It returns nil (an error is reserved for optimizers that hold
// more than goroutines).
func (o *Optimizer) Close() error {
	o.releaseThreads()
	o.attachThreads()
	return nil
}

// releaseThreads ends the optimizer's pool, if it has one, waits for its
// goroutines and drops it: its work space and the buffer of the deviates
// drawn ahead are garbage when it returns.
func (o *Optimizer) releaseThreads() {
	o.dropDeviates()
	o.spareZ, o.fillSeeds = nil, nil
	if o.threads != nil {
		o.threads.close()
		o.threadsCleanup.Stop()
		o.threads = nil
	}
}

// drawsAhead reports whether the pool draws the deviates of the next
// generation (drawAhead): where the distribution's sampling splits.
func (o *Optimizer) drawsAhead() bool {
	ts, ok := o.dist.(threadedSampler)
	return ok && ts.drawsAhead(o.pop.lambda)
}

// drawAhead hands the pool the deviates of the next generation, drawn from
// a copy of the generator into the spare buffer while the caller evaluates
// this one and tells it, where the sampling splits: they are the
// deviates sample would draw next (nothing else draws from the generator
// before it but a restart, which drops them), and sample takes them
// instead of drawing (takeDeviates). The spare buffer has the capacity of
// the population's z, with which it is swapped.
func (o *Optimizer) drawAhead() { o.handDeviates(false) }

// handDeviates is drawAhead, with chain the deviates carried by the helpers
// of the pool's next call once they have computed its ranges
// (rowThreads.chain) instead of handed out at once.
func (o *Optimizer) handDeviates(chain bool) {
	o.sizeSpare()
	if o.threads == nil || cap(o.spareZ) == 0 {
		return
	}
	t := o.threads
	t.fill.setFill(o.src, o.spareZ[:len(o.pop.z)], o.fillSeeds)
	if chain {
		o.ahead = t.chain(&t.fill, t.fill.helpers())
		return
	}
	o.ahead = t.start(&t.fill, t.fill.helpers())
}

// drawAheadEarly hands the pool the next generation's deviates (drawAhead)
// as soon as this generation's are drawn. Where this generation's sampling
// does not split, at once: the pool is idle while the caller computes it,
// and the deviates are drawn meanwhile instead of while the caller
// evaluates and tells alone (at n = 10⁴ the draw takes as long as the
// evaluation and the tell together, and the pool parks between). Where it
// splits in one call of the pool (the full matrix), carried by that call
// (handDeviates): the helpers draw as soon as their share of the sampling
// is done, while the caller finishes its share, places the candidates,
// evaluates and tells them, instead of from when the caller has placed
// them. Where it splits in several calls, Ask hands them out after it
// (the pool would otherwise draw before it takes its share of the
// sampling's later calls).
func (o *Optimizer) drawAheadEarly() {
	if o.drawsDuringSampling() {
		o.handDeviates(o.dist.(threadedSampler).samplingSplits(o.pop.lambda))
	}
}

// drawsDuringSampling reports whether the optimizer has a pool and this
// generation's sampling does not split or splits in one call: whether
// drawAheadEarly hands the next deviates out.
func (o *Optimizer) drawsDuringSampling() bool {
	if o.threads == nil {
		return false
	}
	ts, ok := o.dist.(threadedSampler)
	return ok && (!ts.samplingSplits(o.pop.lambda) || ts.splitsInOneCall())
}

// takeDeviates makes the deviates drawAhead drew the population's z, and
// the generator the one they leave, and reports whether there were any.
func (o *Optimizer) takeDeviates() bool {
	if !o.ahead {
		return false
	}
	t, p := o.threads, &o.pop
	if len(t.fill.z) == len(p.z) {
		t.fill.drawChunks() // the chunks the pool has not taken yet
	}
	t.wait()
	o.ahead = false
	if len(t.fill.z) != len(p.z) || cap(o.spareZ) != cap(p.z) {
		return false
	}
	*o.src = t.fill.src
	z := p.z
	p.z, o.spareZ = o.spareZ[:len(z)], z[:cap(z)]
	p.sel.z = p.z
	t.fill.clearFill()
	return true
}

// dropDeviates waits for the deviates drawAhead handed out and forgets
// them: the generator is about to draw something else first.
func (o *Optimizer) dropDeviates() {
	if o.ahead {
		t := &o.threads.fill
		if !o.threads.unchain() { // handed out: let it end
			t.next.Store(int64(len(t.seeds))) // no chunk left to take
			o.threads.wait()
		}
		t.clearFill()
		o.ahead = false
	}
}
