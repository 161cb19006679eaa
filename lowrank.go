package mmaes

import (
	"math"

	"github.com/mmaes-go/mmaes/kernel"
)

// lowRank is the limited-memory distribution (Update LMMA): MMA-ES's
// rank-one adaptation of the mutation matrix with A kept as
//
//	A = diag(S) + Σ_t g_t·p_t·v_tᵀ,
//
// a diagonal S (Config.Scales, or 1, at the start of a run) and at most
// Memory + 1 pairs of vectors (p_t, v_t) with coefficients g_t.
// docs/large-scale.md derives it; in short:
//
//   - σ·A is what the candidates see, so MMA's A ← α·A + β·p·vᵀ is the
//     same distribution as A ← A + (β/α)·p·vᵀ with σ taking the factor α;
//     that factor is dropped (the step-size adaptation keeps σ's scale),
//     and A becomes S plus a sum of rank-one stretches, η = c1/2 each
//     generation: A ← A + η·p·vᵀ.
//   - The paths move slowly (rate c), so the terms of consecutive
//     generations point almost the same way: the terms of a window of T ≈
//     1/c generations are kept as one, g·p·vᵀ with the window's path pair
//     (the live pair: p, v are updated in place, g grows by η a
//     generation). When the window ends, the pair is frozen and a new
//     window starts from a copy of the paths.
//   - Memory frozen windows are kept; a new one replaces the oldest, which
//     is forgotten: its stretch leaves A (a limited memory, as in LM-MA-ES
//     and Rm-ES). The diagonal part is never forgotten, so A keeps full
//     rank, and a stretch that is still selected is not lost with its
//     window: the terms after it were made from paths p = A·v that hold
//     it.
//   - Beside these slow windows, a ring of fast ones (FastMemory frozen
//     and a live one) follows a second pair of paths at the faster rate
//     λ₀/(n+4), each window adding the same stretch of about 1/2: the
//     slow windows remember directions for long (what ill-conditioned
//     problems need), the fast ones turn with a valley that turns.
//     Slots 0 … fast−1 hold the fast ring, the slow ring follows.
//
// Sampling the population is two passes over the stored vectors: the
// coefficients w_{l,t} = v_t·z_l (kernel.DotRows), then the candidates
// x_l = m + σ·(S∘z_l + Σ_t g_t·w_{l,t}·p_t) (kernel.CombineRows), with no
// step y_l stored: y_w = A·z_w comes from the same coefficients.
type lowRank struct {
	n, mem int
	s0     []float64 // Config.Scales, or nil

	// The rates of the run: the path rate c, √(c(2−c)μ_eff), η = c1/2 and
	// the window T.
	c, cp, eta float64
	window     int

	sd   []float64 // the diagonal part S of A (D at the start of a run)
	sMax float64   // max_i S_i
	k    int       // slots in use, fast+1 … slots()
	live int       // the slot of the live pair
	win  int       // generations of the live window so far
	p, v []float64 // slots()×n: slot t is p[t*n:(t+1)*n]
	g    []float64 // slots() coefficients

	// The fast ring: its slots (0 … fast−1, all in use; 0 without it),
	// its live slot and the generations of that window so far, its path
	// rate cF, √(cF(2−cF)μ_eff), ηF and window. Its paths move in place
	// at commit (no proposal vectors: propose bounds them instead).
	fast, fLive, fWin int
	cF, cpF, etaF     float64
	windowF           int

	// Per slot: max_i |p_t,i| and ‖v_t‖, for the bound of A's row norms.
	pInf, vNorm []float64

	// The proposal: the live slot's new paths and their bounds.
	pNew, vNew      []float64
	pNewInf, vNewNm float64

	// The last sample's coefficients: w[l*k+t] = v_t·z_l, and cw[l*k+t] =
	// g_t·w[l*k+t] (λ×k each); cs is the coefficient row of a weighted
	// step.
	w, cw, cs []float64
	lambda    int

	// The last scan: its extremes, their ratio relative to the scales, and
	// the row norms (norms, allocated by the first stdDevs; normsValid when
	// the scan filled it); whether A changed since (scanned false).
	lo, hi, relCond     float64
	norms               []float64
	scanned, normsValid bool

	// Scratch: the Gram matrix of the v_t (gram), and solve's space.
	gram           []float64
	solveM, solveR []float64
	view           []float64 // the dense A that matrix returns, when it fits
	budget         int64

	// threads splits the two passes over goroutines (Config.Threads); nil:
	// one. dot and comb are their jobs.
	threads *rowThreads
	dot     dotJob
	comb    combineJob
}

