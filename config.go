package mmaes

import (
	"fmt"
	"math"
	"strconv"
)

// Config holds the settings of a run. Start from DefaultConfig, which sets
// the paper's parameters and the default stopping criteria; fields left zero
// take the defaults documented on them.
type Config struct {
	// Dim is the dimension n ≥ 1.
	Dim int
	// Mean is the initial mean m0, of length Dim; nil means the origin. New
	// copies it.
	Mean []float64
	// Sigma is the initial step size σ0 > 0 (DefaultConfig: 1).
	Sigma float64
	// Scales, when not nil, are the initial standard deviations of the
	// coordinates relative to Sigma: every run starts from A = diag(Scales)
	// instead of I, so that coordinate i is first sampled with standard
	// deviation Sigma·Scales[i]. Give them when the coordinates have units
	// of their own (a timeout in ms next to a ratio): the run is then the
	// run on the rescaled problem u ↦ f(diag(Scales)·u) from A = I, and
	// costs the evaluations of a well-scaled problem. Length Dim, each
	// finite and > 0 with a finite inverse. MaxCondition measures the condition of A relative to
	// diag(Scales). New copies it.
	Scales []float64
	// Fixed holds coordinates at values and removes them from the search
	// (a knob pinned for a while): Fixed[i] = v keeps x_i = v in every
	// candidate. The optimizer then searches the Dim − len(Fixed) free
	// coordinates only, with the population size, weights and learning
	// rates of that dimension, and costs what the smaller problem costs;
	// Ask, Mean, BestX, StdDevs and Result still hold full-length vectors.
	// A, AInv, P, V and S are of the free coordinates (in their order).
	// Indices in [0, Dim), values finite and within the bounds; Mean's
	// entries at fixed indices are not used. New copies it.
	Fixed map[int]float64
	// Integer lists the coordinates that take integer values (a pool
	// size, a retry count): Ask's candidates hold integers there (the
	// nearest to the sampled value, within the bounds, which must be
	// integers or infinite), and CMA-ES with margin's correction keeps the
	// probability that a candidate differs from the mean's integer at least
	// 1/(n·λ), so that the search never stalls on a plateau of the rounding
	// (see Optimizer.StdDevs for the deviations it keeps). The box's smooth
	// map does not apply to an integer coordinate; its value is clamped
	// into its bounds. Indices in [0, Dim), each once.
	Integer []int
	// Noise adapts the learning rates to a noisy objective, as LRA-CMA-ES
	// does (Nomura, Akimoto, Ono, 2023): each generation the
	// signal-to-noise ratio of the mean's and of the covariance's updates
	// is estimated from the updates of the last generations, and the rates
	// of the mean (c_m = 1 by default) and of A and σ shrink where the
	// updates are mostly noise, so that the mean averages over more
	// generations and keeps improving below the noise level (docs/
	// objectives.md has the figures). No evaluation is spent on it; a
	// generation costs O(n³) more (and 3n² floats), for the small n of
	// tuned knobs. With a box, the σ that a falling rate of the mean would
	// raise stops where a coordinate's deviation reaches a quarter of its
	// box's width, so give coordinates of different widths their own
	// Scales. Use Result.Mean, not the best value seen, as the answer on a
	// noisy objective, and stops that do not expect noise off (TolFun,
	// TolX, Stagnation) or a budget; DefaultConfig's MaxGenerations is a
	// budget too (2141 generations at n = 3): a run bounded by its context
	// alone needs MaxGenerations = 0 (ExampleConfig_noise).
	Noise bool
	// MinStd and MaxStd bound the standard deviation of every coordinate,
	// σ·‖A_i‖ (A_i the i-th row of A; see StdDevs), from below and from
	// above, as pycma's minstd and maxstd do: after each update σ is raised
	// (or lowered) so that every coordinate's deviation is at least MinStd
	// (at most MaxStd); MaxStd wins where the two conflict. 0: off. With
	// MinStd, a run on a noisy objective that never ends keeps searching at
	// that resolution instead of shrinking σ until it underflows. Either
	// costs a pass over A's rows a generation (n² reads; the update costs
	// λ·n² flops). They bound σ·‖A_i‖ of integer coordinates too, before
	// the margin's factor widens them (StdDevs reports the widened ones).
	MinStd, MaxStd float64
	// Seed seeds the optimizer's own xoshiro256++ generators. Every seed,
	// 0 included, is an ordinary seed: the same Config gives the same run,
	// bit for bit, on the same kernel path (see the package doc).
	Seed uint64
	// Update is the matrix update rule; the zero value is MMA. For large n
	// use LMMA: from a few thousand on, where a generation's O(λ·n²) gets
	// slow (n = 5000: about 37 ms against LMMA's 1 ms, on a Zen 4 core),
	// up to 10⁶, where A's n² floats stop fitting.
	Update Update
	// Memory is the number m of frozen slow rank-one terms LMMA keeps (see
	// LMMA); 0 means 2·λ₀ − FastMemory − 1, λ₀ = 4 + ⌊3 ln n⌋ (the fast
	// and the slow terms together 2·λ₀; 2·λ₀ with FastMemory −1). Only
	// with LMMA; at most 1024.
	Memory int
	// FastMemory is the number of frozen fast terms LMMA keeps beside its
	// Memory slow ones (see LMMA): windows at the path rate λ₀/(n+4),
	// λ₀ = 4 + ⌊3 ln n⌋ (LM-MA-ES's fastest path rate), each stretching A
	// by about 1/2 along its direction, like a slow window. 0 means
	// ⌊λ₀/4⌋: with the live fast window they span about one slow window.
	// −1: none (LMMA as it was before the fast terms, and as checkpoints
	// of format version 7 and before restore it). Only with LMMA; at most
	// 1024.
	FastMemory int

	// Lambda is the population size λ ≥ 2; 0 means the paper's
	// 4 + ⌊3 ln n⌋.
	Lambda int
	// Mu is the number of parents μ, 1 ≤ μ ≤ λ; 0 means ⌊λ/2⌋. The weights
	// are the paper's log weights for μ.
	Mu int
	// C is the path rate c in (0, 1]; 0 means 4/(n+4).
	C float64
	// C1 is the matrix rate c1 in (0, 1); 0 means 2/(n+√2)² (for LMMA
	// 1/(T·n), T = 1/c (rounded) its window: see Params.Window; there c1
	// may be 1, the default at n = 1).
	C1 float64
	// CSigma is the step-size path rate c_σ in (0, 1]; 0 means
	// √μ_eff/(√n+√μ_eff).
	CSigma float64
	// DSigma is the step-size damping d_σ > 0; 0 means
	// 1 + 2·max(0, √((μ_eff−1)/(n+1)) − 1) + c_σ.
	DSigma float64

	// TargetF stops the run once a fitness value ≤ TargetF is evaluated;
	// −Inf (DefaultConfig) turns it off. NaN is invalid. Unlike the other
	// fields, its zero value is not "off" but a target of 0: build Configs
	// with DefaultConfig.
	TargetF float64
	// MaxEvals stops the run once Evals() ≥ MaxEvals (checked after each
	// generation, so the count may pass it by less than λ); 0: no limit.
	// With restarts it counts the evaluations of all runs.
	MaxEvals int
	// MaxGenerations stops the run after that many generations (with a
	// Restart strategy: of each run, so it restarts); 0: no limit.
	// DefaultConfig sets pycma's maxiter, 100 + 150·(n+3)²/√λ (λ the
	// default for n).
	MaxGenerations int
	// TolFun stops the run when the best values of the last TolFunHist
	// generations, and all non-NaN values of the last generation, each
	// spread (max − min) less than TolFun; 0 turns it off. DefaultConfig:
	// 1e-12, a decade below pycma's tolfun (1e-11): the paper's targets are
	// 1e-10, and on its TwoAxes and DiffPowers at n = 32 the runs pass
	// through flat phases of spread ~1e-11 above 1e-10 that 1e-11 stops.
	TolFun float64
	// TolFunHist is the length of the TolFun history in generations; 0 means
	// 10 + ⌈30·n/λ⌉ (pycma's tolfunhist window).
	TolFunHist int
	// TolX stops the run when σ·max_i ‖A_i‖ (A_i the rows of A, so ‖A_i‖ is
	// √C_ii) is below TolX; 0 turns it off. DefaultConfig: 1e-11. The row
	// norms cost a pass over A, so they are computed exactly every 4th
	// generation up to n = 64 and every ⌈n/16⌉-th generation above; in
	// between, an upper bound kept in O(n) per generation is tested (so the
	// stop is never early, and at most max(3, ⌈n/16⌉ − 1) generations late).
	TolX float64
	// MaxCondition stops the run when (max_i ‖A_i‖ / min_i ‖A_i‖)², a lower
	// bound of the condition number of C = A·Aᵀ, exceeds it; 0 turns it off.
	// DefaultConfig: 1e14 (pycma's tolconditioncov). Checked when the row
	// norms are computed (see TolX).
	MaxCondition float64
	// NoEffect stops a run when its distribution has collapsed below the
	// resolution of the mean, as pycma's noeffectaxis and noeffectcoord
	// do: when adding 0.1σ times a principal axis of A·Aᵀ (scaled by its
	// standard deviation) to the mean changes none of its coordinates
	// (NoEffectAxis), or when adding 0.2σ·‖A_i‖ (the standard deviation
	// of coordinate i) to m_i does not change it, for some i
	// (NoEffectCoord). The tests are made every n generations of a run. The
	// axes come from a singular value decomposition of A (one-sided
	// Jacobi, about 10 sweeps of 3n³ flops) where a bound from the last one
	// (a product of 2n³ flops) does not already prove that every axis
	// moves the mean, as it does in most of a run; it takes n² more
	// floats, and 2n² more for the last decomposition up to n = 4096.
	NoEffect bool
	// Stagnation stops a run that no longer improves, as pycma's
	// tolstagnation does: every 5 generations the run records its
	// generation's best and median values; after more than n·(5 + 100/λ)
	// generations and 500 recorded, the run stops when its best value is
	// older than T/2 generations, T = ⌊100 + 100·n^1.5/λ⌋
	// (Params.Stagnation), and the medians of the last L records of both
	// the best and the median values are no better than those of the L
	// before, L = ⌊max(T, records)/10⌋. It keeps up to 20 000 records
	// (fewer when MaxGenerations is smaller), 2 floats each.
	Stagnation bool
	// FlatFitness stops a run after that many consecutive generations
	// whose best value equals the one ranked ⌊0.75λ⌋+1: the objective is
	// flat over three quarters of the population, and the step-size
	// adaptation has nothing to go by (pycma's tolflatfitness + 1). 0: off.
	FlatFitness int
	// Hopeless stops a run after the first of a restart strategy that
	// cannot improve on the earlier ones: when its best value minus
	// Hopeless times the spread of its last generation's values is still
	// above the best value of the earlier runs. A converging run's values
	// spread about as far as its mean is from the optimum it converges to,
	// so such a run ends worse than a run before it, and its evaluations
	// are better spent on the next. It also ends a run whose population
	// lies on a plateau worse than the best so far (the values hardly
	// spread there), which may have left the plateau later: on COCO's
	// bbob suite the evaluations saved are worth more (docs/bbob.md). 0:
	// off.
	Hopeless float64

	// Endless confirms a Config without a stop that bounds the run
	// (MaxEvals, MaxGenerations, TolFun, TolX and MaxCondition all 0): it
	// goes on until the caller stops calling Ask and Tell (or cancels
	// Optimize's context), or TargetF is met, as a tuner that never ends
	// does. New refuses such a Config without it: a Config literal leaves
	// every stop 0, and would run forever by mistake.
	Endless bool

	// RankMu adds the rank-μ term of CMA-ES to the MMA update of A, so that
	// every generation learns from all μ selected steps, not only from the
	// p-path:
	//
	//	A ← (1 − c1/2 − c_μ/2)·A + (c1/2)·p·vᵀ + (c_μ/2)·Σ_{i≤μ} w_i·y_{i:λ}·z_{i:λ}ᵀ,
	//
	// the first-order square root of CMA-ES's C ← (1 − c1 − c_μ)·C +
	// c1·p·pᵀ + c_μ·Σ w_i·y_{i:λ}·y_{i:λ}ᵀ, applied in one pass over A for
	// all μ + 1 terms. c1 then defaults to CMA-ES's 2/((n+1.3)² + μ_eff)
	// instead of the paper's (see CMu for c_μ); the paths and the step size
	// keep the paper's rates. It needs the MMA update (with ECMA or
	// Cholesky New returns an error naming RankMu). False (the default) is
	// the paper's algorithm. It pays on ill-conditioned problems and with
	// large populations (restarts): the repository's docs/rank-mu.md has
	// the measurements.
	RankMu bool
	// CMu is the rank-μ rate c_μ in (0, 1), c1 + c_μ ≤ 1; 0 means
	// min(1 − c1, 3·2(μ_eff − 2 + 1/μ_eff)/((n+2)² + μ_eff)), three times
	// the rate of Hansen's CMA-ES tutorial (2016), because this update
	// learns from the μ selected steps only, where CMA-ES's default also
	// learns from the λ − μ worst. Only with RankMu.
	CMu float64
	// Active makes the rank-μ term active, as CMA-ES's default is
	// (Jastrebski and Arnold 2006; Hansen's tutorial, 2016): it also learns
	// from the λ − μ worst steps of the generation, with negative weights,
	// which shrinks A along the directions that failed:
	//
	//	A ← (1 − c1/2 − (c_μ/2)·Σ_{i≤λ} w_i)·A + (c1/2)·p·vᵀ + (c_μ/2)·Σ_{i≤λ} w°_i·y_{i:λ}·z_{i:λ}ᵀ,
	//
	// w_1…w_μ the positive weights, w_{μ+1}…w_λ ≤ 0 pycma's negative
	// weights (Params.NegWeights), w°_i = w_i for the positive ones and
	// w_i·n/‖z_{i:λ}‖² for the negative ones (which bounds their pull and
	// keeps A invertible). The rates are then those of CMA-ES with active
	// update (pycma 4.4.0): c1 = min(1, λ/6)·2/((n+1.3)² + μ_eff) and
	// c_μ = min(1 − c1, 2(μ_eff − 1.75 + 1/μ_eff)/((n+2)² + μ_eff)), with
	// the negative weights summing to −(1 + c1/c_μ) where that keeps the
	// bounds of Params.NegWeights, so that A's scale does not decay. Only
	// with RankMu.
	Active bool

	// Restart selects a restart strategy: NoRestart (the zero value, the
	// paper's single run), IPOP or BIPOP. See Restart for when a run
	// restarts and how.
	Restart Restart
	// MaxRestarts limits the restarts (for BIPOP: the large-population
	// runs; see BIPOP); 0 means 9, so λ grows up to 2⁹·λ0. Only with a
	// Restart strategy.
	MaxRestarts int

	// Lower and Upper are box constraints: every point handed to the
	// objective (Ask's candidates, Optimize's calls) satisfies
	// Lower[i] ≤ x_i ≤ Upper[i]. Each is nil (no bound on that side) or of
	// length Dim; entries may be −Inf (Lower) or +Inf (Upper) for a
	// coordinate without that bound, never NaN, and Lower[i] ≤ Upper[i] (equal
	// fixes the coordinate). The initial mean must lie in the box. The
	// candidates are mapped into the box coordinate by coordinate by
	// pycma's smooth piecewise linear/quadratic transformation
	// (BoxConstraintsLinQuadTransformation): the identity well inside the
	// box, a quadratic within a margin of each bound, mirrored and
	// periodic beyond. The search distribution, its mean and its update
	// stay in the unconstrained space (the mean may leave the box); Ask's
	// candidates, Result.X and BestX are mapped points. A minimum on a
	// bound is a smooth minimum of the mapped problem, found to full
	// precision. With σ = 1, one σ for coordinates whose boxes differ in
	// width by orders of magnitude searches the wide ones in steps of the
	// narrow ones: set Scales to about a quarter of each width
	// (ExampleConfig_knobs). New copies both.
	Lower, Upper []float64

	// Workers is the number of goroutines that evaluate the λ candidates of
	// a generation inside Optimize; 0 or 1: Optimize's own goroutine alone.
	// With Workers ≥ 2 the objective is called concurrently and must be safe
	// for concurrent use; the fitness values land in their candidates'
	// slots whatever goroutine computed them, so the run is bit for bit the
	// same as with Workers = 1. Optimize starts the goroutines once per
	// call; a panic in the objective is re-raised on Optimize's goroutine.
	// Ask and Tell are not affected.
	Workers int

	// Threads is the number of goroutines that share a generation's linear
	// algebra; 0 or 1: the calling goroutine alone. With the full matrix
	// (MMA, ECMA and Cholesky) the sampling A·z_i and the fused update of
	// A split by ranges of rows of A, from n = 512; with LMMA its two
	// passes over the stored vectors (the coefficients by ranges of the
	// vectors, the candidates and y_w by ranges of columns) and the Gram
	// matrix of its row norms, each once it is about 17 Mflop (from n ≈
	// 8000 at the default Memory). The rest of a generation stays on the
	// calling goroutine; where the sampling splits (the full matrix from
	// n = 512, LMMA where its passes do once all its slots are in use),
	// the normal deviates of the next generation are drawn by one of the
	// goroutines while the caller evaluates this one and tells it (the
	// full matrix's: as soon as that goroutine's share of the sampling is
	// done; where LMMA's passes do not split yet, while the caller
	// computes them) (λ·n more floats), from a copy of the generator
	// that a restart discards; a population of more than 2^15 deviates is
	// drawn in chunks of independent streams, and the caller takes those
	// the goroutine has not reached when it needs them. Every element is
	// computed as on one goroutine, so the run is bit for bit the same for
	// every Threads. New starts Threads − 1 goroutines that live with the
	// optimizer (none per generation; Close or the optimizer's collection
	// ends them). After its share of a generation each of them waits for
	// the next one spinning (yielding the processor every few hundred
	// checks) before it parks, so that a generation need not wake it
	// (which takes 10–200 µs, depending on the machine): for 1.5 times the
	// longest wait it met over its last few hand-outs (the evaluation of a
	// generation's candidates, mostly), at least 100 µs, and for 100 µs
	// where that would exceed 1 ms. Threads is not part of a checkpoint:
	// UnmarshalBinary keeps the receiver's.
	Threads int

	// MaxMemory bounds the bytes an optimizer allocates (A, the
	// population, their scratch space; A() included), so that a Config too
	// large for the machine gives an error instead of killing the process:
	// New refuses a Config whose first run needs more, and a restart whose
	// larger population would need more ends the optimization with
	// MaxMemoryReached instead of allocating. 0 means the Go runtime's
	// memory limit (debug.SetMemoryLimit, GOMEMLIMIT) when one is set, else
	// the machine's physical memory (read on Linux; elsewhere no bound but
	// the sizes the runtime can represent).
	MaxMemory int64

	// Observer, when not nil, is called at the end of every Tell (also
	// inside Optimize), after the update and the stop checks. It may read
	// the optimizer (accessors, Result, MarshalBinary) but must not call Ask
	// or Tell. It is not saved in checkpoints. A stop that Ask finds (the
	// sampled candidates are not finite: NumericalBreakdown, or a restart
	// instead) happens outside Tell and is not reported to it; read Reason
	// after Ask returns nil. The observer may call SetLimits and
	// Reconfigure; when that stops (or restarts) the run, the observer is
	// called again after its call returned, never inside it.
	Observer func(*Optimizer)
}

