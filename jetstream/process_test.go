package jetstream

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// The test binary doubles as the coordinator and worker processes that the
// crash tests kill: with MMAES_JS_ROLE set it runs that role and exits.
func TestMain(m *testing.M) {
	if role := os.Getenv("MMAES_JS_ROLE"); role != "" {
		os.Exit(runRole(role))
	}
	os.Exit(m.Run())
}

// runRole runs a coordinator or a worker as configured by the environment,
// printing one line per event on stdout: "resumed <bool>", "gen <k>",
// "done <evals>" for a coordinator, "busy" for a worker that hangs in its
// MMAES_JS_HANG-th evaluation.
func runRole(role string) int {
	env := func(k string) string { return os.Getenv("MMAES_JS_" + k) }
	atoi := func(k string) int { v, _ := strconv.Atoi(env(k)); return v }
	nc, err := nats.Connect(env("URL"), nats.UserInfo(testUser, testPassword), nats.MaxReconnects(-1),
		nats.ReconnectWait(50*time.Millisecond))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx := context.Background()
	switch role {
	case "coordinator":
		c, err := NewCoordinator(ctx, nc, CoordinatorConfig{RunID: env("RUN"), Optimizer: testConfigN(atoi("N"), atoi("GENS")),
			Progress: func(p Progress) { fmt.Printf("gen %d\n", p.Generation) }})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Printf("resumed %v\n", c.Stats().Resumed)
		res, err := c.Run(ctx)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Printf("done %d\n", res.Evals)
	case "worker":
		hang, delay := atoi("HANG"), time.Duration(atoi("DELAY_US"))*time.Microsecond
		f := testObjective(delay)
		calls := 0
		w, err := NewWorker(nc, WorkerConfig{RunID: env("RUN"), Prefetch: env("PREFETCH") == "1", Objective: func(x []float64) float64 {
			calls++
			if calls == hang {
				fmt.Println("busy")
				select {} // until killed
			}
			return f(x)
		}})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		w.Run(ctx)
	}
	return 0
}

// process is a role running in a child process.
type process struct {
	cmd   *exec.Cmd
	lines chan string
	done  chan error
}

func startRole(t testing.TB, role string, env ...string) *process {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "MMAES_JS_ROLE="+role)
	for _, e := range env {
		cmd.Env = append(cmd.Env, "MMAES_JS_"+e)
	}
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &process{cmd: cmd, lines: make(chan string, 4096), done: make(chan error, 1)}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		io.Copy(io.Discard, out)
		p.done <- cmd.Wait()
		close(p.lines)
	}()
	t.Cleanup(func() { cmd.Process.Kill() })
	return p
}

// waitLine returns the first line of p that starts with prefix.
func (p *process) waitLine(t *testing.T, prefix string, within time.Duration) string {
	t.Helper()
	timeout := time.After(within)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				t.Fatalf("process ended before printing %q", prefix)
			}
			if strings.HasPrefix(l, prefix) {
				return l
			}
		case <-timeout:
			t.Fatalf("no line %q in %v", prefix, within)
		}
	}
}

// kill sends SIGKILL and waits for the process to end.
func (p *process) kill(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for range p.lines {
	}
	if err := <-p.done; err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("process ended with %v, want killed", err)
	}
}

