package mmaes

// The full-matrix distribution keeps A = s·Ã: fullMatrix.scale is s and
// fullMatrix.a holds Ã. Every update of A has the form A ← α·A + (rank-one
// or rank-μ terms) with a scalar α < 1, which on Ã is a change of s alone
// plus the terms divided by the new s: the pass over A that applies the
// update (fused with the sampling) then costs one multiply-add per entry
// instead of a multiplication and a multiply-add. The sampling computes Ã·z
// and scales the λ·n results by s (y_i = s·(Ã·z_i)); matrix returns s·Ã.
//
// s shrinks by α every generation; when it would fall below aScaleMin, Ã is
// multiplied by aScaleMin and s divided by it in the same update, both
// exactly (a power of two), so that Ã's entries stay within 2³² of A's
// and s never underflows. The results differ from those of updating A
// itself by rounding only: a few units in the last place per update.

// aScaleMin is the smallest s before a rescaling, and the factor of it.
const aScaleMin = 0x1p-32

// advanceScale multiplies s by the update's factor alpha and returns the
// factor rho that Ã takes in the same update: 1, or aScaleMin when α·s <
// aScaleMin (then s = α·s/aScaleMin, exactly).
func (d *fullMatrix) advanceScale(alpha float64) (rho float64) {
	s := alpha * d.scale
	rho = 1
	if s < aScaleMin {
		rho = aScaleMin
	}
	d.scale = s / rho
	return rho
}
