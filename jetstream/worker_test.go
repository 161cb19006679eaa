package jetstream

import (
	"context"
	"encoding/binary"
	"math"
	"sync/atomic"
	"testing"
	"time"

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
