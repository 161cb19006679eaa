package mmaes

import (
	"math"

	"github.com/mmaes-go/mmaes/kernel"
)

// noEffect returns NoEffectAxis or NoEffectCoord when 0.1σ times a
// principal axis of A·Aᵀ (scaled by its deviation), or 0.2σ times a
// coordinate's deviation, does not change the mean (Config.NoEffect). The
// axes come from a singular value decomposition of A (principalAxes) in
// scratch space of n² + n floats, allocated with the distribution when
// Config.NoEffect is set, unless the last decomposition proves that every
// axis of A moves the mean (noEffectRef.move): then none is computed, and
// the answer is the same.
func (d *fullMatrix) noEffect(m []float64, sigma float64) (s stopSet) {
	n := d.n
	a := d.matrix()
	w, tmp := d.axes[:n*n], d.axes[n*n:]
	transpose := func() {
		for i := 0; i < n; i++ {
			for j, x := range a[i*n : i*n+n] {
				w[j*n+i] = x
			}
		}
	}
	for i := 0; i < n; i++ {
		row := a[i*n : i*n+n]
		norm2 := 0.0
		for _, x := range row {
			norm2 += x * x
		}
		if m[i]+0.2*sigma*math.Sqrt(norm2) == m[i] {
			s.add(NoEffectCoord)
		}
	}
	transpose()
	if !d.axesAlways && d.axesRef.move(w, n, m, sigma) {
		d.axesSkips++
		return s
	}
	if d.axesRef.at != nil {
		transpose() // move used w as its scratch
		copy(d.axesRef.at, w)
	}
	if !principalAxes(w, n, tmp) {
		d.axesRef.sMin = 0
		return s
	}
	if d.axesRef.at != nil {
		d.axesRef.set(w, n)
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

// noEffectRef is NoEffect's last decomposition: Aᵀ then (at), the axes it
// found (axes: the rows s_k·u_kᵀ, U·Σ transposed), their lengths s_k and
// the smallest (sMin, 0 when there is none), and the scratch of move.
type noEffectRef struct {
	at, axes, s, y []float64
	sMin           float64
}

// noEffectBatch is the number of axes move multiplies at a time.
const noEffectBatch = 64

// noEffectRefMaxN is the largest n that keeps a reference: 2n² more floats
// (256 MiB at n = 4096) against a decomposition of some 10·n³ flops every n
// generations.
const noEffectRefMaxN = 4096

// newNoEffectRef returns the reference of a distribution of n, empty (no
// shortcut) for n > noEffectRefMaxN.
func newNoEffectRef(n int) noEffectRef {
	if n > noEffectRefMaxN {
		return noEffectRef{}
	}
	return noEffectRef{
		at:   make([]float64, n*n),
		axes: make([]float64, n*n),
		s:    make([]float64, n),
		y:    make([]float64, min(n, noEffectBatch)*n),
	}
}

// set records the axes of a decomposition (of the matrix in r.at).
func (r *noEffectRef) set(axes []float64, n int) {
	copy(r.axes, axes)
	r.sMin = math.Inf(1)
	for k := range r.s {
		r.s[k] = kernel.Norm(axes[k*n : k*n+n])
		r.sMin = min(r.sMin, r.s[k])
	}
	if !(r.sMin > 0) {
		r.sMin = 0
	}
}

// move reports whether every principal axis of A (w = Aᵀ, which it
// overwrites), scaled by its deviation, moves the mean m by 0.1σ, from the
// reference decomposition alone. An axis x_k = s_k·u_k has no effect only
// if |0.1σ·x_k,i| ≤ ulp(m_i) for every i, so only if 0.1σ·s_k ≤ ‖ulp(m)‖.
// With the reference A₀ = U·Σ·Vᵀ and A = c·A₀ + Δ (c the least-squares fit
// of A₀ to A, so that a change of scale costs nothing), A = U·Σ·(c·Vᵀ + E)
// with E = Σ⁻¹·Uᵀ·Δ, so every singular value of A is at least
// s_min(A₀)·(c − ‖E‖_F): row k of E is Δᵀ·(s_k·u_k)/s_k², from the stored
// axes in one product (n³ multiply-adds, where a decomposition takes some
// ten sweeps of n³/2 dot products and rotations). A relative change of A
// costs its size in the bound, however ill-conditioned A is. With a factor
// of 2 over the roundings of the decomposition (relative errors of order
// n·2⁻⁵³ in the s_k and the orthogonality of the u_k) and of 0.1σ·x, a
// bound that clears ‖ulp(m)‖ means that the decomposition of A would find
// every axis moving the mean. NaN anywhere answers false.
func (r *noEffectRef) move(w []float64, n int, m []float64, sigma float64) bool {
	if !(r.sMin > 0) {
		return false
	}
	u2 := 0.0
	for _, mi := range m {
		mi = math.Abs(mi)
		u := math.Nextafter(mi, math.Inf(1)) - mi
		u2 += u * u
	}
	need := 2 * math.Sqrt(u2) / (0.1 * sigma)
	if !(r.sMin*(1-0x1p-20) > need) {
		return false // not even A₀ itself
	}
	var ar, rr float64
	for i, x := range w {
		ar += x * r.at[i]
		rr += r.at[i] * r.at[i]
	}
	c := ar / rr
	for i := range w {
		w[i] -= c * r.at[i] // Δᵀ
	}
	e2 := 0.0
	for k0 := 0; k0 < n; k0 += noEffectBatch {
		kb := min(noEffectBatch, n-k0)
		y := r.y[:kb*n]
		kernel.MulVecs(y, w, n, r.axes[k0*n:(k0+kb)*n], kb)
		for k := 0; k < kb; k++ {
			sk := r.s[k0+k]
			ek := kernel.Norm(y[k*n:k*n+n]) / sk / sk
			e2 += ek * ek
		}
	}
	low := r.sMin * (1 - 0x1p-20) * (c - 1.01*math.Sqrt(e2))
	return low > need
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
