// Package bbob implements the 24 noiseless functions of COCO's bbob suite
// (Hansen, Finck, Ros, Auger, "Real-Parameter Black-Box Optimization
// Benchmarking 2009: Noiseless Functions Definitions", INRIA RR-6829, and
// the C code of COCO, numbbo/coco-experiment), with COCO's own instance
// generation: for every function, dimension and instance, x_opt, f_opt and
// the rotations are those COCO draws, and the value at any x is COCO's to
// the rounding of the math library (a few units in the last place).
//
// A Problem is made once (New draws its instance) and evaluated any number
// of times, from any number of goroutines: Eval allocates nothing and
// changes nothing.
//
// The functions, by group (f_opt is added to each; z is x transformed):
//
//	separable            f1 sphere, f2 ellipsoid, f3 Rastrigin, f4 Büche-Rastrigin, f5 linear slope
//	low or moderate      f6 attractive sector, f7 step ellipsoid, f8 Rosenbrock, f9 rotated Rosenbrock
//	  conditioning
//	high conditioning,   f10 ellipsoid, f11 discus, f12 bent cigar, f13 sharp ridge, f14 different powers
//	  unimodal
//	multimodal, global   f15 Rastrigin, f16 Weierstrass, f17 Schaffer F7, f18 Schaffer F7 (ill-conditioned),
//	  structure          f19 Griewank-Rosenbrock F8F2
//	multimodal, weak     f20 Schwefel x·sin(√|x|), f21 Gallagher 101 peaks, f22 Gallagher 21 peaks,
//	  structure          f23 Katsuura, f24 Lunacek bi-Rastrigin
package bbob

import (
	"fmt"
	"math"
)

// MaxDim is the largest dimension New accepts (COCO's largest for bbob, 40;
// its rotations are defined up to 44).
const MaxDim = 40

// Names are the functions' names, Names[f] for f = 1..24.
var Names = [25]string{"",
	"Sphere", "Ellipsoid separable", "Rastrigin separable", "Büche-Rastrigin", "Linear slope",
	"Attractive sector", "Step ellipsoid", "Rosenbrock original", "Rosenbrock rotated",
	"Ellipsoid", "Discus", "Bent cigar", "Sharp ridge", "Different powers",
	"Rastrigin", "Weierstrass", "Schaffer F7 cond 10", "Schaffer F7 cond 1000", "Griewank-Rosenbrock F8F2",
	"Schwefel x·sin(x)", "Gallagher 101 peaks", "Gallagher 21 peaks", "Katsuura", "Lunacek bi-Rastrigin",
}

// A Problem is one instance of one bbob function in one dimension.
type Problem struct {
	Function, Dim, Instance int
	// FOpt is the optimal value f(XOpt), as COCO defines it (the value of
	// the function at its best parameter: f_opt of the instance, plus for
	// f20 the Schwefel function's residue at its rounded optimum).
	FOpt float64
	// XOpt is the optimum (a copy: changing it changes nothing).
	XOpt []float64

	fopt float64   // the instance's f_opt, added to every value
	xopt []float64 // the shift of the definitions (for f5, f20, f24 their sign vector)
	r, q []float64 // rotations R and Q, n×n row-major
	m    []float64 // a fixed product such as R·Λ·Q
	fac  float64   // a scale (f8, f9, f19)

	// Gallagher's peaks: values, locations (rotated, peaks×n) and scales
	// (peaks×n).
	peakValue []float64
	peakLoc   []float64
	peakScale []float64

	// Weierstrass: f0.
	f0 float64
}

// New returns instance instance of function function (1..24) in dimension
// dim (2..MaxDim). Instances are numbered from 1, as in COCO.
func New(function, dim, instance int) (*Problem, error) {
	if function < 1 || function > 24 {
		return nil, fmt.Errorf("bbob: function %d: must be 1..24", function)
	}
	if dim < 2 || dim > MaxDim {
		return nil, fmt.Errorf("bbob: dimension %d: must be 2..%d", dim, MaxDim)
	}
	if instance < 1 || instance > 1e8 {
		return nil, fmt.Errorf("bbob: instance %d: must be 1..1e8", instance)
	}
	p := &Problem{Function: function, Dim: dim, Instance: instance}
	p.setup()
	return p, nil
}