// DefaultConfig returns the paper's settings for dimension n: λ, μ, the
// weights and the rates of its parameter table (Lambda, Mu, C, C1, CSigma
// and DSigma are left 0, which selects them), σ0 = 1, the origin as mean,
// seed 0, the MMA update, and the default stops: TargetF −Inf (off),
// MaxEvals off, MaxGenerations 100+150(n+3)²/√λ, TolFun 1e-12, TolX 1e-11,
// MaxCondition 1e14. It never panics; for n < 1 it returns a Config that New
// rejects.
func DefaultConfig(n int) Config {
	cfg := Config{
		Dim:          n,
		Sigma:        1,
		TargetF:      math.Inf(-1),
		TolFun:       1e-12,
		TolX:         1e-11,
		MaxCondition: 1e14,
	}
	if n >= 1 {
		lambda := float64(defaultLambda(n))
		g := 100 + 150*(float64(n)+3)*(float64(n)+3)/math.Sqrt(lambda)
		if g < 1<<53 && g < float64(math.MaxInt) {
			cfg.MaxGenerations = int(g)
		} // else: off; no run gets there (on 32-bit platforms from n ≈ 7000)
	}
	return cfg
}

// Params are the strategy parameters of a run, resolved from a Config: the
// paper's parameter table wherever the Config leaves a field zero.
type Params struct {
	Lambda  int       // λ = 4 + ⌊3 ln n⌋
	Mu      int       // μ = ⌊λ/2⌋
	Weights []float64 // w_i = (ln(μ+1) − ln i)/(μ ln(μ+1) − Σ_{j≤μ} ln j), i = 1..μ
	MuEff   float64   // μ_eff = 1/Σ w_i²
	C       float64   // c = 4/(n+4), rate of the p- and v-paths
	C1      float64   // c1 = 2/(n+√2)², rate of A (LMMA: 1/(Window·n))
	CSigma  float64   // c_σ = √μ_eff/(√n+√μ_eff)
	DSigma  float64   // d_σ = 1 + 2·max(0, √((μ_eff−1)/(n+1)) − 1) + c_σ
	// ChiN is E‖N(0, I)‖, by the usual approximation
	// √n·(1 − 1/(4n) + 1/(21n²)) (not the exact Γ ratio).
	ChiN float64
	// TolFunHist is the resolved length of the TolFun history.
	TolFunHist int
	// CMu is the rank-μ rate c_μ (0 without Config.RankMu); with RankMu, C1
	// is CMA-ES's 2/((n+1.3)² + μ_eff) unless Config.C1 sets it.
	CMu float64
	// NegWeights are the weights of the λ − μ worst steps with
	// Config.Active (nil without): w'_i = ln((λ+1)/2) − ln i for
	// i = μ+1…λ (≤ 0), scaled to sum to −min(1 + c1/c_μ,
	// 1 + 2μ⁻_eff/(μ_eff + 2), (1 − c1 − c_μ)/(n·c_μ)), μ⁻_eff =
	// (Σ w'_i)²/Σ w'_i², as in pycma (the first bound: no decay of A; the
	// second: the learning rate of the negative part; the third: A stays
	// invertible).
	NegWeights []float64
	// Stagnation is the T of Config.Stagnation, ⌊100 + 100·n^1.5/λ⌋ (0
	// without it).
	Stagnation int
	// Memory and Window are LMMA's number of frozen terms m and the
	// generations T = 1/c (rounded) of a window (0 for the other updates).
	Memory, Window int
	// FastMemory, FastWindow and FastC are those of LMMA's fast terms: their
	// number, the generations of a fast window and the path rate of the
	// fast pair, max(c, min(1, λ₀/(n+4))) (0 without fast terms).
	FastMemory, FastWindow int
	FastC                  float64
}

