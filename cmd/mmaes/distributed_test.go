package main

import (
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// natsServer starts an embedded nats-server with JetStream on loopback
// (random port, temporary store, a user and password) and returns its URL
// with the credentials.
func natsServer(t *testing.T) string {
	t.Helper()
	return natsServerOn(t, -1)
}

// natsServerOn is natsServer on the given port (-1: a random one).
func natsServerOn(t *testing.T, port int) string {
	t.Helper()
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: port, JetStream: true, StoreDir: t.TempDir(),
		Username: "u", Password: "pw", NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("nats-server not ready")
	}
	t.Cleanup(func() { s.Shutdown(); s.WaitForShutdown() })
	return "nats://u:pw@127.0.0.1:" + strconv.Itoa(s.Addr().(*net.TCPAddr).Port)
}

// cmdOut is the exit status and outputs of a command run by startCmd.
type cmdOut struct {
	code           int
	stdout, stderr string
}

// startCmd runs the command line on a goroutine; its result arrives on the
// channel.
func startCmd(args ...string) <-chan cmdOut {
	c := make(chan cmdOut, 1)
	go func() {
		code, stdout, stderr := exec(args...)
		c <- cmdOut{code, stdout, stderr}
	}()
	return c
}

// `mmaes work` and `mmaes coordinate` against a real server: the run ends
// at the target, the workers evaluated exactly the coordinator's
// evaluations, and the result is `mmaes run`'s for the same seed.
func TestCoordinateWork(t *testing.T) {
	url := natsServer(t)
	// The workers start first and exit once idle: -idle counts from their
	// start, so it must outlast the coordinator's setup on a loaded machine
	// (with 1 s a worker could leave before the first task, and the
	// coordinator waited for results to the test's timeout).
	worked := startCmd("work", "-nats", url, "-run", "cli", "-f", "sp", "-workers", "3", "-idle", "10s", "-q")
	code, stdout, stderr := exec("coordinate", "-nats", url, "-run", "cli", "-f", "sp", "-n", "6", "-seed", "3", "-q", "-stall", "60s")
	if code != 0 || stderr != "" {
		t.Fatalf("coordinate: exit %d, %s%s", code, stdout, stderr)
	}
	w := <-worked
	if w.code != 0 {
		t.Fatalf("work: exit %d, %s%s", w.code, w.stdout, w.stderr)
	}
	m := regexp.MustCompile(`target reached after (\d+) evaluations, (\d+) generations: f = (\S+)`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("coordinate did not reach the target:\n%s", stdout)
	}
	if !strings.Contains(w.stdout, m[1]+" evaluations (0 of redelivered tasks), 0 malformed") {
		t.Errorf("workers: %q, want %s evaluations", w.stdout, m[1])
	}
	if !strings.Contains(stdout, "dropped: 0 duplicate, 0 stale, 0 late, 0 foreign, 0 malformed") {
		t.Errorf("coordinate dropped results:\n%s", stdout)
	}
	for _, out := range []string{stdout, stderr, w.stdout, w.stderr} {
		if strings.Contains(out, ":pw@") {
			t.Errorf("the password is printed:\n%s", out)
		}
	}
	_, serial, _ := exec("run", "-f", "sp", "-n", "6", "-seed", "3", "-q")
	if want := fmt.Sprintf("evaluations: %s in %s generations", m[1], m[2]); !strings.Contains(serial, want) || !strings.Contains(serial, "best f:      "+m[3]+"\n") {
		t.Errorf("mmaes run differs: want %q and f = %s in\n%s", want, m[3], serial)
	}
	// Started again, the coordinator resumes the finished run.
	code, stdout, _ = exec("coordinate", "-nats", url, "-run", "cli", "-f", "sp", "-n", "6", "-seed", "3", "-q", "-stall", "60s")
	if code != 0 || !strings.Contains(stdout, "resumed at generation "+m[2]) {
		t.Errorf("second coordinate: exit %d\n%s", code, stdout)
	}
	// -fresh deletes the checkpoint: the same run again, from the start.
	worked = startCmd("work", "-nats", url, "-run", "cli", "-f", "sp", "-idle", "10s", "-prefetch", "-q")
	code, stdout, _ = exec("coordinate", "-nats", url, "-run", "cli", "-f", "sp", "-n", "6", "-seed", "3", "-q", "-fresh", "-stall", "60s")
	if code != 0 || strings.Contains(stdout, "resumed") || !strings.Contains(stdout, m[0]) {
		t.Errorf("coordinate -fresh: exit %d\n%s", code, stdout)
	}
	<-worked
}

