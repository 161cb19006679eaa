package jetstream

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	natsjs "github.com/nats-io/nats.go/jetstream"
)

// WorkerConfig configures a Worker.
type WorkerConfig struct {
	// RunID and Prefix are the coordinator's (CoordinatorConfig).
	RunID  string
	Prefix string
	// Objective evaluates a candidate. It is called on the goroutine of
	// Run, one task at a time; x is valid during the call only. Its value
	// goes back as it is: NaN means infeasible, as for mmaes.Optimizer.Tell.
	// A panic in Objective does not stop the worker: the candidate is
	// answered with NaN (infeasible), so that the task is not delivered
	// again to worker after worker; it is counted in
	// WorkerStats.Panicked and passed to OnPanic. An objective that ends
	// its goroutine (runtime.Goexit) ends Run's goroutine likewise; its
	// task is delivered again after AckWait.
	Objective func(x []float64) float64
	// OnPanic, when not nil, is called after Objective panicked, on the
	// same goroutine, with the candidate (valid during the call only), the
	// value the objective panicked with and the stack of the panic
	// (runtime/debug.Stack), for the service's log.
	OnPanic func(x []float64, value any, stack []byte)
	// Prefetch has the worker fetch its next task while it evaluates one,
	// which saves a round trip to the server per task; but the fetched task
	// waits for the evaluation in progress even when another worker is
	// idle, so that a generation may take one evaluation longer. It pays
	// when evaluations take about equally long and λ is a multiple of the
	// number of workers. A worker that stops hands the task it fetched
	// ahead back at once; that delivery counts towards the coordinator's
	// MaxDeliver like any other.
	Prefetch bool
}

// WorkerStats counts what a worker did.
type WorkerStats struct {
	Evaluated   int // tasks evaluated and answered
	Redelivered int // of those, tasks delivered more than once
	Malformed   int // task messages that were not tasks of this version and run, or whose check is not their candidate's (terminated)
	Panicked    int // evaluations whose objective panicked (answered with NaN)
}

// A Worker pulls the tasks of one run from the task stream, one at a time,
// evaluates them and publishes the results. It acknowledges a task only
// after its result is stored in the result stream, and while the
// objective runs it tells the server the task is in progress (every third
// of the consumer's AckWait), so that a task is delivered again only when
// its worker died or lost its connection.
type Worker struct {
	cfg   WorkerConfig
	names names
	js    natsjs.JetStream

	mu      sync.Mutex
	stats   WorkerStats
	pending sync.WaitGroup // results being published
}

// NewWorker returns a worker of the run. It does not contact the server:
// Run waits for the coordinator to create the run's streams.
func NewWorker(nc *nats.Conn, cfg WorkerConfig) (*Worker, error) {
	n, err := newNames(cfg.Prefix, cfg.RunID)
	if err != nil {
		return nil, err
	}
	if cfg.Objective == nil {
		return nil, errors.New("jetstream: WorkerConfig.Objective is nil")
	}
	js, err := natsjs.New(nc, natsjs.WithPublishAsyncTimeout(5*time.Second))
	if err != nil {
		return nil, fmt.Errorf("jetstream: %w", err)
	}
	return &Worker{cfg: cfg, names: n, js: js}, nil
}

// Stats returns the counts so far; it may be called while Run runs.
func (w *Worker) Stats() WorkerStats {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.stats
}

// Run evaluates tasks until ctx ends, and returns ctx's error. Errors of
// the server (a restart, a consumer not yet created) are waited out.
func (w *Worker) Run(ctx context.Context) error {
	var cons natsjs.Consumer
	err := retry(ctx, func(ctx context.Context) error {
		var err error
		cons, err = w.js.Consumer(ctx, w.names.taskStream(), w.names.workConsumer())
		return err
	})
	if err != nil {
		return err
	}
	info := cons.CachedInfo()
	ackWait := info.Config.AckWait
	var t task
	if !w.cfg.Prefetch {
		for ctx.Err() == nil {
			if m := w.fetch(ctx, cons); m != nil {
				w.handle(ctx, m, &t, ackWait)
			}
		}
	} else {
		// The fetching goroutine ends with Run's, also when the objective
		// ends Run's goroutine (runtime.Goexit): the task it holds goes
		// back at once.
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		next := make(chan natsjs.Msg)
		go func() {
			for ctx.Err() == nil {
				m := w.fetch(ctx, cons)
				if m == nil {
					continue
				}
				// The fetched task waits for the evaluation in progress:
				// kept alive, so that it is not delivered again meanwhile.
				stop := keepAlive(m, ackWait)
				select {
				case next <- m:
				case <-ctx.Done():
					m.Nak() // to another worker at once
				}
				stop()
			}
		}()
		for done := false; !done; {
			select {
			case m := <-next:
				w.handle(ctx, m, &t, ackWait)
			case <-ctx.Done():
				done = true
			}
		}
	}
	w.pending.Wait()
	return ctx.Err()
}

