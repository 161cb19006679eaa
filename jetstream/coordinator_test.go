package jetstream

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mmaes-go/mmaes"
	"github.com/nats-io/nats.go"
	natsjs "github.com/nats-io/nats.go/jetstream"
)

// runCoordinator runs a coordinator of cfg to its end, within a minute.
func runCoordinator(t testing.TB, url string, cfg CoordinatorConfig) (mmaes.Result, Stats) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := NewCoordinator(ctx, connect(t, url), cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return res, c.Stats()
}

// With 1, 4 and 8 workers and no deadline the run is the serial run.
func TestWorkersSerialRun(t *testing.T) {
	ts := startServer(t)
	cfg := testConfig(40)
	want := serial(t, cfg)
	for _, tc := range []struct {
		k        int
		prefetch bool
	}{{1, false}, {4, false}, {8, false}, {4, true}} {
		k := tc.k
		t.Run(fmt.Sprintf("%d,prefetch=%v", k, tc.prefetch), func(t *testing.T) {
			runID := fmt.Sprintf("workers-%d-%v", k, tc.prefetch)
			g := startWorkers(t, ts.url(), runID, k, 0, func(c *WorkerConfig) { c.Prefetch = tc.prefetch })
			res, st := runCoordinator(t, ts.url(), CoordinatorConfig{RunID: runID, Optimizer: cfg})
			sameResult(t, res, want)
			if st.Published != want.Evals || st.Applied != want.Evals || st.Duplicate+st.Stale+st.Late+st.Foreign+st.Malformed != 0 || st.Resumed {
				t.Errorf("stats %+v, want %d published and applied, nothing dropped", st, want.Evals)
			}
			evaluated, busy := g.evaluated(want.Evals)
			if evaluated != want.Evals || busy < min(k, 2) {
				t.Errorf("workers evaluated %d (want %d), %d of %d evaluated any", evaluated, want.Evals, busy, k)
			}
		})
	}
}

// A second coordinator of a finished run resumes its checkpoint, which
// says it stopped, and returns its result at once.
func TestCoordinatorResumesFinishedRun(t *testing.T) {
	ts := startServer(t)
	cfg := testConfig(15)
	startWorkers(t, ts.url(), "again", 2, 0)
	first, _ := runCoordinator(t, ts.url(), CoordinatorConfig{RunID: "again", Optimizer: cfg})
	cfg.Seed++ // not used: the checkpoint is
	second, st := runCoordinator(t, ts.url(), CoordinatorConfig{RunID: "again", Optimizer: cfg})
	sameResult(t, second, first)
	if !st.Resumed || st.Published != 0 {
		t.Errorf("stats %+v: want resumed, nothing published", st)
	}
}

// With a deadline a generation ends with the results that arrived: one
// worker of three is slow, so some results are late; every generation still
// ends, and the late results are counted, never applied.
func TestDeadline(t *testing.T) {
	const gens = 20
	ts := startServer(t)
	cfg := testConfig(gens)
	startWorkers(t, ts.url(), "deadline", 2, 5*time.Millisecond)
	slow := connect(t, ts.url())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var calls atomic.Int64
	w, err := NewWorker(slow, WorkerConfig{RunID: "deadline", Objective: func(x []float64) float64 {
		calls.Add(1)
		time.Sleep(120 * time.Millisecond)
		return testObjective(0)(x)
	}})
	if err != nil {
		t.Fatal(err)
	}
	go w.Run(ctx)
	res, st := runCoordinator(t, ts.url(), CoordinatorConfig{RunID: "deadline", Optimizer: cfg, Deadline: 40 * time.Millisecond})
	lambda := cfg.Lambda
	if lambda == 0 {
		lambda = 4 + int(3*math.Log(8))
	}
	if res.Generations != gens || res.Evals >= gens*lambda || calls.Load() == 0 {
		t.Errorf("result %+v, stats %+v, slow worker called %d times: want %d generations with fewer than %d evaluations",
			res, st, calls.Load(), gens, gens*lambda)
	}
	if st.Published != gens*lambda || st.Late == 0 || st.Applied+st.Late+st.Stale > st.Published+st.Republished {
		t.Errorf("published %d, want %d; %d late (want some), stats %+v", st.Published, gens*lambda, st.Late, st)
	}
}

