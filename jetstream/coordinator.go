package jetstream

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/mmaes-go/mmaes"
	"github.com/nats-io/nats.go"
	natsjs "github.com/nats-io/nats.go/jetstream"
)

// ErrReplaced is returned by Run when another coordinator of the run took
// it over (started with the same RunID while this one ran): this one
// stops and leaves the run to it.
var ErrReplaced = errors.New("jetstream: another coordinator took over the run")

// ErrStalled is returned by Run (wrapped, with the generation and how long
// it waited) when CoordinatorConfig.Stall is set and no result of the
// generation in progress was applied for that long: no worker of the run
// is running, say. The run is left as it was, its last generation
// checkpointed: a coordinator started again with the same RunID (or Run
// called again) resumes it, once workers are there. The results that Run
// had received for that generation are dropped with it (Stats still
// counts them as applied) and the generation is published anew.
var ErrStalled = errors.New("jetstream: no result for the stall time")

// CoordinatorConfig configures a Coordinator.
type CoordinatorConfig struct {
	// RunID names the run: its subjects, consumers and checkpoint key. 1 to
	// 64 characters from A–Z, a–z, 0–9, '-' and '_'. Workers of the run
	// use the same RunID.
	RunID string
	// Prefix names the streams ("<Prefix>_tasks", "<Prefix>_results"), the
	// subjects ("<Prefix>.task.<RunID>.<generation>",
	// "<Prefix>.result.<RunID>") and the key-value bucket
	// ("<Prefix>_checkpoints"); empty: DefaultPrefix.
	Prefix string
	// Optimizer configures a new run. When the bucket holds a checkpoint
	// for RunID the coordinator resumes it instead and Optimizer is not
	// used (the checkpoint holds the whole state, configuration included).
	Optimizer mmaes.Config
	// Deadline, when positive, ends a generation that long after its tasks
	// were published with the results that have arrived (at least one;
	// mmaes.Optimizer.TellSome): the others' tasks are purged and their
	// results, should they come, are dropped as late. Zero: a generation
	// waits for all its results, and the run is the serial run's bit for
	// bit.
	Deadline time.Duration
	// AckWait is how long a worker may hold a task without acknowledging
	// it (workers extend it while they evaluate) before the server
	// delivers the task again, to another worker: the time it takes to
	// notice a worker that died, and to recover a task or result that was
	// on its way when the server restarted. The coordinator's own
	// consumer of results uses it too. Zero: 30 s; at least 100 ms.
	AckWait time.Duration
	// Stall, when positive, makes Run return ErrStalled once a generation
	// has had no result applied for that long (counted from its tasks'
	// publication, then from its last result applied), unless a Deadline
	// still to come will end it with the results it has. Zero: wait for
	// workers forever, as a run whose workers start later needs. A Stall
	// shorter than the evaluation of one candidate stops every run. Run
	// called again publishes the generation anew.
	Stall time.Duration
	// MaxDeliver bounds the deliveries of a task: a task delivered that
	// often without a result (its evaluation killed every worker that took
	// it: os.Exit, a fault in C code, the OOM killer) is abandoned instead
	// of going on to crash worker after worker, and its candidate is told
	// as NaN (infeasible). That happens at least MaxDeliver × AckWait after
	// its first delivery (2.5 min at the defaults), once no task of the
	// generation is left to deliver or with a worker and no result came for
	// 2 s; a candidate whose task is gone but whose result was lost is
	// published again instead. The run then differs from the serial run in
	// the abandoned candidates. Zero: 5; −1: no limit (such a task is
	// delivered for ever).
	MaxDeliver int
	// Progress, when not nil, is called after every generation, once the
	// next one is published and while its checkpoint is being stored (on
	// the goroutine of Run).
	Progress func(Progress)
}

// Progress is what a coordinator reports after each generation.
type Progress struct {
	Generation int     // generations told
	Evals      int     // evaluations told
	BestF      float64 // best fitness so far
	Sigma      float64
	Received   int // results applied in this generation
	Stats      Stats
}

