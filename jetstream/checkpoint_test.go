package jetstream

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mmaes-go/mmaes"
	"github.com/nats-io/nats.go"
	natsjs "github.com/nats-io/nats.go/jetstream"
)

func testBucket(t *testing.T) natsjs.KeyValue {
	t.Helper()
	ts := startServer(t)
	js, err := natsjs.New(connect(t, ts.url()))
	if err != nil {
		t.Fatal(err)
	}
	n, _ := newNames("", "ckpt")
	kv, err := ensureStreams(context.Background(), js, n)
	if err != nil {
		t.Fatal(err)
	}
	return kv
}

// Snapshots larger than a chunk are stored in chunks in alternating slots;
// each load returns the snapshot and log of the last store; a store from
// a stale revision is refused; a damaged chunk is an error, not a state.
func TestCheckpointChunks(t *testing.T) {
	kv := testBucket(t)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(1, 2))
	blob := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	s := checkpointStore{kv: kv, key: "run", chunk: 1000, self: "aaaaaaaaaaaaaaaa"}
	if _, _, found, err := s.load(ctx); found || err != nil {
		t.Fatalf("empty bucket: found %v, %v", found, err)
	}
	for _, size := range []int{10, 966, 967, 1000, 2999, 3001, 10000, 0, 50} {
		data := blob(size)
		if err := s.storeSnapshot(ctx, data); err != nil {
			t.Fatalf("size %d: %v", size, err)
		}
		var entries [][]byte
		for k := range size % 4 {
			e := blob(7 + k)
			entries = append(entries, e)
			if err := s.appendLog(ctx, e); err != nil {
				t.Fatal(err)
			}
		}
		l := checkpointStore{kv: kv, key: "run", chunk: 1000}
		got, log, found, err := l.load(ctx)
		if err != nil || !found || !bytes.Equal(got, data) || l.revision != s.revision || l.slot != s.slot ||
			l.entries != uint32(len(entries)) || !bytes.Equal(log, bytes.Join(entries, nil)) {
			t.Fatalf("size %d: found %v, %v, %d bytes back, revision %d/%d, %d entries", size, found, err, len(got), l.revision, s.revision, l.entries)
		}
	}
	// A second coordinator takes the run over (claim), and stores; the first,
	// from its older revision, is refused and leaves the checkpoint whole:
	// its chunks go under its own keys.
	b := checkpointStore{kv: kv, key: "run", chunk: 1000, self: "bbbbbbbbbbbbbbbb"}
	if _, _, _, err := b.load(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.claim(ctx); err != nil {
		t.Fatal(err)
	}
	if e, err := kv.Get(ctx, "run"); err != nil || manifestOwner(e.Value()) != b.self || manifestOwner([]byte("MMC")) != "" {
		t.Fatalf("owner after the claim: %v", err)
	}
	for _, stale := range []func() error{
		func() error { return s.storeSnapshot(ctx, blob(3000)) },
		func() error { return s.storeSnapshot(ctx, blob(3000)) },
		func() error { return s.appendLog(ctx, blob(5)) },
	} {
		if err := stale(); !errors.Is(err, natsjs.ErrKeyRevisionMismatch) && !errors.Is(err, natsjs.ErrKeyExists) {
			t.Fatalf("store from a stale revision: %v", err)
		}
	}
	taken := blob(2500)
	if err := b.storeSnapshot(ctx, taken); err != nil {
		t.Fatal(err)
	}
	if err := s.storeSnapshot(ctx, blob(2500)); err == nil {
		t.Fatal("the replaced coordinator stored a snapshot")
	}
	if got, _, _, err := (&checkpointStore{kv: kv, key: "run", chunk: 1000}).load(ctx); err != nil || !bytes.Equal(got, taken) {
		t.Fatalf("after a replaced coordinator's stores: %v, %d bytes", err, len(got))
	}
	// The first coordinator's chunks were deleted with b's first snapshot.
	lister, err := kv.ListKeysFiltered(ctx, "run."+s.self+".>")
	if err != nil {
		t.Fatal(err)
	}
	left := 0
	for range lister.Keys() {
		left++
	}
	if left > 0 {
		t.Errorf("%d chunk keys of the replaced coordinator left", left)
	}
	// A chunk damaged behind the manifest's back.
	if _, err := kv.Put(ctx, b.chunkKey(b.self, b.slot, 1), blob(1000)); err != nil {
		t.Fatal(err)
	}
	l := checkpointStore{kv: kv, key: "run", chunk: 1000}
	if _, _, _, err := l.load(ctx); err == nil || !strings.Contains(err.Error(), "hash") {
		t.Fatalf("damaged chunk: %v", err)
	}
	// Manifests that are not one.
	names := []byte("aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbb")
	for _, m := range [][]byte{[]byte("MMC"), append([]byte("MMC\x01"), make([]byte, 80)...),
		append(append(append([]byte("MMC\x02"), make([]byte, 25)...), 0xff, 0xff, 0xff, 0xff), names...),
		append(append([]byte("MMC\x02"), make([]byte, 29)...), make([]byte, 32)...)} {
		if _, err := kv.Put(ctx, "other", m); err != nil {
			t.Fatal(err)
		}
		if _, _, _, err := (&checkpointStore{kv: kv, key: "other", chunk: 1000}).load(ctx); err == nil {
			t.Fatalf("manifest %x loaded", m)
		}
	}
}

