package bbob

import (
	"math"
	"sort"
)

// The raw functions, before f_opt, in COCO's order of operations.

func sphereRaw(x []float64) float64 {
	s := 0.0
	for _, xi := range x {
		s += xi * xi
	}
	return s
}

func ellipsoidRaw(x []float64, cond float64) float64 {
	n := float64(len(x))
	s := x[0] * x[0]
	for i := 1; i < len(x); i++ {
		e := 1.0 * float64(i) / (n - 1.0)
		s += math.Pow(cond, e) * x[i] * x[i]
	}
	return s
}

func rastriginRaw(x []float64) float64 {
	s1, s2 := 0.0, 0.0
	for _, xi := range x {
		s1 += math.Cos(2 * math.Pi * xi)
		s2 += xi * xi
	}
	if math.IsInf(s2, 0) {
		return s2
	}
	return 10.0*(float64(len(x))-s1) + s2
}

// linearSlopeRaw is f5 with the optimum best (±5 in each coordinate).
func linearSlopeRaw(x, best []float64) float64 {
	const alpha = 100.0
	n := float64(len(x))
	s := 0.0
	for i, xi := range x {
		base := math.Sqrt(alpha)
		e := float64(i) / (n - 1)
		si := math.Pow(base, e)
		if !(best[i] > 0) {
			si = -si
		}
		if xi*best[i] < 25.0 {
			s += 5.0*math.Abs(si) - si*xi
		} else {
			s += 5.0*math.Abs(si) - si*best[i]
		}
	}
	return s
}

func rosenbrockRaw(x []float64) float64 {
	s1, s2 := 0.0, 0.0
	for i := 0; i < len(x)-1; i++ {
		t := x[i]*x[i] - x[i+1]
		s1 += t * t
		t = x[i] - 1.0
		s2 += t * t
	}
	return 100.0*s1 + s2
}

// stepEllipsoid is f7, f_opt included: z is rounded after the first
// rotation (to integers above 0.5 in absolute value, to tenths below).
func (p *Problem) stepEllipsoid(x, z, t []float64) float64 {
	const condition, alpha = 100.0, 10.0
	n := p.Dim
	pen := 0.0
	for _, xi := range x {
		if d := math.Abs(xi) - 5.0; d > 0 {
			pen += d * d
		}
	}
	pen *= 1.0 // penalty scale of f7
	for i := 0; i < n; i++ {
		z[i] = 0
		c1 := math.Sqrt(math.Pow(condition/10., float64(i)/float64(n-1)))
		for j := 0; j < n; j++ {
			z[i] += c1 * p.q[i*n+j] * (x[j] - p.xopt[j])
		}
	}
	x1 := z[0]
	for i := range z {
		if math.Abs(z[i]) > 0.5 {
			z[i] = math.Floor(z[i] + 0.5)
		} else {
			z[i] = math.Floor(alpha*z[i]+0.5) / alpha
		}
	}
	for i := 0; i < n; i++ {
		t[i] = 0
		for j := 0; j < n; j++ {
			t[i] += p.r[i*n+j] * z[j]
		}
	}
	v := 0.0
	for i, ti := range t {
		e := float64(i) / (float64(n) - 1.0)
		v += math.Pow(condition, e) * ti * ti
	}
	return 0.1*math.Max(math.Abs(x1)*1.0e-4, v) + pen + p.fopt
}

// weierstrassTerms is the number of terms of the Weierstrass sums.
const weierstrassTerms = 12

func (p *Problem) weierstrassRaw(x []float64) float64 {
	s := 0.0
	for _, xi := range x {
		for k := 0; k < weierstrassTerms; k++ {
			ak, bk := math.Pow(0.5, float64(k)), math.Pow(3., float64(k))
			s += math.Cos(2*math.Pi*(xi+0.5)*bk) * ak
		}
	}
	return 10.0 * math.Pow(s/float64(len(x))-p.f0, 3.0)
}