// Stats counts what a coordinator received and did. Results that are not
// applied are counted by the reason they were dropped.
type Stats struct {
	Published   int // tasks published
	Applied     int // results applied to a generation
	Duplicate   int // a second result for a candidate that has one
	Stale       int // a result for an earlier generation of this run
	Late        int // a result of the last generation ended at its deadline, after it
	Foreign     int // run id, index or check not of a candidate waited for
	Malformed   int // not a result message of this version
	Redelivered int // applied results whose task had been delivered more than once
	Republished int // tasks published again because their results were lost
	Abandoned   int // candidates told as NaN: their task was delivered MaxDeliver times without a result
	Resumed     bool
	// Overhead is the time the coordinator spent between a generation's
	// last result and the next generation's last task published (Tell,
	// Ask, publishing): the time the workers wait for it. Checkpoint is
	// the time spent storing checkpoints, while the workers evaluate the
	// generation just published.
	Overhead, Checkpoint time.Duration
}

// A Coordinator owns one run's optimizer and farms its evaluations out to
// Workers through JetStream: each generation's candidates go out as tasks
// on a work-queue stream, each worker pulls tasks one at a time and
// publishes results, and after every generation the optimizer's checkpoint
// (mmaes.Optimizer.MarshalBinary) is stored in a key-value bucket, from
// which a coordinator started again with the same RunID resumes.
//
// Guarantees: a task is delivered at least once (a task whose worker dies
// unacknowledged is delivered again after AckWait); a candidate's value is
// applied at most once, and only when its run id, generation, index and
// check (a hash of the candidate's bits) match a candidate the coordinator
// is waiting for. The checkpoint is a snapshot and a log of the values
// told since (docs/distributed.md in the repository). A coordinator that
// dies repeats at most the evaluations of the generation in progress and
// of the one before: the next one restores the checkpoint, asks that
// generation again (the same candidates, bit for bit), publishes it again
// and accepts the results of the earlier tasks too. Without a Deadline
// the run is the serial run's, bit for bit, whatever the workers, crashes
// and restarts.
type Coordinator struct {
	cfg   CoordinatorConfig
	names names
	js    natsjs.JetStream
	ckpt  checkpointStore

	opt *mmaes.Optimizer
	// incarnation tells this coordinator's task message ids from those of
	// an earlier coordinator of the run, so that a generation published
	// again after a crash is not taken for a duplicate publish.
	incarnation string

	mu    sync.Mutex
	stats Stats

	xs         [][]float64 // the candidates published last
	seqs       []uint64    // the stream sequence of each one's task as last published
	cutGen     uint64      // the last generation ended at its deadline
	cutChecks  []uint64    // its checks; nil: none
	checkpoint []byte      // the last snapshot taken
	entry      []byte      // the last log entry
	storing    chan error  // the store in flight, nil when none
	purged     bool        // the tasks of an earlier coordinator
	published  int         // publications of tasks (numbers the message ids)
	ran        bool        // Run was called before
	rerun      bool        // the next generation published is one an earlier Run left
}

