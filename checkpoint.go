package mmaes

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
)

// Checkpoint format, version 9. Every part of the optimizer encodes its own
// fields, in this order; integers are little-endian uint64 (booleans 0 or
// 1), floats their IEEE-754 bits as uint64, vectors their elements:
//
//	magic "MMAESCKP" (8 bytes), version (uint32)
//	Config:  Dim, Seed, Sigma, Update, Lambda, Mu, C, C1, CSigma, DSigma,
//	         TargetF, MaxEvals, MaxGenerations, TolFun, TolFunHist, TolX,
//	         MaxCondition, NoEffect, Stagnation, FlatFitness, Hopeless,
//	         Endless, RankMu, CMu, Active, Restart, MaxRestarts, Workers,
//	         MaxMemory, the initial mean (n), Lower, Upper and Scales
//	         (each a presence flag, then n), MinStd, MaxStd, Noise, the
//	         number of Integer coordinates and their indices, the number of Fixed
//	         coordinates and each index and value, by index, Memory,
//	         FastMemory
//	Params of the current run: λ, μ, weights (μ), μ_eff, c, c1, c_σ, d_σ,
//	         E‖N‖, TolFunHist, c_μ, the negative weights (λ − μ with
//	         Active, else none), the stagnation period T
//	driver:  generation, evals, reason, the stops that fired with it (a
//	         bit set, bit r for Reason r; 0 while the run goes on), asked,
//	         the mean (n)
//	step:    σ, the σ-path (n)
//	best:    found (flag), f, x (n)
//	TolFun:  position, length, the history (TolFunHist)
//	runs:    restarts, generations and evaluations of the current run
//	         before it, its generation limit; BIPOP: small (flag), large
//	         runs, evaluations of small and of large runs
//	watch:   the best value of the earlier runs and of this one, the
//	         generation of the latter, the flat generations, the position
//	         and length of the stagnation records and the records (2 per
//	         record, as many as Stagnation keeps)
//	margin:  d, the scaling of each integer coordinate's deviation (with
//	         Integer only)
//	noise:   η_m, η_Σ, V_m, V_Σ, E_m (n), E_Σ (n²) (with Noise only)
//	inject:  the number of waiting injected coordinates and the points
//	         (full length each), the number of injected candidates of the
//	         pending generation, their points and the clipped parts of
//	         their steps, whether a leader waits (flag) and its point (n)
//	distribution (full matrix): s, the row bounds of A and A_inv, p, v,
//	         Ã (n²), A_inv (n², Cholesky only); (LMMA): the diagonal S
//	         (n), the slots in use k, the live slot, the generations of its
//	         window, the live fast slot, the generations of its window,
//	         g (k), p (k·n), v (k·n)
//	population: Z, Y (λ·n each; Y not with LMMA), the pending steps if
//	         asked (the candidates X follow from them); stored also when
//	         not asked, so that every buffer the decoder allocates is
//	         backed by input
//	generator: the 4 scalar and 4·8 lane state words of xoshiro256++
//	CRC-32 (IEEE, uint32) of everything before it
//
// The Params are stored, not recomputed, because math.Log may round
// differently on another machine. With Fixed, the parts after the Config
// are those of the free coordinates (n − len(Fixed) of them). Version 8 is
// version 9 without the stops that fired with the reason (read as the
// reason alone: a run stopped by its budget and continued by a larger one
// goes on, ignoring any other criterion of that generation). Version 7 is
// version 8 without FastMemory in the Config and the fast slot and window
// in LMMA's part: its LMMA runs continue with FastMemory = −1 (no fast
// terms), as they were written. Version 6 is
// version 7 without Memory in the Config and the leader in the injections.
// Version 5 is
// version 6 without Scales, MinStd, MaxStd, Noise, Integer and Fixed in
// the Config and the margin and noise parts. Version 4 is version 5 without NoEffect,
// Stagnation, FlatFitness, Hopeless and Active in the Config, the negative
// weights and T in the Params and the watch; versions 2 and 3, the layout
// before the parts encoded themselves, are still read (checkpoint_v3.go).