// setup draws the instance: the shift, f_opt, rotations, and XOpt and FOpt.
func (p *Problem) setup() {
	f, n := p.Function, p.Dim
	rseed := int64(f) + 10000*int64(p.Instance)
	switch f {
	case 4:
		rseed = 3 + 10000*int64(p.Instance)
	case 18:
		rseed = 17 + 10000*int64(p.Instance)
	}
	p.fopt = fopt(f, p.Instance)
	p.xopt = xopt(n, rseed)
	best := p.xopt // the optimum in x, unless the function says otherwise
	switch f {
	case 4:
		for i := 0; i < n; i += 2 {
			p.xopt[i] = math.Abs(p.xopt[i])
		}
	case 5:
		best = make([]float64, n)
		for i, x := range p.xopt {
			best[i] = 5
			if x < 0 {
				best[i] = -5
			}
		}
	case 6, 13:
		p.r, p.q = rotation(n, rseed+1000000), rotation(n, rseed)
		p.m = rotCondRot(p.r, p.q, n, math.Sqrt(10))
	case 7, 15, 16, 23:
		p.r, p.q = rotation(n, rseed+1000000), rotation(n, rseed)
		switch f {
		case 15:
			p.m = rotCondRot(p.r, p.q, n, math.Sqrt(10))
		case 16:
			p.m = rotCondRot(p.r, p.q, n, 1/math.Sqrt(100))
			for k := 0; k < weierstrassTerms; k++ {
				p.f0 += math.Pow(0.5, float64(k)) * math.Cos(2*math.Pi*math.Pow(3, float64(k))*0.5)
			}
		case 23:
			p.m = rotCondRot(p.r, p.q, n, math.Sqrt(100))
		}
	case 8:
		for i := range p.xopt {
			p.xopt[i] *= 0.75
		}
		p.fac = math.Max(1, math.Sqrt(float64(n))/8)
	case 9, 19:
		p.r = rotation(n, rseed)
		p.fac = math.Max(1, math.Sqrt(float64(n))/8)
		best = make([]float64, n)
		for c := 0; c < n; c++ {
			s := 0.0
			for r := 0; r < n; r++ {
				s += p.r[r*n+c] * p.fac
			}
			if f == 9 {
				s = 0
				for r := 0; r < n; r++ {
					s += p.r[r*n+c]
				}
			}
			best[c] = s / (2 * p.fac)
		}
		if f == 19 { // COCO scales R itself by the factor
			for i := range p.r {
				p.r[i] *= p.fac
			}
		}
	case 10, 11, 14:
		p.r = rotation(n, rseed+1000000)
	case 12:
		p.xopt = xopt(n, rseed+1000000)
		best = p.xopt
		p.r = rotation(n, rseed+1000000)
	case 17, 18:
		p.r, p.q = rotation(n, rseed+1000000), rotation(n, rseed)
		cond := 10.0
		if f == 18 {
			cond = 1000
		}
		p.m = make([]float64, n*n) // Λ^cond·Q: the rows of Q scaled
		for i := 0; i < n; i++ {
			e := 1.0 * float64(i) / (float64(n) - 1.0)
			for j := 0; j < n; j++ {
				p.m[i*n+j] = p.q[i*n+j] * math.Pow(math.Sqrt(cond), e)
			}
		}
	case 20:
		u := make([]float64, n)
		unif(u, rseed)
		for i := range p.xopt {
			s := 1.0
			if u[i] < 0.5 {
				s = -1
			}
			p.xopt[i] = s * 0.5 * 4.2096874637
		}
	case 21, 22:
		p.setupGallagher(rseed)
		best = p.xopt
	case 24:
		p.r, p.q = rotation(n, rseed+1000000), rotation(n, rseed)
		g := make([]float64, n)
		gauss(g, rseed)
		for i := range p.xopt {
			p.xopt[i] = 0.5 * lunacekMu0
			if g[i] < 0 {
				p.xopt[i] = -p.xopt[i]
			}
		}
	}
	p.XOpt = append([]float64(nil), best...)
	p.FOpt = p.fopt
	if f == 20 {
		// COCO's best value: the Schwefel function at its rounded
		// optimum 420.96874633 in every coordinate.
		var z [MaxDim]float64
		for i := range z[:n] {
			z[i] = 420.96874633
		}
		p.FOpt = schwefelRaw(z[:n]) + p.fopt
	}
}