// newLowRank allocates a limited-memory distribution for a validated cfg.
func newLowRank(cfg *Config) *lowRank {
	n, mem := cfg.Dim, memoryOf(cfg)
	d := &lowRank{n: n, mem: mem, fast: fastSlotsOf(cfg), budget: memoryBudget(cfg)}
	if cfg.Scales != nil {
		d.s0 = append([]float64(nil), cfg.Scales...)
	}
	slots := d.slots()
	d.p, d.v = make([]float64, slots*n), make([]float64, slots*n)
	d.g, d.pInf, d.vNorm = make([]float64, slots), make([]float64, slots), make([]float64, slots)
	vec := make([]float64, 3*n)
	next := func() []float64 {
		x := vec[:n:n]
		vec = vec[n:]
		return x
	}
	d.sd, d.pNew, d.vNew = next(), next(), next()
	d.gram = make([]float64, slots*slots)
	d.cs = make([]float64, slots)
	return d
}

// memoryOf returns the number of frozen slow pairs of cfg: Config.Memory,
// or 2·λ₀ less the fast ring's slots (λ₀ = 4 + ⌊3 ln n⌋; at least 1): the
// two rings keep 2·λ₀ terms besides the live slow one, twice LM-MA-ES's
// number of directions (its paths have geometric time scales; the slow
// windows here are all 1/c long, and the ill-conditioned problems need the
// longer memory: docs/large-scale.md).
func memoryOf(cfg *Config) int {
	if cfg.Memory > 0 {
		return cfg.Memory
	}
	return max(1, 2*defaultLambda(cfg.Dim)-fastSlotsOf(cfg))
}

// fastSlotsOf returns the slots of cfg's fast ring: Config.FastMemory
// frozen ones, or ⌊λ₀/4⌋ (λ₀ the default population of n: the ring, the
// live slot with it, then spans about one slow window, since a fast
// window is about 4/λ₀ of a slow one), and the live one; 0 with
// FastMemory −1 (no fast ring).
func fastSlotsOf(cfg *Config) int {
	switch {
	case cfg.FastMemory < 0:
		return 0
	case cfg.FastMemory > 0:
		return cfg.FastMemory + 1
	}
	return defaultLambda(cfg.Dim)/4 + 1
}

// slots is the number of pairs: the fast ring's and the slow ring's.
func (d *lowRank) slots() int { return d.fast + d.mem + 1 }

// slotsOf is slots for cfg, before the distribution exists.
func slotsOf(cfg *Config) int { return fastSlotsOf(cfg) + memoryOf(cfg) + 1 }

// checkLowRank validates the options of LMMA: Memory, and the features it
// does not have.
func checkLowRank(cfg *Config) error {
	if cfg.Memory < 0 || cfg.Memory > 1<<10 {
		return cfgErr("Memory", "%d: must be in [0, 1024] (0: the default)", cfg.Memory)
	}
	if cfg.FastMemory < -1 || cfg.FastMemory > 1<<10 {
		return cfgErr("FastMemory", "%d: must be in [-1, 1024] (0: the default, -1: none)", cfg.FastMemory)
	}
	if cfg.Update != LMMA {
		if cfg.Memory != 0 {
			return cfgErr("Memory", "%d: only for the LMMA update, not %v", cfg.Memory, cfg.Update)
		}
		if cfg.FastMemory != 0 {
			return cfgErr("FastMemory", "%d: only for the LMMA update, not %v", cfg.FastMemory, cfg.Update)
		}
		return nil
	}
	switch {
	case cfg.RankMu:
		return cfgErr("RankMu", "not with the LMMA update (it keeps rank-one terms only)")
	case cfg.Noise:
		return cfgErr("Noise", "not with the LMMA update (its rate adaptation costs O(n³) a generation)")
	}
	return nil
}