// Without workers `mmaes coordinate -stall` exits with an error that says
// so, and the same command with workers goes on with the run.
func TestCoordinateStall(t *testing.T) {
	url := natsServer(t)
	start := time.Now()
	code, stdout, stderr := exec("coordinate", "-nats", url, "-run", "alone", "-f", "sp", "-n", "4", "-q", "-stall", "300ms")
	if code != 1 || !strings.Contains(stderr, "no result for the stall time: generation 0 of run alone") || time.Since(start) > 30*time.Second {
		t.Fatalf("coordinate without workers: exit %d after %v\n%s%s", code, time.Since(start), stdout, stderr)
	}
	worked := startCmd("work", "-nats", url, "-run", "alone", "-f", "sp", "-idle", "10s", "-q")
	code, stdout, stderr = exec("coordinate", "-nats", url, "-run", "alone", "-f", "sp", "-n", "4", "-q", "-stall", "60s")
	if code != 0 || !strings.Contains(stdout, "resumed at generation 0") || !strings.Contains(stdout, "target reached") {
		t.Errorf("coordinate with a worker: exit %d\n%s%s", code, stdout, stderr)
	}
	<-worked
}

// `mmaes work` started before the server waits for it (-wait), saying so
// once, and then works; a refused login fails at once however long -wait
// is, and with -wait 0 a missing server does.
func TestWorkWaitsForServer(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	url := "nats://u:pw@127.0.0.1:" + strconv.Itoa(port)

	start := time.Now()
	code, _, stderr := exec("work", "-nats", url, "-run", "w", "-f", "sp", "-wait", "0", "-q")
	if code == 0 || strings.Contains(stderr, "waiting") || time.Since(start) > 5*time.Second {
		t.Errorf("-wait 0 without a server: exit %d after %v, stderr %q", code, time.Since(start), stderr)
	}

	worked := startCmd("work", "-nats", url, "-run", "w", "-f", "sp", "-idle", "10s", "-wait", "30s", "-q")
	time.Sleep(700 * time.Millisecond) // the worker is trying by now
	natsServerOn(t, port)
	code, stdout, stderr := exec("coordinate", "-nats", url, "-run", "w", "-f", "sp", "-n", "4", "-seed", "2", "-q", "-stall", "60s")
	if code != 0 || !strings.Contains(stdout, "target reached") {
		t.Fatalf("coordinate: exit %d\n%s%s", code, stdout, stderr)
	}
	w := <-worked
	want := "waiting up to 30s for the NATS server at nats://u:xxxxx@127.0.0.1:" + strconv.Itoa(port)
	if w.code != 0 || strings.Count(w.stderr, want) != 1 || strings.Contains(w.stderr, ":pw@") {
		t.Errorf("work: exit %d, stderr %q; want one %q", w.code, w.stderr, want)
	}
	if !strings.Contains(w.stdout, " evaluations (0 of redelivered tasks)") {
		t.Errorf("work did not evaluate: %q", w.stdout)
	}

	start = time.Now()
	bad := strings.Replace(url, ":pw@", ":wrong@", 1)
	code, _, stderr = exec("work", "-nats", bad, "-run", "w", "-f", "sp", "-wait", "30s", "-q")
	if code == 0 || strings.Contains(stderr, "waiting") || time.Since(start) > 10*time.Second {
		t.Errorf("a refused login: exit %d after %v, stderr %q", code, time.Since(start), stderr)
	}
}