// NewCoordinator creates the streams, the bucket and the consumers of the
// run when they do not exist, and loads the run's checkpoint when there is
// one (Stats().Resumed) and takes the run over: a coordinator still
// running it stops with ErrReplaced. When that coordinator stores a
// generation between the load and the takeover, NewCoordinator loads the
// newer checkpoint and tries again (up to 10 times). nc should reconnect forever
// (nats.MaxReconnects(-1)) for the run to survive a server restart.
func NewCoordinator(ctx context.Context, nc *nats.Conn, cfg CoordinatorConfig) (*Coordinator, error) {
	n, err := newNames(cfg.Prefix, cfg.RunID)
	if err != nil {
		return nil, err
	}
	if cfg.Deadline < 0 || cfg.AckWait < 0 || cfg.Stall < 0 {
		return nil, errors.New("jetstream: Deadline, AckWait and Stall must not be negative")
	}
	if cfg.MaxDeliver < -1 {
		return nil, fmt.Errorf("jetstream: MaxDeliver %d: must be ≥ 1, 0 (5) or −1 (no limit)", cfg.MaxDeliver)
	}
	if cfg.MaxDeliver == 0 {
		cfg.MaxDeliver = defaultMaxDeliver
	}
	if cfg.AckWait > 0 && cfg.AckWait < minAckWait {
		return nil, fmt.Errorf("jetstream: AckWait %v: below the minimum of %v (0: 30 s)", cfg.AckWait, minAckWait)
	}
	if cfg.AckWait == 0 {
		cfg.AckWait = 30 * time.Second
	}
	js, err := natsjs.New(nc, natsjs.WithPublishAsyncTimeout(5*time.Second))
	if err != nil {
		return nil, fmt.Errorf("jetstream: %w", err)
	}
	kv, err := ensureStreams(ctx, js, n)
	if err != nil {
		return nil, err
	}
	if _, err := js.CreateOrUpdateConsumer(ctx, n.taskStream(), natsjs.ConsumerConfig{
		Durable:       n.workConsumer(),
		FilterSubject: n.taskFilter(),
		AckPolicy:     natsjs.AckExplicitPolicy,
		AckWait:       cfg.AckWait,
		MaxAckPending: -1,
		MaxDeliver:    cfg.MaxDeliver,
	}); err != nil {
		return nil, fmt.Errorf("jetstream: consumer %s: %w", n.workConsumer(), err)
	}
	if _, err := js.CreateOrUpdateConsumer(ctx, n.resultStream(), natsjs.ConsumerConfig{
		Durable:       n.coordConsumer(),
		FilterSubject: n.resultSubject(),
		AckPolicy:     natsjs.AckExplicitPolicy,
		AckWait:       cfg.AckWait,
		MaxAckPending: -1,
	}); err != nil {
		return nil, fmt.Errorf("jetstream: consumer %s: %w", n.coordConsumer(), err)
	}
	var inc [8]byte
	rand.Read(inc[:])
	c := &Coordinator{cfg: cfg, names: n, js: js, incarnation: hex.EncodeToString(inc[:])}

	chunk := max(int(nc.MaxPayload())-chunkHeadroom, 1024)
	// A start that loses a race to another coordinator's store (the
	// running one committing a generation between this one's load and
	// its claim, or a new run's first snapshot stored by another) is not a
	// takeover of this one: load again, and claim again.
	for attempt := 1; ; attempt++ {
		err := c.start(ctx, kv, chunk)
		if err == nil {
			return c, nil
		}
		var race loadRace
		if !errors.Is(err, ErrReplaced) && !errors.As(err, &race) || attempt == startAttempts || ctx.Err() != nil {
			return nil, err
		}
	}
}

// defaultMaxDeliver is MaxDeliver's default.
const defaultMaxDeliver = 5

// minAckWait is the shortest AckWait a coordinator takes: workers report
// a task in progress every third of it.
const minAckWait = 100 * time.Millisecond

// beforeClaim, when set (by the tests), runs between the load of a
// checkpoint and the claim of the run.
var beforeClaim func()

// afterTell, when set (by the tests), runs in Run after each generation is
// told, before the next one is published and the checkpoint stored.
var afterTell func(generation int)

// startAttempts bounds the loads and claims of NewCoordinator.
const startAttempts = 10

// loadRace wraps an error of loading the checkpoint, which a running
// coordinator's store may cause (it deletes the chunks its new manifest
// no longer names).
type loadRace struct{ error }

func (e loadRace) Unwrap() error { return e.error }