func schaffersRaw(x []float64) float64 {
	s := 0.0
	for i := 0; i < len(x)-1; i++ {
		t := x[i]*x[i] + x[i+1]*x[i+1]
		if math.IsInf(t, 0) && math.IsNaN(math.Sin(50.0*math.Pow(t, 0.1))) {
			return t
		}
		s += math.Pow(t, 0.25) * (1.0 + math.Pow(math.Sin(50.0*math.Pow(t, 0.1)), 2.0))
	}
	return math.Pow(s/(float64(len(x))-1.0), 2.0)
}

func griewankRosenbrockRaw(x []float64) float64 {
	const facftrue = 10.0
	s := 0.0
	for i := 0; i < len(x)-1; i++ {
		c1 := x[i]*x[i] - x[i+1]
		c2 := 1.0 - x[i]
		t := 100.0*c1*c1 + c2*c2
		s += t/4000. - math.Cos(t)
	}
	return facftrue + facftrue*s/float64(len(x)-1)
}

// schwefel is f20 without f_opt: z = 100·(Λ^10·(ẑ − 2|x_opt|) + 2|x_opt|)
// with ẑ the sign-flipped 2x moved along its neighbour.
func (p *Problem) schwefel(x, z []float64) float64 {
	n := p.Dim
	var hatBuf [MaxDim]float64
	h := hatBuf[:n]
	// x̂: the signs of the instance (x_opt's), then ×2.
	for i, xi := range x {
		if p.xopt[i] < 0 {
			h[i] = -xi
		} else {
			h[i] = xi
		}
		h[i] = 2 * h[i]
	}
	z[0] = h[0]
	for i := 1; i < n; i++ {
		z[i] = h[i] + 0.25*(h[i-1]-2.0*math.Abs(p.xopt[i-1]))
	}
	for i := range z {
		z[i] = z[i] - 2*math.Abs(p.xopt[i])
	}
	conditionAll(z, 10)
	for i := range z {
		z[i] = z[i] - (-2 * math.Abs(p.xopt[i]))
		z[i] = 100 * z[i]
	}
	return schwefelRaw(z)
}

func schwefelRaw(x []float64) float64 {
	pen := 0.0
	for _, xi := range x {
		if t := math.Abs(xi) - 500.0; t > 0 {
			pen += t * t
		}
	}
	s := 0.0
	for _, xi := range x {
		s += xi * math.Sin(math.Sqrt(math.Abs(xi)))
	}
	return 0.01 * (pen + 418.9828872724339 - s/float64(len(x)))
}

func katsuuraRaw(x []float64) float64 {
	n := float64(len(x))
	r := 1.0
	for i, xi := range x {
		t := 0.0
		for j := 1; j < 33; j++ {
			t2 := math.Pow(2., float64(j))
			t += math.Abs(t2*xi-math.Floor(t2*xi+0.5)) / t2
		}
		t = 1.0 + (float64(i)+1)*t
		r *= math.Pow(t, 10./math.Pow(n, 1.2))
	}
	return 10. / n / n * (-1. + r)
}

// lunacekMu0 is μ0 of the Lunacek bi-Rastrigin function.
const lunacekMu0 = 2.5

// lunacekRaw is f24 without f_opt.
func (p *Problem) lunacekRaw(x, z, t []float64) float64 {
	const condition, d = 100., 1.
	n := p.Dim
	nf := float64(n)
	s := 1. - 0.5/(math.Sqrt(float64(n+20))-4.1)
	mu1 := -math.Sqrt((lunacekMu0*lunacekMu0 - d) / s)
	pen := 0.0
	for _, xi := range x {
		if d := math.Abs(xi) - 5.0; d > 0 {
			pen += d * d
		}
	}
	var hatBuf [MaxDim]float64
	h := hatBuf[:n]
	for i, xi := range x {
		h[i] = 2. * xi
		if p.xopt[i] < 0. {
			h[i] *= -1.
		}
	}
	for i := 0; i < n; i++ {
		t[i] = 0
		c1 := math.Pow(math.Sqrt(condition), float64(i)/float64(n-1))
		for j := 0; j < n; j++ {
			t[i] += c1 * p.q[i*n+j] * (h[j] - lunacekMu0)
		}
	}
	for i := 0; i < n; i++ {
		z[i] = 0
		for j := 0; j < n; j++ {
			z[i] += p.r[i*n+j] * t[j]
		}
	}
	s1, s2, s3 := 0., 0., 0.
	for i := 0; i < n; i++ {
		s1 += (h[i] - lunacekMu0) * (h[i] - lunacekMu0)
		s2 += (h[i] - mu1) * (h[i] - mu1)
		s3 += math.Cos(2 * math.Pi * z[i])
	}
	return math.Min(s1, d*nf+s*s2) + 10.*(nf-s3) + 1e4*pen
}

