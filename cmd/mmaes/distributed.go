package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	neturl "net/url"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mmaes-go/mmaes"
	"github.com/mmaes-go/mmaes/jetstream"
	"github.com/nats-io/nats.go"
)

// runFlags defines the flags coordinate and work share: the server (by
// default $NATS_URL, else the local default; credentials go in the URL),
// how long to wait for it at start, the run id and the test function,
// which must be the same on both sides.
func runFlags(fs *flag.FlagSet) (url *string, wait *time.Duration, runID, fname *string) {
	def := nats.DefaultURL
	if u := os.Getenv("NATS_URL"); u != "" {
		def = u
	}
	url = fs.String("nats", def, "NATS server URL, with the credentials in it (nats://user:password@host:4222); $NATS_URL sets the default")
	wait = fs.Duration("wait", time.Minute, "at start, keep trying this long to reach a server that is not up yet (0: give up at once); a refused login fails at once")
	runID = fs.String("run", "demo", "run id: names the run's subjects, consumers and checkpoint (the same for coordinate and work)")
	fname = fs.String("f", "ell", "test function (short name, as in mmaes run; the same for coordinate and work)")
	return url, wait, runID, fname
}

// connectRetry is the pause between two attempts to reach a server that is
// not up yet.
const connectRetry = 250 * time.Millisecond

// connectNATS connects to url, reconnecting forever once connected (a run
// outlives a server restart). While no server answers (nats.ErrNoServers)
// it tries again for up to wait, saying so once on stderr, until ctx ends;
// any other error (a refused login, a bad URL) returns at once.
func connectNATS(ctx context.Context, url, name string, wait time.Duration, stderr io.Writer) (*nats.Conn, error) {
	deadline := time.Now().Add(wait)
	said := false
	for {
		nc, err := nats.Connect(url, nats.Name(name), nats.MaxReconnects(-1), nats.ReconnectWait(connectRetry))
		if err == nil {
			return nc, nil
		}
		if !errors.Is(err, nats.ErrNoServers) || !time.Now().Before(deadline) {
			return nil, fmt.Errorf("connecting to %s: %w", redacted(url), redactedError(err, url))
		}
		if !said {
			fmt.Fprintf(stderr, "waiting up to %v for the NATS server at %s (%v)\n", wait, redacted(url), redactedError(err, url))
			said = true
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("connecting to %s: %w", redacted(url), ctx.Err())
		case <-time.After(connectRetry):
		}
	}
}

// redacted is a server URL, or a comma-separated list of them as nats.go
// takes, with every password replaced by "xxxxx"; an entry that does not
// parse is not shown at all.
func redacted(s string) string {
	parts := strings.Split(s, ",")
	for i, p := range parts {
		u, err := parseServerURL(p)
		if err != nil {
			parts[i] = "(an unparsable URL)"
			continue
		}
		parts[i] = u.Redacted()
	}
	return strings.Join(parts, ",")
}

// parseServerURL parses one server URL of a -nats list, with "nats://"
// before an address without a scheme, as nats.go reads it.
func parseServerURL(s string) (*neturl.URL, error) {
	s = strings.TrimSpace(s)
	if !strings.Contains(s, "://") {
		s = "nats://" + s
	}
	return neturl.Parse(s)
}

// redactedError is err with the user information of every URL in s (up
// to its last '@', whether the URL parses or not) replaced by "xxxxx"
// wherever its message quotes it: nats.go's errors quote the URL they
// failed on.
func redactedError(err error, s string) error {
	msg := err.Error()
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if at := strings.LastIndex(p, "@"); at >= 0 {
			start := 0
			if i := strings.Index(p, "://"); i >= 0 && i < at {
				start = i + 3
			}
			msg = strings.ReplaceAll(msg, p[start:at+1], "xxxxx@")
		}
	}
	return errors.New(msg)
}

