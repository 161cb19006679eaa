package mmaes_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/mmaes-go/mmaes"
)

// The outputs below are the same on every kernel path: they print stop
// reasons, comparisons and parameters, not values that depend on the last
// bits of the arithmetic.

// Minimize the sphere in 10 dimensions with Optimize.
func Example() {
	n := 10
	cfg := mmaes.DefaultConfig(n)
	cfg.Mean = make([]float64, n)
	for i := range cfg.Mean {
		cfg.Mean[i] = 5
	}
	cfg.Sigma = 20.0 / 3
	cfg.Seed = 7
	cfg.TargetF = 1e-10
	opt, err := mmaes.New(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	f := func(x []float64) float64 {
		s := 0.0
		for _, v := range x {
			s += v * v
		}
		return s
	}
	res, err := opt.Optimize(context.Background(), f)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Reason)
	fmt.Println("f ≤ 1e-10:", res.F <= 1e-10)
	fmt.Println("‖x‖ < 1e-5:", math.Sqrt(f(res.X)) < 1e-5)
	fmt.Println("evaluations a multiple of λ:", res.Evals == res.Generations*opt.Lambda())
	// Output:
	// target reached
	// f ≤ 1e-10: true
	// ‖x‖ < 1e-5: true
	// evaluations a multiple of λ: true
}

