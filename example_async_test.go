package mmaes_test

import (
	"fmt"
	"time"

	"github.com/mmaes-go/mmaes"
)

// Evaluate asynchronously: each generation's candidates go to workers that
// answer in any order, and the generation ends with the results that have
// arrived once three quarters are in or a deadline passes; the late ones
// are dropped (TellSome counts only what it is given). Here the workers
// are goroutines and one candidate in eight never answers.
func Example_asyncTellSome() {
	cfg := mmaes.DefaultConfig(8)
	cfg.Mean = []float64{3, 3, 3, 3, 3, 3, 3, 3}
	cfg.TargetF, cfg.Seed = 1e-8, 1
	opt, err := mmaes.New(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	type result struct {
		gen, i int
		f      float64
	}
	results := make(chan result, 64)
	sphere := func(x []float64) float64 {
		s := 0.0
		for _, v := range x {
			s += v * v
		}
		return s
	}
	var idx []int
	var fit []float64
	for opt.Reason() == mmaes.NotStopped {
		xs, gen := opt.Ask(), opt.Generation()
		for i, x := range xs {
			if (gen+i)%8 == 7 {
				continue // this worker never answers
			}
			go func(x []float64) { // x is read before the generation ends
				results <- result{gen, i, sphere(x)}
			}(append([]float64(nil), x...))
		}
		idx, fit = idx[:0], fit[:0]
		deadline := time.After(time.Second)
	collect:
		for len(idx) < 3*len(xs)/4 {
			select {
			case r := <-results:
				if r.gen == gen { // a result of an earlier generation is stale
					idx, fit = append(idx, r.i), append(fit, r.f)
				}
			case <-deadline:
				break collect
			}
		}
		if err := opt.TellSome(idx, fit); err != nil {
			fmt.Println(err)
			return
		}
	}
	res := opt.Result()
	fmt.Println(res.Reason)
	fmt.Println("fewer evaluations than candidates:", res.Evals < res.Generations*opt.Lambda())
	// Output:
	// target reached
	// fewer evaluations than candidates: true
}
