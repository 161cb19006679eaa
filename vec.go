package mmaes

import (
	"math"

	"github.com/mmaes-go/mmaes/kernel"
)

// path sets dst = decay·old + rate·step: an evolution path's update.
func path(dst, old []float64, decay, rate float64, step []float64) {
	kernel.AxpByTo(dst, decay, old, rate, step)
}

// maxAbs returns max_i |x_i|, NaN if some x_i is NaN: kernel.MaxAbs, or
// for a few elements, where a call into the kernel costs more than the
// comparisons, the same comparison of the bits of |x_i| as integers.
func maxAbs(x []float64) float64 {
	if len(x) > maxAbsShort {
		return kernel.MaxAbs(x)
	}
	var m uint64
	for _, v := range x {
		m = max(m, math.Float64bits(v)&^(1<<63))
	}
	return math.Float64frombits(m)
}

// maxAbsShort is the longest x that maxAbs scans in Go.
const maxAbsShort = 16

// allFinite reports whether every x_i is finite: whether max_i |x_i|
// (maxAbs, NaN when some x_i is NaN) is at most the largest finite value:
// no branch an element (kernel.MaxAbs, or a Go loop for a few elements).
func allFinite(x []float64) bool {
	return maxAbs(x) <= math.MaxFloat64
}
