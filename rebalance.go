package mmaes

import "math"

// Rebalancing: σ and A trade scale (only σ·A matters), and on a target that
// keeps moving their magnitudes drift apart; each distribution's commit
// multiplies A by an exact power of two 2^k when its scale leaves
// [rebalanceLow, rebalanceHigh), and the optimizer divides σ by it.

// rebalanceExp bounds the binary exponent of A's largest row norm (a
// variable for the tests, which turn the rebalancing off).
var rebalanceExp = 64

// rebalanceLow and rebalanceHigh bound the row norms whose exponent is
// within rebalanceExp for its default (2⁻⁶⁴ ≤ x < 2⁶⁵).
const (
	rebalanceLow  = 0x1p-64
	rebalanceHigh = 0x1p65
)

// sigmaExpLimit bounds the binary exponent of σ that a rebalancing may
// leave: |ilogb(σ·2^−k)| ≤ 1000 keeps σ finite and normal, with room
// for the step-size rule's factors (checked there).
const sigmaExpLimit = 1000

// rebalanceLimit returns the part of the rebalancing exponent k that σ can
// take: k itself, or k cut so that σ·2^−k keeps its exponent within
// ±sigmaExpLimit, or 0 when even that would move σ the wrong way.
func rebalanceLimit(k int, sigma float64) int {
	e := math.Ilogb(sigma)
	c := min(max(k, e-sigmaExpLimit), e+sigmaExpLimit)
	if (c < 0) != (k < 0) {
		return 0
	}
	return c
}