// lowRankRates resolves c (4/(n+4)), the window T = 1/c rounded and c1 = 2η with
// η = 1/(2·T·n): a window's stretch along a path of typical length
// (‖p‖·‖v‖ ≈ n under random selection) is η·T·n = 1/2.
func lowRankRates(cfg *Config, p *Params) error {
	nf := float64(cfg.Dim)
	var err error
	if p.C, err = rate("C", cfg.C, 4/(nf+4), true); err != nil {
		return err
	}
	p.Window = max(1, int(math.Round(1/p.C)))
	// c1 = 1 (η = 1/2) is the default at n = 1, where a window is one
	// generation, so c1 may be 1 here.
	if p.C1, err = rate("C1", cfg.C1, 1/(float64(p.Window)*nf), true); err != nil {
		return err
	}
	p.Memory = memoryOf(cfg)
	if fast := fastSlotsOf(cfg); fast > 0 {
		p.FastMemory = fast - 1
		p.FastC = max(p.C, min(1, float64(defaultLambda(cfg.Dim))/(nf+4)))
		p.FastWindow = max(1, int(math.Round(1/p.FastC)))
	}
	return nil
}

// lowRankMemory returns the bytes of the limited-memory distribution for a
// run with population λ.
func lowRankMemory(cfg *Config, lambda int) float64 {
	n, slots := float64(cfg.Dim), float64(slotsOf(cfg))
	return 8 * (2*slots*n + 3*n + 2*slots*slots + 3*slots + 2*float64(lambda)*slots)
}

func (d *lowRank) setParams(par *Params, lambda int) {
	d.c, d.eta, d.window = par.C, par.C1/2, par.Window
	d.cp = math.Sqrt(par.C * (2 - par.C) * par.MuEff)
	if d.fast > 0 {
		// A fast window's stretch is 1/2 too: ηF = 1/(2·T_F·n).
		d.cF, d.windowF = par.FastC, par.FastWindow
		d.etaF = 1 / (2 * float64(d.windowF) * float64(d.n))
		d.cpF = math.Sqrt(par.FastC * (2 - par.FastC) * par.MuEff)
	}
	slots := d.slots()
	if len(d.w) < lambda*slots {
		d.w, d.cw = make([]float64, lambda*slots), make([]float64, lambda*slots)
	}
	d.lambda = lambda
}

// reset starts a run: S from the scales, the fast ring's slots and the
// live slow one zero. Only those k slots are cleared: every reader of the
// slots stops at k, and a slot joins them through startWindow, which
// writes it whole, so the others may hold an earlier run's terms. At large
// n that spares New and each restart the first touch of memory that a run
// fills only over many windows (a slot every (n+4)/4 generations).
func (d *lowRank) reset() {
	d.k, d.live, d.win = d.fast+1, d.fast, 0
	d.fLive, d.fWin = 0, 0
	clear(d.p[:d.k*d.n])
	clear(d.v[:d.k*d.n])
	clear(d.g)
	clear(d.pInf)
	clear(d.vNorm)
	for i := range d.sd {
		d.sd[i] = 1
		if d.s0 != nil {
			d.sd[i] = d.s0[i]
		}
	}
	d.sMax = maxAbs(d.sd)
	d.scanned = false
}

