package mmaes

import "strconv"

// Update selects the search distribution's family and the rule that adapts
// it (Config.Update). The distribution is N(m, σ²·A·Aᵀ), A = I at the start
// of a run. MMA, ECMA and Cholesky keep A as a full n×n matrix (n² floats,
// O(n²) a candidate); LMMA keeps it as the identity plus a limited number
// of rank-one terms (O(m·n) floats and time a candidate), for large n.
type Update int

const (
	// MMA is the paper's update (Algorithm 1, line 13):
	//
	//	A ← (1 − c1/2)·A + (c1/2)·p·vᵀ.
	MMA Update = iota
	// ECMA is the efficient Cholesky CMA-ES update the paper derives MMA
	// from (eq. eCMA): the same two paths with the exact coefficient,
	//
	//	A ← √(1−c1)·A + b·p·vᵀ,  b = √(1−c1)/‖v‖²·(√(1 + c1/(1−c1)·‖v‖²) − 1).
	ECMA
	// Cholesky is the Cholesky CMA-ES (Suttorp et al. 2009) the paper
	// compares with: it keeps A and A_inv ≈ A⁻¹, sets u = A_inv·p and
	//
	//	A     ← √(1−c1)·A + √(1−c1)/‖u‖²·(√(1+c1/(1−c1)·‖u‖²) − 1)·p·uᵀ,
	//	A_inv ← A_inv/√(1−c1) + 1/(√(1−c1)·‖u‖²)·(1/√(1+c1/(1−c1)·‖u‖²) − 1)·u·(uᵀA_inv).
	//
	// The v-path is kept (Optimizer.V) but not used.
	Cholesky
	// LMMA is the limited-memory MMA-ES, for large n (from a few thousand,
	// where the full matrix's O(n²) a candidate gets slow, to 10⁶): the MMA
	// update, with A kept as
	//
	//	A = diag(S) + Σ_t g_t·p_t·v_tᵀ
	//
	// (S = Config.Scales, else 1): each generation adds
	// (c1/2)·p·vᵀ to the live term of the current window of T = 1/c
	// (rounded) generations; at the end of a window the term is frozen,
	// and Config.Memory frozen terms are kept, the oldest forgotten.
	// Beside these slow terms a second pair of paths at the rate
	// λ₀/(n+4) (λ₀ = 4 + ⌊3 ln n⌋) makes fast windows of the same stretch,
	// Config.FastMemory of them kept: the slow terms serve ill-conditioned
	// problems, the fast ones a valley that turns. A generation costs
	// O(m·n) a candidate and the distribution (2m + 5)·n floats, m the
	// stored terms of both (default 2·(4 + ⌊3 ln n⌋)). The repository's
	// docs/large-scale.md derives it and has its measurements. It has no
	// rank-μ term (RankMu, Active) and no Noise; A() returns the dense
	// matrix only while n² floats fit a quarter of the memory budget (else
	// nil), AInv nil, P and V the live pair. The stretches are not offset
	// by a shrink of A (MMA's factor 1 − c1/2), only by the forgetting of
	// old terms, which at small n (up to about 15 at the default memory)
	// is too slow: where selection carries no information (pure noise, a
	// plateau) the spread grows without bound there, until the run ends
	// in NumericalBreakdown, unless Config.MaxStd holds it. The full
	// matrix is the one for small n: there it is also smaller and solves
	// ill-conditioned problems LMMA does not.
	LMMA

	numUpdates
)

// String returns "MMA", "ECMA", "Cholesky" or "LMMA".
func (u Update) String() string {
	switch u {
	case MMA:
		return "MMA"
	case ECMA:
		return "ECMA"
	case Cholesky:
		return "Cholesky"
	case LMMA:
		return "LMMA"
	}
	return "Update(" + strconv.Itoa(int(u)) + ")"
}

