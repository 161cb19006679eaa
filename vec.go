package mmaes

import (
	"math"

	"github.com/mmaes-go/mmaes/kernel"
)

// path sets dst = decay·old + rate·step: an evolution path's update.
func path(dst, old []float64, decay, rate float64, step []float64) {
	kernel.AxpByTo(dst, decay, old, rate, step)
}

// maxAbs returns max_i |x_i|, NaN if some x_i is NaN. It compares the bits
// of |x_i| as integers (their order is the order of the values, and every
// NaN's is above +Inf's), with four running maxima: Go's max of floats is
// several instructions to let NaN win, and one chain of them is slow.
func maxAbs(x []float64) float64 {
	const abs = 1<<63 - 1
	var m0, m1, m2, m3 uint64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		m0 = max(m0, math.Float64bits(x[i])&abs)
		m1 = max(m1, math.Float64bits(x[i+1])&abs)
		m2 = max(m2, math.Float64bits(x[i+2])&abs)
		m3 = max(m3, math.Float64bits(x[i+3])&abs)
	}
	for ; i < len(x); i++ {
		m0 = max(m0, math.Float64bits(x[i])&abs)
	}
	return math.Float64frombits(max(m0, m1, m2, m3))
}

// allFinite reports whether every x_i is finite.
func allFinite(x []float64) bool {
	for _, xi := range x {
		if !finite(xi) {
			return false
		}
	}
	return true
}
