package mmaes

import (
	"encoding/binary"
	"math"
)

// Checkpoint formats 2 and 3, read for compatibility: the layout before the
// parts of the optimizer encoded themselves. All integers little-endian
// uint64 unless noted, floats IEEE-754 bits:
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
//	        current run, its generation limit, and (version 3) the scale s
//	        of A = s·Ã
//	vectors: m, p, v, s, best x (n each), Ã (n²; A itself in version 2),
//	        A_inv (n², Cholesky only), TolFun history (TolFunHist), the
//	        initial mean (n, with a Restart strategy), Lower, Upper (n
//	        each, when set), and if asked Z, Y, X (λ·n each)
//	generator: length (uint32) and the xoshiro256++ MarshalBinary bytes
//	CRC-32 (IEEE, uint32) of everything before it
//
// Version 2 is read with s = 1. The stored candidates X are not read: they
// are computed from Y, as in the current version. Without a restart strategy these versions
// did not keep the initial mean, which such a run never uses again; the
// restored optimizer takes the current mean, mapped into the bounds, in its
// place.

const (
	ckVersion3 = 3
	ckVersion2 = 2
)

// decodeV3 decodes a checkpoint of version 2 or 3 whose frame (magic,
// version, checksum) was checked.
func decodeV3(data []byte, version uint32) (*Optimizer, error) {
	const pre = 8 + 4
	d := &decoder{b: data[pre : len(data)-4]}
	var hdr [6]uint64
	for i := range hdr {
		hdr[i] = d.u64()
	}
	if d.err != nil {
		return nil, ckErr("%d bytes: too short", len(data))
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

	var cfg Config
	cfg.Dim, cfg.Update = n, upd
	cfg.Seed = d.u64()
	cfg.Sigma = d.f64()
	cfg.Lambda, cfg.Mu = d.int(), d.int()
	cfg.C, cfg.C1, cfg.CSigma, cfg.DSigma = d.f64(), d.f64(), d.f64(), d.f64()
	cfg.TargetF = d.f64()
	cfg.MaxEvals, cfg.MaxGenerations = d.int(), d.int()
	cfg.TolFun = d.f64()
	cfg.TolFunHist = d.int()
	cfg.TolX, cfg.MaxCondition = d.f64(), d.f64()
	rankMu, cmu := d.u64(), d.f64()
	restart, maxRest, workers := d.u64(), d.u64(), d.u64()
	hasLower, hasUpper := d.u64(), d.u64()
	if d.err != nil || rankMu > 1 || restart >= lim || maxRest >= lim || workers >= lim || hasLower > 1 || hasUpper > 1 {
		return nil, ckErr("inconsistent config")
	}
	cfg.RankMu, cfg.CMu = rankMu == 1, cmu
	// These versions ran without a bounding stop when all were 0.
	cfg.Endless = cfg.MaxEvals == 0 && cfg.MaxGenerations == 0 && cfg.TolFun == 0 && cfg.TolX == 0 && cfg.MaxCondition == 0
	cfg.Restart, cfg.MaxRestarts, cfg.Workers = Restart(restart), int(maxRest), int(workers)
	nvec := int(hasLower + hasUpper)
	if cfg.Restart != NoRestart {
		nvec++
	}

	// The exact length, in float64 arithmetic first so that nothing
	// overflows, before anything is allocated.
	words := 22 + mu + 7 + 18 + (5+nvec)*n + n*n + hist
	if version > ckVersion2 {
		words++ // the scale of A
	}
	if upd == Cholesky {
		words += n * n
	}
	if asked == 1 {
		words += 3 * lam * n
	}
	body := len(data) - pre - 4
	if 8*float64(6+words) > float64(body) {
		return nil, ckErr("truncated: %d bytes for n=%d, λ=%d", len(data), n, lam)
	}
	if float64(lam)*float64(n) > max(float64(len(data)), 1<<22) {
		return nil, ckErr("population λ·n = %d·%d too large for the input", lam, n)
	}

	// The rest of the config without the bounds, which come later: the
	// first run's parameters give λ0 and the history size.
	par0, err := resolve(&cfg, nil)
	if err != nil {
		return nil, ckErr("%v", err)
	}
	par := Params{Lambda: lam, Mu: mu, TolFunHist: hist}
	par.Weights = d.newFloats(mu)
	par.MuEff, par.C, par.C1, par.CSigma, par.DSigma, par.ChiN, par.CMu = d.f64(), d.f64(), d.f64(), d.f64(), d.f64(), d.f64(), d.f64()
	if d.err != nil || !par.valid(&cfg) {
		return nil, ckErr("strategy parameters out of range")
	}
	if want, err := computeParams(&cfg, lam, runMu(&cfg, par0.Lambda, lam)); err != nil || want.Mu != mu || want.TolFunHist != hist {
		return nil, ckErr("population λ = %d inconsistent with μ = %d and the history %d", lam, mu, hist)
	} else if !par.near(&want) {
		return nil, ckErr("strategy parameters differ from those of the config")
	}

	sigma := d.f64()
	gen, evals := d.count(), d.count()
	reason, hasBest := d.u64(), d.u64()
	bestF := d.f64()
	histPos, histLen := d.u64(), d.u64()
	rowA, rowAInv := d.f64(), d.f64()
	if d.err != nil || reason >= uint64(numReasons) || Reason(reason) == Canceled ||
		hasBest > 1 || histPos >= uint64(hist) || histLen > uint64(hist) {
		return nil, ckErr("inconsistent counters")
	}
	var rs [8]uint64
	for i := range rs {
		rs[i] = d.u64()
		if rs[i] > maxCount { // fits an int, with room for sums
			return nil, ckErr("restart counters out of range")
		}
	}
	restarts, largeRuns := int(rs[0]), int(rs[1])
	evalsSmall, evalsLarge := int(rs[2]), int(rs[3])
	small, genBefore := rs[4], int(rs[5])
	runEvals0, runMaxGen := int(rs[6]), int(rs[7])
	scale := 1.0
	if version > ckVersion2 {
		scale = d.f64()
	}
	if small > 1 || genBefore > gen || runEvals0 > evals {
		return nil, ckErr("inconsistent restart state")
	}

	m, p, v, s, bestX := d.newFloats(n), d.newFloats(n), d.newFloats(n), d.newFloats(n), d.newFloats(n)
	a := d.newFloats(n * n)
	var ainv []float64
	if upd == Cholesky {
		ainv = d.newFloats(n * n)
	}
	histVals := d.newFloats(hist)
	var m0 []float64
	if cfg.Restart != NoRestart {
		m0 = d.newFloats(n)
	}
	if hasLower == 1 {
		cfg.Lower = d.newFloats(n)
	}
	if hasUpper == 1 {
		cfg.Upper = d.newFloats(n)
	}
	if d.err != nil {
		return nil, d.err
	}
	if err := checkBounds(&cfg, nil); err != nil {
		return nil, ckErr("%v", err)
	}
	if m0 != nil {
		if !allFinite(m0) {
			return nil, ckErr("non-finite initial mean")
		}
		cfg.Mean = m0
		if err := checkMeanInBounds(&cfg, nil); err != nil {
			return nil, ckErr("%v", err)
		}
	} else if allFinite(m) {
		cfg.Mean = append([]float64(nil), m...)
		if b := newBox(n, cfg.Lower, cfg.Upper, nil); b != nil {
			b.repair(cfg.Mean)
		}
	}

	o := newOptimizer(cfg, nil, par, par0.Lambda, max(par0.TolFunHist, hist))
	o.gen, o.evals = gen, evals
	o.setReason(Reason(reason), 0)
	o.asked = asked == 1
	copy(o.m, m)
	o.step.sigma = sigma
	copy(o.step.s, s)
	o.best = bestPoint{x: bestX, f: bestF, ok: hasBest == 1}
	if o.best.ok == math.IsNaN(bestF) || !allFinite(bestX) || (o.box != nil && !o.box.contains(bestX)) {
		return nil, ckErr("inconsistent best point")
	}
	copy(o.hist.buf, histVals)
	o.hist.pos, o.hist.len = int(histPos), int(histLen)
	o.run.restarts, o.run.gen, o.run.evals0, o.run.maxGen = restarts, gen-genBefore, runEvals0, runMaxGen
	if b, ok := o.run.policy.(*bipop); ok {
		b.small, b.large, b.evalsSmall, b.evalsLarge = small == 1, largeRuns, evalsSmall, evalsLarge
	} else if small != 0 || largeRuns != 0 || evalsSmall != 0 || evalsLarge != 0 {
		return nil, ckErr("inconsistent restart state")
	}
	fm := o.dist.(*fullMatrix)
	fm.scale, fm.rowA, fm.rowAInv = scale, rowA, rowAInv
	copy(fm.p, p)
	copy(fm.v, v)
	copy(fm.a, a)
	copy(fm.ainv, ainv)
	if o.asked {
		// X is not read: the candidates follow from Y (checkRestored), and
		// the views Ask handed out may have held what the caller wrote.
		d.floats(o.pop.z)
		d.floats(o.pop.y)
		d.newFloats(lam * n)
	}
	if d.err != nil {
		return nil, d.err
	}
	if o.reason == NotStopped {
		// A live run must have the state New and Tell guarantee.
		if !finite(sigma) || sigma <= 0 || !allFinite(o.m) || !allFinite(o.step.s) {
			return nil, ckErr("live run with a non-finite state")
		}
		if err := fm.validate(true); err != nil {
			return nil, err
		}
		if o.asked && (!allFinite(o.pop.z) || !allFinite(o.pop.y)) {
			return nil, ckErr("non-finite candidates")
		}
	}
	if err := o.checkRestored(); err != nil {
		return nil, err
	}

	if len(d.b) < 4 {
		return nil, ckErr("truncated generator state")
	}
	nr := int(binary.LittleEndian.Uint32(d.b))
	d.b = d.b[4:]
	if nr != len(d.b) {
		return nil, ckErr("generator state: %d bytes, have %d", nr, len(d.b))
	}
	o.src = new(xoshiro)
	if err := o.src.UnmarshalBinary(d.b); err != nil {
		return nil, ckErr("generator state: %v", err)
	}
	o.startBoard()
	return o, nil
}