const (
	ckMagic    = "MMAESCKP"
	ckVersion  = 9
	ckVersion4 = 4
)

// MarshalBinary implements encoding.BinaryMarshaler: it encodes the whole
// state of the run, including the random generator's, so that an Optimizer
// restored by UnmarshalBinary (in this process or another) continues exactly
// as this one would, on the same kernel path. It may be called at any
// point, also between Ask and Tell and from the observer. Config.Observer is
// not saved. It allocates the result once, at its exact size; AppendBinary
// writes into a buffer of the caller's.
func (o *Optimizer) MarshalBinary() ([]byte, error) {
	if o.dist == nil {
		return nil, ErrNotInitialized
	}
	return o.AppendBinary(make([]byte, 0, o.checkpointSize()))
}

// AppendBinary implements encoding.BinaryAppender: it appends the encoding
// of MarshalBinary to b and returns the extended buffer. It allocates
// nothing when b has the capacity for it (len(b) plus the size of the
// previous checkpoint, which only restarts to a larger λ change).
func (o *Optimizer) AppendBinary(b []byte) ([]byte, error) {
	if o.dist == nil {
		return b, ErrNotInitialized
	}
	start := len(b)
	e := &o.enc
	*e = encoder{b: b}
	o.encode(e)
	b, e.b = e.b, nil
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b[start:])), nil
}

// checkpointSize returns the length of the encoding: the same walk over
// the parts, counting instead of writing.
func (o *Optimizer) checkpointSize() int {
	e := &o.enc
	*e = encoder{count: true}
	o.encode(e)
	return e.n + 4
}

// encode writes the checkpoint without its checksum.
func (o *Optimizer) encode(e *encoder) {
	e.raw(ckMagic)
	e.u32(ckVersion)
	if o.fix != nil {
		o.fix.cfg.encode(e)
	} else {
		o.cfg.encode(e)
	}
	o.par.encode(e)
	e.int(o.gen)
	e.int(o.evals)
	e.int(int(o.reason))
	e.int(int(o.fired))
	e.bool(o.asked)
	e.floats(o.m)
	o.step.encode(e)
	o.best.encode(e)
	o.hist.encode(e)
	o.run.encode(e)
	o.watch.encode(e)
	if o.margin != nil {
		o.margin.encodeState(e)
	}
	if o.noise != nil {
		o.noise.encode(e)
	}
	o.inj.encode(e, o.cfg.Dim, o.asked)
	o.dist.encode(e)
	o.pop.encode(e)
	o.src.encode(e)
}

// UnmarshalBinary implements encoding.BinaryUnmarshaler: it replaces the
// state of o (which may be a zero Optimizer) by the one encoded by
// MarshalBinary (this version's, or versions 2 and 3). The observer and
// Threads of o are kept; a run whose memory with o's Threads exceeds the
// checkpoint's budget (Config.MaxMemory) is refused. A truncated,
// corrupted, foreign or inconsistent input gives an error wrapping
// ErrCheckpoint and leaves o unchanged; no input panics.
func (o *Optimizer) UnmarshalBinary(data []byte) error {
	t, err := decode(data)
	if err != nil {
		return err
	}
	obs, threads, pool, cleanup := o.cfg.Observer, o.cfg.Threads, o.threads, o.threadsCleanup
	// The run goes on with o's pool, if it has one (none, or closed: the
	// run goes on alone, as decode checked it), whose goroutines each hold
	// a work space: the budget must cover them too.
	if pool != nil {
		withThreads := t.cfg
		withThreads.Threads = threads
		if err := checkMemory(&withThreads, t.fix, &t.par, t.injected(&withThreads, t.par.Lambda)); err != nil {
			return fmt.Errorf("%w: with the receiver's Threads = %d: %w", ErrCheckpoint, threads, err)
		}
	}
	observing, again := o.observing, o.again // restored inside the observer
	o.dropDeviates()
	*o = *t
	o.cfg.Observer, o.cfg.Threads, o.threads, o.threadsCleanup = obs, threads, pool, cleanup
	o.observing, o.again = observing, again
	if o.fix != nil {
		o.fix.cfg.Threads = threads
	}
	o.attachThreads()
	return nil
}

func ckErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrCheckpoint}, args...)...)
}

// decode checks the frame (magic, version, checksum) and decodes the body
// of its version.
func decode(data []byte) (*Optimizer, error) {
	const pre = 8 + 4
	if len(data) < pre+4 {
		return nil, ckErr("%d bytes: too short", len(data))
	}
	if string(data[:8]) != ckMagic {
		return nil, ckErr("not an mmaes checkpoint (bad magic)")
	}
	version := binary.LittleEndian.Uint32(data[8:])
	if version < ckVersion2 || version > ckVersion {
		return nil, ckErr("version %d, want %d to %d", version, ckVersion2, ckVersion)
	}
	body := data[:len(data)-4]
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(data[len(data)-4:]) {
		return nil, ckErr("checksum mismatch (corrupted or truncated)")
	}
	if version < ckVersion4 {
		return decodeV3(data, version)
	}
	return decodeBody(body[pre:], version, len(data))
}

// decodeBody decodes the body of a checkpoint of version 4 to 7, of size
// bytes in all.
func decodeBody(body []byte, version uint32, size int) (*Optimizer, error) {
	d := &decoder{b: body, version: version}
	var cfg Config
	cfg.decode(d)
	if d.err != nil {
		return nil, d.err
	}
	// Every run's population (λ ≥ Config.Lambda) is stored: a λ the
	// input cannot hold is refused before resolving allocates its weights.
	if !d.holds(float64(cfg.Lambda) * float64(cfg.Dim-len(cfg.Fixed))) {
		return nil, ckErr("truncated: %d bytes for λ = %d, n = %d", size, cfg.Lambda, cfg.Dim)
	}
	cfg, fix, err := splitFixed(cfg)
	if err != nil {
		return nil, ckErr("%v", err)
	}
	par0, err := resolve(&cfg, fix)
	if err != nil {
		return nil, ckErr("%v", err)
	}
	var par Params
	par.decode(d, &cfg)
	if d.err != nil {
		return nil, d.err
	}
	n, lam := cfg.Dim, par.Lambda
	if !d.holds(float64(lam) * float64(n)) {
		return nil, ckErr("truncated: %d bytes for λ = %d, n = %d", size, lam, n)
	}
	want, err := computeParams(&cfg, lam, runMu(&cfg, par0.Lambda, lam))
	if err != nil || want.Mu != par.Mu || want.TolFunHist != par.TolFunHist {
		return nil, ckErr("population λ = %d inconsistent with μ = %d and the history %d", lam, par.Mu, par.TolFunHist)
	}
	if !par.near(&want) {
		return nil, ckErr("strategy parameters differ from those of the config")
	}
	par.Memory, par.Window = want.Memory, want.Window
	par.FastMemory, par.FastWindow, par.FastC = want.FastMemory, want.FastWindow, want.FastC
	// Before allocating: A (A_inv), the history and the population are
	// stored, so the input must hold them; and the current run must fit
	// the memory budget as a new one would.
	words := float64(par.TolFunHist) + 2*float64(lam)*float64(n)
	switch cfg.Update {
	case LMMA:
		words -= float64(lam) * float64(n) // Z only; the slots are checked as they are read
	case Cholesky:
		words += 2 * float64(n) * float64(n)
	default:
		words += float64(n) * float64(n)
	}
	if 8*words > float64(len(d.b)) {
		return nil, ckErr("truncated: %d bytes for n=%d, λ=%d", size, n, lam)
	}
	if b, need := memoryBudget(&cfg), runMemory(&cfg, fix, lam, par.Mu); b > 0 && need > float64(b) {
		return nil, ckErr("the run needs %s, more than the memory budget of %s", bytesString(need), bytesString(float64(b)))
	}

	o := newOptimizer(cfg, fix, par, par0.Lambda, max(par0.TolFunHist, par.TolFunHist))
	o.gen, o.evals = d.count(), d.count()
	reason := d.int()
	fired := 0
	if d.version >= 9 {
		fired = d.int()
	}
	asked := d.bool()
	if d.err != nil {
		return nil, d.err
	}
	if reason >= int(numReasons) || Reason(reason) == Canceled {
		return nil, ckErr("reason %d out of range", reason)
	}
	o.reason, o.asked = Reason(reason), asked
	o.setReason(o.reason, stopSet(fired))
	if d.version >= 9 && (uint64(fired) != uint64(o.fired) || o.fired&^(precedenceSet()|1<<o.reason) != 0) {
		// The stops of a stopped run must have its reason as their
		// winner, and a run that goes on has none.
		return nil, ckErr("stops %#x inconsistent with the reason %d", fired, reason)
	}
	live := o.reason == NotStopped
	d.floats(o.m)
	if d.err == nil && live && !allFinite(o.m) {
		return nil, ckErr("live run with a non-finite mean")
	}
	if err := o.step.decode(d, live); err != nil {
		return nil, err
	}
	if err := o.best.decode(d, o.box); err != nil {
		return nil, err
	}
	if o.margin != nil && o.best.ok && !o.margin.holds(o.best.x) {
		return nil, ckErr("best point not integral in its integer coordinates")
	}
	if err := o.hist.decode(d); err != nil {
		return nil, err
	}
	if err := o.run.decode(d); err != nil {
		return nil, err
	}
	if d.version >= 5 {
		if err := o.watch.decode(d, o.run.gen); err != nil {
			return nil, err
		}
	} else {
		o.watch.start(math.NaN())
	}
	if o.margin != nil {
		if err := o.margin.decodeState(d); err != nil {
			return nil, err
		}
	}
	if o.noise != nil {
		if err := o.noise.decode(d); err != nil {
			return nil, err
		}
	}
	if d.version >= 6 {
		inj, err := decodeInjection(d, o.Dim(), n, lam)
		if err != nil {
			return nil, err
		}
		if inj != nil && inj.count > 0 && !asked {
			return nil, ckErr("injected candidates without a pending generation")
		}
		o.inj = inj
		if b, need := memoryBudget(&cfg), o.memory(&cfg, lam, par.Mu); inj != nil && b > 0 && need > float64(b) {
			return nil, ckErr("the run with its injected points needs %s, more than the memory budget of %s", bytesString(need), bytesString(float64(b)))
		}
	}
	if err := o.dist.decode(d, live); err != nil {
		return nil, err
	}
	if err := o.pop.decode(d, o.asked); err != nil {
		return nil, err
	}
	o.src = new(xoshiro)
	if err := o.src.decode(d); err != nil {
		return nil, err
	}
	if len(d.b) != 0 {
		return nil, ckErr("%d bytes after the generator state", len(d.b))
	}
	if err := o.checkRestored(); err != nil {
		return nil, err
	}
	o.startBoard()
	return o, nil
}

