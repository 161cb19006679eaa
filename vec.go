package mmaes

import "github.com/mmaes-go/mmaes/kernel"

// path sets dst = decay·old + rate·step: an evolution path's update.
func path(dst, old []float64, decay, rate float64, step []float64) {
	kernel.AxpByTo(dst, decay, old, rate, step)
}

// maxAbs returns max_i |x_i|, NaN if some x_i is NaN (kernel.MaxAbs).
func maxAbs(x []float64) float64 { return kernel.MaxAbs(x) }

// allFinite reports whether every x_i is finite.
func allFinite(x []float64) bool {
	for _, xi := range x {
		if !finite(xi) {
			return false
		}
	}
	return true
}
