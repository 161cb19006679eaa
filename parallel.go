package mmaes

import (
	"sync"
	"sync/atomic"
)

// Parallel evaluation (Config.Workers).
//
// With Workers = w ≥ 2, Optimize starts w − 1 goroutines once, when it is
// called, and stops them (and waits for them) before it returns. Each
// generation, Optimize's own goroutine and those w − 1 take the candidates'
// indices from one atomic counter and write f(x_i) to slot i of a
// preallocated buffer; Optimize waits for all of them, then calls Tell. The
// fitness values land in the same slots whatever goroutine computed them,
// so the run is bit for bit the sequential run with the same Config (for a
// deterministic f). Waking the workers is a send on a buffered channel and
// waiting is a sync.WaitGroup, so a generation allocates nothing.
//
// The objective is called concurrently and must be safe for concurrent use.
// Before each evaluation a goroutine checks ctx; once it is cancelled, no
// further evaluation starts, Optimize waits for those running and returns
// Canceled with the generation pending (a later call evaluates it again). A
// panic in the objective is recovered on the worker and re-raised on
// Optimize's goroutine after the pool has stopped.

// evalPool evaluates one generation at a time on a fixed set of goroutines.
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
	panicked bool
	panicVal any
	exited   sync.WaitGroup
}

// newEvalPool starts workers goroutines (≥ 1) evaluating f.
func newEvalPool(f func([]float64) float64, done <-chan struct{}, workers int) *evalPool {
	p := &evalPool{f: f, done: done, workers: workers, start: make(chan struct{}, workers)}
	p.exited.Add(workers)
	for range workers {
		go p.loop(p.start)
	}
	return p
}

// loop serves one worker until start is closed. The channel is an argument:
// stop clears the field, possibly before the goroutine first runs.
func (p *evalPool) loop(start <-chan struct{}) {
	defer p.exited.Done()
	for range start {
		p.work()
		p.wg.Done()
	}
}

// work evaluates candidates until none is left, ctx is cancelled, or f
// panics (the first panic is kept for eval to re-raise).
func (p *evalPool) work() {
	defer func() {
		if r := recover(); r != nil {
			p.mu.Lock()
			if !p.panicked {
				p.panicked, p.panicVal = true, r
			}
			p.mu.Unlock()
			p.canceled.Store(true) // stop the others early
		}
	}()
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

// eval sets out[i] = f(xs[i]) for every i, on the workers and the calling
// goroutine, and reports false if ctx was cancelled first (out is then
// partly written). A panic of f is re-raised here, after the pool stopped.
func (p *evalPool) eval(xs [][]float64, out []float64) bool {
	p.xs, p.out = xs, out
	p.next.Store(0)
	p.canceled.Store(false)
	p.wg.Add(p.workers)
	for range p.workers {
		p.start <- struct{}{}
	}
	p.work()
	p.wg.Wait()
	p.xs, p.out = nil, nil
	if p.panicked {
		p.stop()
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

// poolSize is the number of extra goroutines Optimize starts: Workers − 1,
// at most the largest population less one.
func (o *Optimizer) poolSize() int {
	w := o.cfg.Workers
	if w <= 1 {
		return 0
	}
	return min(w-1, maxLambda(&o.cfg, o.run.lambda0)-1)
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