// checkRestored checks the invariants that tie the parts of a decoded
// optimizer together, and computes the pending candidates from their steps
// (they must be finite, as sample guarantees).
func (o *Optimizer) checkRestored() error {
	r := &o.run
	if r.gen > o.gen || r.evals0 > o.evals || !r.policy.valid(r, o.pop.lambda) {
		return ckErr("inconsistent restart state")
	}
	if o.reason != NotStopped && o.asked {
		return ckErr("stopped run with pending candidates")
	}
	if o.asked && !o.placeCandidates(1, math.Inf(1)) { // z as decoded
		return ckErr("non-finite candidates")
	}
	return nil
}

// encode writes the Config (without the observer).
func (c *Config) encode(e *encoder) {
	e.int(c.Dim)
	e.u64(c.Seed)
	e.f64(c.Sigma)
	e.int(int(c.Update))
	e.int(c.Lambda)
	e.int(c.Mu)
	e.f64(c.C)
	e.f64(c.C1)
	e.f64(c.CSigma)
	e.f64(c.DSigma)
	e.f64(c.TargetF)
	e.int(c.MaxEvals)
	e.int(c.MaxGenerations)
	e.f64(c.TolFun)
	e.int(c.TolFunHist)
	e.f64(c.TolX)
	e.f64(c.MaxCondition)
	e.bool(c.NoEffect)
	e.bool(c.Stagnation)
	e.int(c.FlatFitness)
	e.f64(c.Hopeless)
	e.bool(c.Endless)
	e.bool(c.RankMu)
	e.f64(c.CMu)
	e.bool(c.Active)
	e.int(int(c.Restart))
	e.int(c.MaxRestarts)
	e.int(c.Workers)
	e.u64(uint64(c.MaxMemory))
	e.floats(c.Mean)
	e.optFloats(c.Lower)
	e.optFloats(c.Upper)
	e.optFloats(c.Scales)
	e.f64(c.MinStd)
	e.f64(c.MaxStd)
	e.bool(c.Noise)
	e.int(len(c.Integer))
	for _, i := range c.Integer {
		e.int(i)
	}
	e.int(len(c.Fixed))
	for i := 0; i < c.Dim && len(c.Fixed) > 0; i++ { // by index, allocating nothing
		if v, ok := c.Fixed[i]; ok {
			e.int(i)
			e.f64(v)
		}
	}
	e.int(c.Memory)
	e.signed(c.FastMemory)
}

