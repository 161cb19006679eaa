package mmaes

import (
	"math"
	"sync"
)

// A Status is a snapshot of a run, for other goroutines than the one that
// drives the optimizer (a status page, a metrics exporter): see
// Optimizer.Status.
type Status struct {
	Generation, Evals, Restarts, Lambda int
	// BestF and BestX are the best value and point seen (NaN and the
	// initial mean before the first value); Mean is the distribution's
	// mean, the point to use on a noisy objective. Full length with fixed
	// coordinates.
	BestF       float64
	BestX, Mean []float64
	// StdMin and StdMax are the smallest and the largest standard
	// deviation of a free coordinate, σ·‖A_i‖, as of the last exact scan of
	// A's rows (every few generations, see Config.TolX; the margin of
	// integer coordinates not included).
	StdMin, StdMax float64
	// Reason is why the run stopped, or NotStopped.
	Reason Reason
}

// statusBoard holds the status published at the end of every Tell, under
// its lock.
type statusBoard struct {
	mu             sync.Mutex
	s              Status
	stdMin, stdMax float64 // of the last scan
}

// Status copies the status published at the end of the last Tell (or by
// New, UnmarshalBinary and Reconfigure, and by an Ask whose candidates
// were not finite, which restarted or stopped the run) into dst. Unlike every other
// method it may be called from any goroutine while another drives the
// optimizer (Ask, Tell, TellSome, Optimize, Reconfigure), not while
// UnmarshalBinary replaces it. It allocates nothing when dst's BestX and
// Mean have the capacity for Dim values.
func (o *Optimizer) Status(dst *Status) {
	b := o.board
	if b == nil {
		*dst = Status{BestF: math.NaN()}
		return
	}
	bestX, mean := dst.BestX, dst.Mean
	b.mu.Lock()
	*dst = b.s
	dst.BestX = append(bestX[:0], b.s.BestX...)
	dst.Mean = append(mean[:0], b.s.Mean...)
	b.mu.Unlock()
}

// publish writes the status of the optimizer to its board (h: the health
// of the last update, when its rows were scanned).
func (o *Optimizer) publish() {
	b := o.board
	b.mu.Lock()
	s := &b.s
	s.Generation, s.Evals, s.Restarts, s.Lambda = o.gen, o.evals, o.run.restarts, o.pop.lambda
	s.BestF, s.Reason = o.BestF(), o.reason
	s.BestX = append(s.BestX[:0], o.BestX()...)
	s.Mean = append(s.Mean[:0], o.Mean()...)
	s.StdMin, s.StdMax = b.stdMin, b.stdMax
	b.mu.Unlock()
}

// noteScan records the deviations of an exact scan of A's rows.
func (o *Optimizer) noteScan(h health) {
	if h.scanned && !h.broken {
		o.board.stdMin, o.board.stdMax = o.step.sigma*h.minRow, o.step.sigma*h.maxRow
	}
}

// startBoard makes the board of a new or restored optimizer and publishes
// its status; the deviations are the exact ones of A.
func (o *Optimizer) startBoard() {
	o.board = &statusBoard{}
	o.exactDeviations()
	o.publish()
}

// exactDeviations sets the board's deviations to the exact ones of A (at
// the start of a run: those of A reset).
func (o *Optimizer) exactDeviations() {
	lo, hi := o.dist.deviations()
	o.board.stdMin, o.board.stdMax = o.step.sigma*lo, o.step.sigma*hi
}
