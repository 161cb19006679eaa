package mmaes

import (
	"math"
	"slices"
	"strconv"
)

// Integer coordinates (Config.Integer), handled as CMA-ES with margin does
// (Hamano, Saito, Nomura, Shirakawa, GECCO 2022).
//
// An integer coordinate is searched as a continuous one and encoded: the
// candidate's value is the integer nearest to the sampled one (the
// thresholds are the midpoints k ± 1/2), clamped to the coordinate's
// bounds. Without more, the search stalls: once σ is small against 1/2,
// every candidate encodes the mean's integer, the coordinate no longer
// changes f, and nothing moves it again. The margin keeps the probability
// that a candidate encodes another integer than the mean's at least α
// (α = 1/(n·λ)): after each update, for an integer coordinate i whose
// marginal deviation s = σ·d_i·‖A_i‖ leaves less than α/2 on a side of the
// mean's cell [k − 1/2, k + 1/2] (α beyond the one threshold of a cell at a
// bound), the mean m_i and a scaling d_i of that coordinate's deviation
// are set so that each side holds at least α/2 again:
//
//	q_low, q_up = the masses beyond the two thresholds, each raised to α/2,
//	              the excess taken from the three masses in proportion to
//	              what they hold above α/2;
//	s' = 1/(Φ⁻¹(1−q_low) + Φ⁻¹(1−q_up)),  m_i' = k − 1/2 + s'·Φ⁻¹(1−q_low),
//	d_i ← d_i·s'/s
//
// (the N(m_i', s'²) marginal has exactly q_low and q_up beyond the
// thresholds). In a cell at a bound the mean alone moves towards the one
// threshold until α lies beyond it. Candidates are x_i = m_i + σ·d_i·y_i,
// encoded; the update (the mean, the paths, A and σ) uses the steps y as
// for a continuous coordinate, without d: d only widens the sampling, as
// the margin's diagonal matrix does in CMA-ES with margin. d_i = 1 at the
// start of every run.

// integerMargin holds the integer coordinates and the margin's state.
type integerMargin struct {
	idx    []int     // the integer coordinates, ascending
	lo, hi []float64 // their integral bounds (±Inf: none)
	d      []float64 // the margin's scaling of each one's deviation
	alpha  float64   // α of the current run
	rows   []float64 // scratch: the row norms of A (n)
}

// checkInteger validates Integer: indices in [0, Dim), each once, integral
// bounds (or infinite) and integral fixed values for those coordinates.
func checkInteger(cfg *Config, _ *Params) error {
	seen := make(map[int]bool, len(cfg.Integer))
	for k, i := range cfg.Integer {
		name := "Integer[" + strconv.Itoa(k) + "]"
		if i < 0 || i >= cfg.Dim {
			return cfgErr(name, "%d: index outside [0, Dim = %d)", i, cfg.Dim)
		}
		if seen[i] {
			return cfgErr(name, "%d: listed twice", i)
		}
		seen[i] = true
		for _, b := range []struct {
			name string
			v    []float64
		}{{"Lower", cfg.Lower}, {"Upper", cfg.Upper}} {
			if b.v != nil && !math.IsInf(b.v[i], 0) && b.v[i] != math.Round(b.v[i]) {
				return cfgErr(name, "%d: %s[%d] = %g is not an integer", i, b.name, i, b.v[i])
			}
		}
		if v, fixed := cfg.Fixed[i]; fixed && v != math.Round(v) {
			return cfgErr(name, "%d: fixed at %g, not an integer", i, v)
		}
	}
	return nil
}

// newIntegerMargin returns the margin of the integer coordinates of a
// validated cfg (of the searched coordinates), or nil without any.
func newIntegerMargin(cfg *Config) *integerMargin {
	if len(cfg.Integer) == 0 {
		return nil
	}
	idx := slices.Sorted(slices.Values(cfg.Integer))
	k := len(idx)
	g := &integerMargin{idx: idx, lo: make([]float64, k), hi: make([]float64, k), d: make([]float64, k),
		rows: make([]float64, cfg.Dim)}
	for j, i := range idx {
		g.lo[j], g.hi[j] = bound(cfg.Lower, i, -1), bound(cfg.Upper, i, 1)
	}
	g.reset()
	return g
}

// setParams sets α = 1/(n·λ) for a run.
func (g *integerMargin) setParams(n, lambda int) {
	g.alpha = 1 / (float64(n) * float64(lambda))
}