// fetch returns the next task, or nil when none came within a second or
// the server did not answer (then after a pause).
func (w *Worker) fetch(ctx context.Context, cons natsjs.Consumer) natsjs.Msg {
	batch, err := cons.Fetch(1, natsjs.FetchMaxWait(time.Second))
	if err != nil {
		w.pause(ctx)
		return nil
	}
	for m := range batch.Messages() {
		return m
	}
	if err := batch.Error(); err != nil && !errors.Is(err, natsjs.ErrNoMessages) && !errors.Is(err, nats.ErrTimeout) {
		w.pause(ctx)
	}
	return nil
}

// minKeepAlive is the shortest interval between a worker's reports that a
// task is in progress (a consumer made with a tiny AckWait by another
// program would otherwise make it send them in a tight loop).
const minKeepAlive = 10 * time.Millisecond

// resultGrace is how long a stopped worker tries to publish a result it
// evaluated.
const resultGrace = 5 * time.Second

// keepAlive tells the server every third of ackWait (but no more often than
// every minKeepAlive) that task m is in progress, until the returned
// function is called.
func keepAlive(m natsjs.Msg, ackWait time.Duration) (stop func()) {
	if ackWait <= 0 {
		return func() {}
	}
	every := max(ackWait/3, minKeepAlive)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				m.InProgress()
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}

// evaluateAlive evaluates x while it tells the server that task m is in
// progress. An objective that ends its goroutine (runtime.Goexit) stops
// the reports too, so that the task is delivered again after AckWait.
func (w *Worker) evaluateAlive(m natsjs.Msg, x []float64, ackWait time.Duration) float64 {
	stop := keepAlive(m, ackWait)
	defer stop()
	return w.evaluate(x)
}

// evaluate returns the objective's value at x, NaN when it panicked.
func (w *Worker) evaluate(x []float64) (f float64) {
	defer func() {
		if v := recover(); v != nil {
			f = math.NaN()
			w.mu.Lock()
			w.stats.Panicked++
			w.mu.Unlock()
			if w.cfg.OnPanic != nil {
				w.cfg.OnPanic(x, v, debug.Stack())
			}
		}
	}()
	return w.cfg.Objective(x)
}

func (w *Worker) pause(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(100 * time.Millisecond):
	}
}

// handle evaluates one task and publishes its result. A worker stopped
// (ctx) during the objective still publishes its result (for up to
// resultGrace) and acknowledges the task.
func (w *Worker) handle(ctx context.Context, m natsjs.Msg, t *task, ackWait time.Duration) {
	// A task whose check is not its candidate's (its x corrupted, or not
	// what the coordinator published) is refused: its value would be
	// applied to the candidate the check names.
	if err := decodeTask(m.Data(), t); err != nil || t.runID != w.names.runID ||
		t.check != candidateCheck(t.runID, t.generation, t.index, t.x) {
		w.mu.Lock()
		w.stats.Malformed++
		w.mu.Unlock()
		m.Term()
		return
	}
	// The result's message id is the task message's: a task evaluated
	// twice (its first worker died after publishing, before acknowledging)
	// has its result stored once. A task published again by a resumed
	// coordinator is a new message, with a new id.
	delivered := uint64(1)
	id := ""
	if meta, err := m.Metadata(); err == nil {
		delivered = meta.NumDelivered
		id = t.runID + "." + strconv.FormatUint(meta.Sequence.Stream, 10)
	}

	f := w.evaluateAlive(m, t.x, ackWait)

	r := result{runID: t.runID, generation: t.generation, index: t.index, check: t.check,
		delivered: uint32(min(delivered, 1<<32-1)), f: f}
	data := appendResult(nil, &r)
	// The result is published asynchronously and the task acknowledged
	// once the stream stored it, while the worker fetches its next task; a
	// publish that fails is retried synchronously.
	var opts []natsjs.PublishOpt
	if id != "" {
		opts = append(opts, natsjs.WithMsgID(id))
	}
	future, err := w.js.PublishAsync(w.names.resultSubject(), data, opts...)
	w.pending.Add(1)
	go func() {
		defer w.pending.Done()
		if err == nil {
			select {
			case <-future.Ok():
			case <-future.Err():
				err = errors.New("publish failed")
			}
		}
		if err != nil {
			// A worker being stopped still delivers what it evaluated,
			// for a while.
			pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), resultGrace)
			defer cancel()
			err = retry(pctx, func(ctx context.Context) error {
				_, err := w.js.Publish(ctx, w.names.resultSubject(), data, opts...)
				return err
			})
			if err != nil {
				return // the task stays unacknowledged: delivered again
			}
		}
		m.Ack()
		w.mu.Lock()
		w.stats.Evaluated++
		if delivered > 1 {
			w.stats.Redelivered++
		}
		w.mu.Unlock()
	}()
}
