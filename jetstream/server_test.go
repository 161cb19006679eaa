package jetstream

import (
	"context"
	"math"
	"net"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/mmaes-go/mmaes"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// The tests run a real nats-server with JetStream, embedded, on loopback:
// a random port, a file store in a temporary folder, a user and password.
const (
	testUser     = "mmaes"
	testPassword = "s3cret-pw"
)

// testServer is an embedded nats-server that a test can restart on the
// same port and store.
type testServer struct {
	t    testing.TB
	dir  string
	port int
	s    *server.Server
}

func startServer(t testing.TB) *testServer {
	t.Helper()
	ts := &testServer{t: t, dir: t.TempDir(), port: -1}
	ts.start()
	t.Cleanup(ts.stop)
	return ts
}

func (ts *testServer) start() {
	ts.t.Helper()
	opts := &server.Options{
		Host:      "127.0.0.1",
		Port:      ts.port,
		JetStream: true,
		StoreDir:  ts.dir,
		Username:  testUser,
		Password:  testPassword,
		NoLog:     true,
		NoSigs:    true,
	}
	s, err := server.NewServer(opts)
	if err != nil {
		ts.t.Fatal(err)
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		ts.t.Fatal("nats-server not ready in 10 s")
	}
	ts.s = s
	ts.port = s.Addr().(*net.TCPAddr).Port
}

func (ts *testServer) stop() {
	if ts.s != nil {
		ts.s.Shutdown()
		ts.s.WaitForShutdown()
		ts.s = nil
	}
}

func (ts *testServer) url() string { return "nats://127.0.0.1:" + strconv.Itoa(ts.port) }

// connect connects with the test credentials, reconnecting forever.
func connect(t testing.TB, url string) *nats.Conn {
	t.Helper()
	nc, err := nats.Connect(url, nats.UserInfo(testUser, testPassword), nats.MaxReconnects(-1),
		nats.ReconnectWait(50*time.Millisecond), nats.ReconnectJitter(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// testObjective is a rotated-free ellipsoid with condition 10⁴, and a
// delay per evaluation standing in for an expensive objective.
func testObjective(delay time.Duration) func(x []float64) float64 {
	return func(x []float64) float64 {
		if delay > 0 {
			time.Sleep(delay)
		}
		s := 0.0
		n := len(x)
		for i, v := range x {
			s += math.Pow(1e4, float64(i)/float64(max(n-1, 1))) * v * v
		}
		return s
	}
}

// testConfig is the run of the tests: n = 8, a few dozen generations.
func testConfig(maxGens int) mmaes.Config { return testConfigN(8, maxGens) }

// testConfigN is the run of the tests at dimension n.
func testConfigN(n, maxGens int) mmaes.Config {
	cfg := mmaes.DefaultConfig(n)
	cfg.Mean = make([]float64, n)
	for i := range cfg.Mean {
		cfg.Mean[i] = float64((i*7)%11) - 5
	}
	cfg.Sigma = 1
	cfg.Seed = 11
	cfg.MaxGenerations = maxGens
	return cfg
}

// serial is the run of cfg with Ask and Tell in one goroutine.
func serial(t testing.TB, cfg mmaes.Config) mmaes.Result {
	t.Helper()
	opt, err := mmaes.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := opt.Optimize(context.Background(), testObjective(0))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// sameResult fails t unless got is want bit for bit.
func sameResult(t testing.TB, got, want mmaes.Result) {
	t.Helper()
	bits := func(v []float64) []uint64 {
		b := make([]uint64, len(v))
		for i, x := range v {
			b[i] = math.Float64bits(x)
		}
		return b
	}
	if math.Float64bits(got.F) != math.Float64bits(want.F) || got.Evals != want.Evals ||
		got.Generations != want.Generations || got.Reason != want.Reason ||
		!slices.Equal(bits(got.X), bits(want.X)) || !slices.Equal(bits(got.Mean), bits(want.Mean)) {
		t.Fatalf("not the serial run:\ngot  F %v evals %d gens %d %v X %v\nwant F %v evals %d gens %d %v X %v",
			got.F, got.Evals, got.Generations, got.Reason, got.X, want.F, want.Evals, want.Generations, want.Reason, want.X)
	}
}

// workerGroup is k workers, each on its own connection, running until
// stopped or until the test ends.
type workerGroup struct {
	workers []*Worker
	cancel  context.CancelFunc
	done    chan struct{}
}

func startWorkers(t testing.TB, url, runID string, k int, delay time.Duration, edit ...func(*WorkerConfig)) *workerGroup {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	g := &workerGroup{cancel: cancel, done: make(chan struct{}, k)}
	for range k {
		cfg := WorkerConfig{RunID: runID, Objective: testObjective(delay)}
		for _, e := range edit {
			e(&cfg)
		}
		w, err := NewWorker(connect(t, url), cfg)
		if err != nil {
			t.Fatal(err)
		}
		g.workers = append(g.workers, w)
		go func() {
			w.Run(ctx)
			g.done <- struct{}{}
		}()
	}
	t.Cleanup(g.stop)
	return g
}

// evaluated sums the workers' answered tasks, waiting up to a second for
// want: a worker counts a task once the server acknowledged its result,
// which may be after the coordinator applied it.
func (g *workerGroup) evaluated(want int) (total, busy int) {
	for deadline := time.Now().Add(time.Second); ; time.Sleep(5 * time.Millisecond) {
		total, busy = 0, 0
		for _, w := range g.workers {
			e := w.Stats().Evaluated
			total += e
			if e > 0 {
				busy++
			}
		}
		if total == want || time.Now().After(deadline) {
			return total, busy
		}
	}
}

func (g *workerGroup) stop() {
	if g.cancel != nil {
		g.cancel()
		for range g.workers {
			<-g.done
		}
		g.cancel = nil
	}
}

// runInBackground runs c.Run, within a minute, on another goroutine; the
// function it returns waits for the run's result and fails the test on an
// error.
func runInBackground(t testing.TB, c *Coordinator) (wait func() mmaes.Result) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	type outcome struct {
		res mmaes.Result
		err error
	}
	out := make(chan outcome, 1)
	go func() {
		res, err := c.Run(ctx)
		out <- outcome{res, err}
	}()
	t.Cleanup(cancel)
	return func() mmaes.Result {
		t.Helper()
		o := <-out
		cancel()
		if o.err != nil {
			t.Fatal(o.err)
		}
		return o.res
	}
}
