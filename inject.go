package mmaes

import (
	"errors"
	"math"

	"github.com/mmaes-go/mmaes/kernel"
)

// Injected points (Inject) take the place of sampled candidates, as pycma's
// inject does (Hansen, "Injecting External Solutions Into CMA-ES", 2011):
// the point x is evaluated as given (clamped into the box, integers
// rounded), and the update uses its step in the distribution's coordinates,
// y = (x − m)/σ and z = A⁻¹·y (solved on a copy of A), with the step's
// length clipped to c_y = √n + 2n/(n+2) in the metric of the distribution
// (‖z‖ ≤ c_y, y scaled alike) for the paths, A and σ: a far point pulls
// them no harder than a typical good step. The mean takes the injected
// step whole when the point is selected (its weight times the part the
// clip removed is added back): a good point far away moves the mean
// there, which is what injecting it is for, while a bad one is not
// selected.
//
// Two rules of ours on top (measured in docs/service.md):
//
//   - A relocation teaches nothing. When a selected injected candidate's
//     step was clipped, the generation moves the mean only; the paths, A
//     and σ keep their values. A far step says where to go, not how the
//     distribution should look or how large it should be, and repeated
//     clipped steps in one direction would otherwise grow σ and stretch A
//     along the way travelled, which the run then has to unlearn.
//   - The leader stays. An injected candidate that ranks first in its
//     generation is injected again in the next one, until a sampled
//     candidate beats it in its generation or the run restarts: Hansen's
//     elitist re-injection, for injected points. The mean then reaches a
//     good point in a few generations, where one selection moves it by
//     the point's weight only (0.46 at λ = 10).

// ErrInject is returned by Inject for a point that is not finite.
var ErrInject = errors.New("mmaes: Inject: a coordinate is not finite")

// injection holds the points waiting for a generation and the injected
// candidates of the pending one.
type injection struct {
	queue   []float64 // waiting points, Dim each (full length), oldest first
	x       []float64 // the pending generation's injected candidates (searched coordinates)
	dy      []float64 // for each, the part of its step y the clip removed
	count   int       // the first count candidates of the pending generation are injected
	u, y, z []float64 // scratch, searched coordinates
	lead    []float64 // the leader to inject again (searched coordinates)
	led     bool      // lead is set
}

// Inject queues x (length Dim) to take the place of a candidate in the
// next generation that is sampled (with several points, the first
// candidates in the order injected; more than λ wait for the generations
// after). Its value is evaluated at x itself (clamped into the bounds,
// integer coordinates rounded, fixed ones set); the update uses its step
// clipped to a typical length (see the package doc), so that an outlier
// cannot wreck the distribution, and a generation in which a selected
// injected point was farther moves the mean only. An injected point that
// ranks first in its generation takes the place of a candidate in the
// next one again, until a sampled candidate beats it in its generation or
// the run restarts. It returns ErrLength for a wrong length,
// ErrInject for a coordinate that is not finite, and the MaxMemory
// *ConfigError when the space it needs (A's size, for the step's solve,
// and 2·λ·n floats, n the searched coordinates, allocated when the first
// injected point is sampled; the queue of waiting points is the caller's)
// would take the run beyond the memory budget (Config.MaxMemory); a restart
// counts that space too.
func (o *Optimizer) Inject(x []float64) error {
	switch {
	case o.dist == nil:
		return ErrNotInitialized
	case len(x) != o.Dim():
		return ErrLength
	case !allFinite(x):
		return ErrInject
	}
	if o.inj == nil {
		// The space applyInjections and the step's solve allocate.
		if err := checkMemory(&o.cfg, o.fix, &o.par, injectMemory(&o.cfg, o.par.Lambda)); err != nil {
			return err
		}
		o.inj = &injection{}
	}
	o.inj.queue = append(o.inj.queue, x...)
	return nil
}

