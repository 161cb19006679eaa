package mmaes

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Parallel evaluation (Config.Workers).
//
// With Workers = w ≥ 2, Optimize starts min(w, λ) − 1 goroutines when it is
// called (more when a restart grows λ, never more than candidates), and
// stops them (and waits for them) before it returns. Each generation,
// Optimize's own goroutine and the others take the candidates' indices
// from one atomic counter and write f(x_i) to slot i of a preallocated
// buffer; Optimize waits for all of them, then calls Tell. The fitness
// values land in the same slots whatever goroutine computed them, so the
// run is bit for bit the sequential run with the same Config (for a
// deterministic f). Waking the workers is a send on a buffered channel and
// waiting is a sync.WaitGroup, so a generation allocates nothing.
//
// The objective is called concurrently and must be safe for concurrent use.
// Before each evaluation a goroutine checks ctx; once it is cancelled, no
// further evaluation starts, Optimize waits for those running and returns
// Canceled with the generation pending (a later call evaluates it again). A
// panic in the objective is recovered on the worker and re-raised on
// Optimize's goroutine after the pool has stopped; a runtime.Goexit on a
// worker (what testing.T.FailNow does) stops the pool likewise and calls
// runtime.Goexit on Optimize's goroutine, as if the objective had run there.

// evalPool evaluates one generation at a time on a set of goroutines.
type evalPool struct {
	f    func([]float64) float64
	done <-chan struct{} // the context's, or nil

	// Set before the workers are woken, read-only while they run.
	xs  [][]float64
	out []float64

	next     atomic.Int64 // the next candidate index to take
	canceled atomic.Bool
	start    chan struct{} // one token per worker per generation; closed to stop
	wg       sync.WaitGroup
	workers  int // goroutines besides the caller

	mu       sync.Mutex
	panicked bool // the objective panicked (panicVal) or called Goexit
	goexit   bool
	panicVal any
	exited   sync.WaitGroup
}

// newEvalPool starts workers goroutines (≥ 1) evaluating f; the pool can
// grow to capacity goroutines.
func newEvalPool(f func([]float64) float64, done <-chan struct{}, workers, capacity int) *evalPool {
	p := &evalPool{f: f, done: done, start: make(chan struct{}, max(workers, capacity))}
	p.grow(workers)
	return p
}

// grow starts goroutines until there are workers of them (at most the
// capacity of the start channel).
func (p *evalPool) grow(workers int) {
	workers = min(workers, cap(p.start))
	for ; p.workers < workers; p.workers++ {
		p.exited.Add(1)
		go p.loop(p.start)
	}
}

// loop serves one worker until start is closed or the objective ends the
// goroutine. The channel is an argument: stop clears the field, possibly
// before the goroutine first runs.
func (p *evalPool) loop(start <-chan struct{}) {
	defer p.exited.Done()
	for range start {
		if !p.serve() {
			return // runtime.Goexit: the goroutine is ending
		}
	}
}

// serve evaluates candidates for one generation and reports whether the
// objective returned normally; a panic or a runtime.Goexit in it is
// recorded for eval to re-raise, and the generation is still marked done.
func (p *evalPool) serve() (ok bool) {
	defer func() {
		if !ok {
			r := recover() // nil for runtime.Goexit
			p.mu.Lock()
			if !p.panicked {
				p.panicked, p.panicVal, p.goexit = true, r, r == nil
			}
			p.mu.Unlock()
			p.canceled.Store(true) // stop the others early
		}
		p.wg.Done()
	}()
	p.work()
	return true
}

// work evaluates candidates until none is left or ctx is cancelled.
func (p *evalPool) work() {
	n := int64(len(p.xs))
	for {
		if p.canceled.Load() {
			return
		}
		if p.done != nil {
			select {
			case <-p.done:
				p.canceled.Store(true)
				return
			default:
			}
		}
		i := p.next.Add(1) - 1
		if i >= n {
			return
		}
		p.out[i] = p.f(p.xs[i])
	}
}

// capacity is the most goroutines the pool can grow to.
func (p *evalPool) capacity() int { return cap(p.start) }

// eval sets out[i] = f(xs[i]) for every i, on workers of the pool's
// goroutines (at most those started) and the calling goroutine, and
// reports false if ctx was cancelled first (out is then partly written). A panic of f, or its runtime.Goexit, on a worker is
// re-raised here after the pool stopped; on the calling goroutine it
// unwinds through eval, and the caller's deferred stop ends the workers.
func (p *evalPool) eval(xs [][]float64, out []float64, workers int) bool {
	workers = min(workers, p.workers)
	p.xs, p.out = xs, out
	p.next.Store(0)
	p.canceled.Store(false)
	p.wg.Add(workers)
	for range workers {
		p.start <- struct{}{}
	}
	p.wg.Add(1)
	p.serve()
	p.wg.Wait()
	p.xs, p.out = nil, nil
	if p.panicked {
		p.stop()
		if p.goexit {
			runtime.Goexit()
		}
		panic(p.panicVal)
	}
	return !p.canceled.Load()
}

// stop ends the workers and waits for them; it may be called more than
// once.
func (p *evalPool) stop() {
	if p.start != nil {
		close(p.start)
		p.start = nil
		p.exited.Wait()
	}
}

// poolSize is the number of extra goroutines Optimize runs for the current
// generation: min(Workers, λ) − 1.
func (o *Optimizer) poolSize() int {
	return max(0, min(o.cfg.Workers, o.pop.lambda)-1)
}

// maxWorkers bounds Config.Workers.
const maxWorkers = 1 << 16

// checkWorkers validates Workers.
func checkWorkers(cfg *Config, _ *Params) error {
	if cfg.Workers < 0 || cfg.Workers > maxWorkers {
		return cfgErr("Workers", "%d: must be in [0, %d]", cfg.Workers, maxWorkers)
	}
	return nil
}
