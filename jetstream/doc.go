// Package jetstream spreads the evaluations of an mmaes optimization over
// many processes and machines through NATS JetStream, and survives the
// death of any of them.
//
// A Coordinator owns the optimizer. Each generation it publishes the λ
// candidates as tasks on a work-queue stream, collects the results from a
// second work-queue stream, tells the optimizer, and stores the
// optimizer's checkpoint in a key-value bucket; started again with the
// same run id it resumes from that checkpoint. Workers, anywhere, pull the
// run's tasks one at a time, evaluate them and publish the results.
//
//	nc, _ := nats.Connect(url, nats.MaxReconnects(-1))
//	c, _ := jetstream.NewCoordinator(ctx, nc, jetstream.CoordinatorConfig{RunID: "tune-7", Optimizer: cfg})
//	res, _ := c.Run(ctx)
//
//	// elsewhere, as many as wanted:
//	w, _ := jetstream.NewWorker(nc, jetstream.WorkerConfig{RunID: "tune-7", Objective: f})
//	w.Run(ctx)
//
// Delivery is at least once (a task whose worker dies is delivered again),
// application exactly once (a result is applied only to the candidate it
// answers, once; stale, duplicate, malformed and foreign results are
// dropped and counted in Stats). Without a deadline the run is the serial
// run of the same configuration, bit for bit, whatever the number of
// workers and whatever dies on the way. The design, the message format and
// measured throughput are in the repository's docs/distributed.md.
//
// This package is a module of its own, so that the mmaes library keeps no
// dependency beyond the standard library.
package jetstream
