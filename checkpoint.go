package mmaes

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
)

// Checkpoint format (version 3). All integers are little-endian uint64 unless
// noted, floats are IEEE-754 bits as uint64:
//
//	magic "MMAESCKP" (8 bytes), version (uint32)
//	n, λ, μ, update, TolFunHist (of the current run), asked (0/1)
//	Config: Seed, Sigma (σ0), Lambda, Mu, C, C1, CSigma, DSigma, TargetF,
//	        MaxEvals, MaxGenerations, TolFun, TolFunHist, TolX, MaxCondition,
//	        RankMu (0/1), CMu, Restart, MaxRestarts, Workers,
//	        has Lower (0/1), has Upper (0/1)
//	Params (of the current run): weights (μ), μ_eff, c, c1, c_σ, d_σ, E‖N‖, c_μ
//	state:  σ, generation, evals, reason, hasBest, best f, histPos, histLen,
//	        rowA, rowAInv, restarts, large runs, evals of small runs, evals
//	        of large runs, small (0/1), generations and evals before the
//	        current run, its generation limit, the scale s of A = s·Ã
//	        (scale.go)
//	vectors: m, p, v, s, best x (n each), Ã (n²), A_inv (n², Cholesky only),
//	        TolFun history (TolFunHist), the initial mean (n, with a Restart
//	        strategy), Lower, Upper (n each, when set), and if asked Z, Y, X
//	        (λ·n each)
//	generator: length (uint32) and the xoshiro256++ MarshalBinary bytes
//	CRC-32 (IEEE, uint32) of everything before it
//
// Version 2 had no scale (A itself in place of Ã): it is read with s = 1,
// and the run continues as a version 3 one would from that A. Version 1
// (before rank-μ, restarts, bounds and workers) lacked the additions; it is
// not read. The observer (Config.Observer) and the
// objective are not saved.

const (
	ckMagic   = "MMAESCKP"
	ckVersion = 3
	// ckVersionNoScale is the last version without the scale of A.
	ckVersionNoScale = 2
)

// MarshalBinary implements encoding.BinaryMarshaler: it encodes the whole
// state of the run, including the random generator's, so that an Optimizer
// restored by UnmarshalBinary (in this process or another) continues exactly
// as this one would, on the same kernel path. It may be called at any
// point, also between Ask and Tell and from the observer. Config.Observer is
// not saved.
func (o *Optimizer) MarshalBinary() ([]byte, error) {
	if o.n == 0 {
		return nil, ErrNotInitialized
	}
	o.flushA() // the same bits as applying it with the next sampling
	rng, err := o.src.MarshalBinary()
	if err != nil {
		return nil, err
	}
	n, lam := o.n, o.lambda
	size := 8 + 4 + 8*o.bodyWords() + 4 + len(rng) + 4
	b := make([]byte, 0, size)
	b = append(b, ckMagic...)
	b = binary.LittleEndian.AppendUint32(b, ckVersion)
	u := func(x int) { b = binary.LittleEndian.AppendUint64(b, uint64(x)) }
	f := func(x float64) { b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x)) }
	vs := func(x []float64) {
		for _, xi := range x {
			f(xi)
		}
	}
	bit := func(x bool) int {
		if x {
			return 1
		}
		return 0
	}
	c, p := &o.cfg, &o.par
	u(n)
	u(lam)
	u(o.mu)
	u(int(c.Update))
	u(p.TolFunHist)
	u(bit(o.asked))
	b = binary.LittleEndian.AppendUint64(b, c.Seed)
	f(c.Sigma)
	u(c.Lambda)
	u(c.Mu)
	f(c.C)
	f(c.C1)
	f(c.CSigma)
	f(c.DSigma)
	f(c.TargetF)
	u(c.MaxEvals)
	u(c.MaxGenerations)
	f(c.TolFun)
	u(c.TolFunHist)
	f(c.TolX)
	f(c.MaxCondition)
	u(bit(c.RankMu))
	f(c.CMu)
	u(int(c.Restart))
	u(c.MaxRestarts)
	u(c.Workers)
	u(bit(c.Lower != nil))
	u(bit(c.Upper != nil))
	vs(p.Weights)
	f(p.MuEff)
	f(p.C)
	f(p.C1)
	f(p.CSigma)
	f(p.DSigma)
	f(p.ChiN)
	f(p.CMu)
	f(o.sigma)
	u(o.gen)
	u(o.evals)
	u(int(o.reason))
	u(bit(o.hasBest))
	f(o.bestF)
	u(o.histPos)
	u(o.histLen)
	f(o.rowA)
	f(o.rowAInv)
	u(o.restarts)
	u(o.largeRuns)
	u(o.evalsSmall)
	u(o.evalsLarge)
	u(bit(o.small))
	u(o.gen - o.runGen)
	u(o.runEvals0)
	u(o.runMaxGen)
	f(o.aScale)
	vs(o.m)
	vs(o.p)
	vs(o.v)
	vs(o.s)
	vs(o.bestX)
	vs(o.a)
	vs(o.ainv)
	vs(o.hist)
	vs(o.m0)
	vs(c.Lower)
	vs(c.Upper)
	if o.asked {
		vs(o.z[:lam*n])
		vs(o.y[:lam*n])
		vs(o.x[:lam*n])
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(rng)))
	b = append(b, rng...)
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	return b, nil
}