// sample sets y_i = A·z_i (the interface's form; the optimizer uses
// sampleDirect).
func (d *lowRank) sample(y, z []float64, k int) {
	d.coefficients(z, k)
	d.combineRows(y, nil, 1, z, k, d.cw)
}

// coefficients computes w and cw for the k vectors of z.
func (d *lowRank) coefficients(z []float64, k int) {
	kk := d.k
	d.dotRows(d.w, d.v[:kk*d.n], kk, z, k, d.n)
	for l := 0; l < k; l++ {
		for t := 0; t < kk; t++ {
			d.cw[l*kk+t] = d.g[t] * d.w[l*kk+t]
		}
	}
}

// sampleDirect sets the candidates x_l = m + σ·A·z_l for the k rows of z
// and reports whether they are all finite by a bound that reads neither
// x nor z: |x_l,i| ≤ max|m| + σ·(max S·zMax + Σ_t |cw_l,t|·max|p_t|)
// (the candidates' elements are each one chain of these products, so the
// bound holds whatever their order of summation, up to a relative
// rounding of (k+3)·2⁻⁵³, which the distance from boundLimit to the
// largest float64 absorbs). Where it holds no element overflows, and with
// finite inputs none is NaN; the caller then skips its pass over the
// population.
func (d *lowRank) sampleDirect(x, z, m []float64, sigma float64, k int, zMax float64) bool {
	d.coefficients(z, k)
	d.combineRows(x, m, sigma, z, k, d.cw)
	return d.candidateBound(m, sigma, k, zMax) < boundLimit
}

// candidateBound returns the bound of sampleDirect's candidates (NaN or
// +Inf where an input is not finite).
func (d *lowRank) candidateBound(m []float64, sigma float64, k int, zMax float64) float64 {
	kk := d.k
	worst := 0.0 // max_l Σ_t |cw_l,t|·max|p_t|
	for l := 0; l < k; l++ {
		s := 0.0
		for t, c := range d.cw[l*kk : l*kk+kk] {
			s += math.Abs(c) * d.pInf[t]
		}
		if !(s <= worst) { // NaN too
			worst = s
		}
	}
	return maxAbs(m) + math.Abs(sigma)*(d.sMax*zMax+worst)
}

// candidate sets dst to candidate l of the last sample, x_l = m + σ·A·z_l,
// with the bits sampleDirect gave it.
func (d *lowRank) candidate(dst, z, m []float64, sigma float64, l int) {
	kk := d.k
	kernel.CombineRows(dst, m, sigma, d.sd, z, 1, d.n, d.p[:kk*d.n], kk, d.cw[l*kk:l*kk+kk])
}

// weightedStep sets yw = A·zw = Σ_r w_r·A·z_{idx_r} for the weighted sum
// zw of the rows idx of the last sample, from their coefficients.
func (d *lowRank) weightedStep(yw, zw []float64, w []float64, idx []int) {
	kk := d.k
	cs := d.cs[:kk]
	clear(cs)
	for r, wr := range w {
		row := d.cw[idx[r]*kk : idx[r]*kk+kk]
		for t, c := range row {
			cs[t] += wr * c
		}
	}
	d.combineRows(yw, nil, 1, zw, 1, cs)
}

// propose computes the live slots' new paths from z_w and y_w (set by
// weightedStep) and reports whether they are finite.
func (d *lowRank) propose(g *generation) bool {
	n, t := d.n, d.live
	path(d.vNew, d.v[t*n:t*n+n], 1-d.c, d.cp*g.pathScale, g.zw)
	path(d.pNew, d.p[t*n:t*n+n], 1-d.c, d.cp*g.pathScale, g.yw)
	d.vNewNm = kernel.Norm(d.vNew)
	d.pNewInf = maxAbs(d.pNew)
	ok := finite(d.vNewNm) && finite(d.pNewInf)
	if d.fast > 0 && ok {
		// The fast paths move at commit, in place: here they are only
		// bounded, |(1−cF)·x_i + c·s_i| ≤ (1−cF)·‖x‖∞ + c·‖s‖∞, far
		// from overflow (NaN fails the test).
		t, cp := d.fLive, d.cpF*g.pathScale
		ok = (1-d.cF)*d.vNorm[t]+cp*maxAbs(g.zw) < fastPathLimit &&
			(1-d.cF)*d.pInf[t]+cp*maxAbs(g.yw) < fastPathLimit
	}
	return ok
}

