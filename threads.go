package mmaes

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/mmaes-go/mmaes/kernel"
)

// maxThreads bounds Config.Threads.
const maxThreads = 1024

// threadMinN is the smallest n whose generations are split: below it
// handing work to another goroutine (waking it takes microseconds) costs
// more than it saves (docs/performance.md, Threads).
const threadMinN = 512

// threadRangesPer is the number of ranges of rows per goroutine: the
// goroutines take them in turn from a counter, so that one that starts
// late (being woken) or runs slower (sharing its core) takes fewer.
const threadRangesPer = 4

// threadMinRows is the fewest rows of A in a range.
const threadMinRows = 64

func checkThreads(cfg *Config, _ *Params) error {
	if cfg.Threads < 0 || cfg.Threads > maxThreads {
		return cfgErr("Threads", "%d: must be in [0, %d]", cfg.Threads, maxThreads)
	}
	return nil
}

// rowThreads splits the full matrix's sampling and fused update over
// goroutines by ranges of rows of A (kernel.SplitRows): the caller's
// goroutine and Threads − 1 goroutines started with the pool take the
// ranges in turn, each with its own kernel work space. Every row is the
// same bits whoever computes it, so a run does not depend on Threads. The
// goroutines hold the pool, never the Optimizer: when the Optimizer is
// collected a cleanup closes the pool and they end; Close ends them at
// once.
type rowThreads struct {
	jobs   chan int // wakes a goroutine: the index of its work space
	wg     sync.WaitGroup
	once   sync.Once
	closed bool // Close ran (read and written by the optimizer's goroutine)
	bounds []int
	works  [][]float64 // one per goroutine, the caller's first
	next   atomic.Int64

	// The call being split, set before the goroutines are woken.
	used          int // ranges
	y, a, x, p, v []float64
	n, k          int
	alpha, beta   float64
	update        bool
}

// newRowThreads starts threads − 1 goroutines (threads ≥ 2).
func newRowThreads(threads int) *rowThreads {
	t := &rowThreads{
		jobs:   make(chan int, threads),
		bounds: make([]int, threads*threadRangesPer+1),
		works:  make([][]float64, threads),
	}
	for range threads - 1 {
		go t.serve()
	}
	return t
}

func (t *rowThreads) serve() {
	for w := range t.jobs {
		t.drain(w)
		t.wg.Done()
	}
}

// drain computes ranges until none is left, with work space w.
func (t *rowThreads) drain(w int) {
	for {
		i := int(t.next.Add(1) - 1)
		if i >= t.used {
			return
		}
		t.runRange(i, w)
	}
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
// reports false).
func (t *rowThreads) stop() {
	t.closed = true
	t.once.Do(func() { close(t.jobs) })
}

// sample computes kernel.UpdateMulVecsWork (update) or MulVecsWork over
// the ranges and reports true; false, computing nothing, when A is too
// small to split or the pool is stopped.
func (t *rowThreads) sample(update bool, y, a []float64, n int, alpha, beta float64, p, v, x []float64, k int) bool {
	if t == nil || t.closed || n < threadMinN {
		return false
	}
	used := kernel.SplitRows(t.bounds, n, len(t.bounds)-1, threadMinRows)
	if used < 2 {
		return false
	}
	t.used = used
	t.y, t.a, t.x, t.p, t.v = y, a, x, p, v
	t.n, t.k, t.alpha, t.beta, t.update = n, k, alpha, beta, update
	t.next.Store(0)
	helpers := min(len(t.works), used) - 1
	t.wg.Add(helpers)
	for w := 1; w <= helpers; w++ {
		t.jobs <- w
	}
	t.drain(0)
	t.wg.Wait()
	t.y, t.a, t.x, t.p, t.v = nil, nil, nil, nil, nil
	return true
}

func (t *rowThreads) runRange(i, w int) {
	r0, r1 := t.bounds[i], t.bounds[i+1]
	if t.update {
		kernel.UpdateMulVecsRowsWork(t.y, t.a, t.n, t.alpha, t.beta, t.p, t.v, t.x, t.k, r0, r1, t.works[w])
		return
	}
	kernel.MulVecsRowsWork(t.y, t.a, t.n, t.x, t.k, r0, r1, t.works[w])
}

// threadedSampler is a distribution whose sampling can use a rowThreads.
type threadedSampler interface {
	setThreads(t *rowThreads)
}

// startThreads gives the optimizer the pool Config.Threads asks for
// (stopping one it had), hands it to the distribution, and arranges for
// the pool to stop when the optimizer is collected.
func (o *Optimizer) startThreads() {
	if o.threads != nil {
		o.threads.stop()
		o.threads = nil
	}
	if o.cfg.Threads >= 2 {
		if _, ok := o.dist.(threadedSampler); ok {
			o.threads = newRowThreads(o.cfg.Threads)
			runtime.AddCleanup(o, (*rowThreads).stop, o.threads)
		}
	}
	o.attachThreads()
}

// attachThreads hands the optimizer's pool (nil: none) to the
// distribution, sized for its λ.
func (o *Optimizer) attachThreads() {
	if ts, ok := o.dist.(threadedSampler); ok {
		if o.threads != nil {
			o.threads.size(o.cfg.Dim, o.par.Lambda)
		}
		ts.setThreads(o.threads)
	}
}

// Close ends the goroutines that Config.Threads started; the optimizer
// stays usable and computes its generations on the calling goroutine
// alone, the same bits. An optimizer that is not closed ends them when it
// is collected. Close is idempotent; it must not run concurrently with
// Ask, Tell or Optimize. It returns nil (an error is reserved for
// optimizers that hold more than goroutines).
func (o *Optimizer) Close() error {
	if o.threads != nil {
		o.threads.stop()
	}
	return nil
}