// Drive the optimizer with Ask and Tell, for instance to evaluate the
// candidates in parallel or elsewhere. Here a cigar function, n = 4, with
// the Cholesky CMA-ES update, each candidate on a goroutine of its own.
func ExampleOptimizer_Ask() {
	cfg := mmaes.DefaultConfig(4)
	cfg.Update = mmaes.Cholesky
	cfg.TargetF = 1e-10
	opt, err := mmaes.New(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	cigar := func(x []float64) float64 {
		s := x[0] * x[0]
		for _, v := range x[1:] {
			s += 1e6 * v * v
		}
		return s
	}
	var fit []float64
	for opt.Reason() == mmaes.NotStopped {
		xs := opt.Ask()                               // λ read-only views, valid until the next Tell
		fit = slices.Grow(fit[:0], len(xs))[:len(xs)] // λ changes when a restart strategy restarts
		var wg sync.WaitGroup
		for i, x := range xs {
			wg.Go(func() { fit[i] = cigar(x) })
		}
		wg.Wait()
		if err := opt.Tell(fit); err != nil {
			fmt.Println(err)
			return
		}
	}
	res := opt.Result()
	fmt.Println("λ =", opt.Lambda(), "μ =", opt.Mu())
	fmt.Println(res.Reason, res.F <= 1e-10)
	fmt.Println(opt.Tell(fit) != nil) // the run is over
	// Output:
	// λ = 8 μ = 4
	// target reached true
	// true
}

// The paper's parameter table for n = 10.
func ExampleOptimizer_Params() {
	opt, err := mmaes.New(mmaes.DefaultConfig(10))
	if err != nil {
		fmt.Println(err)
		return
	}
	p := opt.Params()
	fmt.Printf("λ=%d μ=%d\n", p.Lambda, p.Mu)
	fmt.Printf("w=%.3g\n", p.Weights)
	fmt.Printf("μ_eff=%.3g c_σ=%.3g d_σ=%.3g\n", p.MuEff, p.CSigma, p.DSigma)
	fmt.Printf("c=%.3g c1=%.3g E‖N(0,I)‖=%.3g\n", p.C, p.C1, p.ChiN)
	// Output:
	// λ=10 μ=5
	// w=[0.43 0.263 0.166 0.0972 0.0437]
	// μ_eff=3.41 c_σ=0.369 d_σ=1.37
	// c=0.286 c1=0.0154 E‖N(0,I)‖=3.08
}

// New names the field that is wrong.
func ExampleNew_error() {
	cfg := mmaes.DefaultConfig(3)
	cfg.Sigma = -1
	_, err := mmaes.New(cfg)
	fmt.Println(err)
	cfg = mmaes.DefaultConfig(3)
	cfg.Mean = []float64{0, math.NaN(), 0}
	_, err = mmaes.New(cfg)
	fmt.Println(err)
	// Output:
	// mmaes: invalid config: Sigma: -1: must be finite and > 0
	// mmaes: invalid config: Mean[1]: NaN: must be finite
}

// Save a run and continue it later (here in the same process): the result is
// the run never interrupted, bit for bit.
func ExampleOptimizer_MarshalBinary() {
	cfg := mmaes.DefaultConfig(5)
	cfg.MaxGenerations = 100
	f := func(x []float64) float64 { return math.Abs(x[0]) + x[1]*x[1] + x[2]*x[2] + x[3]*x[3] + x[4]*x[4] }

	whole, _ := mmaes.New(cfg)
	want, _ := whole.Optimize(context.Background(), f)

	part, _ := mmaes.New(cfg)
	fit := make([]float64, part.Lambda())
	for g := 0; g < 40; g++ {
		for i, x := range part.Ask() {
			fit[i] = f(x)
		}
		part.Tell(fit)
	}
	data, err := part.MarshalBinary()
	if err != nil {
		fmt.Println(err)
		return
	}

	var resumed mmaes.Optimizer
	if err := resumed.UnmarshalBinary(data); err != nil {
		fmt.Println(err)
		return
	}
	got, _ := resumed.Optimize(context.Background(), f)
	a, _ := whole.MarshalBinary()
	b, _ := resumed.MarshalBinary()
	fmt.Println(got.Generations, got.F == want.F, bytes.Equal(a, b))
	// Output:
	// 100 true true
}

// Minimize a multimodal function whose structure is unknown with the
// recommended configuration: here Rastrigin in 10 dimensions, which a
// single run of the paper's algorithm rarely solves, from the box
// [−5, 5]¹⁰'s corner region. The restarts with growing populations (BIPOP)
// find the global minimum.
func ExampleRecommendedConfig() {
	n := 10
	cfg := mmaes.RecommendedConfig(n)
	cfg.Mean = make([]float64, n)
	for i := range cfg.Mean {
		cfg.Mean[i] = 3
	}
	cfg.Sigma = 2
	cfg.Seed = 1
	cfg.TargetF = 1e-8
	cfg.MaxEvals = 200_000
	rastrigin := func(x []float64) float64 {
		s := 10 * float64(len(x))
		for _, v := range x {
			s += v*v - 10*math.Cos(2*math.Pi*v)
		}
		return s
	}
	opt, err := mmaes.New(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := opt.Optimize(context.Background(), rastrigin)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Reason)
	fmt.Println("restarted:", res.Restarts > 0)
	// Output:
	// target reached
	// restarted: true
}

// Tune a service's knobs with units of their own: a timeout in
// milliseconds and a ratio, with a pool size pinned at 16 for now. Scales
// says how far each knob moves at first (relative to Sigma), Fixed removes
// the pinned one from the search (λ is that of the 2 free knobs), and
// MinStd keeps the search alive if the objective is measured with noise.
func ExampleConfig_knobs() {
	cfg := mmaes.DefaultConfig(3)
	cfg.Mean = []float64{250, 0.5, 16} // timeout (ms), ratio, pool size
	cfg.Scales = []float64{100, 0.2, 1}
	cfg.Fixed = map[int]float64{2: 16}
	cfg.MinStd = 1e-9
	cfg.Seed, cfg.TargetF = 1, 1e-12
	opt, err := mmaes.New(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	cost := func(x []float64) float64 { // best at 180 ms and 0.8
		t, r := (x[0]-180)/100, (x[1]-0.8)/0.2
		return t*t + r*r + (x[2]-16)*(x[2]-16)
	}
	res, err := opt.Optimize(context.Background(), cost)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Reason, "with λ =", opt.Lambda())
	fmt.Printf("timeout %.1f ms, ratio %.3f, pool %.0f\n", res.X[0], res.X[1], res.X[2])
	// Output:
	// target reached with λ = 6
	// timeout 180.0 ms, ratio 0.800, pool 16
}
