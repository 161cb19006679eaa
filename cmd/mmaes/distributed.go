package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"time"

	"github.com/mmaes-go/mmaes"
	"github.com/mmaes-go/mmaes/jetstream"
	"github.com/nats-io/nats.go"
)

// runFlags defines the flags coordinate and work share: the server (by
// default $NATS_URL, else the local default; credentials go in the URL),
// the run id and the test function, which must be the same on both sides.
func runFlags(fs *flag.FlagSet) (url, runID, fname *string) {
	def := nats.DefaultURL
	if u := os.Getenv("NATS_URL"); u != "" {
		def = u
	}
	url = fs.String("nats", def, "NATS server URL, credentials included (nats://user:password@host:4222); default $NATS_URL")
	runID = fs.String("run", "demo", "run id: names the run's subjects, consumers and checkpoint (the same for coordinate and work)")
	fname = fs.String("f", "ell", "test function (short name, as in mmaes run; the same for coordinate and work)")
	return url, runID, fname
}

// connectNATS connects to url, reconnecting forever: a run outlives a
// server restart.
func connectNATS(url, name string) (*nats.Conn, error) {
	nc, err := nats.Connect(url, nats.Name(name), nats.MaxReconnects(-1), nats.ReconnectWait(250*time.Millisecond))
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", url, err)
	}
	return nc, nil
}

// coordinateCmd is `mmaes coordinate`: the coordinator of a distributed run
// of a test function, resumed from its checkpoint when the run id has one.
func coordinateCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("coordinate", stderr)
	url, runID, fname := runFlags(fs)
	n := fs.Int("n", 16, "dimension")
	update := fs.String("update", "mma", "matrix update: mma, ecma, cholesky or lmma")
	seed := fs.Uint64("seed", 1, "random seed")
	lambda := fs.Int("lambda", 0, "population size (0: the paper's 4 + ⌊3 ln n⌋); a multiple of the number of workers keeps them all busy")
	maxEvals := fs.Int("max-evals", 0, "evaluation budget (0: the library's default stops)")
	deadline := fs.Duration("deadline", 0, "end a generation this long after it was published with the results that arrived (0: wait for all)")
	ackWait := fs.Duration("ack-wait", 30*time.Second, "time after which the task of a silent worker is delivered again")
	fresh := fs.Bool("fresh", false, "delete the run's checkpoint first and start over")
	quiet := fs.Bool("q", false, "no progress line")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	fn, err := lookupFunction(*fname)
	if err != nil {
		return err
	}
	u, err := parseUpdate(*update)
	if err != nil {
		return err
	}
	if *n < 1 || *lambda < 0 || *maxEvals < 0 || *deadline < 0 || *ackWait <= 0 {
		return fmt.Errorf("%w: -n and -ack-wait must be positive, -lambda, -max-evals and -deadline not negative", errUsage)
	}
	p := problem{fn: fn, n: *n}
	cfg := p.config(u, *seed, *maxEvals)
	cfg.Lambda = *lambda

	nc, err := connectNATS(*url, "mmaes coordinate "+*runID)
	if err != nil {
		return err
	}
	defer nc.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *fresh {
		if err := jetstream.DeleteRun(ctx, nc, "", *runID); err != nil {
			return err
		}
	}
	prog := newProgress(stderr, !*quiet)
	start := time.Now()
	c, err := jetstream.NewCoordinator(ctx, nc, jetstream.CoordinatorConfig{
		RunID: *runID, Optimizer: cfg, Deadline: *deadline, AckWait: *ackWait,
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
	resumed := ""
	if c.Stats().Resumed {
		resumed = fmt.Sprintf(", resumed at generation %d", opt.Generation())
	}
	fmt.Fprintf(stdout, "run %s: %s, n = %d, %s, λ = %d, seed %d%s; tasks on %s\n",
		*runID, fn.Name, *n, u, opt.Lambda(), *seed, resumed, nc.ConnectedUrlRedacted())
	gen0, evals0 := opt.Generation(), opt.Evals()
	res, err := c.Run(ctx)
	prog.done()
	wall := time.Since(start)
	st := c.Stats()
	fmt.Fprintf(stdout, "%s after %d evaluations, %d generations: f = %.6g\n", res.Reason, res.Evals, res.Generations, res.F)
	gens := res.Generations - gen0
	if gens > 0 {
		fmt.Fprintf(stdout, "this coordinator: %d evaluations in %.2f s (%.1f/s), overhead %.3f ms a generation (tell, checkpoint, ask, publish)\n",
			res.Evals-evals0, wall.Seconds(), float64(res.Evals-evals0)/wall.Seconds(), st.Overhead.Seconds()*1e3/float64(gens))
	}
	fmt.Fprintf(stdout, "results: %d applied (%d redelivered tasks); dropped: %d duplicate, %d stale, %d late, %d foreign, %d malformed\n",
		st.Applied, st.Redelivered, st.Duplicate, st.Stale, st.Late, st.Foreign, st.Malformed)
	return err
}

// workCmd is `mmaes work`: a worker evaluating a test function for a run.
func workCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("work", stderr)
	url, runID, fname := runFlags(fs)
	delay := fs.Duration("delay", 0, "sleep this long in every evaluation, standing in for an expensive objective")
	workers := fs.Int("workers", 1, "workers in this process, each with its own connection")
	idle := fs.Duration("idle", 0, "exit after this long without a task (0: run until interrupted)")
	prefetch := fs.Bool("prefetch", false, "fetch the next task while evaluating one (saves a round trip a task; for evaluations of equal length)")
	quiet := fs.Bool("q", false, "no progress line")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	fn, err := lookupFunction(*fname)
	if err != nil {
		return err
	}
	if *workers < 1 || *delay < 0 || *idle < 0 {
		return fmt.Errorf("%w: -workers must be positive, -delay and -idle not negative", errUsage)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
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
		nc, err := connectNATS(*url, fmt.Sprintf("mmaes work %s %d", *runID, i))
		if err != nil {
			return err
		}
		defer nc.Close()
		if ws[i], err = jetstream.NewWorker(nc, jetstream.WorkerConfig{RunID: *runID, Objective: objective, Prefetch: *prefetch}); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "%d worker(s) of run %s on %s: %s\n", *workers, *runID, *url, fn.Name)
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