// fastPathLimit bounds the fast paths' elements that propose accepts.
const fastPathLimit = 0x1p1000

// localUpdate and scaleProposal are for Config.Noise, which LMMA refuses.
func (d *lowRank) localUpdate(*generation, []float64) { panic("mmaes: LMMA without Noise") }
func (d *lowRank) scaleProposal(float64)              { panic("mmaes: LMMA without Noise") }

// commit makes the proposed paths the live pairs', adds η (ηF) to their
// coefficients, freezes each at the end of its window (the next slot of
// its ring, or the oldest, takes a copy and starts the next window at 0),
// and rebalances.
func (d *lowRank) commit(g *generation, sigma float64) int {
	d.scanned = false
	d.win = d.advance(d.live, d.win, d.window, d.eta, d.pNew, d.vNew, d.pNewInf, d.vNewNm)
	if d.win == 0 {
		next := d.live + 1
		if d.k < d.slots() {
			d.k++
		} else if next == d.k {
			next = d.fast
		}
		d.startWindow(next, d.pNew, d.vNew, d.pNewInf, d.vNewNm)
		d.live = next
	}
	if d.fast > 0 {
		n, t, cp := d.n, d.fLive, d.cpF*g.pathScale
		p, v := d.p[t*n:t*n+n], d.v[t*n:t*n+n]
		path(v, v, 1-d.cF, cp, g.zw)
		path(p, p, 1-d.cF, cp, g.yw)
		d.fWin = d.advance(t, d.fWin, d.windowF, d.etaF, nil, nil, maxAbs(p), kernel.Norm(v))
		if d.fWin == 0 {
			d.fLive = (t + 1) % d.fast
			d.startWindow(d.fLive, p, v, d.pInf[t], d.vNorm[t])
		}
	}
	return d.rebalance(sigma)
}

// advance makes the proposed paths p, v (bounds pInf, vNm) those of the
// live slot t (nil: they are in the slot already), adds eta to its
// coefficient, and returns the generations of its window so far, 0 when
// the window of the given length has ended.
func (d *lowRank) advance(t, win, window int, eta float64, p, v []float64, pInf, vNm float64) int {
	n := d.n
	if p != nil {
		copy(d.p[t*n:t*n+n], p)
		copy(d.v[t*n:t*n+n], v)
	}
	d.pInf[t], d.vNorm[t] = pInf, vNm
	d.g[t] += eta
	if win+1 >= window {
		return 0
	}
	return win + 1
}

// startWindow starts a window in slot t with a copy of the paths p, v and
// the coefficient 0.
func (d *lowRank) startWindow(t int, p, v []float64, pInf, vNm float64) {
	n := d.n
	copy(d.p[t*n:t*n+n], p)
	copy(d.v[t*n:t*n+n], v)
	d.pInf[t], d.vNorm[t], d.g[t] = pInf, vNm, 0
}

// rowBound returns an upper bound of A's largest row norm:
// max S + Σ_t |g_t|·max_i|p_t,i|·‖v_t‖.
func (d *lowRank) rowBound() float64 {
	b := d.sMax
	for t := 0; t < d.k; t++ {
		b += math.Abs(d.g[t]) * d.pInf[t] * d.vNorm[t]
	}
	return b * boundSlack
}