// applyInjections replaces the first sampled candidates (their z and y)
// by waiting points, and records their evaluated points.
func (o *Optimizer) applyInjections() {
	g := o.inj
	g.count = 0
	full, n, p := o.Dim(), o.cfg.Dim, &o.pop
	lead := 0
	if g.led {
		lead = 1
	}
	k := min(len(g.queue)/full+lead, p.lambda)
	if k == 0 {
		return
	}
	if len(g.u) < n {
		g.u, g.y, g.z = make([]float64, n), make([]float64, n), make([]float64, n)
	}
	if len(g.x) < k*n {
		g.x = make([]float64, max(k, p.lambda)*n)
		g.dy = make([]float64, max(k, p.lambda)*n)
	}
	clip := math.Sqrt(float64(n)) + 2*float64(n)/float64(n+2)
	for j := range k {
		u := g.u
		if j < lead {
			copy(u, g.lead)
		} else {
			w := g.queue[(j-lead)*full : (j-lead)*full+full]
			if o.fix != nil {
				for c, i := range o.fix.free {
					u[c] = w[i]
				}
			} else {
				copy(u, w)
			}
			for i := range u {
				u[i] = min(bound(o.cfg.Upper, i, 1), max(bound(o.cfg.Lower, i, -1), u[i]))
			}
			if o.margin != nil {
				o.margin.encode(u, n, 1)
			}
		}
		y := g.y
		kernel.AxpByTo(y, 1/o.step.sigma, u, -1/o.step.sigma, o.m)
		if o.margin != nil {
			for c, i := range o.margin.idx {
				y[i] /= o.margin.d[c]
			}
		}
		z := g.z
		if !o.dist.solve(z, y) || !allFinite(z) {
			continue // A is singular here: the point is dropped
		}
		c := g.count
		dy := g.dy[c*n : c*n+n]
		clear(dy)
		if nz := kernel.Norm(z); nz > clip {
			f := clip / nz
			kernel.Scale(f, z)
			kernel.AxpByTo(dy, 1-f, y, 0, dy)
			kernel.Scale(f, y)
		}
		copy(p.z[c*n:c*n+n], z)
		if p.y != nil { // else the distribution computes y = A·z from z
			copy(p.y[c*n:c*n+n], y)
		}
		copy(g.x[c*n:c*n+n], u)
		g.count++
	}
	g.queue = g.queue[:copy(g.queue, g.queue[(k-lead)*full:])]
	g.led = false
}

// relocates reports whether a selected injected candidate's step was
// clipped: the generation then moves the mean only.
func (g *injection) relocates(s *generation, n int) bool {
	for _, i := range s.idx[:len(s.weights)] {
		if i < g.count && !allZero(g.dy[i*n:i*n+n]) {
			return true
		}
	}
	return false
}

// keepLeader records the leader for the next generation: the injected
// candidate i ranked first (of value f, not NaN).
func (g *injection) keepLeader(i int, f float64, n int) {
	g.led = i < g.count && f == f
	if g.led {
		if len(g.lead) < n {
			g.lead = make([]float64, n)
		}
		copy(g.lead, g.x[i*n:i*n+n])
	}
}

// meanShift adds to the new mean m the parts of the selected injected
// candidates' steps that the clip removed, at their weights.
func (g *injection) meanShift(m []float64, sigma float64, s *generation, n int) {
	for r, i := range s.idx[:len(s.weights)] {
		if i < g.count {
			kernel.Axpy(sigma*s.weights[r], g.dy[i*n:i*n+n], m)
		}
	}
}

// encode writes the injections; the injected candidates only while their
// generation is pending (asked).
func (g *injection) encode(e *encoder, n int, asked bool) {
	if g == nil {
		e.int(0)
		e.int(0)
		e.bool(false)
		return
	}
	e.int(len(g.queue))
	e.floats(g.queue)
	count := g.count
	if !asked {
		count = 0
	}
	e.int(count)
	e.floats(g.x[:count*n])
	e.floats(g.dy[:count*n])
	e.bool(g.led)
	if g.led {
		e.floats(g.lead[:n])
	}
}

// decodeInjection reads the injections of a checkpoint (nil when none):
// full-length waiting points and the pending generation's injected
// candidates, which must be finite and at most λ.
func decodeInjection(d *decoder, full, n, lambda int) (*injection, error) {
	q := d.int()
	if d.err != nil {
		return nil, d.err
	}
	if q < 0 || q%full != 0 || !d.holds(float64(q)) {
		return nil, ckErr("%d injected coordinates", q)
	}
	queue := d.newFloats(q)
	count := d.int()
	if d.err != nil {
		return nil, d.err
	}
	if count < 0 || count > lambda || !d.holds(float64(count*n)) {
		return nil, ckErr("%d injected candidates for λ = %d", count, lambda)
	}
	if !d.holds(float64(2 * count * n)) {
		return nil, ckErr("truncated injected candidates")
	}
	x := d.newFloats(count * n)
	dy := d.newFloats(count * n)
	var lead []float64
	if d.version >= 7 && d.bool() {
		if !d.holds(float64(n)) {
			return nil, ckErr("truncated leader")
		}
		lead = d.newFloats(n)
	}
	if d.err != nil {
		return nil, d.err
	}
	if !allFinite(queue) || !allFinite(x) || !allFinite(dy) || !allFinite(lead) {
		return nil, ckErr("injected point not finite")
	}
	if q == 0 && count == 0 && lead == nil {
		return nil, nil
	}
	g := &injection{queue: queue, x: x, dy: dy, count: count, lead: lead, led: lead != nil}
	g.u, g.y, g.z = make([]float64, n), make([]float64, n), make([]float64, n)
	return g, nil
}

func allZero(v []float64) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}