// A client without the credentials is refused.
func TestCredentialsRequired(t *testing.T) {
	ts := startServer(t)
	for _, opts := range [][]nats.Option{
		nil,
		{nats.UserInfo(testUser, "wrong")},
		{nats.UserInfo("intruder", testPassword)},
	} {
		nc, err := nats.Connect(ts.url(), opts...)
		if err == nil {
			nc.Close()
			t.Fatalf("connected without the credentials (%d options)", len(opts))
		}
		if !errors.Is(err, nats.ErrAuthorization) && !strings.Contains(strings.ToLower(err.Error()), "authorization") {
			t.Errorf("error %v, want an authorization violation", err)
		}
	}
}

// Poisoned results — garbage bytes, truncated or wrong-version messages,
// wrong or future generations, indices out of range, another run's id,
// NaN or any value with a check that answers no candidate, duplicates —
// change nothing: the run is the serial run, and each is counted.
func TestPoisonedResults(t *testing.T) {
	ts := startServer(t)
	cfg := testConfig(30)
	want := serial(t, cfg)
	const runID = "poison"
	nc := connect(t, ts.url())
	n, _ := newNames("", runID)
	js, err := natsjs.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	// The poisoner publishes a volley for each generation's tasks it sees,
	// read from the task stream without taking them (a separate consumer
	// on the work-queue stream is not allowed, so it watches the subject).
	sub, err := nc.SubscribeSync(n.taskFilter())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var volleys atomic.Int64
	go func() {
		var tk task
		lastGen := ^uint64(0)
		for ctx.Err() == nil {
			m, err := sub.NextMsg(100 * time.Millisecond)
			if err != nil || decodeTask(m.Data, &tk) != nil || tk.generation == lastGen {
				continue
			}
			lastGen = tk.generation
			good := result{runID: runID, generation: tk.generation, index: tk.index, check: tk.check, f: -1e300}
			valid := appendResult(nil, &good)
			var poison [][]byte
			add := func(edit func(r *result)) {
				r := good
				edit(&r)
				poison = append(poison, appendResult(nil, &r))
			}
			// First the true value, twice: one copy (or the worker's own
			// result) is applied, the others are duplicates (or stale, if
			// the generation ended before they came).
			add(func(r *result) { r.f = testObjective(0)(tk.x) })
			add(func(r *result) { r.f = testObjective(0)(tk.x) })
			poison = append(poison, []byte("garbage"), nil, valid[:len(valid)-len(runID)-1], valid[:20])
			wrongVersion := append([]byte(nil), valid...)
			wrongVersion[3] = 2
			poison = append(poison, wrongVersion)
			add(func(r *result) { r.check ^= 1 })                        // a forged value
			add(func(r *result) { r.check ^= 1; r.f = math.NaN() })      // NaN, forged
			add(func(r *result) { r.generation++ })                      // a future generation
			add(func(r *result) { r.generation-- })                      // stale (or, at 0, the far future)
			add(func(r *result) { r.index = 1 << 20 })                   // out of range
			add(func(r *result) { r.runID = "other-run" })               // foreign
			add(func(r *result) { r.runID = runID + "x"; r.f = -1e300 }) // foreign, same prefix
			for _, p := range poison {
				js.Publish(ctx, n.resultSubject(), p)
			}
			volleys.Add(1)
		}
	}()
	startWorkers(t, ts.url(), runID, 2, 0)
	res, st := runCoordinator(t, ts.url(), CoordinatorConfig{RunID: runID, Optimizer: cfg})
	cancel()
	sameResult(t, res, want)
	if volleys.Load() < 10 {
		t.Fatalf("only %d volleys of poison published", volleys.Load())
	}
	if st.Applied != want.Evals || st.Malformed < 10 || st.Foreign < 10 || st.Stale < 5 || st.Duplicate < 1 {
		t.Errorf("stats %+v after %d volleys", st, volleys.Load())
	}
}

