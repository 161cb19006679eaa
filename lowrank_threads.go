package mmaes

import "github.com/mmaes-go/mmaes/kernel"

// lowRankThreadWork is the fewest flops of one of the limited memory's
// passes (2·k·λ·n) that it splits over the pool of Config.Threads, about
// 0.3 ms on one core: at n = 2000 and 4000 (4–13 Mflop a pass) two
// goroutines measured slower than one (docs/large-scale.md, Several
// cores). lowRankThreadCols is the fewest columns of a range of
// CombineRows. Both are variables for the tests, which split small runs.
var (
	lowRankThreadWork = float64(1 << 24)
	lowRankThreadCols = 2048
)

// lowRankColAlign is the granularity of the ranges of columns: 64 columns
// keep each range's rows 64-byte aligned, for the streaming stores.
const lowRankColAlign = 64

func (d *lowRank) setThreads(t *rowThreads, _ int) { d.threads = t }

// splits reports whether a pass over the k pairs and kb vectors of n is
// large enough to split.
func (d *lowRank) splits(k, kb int) bool {
	return d.threads != nil && lowRankSplits(k, kb, d.n)
}

// lowRankSplits reports whether a pass over k pairs and kb vectors of n
// is large enough to split.
func lowRankSplits(k, kb, n int) bool {
	return 2*float64(k)*float64(kb)*float64(n) >= lowRankThreadWork
}

// drawsAhead reports whether the pool draws the next generation's
// deviates while the caller evaluates a population of λ and tells it
// (Optimizer.drawAhead): where the sampling's passes split once every slot
// is in use, so that a run holds the buffer from its start.
func (d *lowRank) drawsAhead(lambda int) bool {
	return d.splits(d.slots(), lambda)
}

// samplingSplits reports whether the passes of this generation's sampling
// split: with the slots in use now, which grow from the fast ring's over
// the run's first windows.
func (d *lowRank) samplingSplits(lambda int) bool { return d.splits(max(d.k, 1), lambda) }

// splitsInOneCall reports false: the sampling's two passes are two calls
// of the pool.
func (d *lowRank) splitsInOneCall() bool { return false }

// lowRankDrawsAhead is drawsAhead for cfg, before the distribution exists
// (runMemory counts the buffer).
func lowRankDrawsAhead(cfg *Config, lambda int) bool {
	return cfg.Threads > 1 && lowRankSplits(slotsOf(cfg), lambda, cfg.Dim)
}

// dotRows is kernel.DotRows, split by ranges of the rows of a over the
// pool when it pays: each range reads all of b and its rows of a, and
// every element is the bits of the whole call (kernel.DotRowsRange).
func (d *lowRank) dotRows(dst, a []float64, ka int, b []float64, kb, n int) {
	if d.splits(ka, kb) {
		if used := d.threads.split(ka, kernel.DotRowsAlign, kernel.DotRowsAlign); used >= 2 {
			d.dot = dotJob{dst: dst, a: a, ka: ka, b: b, kb: kb, n: n}
			d.threads.run(&d.dot, used)
			d.dot = dotJob{}
			return
		}
	}
	kernel.DotRows(dst, a, ka, b, kb, n)
}

// combineRows is kernel.CombineRows with the distribution's diagonal and
// its d.k pairs, split by ranges of columns over the pool when it pays
// (kernel.CombineRowsRange: every element is one chain, the same bits),
// except a single row (y_w) while the pool draws the next deviates: split,
// it would wait for the draw before sharing the pass, which the caller
// alone finishes sooner.
func (d *lowRank) combineRows(x, m []float64, sigma float64, z []float64, k int, c []float64) {
	n, kp := d.n, d.k
	p := d.p[:kp*n]
	if d.splits(max(kp, 1), k) && !(k == 1 && d.threads.drawing()) {
		if used := d.threads.split(n, lowRankColAlign, lowRankThreadCols); used >= 2 {
			d.comb = combineJob{x: x, m: m, sigma: sigma, s: d.sd, z: z, k: k, n: n, p: p, kp: kp, c: c}
			d.threads.run(&d.comb, used)
			d.comb = combineJob{}
			return
		}
	}
	kernel.CombineRows(x, m, sigma, d.sd, z, k, n, p, kp, c)
}

// dotJob is kernel.DotRows by ranges of the rows of a.
type dotJob struct {
	dst, a, b []float64
	ka, kb, n int
}

func (j *dotJob) runRange(t *rowThreads, i, _ int) {
	kernel.DotRowsRange(j.dst, j.a, j.ka, j.b, j.kb, j.n, t.bounds[i], t.bounds[i+1])
}

// combineJob is kernel.CombineRows by ranges of columns.
type combineJob struct {
	x, m, s, z, p, c []float64
	sigma            float64
	k, n, kp         int
}

func (j *combineJob) runRange(t *rowThreads, i, _ int) {
	kernel.CombineRowsRange(j.x, j.m, j.sigma, j.s, j.z, j.k, j.n, j.p, j.kp, j.c, t.bounds[i], t.bounds[i+1])
}