// start loads the run's checkpoint and claims the run, or, when there is
// none, makes the optimizer and stores its first snapshot.
func (c *Coordinator) start(ctx context.Context, kv natsjs.KeyValue, chunk int) error {
	n := c.names
	c.ckpt = checkpointStore{kv: kv, key: n.runID, chunk: chunk, self: c.incarnation}
	c.stats.Resumed = false
	snapshot, log, found, err := c.ckpt.load(ctx)
	switch {
	case err != nil:
		return loadRace{fmt.Errorf("jetstream: checkpoint of run %s: %w", n.runID, err)}
	case found:
		c.opt = new(mmaes.Optimizer)
		if err := c.opt.UnmarshalBinary(snapshot); err != nil {
			return fmt.Errorf("jetstream: checkpoint of run %s: %w", n.runID, err)
		}
		err := replay(log, c.ckpt.entries, func(idx []int, fit []float64) error {
			c.opt.Ask()
			if idx == nil {
				return c.opt.Tell(fit)
			}
			return c.opt.TellSome(idx, fit)
		})
		if err != nil {
			return fmt.Errorf("jetstream: checkpoint of run %s: %w", n.runID, err)
		}
		if beforeClaim != nil {
			beforeClaim()
		}
		// Take the run over: a coordinator of it still running sees its
		// manifest replaced and stops.
		if err := c.storeWith(ctx, c.ckpt.claim); err != nil {
			return err
		}
		c.stats.Resumed = true
	default:
		if c.opt, err = mmaes.New(c.cfg.Optimizer); err != nil {
			return err
		}
		if err := c.storeSnapshot(ctx); err != nil {
			return err
		}
	}
	return nil
}

// storeSnapshot stores a snapshot of the optimizer as it is, and waits
// for the store.
func (c *Coordinator) storeSnapshot(ctx context.Context) error {
	var err error
	if c.checkpoint, err = c.opt.AppendBinary(c.checkpoint[:0]); err != nil {
		return err
	}
	return c.storeWith(ctx, func(ctx context.Context) error { return c.ckpt.storeSnapshot(ctx, c.checkpoint) })
}

// Optimizer returns the run's optimizer. It must not be used while Run
// runs.
func (c *Coordinator) Optimizer() *mmaes.Optimizer { return c.opt }

// Stats returns the counts so far; it may be called while Run runs.
func (c *Coordinator) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