// Eval returns f(x). len(x) must be Dim; a NaN in x gives NaN.
func (p *Problem) Eval(x []float64) float64 {
	n := p.Dim
	if len(x) != n {
		panic(fmt.Sprintf("bbob: Eval: len(x) = %d, want %d", len(x), n))
	}
	for _, xi := range x {
		if xi != xi {
			return math.NaN()
		}
	}
	var buf1, buf2 [MaxDim]float64
	z, t := buf1[:n], buf2[:n]
	switch p.Function {
	case 1:
		shift(z, x, p.xopt)
		return sphereRaw(z) + p.fopt
	case 2:
		shift(z, x, p.xopt)
		toszAll(z)
		return ellipsoidRaw(z, 1e6) + p.fopt
	case 3:
		shift(z, x, p.xopt)
		toszAll(z)
		tasyAll(z, 0.2)
		conditionAll(z, 10)
		return rastriginRaw(z) + p.fopt
	case 4:
		shift(z, x, p.xopt)
		toszAll(z)
		for i := range z {
			f := math.Pow(math.Sqrt(10), float64(i)/(float64(n)-1))
			if z[i] > 0 && i%2 == 0 {
				f *= 10
			}
			z[i] = f * z[i]
		}
		return rastriginRaw(z) + p.fopt + 100*penalty(x)
	case 5:
		return linearSlopeRaw(x, p.XOpt) + p.fopt
	case 6:
		shift(t, x, p.xopt)
		affine(z, p.m, 0, t)
		v := 0.0
		for i, zi := range z {
			if p.xopt[i]*zi > 0 {
				v += 100 * 100 * zi * zi
			} else {
				v += zi * zi
			}
		}
		return math.Pow(oscillateValue(v), 0.9) + p.fopt
	case 7:
		return p.stepEllipsoid(x, z, t)
	case 8:
		shift(z, x, p.xopt)
		for i := range z {
			z[i] = p.fac*z[i] + 1
		}
		return rosenbrockRaw(z) + p.fopt
	case 9:
		for i := 0; i < n; i++ {
			s := 0.5
			row := p.r[i*n : i*n+n]
			for j, xj := range x {
				s += xj * (p.fac * row[j])
			}
			z[i] = s
		}
		return rosenbrockRaw(z) + p.fopt
	case 10:
		shift(t, x, p.xopt)
		affine(z, p.r, 0, t)
		toszAll(z)
		return ellipsoidRaw(z, 1e6) + p.fopt
	case 11:
		shift(t, x, p.xopt)
		affine(z, p.r, 0, t)
		toszAll(z)
		v := 1e6 * z[0] * z[0]
		for _, zi := range z[1:] {
			v += zi * zi
		}
		return v + p.fopt
	case 12:
		shift(t, x, p.xopt)
		affine(z, p.r, 0, t)
		tasyAll(z, 0.5)
		affine(t, p.r, 0, z)
		v := t[0] * t[0]
		for _, zi := range t[1:] {
			v += 1e6 * zi * zi
		}
		return v + p.fopt
	case 13:
		shift(t, x, p.xopt)
		affine(z, p.m, 0, t)
		v := 0.0
		for _, zi := range z[1:] {
			v += zi * zi
		}
		v = 100 * math.Sqrt(v/1)
		v += z[0] * z[0] / 1
		return v + p.fopt
	case 14:
		shift(t, x, p.xopt)
		affine(z, p.r, 0, t)
		v := 0.0
		for i, zi := range z {
			e := 2.0 + (4.0*float64(i))/(float64(n)-1.0)
			v += math.Pow(math.Abs(zi), e)
		}
		return math.Sqrt(v) + p.fopt
	case 15:
		shift(t, x, p.xopt)
		affine(z, p.r, 0, t)
		toszAll(z)
		tasyAll(z, 0.2)
		affine(t, p.m, 0, z)
		return rastriginRaw(t) + p.fopt
	case 16:
		shift(t, x, p.xopt)
		affine(z, p.r, 0, t)
		toszAll(z)
		affine(t, p.m, 0, z)
		return p.weierstrassRaw(t) + p.fopt + 10/float64(n)*penalty(x)
	case 17, 18:
		shift(t, x, p.xopt)
		affine(z, p.r, 0, t)
		tasyAll(z, 0.5)
		affine(t, p.m, 0, z)
		return schaffersRaw(t) + p.fopt + 10*penalty(x)
	case 19:
		affine(z, p.r, 0, x)
		for i := range z {
			z[i] = z[i] - (-0.5)
		}
		return griewankRosenbrockRaw(z) + p.fopt
	case 20:
		return p.schwefel(x, z) + p.fopt
	case 21, 22:
		return p.gallagherRaw(x, z) + p.fopt
	case 23:
		shift(t, x, p.xopt)
		affine(z, p.m, 0, t)
		return katsuuraRaw(z) + p.fopt + penalty(x)
	case 24:
		return p.lunacekRaw(x, z, t) + p.fopt
	}
	panic("bbob: unreachable")
}
