package mmaes

import (
	"math"
	"slices"
)

// runWatch is the state of the stops that watch a run's progress rather
// than its distribution: the best values of the run and of the runs before
// it (Hopeless), the generations of flat fitness (FlatFitness) and the
// records of the generations' best and median values (Stagnation).
type runWatch struct {
	bestBefore float64 // the best value of the earlier runs; NaN: none
	best       float64 // the run's best value; +Inf: none yet
	bestGen    int     // the run generation that found it
	flat       int     // consecutive generations of flat fitness

	// Stagnation's records, most recent first in ring order: every 5th
	// generation's best and median value. rec holds 2·cap floats.
	rec     []float64
	recPos  int // the next slot
	recLen  int
	recCap  int
	scratch []float64 // the medians' sorting space
}

// stagnationRecords returns the number of records Stagnation keeps for cfg:
// 20 000, or fewer when the runs are bounded by MaxGenerations.
func stagnationRecords(cfg *Config) int {
	if !cfg.Stagnation {
		return 0
	}
	k := 20000
	if cfg.MaxGenerations > 0 {
		k = min(k, cfg.MaxGenerations/5+1)
	}
	return k
}

// newRunWatch allocates the watch of cfg's stops.
func newRunWatch(cfg *Config) runWatch {
	w := runWatch{recCap: stagnationRecords(cfg)}
	if w.recCap > 0 {
		w.rec = make([]float64, 2*w.recCap)
		w.scratch = make([]float64, w.recCap)
	}
	return w
}

// resize gives the watch room for recCap records (Reconfigure changed
// MaxGenerations), keeping the latest of those it holds: the records a
// watch of that size would hold had it been so from the start.
func (w *runWatch) resize(recCap int) {
	if recCap == w.recCap {
		return
	}
	keep := min(w.recLen, recCap)
	var rec, scratch []float64
	if recCap > 0 {
		rec, scratch = make([]float64, 2*recCap), make([]float64, recCap)
	}
	// Oldest kept first: record j back (0: the latest) goes to slot
	// keep−1−j.
	for j := range keep {
		slot := (w.recPos - 1 - j + 2*w.recCap) % w.recCap
		copy(rec[2*(keep-1-j):2*(keep-j)], w.rec[2*slot:2*slot+2])
	}
	w.rec, w.scratch, w.recCap, w.recLen = rec, scratch, recCap, keep
	w.recPos = 0
	if recCap > 0 {
		w.recPos = keep % recCap
	}
}

// watchMemory is the memory newRunWatch allocates, in bytes.
func watchMemory(cfg *Config) float64 {
	return 8 * 3 * float64(stagnationRecords(cfg))
}

// start begins a run after runs whose best value is bestBefore (NaN: the
// first run).
func (w *runWatch) start(bestBefore float64) {
	w.bestBefore, w.best, w.bestGen, w.flat = bestBefore, math.Inf(1), 0, 0
	w.recPos, w.recLen = 0, 0
}

// observe records the ranked values of generation gen of the run: fit
// indexed by idx, the first valid of them not NaN.
func (w *runWatch) observe(gen int, fit []float64, idx []int, valid int) {
	best := fit[idx[0]]
	if best < w.best {
		w.best, w.bestGen = best, gen
	}
	if fit[idx[0]] == fit[idx[len(idx)*3/4]] {
		w.flat++
	} else {
		w.flat = 0
	}
	if w.recCap > 0 && gen%5 == 0 {
		// The median of the valid values, as numpy's of an even count.
		k := valid / 2
		med := fit[idx[k]]
		if valid%2 == 0 {
			med = (fit[idx[k-1]] + fit[idx[k]]) / 2
		}
		w.rec[2*w.recPos], w.rec[2*w.recPos+1] = best, med
		w.recPos = (w.recPos + 1) % w.recCap
		w.recLen = min(w.recLen+1, w.recCap)
	}
}

// stops returns the watch's stops after generation gen of the run, whose
// values spread genRange (NaN: none).
func (w *runWatch) stops(c *Config, par *Params, gen int, genRange float64) (s stopSet) {
	if c.FlatFitness > 0 && w.flat >= c.FlatFitness {
		s.add(FlatFitnessReached)
	}
	if c.Hopeless > 0 && w.best-c.Hopeless*genRange > w.bestBefore {
		s.add(Hopeless)
	}
	if par.Stagnation > 0 && gen%5 == 0 && w.stagnated(c.Dim, par, gen) {
		s.add(Stagnated)
	}
	return s
}

// stagnated is pycma's tolstagnation test (see Config.Stagnation).
func (w *runWatch) stagnated(n int, par *Params, gen int) bool {
	t := par.Stagnation
	l := max(t/10, w.recLen/10)
	if float64(gen) <= float64(n)*(5+100/float64(par.Lambda)) || 2*(gen-w.bestGen) <= t ||
		w.recLen <= 100 || 2*l >= w.recLen {
		return false
	}
	// Record j back (0: the latest) of series s (0: best, 1: median).
	median := func(s, from int) float64 {
		m := w.scratch[:l]
		for j := range m {
			slot := (w.recPos - 1 - (from + j) + 2*w.recCap) % w.recCap
			m[j] = w.rec[2*slot+s]
		}
		slices.Sort(m)
		if l%2 == 1 {
			return m[l/2]
		}
		return (m[l/2-1] + m[l/2]) / 2
	}
	return median(1, 0) >= median(1, l) && median(0, 0) >= median(0, l)
}

func (w *runWatch) encode(e *encoder) {
	e.f64(w.bestBefore)
	e.f64(w.best)
	e.int(w.bestGen)
	e.int(w.flat)
	e.int(w.recPos)
	e.int(w.recLen)
	e.floats(w.rec)
}

func (w *runWatch) decode(d *decoder, runGen int) error {
	w.bestBefore, w.best = d.f64(), d.f64()
	w.bestGen, w.flat = d.count(), d.count()
	w.recPos, w.recLen = d.count(), d.count()
	d.floats(w.rec)
	if d.err != nil {
		return d.err
	}
	if w.best != w.best || w.bestGen > runGen || w.flat > runGen || w.recLen > w.recCap ||
		(w.recCap > 0 && w.recPos >= w.recCap) || (w.recCap == 0 && w.recPos != 0) {
		return ckErr("inconsistent watch of the run")
	}
	return nil
}