// A distribution is the search distribution's shape and how it learns: the
// optimizer samples x_i = m + σ·y_i with y_i = A·z_i and z_i ~ N(0, I), and
// after ranking hands the generation to the distribution to adapt A. The
// mean, the step size σ, selection, stops and restarts are the optimizer's;
// everything about A (its storage, its paths, its update rule, the bounds on
// its rows the stop tests need) is the distribution's.
//
// Adding a distribution: a type implementing this interface in a file of
// its own, its Update constant above, and its cases in newDistribution,
// checkDistribution and distributionRates below.
type distribution interface {
	// setParams takes the rates of a run (Params) and sizes the buffers
	// that depend on λ and μ, allocating only when they grow.
	setParams(par *Params, lambda int)
	// reset sets the initial state of a run: A = diag(Config.Scales) (I
	// without), paths zero.
	reset()
	// sample sets y_i = A·z_i for the k rows of z (n each), row-major
	// into y. It applies an update left pending by commit.
	sample(y, z []float64, k int)
	// propose computes the update for the ranked generation g into
	// scratch space and reports whether its result is finite; it changes
	// no state.
	propose(g *generation) bool
	// localUpdate writes the proposed update in A's own coordinates,
	// M = A⁻¹·A_new (n×n, symmetric), for the noise handling;
	// scaleProposal then takes it at a rate η ∈ (0, 1], as
	// A·(I + η·(M − I)).
	localUpdate(g *generation, dst []float64)
	scaleProposal(eta float64)
	// commit applies the last successful proposal. It also keeps A's
	// magnitude near 1: σ and A trade scale (only σ·A matters), and on a
	// target that keeps moving their scales drift apart until one
	// overflows; when A's scale leaves [2⁻⁶⁴, 2⁶⁵) commit multiplies A (and
	// what lives in its space) by 2^k, exactly, and returns k for the
	// optimizer to divide σ by; else it returns 0. k is limited by
	// rebalanceLimit(k, sigma), so that σ·2^−k stays finite and normal: a
	// σ that grows with A (a run diverging with its stops off) is left
	// to the breakdown test rather than overflowed.
	commit(g *generation, sigma float64) (k int)
	// inspect returns what the stop tests need after the update of
	// generation gen (the count of all generations so far); exact asks
	// for the exact row norms this generation.
	inspect(gen int, exact bool) health
	// solve sets z = A⁻¹·y (for injected points) and reports whether A
	// was regular; it may allocate on its first call.
	solve(z, y []float64) bool
	// stdDevs sets dst[i] = ‖A_i‖, the standard deviation of coordinate i
	// relative to σ (len(dst) = n). It applies a pending update.
	stdDevs(dst []float64)
	// deviations returns the smallest and the largest ‖A_i‖, the values
	// stdDevs gives, without a vector of n (the state is not pending).
	deviations() (lo, hi float64)
	// flush applies a pending update, so that the state is A itself.
	flush()
	// encode appends the state to e; decode reads it back into a
	// distribution made for the same Config and Params, and validates it
	// (live: the state of a running optimizer, which must be finite).
	encode(e *encoder)
	decode(d *decoder, live bool) error

	// noEffect returns the NoEffect stops for the mean m and step size σ:
	// NoEffectCoord when 0.2σ times a coordinate's deviation does not
	// change that coordinate of m, NoEffectAxis when 0.1σ times one of the
	// distribution's principal (for a limited memory: stretched)
	// directions, scaled by its deviation, changes none.
	noEffect(m []float64, sigma float64) stopSet

	// For the accessors: A (a copy the distribution keeps, nil when it
	// would not fit), the inverse factor (nil if none) and the two paths.
	matrix() []float64
	inverse() []float64
	paths() (p, v []float64)
}

// A directSampler is a distribution that writes the candidates itself,
// x_l = m + σ·A·z_l, and keeps no steps y_l: the population then holds Z
// and X only (the limited memory's λ·n floats fewer). The driver gets the
// step it needs from it: y_w = A·z_w for a weighted sum of the last
// sample's rows.
type directSampler interface {
	// sampleDirect sets x_l = m + σ·A·z_l for the k rows of z, whose
	// elements are at most zMax in magnitude (+Inf: not known), and
	// reports whether every x_l is known to be finite (false: not known,
	// the caller checks).
	sampleDirect(x, z, m []float64, sigma float64, k int, zMax float64) bool
	// candidate sets dst to row l of the last sample (z its z_l), with the
	// bits sampleDirect gave it.
	candidate(dst, z, m []float64, sigma float64, l int)
	// weightedStep sets yw = A·zw, zw = Σ_r w_r·z_{idx_r} of the last
	// sample.
	weightedStep(yw, zw, w []float64, idx []int)
}