// headerWords is the number of 8-byte words before the Config block,
// configWords the number in it.
const (
	headerWords = 6
	configWords = 22
)

// bodyWords returns the number of 8-byte words after the version.
func (o *Optimizer) bodyWords() int {
	nvec := 0
	if o.m0 != nil {
		nvec++
	}
	if o.cfg.Lower != nil {
		nvec++
	}
	if o.cfg.Upper != nil {
		nvec++
	}
	return words(ckVersion, o.n, o.lambda, o.mu, o.par.TolFunHist, nvec, o.cfg.Update == Cholesky, o.asked)
}

// words counts the words of a checkpoint of the given version with nvec
// optional n-vectors (the initial mean, Lower, Upper).
func words(version uint32, n, lam, mu, hist, nvec int, chol, asked bool) int {
	w := headerWords + configWords + mu + 7 + 18 + (5+nvec)*n + n*n + hist
	if version > ckVersionNoScale {
		w++ // the scale of A
	}
	if chol {
		w += n * n
	}
	if asked {
		w += 3 * lam * n
	}
	return w
}

// UnmarshalBinary implements encoding.BinaryUnmarshaler: it replaces the
// state of o (which may be a zero Optimizer) by the one encoded by
// MarshalBinary. The observer of o is kept. A truncated, corrupted, foreign
// or inconsistent input gives an error wrapping ErrCheckpoint and leaves o
// unchanged; no input panics.
func (o *Optimizer) UnmarshalBinary(data []byte) error {
	t, err := decode(data)
	if err != nil {
		return err
	}
	obs := o.cfg.Observer
	*o = *t
	o.cfg.Observer = obs
	return nil
}

func ckErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrCheckpoint}, args...)...)
}

// reader reads little-endian words from a slice whose length was checked.
// reader reads the little-endian words of a checkpoint; bad records a word
// that did not fit an int (see i).
type reader struct {
	b   []byte
	bad bool
}

func (r *reader) u() uint64 {
	x := binary.LittleEndian.Uint64(r.b)
	r.b = r.b[8:]
	return x
}

// i reads a word that must fit an int; a larger one (possible on 32-bit
// platforms) reads as 0 and marks the input bad.
func (r *reader) i() int {
	x := r.u()
	if x > uint64(math.MaxInt) {
		r.bad = true
		return 0
	}
	return int(x)
}
func (r *reader) f() float64 { return math.Float64frombits(r.u()) }
func (r *reader) vs(x []float64) {
	for i := range x {
		x[i] = r.f()
	}
}