func TestCoordinateWorkBadCommandLines(t *testing.T) {
	for _, args := range [][]string{
		{"coordinate", "-n", "0"},
		{"coordinate", "-f", "nope"},
		{"coordinate", "-deadline", "-1s"},
		{"coordinate", "-ack-wait", "0s"},
		{"coordinate", "-stall", "-1s"},
		{"work", "-workers", "0"},
		{"work", "-workers", "9223372036854775807"},
		{"coordinate", "-n", "9223372036854775807"},
		{"work", "-f", "nope"},
		{"work", "stray"},
		{"work", "-wait", "-1s"},
		{"coordinate", "-wait", "-1s"},
	} {
		if code, _, stderr := exec(args...); code != 2 || !strings.Contains(stderr, "mmaes "+args[0]) {
			t.Errorf("%q: exit %d, %q", args, code, stderr)
		}
	}
	// No server: an error, exit 1.
	if code, _, stderr := exec("coordinate", "-nats", "nats://127.0.0.1:1", "-wait", "0", "-q"); code != 1 || !strings.Contains(stderr, "connecting") {
		t.Errorf("no server: exit %d, %q", code, stderr)
	}
	// Waiting in vain: one line, then the error; neither shows the password.
	if code, _, stderr := exec("work", "-nats", "nats://someone:secret@127.0.0.1:1", "-wait", "600ms", "-q"); code != 1 ||
		!strings.Contains(stderr, "waiting up to 600ms") || !strings.Contains(stderr, "connecting") || strings.Contains(stderr, "secret") {
		t.Errorf("work, no server: exit %d, %q (and no password)", code, stderr)
	}
}

// TestRedacted: no password of a server URL, or of any URL of a
// comma-separated list, reaches a message, also when nats.go quotes the
// URL in its error or the URL does not parse.
func TestRedacted(t *testing.T) {
	for _, c := range []struct{ url, want string }{
		{"nats://u:secret@127.0.0.1:4222", "nats://u:xxxxx@127.0.0.1:4222"},
		{"nats://u:secret@h1:1,nats://v:pw2@h2:2", "nats://u:xxxxx@h1:1,nats://v:xxxxx@h2:2"},
		{"nats://u:secret@127.0.0.1:bad", "(an unparsable URL)"},
		{"u:secret@h:4222", "nats://u:xxxxx@h:4222"}, // no scheme: nats.go adds nats://
		{"127.0.0.1:4222", "nats://127.0.0.1:4222"},
	} {
		if got := redacted(c.url); got != c.want {
			t.Errorf("redacted(%q) = %q, want %q", c.url, got, c.want)
		}
	}
	for _, c := range []struct{ url, msg string }{
		{"nats://u:secret@h1:1,nats://v:pw2@h2:2", `dial nats://u:secret@h1:1 and nats://v:pw2@h2:2: refused`},
		{"nats://u:secret@127.0.0.1:bad", `parse "nats://u:secret@127.0.0.1:bad": invalid port`},
		{"u:secret@h:bad", `parse "nats://u:secret@h:bad": invalid port`},
	} {
		got := redactedError(fmt.Errorf("%s", c.msg), c.url).Error()
		if strings.Contains(got, "secret") || strings.Contains(got, "pw2") {
			t.Errorf("redactedError(%q) = %q: a password", c.msg, got)
		}
		if !strings.Contains(got, "xxxxx") {
			t.Errorf("redactedError(%q) = %q: nothing redacted", c.msg, got)
		}
	}
	// A message without credentials is kept as it is, short passwords
	// included.
	msg := "nats: no servers available for connection"
	for _, url := range []string{"127.0.0.1:4222", "nats://u:nats@h:1"} {
		if got := redactedError(fmt.Errorf("%s", msg), url).Error(); got != msg {
			t.Errorf("redactedError(%q, %q) = %q", msg, url, got)
		}
	}
}