// A scaledSampler is a distribution whose sample ends with y ← s·y:
// sampleUnscaled leaves that product out and returns s, for the placement
// of the candidates to apply in its own pass over y (the same bits).
type scaledSampler interface {
	sampleUnscaled(y, z []float64, k int) (s float64)
}

// A generation is what the optimizer hands to the distribution after
// ranking: the population of z_i and y_i = A·z_i (λ×n, row-major), the
// ranking (idx[k] is the k-th best), the μ weights and the weighted sums of
// the selected steps z_w = Σ w_k·z_{k:λ}, y_w = Σ w_k·y_{k:λ}.
type generation struct {
	z, y       []float64
	idx        []int
	weights    []float64
	negWeights []float64 // of the λ − μ worst, with the active update
	zw, yw     []float64
	// pathScale corrects the paths' normalization √(c(2−c)μ_eff) for a
	// generation with fewer results than λ (TellSome): √(μ'_eff/μ_eff);
	// 1 for a whole generation.
	pathScale float64
}

// health is what a distribution reports to the stop tests.
type health struct {
	// maxRow is an upper bound of the largest row norm of A, max_i ‖A_i‖
	// (the largest standard deviation of a coordinate, relative to σ);
	// exact when scanned.
	maxRow float64
	// minRow is the smallest row norm when scanned, else NaN.
	minRow float64
	// cond is the largest over the smallest row norm of diag(Scales)⁻¹·A
	// (of A without Scales) when scanned, else NaN: the square root of a
	// lower bound of the condition number of the covariance relative to
	// its initial shape.
	cond float64
	// scanned says the row norms were computed exactly this generation.
	scanned bool
	// broken says the state is not finite or degenerate (a zero row).
	broken bool
}

// newDistribution returns the distribution of a validated cfg (its rates
// and λ-sized buffers come with setParams).
func newDistribution(cfg *Config) distribution {
	if cfg.Update == LMMA {
		return newLowRank(cfg)
	}
	return newFullMatrix(cfg.Dim, cfg.Update, cfg.RankMu, cfg.Scales, cfg.NoEffect)
}

// checkDistribution validates the options of the update rule and the
// initial scales, which every distribution starts from.
func checkDistribution(cfg *Config, _ *Params) error {
	if cfg.Update < 0 || cfg.Update >= numUpdates {
		return cfgErr("Update", "%d: unknown update rule", int(cfg.Update))
	}
	if cfg.Scales != nil {
		if len(cfg.Scales) != cfg.Dim {
			return cfgErr("Scales", "length %d, want Dim = %d (or nil)", len(cfg.Scales), cfg.Dim)
		}
		for i, s := range cfg.Scales {
			if !finite(s) || !finite(1/s) || s <= 0 {
				return cfgErr("Scales["+strconv.Itoa(i)+"]", "%g: must be finite, > 0 and have a finite inverse", s)
			}
		}
	}
	if err := checkLowRank(cfg); err != nil {
		return err
	}
	if cfg.Update == LMMA {
		return nil
	}
	return checkFullMatrix(cfg)
}

// distributionMemory returns the bytes the distribution of cfg allocates
// for a run with population λ and μ parents.
func distributionMemory(cfg *Config, lambda, mu int) float64 {
	if cfg.Update == LMMA {
		return lowRankMemory(cfg, lambda)
	}
	return fullMatrixMemory(cfg, lambda, mu)
}

// distributionRates resolves the distribution's rates of a run (the path
// rate c, c1, c_μ) into p, whose λ, μ and μ_eff are set.
func distributionRates(cfg *Config, p *Params) error {
	if cfg.Update == LMMA {
		return lowRankRates(cfg, p)
	}
	return fullMatrixRates(cfg, p)
}