// Run runs generations until the optimizer stops or ctx ends, and returns
// the optimizer's Result. It returns an error when ctx ends (a checkpoint
// being stored then gets a few seconds to finish), when the checkpoint
// cannot be stored, and ErrReplaced (wrapped) when another coordinator of
// the run took it over: two coordinators of one run never both go on.
func (c *Coordinator) Run(ctx context.Context) (mmaes.Result, error) {
	defer c.waitStore()
	c.rerun, c.ran = c.ran, true
	if c.rerun {
		// Run again: the last Run may have ended between a Tell and the
		// store of its log entry, or with a store that failed. A snapshot
		// of the optimizer as it is makes the checkpoint whole again, and
		// its store fails with ErrReplaced if another coordinator took
		// the run over in between (before anything is published or purged).
		if err := c.waitStore(); errors.Is(err, ErrReplaced) {
			return c.opt.Result(), err
		}
		if err := c.storeSnapshot(ctx); err != nil {
			return c.opt.Result(), err
		}
	}
	var cons natsjs.Consumer
	err := retry(ctx, func(ctx context.Context) error {
		var err error
		cons, err = c.js.Consumer(ctx, c.names.resultStream(), c.names.coordConsumer())
		return err
	})
	if err != nil {
		return c.opt.Result(), fmt.Errorf("jetstream: %w", err)
	}
	msgs := make(chan natsjs.Msg, 1024)
	done := make(chan struct{})
	cc, err := cons.Consume(func(m natsjs.Msg) {
		select {
		case msgs <- m:
		case <-done: // left unacknowledged: delivered again to the next coordinator
		}
	}, natsjs.PullMaxMessages(512))
	if err != nil {
		return c.opt.Result(), fmt.Errorf("jetstream: %w", err)
	}
	defer cc.Stop()
	defer close(done)
	var owner <-chan natsjs.KeyValueEntry
	if w, err := c.ckpt.kv.Watch(ctx, c.names.runID, natsjs.UpdatesOnly()); err == nil {
		defer w.Stop()
		owner = w.Updates()
	}

	// Each generation: collect, tell, ask and publish the next one, and
	// only then store the checkpoint (taken after Ask: it holds the
	// published candidates), while the workers evaluate.
	lastResult := time.Now()
	gen, checks, err := c.next(ctx)
	if err != nil {
		return c.opt.Result(), err
	}
	for checks != nil {
		idx, fit, err := c.collect(ctx, msgs, owner, gen, checks)
		if err != nil {
			return c.opt.Result(), err
		}
		lastResult = time.Now()
		all := len(idx) == len(checks)
		if all {
			err = c.opt.Tell(fit)
		} else {
			err = c.opt.TellSome(idx, fit)
			if err == nil {
				c.cutGen, c.cutChecks = gen, checks
				err = c.purge(ctx, c.names.taskSubject(gen))
			}
		}
		if err != nil {
			return c.opt.Result(), err
		}
		if afterTell != nil {
			afterTell(c.opt.Generation())
		}
		if gen, checks, err = c.next(ctx); err != nil {
			return c.opt.Result(), err
		}
		c.mu.Lock()
		c.stats.Overhead += time.Since(lastResult)
		c.mu.Unlock()
		// The checkpoint is stored while the workers evaluate and the
		// coordinator collects; the next generation's store waits for it.
		if err := c.storeAsync(ctx, all, idx, fit); err != nil {
			return c.opt.Result(), err
		}
		if c.cfg.Progress != nil {
			c.cfg.Progress(Progress{
				Generation: c.opt.Generation(), Evals: c.opt.Evals(), BestF: c.opt.BestF(),
				Sigma: c.opt.Sigma(), Received: len(idx), Stats: c.Stats(),
			})
		}
	}
	return c.opt.Result(), c.waitStore()
}

// next asks the optimizer for the next generation and publishes it; checks
// is nil when the run has stopped. The first generation of a resumed run
// purges the tasks an earlier coordinator left of the run (of this
// generation, the same candidates, or of later ones the checkpoint never
// saw), so that they are not evaluated for nothing.
func (c *Coordinator) next(ctx context.Context) (gen uint64, checks []uint64, err error) {
	if c.opt.Reason() != mmaes.NotStopped {
		return 0, nil, nil
	}
	xs := c.opt.Ask()
	if xs == nil { // stopped in Ask (a numerical breakdown)
		return 0, nil, nil
	}
	gen = uint64(c.opt.Generation())
	checks = make([]uint64, len(xs))
	for i, x := range xs {
		checks[i] = candidateCheck(c.names.runID, gen, uint32(i), x)
	}
	if c.stats.Resumed && !c.purged {
		c.purged = true
		if err := c.purge(ctx, c.names.taskFilter()); err != nil {
			return 0, nil, err
		}
	}
	if c.rerun {
		// Run again after it returned in the middle of this generation
		// (ErrStalled, a cancelled context): the results it had were
		// dropped with it, so the generation is published anew, without
		// the tasks still waiting from before. Results of those already
		// taken by workers still count.
		c.rerun = false
		if err := c.purge(ctx, c.names.taskSubject(gen)); err != nil {
			return 0, nil, err
		}
	}
	c.xs = xs
	c.seqs = slices.Grow(c.seqs[:0], len(xs))[:len(xs)]
	clear(c.seqs)
	return gen, checks, c.publish(ctx, gen, xs, checks, nil)
}

