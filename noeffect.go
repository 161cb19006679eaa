package mmaes

import "math"

// noEffect returns NoEffectAxis or NoEffectCoord when 0.1σ times a
// principal axis of A·Aᵀ (scaled by its deviation), or 0.2σ times a
// coordinate's deviation, does not change the mean (Config.NoEffect). The
// axes come from a singular value decomposition of A (principalAxes) in
// scratch space of n² + n floats, allocated with the distribution when
// Config.NoEffect is set.
func (d *fullMatrix) noEffect(m []float64, sigma float64) (s stopSet) {
	n := d.n
	a := d.matrix()
	w, tmp := d.axes[:n*n], d.axes[n*n:]
	for i := 0; i < n; i++ {
		row := a[i*n : i*n+n]
		norm2 := 0.0
		for j, x := range row {
			w[j*n+i] = x
			norm2 += x * x
		}
		if m[i]+0.2*sigma*math.Sqrt(norm2) == m[i] {
			s.add(NoEffectCoord)
		}
	}
	if !principalAxes(w, n, tmp) {
		return s
	}
	for k := 0; k < n; k++ {
		axis, moves := w[k*n:k*n+n], false
		for i, x := range axis {
			if m[i]+0.1*sigma*x != m[i] {
				moves = true
				break
			}
		}
		if !moves {
			s.add(NoEffectAxis)
			break
		}
	}
	return s
}

// noEffect for the limited memory: the coordinates' deviations are the
// row norms of a scan (O(n·k²)), and the directions tested are the k
// stretched ones, A·v_t/‖v_t‖.
func (d *lowRank) noEffect(m []float64, sigma float64) (s stopSet) {
	if !d.scanned {
		d.scan()
	}
	for i, r := range d.norms {
		if m[i]+0.2*sigma*r == m[i] {
			s.add(NoEffectCoord)
			break
		}
	}
	if d.noEffectAxis(m, sigma) {
		s.add(NoEffectAxis)
	}
	return s
}
