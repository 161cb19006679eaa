package mmaes_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
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

// The ask-and-tell loop of the package documentation, on one goroutine: the
// caller evaluates the candidates and hands back their values in candidate
// order, until the run stops.
func ExampleOptimizer_Tell() {
	cfg := mmaes.DefaultConfig(6)
	cfg.Mean = []float64{1, 2, 3, 4, 5, 6}
	cfg.Restart, cfg.MaxRestarts = mmaes.IPOP, 2 // λ changes at a restart
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
	var fit []float64
	for opt.Reason() == mmaes.NotStopped {
		xs := opt.Ask() // λ views into the optimizer, valid until the next Tell
		fit = fit[:0]   // λ changes when a restart strategy restarts
		for _, x := range xs {
			fit = append(fit, f(x))
		}
		if err := opt.Tell(fit); err != nil {
			fmt.Println(err)
			return
		}
	}
	res := opt.Result()
	fmt.Println(res.Reason, res.F <= 1e-10)
	// Output:
	// target reached true
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

// Tune a service's knobs of different units: a timeout in milliseconds, a
// ratio, a pool size that is an integer, and a cache flag held fixed. The
// box keeps every candidate valid; Scales give each knob its initial step,
// about a quarter of a plausible range, so that the run costs what the
// well-scaled problem costs; MaxStd keeps the search from ever trying
// timeouts more than 500 ms away from the mean.
func ExampleConfig_knobs() {
	cfg := mmaes.DefaultConfig(4)
	cfg.Mean = []float64{250, 0.5, 8, 1} // timeout (ms), ratio, pool size, cache on
	cfg.Lower = []float64{10, 0, 1, 0}
	cfg.Upper = []float64{5000, 1, 64, 1}
	cfg.Scales = []float64{100, 0.2, 4, 1}
	cfg.Integer = []int{2}            // the pool size
	cfg.Fixed = map[int]float64{3: 1} // the cache stays on
	cfg.MinStd, cfg.MaxStd = 1e-9, 500
	cfg.Seed, cfg.TargetF = 1, 1e-12
	opt, err := mmaes.New(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	cost := func(x []float64) float64 { // best at 180 ms, 0.8 and 12
		t, r, p := (x[0]-180)/100, (x[1]-0.8)/0.2, x[2]-12
		return t*t + r*r + p*p
	}
	res, err := opt.Optimize(context.Background(), cost)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Reason, "with λ =", opt.Lambda())
	fmt.Printf("timeout %.1f ms, ratio %.3f, pool %.0f, cache %.0f\n", res.X[0], res.X[1], res.X[2], res.X[3])
	dev := opt.StdDevs(nil) // σ·‖A_i‖ per knob, 0 for the fixed one
	fmt.Println("timeout's deviation below 1 ms:", dev[0] < 1, "cache's:", dev[3])
	// Output:
	// target reached with λ = 7
	// timeout 180.0 ms, ratio 0.800, pool 12, cache 1
	// timeout's deviation below 1 ms: true cache's: 0
}

// Minimize a noisy objective: with Noise the learning rates follow the
// updates' signal-to-noise ratio, and the answer is the final mean, not the
// luckiest evaluation. The stops that expect an objective without noise
// are off, and so is DefaultConfig's generation budget: this run is bounded
// by its evaluations (a service would bound it by its context).
func ExampleConfig_noise() {
	const n = 4
	cfg := mmaes.DefaultConfig(n)
	cfg.Mean = []float64{3, -2, 1, 2}
	cfg.Noise, cfg.Seed = true, 5
	cfg.TolFun, cfg.TolX, cfg.MaxGenerations = 0, 0, 0
	cfg.MaxEvals = 30000
	opt, err := mmaes.New(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	r := rand.New(rand.NewPCG(1, 2))
	noisy := func(x []float64) float64 { // a sphere plus noise of deviation 1
		s := 0.0
		for _, v := range x {
			s += v * v
		}
		return s + r.NormFloat64()
	}
	res, err := opt.Optimize(context.Background(), noisy)
	if err != nil {
		fmt.Println(err)
		return
	}
	dist := 0.0 // of the mean from the optimum
	for _, v := range res.Mean {
		dist += v * v
	}
	fmt.Println(res.Reason)
	fmt.Println("‖mean‖ < 0.2:", math.Sqrt(dist) < 0.2)
	// Output:
	// MaxEvals reached
	// ‖mean‖ < 0.2: true
}