// publish publishes the tasks of generation gen (those of indices; nil:
// all), asynchronously, and waits until the stream acknowledged each; a
// task whose publish failed (the server restarting, say) is published
// again with its message id, so that the server stores it once. Each call
// gives its tasks new ids (the coordinator counts its publications): a
// task published again on purpose is not taken for a duplicate.
func (c *Coordinator) publish(ctx context.Context, gen uint64, xs [][]float64, checks []uint64, indices []int) error {
	subject := c.names.taskSubject(gen)
	c.published++
	prefix := c.names.runID + "." + strconv.FormatUint(gen, 10) + "." + c.incarnation + "." + strconv.Itoa(c.published) + "."
	pending := indices
	if pending == nil {
		pending = make([]int, len(xs))
		for i := range pending {
			pending[i] = i
		}
	}
	published := len(pending)
	futures := make([]natsjs.PubAckFuture, len(xs))
	wait := 20 * time.Millisecond
	for len(pending) > 0 {
		var failed []int
		for j, i := range pending {
			data := appendTask(nil, &task{runID: c.names.runID, generation: gen, index: uint32(i), check: checks[i], x: xs[i]})
			f, err := c.js.PublishAsync(subject, data, natsjs.WithMsgID(prefix+strconv.Itoa(i)))
			if err != nil {
				failed = append(failed, i)
				f = nil
			}
			futures[j] = f
		}
		for j, f := range futures[:len(pending)] {
			if f == nil {
				continue
			}
			select {
			case ack := <-f.Ok():
				c.seqs[pending[j]] = ack.Sequence
			case <-f.Err():
				failed = append(failed, pending[j])
			case <-ctx.Done():
				return fmt.Errorf("jetstream: publishing generation %d: %w", gen, ctx.Err())
			}
		}
		pending = failed
		if len(pending) > 0 {
			select {
			case <-ctx.Done():
				return fmt.Errorf("jetstream: publishing generation %d: %w", gen, ctx.Err())
			case <-time.After(wait):
			}
			wait = min(2*wait, 250*time.Millisecond)
		}
	}
	c.mu.Lock()
	c.stats.Published += published
	c.mu.Unlock()
	return nil
}

// collect receives results until every candidate of generation gen has one
// or, with a deadline, until the deadline passed and at least one has. It
// returns the indices with a value and the values: in arrival order, or,
// when every candidate has one, in candidate order. It stops with
// ErrReplaced when another coordinator claims the run (owner). When results
// are missing, none came for a while and none of the generation's tasks is
// left in the stream (their results were lost: taken by a coordinator
// that was replaced, say), it publishes the missing tasks again.
func (c *Coordinator) collect(ctx context.Context, msgs <-chan natsjs.Msg, owner <-chan natsjs.KeyValueEntry, gen uint64, checks []uint64) ([]int, []float64, error) {
	lambda := len(checks)
	have := make([]bool, lambda)
	idx := make([]int, 0, lambda)
	vals := make([]float64, lambda)
	var deadline <-chan time.Time
	if c.cfg.Deadline > 0 {
		t := time.NewTimer(c.cfg.Deadline)
		defer t.Stop()
		deadline = t.C
	}
	var stall <-chan time.Time
	var stallTimer *time.Timer
	if c.cfg.Stall > 0 {
		stallTimer = time.NewTimer(c.cfg.Stall)
		defer stallTimer.Stop()
		stall = stallTimer.C
	}
	check := time.NewTicker(lostResultsCheck)
	defer check.Stop()
	last := time.Now()
	expired := false
	var r result
	for len(idx) < lambda && !(expired && len(idx) > 0) {
		select {
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		case <-deadline:
			expired = true
			deadline = nil
		case e := <-owner:
			if e != nil && e.Operation() == natsjs.KeyValuePut && manifestOwner(e.Value()) != c.incarnation {
				return nil, nil, fmt.Errorf("%w (run %s): this one stops", ErrReplaced, c.names.runID)
			}
		case <-stall:
			if deadline != nil && len(idx) > 0 {
				stall = nil // the deadline ends the generation with these
				continue
			}
			return nil, nil, fmt.Errorf("%w: generation %d of run %s, %d of %d results after %v without one",
				ErrStalled, gen, c.names.runID, len(idx), lambda, c.cfg.Stall)
		case m := <-msgs:
			if c.receive(m, &r, gen, checks, have, &idx, vals) {
				last = time.Now()
				if stallTimer != nil {
					stallTimer.Reset(c.cfg.Stall)
				}
			}
		case <-check.C:
			if time.Since(last) < lostResultsCheck {
				continue
			}
			left, err := c.tasksLeft(ctx, gen)
			if err != nil {
				continue
			}
			if left > 0 {
				if c.abandoned(ctx) {
					idx = c.abandon(ctx, have, idx, vals)
				}
				continue
			}
			var missing []int
			for i, h := range have {
				if !h {
					missing = append(missing, i)
				}
			}
			if err := c.publish(ctx, gen, c.xs, checks, missing); err != nil {
				return nil, nil, err
			}
			c.mu.Lock()
			c.stats.Republished += len(missing)
			c.mu.Unlock()
			last = time.Now()
		}
	}
	if len(idx) == lambda {
		return idx, vals, nil // Tell: all, in candidate order
	}
	fit := make([]float64, len(idx))
	for j, i := range idx {
		fit[j] = vals[i]
	}
	return idx, fit, nil
}

