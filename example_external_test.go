package mmaes_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/mmaes-go/mmaes"
)

// A service that hands the evaluations to workers elsewhere (here three
// goroutines behind channels standing in for remote machines) and survives
// restarts of its own process. Each generation it sends the λ candidates
// out as jobs tagged with their index, collects the results in whatever
// order they arrive, puts each value in its slot, and calls Tell. After
// every generation it checkpoints the optimizer; every 20 generations it
// "crashes" and comes back from the last checkpoint alone, as a new
// process would. Because the values are matched by index and the
// checkpoint holds the whole state (the generator included), the run is
// the one an uninterrupted sequential loop makes, bit for bit.
func Example_externalEvaluation() {
	// f is the expensive objective the workers compute: a scaled sphere
	// inside the box [−5, 5]⁶.
	f := func(x []float64) float64 {
		s := 0.0
		for i, v := range x {
			s += float64(i+1) * v * v
		}
		return s
	}
	cfg := mmaes.DefaultConfig(6)
	cfg.Mean = []float64{3, -2, 4, 1, -4, 2}
	cfg.Sigma = 2
	cfg.Seed = 42
	cfg.TargetF = 1e-10
	cfg.Lower = []float64{-5, -5, -5, -5, -5, -5}
	cfg.Upper = []float64{5, 5, 5, 5, 5, 5}

	// The workers: a job carries a copy of the point (as a message to
	// another machine would) and its index in the generation.
	type job struct {
		i int
		x []float64
	}
	type result struct {
		i int
		f float64
	}
	jobs, results := make(chan job), make(chan result)
	var wg sync.WaitGroup
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				time.Sleep(time.Duration((j.i*7+w)%3) * time.Microsecond) // uneven latency
				results <- result{j.i, f(j.x)}
			}
		}()
	}

	opt, err := mmaes.New(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	var checkpoint []byte // in a real service: a file or a database row
	restores := 0
	for opt.Reason() == mmaes.NotStopped {
		xs := opt.Ask() // λ may change between generations (restarts): use len(xs)
		go func() {
			for i, x := range xs {
				jobs <- job{i, slices.Clone(x)}
			}
		}()
		fit := make([]float64, len(xs))
		for range xs {
			r := <-results // any order
			fit[r.i] = r.f
		}
		if err := opt.Tell(fit); err != nil {
			fmt.Println(err)
			return
		}
		if checkpoint, err = opt.MarshalBinary(); err != nil {
			fmt.Println(err)
			return
		}
		if opt.Generation()%20 == 0 {
			// The process dies; a new one starts from the checkpoint.
			opt = new(mmaes.Optimizer)
			if err := opt.UnmarshalBinary(checkpoint); err != nil {
				fmt.Println(err)
				return
			}
			restores++
		}
	}
	close(jobs)
	wg.Wait()
	res := opt.Result()

	// The same run, never interrupted, evaluated in order.
	ref, _ := mmaes.New(cfg)
	want, _ := ref.Optimize(context.Background(), f)

	fmt.Println(res.Reason)
	fmt.Println("f ≤ 1e-10:", res.F <= 1e-10)
	fmt.Println("restored from a checkpoint:", restores > 0)
	fmt.Println("same as the uninterrupted run:", res.F == want.F && res.Evals == want.Evals && slices.Equal(res.X, want.X))
	// Output:
	// target reached
	// f ≤ 1e-10: true
	// restored from a checkpoint: true
	// same as the uninterrupted run: true
}