func decode(data []byte) (*Optimizer, error) {
	const pre = 8 + 4
	if len(data) < pre+8*(headerWords+configWords)+8 {
		return nil, ckErr("%d bytes: too short", len(data))
	}
	if string(data[:8]) != ckMagic {
		return nil, ckErr("not an mmaes checkpoint (bad magic)")
	}
	version := binary.LittleEndian.Uint32(data[8:])
	if version != ckVersion && version != ckVersionNoScale {
		return nil, ckErr("version %d, want %d or %d", version, ckVersionNoScale, ckVersion)
	}
	body := data[:len(data)-4]
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(data[len(data)-4:]) {
		return nil, ckErr("checksum mismatch (corrupted or truncated)")
	}
	r := &reader{b: body[pre:]}
	hdr := [headerWords]uint64{}
	for i := range hdr {
		hdr[i] = r.u()
	}
	const lim = 1 << 40
	for _, h := range hdr {
		if h >= lim {
			return nil, ckErr("size field %d out of range", h)
		}
	}
	n, lam, mu, upd, hist, asked := int(hdr[0]), int(hdr[1]), int(hdr[2]), Update(hdr[3]), int(hdr[4]), hdr[5]
	if n < 1 || n > 1<<20 || lam < 2 || lam > 1<<20 || mu < 1 || mu > lam ||
		upd >= numUpdates || hist < 1 || hist > 1<<25 || asked > 1 {
		return nil, ckErr("inconsistent sizes (n=%d λ=%d μ=%d update=%d hist=%d)", n, lam, mu, upd, hist)
	}

	// The Config block (its length was checked above).
	var cfg Config
	cfg.Dim, cfg.Update = n, upd
	cfg.Seed = r.u()
	cfg.Sigma = r.f()
	cfg.Lambda, cfg.Mu = r.i(), r.i()
	cfg.C, cfg.C1, cfg.CSigma, cfg.DSigma = r.f(), r.f(), r.f(), r.f()
	cfg.TargetF = r.f()
	cfg.MaxEvals, cfg.MaxGenerations = r.i(), r.i()
	cfg.TolFun = r.f()
	cfg.TolFunHist = r.i()
	cfg.TolX, cfg.MaxCondition = r.f(), r.f()
	rankMu, cmu := r.u(), r.f()
	restart, maxRest, workers := r.u(), r.u(), r.u()
	hasLower, hasUpper := r.u(), r.u()
	if r.bad || rankMu > 1 || restart >= lim || maxRest >= lim || workers >= lim || hasLower > 1 || hasUpper > 1 ||
		cfg.Lambda < 0 || cfg.Mu < 0 || cfg.TolFunHist < 0 || cfg.MaxEvals < 0 || cfg.MaxGenerations < 0 {
		return nil, ckErr("inconsistent config")
	}
	cfg.RankMu, cfg.CMu = rankMu == 1, cmu
	cfg.Restart, cfg.MaxRestarts, cfg.Workers = Restart(restart), int(maxRest), int(workers)
	nvec := int(hasLower + hasUpper)
	if cfg.Restart != NoRestart {
		nvec++
	}

	// The exact length, in float64 arithmetic first so that nothing
	// overflows, before anything is allocated.
	wf := float64(words(version, n, lam, mu, hist, nvec, upd == Cholesky, asked == 1)) // ≤ 2^54 here
	if wf*8 > float64(len(body)) {
		return nil, ckErr("truncated: %d bytes for n=%d, λ=%d", len(data), n, lam)
	}
	// The population is not stored unless asked: bound it by the input.
	if float64(lam)*float64(n) > max(float64(len(data)), 1<<22) {
		return nil, ckErr("population λ·n = %d·%d too large for the input", lam, n)
	}
	w := int(wf)
	rest := len(body) - pre - 8*w
	if rest < 4 {
		return nil, ckErr("truncated generator state")
	}

	// The bounds are stored after the state; validate the rest of the
	// config without them first (resolve checks the rates and the restart
	// limit), and the first run's parameters give λ0 and the history size.
	par0, err := resolve(&cfg)
	if err != nil {
		return nil, ckErr("%v", err)
	}
	lambda0 := par0.Lambda

	// The stored parameters of the current run, bit for bit (math.Log may
	// round differently on another machine).
	var par Params
	par.Lambda, par.Mu, par.TolFunHist = lam, mu, hist
	par.Weights = make([]float64, mu)
	r.vs(par.Weights)
	par.MuEff, par.C, par.C1, par.CSigma, par.DSigma, par.ChiN, par.CMu = r.f(), r.f(), r.f(), r.f(), r.f(), r.f(), r.f()
	for _, x := range par.Weights {
		if !finite(x) {
			return nil, ckErr("non-finite weight")
		}
	}
	if !(par.MuEff >= 1) || !finite(par.MuEff) || !(par.C > 0 && par.C <= 1) || !(par.C1 > 0 && par.C1 < 1) ||
		!(par.CSigma > 0 && par.CSigma <= 1) || !(par.DSigma > 0) || !finite(par.DSigma) ||
		!(par.ChiN > 0) || !finite(par.ChiN) ||
		(cfg.RankMu && !(par.CMu > 0 && par.C1+par.CMu <= 1)) || (!cfg.RankMu && par.CMu != 0) {
		return nil, ckErr("strategy parameters out of range")
	}

	o := newOptimizer(cfg, par, lambda0, max(par0.TolFunHist, hist))
	o.sigma = r.f()
	o.gen, o.evals = r.i(), r.i()
	reason, hasBest := r.u(), r.u()
	o.bestF = r.f()
	histPos, histLen := r.u(), r.u()
	o.rowA, o.rowAInv = r.f(), r.f()
	if r.bad || o.gen < 0 || o.evals < 0 || reason >= uint64(numReasons) || Reason(reason) == Canceled ||
		hasBest > 1 || histPos >= uint64(hist) || histLen > uint64(hist) {
		return nil, ckErr("inconsistent counters")
	}
	o.reason, o.hasBest, o.asked = Reason(reason), hasBest == 1, asked == 1
	o.histPos, o.histLen = int(histPos), int(histLen)
	var rs [8]uint64
	for i := range rs {
		rs[i] = r.u()
		if rs[i] > uint64(math.MaxInt>>1) { // fits an int, with room for sums
			return nil, ckErr("restart counters out of range")
		}
	}
	o.restarts, o.largeRuns = int(rs[0]), int(rs[1])
	o.evalsSmall, o.evalsLarge = int(rs[2]), int(rs[3])
	small, genBefore := rs[4], int(rs[5])
	o.runEvals0, o.runMaxGen = int(rs[6]), int(rs[7])
	o.aScale = 1
	if version > ckVersionNoScale {
		o.aScale = r.f()
	}
	o.small = small == 1
	if small > 1 || genBefore > o.gen || o.runEvals0 > o.evals || !o.validRun() {
		return nil, ckErr("inconsistent restart state")
	}
	o.runGen = o.gen - genBefore
	// The current run's sizes must be those its λ gives.
	if want, err := o.runParams(lam); err != nil || want.Mu != mu || want.TolFunHist != hist {
		return nil, ckErr("population λ = %d inconsistent with μ = %d and the history %d", lam, mu, hist)
	}

	r.vs(o.m)
	r.vs(o.p)
	r.vs(o.v)
	r.vs(o.s)
	r.vs(o.bestX)
	r.vs(o.a)
	r.vs(o.ainv)
	r.vs(o.hist)
	r.vs(o.m0)
	if hasLower == 1 {
		cfg.Lower = make([]float64, n)
		r.vs(cfg.Lower)
	}
	if hasUpper == 1 {
		cfg.Upper = make([]float64, n)
		r.vs(cfg.Upper)
	}
	if err := checkBounds(&cfg); err != nil {
		return nil, ckErr("%v", err)
	}
	o.cfg.Lower, o.cfg.Upper = cfg.Lower, cfg.Upper
	o.setBounds(cfg.Lower, cfg.Upper)
	if o.m0 != nil {
		cfg.Mean = o.m0
		if !allFinite(o.m0) {
			return nil, ckErr("non-finite initial mean")
		}
		if err := checkMeanInBounds(&cfg); err != nil {
			return nil, ckErr("%v", err)
		}
	}
	if o.asked {
		r.vs(o.z)
		r.vs(o.y)
		r.vs(o.x)
	}
	if o.reason == NotStopped {
		// A live run must have the state New and Tell guarantee.
		if !finite(o.sigma) || o.sigma <= 0 || !allFinite(o.m) || !allFinite(o.p) ||
			!allFinite(o.v) || !allFinite(o.s) || !allFinite(o.a) || !allFinite(o.ainv) ||
			!(o.aScale >= aScaleMin && o.aScale <= 1) ||
			!(o.rowA >= 0) || !(o.rowAInv >= 0) {
			return nil, ckErr("live run with a non-finite state")
		}
		if o.asked && (!allFinite(o.z) || !allFinite(o.y) || !allFinite(o.x)) {
			return nil, ckErr("non-finite candidates")
		}
	} else if o.asked {
		return nil, ckErr("stopped run with pending candidates")
	}

	nr := int(binary.LittleEndian.Uint32(r.b))
	r.b = r.b[4:]
	if nr != len(r.b) {
		return nil, ckErr("generator state: %d bytes, have %d", nr, len(r.b))
	}
	o.src = new(xoshiro)
	if err := o.src.UnmarshalBinary(r.b); err != nil {
		return nil, ckErr("generator state: %v", err)
	}
	return o, nil
}

// validRun reports whether the restart counters and the current λ are
// consistent with the Restart strategy (see restart.go).
func (o *Optimizer) validRun() bool {
	k, l0, lam := maxRestarts(&o.cfg), o.lambda0, o.lambda
	if o.largeRuns > k || o.largeRuns > o.restarts {
		return false
	}
	switch o.cfg.Restart {
	case NoRestart:
		return o.restarts == 0 && lam == l0 && !o.small && o.evalsSmall == 0 && o.evalsLarge == 0
	case IPOP:
		return o.restarts <= k && lam == l0<<o.restarts && o.largeRuns == 0 && !o.small && o.evalsSmall == 0 && o.evalsLarge == 0
	}
	return lam >= l0 && lam <= l0<<o.largeRuns && (o.small || lam == l0<<o.largeRuns)
}