// lostResultsCheck is how often collect looks for lost results, and how
// long it waits after the last result before it does.
const lostResultsCheck = 2 * time.Second

// receive decodes and checks one result message, records an applicable
// value (and reports it), and acknowledges the message whatever it held:
// the coordinator never wants it again. A value is applied once the
// checkpoint holding it is stored; a coordinator that dies before that
// publishes the generation again.
func (c *Coordinator) receive(m natsjs.Msg, r *result, gen uint64, checks []uint64, have []bool, idx *[]int, vals []float64) bool {
	defer m.Ack()
	c.mu.Lock()
	defer c.mu.Unlock()
	switch err := decodeResult(m.Data(), r); {
	case err != nil:
		c.stats.Malformed++
	case r.runID != c.names.runID:
		c.stats.Foreign++
	case c.cutChecks != nil && r.generation == c.cutGen && int(r.index) < len(c.cutChecks) && r.check == c.cutChecks[r.index]:
		c.stats.Late++
	case r.generation < gen:
		c.stats.Stale++
	case r.generation > gen || int(r.index) >= len(checks) || r.check != checks[r.index]:
		c.stats.Foreign++
	case have[r.index]:
		c.stats.Duplicate++
	default:
		have[r.index] = true
		*idx = append(*idx, int(r.index))
		vals[r.index] = r.f
		c.stats.Applied++
		if r.delivered > 1 {
			c.stats.Redelivered++
		}
		return true
	}
	return false
}

// purge removes the tasks of subject (a generation's, or the run's) still
// in the stream.
func (c *Coordinator) purge(ctx context.Context, subject string) error {
	err := retry(ctx, func(ctx context.Context) error {
		s, err := c.js.Stream(ctx, c.names.taskStream())
		if err != nil {
			return err
		}
		return s.Purge(ctx, natsjs.WithPurgeSubject(subject))
	})
	if err != nil {
		return fmt.Errorf("jetstream: purging the tasks %s: %w", subject, err)
	}
	return nil
}