func (c *Config) decode(d *decoder) {
	c.Dim = d.int()
	c.Seed = d.u64()
	c.Sigma = d.f64()
	c.Update = Update(d.int())
	c.Lambda, c.Mu = d.int(), d.int()
	c.C, c.C1, c.CSigma, c.DSigma = d.f64(), d.f64(), d.f64(), d.f64()
	c.TargetF = d.f64()
	c.MaxEvals, c.MaxGenerations = d.int(), d.int()
	c.TolFun = d.f64()
	c.TolFunHist = d.int()
	c.TolX, c.MaxCondition = d.f64(), d.f64()
	if d.version >= 5 {
		c.NoEffect, c.Stagnation = d.bool(), d.bool()
		c.FlatFitness = d.int()
		c.Hopeless = d.f64()
	}
	c.Endless = d.bool()
	c.RankMu = d.bool()
	c.CMu = d.f64()
	if d.version >= 5 {
		c.Active = d.bool()
	}
	c.Restart = Restart(d.int())
	c.MaxRestarts, c.Workers = d.int(), d.int()
	c.MaxMemory = int64(d.u64())
	if d.err != nil {
		return
	}
	c.Mean = d.newFloats(c.Dim)
	c.Lower = d.optFloats(c.Dim)
	c.Upper = d.optFloats(c.Dim)
	if d.version >= 6 {
		c.Scales = d.optFloats(c.Dim)
		c.MinStd, c.MaxStd = d.f64(), d.f64()
		c.Noise = d.bool()
		k := d.int()
		if d.err != nil {
			return
		}
		if k < 0 || k > c.Dim || !d.holds(float64(k)) {
			d.fail("%d integer coordinates for n = %d", k, c.Dim)
			return
		}
		if k > 0 {
			c.Integer = make([]int, k)
		}
		for j := range k {
			c.Integer[j] = d.int()
		}
		k = d.int()
		if d.err != nil {
			return
		}
		if k < 0 || k > c.Dim || !d.holds(2*float64(k)) {
			d.fail("%d fixed coordinates for n = %d", k, c.Dim)
			return
		}
		if k > 0 {
			c.Fixed = make(map[int]float64, k)
		}
		last := -1
		for range k {
			i, v := d.int(), d.f64()
			if d.err == nil && i <= last {
				d.fail("fixed coordinates out of order")
				return
			}
			c.Fixed[i], last = v, i
		}
	}
	if d.version >= 7 {
		c.Memory = d.int()
	}
	switch {
	case d.version >= 8:
		c.FastMemory = d.signed()
	case c.Update == LMMA:
		c.FastMemory = -1
	}
}