func cfgErr(field, format string, args ...any) error {
	return &ConfigError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// finite reports whether x is neither NaN nor ±Inf. (Not x − x == 0: once
// inlined into a caller where x = a·b, Go may fuse x − x into an FMA on
// arm64, which yields the rounding error of a·b, not 0.)
func finite(x float64) bool { return math.Abs(x) <= math.MaxFloat64 }

// Params validates c and returns the strategy parameters of its first run,
// as an Optimizer made from it would use them, without making one (New
// allocates A and the population). The error is New's for the same Config.
func (c Config) Params() (Params, error) {
	c, fix, err := splitFixed(c)
	if err != nil {
		return Params{}, err
	}
	return resolve(&c, fix)
}

// configChecks validate a Config, each the fields of one concern, in this
// order; those that resolve parameters fill in the Params as they go (λ and
// μ first, the rates once they are known). A new option is validated by a
// function in the file of its feature, listed here.
var configChecks = []func(*Config, *Params) error{
	checkCore,
	checkPopulation,
	checkDistribution,
	checkStdBounds,
	checkRestart,
	checkBounds,
	checkInteger,
	checkWorkers,
	checkThreads,
	checkMaxMemory,
	resolveRates,
	checkStops,
	checkMeanInBounds,
}

// resolve validates cfg, the Config of the searched coordinates with their
// embedding fix (nil without Fixed; splitFixed), computes the Params of its
// first run and checks that the run fits the memory budget.
func resolve(cfg *Config, fix *fixedCoords) (Params, error) {
	var p Params
	for _, check := range configChecks {
		if err := check(cfg, &p); err != nil {
			return p, err
		}
	}
	return p, checkMemory(cfg, fix, &p, 0)
}

// checkCore validates Dim, Sigma and Mean.
func checkCore(cfg *Config, _ *Params) error {
	n := cfg.Dim
	if n < 1 {
		return cfgErr("Dim", "%d: must be ≥ 1", n)
	}
	// A is n×n (or m×n with LMMA) and the population λ×n: refuse sizes
	// whose buffers the runtime could not even represent (make would
	// panic). Whether memory suffices is checkMemory's.
	if cfg.Update == LMMA {
		if n > 1<<30 || float64(n)*1100 > math.MaxInt/4 {
			return cfgErr("Dim", "%d: too large", n)
		}
	} else if n > 1<<20 || float64(n)*float64(n) > math.MaxInt/4 {
		return cfgErr("Dim", "%d: too large for a full matrix (n·n must fit; use Update LMMA)", n)
	}
	if !finite(cfg.Sigma) || cfg.Sigma <= 0 {
		return cfgErr("Sigma", "%g: must be finite and > 0", cfg.Sigma)
	}
	if cfg.Mean != nil {
		if len(cfg.Mean) != n {
			return cfgErr("Mean", "length %d, want Dim = %d (or nil)", len(cfg.Mean), n)
		}
		for i, x := range cfg.Mean {
			if !finite(x) {
				return cfgErr("Mean["+strconv.Itoa(i)+"]", "%g: must be finite", x)
			}
		}
	}
	return nil
}

// resolveRates computes the rates of the first run (p.Lambda and p.Mu set).
func resolveRates(cfg *Config, p *Params) error {
	par, err := computeParams(cfg, p.Lambda, p.Mu)
	*p = par
	return err
}

// computeParams computes the strategy parameters of a run with population
// λ and μ parents (validated) under cfg, and validates the rates. New calls
// it for the first run, a restart for each later one.
func computeParams(cfg *Config, lambda, mu int) (Params, error) {
	p := Params{Lambda: lambda, Mu: mu}
	for _, r := range runRates {
		if err := r(cfg, &p); err != nil {
			return p, err
		}
	}
	return p, nil
}

// runRates resolve the parameters of a run, each those of one concern, in
// this order: the weights and μ_eff, which the others use, first.
var runRates = []func(*Config, *Params) error{
	selectionRates, distributionRates, stepSizeRates, stopRates,
}

// rate resolves a rate field: def when v is 0, v when it is in (0, 1) (or
// (0, 1] when closedAtOne), an error naming field otherwise.
func rate(field string, v, def float64, closedAtOne bool) (float64, error) {
	if v == 0 {
		return def, nil
	}
	if !finite(v) || v <= 0 || v > 1 || (v == 1 && !closedAtOne) {
		hi := ")"
		if closedAtOne {
			hi = "]"
		}
		return 0, cfgErr(field, "%g: must be in (0, 1%s (or 0 for the default)", v, hi)
	}
	return v, nil
}
