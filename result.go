package mmaes

import "math"

// A Result summarizes a run.
type Result struct {
	// X is a copy of the best point evaluated so far (the initial mean
	// before any non-NaN fitness value was told), and F its fitness (NaN if
	// none).
	X []float64
	F float64
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

// Result returns the best point seen (a copy), its fitness, the counters
// and the stop reason.
func (o *Optimizer) Result() Result {
	if o.dist == nil {
		return Result{F: math.NaN()}
	}
	return Result{
		X:           append([]float64(nil), o.best.x...),
		F:           o.best.f,
		Evals:       o.evals,
		Generations: o.gen,
		Reason:      o.reason,
		Restarts:    o.run.restarts,
	}
}

// BestX returns the best point seen (a view, valid until the next Tell);
// BestF returns its fitness (NaN if none yet).
func (o *Optimizer) BestX() []float64 { return o.best.x }

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

// offer records x with value f if it is the first or better than the best.
func (b *bestPoint) offer(x []float64, f float64) {
	if !b.ok || f < b.f {
		copy(b.x, x)
		b.f, b.ok = f, true
	}
}

func (b *bestPoint) encode(e *encoder) {
	e.bool(b.ok)
	e.f64(b.f)
	e.floats(b.x)
}

func (b *bestPoint) decode(d *decoder) error {
	b.ok = d.bool()
	b.f = d.f64()
	d.floats(b.x)
	return d.err
}