// encode writes the Params of a run.
func (p *Params) encode(e *encoder) {
	e.int(p.Lambda)
	e.int(p.Mu)
	e.floats(p.Weights)
	e.f64(p.MuEff)
	e.f64(p.C)
	e.f64(p.C1)
	e.f64(p.CSigma)
	e.f64(p.DSigma)
	e.f64(p.ChiN)
	e.int(p.TolFunHist)
	e.f64(p.CMu)
	e.floats(p.NegWeights)
	e.int(p.Stagnation)
}

// decode reads the Params of a run of cfg and checks their ranges.
func (p *Params) decode(d *decoder, cfg *Config) {
	p.Lambda, p.Mu = d.int(), d.int()
	if d.err == nil && (p.Lambda < 2 || p.Lambda > 1<<20 || p.Mu < 1 || p.Mu > p.Lambda) {
		d.fail("inconsistent sizes (λ=%d μ=%d)", p.Lambda, p.Mu)
	}
	if d.err != nil {
		return
	}
	p.Weights = d.newFloats(p.Mu)
	p.MuEff, p.C, p.C1, p.CSigma, p.DSigma, p.ChiN = d.f64(), d.f64(), d.f64(), d.f64(), d.f64(), d.f64()
	p.TolFunHist = d.int()
	p.CMu = d.f64()
	if d.err != nil {
		return
	}
	if cfg.Active {
		p.NegWeights = d.newFloats(p.Lambda - p.Mu)
	}
	if d.version >= 5 {
		p.Stagnation = d.int()
	}
	if !p.valid(cfg) {
		d.fail("strategy parameters out of range")
	}
}

// near reports whether restored Params are those computed for the same
// run, within the rounding of the logarithms and square roots on another
// machine (a few units in the last place; 1e-12 relative). They are stored,
// not recomputed, so that the run continues bit for bit.
func (p *Params) near(q *Params) bool {
	close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Abs(b) }
	if len(p.Weights) != len(q.Weights) {
		return false
	}
	for i := range p.Weights {
		if !close(p.Weights[i], q.Weights[i]) {
			return false
		}
	}
	if len(p.NegWeights) != len(q.NegWeights) {
		return false
	}
	for i := range p.NegWeights {
		if math.Abs(p.NegWeights[i]-q.NegWeights[i]) > 1e-12*math.Abs(q.NegWeights[i]) {
			return false
		}
	}
	return p.Stagnation == q.Stagnation && close(p.MuEff, q.MuEff) && close(p.C, q.C) && close(p.C1, q.C1) && close(p.CSigma, q.CSigma) &&
		close(p.DSigma, q.DSigma) && close(p.ChiN, q.ChiN) && close(p.CMu, q.CMu)
}

// valid checks the ranges of restored Params (they are stored, not
// recomputed: see the format).
func (p *Params) valid(cfg *Config) bool {
	for _, x := range p.Weights {
		if !finite(x) {
			return false
		}
	}
	for _, x := range p.NegWeights {
		if !(x <= 0 && x >= -3) {
			return false
		}
	}
	return p.MuEff >= 1 && finite(p.MuEff) && p.C > 0 && p.C <= 1 && p.C1 > 0 && (p.C1 < 1 || p.C1 == 1 && cfg.Update == LMMA) &&
		p.CSigma > 0 && p.CSigma <= 1 && p.DSigma > 0 && finite(p.DSigma) &&
		p.ChiN > 0 && finite(p.ChiN) && p.TolFunHist >= 1 && p.TolFunHist <= 1<<25 &&
		(!cfg.RankMu || p.CMu >= 0 && p.C1+p.CMu <= 1) && (cfg.RankMu || p.CMu == 0) // c_μ is 0 at μ_eff = 1
}

// An encoder appends the little-endian words of a checkpoint to b, or, when
// count is set, only counts their bytes in n.
type encoder struct {
	b     []byte
	n     int
	count bool
}

func (e *encoder) u64(x uint64) {
	if e.count {
		e.n += 8
		return
	}
	e.b = binary.LittleEndian.AppendUint64(e.b, x)
}

