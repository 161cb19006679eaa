package jetstream_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/mmaes-go/mmaes"
	"github.com/mmaes-go/mmaes/jetstream"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// A coordinator and two workers on one NATS server with JetStream (here
// embedded in the example; in production a nats-server cluster, and the
// workers on other machines). The run is the serial run of the same
// configuration, bit for bit.
func Example() {
	dir, _ := os.MkdirTemp("", "mmaes-example")
	defer os.RemoveAll(dir)
	srv, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: dir, NoLog: true, NoSigs: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	go srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		fmt.Println("server not ready")
		return
	}
	defer srv.Shutdown()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	// The objective, which the workers compute.
	sphere := func(x []float64) float64 {
		s := 0.0
		for _, v := range x {
			s += v * v
		}
		return s
	}

	// Workers: each with its own connection, as separate processes would.
	for range 2 {
		nc, err := nats.Connect(srv.ClientURL(), nats.MaxReconnects(-1))
		if err != nil {
			fmt.Println(err)
			return
		}
		defer nc.Close()
		w, err := jetstream.NewWorker(nc, jetstream.WorkerConfig{RunID: "example", Objective: sphere})
		if err != nil {
			fmt.Println(err)
			return
		}
		go w.Run(ctx)
	}

	// The coordinator.
	cfg := mmaes.DefaultConfig(6)
	cfg.Mean = []float64{1, 2, 3, -1, -2, -3}
	cfg.Seed = 3
	cfg.TargetF = 1e-10
	nc, err := nats.Connect(srv.ClientURL(), nats.MaxReconnects(-1))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer nc.Close()
	c, err := jetstream.NewCoordinator(ctx, nc, jetstream.CoordinatorConfig{RunID: "example", Optimizer: cfg})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := c.Run(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}

	opt, _ := mmaes.New(cfg)
	want, _ := opt.Optimize(context.Background(), sphere)
	fmt.Println(res.Reason)
	fmt.Println("same as the serial run:", res.F == want.F && res.Evals == want.Evals)
	fmt.Println("results dropped:", c.Stats().Duplicate+c.Stats().Foreign+c.Stats().Malformed)
	// Output:
	// target reached
	// same as the serial run: true
	// results dropped: 0
}