// interrupted returns the context of a command that SIGINT (Ctrl-C) and
// SIGTERM stop.
func interrupted() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// coordinateCmd is `mmaes coordinate`: the coordinator of a distributed run
// of a test function, resumed from its checkpoint when the run id has one.
func coordinateCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("coordinate", stderr)
	url, wait, runID, fname := runFlags(fs)
	n := fs.Int("n", 16, "dimension")
	update := fs.String("update", "mma", "matrix update: mma, ecma, cholesky or lmma")
	seed := fs.Uint64("seed", 1, "random seed")
	lambda := fs.Int("lambda", 0, "population size (0: the paper's 4 + ⌊3 ln n⌋); a multiple of the number of workers keeps them all busy")
	maxEvals := fs.Int("max-evals", 0, "evaluation budget (0: the library's default stops)")
	deadline := fs.Duration("deadline", 0, "end a generation this long after it was published with the results that arrived (0: wait for all)")
	ackWait := fs.Duration("ack-wait", 30*time.Second, "time after which the task of a silent worker is delivered again")
	fresh := fs.Bool("fresh", false, "delete the run's checkpoint first and start over")
	maxDeliver := fs.Int("max-deliver", 0, "abandon a task delivered this often without a result, its candidate told as NaN (0: 5; -1: no limit)")
	stall := fs.Duration("stall", 0, "exit with an error when a generation gets no result for this long (0: wait for workers forever); the same command resumes the run")
	quiet := fs.Bool("q", false, "no progress line")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := jetstream.CheckRunID(*runID); err != nil {
		return fmt.Errorf("%w: -run: %v", errUsage, err)
	}
	fn, err := lookupFunction(*fname)
	if err != nil {
		return err
	}
	u, err := parseUpdate(*update)
	if err != nil {
		return err
	}
	if err := checkDimFlag("n", *n); err != nil {
		return err
	}
	if *n < 1 || *lambda < 0 || *maxEvals < 0 || *deadline < 0 || *ackWait <= 0 || *wait < 0 || *stall < 0 || *maxDeliver < -1 {
		return fmt.Errorf("%w: -n and -ack-wait must be positive, -lambda, -max-evals, -deadline, -wait and -stall not negative, -max-deliver ≥ -1", errUsage)
	}
	p := problem{fn: fn, n: *n}
	cfg := p.config(u, *seed, *maxEvals)
	cfg.Lambda = *lambda

	ctx, stop := interrupted()
	defer stop()
	nc, err := connectNATS(ctx, *url, "mmaes coordinate "+*runID, *wait, stderr)
	if err != nil {
		return err
	}
	defer nc.Close()
	if *fresh {
		if err := jetstream.DeleteRun(ctx, nc, "", *runID); err != nil {
			return err
		}
	}
	prog := newProgress(stderr, !*quiet)
	start := time.Now()
	c, err := jetstream.NewCoordinator(ctx, nc, jetstream.CoordinatorConfig{
		RunID: *runID, Optimizer: cfg, Deadline: *deadline, AckWait: *ackWait, Stall: *stall, MaxDeliver: *maxDeliver,
		Progress: func(pr jetstream.Progress) {
			if !prog.due() {
				return
			}
			s := pr.Stats
			dropped := s.Duplicate + s.Stale + s.Late + s.Foreign + s.Malformed
			prog.show(fmt.Sprintf("gen %d  evals %d  best f %.6g  σ %.3g  %.0f evals/s  dropped %d",
				pr.Generation, pr.Evals, pr.BestF, pr.Sigma, float64(s.Applied)/time.Since(start).Seconds(), dropped))
		},
	})
	if err != nil {
		if errors.Is(err, mmaes.ErrInvalidConfig) {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		return err
	}
	opt := c.Optimizer()
	if c.Stats().Resumed {
		// The checkpoint holds the run's configuration: this command's
		// -f, -n, -update, -seed and -lambda do not apply to it.
		fmt.Fprintf(stdout, "run %s resumed at generation %d from its checkpoint: n = %d, %s, λ = %d (this command's problem flags are not used; -fresh starts over)\n",
			*runID, opt.Generation(), opt.Dim(), opt.Update(), opt.Lambda())
	} else {
		fmt.Fprintf(stdout, "run %s: %s, n = %d, %s, λ = %d, seed %d\n", *runID, fn.Name, *n, u, opt.Lambda(), *seed)
	}
	fmt.Fprintf(stdout, "tasks on %s; workers: mmaes work -run %s -f %s\n", nc.ConnectedUrlRedacted(), *runID, *fname)
	gen0, evals0 := opt.Generation(), opt.Evals()
	// Say so when no result comes for a while: no worker of this run?
	watch := make(chan struct{})
	go func() {
		last, since := -1, time.Now()
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-watch:
				return
			case <-tick.C:
				if a := c.Stats().Applied; a != last {
					last, since = a, time.Now()
				} else if time.Since(since) >= 10*time.Second {
					prog.show(fmt.Sprintf("no result for %.0f s: is a worker of run %s running (mmaes work -run %s)?",
						time.Since(since).Seconds(), *runID, *runID))
				}
			}
		}
	}()
	res, err := c.Run(ctx)
	close(watch)
	prog.done()
	wall := time.Since(start)
	st := c.Stats()
	if ctx.Err() != nil && errors.Is(err, context.Canceled) {
		fmt.Fprintf(stdout, "interrupted at generation %d (f = %.6g after %d evaluations); run the same command again to resume\n",
			res.Generations, res.F, res.Evals)
		return nil
	}
	fmt.Fprintf(stdout, "%s after %d evaluations, %d generations: f = %.6g\n", res.Reason, res.Evals, res.Generations, res.F)
	gens := res.Generations - gen0
	if gens > 0 {
		fmt.Fprintf(stdout, "this coordinator: %d evaluations in %.2f s (%.1f/s), overhead %.3f ms a generation (tell, ask, publish)\n",
			res.Evals-evals0, wall.Seconds(), float64(res.Evals-evals0)/wall.Seconds(), st.Overhead.Seconds()*1e3/float64(gens))
	}
	fmt.Fprintf(stdout, "results: %d applied (%d redelivered tasks, %d tasks published again, %d abandoned: told as NaN); dropped: %d duplicate, %d stale, %d late, %d foreign, %d malformed\n",
		st.Applied, st.Redelivered, st.Republished, st.Abandoned, st.Duplicate, st.Stale, st.Late, st.Foreign, st.Malformed)
	return err
}