func (e *encoder) u32(x uint32) {
	if e.count {
		e.n += 4
		return
	}
	e.b = binary.LittleEndian.AppendUint32(e.b, x)
}

func (e *encoder) raw(s string) {
	if e.count {
		e.n += len(s)
		return
	}
	e.b = append(e.b, s...)
}

func (e *encoder) int(x int) { e.u64(uint64(x)) }

// signed writes an int that may be negative, as its two's complement.
func (e *encoder) signed(x int)  { e.u64(uint64(int64(x))) }
func (e *encoder) f64(x float64) { e.u64(math.Float64bits(x)) }

func (e *encoder) bool(x bool) {
	if x {
		e.u64(1)
	} else {
		e.u64(0)
	}
}

func (e *encoder) floats(x []float64) {
	if e.count {
		e.n += 8 * len(x)
		return
	}
	for _, xi := range x {
		e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(xi))
	}
}

// optFloats writes whether x is set, then x.
func (e *encoder) optFloats(x []float64) {
	e.bool(x != nil)
	e.floats(x)
}

// A decoder reads what an encoder wrote. The first error sticks: reads
// after it return zeros, and err says what was wrong.
type decoder struct {
	b       []byte
	err     error
	version uint32 // of the checkpoint's format
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = ckErr(format, args...)
	}
}

func (d *decoder) u64() uint64 {
	if d.err != nil {
		return 0
	}
	if len(d.b) < 8 {
		d.fail("truncated")
		return 0
	}
	x := binary.LittleEndian.Uint64(d.b)
	d.b = d.b[8:]
	return x
}

// maxCount bounds the counters of a checkpoint (generations, evaluations,
// restarts): far above any run, far enough below the int limit that no sum
// of them overflows.
const maxCount = 1 << 60

// count reads a counter: an int up to maxCount.
func (d *decoder) count() int {
	x := d.u64()
	if x > maxCount || x > uint64(math.MaxInt) {
		d.fail("counter %d out of range", x)
		return 0
	}
	return int(x)
}

// int reads a word that must fit an int (a larger one is an error, also on
// 32-bit platforms).
func (d *decoder) int() int {
	x := d.u64()
	if x > uint64(math.MaxInt) {
		d.fail("integer %d out of range", x)
		return 0
	}
	return int(x)
}

// signed reads a word written by encoder.signed: an int in
// [−2³¹, 2³¹) (the range check leaves the rest to the Config's).
func (d *decoder) signed() int {
	x := int64(d.u64())
	if x < math.MinInt32 || x > math.MaxInt32 {
		d.fail("integer %d out of range", x)
		return 0
	}
	return int(x)
}

func (d *decoder) f64() float64 { return math.Float64frombits(d.u64()) }

func (d *decoder) bool() bool {
	x := d.u64()
	if x > 1 {
		d.fail("flag %d is not 0 or 1", x)
	}
	return x == 1
}

// floats reads len(x) values into x.
func (d *decoder) floats(x []float64) {
	if d.err != nil {
		return
	}
	if len(x) > len(d.b)/8 {
		d.fail("truncated")
		return
	}
	for i := range x {
		x[i] = math.Float64frombits(binary.LittleEndian.Uint64(d.b[8*i:]))
	}
	d.b = d.b[8*len(x):]
}

// holds reports whether the rest of the input has room for k words.
func (d *decoder) holds(k float64) bool { return 8*k <= float64(len(d.b)) }

// newFloats reads k values into a new slice, allocated only when the input
// holds them.
func (d *decoder) newFloats(k int) []float64 {
	if d.err != nil {
		return nil
	}
	if k < 0 || k > len(d.b)/8 {
		d.fail("truncated")
		return nil
	}
	x := make([]float64, k)
	d.floats(x)
	return x
}

// optFloats reads what encoder.optFloats wrote: nil, or k values.
func (d *decoder) optFloats(k int) []float64 {
	if !d.bool() {
		return nil
	}
	return d.newFloats(k)
}