// setupGallagher draws the peaks of f21 (101 peaks) and f22 (21): the
// rotation, the values, the conditionings (a random order of powers of
// 1000) and the locations (the best one 0.8·(b·u − c), the optimum).
func (p *Problem) setupGallagher(rseed int64) {
	n := p.Dim
	peaks, b, c := 101, 10., 5.
	maxcond1 := math.Sqrt(1000.)
	if p.Function == 22 {
		peaks, b, c, maxcond1 = 21, 9.8, 4.9, 1000.
	}
	p.r = rotation(n, rseed)
	u := make([]float64, peaks*n)
	unif(u[:peaks-1], rseed)
	perm := sortedIndex(u[:peaks-1])
	cond := make([]float64, peaks)
	cond[0] = maxcond1
	p.peakValue = make([]float64, peaks)
	p.peakValue[0] = 10
	fit0, fit1 := 1.1, 9.1 // variables: their difference rounds as in C
	for i := 1; i < peaks; i++ {
		cond[i] = math.Pow(1000., float64(perm[i-1])/float64(peaks-2))
		p.peakValue[i] = float64(i-1)/float64(peaks-2)*(fit1-fit0) + fit0
	}
	p.peakScale = make([]float64, peaks*n)
	un := make([]float64, n)
	for i := 0; i < peaks; i++ {
		unif(un, rseed+int64(1000*i))
		perm := sortedIndex(un)
		for j := 0; j < n; j++ {
			p.peakScale[i*n+j] = math.Pow(cond[i], float64(perm[j])/float64(n-1)-0.5)
		}
	}
	unif(u, rseed)
	p.xopt = make([]float64, n)
	p.peakLoc = make([]float64, peaks*n) // peak j's location at [j*n:]
	for i := 0; i < n; i++ {
		p.xopt[i] = 0.8 * (b*u[i] - c)
		for j := 0; j < peaks; j++ {
			s := 0.
			for k := 0; k < n; k++ {
				s += p.r[i*n+k] * (b*u[j*n+k] - c)
			}
			if j == 0 {
				s *= 0.8
			}
			p.peakLoc[j*n+i] = s
		}
	}
}

// sortedIndex returns the indices of v in the order of increasing values
// (ties in the order of the indices; COCO's qsort meets none).
func sortedIndex(v []float64) []int {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
	return idx
}

// gallagherRaw is f21 and f22 without f_opt.
func (p *Problem) gallagherRaw(x, t []float64) float64 {
	const a = 0.1
	n := p.Dim
	fac := -0.5 / float64(n)
	pen := 0.
	for _, xi := range x {
		if d := math.Abs(xi) - 5.; d > 0 {
			pen += d * d
		}
	}
	pen *= 1.0 // penalty scale
	for i := 0; i < n; i++ {
		t[i] = 0
		for j := 0; j < n; j++ {
			t[i] += p.r[i*n+j] * x[j]
		}
	}
	f := 0.
	for i := range p.peakValue {
		s := 0.
		loc, scale := p.peakLoc[i*n:i*n+n], p.peakScale[i*n:i*n+n]
		for j := 0; j < n; j++ {
			d := t[j] - loc[j]
			s += scale[j] * d * d
		}
		f = math.Max(f, p.peakValue[i]*math.Exp(fac*s))
	}
	f = 10. - f
	var ft float64
	switch {
	case f > 0:
		ft = math.Log(f) / a
		ft = math.Pow(math.Exp(ft+0.49*(math.Sin(ft)+math.Sin(0.79*ft))), a)
	case f < 0:
		ft = math.Log(-f) / a
		ft = -math.Pow(math.Exp(ft+0.49*(math.Sin(0.55*ft)+math.Sin(0.31*ft))), a)
	default:
		ft = f
	}
	ft *= ft
	return ft + pen
}