// rebalance multiplies A (S and every g_t) by 2^k when its row bound
// leaves [2⁻⁶⁴, 2⁶⁵), exactly, and returns k for σ to take.
func (d *lowRank) rebalance(sigma float64) int {
	b := d.rowBound()
	if !(b > 0 && b < boundLimit) || (b >= rebalanceLow && b < rebalanceHigh) {
		return 0
	}
	e := math.Ilogb(b)
	if e >= -rebalanceExp && e <= rebalanceExp {
		return 0
	}
	k := rebalanceLimit(-e, sigma)
	if k == 0 {
		return 0
	}
	f := math.Ldexp(1, k)
	kernel.Scale(f, d.sd)
	d.sMax *= f
	for t := range d.g[:d.k] {
		d.g[t] *= f
	}
	return k
}

// inspect scans the row norms on the schedule of the full matrix (or when
// exact), else reports the bound.
func (d *lowRank) inspect(gen int, exact bool) health {
	h := health{minRow: math.NaN(), cond: math.NaN()}
	h.maxRow = d.rowBound()
	h.scanned = exact || scanDue(gen, d.n) || !(h.maxRow < boundLimit)
	if h.scanned {
		maxRow, minRow := d.scan()
		if !(maxRow < math.Inf(1)) || !(minRow > 0) {
			h.broken = true
			return h
		}
		h.maxRow, h.minRow = maxRow, minRow
		h.cond = maxRow / minRow
		if d.s0 != nil {
			h.cond = d.relCond
		}
	}
	return h
}

// scan computes the row norms of A, into norms when stdDevs has allocated
// it, and keeps the largest and the smallest (both NaN when one is NaN) and
// their ratio relative to the scales: with G_tu = v_t·v_u and
// q_t = g_t·p_t,i,
//
//	‖A_i‖² = S_i² + 2·S_i·Σ_t q_t·v_t,i + Σ_t q_t·Σ_u G_tu·q_u,
//
// O(n·k²) after the Gram matrix (O(n·k²) too).
func (d *lowRank) scan() (maxRow, minRow float64) {
	n, kk := d.n, d.k
	gram := d.gram[:kk*kk]
	d.dotRows(gram, d.v[:kk*n], kk, d.v[:kk*n], kk, n)
	q := d.cs[:kk]
	maxRow, minRow = 0, math.Inf(1)
	relHi, relLo := 0.0, math.Inf(1)
	nan := false
	for i := 0; i < n; i++ {
		cross := 0.0
		for t := 0; t < kk; t++ {
			q[t] = d.g[t] * d.p[t*n+i]
			cross += q[t] * d.v[t*n+i]
		}
		quad := 0.0
		for t := 0; t < kk; t++ {
			s := 0.0
			for u, gu := range gram[t*kk : t*kk+kk] {
				s += gu * q[u]
			}
			quad += q[t] * s
		}
		di := d.sd[i]
		s2 := di*di + 2*di*cross + quad
		r := math.Sqrt(max(s2, 0))
		if s2 != s2 {
			r, nan = s2, true
		}
		if d.norms != nil {
			d.norms[i] = r
		}
		maxRow, minRow = max(maxRow, r), min(minRow, r)
		if d.s0 != nil {
			rel := r / d.s0[i]
			relHi, relLo = max(relHi, rel), min(relLo, rel)
		}
	}
	if nan {
		maxRow, minRow = math.NaN(), math.NaN()
	}
	d.scanned, d.normsValid = true, d.norms != nil
	d.hi, d.lo, d.relCond = maxRow, minRow, relHi/relLo
	return maxRow, minRow
}

// solveScratch returns k floats of scratch space after solve's matrix.
func (d *lowRank) solveScratch(k int) []float64 {
	if len(d.solveR) < k {
		d.solveR = make([]float64, d.slots())
	}
	return d.solveR[:k]
}

// stdDevs sets dst to the row norms of A (those of the last scan when A
// has not changed since). The first call allocates the vector of norms
// that later scans fill: a run that never asks keeps n floats less.
func (d *lowRank) stdDevs(dst []float64) {
	if d.norms == nil {
		d.norms = make([]float64, d.n)
	}
	if !d.scanned || !d.normsValid {
		d.scan()
	}
	copy(dst, d.norms)
}