// A worker process killed (SIGKILL) in the middle of a task loses nothing:
// the server delivers the task again after AckWait, it is applied once, and
// the run is the serial run.
func TestWorkerKilled(t *testing.T) {
	ts := startServer(t)
	cfg := testConfig(20)
	want := serial(t, cfg)
	const runID = "killed-worker"
	c, err := NewCoordinator(context.Background(), connect(t, ts.url()), CoordinatorConfig{RunID: runID, Optimizer: cfg, AckWait: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	wait := runInBackground(t, c)
	w := startRole(t, "worker", "URL="+ts.url(), "RUN="+runID, "NAME=doomed", "HANG=7")
	w.waitLine(t, "busy", 30*time.Second)
	w.kill(t)
	startWorkers(t, ts.url(), runID, 3, 0)
	wait()
	sameResult(t, c.Optimizer().Result(), want)
	if st := c.Stats(); st.Redelivered < 1 || st.Applied != want.Evals || st.Duplicate != 0 {
		t.Errorf("stats %+v: want a redelivered task, %d applied, no duplicate", st, want.Evals)
	}
}

// A coordinator process killed (SIGKILL) mid-run and started again resumes
// from its checkpoint and ends with the uninterrupted run's result: at
// n = 8 the checkpoint is a snapshot of every generation, at n = 100 a
// snapshot and a log of the generations since, replayed on resume.
func TestCoordinatorKilled(t *testing.T) {
	for _, n := range []int{8, 100} {
		t.Run(fmt.Sprint(n), func(t *testing.T) { testCoordinatorKilled(t, n) })
	}
}

func testCoordinatorKilled(t *testing.T, n int) {
	ts := startServer(t)
	const gens = 60
	cfg := testConfigN(n, gens)
	want := serial(t, cfg)
	const runID = "killed-coordinator"
	startWorkers(t, ts.url(), runID, 3, 2*time.Millisecond)
	env := []string{"URL=" + ts.url(), "RUN=" + runID, "GENS=" + strconv.Itoa(gens), "N=" + strconv.Itoa(n)}
	first := startRole(t, "coordinator", env...)
	if l := first.waitLine(t, "resumed", 30*time.Second); l != "resumed false" {
		t.Fatalf("first coordinator: %q", l)
	}
	first.waitLine(t, "gen 17", 30*time.Second)
	first.kill(t)
	// What the checkpoint holds now: a snapshot, and at n = 100 a log.
	probe := checkpointStore{kv: testKV(t, connect(t, ts.url())), key: runID, chunk: 1 << 19}
	if _, _, found, err := probe.load(context.Background()); !found || err != nil {
		t.Fatalf("checkpoint after the kill: found %v, %v", found, err)
	}
	// At n = 8 a snapshot every generation; at n = 100 (a 114 KB snapshot,
	// entries of 141 bytes) a snapshot every 13th generation, and the
	// checkpoint of generation 15 to 25 holds a log.
	if (probe.entries > 0) != (n == 100) {
		t.Errorf("n = %d: %d log entries after the kill (snapshot of %d bytes)", n, probe.entries, probe.length)
	}
	second := startRole(t, "coordinator", env...)
	if l := second.waitLine(t, "resumed", 30*time.Second); l != "resumed true" {
		t.Fatalf("second coordinator: %q", l)
	}
	if l := second.waitLine(t, "gen ", 30*time.Second); l == "gen 1" {
		t.Fatalf("the second coordinator started from the beginning")
	}
	second.waitLine(t, "done", 60*time.Second)
	if err := <-second.done; err != nil {
		t.Fatal(err)
	}
	// The result is the one in the checkpoint the second coordinator left.
	c, err := NewCoordinator(context.Background(), connect(t, ts.url()), CoordinatorConfig{RunID: runID, Optimizer: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if !c.Stats().Resumed {
		t.Fatal("no checkpoint")
	}
	sameResult(t, c.Optimizer().Result(), want)
}

// The server restarted mid-run (file store, same port) loses no task or
// result: coordinator and workers reconnect and the run is the serial run.
func TestServerRestarted(t *testing.T) {
	ts := startServer(t)
	const gens = 60
	cfg := testConfig(gens)
	want := serial(t, cfg)
	const runID = "server-restart"
	startWorkers(t, ts.url(), runID, 3, time.Millisecond)
	reached := make(chan struct{})
	nc := connect(t, ts.url())
	c, err := NewCoordinator(context.Background(), nc, CoordinatorConfig{RunID: runID, Optimizer: cfg, AckWait: time.Second,
		Progress: func(p Progress) {
			if p.Generation == 15 {
				close(reached)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	wait := runInBackground(t, c)
	<-reached
	ts.stop()
	time.Sleep(300 * time.Millisecond)
	ts.start()
	wait()
	sameResult(t, c.Optimizer().Result(), want)
	if st := c.Stats(); st.Applied != want.Evals {
		t.Errorf("stats %+v: want %d applied", st, want.Evals)
	}
	if nc.Stats().Reconnects == 0 {
		t.Error("the coordinator never reconnected: the server did not restart under it")
	}
}