// abandoned reports whether the tasks left in the stream are abandoned:
// with MaxDeliver set, the work consumer has none to deliver and none with
// a worker.
func (c *Coordinator) abandoned(ctx context.Context) bool {
	if c.cfg.MaxDeliver < 0 {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	cons, err := c.js.Consumer(ctx, c.names.taskStream(), c.names.workConsumer())
	if err != nil {
		return false
	}
	info, err := cons.Info(ctx)
	return err == nil && info.NumPending == 0 && info.NumAckPending == 0
}

// abandon tells as NaN the candidates without a value whose task is still
// in the stream (which the work consumer delivers no more: abandoned), and
// deletes those tasks; a candidate whose task is gone had its result lost,
// and is published again once no task is left. It returns idx with the
// abandoned candidates appended.
func (c *Coordinator) abandon(ctx context.Context, have []bool, idx []int, vals []float64) []int {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	s, err := c.js.Stream(ctx, c.names.taskStream())
	if err != nil {
		return idx
	}
	for i, h := range have {
		if h || c.seqs[i] == 0 {
			continue
		}
		if _, err := s.GetMsg(ctx, c.seqs[i]); err != nil {
			continue // gone (its result lost), or unknown for now
		}
		if err := s.DeleteMsg(ctx, c.seqs[i]); err != nil {
			continue
		}
		have[i], vals[i] = true, math.NaN()
		idx = append(idx, i)
		c.mu.Lock()
		c.stats.Abandoned++
		c.mu.Unlock()
	}
	return idx
}

// tasksLeft returns the number of tasks of generation gen still in the
// stream, waiting or with a worker.
func (c *Coordinator) tasksLeft(ctx context.Context, gen uint64) (uint64, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	s, err := c.js.Stream(ctx, c.names.taskStream())
	if err != nil {
		return 0, err
	}
	subject := c.names.taskSubject(gen)
	info, err := s.Info(ctx, natsjs.WithSubjectFilter(subject))
	if err != nil {
		return 0, err
	}
	return info.State.Subjects[subject], nil
}

// storeAsync stores, on another goroutine once the store in flight is
// done, the checkpoint after a generation told with the values fit of the
// candidates idx (all: every candidate, in order): a new snapshot, or one
// more entry in the log of the last one. It returns the error of the
// store in flight.
func (c *Coordinator) storeAsync(ctx context.Context, all bool, idx []int, fit []float64) error {
	if err := c.waitStore(); err != nil {
		return err
	}
	c.entry = appendEntry(c.entry[:0], all, idx, fit)
	var op func(ctx context.Context) error
	if c.ckpt.logFull(c.entry, int(c.ckpt.length)) {
		var err error
		if c.checkpoint, err = c.opt.AppendBinary(c.checkpoint[:0]); err != nil {
			return err
		}
		op = func(ctx context.Context) error { return c.ckpt.storeSnapshot(ctx, c.checkpoint) }
	} else {
		op = func(ctx context.Context) error { return c.ckpt.appendLog(ctx, c.entry) }
	}
	done := make(chan error, 1)
	c.storing = done
	go func() {
		// A store in flight when Run's context ends gets storeGrace to
		// finish: a coordinator interrupted cleanly keeps its last
		// generation.
		sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		stop := context.AfterFunc(ctx, func() { time.AfterFunc(storeGrace, cancel) })
		done <- c.storeWith(sctx, op)
		stop()
		cancel()
	}()
	return nil
}

// storeGrace is how long a checkpoint store may outlive Run's context.
const storeGrace = 10 * time.Second

// waitStore waits for the store in flight, if any, and returns its error.
func (c *Coordinator) waitStore() error {
	if c.storing == nil {
		return nil
	}
	err := <-c.storing
	c.storing = nil
	return err
}

// storeWith runs a store of the checkpoint until it succeeds, or fails
// because another coordinator stored one.
func (c *Coordinator) storeWith(ctx context.Context, op func(ctx context.Context) error) error {
	start := time.Now()
	defer func() {
		c.mu.Lock()
		c.stats.Checkpoint += time.Since(start)
		c.mu.Unlock()
	}()
	err := retry(ctx, func(ctx context.Context) error {
		err := op(ctx)
		if errors.Is(err, natsjs.ErrKeyExists) || errors.Is(err, natsjs.ErrKeyRevisionMismatch) {
			return permanent{ErrReplaced}
		}
		return err
	})
	if errors.Is(err, ErrReplaced) {
		return fmt.Errorf("%w (run %s): this one stops", ErrReplaced, c.names.runID)
	}
	if err != nil {
		return fmt.Errorf("jetstream: storing the checkpoint: %w", err)
	}
	return nil
}