// workCmd is `mmaes work`: a worker evaluating a test function for a run.
func workCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("work", stderr)
	url, wait, runID, fname := runFlags(fs)
	delay := fs.Duration("delay", 0, "sleep this long in every evaluation, standing in for an expensive objective")
	workers := fs.Int("workers", 1, "workers in this process, each with its own connection")
	idle := fs.Duration("idle", 0, "exit after this long without a task (0: run until interrupted)")
	prefetch := fs.Bool("prefetch", false, "fetch the next task while evaluating one (saves a round trip a task; for evaluations of equal length)")
	quiet := fs.Bool("q", false, "no progress line")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := jetstream.CheckRunID(*runID); err != nil {
		return fmt.Errorf("%w: -run: %v", errUsage, err)
	}
	fn, err := lookupFunction(*fname)
	if err != nil {
		return err
	}
	if *workers < 1 || *delay < 0 || *idle < 0 || *wait < 0 {
		return fmt.Errorf("%w: -workers must be positive, -delay, -idle and -wait not negative", errUsage)
	}
	if err := checkWorkersFlag("workers", *workers, 1); err != nil {
		return err
	}
	ctx, stop := interrupted()
	defer stop()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	var last atomic.Int64 // unix nanoseconds of the last evaluation
	last.Store(time.Now().UnixNano())
	var evaluated atomic.Int64
	objective := func(x []float64) float64 {
		if *delay > 0 {
			time.Sleep(*delay)
		}
		evaluated.Add(1)
		last.Store(time.Now().UnixNano())
		return fn.F(x)
	}
	ws := make([]*jetstream.Worker, *workers)
	for i := range ws {
		nc, err := connectNATS(ctx, *url, fmt.Sprintf("mmaes work %s %d", *runID, i), *wait, stderr)
		if err != nil {
			return err
		}
		defer nc.Close()
		if ws[i], err = jetstream.NewWorker(nc, jetstream.WorkerConfig{RunID: *runID, Objective: objective, Prefetch: *prefetch}); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "%d worker(s) of run %s on %s: %s\n", *workers, *runID, redacted(*url), fn.Name)
	done := make(chan struct{})
	for _, w := range ws {
		go func() {
			w.Run(ctx)
			done <- struct{}{}
		}()
	}
	prog := newProgress(stderr, !*quiet)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	running := len(ws)
	for running > 0 {
		select {
		case <-done:
			running--
		case <-tick.C:
			if *idle > 0 && time.Since(time.Unix(0, last.Load())) > *idle {
				cancel()
			}
			if prog.due() {
				prog.show(fmt.Sprintf("%d evaluations", evaluated.Load()))
			}
		}
	}
	prog.done()
	var redelivered, malformed int
	for _, w := range ws {
		s := w.Stats()
		redelivered += s.Redelivered
		malformed += s.Malformed
	}
	fmt.Fprintf(stdout, "%d evaluations (%d of redelivered tasks), %d malformed tasks\n", evaluated.Load(), redelivered, malformed)
	return nil
}
