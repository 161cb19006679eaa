package jetstream

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go"
	natsjs "github.com/nats-io/nats.go/jetstream"
)

// DeleteRun removes what a run left on the server: its checkpoint, its
// tasks and results still in the streams, and its consumers. A coordinator
// started afterwards with the same run id starts a new run. Streams and
// bucket, shared by the runs under the prefix, stay. It must not be called
// while the run's coordinator or workers run.
func DeleteRun(ctx context.Context, nc *nats.Conn, prefix, runID string) error {
	n, err := newNames(prefix, runID)
	if err != nil {
		return err
	}
	js, err := natsjs.New(nc)
	if err != nil {
		return fmt.Errorf("jetstream: %w", err)
	}
	kv, err := ensureStreams(ctx, js, n)
	if err != nil {
		return err
	}
	keys, err := kv.ListKeysFiltered(ctx, n.runID, n.runID+".>")
	if err != nil {
		return fmt.Errorf("jetstream: listing checkpoints: %w", err)
	}
	var purge []string
	for key := range keys.Keys() {
		purge = append(purge, key)
	}
	for _, key := range purge {
		if err := kv.Purge(ctx, key); err != nil {
			return fmt.Errorf("jetstream: deleting %s: %w", key, err)
		}
	}
	for _, s := range []struct{ stream, subject, consumer string }{
		{n.taskStream(), n.taskFilter(), n.workConsumer()},
		{n.resultStream(), n.resultSubject(), n.coordConsumer()},
	} {
		if err := js.DeleteConsumer(ctx, s.stream, s.consumer); err != nil && !errors.Is(err, natsjs.ErrConsumerNotFound) {
			return fmt.Errorf("jetstream: deleting consumer %s: %w", s.consumer, err)
		}
		st, err := js.Stream(ctx, s.stream)
		if err != nil {
			return fmt.Errorf("jetstream: %w", err)
		}
		if err := st.Purge(ctx, natsjs.WithPurgeSubject(s.subject)); err != nil {
			return fmt.Errorf("jetstream: purging %s: %w", s.subject, err)
		}
	}
	return nil
}