// A worker stopped in the middle of a task (its context: the connection
// stays) still publishes the value it evaluated and acknowledges the task:
// nothing is delivered again, nothing waits for AckWait (a minute here).
func TestWorkerStoppedMidTask(t *testing.T) {
	ts := startServer(t)
	cfg := testConfig(20)
	want := serial(t, cfg)
	const runID = "stopped"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := make(chan struct{})
	var calls atomic.Int64
	w, err := NewWorker(connect(t, ts.url()), WorkerConfig{RunID: runID, Objective: func(x []float64) float64 {
		if calls.Add(1) == 5 {
			close(started)
			<-ctx.Done() // stopped while evaluating
		}
		return testObjective(0)(x)
	}})
	if err != nil {
		t.Fatal(err)
	}
	go w.Run(ctx)
	c, err := NewCoordinator(context.Background(), connect(t, ts.url()), CoordinatorConfig{RunID: runID, Optimizer: cfg, AckWait: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	wait := runInBackground(t, c)
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatal("the worker never reached its fifth task")
	}
	cancel()
	startWorkers(t, ts.url(), runID, 2, 0)
	start := time.Now()
	sameResult(t, wait(), want)
	if st := c.Stats(); st.Redelivered != 0 || st.Applied != want.Evals || time.Since(start) > 30*time.Second {
		t.Errorf("stats %+v after %v: want no redelivered task, %d applied", st, time.Since(start), want.Evals)
	}
	for deadline := time.Now().Add(time.Second); w.Stats().Evaluated != 5 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if e := w.Stats().Evaluated; e != 5 {
		t.Errorf("the stopped worker answered %d tasks, want its 5", e)
	}
}

// With Prefetch, a task fetched while another is evaluated is kept alive:
// evaluations longer than AckWait deliver nothing twice.
func TestPrefetchKeepsTasksAlive(t *testing.T) {
	ts := startServer(t)
	cfg := testConfig(2)
	cfg.Lambda = 4
	want := serial(t, cfg)
	const runID = "prefetch-slow"
	g := startWorkers(t, ts.url(), runID, 1, 0, func(c *WorkerConfig) {
		c.Prefetch = true
		f := c.Objective
		c.Objective = func(x []float64) float64 {
			time.Sleep(400 * time.Millisecond)
			return f(x)
		}
	})
	res, st := runCoordinator(t, ts.url(), CoordinatorConfig{RunID: runID, Optimizer: cfg, AckWait: 300 * time.Millisecond})
	sameResult(t, res, want)
	if total, _ := g.evaluated(want.Evals); st.Redelivered != 0 || st.Duplicate != 0 || total != want.Evals {
		t.Errorf("stats %+v, %d evaluated: want %d, none twice", st, total, want.Evals)
	}
}

// A second coordinator of a running run takes it over: the first stops
// with ErrReplaced, the second ends the run, and the result is the serial
// run's (the results the first took are published again).
func TestSecondCoordinatorTakesOver(t *testing.T) {
	ts := startServer(t)
	cfg := testConfig(60)
	want := serial(t, cfg)
	const runID = "two"
	startWorkers(t, ts.url(), runID, 3, time.Millisecond)
	reached := make(chan struct{})
	var once sync.Once
	first, err := NewCoordinator(context.Background(), connect(t, ts.url()), CoordinatorConfig{RunID: runID, Optimizer: cfg,
		Progress: func(p Progress) {
			if p.Generation >= 10 {
				once.Do(func() { close(reached) })
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	firstErr := make(chan error, 1)
	go func() {
		_, err := first.Run(ctx)
		firstErr <- err
	}()
	<-reached
	second, err := NewCoordinator(ctx, connect(t, ts.url()), CoordinatorConfig{RunID: runID, Optimizer: cfg})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-firstErr:
		if !errors.Is(err, ErrReplaced) {
			t.Fatalf("the first coordinator ended with %v, want ErrReplaced", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the first coordinator did not stop")
	}
	res, err := second.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sameResult(t, res, want)
	if !second.Stats().Resumed {
		t.Error("the second coordinator did not resume")
	}
}

// A coordinator of the run that stores a generation between a new
// coordinator's load and its claim does not make the new one fail: it
// loads the newer checkpoint and claims the run, and the other one's next
// store fails with ErrReplaced.
func TestTakeoverAfterAConcurrentStore(t *testing.T) {
	ts := startServer(t)
	const runID = "race"
	ctx := context.Background()
	first, err := NewCoordinator(ctx, connect(t, ts.url()), CoordinatorConfig{RunID: runID, Optimizer: testConfig(60)})
	if err != nil {
		t.Fatal(err)
	}
	stores := 0
	beforeClaim = func() {
		if stores == 0 {
			stores++
			if err := first.storeWith(ctx, first.ckpt.claim); err != nil {
				t.Errorf("the running coordinator's store: %v", err)
			}
		}
	}
	defer func() { beforeClaim = nil }()
	second, err := NewCoordinator(ctx, connect(t, ts.url()), CoordinatorConfig{RunID: runID, Optimizer: testConfig(60)})
	if err != nil {
		t.Fatalf("the new coordinator failed: %v", err)
	}
	if stores != 1 || !second.Stats().Resumed {
		t.Fatalf("%d stores between load and claim; resumed %v", stores, second.Stats().Resumed)
	}
	if err := first.storeWith(ctx, first.ckpt.claim); !errors.Is(err, ErrReplaced) {
		t.Errorf("the replaced coordinator's next store: %v, want ErrReplaced", err)
	}
}

// Without a worker a coordinator with a Stall gives up on the first
// generation with ErrStalled, and so it does when its only worker leaves
// after 3 of the 10 candidates (whose results that Run drops); once
// workers run, Run called again publishes the generation anew and the run
// is the serial run. With a Deadline to come and results in hand, the
// stall time does not end the run: the deadline ends the generation.
func TestStall(t *testing.T) {
	ts := startServer(t)
	cfg := testConfig(12)
	want := serial(t, cfg)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, partial := range []bool{false, true} {
		runID := fmt.Sprintf("stall-%v", partial)
		c, err := NewCoordinator(ctx, connect(t, ts.url()), CoordinatorConfig{RunID: runID, Optimizer: cfg, Stall: 300 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		evaluated := new(atomic.Int32)
		if partial {
			evaluated = startLeavingWorker(t, ctx, ts.url(), runID, 3)
		}
		start := time.Now()
		if _, err := c.Run(ctx); !errors.Is(err, ErrStalled) {
			t.Fatalf("partial %v: Run without workers: %v, want ErrStalled", partial, err)
		}
		if waited := time.Since(start); waited < 300*time.Millisecond || waited > 20*time.Second {
			t.Errorf("partial %v: gave up after %v, want the stall time of 300 ms (and not much more)", partial, waited)
		}
		if g := c.Optimizer().Generation(); g != 0 || partial && evaluated.Load() < 3 {
			t.Errorf("partial %v: stalled in generation %d after %d evaluations", partial, g, evaluated.Load())
		}
		startWorkers(t, ts.url(), runID, 2, 0)
		done := make(chan struct{})
		go func() {
			defer close(done)
			res, err := c.Run(ctx)
			if err != nil {
				t.Errorf("partial %v: Run again: %v", partial, err)
				return
			}
			sameResult(t, res, want)
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("partial %v: Run again did not end within 20 s", partial)
		}
	}

	// One worker answers 3 candidates of 10, then leaves: with a deadline
	// of 1 s and a stall time of 200 ms, generation 0 ends at the deadline
	// with the 3, and the next one stalls.
	c, err := NewCoordinator(ctx, connect(t, ts.url()), CoordinatorConfig{RunID: "stall-deadline", Optimizer: cfg, Stall: 200 * time.Millisecond, Deadline: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	startLeavingWorker(t, ctx, ts.url(), "stall-deadline", 3)
	_, err = c.Run(ctx)
	if !errors.Is(err, ErrStalled) || c.Optimizer().Generation() != 1 || c.Optimizer().Evals() != 3 {
		t.Errorf("deadline 1 s, stall 200 ms: %v in generation %d after %d evaluations, want ErrStalled in generation 1 after 3",
			err, c.Optimizer().Generation(), c.Optimizer().Evals())
	}
}

// startLeavingWorker starts a worker of run runID that stops after its
// k-th evaluation, and returns the count of its evaluations.
func startLeavingWorker(t *testing.T, ctx context.Context, url, runID string, k int32) *atomic.Int32 {
	t.Helper()
	wctx, leave := context.WithCancel(ctx)
	evaluated := new(atomic.Int32)
	obj := testObjective(0)
	w, err := NewWorker(connect(t, url), WorkerConfig{RunID: runID, Objective: func(x []float64) float64 {
		if evaluated.Add(1) == k {
			leave()
		}
		return obj(x)
	}})
	if err != nil {
		leave()
		t.Fatal(err)
	}
	go w.Run(wctx)
	return evaluated
}

// TestRunAgain: Run called again after it returned between a Tell and the
// store of that generation's log entry (its context cancelled there, at
// n = 64, where a generation's checkpoint is a log entry) goes on, and a
// coordinator resumed from the checkpoint afterwards finds the live run's
// state. Run called again on a coordinator that another one has replaced
// in between returns ErrReplaced, publishing and purging nothing, and the
// new one ends the run as the serial run.
func TestRunAgain(t *testing.T) {
	ts := startServer(t)
	cfg := testConfigN(64, 12)
	startWorkers(t, ts.url(), "again-log", 2, 0)
	c, err := NewCoordinator(t.Context(), connect(t, ts.url()), CoordinatorConfig{RunID: "again-log", Optimizer: cfg})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	afterTell = func(gen int) {
		if gen == 3 {
			cancel()
		}
	}
	_, err = c.Run(ctx)
	afterTell = nil
	if !errors.Is(err, context.Canceled) || c.Optimizer().Generation() != 3 {
		t.Fatalf("first Run: %v in generation %d, want cancelled after telling generation 3", err, c.Optimizer().Generation())
	}
	ctx, cancel = context.WithCancel(t.Context())
	c.cfg.Progress = func(p Progress) {
		if p.Generation >= 5 {
			cancel()
		}
	}
	if _, err := c.Run(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("second Run: %v", err)
	}
	live := c.Optimizer()
	r, err := NewCoordinator(t.Context(), connect(t, ts.url()), CoordinatorConfig{RunID: "again-log", Optimizer: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if o := r.Optimizer(); o.Generation() != live.Generation() || !slices.Equal(o.Mean(), live.Mean()) ||
		math.Float64bits(o.BestF()) != math.Float64bits(live.BestF()) {
		t.Errorf("resumed: generation %d, best %v; the live run: generation %d, best %v", o.Generation(), o.BestF(), live.Generation(), live.BestF())
	}

	small := testConfig(12)
	want := serial(t, small)
	first, err := NewCoordinator(t.Context(), connect(t, ts.url()), CoordinatorConfig{RunID: "again-owner", Optimizer: small, Stall: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := first.Run(t.Context()); !errors.Is(err, ErrStalled) {
		t.Fatalf("first coordinator without workers: %v", err)
	}
	second, err := NewCoordinator(t.Context(), connect(t, ts.url()), CoordinatorConfig{RunID: "again-owner", Optimizer: small})
	if err != nil {
		t.Fatal(err)
	}
	published := first.Stats().Published
	if _, err := first.Run(t.Context()); !errors.Is(err, ErrReplaced) || first.Stats().Published != published {
		t.Errorf("the replaced coordinator's Run again: %v, %d tasks published (%d before), want ErrReplaced and none", err, first.Stats().Published, published)
	}
	startWorkers(t, ts.url(), "again-owner", 2, 0)
	res, err := second.Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	sameResult(t, res, want)
}