// A snapshot and the log of the generations told since give the
// optimizer's state bit for bit: every generation is stored as a log
// entry (some told whole, some in part), and each reload, replayed,
// marshals to the bytes of the optimizer that ran.
func TestCheckpointLogReplay(t *testing.T) {
	kv := testBucket(t)
	ctx := context.Background()
	cfg := testConfigN(30, 0)
	opt, err := mmaes.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	snap, _ := opt.MarshalBinary()
	s := checkpointStore{kv: kv, key: "replay", chunk: 1 << 19, self: "cccccccccccccccc"}
	if err := s.storeSnapshot(ctx, snap); err != nil {
		t.Fatal(err)
	}
	f := testObjective(0)
	for g := range 12 {
		xs := opt.Ask()
		var idx []int
		fit := make([]float64, 0, len(xs))
		all := g%3 != 2
		for i := len(xs) - 1; i >= 0; i-- { // partial generations in reverse order
			if all || i%2 == 0 {
				idx = append(idx, i)
				fit = append(fit, f(xs[i]))
			}
		}
		if all {
			fit = fit[:0]
			for _, x := range xs {
				fit = append(fit, f(x))
			}
			err = opt.Tell(fit)
		} else {
			err = opt.TellSome(idx, fit)
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := s.appendLog(ctx, appendEntry(nil, all, idx, fit)); err != nil {
			t.Fatal(err)
		}
		l := checkpointStore{kv: kv, key: "replay", chunk: 1 << 19}
		snapshot, log, _, err := l.load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		back := new(mmaes.Optimizer)
		if err := back.UnmarshalBinary(snapshot); err != nil {
			t.Fatal(err)
		}
		told := 0
		err = replay(log, l.entries, func(idx []int, fit []float64) error {
			told++
			back.Ask()
			if idx == nil {
				return back.Tell(fit)
			}
			return back.TellSome(idx, fit)
		})
		if err != nil || told != g+1 {
			t.Fatalf("generation %d: replayed %d, %v", g, told, err)
		}
		want, _ := opt.MarshalBinary()
		got, _ := back.MarshalBinary()
		if !bytes.Equal(got, want) {
			t.Fatalf("generation %d: the replayed optimizer differs", g)
		}
	}
	// A log cut anywhere is an error.
	_, log, _, _ := s.load(ctx)
	for k := range len(log) {
		if replay(log[:k], s.entries, func([]int, []float64) error { return nil }) == nil {
			t.Fatalf("log cut to %d of %d bytes replayed", k, len(log))
		}
	}
	if replay(append(log, 0), s.entries, func([]int, []float64) error { return nil }) == nil {
		t.Fatal("log with a stray byte replayed")
	}
}

// A coordinator whose checkpoint exceeds the server's maximum payload
// (n = 400: A alone is 1.28 MB, the payload 1 MiB) stores it in chunks and
// resumes from it.
func TestCoordinatorLargeCheckpoint(t *testing.T) {
	ts := startServer(t)
	cfg := mmaes.DefaultConfig(400)
	cfg.MaxGenerations = 3
	cfg.Seed = 5
	startWorkers(t, ts.url(), "large", 2, 0)
	res, _ := runCoordinator(t, ts.url(), CoordinatorConfig{RunID: "large", Optimizer: cfg})
	c, err := NewCoordinator(context.Background(), connect(t, ts.url()), CoordinatorConfig{RunID: "large", Optimizer: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if c.ckpt.chunk >= 1<<20 {
		t.Fatalf("chunk %d: the server's payload is 1 MiB", c.ckpt.chunk)
	}
	b, _ := c.Optimizer().MarshalBinary()
	if len(b) <= 1<<20 || !c.Stats().Resumed {
		t.Fatalf("checkpoint of %d bytes, resumed %v", len(b), c.Stats().Resumed)
	}
	want, err := mmaes.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := want.Optimize(context.Background(), testObjective(0))
	sameResult(t, c.Optimizer().Result(), ref)
	sameResult(t, res, ref)
}

// Configurations that cannot work are errors before anything is created.
func TestInvalidConfigs(t *testing.T) {
	ts := startServer(t)
	nc := connect(t, ts.url())
	ctx := context.Background()
	cfg := testConfig(5)
	for _, c := range []CoordinatorConfig{
		{RunID: "", Optimizer: cfg},
		{RunID: "a.b", Optimizer: cfg},
		{RunID: "ok", Prefix: "bad prefix", Optimizer: cfg},
		{RunID: "ok", Optimizer: cfg, Deadline: -1},
		{RunID: "ok", Optimizer: cfg, AckWait: -1},
		{RunID: "ok", Optimizer: cfg, Stall: -1},
		{RunID: "ok", Optimizer: cfg, MaxDeliver: -2},
		{RunID: "ok", Optimizer: cfg, AckWait: 2},
		{RunID: "ok2", Optimizer: mmaes.Config{}},
	} {
		if _, err := NewCoordinator(ctx, nc, c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
	// A stream of the prefix that exists and is not a work queue.
	js, err := natsjs.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.CreateStream(ctx, natsjs.StreamConfig{Name: "other_tasks", Subjects: []string{"other.task.>"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := NewCoordinator(ctx, nc, CoordinatorConfig{RunID: "ok", Prefix: "other", Optimizer: cfg}); err == nil || !strings.Contains(err.Error(), "work queue") {
		t.Errorf("a limits stream taken for the tasks: %v", err)
	}
	f := testObjective(0)
	for _, c := range []WorkerConfig{
		{RunID: "", Objective: f},
		{RunID: "x y", Objective: f},
		{RunID: "ok"},
	} {
		if _, err := NewWorker(nc, c); err == nil {
			t.Errorf("worker %+v accepted", c)
		}
	}
}

// DeleteRun leaves nothing of the run: a coordinator started afterwards
// starts over; another run's checkpoint stays.
func TestDeleteRun(t *testing.T) {
	ts := startServer(t)
	nc := connect(t, ts.url())
	cfg := mmaes.DefaultConfig(400) // a checkpoint in chunks
	cfg.MaxGenerations = 2
	startWorkers(t, ts.url(), "gone", 1, 0)
	startWorkers(t, ts.url(), "kept", 1, 0)
	runCoordinator(t, ts.url(), CoordinatorConfig{RunID: "gone", Optimizer: cfg})
	runCoordinator(t, ts.url(), CoordinatorConfig{RunID: "kept", Optimizer: cfg})
	ctx := context.Background()
	if err := DeleteRun(ctx, nc, "", "gone"); err != nil {
		t.Fatal(err)
	}
	kv := testKV(t, nc)
	lister, err := kv.ListKeysFiltered(ctx, "gone", "gone.>")
	if err != nil {
		t.Fatal(err)
	}
	for k := range lister.Keys() {
		t.Errorf("key %q left", k)
	}
	for run, resumed := range map[string]bool{"gone": false, "kept": true} {
		c, err := NewCoordinator(ctx, nc, CoordinatorConfig{RunID: run, Optimizer: cfg})
		if err != nil {
			t.Fatal(err)
		}
		if c.Stats().Resumed != resumed {
			t.Errorf("run %s: resumed %v, want %v", run, c.Stats().Resumed, resumed)
		}
	}
	if err := DeleteRun(ctx, nc, "", "bad id"); err == nil {
		t.Error("DeleteRun of an invalid run id")
	}
}

func testKV(t *testing.T, nc *nats.Conn) natsjs.KeyValue {
	t.Helper()
	js, err := natsjs.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	kv, err := js.KeyValue(context.Background(), DefaultPrefix+"_checkpoints")
	if err != nil {
		t.Fatal(err)
	}
	return kv
}
