package jetstream

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mmaes-go/mmaes"
	natsjs "github.com/nats-io/nats.go/jetstream"
)

// TestWorkerHostileTasks: tasks a coordinator did not publish reach a
// worker: a wrong version, cut ones, an empty one, a huge dimension,
// another run's, and well-formed ones whose check is not their
// candidate's (no coordinates, a NaN, another x: their value would be
// applied to the candidate the check names). The worker refuses each,
// counting it as malformed, calls the objective only for the one true
// task and publishes only its result.
func TestWorkerHostileTasks(t *testing.T) {
	ts := startServer(t)
	const runID = "hostile"
	nc := connect(t, ts.url())
	if _, err := NewCoordinator(t.Context(), nc, CoordinatorConfig{RunID: runID, Optimizer: testConfig(5)}); err != nil {
		t.Fatal(err)
	}
	js, err := natsjs.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := newNames("", runID)
	results, err := nc.SubscribeSync(n.resultSubject())
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{1, 2}
	check := candidateCheck(runID, 0, 0, x)
	good := appendTask(nil, &task{runID: runID, check: check, x: x})
	version := append([]byte(nil), good...)
	version[3]++
	huge := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(huge[24:28], 1<<32-1)
	hostile := [][]byte{
		version, good[:10], good[:taskHeader+5], nil, []byte("MMT"), huge,
		appendTask(nil, &task{runID: "other", check: check, x: x}),
		appendTask(nil, &task{runID: runID, check: check}),
		appendTask(nil, &task{runID: runID, check: check, x: []float64{math.NaN(), 2}}),
		appendTask(nil, &task{runID: runID, check: check, x: []float64{0, 0, 0}}),
		appendTask(nil, &task{runID: runID, index: 1, check: check, x: x}),
	}
	for _, m := range append(hostile, good) {
		if _, err := js.Publish(t.Context(), n.taskSubject(0), m); err != nil {
			t.Fatal(err)
		}
	}
	var calls atomic.Int32
	w, err := NewWorker(connect(t, ts.url()), WorkerConfig{RunID: runID, Objective: func(got []float64) float64 {
		calls.Add(1)
		if len(got) != 2 || got[0] != 1 || got[1] != 2 {
			t.Errorf("the objective got %v", got)
		}
		return 7
	}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { w.Run(ctx); close(done) }()
	m, err := results.NextMsg(10 * time.Second)
	if err != nil {
		t.Fatalf("no result: %v", err)
	}
	var r result
	if err := decodeResult(m.Data, &r); err != nil || r.check != check || r.f != 7 {
		t.Errorf("result %+v (%v), want the true task's", r, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for w.Stats().Malformed < len(hostile) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	<-done
	if extra, err := results.NextMsg(200 * time.Millisecond); err == nil {
		t.Errorf("a second result: %x", extra.Data)
	}
	if st := w.Stats(); st.Malformed != len(hostile) || calls.Load() != 1 {
		t.Errorf("stats %+v, objective called %d times: want %d malformed and one call", st, calls.Load(), len(hostile))
	}
}

// TestWorkerObjectivePanics: an objective that panics on some candidates
// (x₁ > 2.5) stops no worker. Each such candidate is answered with NaN, so
// that the run is the serial run of an objective that returns NaN there;
// the panics are counted, each passed to OnPanic with its candidate, value
// and stack, and no task is evaluated twice.
func TestWorkerObjectivePanics(t *testing.T) {
	ts := startServer(t)
	const runID = "panics"
	cfg := testConfig(30)
	good := testObjective(0)
	opt, err := mmaes.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	want, err := opt.Optimize(t.Context(), func(x []float64) float64 {
		if x[1] > 2.5 {
			return math.NaN()
		}
		return good(x)
	})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var hooked int
	g := startWorkers(t, ts.url(), runID, 3, 0, func(c *WorkerConfig) {
		c.Objective = func(x []float64) float64 {
			if x[1] > 2.5 {
				panic(fmt.Sprintf("x₁ = %v", x[1]))
			}
			return good(x)
		}
		c.OnPanic = func(x []float64, v any, stack []byte) {
			mu.Lock()
			defer mu.Unlock()
			hooked++
			if s, _ := v.(string); s != fmt.Sprintf("x₁ = %v", x[1]) || !strings.Contains(string(stack), "TestWorkerObjectivePanics") {
				t.Errorf("OnPanic(%v, %v, %.200s…)", x, v, stack)
			}
		}
	})
	res, st := runCoordinator(t, ts.url(), CoordinatorConfig{RunID: runID, Optimizer: cfg})
	sameResult(t, res, want)
	if st.Applied != want.Evals {
		t.Errorf("stats %+v, want %d applied", st, want.Evals)
	}
	evaluated, _ := g.evaluated(want.Evals)
	g.stop()
	panicked := 0
	for _, w := range g.workers {
		panicked += w.Stats().Panicked
	}
	mu.Lock()
	defer mu.Unlock()
	if evaluated != want.Evals || panicked == 0 || panicked != hooked {
		t.Errorf("%d evaluated (want %d), %d panicked, OnPanic called %d times (want as many, > 0)", evaluated, want.Evals, panicked, hooked)
	}
}

// TestWorkerObjectiveGoexit: an objective that ends its goroutine
// (runtime.Goexit, what t.FailNow does) ends that worker's Run goroutine,
// and stops its reports that the task is in progress (and, with Prefetch,
// hands back the task it fetched ahead): the task is delivered again after
// AckWait, to the other worker, and the run is the serial run (the reports
// went on forever, and the run waited for ever).
func TestWorkerObjectiveGoexit(t *testing.T) {
	for _, prefetch := range []bool{false, true} {
		t.Run(fmt.Sprintf("prefetch=%v", prefetch), func(t *testing.T) {
			ts := startServer(t)
			runID := fmt.Sprintf("goexit-%v", prefetch)
			cfg := testConfig(10)
			want := serial(t, cfg)
			var exited atomic.Bool
			quitter, err := NewWorker(connect(t, ts.url()), WorkerConfig{RunID: runID, Prefetch: prefetch, Objective: func([]float64) float64 {
				time.Sleep(10 * time.Millisecond) // so that a prefetch is under way
				exited.Store(true)
				runtime.Goexit()
				return 0
			}})
			if err != nil {
				t.Fatal(err)
			}
			ended := make(chan struct{})
			go func() {
				defer close(ended)
				quitter.Run(t.Context())
			}()
			c, err := NewCoordinator(t.Context(), connect(t, ts.url()), CoordinatorConfig{RunID: runID, Optimizer: cfg, AckWait: 300 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			wait := runInBackground(t, c)
			select {
			case <-ended:
			case <-time.After(10 * time.Second):
				t.Fatal("the worker whose objective called Goexit did not end")
			}
			if !exited.Load() {
				t.Fatal("the objective was not called")
			}
			startWorkers(t, ts.url(), runID, 1, 0)
			sameResult(t, wait(), want)
			if st := c.Stats(); st.Redelivered < 1 {
				t.Errorf("stats %+v: want the task delivered again", st)
			}
		})
	}
}

// TestPoisonTaskAbandoned: a candidate whose evaluation kills every worker
// that takes it (here the objective ends the worker's goroutine) is
// abandoned after MaxDeliver deliveries and told as NaN: the run is the
// serial run of an objective that is NaN there, and the workers left
// finish it (the task went on to the next worker for ever).
func TestPoisonTaskAbandoned(t *testing.T) {
	ts := startServer(t)
	const runID = "poison"
	cfg := testConfig(8)
	first, err := mmaes.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	poison := slices.Clone(first.Ask()[0])
	isPoison := func(x []float64) bool { return slices.Equal(x, poison) }
	good := testObjective(0)
	opt, err := mmaes.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	want, err := opt.Optimize(t.Context(), func(x []float64) float64 {
		if isPoison(x) {
			return math.NaN()
		}
		return good(x)
	})
	if err != nil {
		t.Fatal(err)
	}
	var killed atomic.Int32
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	for range 3 {
		w, err := NewWorker(connect(t, ts.url()), WorkerConfig{RunID: runID, Objective: func(x []float64) float64 {
			if isPoison(x) {
				killed.Add(1)
				runtime.Goexit()
			}
			return good(x)
		}})
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done() // also when the objective ends the goroutine
			w.Run(ctx)
		}()
	}
	res, st := runCoordinator(t, ts.url(), CoordinatorConfig{RunID: runID, Optimizer: cfg, AckWait: 200 * time.Millisecond, MaxDeliver: 2})
	sameResult(t, res, want)
	if st.Abandoned != 1 || killed.Load() != 2 {
		t.Errorf("stats %+v, %d workers killed: want 1 abandoned after 2", st, killed.Load())
	}
}

// TestAbandonOnlyDeadTasks: in one generation a candidate's result is lost
// (its task acknowledged without a result, as when a replaced coordinator
// consumed it) and another's task is never answered (delivered MaxDeliver
// times). Only the second is abandoned, told as NaN; the first is
// published again and evaluated (both used to be told as NaN).
func TestAbandonOnlyDeadTasks(t *testing.T) {
	ts := startServer(t)
	const runID = "lost-and-poison"
	cfg := testConfig(1)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	c, err := NewCoordinator(ctx, connect(t, ts.url()), CoordinatorConfig{RunID: runID, Optimizer: cfg, AckWait: 200 * time.Millisecond, MaxDeliver: 2})
	if err != nil {
		t.Fatal(err)
	}
	wait := runInBackground(t, c)
	js, n, good := c.js, c.names, testObjective(0)
	var evaluated0 atomic.Int32
	done := make(chan struct{})
	go func() { // a worker that loses candidate 0's first result and never answers candidate 1
		defer close(done)
		cons, err := js.Consumer(ctx, n.taskStream(), n.workConsumer())
		if err != nil {
			t.Error(err)
			return
		}
		var tk task
		lost := false
		for ctx.Err() == nil {
			b, err := cons.Fetch(10, natsjs.FetchMaxWait(200*time.Millisecond))
			if err != nil {
				continue
			}
			for m := range b.Messages() {
				if decodeTask(m.Data(), &tk) != nil {
					continue
				}
				switch {
				case tk.index == 0 && !lost:
					lost = true
					m.Ack()
				case tk.index == 1:
				default:
					if tk.index == 0 {
						evaluated0.Add(1)
					}
					r := result{runID: tk.runID, generation: tk.generation, index: tk.index, check: tk.check, delivered: 1, f: good(tk.x)}
					if _, err := js.Publish(ctx, n.resultSubject(), appendResult(nil, &r)); err == nil {
						m.Ack()
					}
				}
			}
		}
	}()
	res := wait()
	cancel()
	<-done
	if st := c.Stats(); st.Abandoned != 1 || st.Republished != 1 || evaluated0.Load() != 1 || res.Reason != mmaes.MaxGenerationsReached {
		t.Errorf("stats %+v, candidate 0 evaluated %d times, %v: want candidate 1 abandoned, candidate 0 published again and evaluated once",
			st, evaluated0.Load(), res.Reason)
	}
}
