package jetstream

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	natsjs "github.com/nats-io/nats.go/jetstream"
)

// DefaultPrefix names the streams, subjects and bucket when Prefix is empty.
const DefaultPrefix = "mmaes"

// names are the JetStream objects of one run under one prefix.
type names struct {
	prefix, runID string
}

func newNames(prefix, runID string) (names, error) {
	if prefix == "" {
		prefix = DefaultPrefix
	}
	if !validRunID(prefix) {
		return names{}, fmt.Errorf("jetstream: prefix %q: want 1 to %d characters from A–Z, a–z, 0–9, '-', '_'", prefix, maxRunID)
	}
	if err := CheckRunID(runID); err != nil {
		return names{}, err
	}
	return names{prefix, runID}, nil
}

// CheckRunID returns an error unless id can name a run (the RunID of
// CoordinatorConfig and WorkerConfig): 1 to 64 characters from A–Z, a–z,
// 0–9, '-' and '_'. A command can check its flag before it connects.
func CheckRunID(id string) error {
	if !validRunID(id) {
		return fmt.Errorf("jetstream: run id %q: want 1 to %d characters from A–Z, a–z, 0–9, '-', '_'", id, maxRunID)
	}
	return nil
}

func (n names) taskStream() string   { return n.prefix + "_tasks" }
func (n names) resultStream() string { return n.prefix + "_results" }
func (n names) bucket() string       { return n.prefix + "_checkpoints" }
func (n names) workConsumer() string { return "work_" + n.runID }
func (n names) coordConsumer() string {
	return "coord_" + n.runID
}

// taskSubject is the subject of the tasks of one generation, so that a
// generation's leftover tasks can be purged alone.
func (n names) taskSubject(generation uint64) string {
	return n.prefix + ".task." + n.runID + "." + strconv.FormatUint(generation, 10)
}
func (n names) taskFilter() string    { return n.prefix + ".task." + n.runID + ".>" }
func (n names) resultSubject() string { return n.prefix + ".result." + n.runID }

// dedupWindow is how long the server remembers a message id: a publish
// retried within it (after a lost acknowledgement, a server restart) is
// stored once.
const dedupWindow = 2 * time.Minute

// ensureStreams creates the two work-queue streams and the checkpoint
// bucket where they do not exist. Existing ones are used as they are (an
// operator may have created them with replicas for a cluster), but must
// be work queues.
func ensureStreams(ctx context.Context, js natsjs.JetStream, n names) (natsjs.KeyValue, error) {
	for _, cfg := range []natsjs.StreamConfig{
		{Name: n.taskStream(), Subjects: []string{n.prefix + ".task.>"}},
		{Name: n.resultStream(), Subjects: []string{n.prefix + ".result.>"}},
	} {
		cfg.Retention = natsjs.WorkQueuePolicy
		cfg.Storage = natsjs.FileStorage
		cfg.Duplicates = dedupWindow
		err := retry(ctx, func(ctx context.Context) error {
			s, err := js.Stream(ctx, cfg.Name)
			if errors.Is(err, natsjs.ErrStreamNotFound) {
				_, err = js.CreateStream(ctx, cfg)
				if errors.Is(err, natsjs.ErrStreamNameAlreadyInUse) {
					return err // created meanwhile by another: look again
				}
				return permanentAPIError(err)
			}
			if err != nil {
				return err
			}
			if r := s.CachedInfo().Config.Retention; r != natsjs.WorkQueuePolicy {
				return permanent{fmt.Errorf("exists with retention %v, want a work queue", r)}
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("jetstream: stream %s: %w", cfg.Name, err)
		}
	}
	var kv natsjs.KeyValue
	err := retry(ctx, func(ctx context.Context) error {
		var err error
		kv, err = js.KeyValue(ctx, n.bucket())
		if errors.Is(err, natsjs.ErrBucketNotFound) {
			kv, err = js.CreateKeyValue(ctx, natsjs.KeyValueConfig{
				Bucket:      n.bucket(),
				Description: "mmaes checkpoints: per run a manifest (snapshot and log) and the snapshot's chunks",
				History:     1,
				Storage:     natsjs.FileStorage,
			})
			if errors.Is(err, natsjs.ErrBucketExists) {
				return err
			}
			return permanentAPIError(err)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("jetstream: bucket %s: %w", n.bucket(), err)
	}
	return kv, nil
}

// retry calls op until it succeeds, fails permanently or ctx ends, waiting
// between attempts: the server may be restarting, and nats.Conn reconnects.
func retry(ctx context.Context, op func(ctx context.Context) error) error {
	wait := 20 * time.Millisecond
	for {
		octx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err := op(octx)
		cancel()
		var p permanent
		if err == nil || errors.As(err, &p) {
			return err
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%w (last error: %v)", ctx.Err(), err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (last error: %v)", ctx.Err(), err)
		case <-time.After(wait):
		}
		wait = min(2*wait, 250*time.Millisecond)
	}
}

// permanent wraps an error retry must not retry.
type permanent struct{ err error }

func (p permanent) Error() string { return p.err.Error() }
func (p permanent) Unwrap() error { return p.err }

// permanentAPIError marks the server's answers (a configuration it refuses,
// say) permanent: only the absence of an answer (a timeout, no
// connection, JetStream not ready yet) is worth another attempt.
func permanentAPIError(err error) error {
	var api *natsjs.APIError
	if errors.As(err, &api) {
		return permanent{err}
	}
	return err
}