// reset starts a run: d = 1.
func (g *integerMargin) reset() {
	for j := range g.d {
		g.d[j] = 1
	}
}

// place sets the integer coordinates of the k candidates x = m + σ·d∘y
// (n each, row-major; the others are set already).
func (g *integerMargin) place(x, m, y []float64, sigma float64, n, k int) {
	for c := 0; c < k; c++ {
		for j, i := range g.idx {
			x[c*n+i] = m[i] + sigma*(g.d[j]*y[c*n+i])
		}
	}
}

// widen scales the integer coordinates' steps of the k candidates of x
// (n each), sampled as x = m + σ·y, by the margin: x_i = m_i + d_i·(x_i −
// m_i), the candidates of a distribution that samples directly.
func (g *integerMargin) widen(x, m []float64, n, k int) {
	for c := 0; c < k; c++ {
		for j, i := range g.idx {
			x[c*n+i] = m[i] + g.d[j]*(x[c*n+i]-m[i])
		}
	}
}

// encode rounds the integer coordinates of the k candidates of x to the
// nearest integer within their bounds.
func (g *integerMargin) encode(x []float64, n, k int) {
	for c := 0; c < k; c++ {
		for j, i := range g.idx {
			x[c*n+i] = g.encodeOne(j, x[c*n+i])
		}
	}
}

// encodeOne returns the integer that v encodes for integer coordinate j.
func (g *integerMargin) encodeOne(j int, v float64) float64 {
	return min(g.hi[j], max(g.lo[j], math.Round(v)))
}

// correct applies the margin to the mean m after an update; g.rows holds
// the row norms of A and sigma is σ.
func (g *integerMargin) correct(m []float64, sigma float64) {
	a := g.alpha
	for j, i := range g.idx {
		s := sigma * g.d[j] * g.rows[i]
		if !(s > 0) || !finite(s) {
			continue
		}
		k := g.encodeOne(j, m[i])
		low, up := k > g.lo[j], k < g.hi[j] // a threshold on that side
		tl, tu := k-0.5, k+0.5
		switch {
		case low && up:
			pl, pu := normCDF((tl-m[i])/s), normCDF((m[i]-tu)/s)
			if pl >= a/2 && pu >= a/2 {
				continue
			}
			ql, qu, qm := max(pl, a/2), max(pu, a/2), max(0, 1-pl-pu)
			excess := ql + qu + qm - 1
			above := ql + qu + qm - 1.5*a
			if above > 0 {
				ql -= excess * (ql - a/2) / above
				qu -= excess * (qu - a/2) / above
			}
			ql = min(max(ql, 1e-10), 0.5-1e-10)
			qu = min(max(qu, 1e-10), 0.5-1e-10)
			cl, cu := normQuantile(1-ql), normQuantile(1-qu)
			s2 := 1 / (cl + cu)
			m[i] = tl + s2*cl
			g.d[j] *= s2 / s
		case low: // the top cell: only the lower threshold
			if normCDF((tl-m[i])/s) < a {
				m[i] = tl + s*normQuantile(1-a)
			}
		case up: // the bottom cell
			if normCDF((m[i]-tu)/s) < a {
				m[i] = tu - s*normQuantile(1-a)
			}
		}
	}
}

// holds reports whether the integer coordinates of x are integers within
// their bounds.
func (g *integerMargin) holds(x []float64) bool {
	for j, i := range g.idx {
		if x[i] != g.encodeOne(j, x[i]) {
			return false
		}
	}
	return true
}

// scaleStdDevs multiplies the deviations of the integer coordinates by d.
func (g *integerMargin) scaleStdDevs(std []float64) {
	for j, i := range g.idx {
		std[i] *= g.d[j]
	}
}

// normCDF is Φ, the standard normal distribution function.
func normCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// normQuantile is Φ⁻¹.
func normQuantile(p float64) float64 { return -math.Sqrt2 * math.Erfcinv(2*p) }

func (g *integerMargin) encodeState(e *encoder) { e.floats(g.d) }

// decodeState reads d, which must be finite and > 0.
func (g *integerMargin) decodeState(d *decoder) error {
	d.floats(g.d)
	if d.err != nil {
		return d.err
	}
	for _, v := range g.d {
		if !(v > 0) || !finite(v) {
			return ckErr("margin scaling %g not finite and > 0", v)
		}
	}
	return nil
}
