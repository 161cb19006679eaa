package mmaes

import "math"

// A Result summarizes a run.
type Result struct {
	// X is a copy of the best point evaluated so far (the initial mean
	// before any non-NaN fitness value was told), and F its fitness (NaN if
	// none).
	X []float64
	F float64
	// Mean is the mean of the search distribution (of the last run, with
	// restarts) mapped as a candidate is: into the box (Config.Lower,
	// Upper), its integer coordinates rounded (Config.Integer), the fixed
	// coordinates filled in; so it is a point of the objective's domain.
	// It is the point to use on a noisy objective, where the best value
	// seen is a lucky draw of the noise more than a good point, and the
	// mean averages the selected candidates of every generation. (The
	// distribution's own mean, which may leave the box, is Optimizer.Mean.)
	Mean []float64
	// Evals and Generations count the fitness values and the generations
	// told so far.
	Evals       int
	Generations int
	// Reason says why the run stopped (NotStopped if it has not; Canceled
	// in the Result of an Optimize call whose context was cancelled). With
	// restarts it is the reason of the last run.
	Reason Reason
	// Restarts counts the restarts made (Config.Restart); X and F are the
	// best over all runs.
	Restarts int
}

// Result returns the best point seen (a copy), its fitness, the mean (a
// copy), the counters and the stop reason.
func (o *Optimizer) Result() Result {
	if o.dist == nil {
		return Result{F: math.NaN()}
	}
	return Result{
		X:           append([]float64(nil), o.BestX()...),
		F:           o.best.f,
		Mean:        o.meanPoint(),
		Evals:       o.evals,
		Generations: o.gen,
		Reason:      o.reason,
		Restarts:    o.run.restarts,
	}
}

// meanPoint returns a copy of the mean mapped as a candidate: into the
// box, integer coordinates rounded, fixed ones filled in.
func (o *Optimizer) meanPoint() []float64 {
	n := len(o.m)
	m := append(make([]float64, 0, n), o.m...)
	if o.box != nil {
		o.box.repair(m)
	}
	if o.margin != nil {
		o.margin.encode(m, n, 1)
	}
	if o.fix != nil {
		return o.fix.expand(make([]float64, len(o.fix.base)), m)
	}
	return m
}

// BestX returns the best point seen (a view, valid until the next Tell;
// with fixed coordinates, until the next call of BestX); BestF returns its
// fitness (NaN if none yet).
func (o *Optimizer) BestX() []float64 {
	if o.fix != nil && o.best.x != nil {
		return o.fix.expand(o.fix.best, o.best.x)
	}
	return o.best.x
}

// BestF returns the best fitness value seen, NaN before the first.
func (o *Optimizer) BestF() float64 {
	if !o.best.ok {
		return math.NaN()
	}
	return o.best.f
}

// bestPoint is the best candidate evaluated so far, over all runs.
type bestPoint struct {
	x  []float64
	f  float64
	ok bool // a non-NaN value was told
}

func newBestPoint(n int) bestPoint { return bestPoint{x: make([]float64, n)} }

// improves reports whether a point of value f is the first or better than
// the best.
func (b *bestPoint) improves(f float64) bool { return !b.ok || f < b.f }

func (b *bestPoint) encode(e *encoder) {
	e.bool(b.ok)
	e.f64(b.f)
	e.floats(b.x)
}

// decode reads the best point and checks it: a value (not NaN) exactly when
// one was found, a finite point inside the box (nil: none).
func (b *bestPoint) decode(d *decoder, bx *box) error {
	b.ok = d.bool()
	b.f = d.f64()
	d.floats(b.x)
	if d.err != nil {
		return d.err
	}
	if b.ok == math.IsNaN(b.f) || !allFinite(b.x) || (bx != nil && !bx.contains(b.x)) {
		return ckErr("inconsistent best point")
	}
	return nil
}