func (d *lowRank) flush() {}

// solve sets z = A⁻¹·y by the Woodbury identity: with the k×k matrix
// M = I + Vᵀ·S⁻¹·P·diag(g) (S the diagonal),
//
//	A⁻¹·y = S⁻¹·y − S⁻¹·P·diag(g)·M⁻¹·Vᵀ·S⁻¹·y,
//
// O(n·k²) and a k×k elimination with partial pivoting (k² floats,
// allocated on the first call). It reports whether M was regular.
func (d *lowRank) solve(z, y []float64) bool {
	n, kk := d.n, d.k
	if s := d.slots(); len(d.solveM) < s*s {
		d.solveM = make([]float64, s*s)
	}
	mtx, rhs := d.solveM[:kk*kk], d.solveScratch(kk)
	for i := range z[:n] {
		z[i] = y[i] / d.sd[i]
	}
	for t := 0; t < kk; t++ {
		vt := d.v[t*n : t*n+n]
		rhs[t] = kernel.Dot(vt, z)
		for u := 0; u < kk; u++ {
			pu := d.p[u*n : u*n+n]
			s := 0.0
			for i, x := range vt {
				s += x * pu[i] / d.sd[i]
			}
			mtx[t*kk+u] = d.g[u] * s
		}
		mtx[t*kk+t]++
	}
	if !gaussSolve(mtx, rhs, kk) {
		return false
	}
	for u := 0; u < kk; u++ {
		c := d.g[u] * rhs[u]
		pu := d.p[u*n : u*n+n]
		for i := range z[:n] {
			z[i] -= c * pu[i] / d.sd[i]
		}
	}
	return true
}

// gaussSolve solves the k×k system a·x = b in place (x in b) by Gaussian
// elimination with partial pivoting; it reports whether a was regular.
func gaussSolve(a, b []float64, k int) bool {
	for c := 0; c < k; c++ {
		p, big := c, math.Abs(a[c*k+c])
		for r := c + 1; r < k; r++ {
			if v := math.Abs(a[r*k+c]); v > big {
				p, big = r, v
			}
		}
		if !(big > 0) || !finite(big) {
			return false
		}
		if p != c {
			for j := c; j < k; j++ {
				a[c*k+j], a[p*k+j] = a[p*k+j], a[c*k+j]
			}
			b[c], b[p] = b[p], b[c]
		}
		for r := c + 1; r < k; r++ {
			f := a[r*k+c] / a[c*k+c]
			for j := c + 1; j < k; j++ {
				a[r*k+j] -= f * a[c*k+j]
			}
			b[r] -= f * b[c]
		}
	}
	for c := k - 1; c >= 0; c-- {
		s := b[c]
		for j := c + 1; j < k; j++ {
			s -= a[c*k+j] * b[j]
		}
		b[c] = s / a[c*k+c]
	}
	return true
}

// noEffectAxis reports whether 0.1σ times one of A's stretched directions,
// A·v_t/‖v_t‖, leaves the mean unchanged.
func (d *lowRank) noEffectAxis(m []float64, sigma float64) bool {
	n, kk := d.n, d.k
	for t := 0; t < kk; t++ {
		if !(d.vNorm[t] > 0) {
			continue
		}
		vt := d.v[t*n : t*n+n]
		cs := d.cs[:kk]
		for u := 0; u < kk; u++ {
			cs[u] = d.g[u] * kernel.Dot(d.v[u*n:u*n+n], vt) / d.vNorm[t]
		}
		dir, axis := d.vNew, d.pNew // free between the proposals
		for i := range dir {
			dir[i] = vt[i] / d.vNorm[t]
		}
		kernel.CombineRows(axis, nil, 1, d.sd, dir, 1, n, d.p[:kk*n], kk, cs)
		moves := false
		for i, x := range axis {
			if m[i]+0.1*sigma*x != m[i] {
				moves = true
				break
			}
		}
		if !moves {
			return true
		}
	}
	return false
}

