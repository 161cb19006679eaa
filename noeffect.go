package mmaes

import "math"

// noEffect returns NoEffectAxis or NoEffectCoord when 0.1σ times a
// principal axis of A·Aᵀ (scaled by its deviation), or 0.2σ times a
// coordinate's deviation, does not change the mean (Config.NoEffect).
func (o *Optimizer) noEffect() (s stopSet) {
	n, m, sigma := o.cfg.Dim, o.m, o.step.sigma
	a := o.dist.matrix()
	w, tmp := o.watch.axes[:n*n], o.watch.axes[n*n:]
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
