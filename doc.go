// Package mmaes implements the (μ/μ_w, λ)-MMA-ES, the mutation matrix
// adaptation evolution strategy of
//
//	Zhenhua Li and Qingfu Zhang, "A Simple Yet Efficient Rank One Update for
//	Covariance Matrix Adaptation", arXiv:1710.03996 (2017),
//
// a derivative-free minimizer for continuous functions f: ℝⁿ → ℝ, together
// with the two updates the paper compares it with, so that its experiments
// run in one program: the efficient Cholesky CMA-ES update (ECMA) and the
// Cholesky CMA-ES of Suttorp, Hansen and Igel (2009) (Cholesky); and LMMA,
// a limited-memory MMA-ES in O(m·n) memory and time a candidate, for n
// from a few thousand (where O(n²) a candidate gets slow) to millions
// (where n² floats no longer fit).
//
// # Algorithm
//
// The search distribution is N(m, σ²·A·Aᵀ). Each generation (Algorithm 1 of
// the paper) samples z_i ~ N(0, I), y_i = A·z_i and x_i = m + σ·y_i for
// i = 1..λ, ranks the x_i by f, and with the μ best (weights w_i) sets
//
//	m ← m + σ·y_w = Σ w_i·x_{i:λ},   y_w = Σ w_i·y_{i:λ},   z_w = Σ w_i·z_{i:λ}
//	p ← (1−c)·p + √(c(2−c)μ_eff)·y_w
//	v ← (1−c)·v + √(c(2−c)μ_eff)·z_w
//	A ← (1 − c1/2)·A + (c1/2)·p·vᵀ                                 (MMA)
//	s ← (1−c_σ)·s + √(c_σ(2−c_σ)μ_eff)·z_w
//	σ ← σ·exp(c_σ/d_σ·(‖s‖/E‖N(0,I)‖ − 1))
//
// The v-path approximates A⁻¹·p, which makes the rank-one update of A as
// cheap as the rank-one covariance update of CMA-ES, with no matrix
// decomposition and no inverse: O(n²) per generation, dominated by sampling
// (one pass over A for the whole population) and the fused update of A (one
// more pass). See Update for the ECMA and Cholesky rules.
//
// The parameters are the paper's table, for dimension n:
//
//	λ = 4 + ⌊3 ln n⌋, μ = ⌊λ/2⌋, w_i = (ln(μ+1) − ln i)/(μ ln(μ+1) − Σ_{j≤μ} ln j),
//	μ_eff = 1/Σ w_i², c_σ = √μ_eff/(√n + √μ_eff),
//	d_σ = 1 + 2·max(0, √((μ_eff−1)/(n+1)) − 1) + c_σ,
//	c = 4/(n+4), c1 = 2/(n + √2)²,
//
// and E‖N(0,I)‖ is approximated by √n·(1 − 1/(4n) + 1/(21n²)). Initially
// A = I (A_inv = I) and all paths are zero. Optimizer.Params returns the
// values in use.
//
// # Beyond the paper
//
// These options, all off in DefaultConfig (which stays the paper's
// algorithm), add what users of CMA-ES libraries expect; RecommendedConfig
// turns on those that pay on black-box problems:
//
//   - Config.RankMu adds the rank-μ term of CMA-ES to the MMA update,
//     A ← (1 − c1/2 − c_μ/2)·A + (c1/2)·p·vᵀ + (c_μ/2)·Σ w_i·y_{i:λ}·z_{i:λ}ᵀ,
//     in one pass over A (see Config.RankMu and Config.CMu for the rates);
//     Config.Active makes it active, learning from the worst steps too.
//   - Config.Restart (IPOP or BIPOP) restarts a run that stopped on a local
//     criterion with a larger (or, for BIPOP, sometimes a smaller)
//     population, from a fresh state and the same seed stream, up to
//     Config.MaxRestarts times; Result.Restarts counts them and Result
//     holds the best over all runs (see Restart).
//   - Config.Lower and Config.Upper are box constraints: the objective only
//     ever sees points inside them, mapped by pycma's smooth boundary
//     transformation (see Config.Lower).
//   - Config.Workers evaluates the λ candidates of a generation inside
//     Optimize on that many goroutines, with the same result bit for bit
//     (see Config.Workers); the objective must then be safe for concurrent
//     use.
//   - Config.NoEffect, Config.Stagnation, Config.FlatFitness and
//     Config.Hopeless end the runs that cannot succeed (a collapsed
//     distribution, no progress, no fitness signal, no chance to beat an
//     earlier run), so that a restart strategy spends the budget on the
//     next.
//   - Config.Scales gives each coordinate its initial standard deviation
//     (A starts as diag(Scales)), Config.Fixed holds coordinates at values
//     and searches the others only, Config.Integer makes coordinates
//     integers (CMA-ES with margin), Config.MinStd and Config.MaxStd bound
//     every coordinate's standard deviation σ·‖A_i‖, which
//     Optimizer.StdDevs returns (ExampleConfig_knobs), and Config.Noise
//     adapts the learning rates to a noisy objective (LRA-CMA-ES), whose
//     answer is Result.Mean (ExampleConfig_noise).
//   - For a service: Optimizer.TellSome ends a generation with the results
//     that arrived (ranked as a population of k: μ' = max(1, k·μ/λ)
//     parents with the log weights for μ', the paths' normalization with
//     μ'_eff; only the k count as evaluations; Example_asyncTellSome),
//     Optimizer.Inject has a known point tried in the next generation (its
//     step clipped to √n + 2n/(n+2) in the distribution's metric for the
//     paths, A and σ, taken whole by the mean when selected; a generation
//     whose selected injected step was clipped moves the mean only; an
//     injected point that ranks first is tried again in the next
//     generation, until a sampled candidate beats it),
//     Optimizer.SetLimits and Optimizer.Reconfigure change the budget and
//     the stop criteria of a live or restored optimizer, and
//     Optimizer.Status is a snapshot other goroutines may read.
//
// # Use
//
// Optimize runs the whole loop:
//
//	cfg := mmaes.DefaultConfig(n) // the paper's parameters and default stops
//	cfg.Mean = m0                 // nil: the origin
//	cfg.Sigma = 20.0 / 3
//	cfg.Seed = 7
//	cfg.TargetF = 1e-10
//	opt, err := mmaes.New(cfg)
//	if err != nil { ... } // a *ConfigError naming the field
//	res, err := opt.Optimize(ctx, f) // res.X, res.F, res.Evals, res.Reason
//
// (Example). Ask and Tell hand the evaluation to the caller
// (ExampleOptimizer_Tell; ExampleOptimizer_Ask evaluates the λ candidates
// in parallel):
//
//	var fit []float64
//	for opt.Reason() == mmaes.NotStopped {
//		xs := opt.Ask() // λ views into the optimizer, valid until the next Tell
//		fit = fit[:0]   // λ changes when a restart strategy restarts
//		for _, x := range xs {
//			fit = append(fit, f(x))
//		}
//		if err := opt.Tell(fit); err != nil { ... }
//	}
//
// Example_externalEvaluation shows a service that sends the
// candidates to remote workers, matches the results by index in whatever
// order they arrive, and checkpoints between generations.
//
// # Configuration and defaults
//
// DefaultConfig(n) fills in the paper's parameters and these stops: TargetF
// −Inf (off), MaxEvals 0 (off), MaxGenerations 100+150(n+3)²/√λ, TolFun
// 1e-12 over a history of 10+⌈30n/λ⌉ generations, TolX 1e-11 and
// MaxCondition 1e14; σ0 = 1 and the origin as mean. In a Config, zero
// Lambda, Mu, C, C1, CSigma, DSigma and TolFunHist select the paper's (or
// the default) value; zero MaxEvals, MaxGenerations, TolFun, TolX and
// MaxCondition turn the criterion off. New validates every field and names
// the wrong one in a *ConfigError (errors.Is(err, ErrInvalidConfig)).
//
// # Fitness values, stops and failures
//
// Lower is better. NaN ranks after every other value, −Inf and +Inf rank by
// value, and equal values rank by candidate index: a total order, the same on
// every platform. NaN candidates are selected only when fewer than μ values
// are not NaN.
// A generation in which every value is NaN stops the run (Reason AllNaN). No
// input makes the state non-finite: each generation's new mean, paths and σ
// are checked before they are committed, A is guarded by a cheap bound and
// rescanned when needed, and a failing update stops the run with
// NumericalBreakdown instead; σ stays finite and > 0. Whatever the reason,
// Result holds the best point evaluated. After a stop Ask returns nil and
// Tell returns an error that wraps ErrStopped and names the reason, which
// Optimizer.Reason also returns.
//
// # Allocation
//
// New allocates every buffer a run needs (the population, A, A_inv for
// Cholesky, the paths, the ranking, the TolFun history, the best point, the
// rank-μ blocks, the bounds). After that Ask, Tell, and each generation
// inside Optimize allocate nothing, at every n, with every option
// (the tests check it). The exceptions are outside generations: a
// restart allocates the new run's weights and, when its λ exceeds every λ
// before, the larger population buffers; Optimize with Workers ≥ 2 starts
// its goroutines once per call; Result copies the best point,
// MarshalBinary allocates its output. AppendBinary writes a checkpoint into
// the caller's buffer and allocates nothing when it is large enough, so a
// service can checkpoint every generation without garbage.
//
// # Reproducibility
//
// Every Optimizer owns its xoshiro256++ generators (a scalar one and eight
// lanes for the normal deviates) seeded from Config.Seed; there is no
// global generator and no clock seeding (seed 0 is an ordinary seed). A
// population of more than 2^15 deviates is drawn in chunks, each from
// generators seeded by one draw of the scalar one, so that several
// goroutines can draw them (Config.Threads). The deviates are the same
// bits on every kernel path and for every Threads. The same Config gives the
// same run, bit for bit, on the same kernel path and architecture.
// Different paths of package kernel (AVX-512, AVX2+FMA, NEON, generic)
// round differently in the last bits, so runs diverge after a while: see
// kernel.Impl for the path in use. To force the generic pure-Go path, run
// with GODEBUG=cpu.all=off, or build with -tags purego. A run saved with MarshalBinary and restored with
// UnmarshalBinary (also in another process) continues bit for bit as the
// run that was never stopped, on the same path; the objective and
// Config.Observer are not saved.
//
// # Concurrency
//
// An Optimizer is not safe for concurrent use: call its methods from one
// goroutine at a time. Distinct Optimizers share no mutable state, so any
// number can run at once, each on its own goroutine. With Config.Workers ≥ 2,
// Optimize itself calls the objective from several goroutines at once (and
// from none after it returns).
package mmaes