// matrix returns the dense A (n² floats, allocated on the first call) when
// it fits the memory budget, else nil.
func (d *lowRank) matrix() []float64 {
	n := d.n
	if d.view == nil {
		if nn := 8 * float64(n) * float64(n); d.budget > 0 && nn > float64(d.budget)/4 || float64(n)*float64(n) > 1<<40 {
			return nil
		}
		d.view = make([]float64, n*n)
	}
	clear(d.view)
	for i := 0; i < n; i++ {
		d.view[i*n+i] = d.sd[i]
	}
	for t := 0; t < d.k; t++ {
		pt, vt := d.p[t*n:t*n+n], d.v[t*n:t*n+n]
		for i, x := range pt {
			kernel.Axpy(d.g[t]*x, vt, d.view[i*n:i*n+n])
		}
	}
	return d.view
}

func (d *lowRank) inverse() []float64 { return nil }

// paths returns the live pair.
func (d *lowRank) paths() (p, v []float64) {
	n, t := d.n, d.live
	return d.p[t*n : t*n+n], d.v[t*n : t*n+n]
}

// encode writes S, k, the live slot, the window's generations, the live
// fast slot and its window's generations, the coefficients and the k
// slots' p and v.
func (d *lowRank) encode(e *encoder) {
	e.floats(d.sd)
	e.int(d.k)
	e.int(d.live)
	e.int(d.win)
	e.int(d.fLive)
	e.int(d.fWin)
	e.floats(d.g[:d.k])
	e.floats(d.p[:d.k*d.n])
	e.floats(d.v[:d.k*d.n])
}

func (d *lowRank) decode(r *decoder, live bool) error {
	d.scanned = false
	r.floats(d.sd)
	k, lv, win := r.int(), r.int(), r.int()
	fLive, fWin := 0, 0
	if r.version >= 8 {
		fLive, fWin = r.int(), r.int()
	}
	if r.err != nil {
		return r.err
	}
	// While the ring fills (k below its slots) the live term is the last.
	if k < d.fast+1 || k > d.slots() || lv < d.fast || lv >= k || k < d.slots() && lv != k-1 || win < 0 || win >= max(1, d.window) ||
		fLive < 0 || fLive >= max(1, d.fast) || fWin < 0 || fWin >= max(1, d.windowF) || !r.holds(float64(2*k*d.n+k)) {
		return ckErr("limited-memory state: %d slots, live %d, window %d, fast live %d, fast window %d", k, lv, win, fLive, fWin)
	}
	d.k, d.live, d.win, d.fLive, d.fWin = k, lv, win, fLive, fWin
	r.floats(d.g[:k])
	r.floats(d.p[:k*d.n])
	r.floats(d.v[:k*d.n])
	if r.err != nil {
		return r.err
	}
	// S only ever changes by powers of 2 from positive values (rebalance),
	// so a live run's S is ≥ 0: a long run whose stretches outgrew it may
	// have scaled parts of it down to 0, and goes on (its row scans judge
	// A's health).
	if live && (!allNonNegative(d.sd) || !allFinite(d.g[:k]) || !allFinite(d.p[:k*d.n]) || !allFinite(d.v[:k*d.n])) {
		return ckErr("live run with a non-finite state or a negative diagonal")
	}
	for t := 0; t < k; t++ {
		d.pInf[t] = maxAbs(d.p[t*d.n : t*d.n+d.n])
		d.vNorm[t] = kernel.Norm(d.v[t*d.n : t*d.n+d.n])
	}
	d.sMax = maxAbs(d.sd)
	return nil
}

// allNonNegative reports whether every x is finite and ≥ 0.
func allNonNegative(x []float64) bool {
	for _, v := range x {
		if !(v >= 0) || !finite(v) {
			return false
		}
	}
	return true
}
