package bbob

import "math"

// The transformations of the bbob definitions, each computed in the order
// of operations of COCO's C code, so that the values agree with COCO's to
// the rounding of the math library.

// tosz is the oscillation T_osz of one coordinate.
func tosz(x float64) float64 {
	const alpha = 0.1
	switch {
	case x > 0:
		t := math.Log(x) / alpha
		base := math.Exp(t + 0.49*(math.Sin(t)+math.Sin(0.79*t)))
		return math.Pow(base, alpha)
	case x < 0:
		t := math.Log(-x) / alpha
		base := math.Exp(t + 0.49*(math.Sin(0.55*t)+math.Sin(0.31*t)))
		return -math.Pow(base, alpha)
	}
	return 0
}

// toszAll applies T_osz to every coordinate of x in place.
func toszAll(x []float64) {
	for i, xi := range x {
		x[i] = tosz(xi)
	}
}

// tasyAll applies the asymmetry T_asy^β in place.
func tasyAll(x []float64, beta float64) {
	n := float64(len(x))
	for i, xi := range x {
		if xi > 0 {
			e := 1 + ((beta*float64(i))/(n-1))*math.Sqrt(xi)
			x[i] = math.Pow(xi, e)
		}
	}
}

// conditionAll multiplies x_i by α^(i/(2(n−1))) in place (Λ^α).
func conditionAll(x []float64, alpha float64) {
	n := float64(len(x))
	for i := range x {
		x[i] = math.Pow(alpha, 0.5*float64(i)/(n-1)) * x[i]
	}
}

// affine sets dst = b + M·x (M n×n row-major; b nil for 0), summing in
// COCO's order.
func affine(dst, m []float64, b float64, x []float64) {
	n := len(x)
	for i := range dst {
		row := m[i*n : i*n+n]
		s := b
		for j, xj := range x {
			s += xj * row[j]
		}
		dst[i] = s
	}
}

// shift sets dst = x − c.
func shift(dst, x, c []float64) {
	for i, xi := range x {
		dst[i] = xi - c[i]
	}
}

// penalty is f_pen: Σ max(0, |x_i| − 5)², the distance² to [−5, 5]^n.
func penalty(x []float64) float64 {
	s := 0.0
	for _, xi := range x {
		c1 := xi - 5
		c2 := -5 - xi
		if c1 > 0 {
			s += c1 * c1
		} else if c2 > 0 {
			s += c2 * c2
		}
	}
	return s
}

// oscillateValue is T_osz applied to an objective value.
func oscillateValue(y float64) float64 {
	if y == 0 {
		return y
	}
	const factor = 0.1
	logY := math.Log(math.Abs(y)) / factor
	if y > 0 {
		return math.Pow(math.Exp(logY+0.49*(math.Sin(logY)+math.Sin(0.79*logY))), factor)
	}
	return -math.Pow(math.Exp(logY+0.49*(math.Sin(0.55*logY)+math.Sin(0.31*logY))), factor)
}

// rotCondRot returns R·Λ^α·Q (row-major), with Λ^α's diagonal
// base^(k/(n−1)): the matrix of the rotated ill-conditioned functions.
func rotCondRot(r, q []float64, n int, base float64) []float64 {
	m := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			s := 0.0
			for k := 0; k < n; k++ {
				e := 1.0 * float64(k) / (float64(n) - 1.0)
				s += r[i*n+k] * math.Pow(base, e) * q[k*n+j]
			}
			m[i*n+j] = s
		}
	}
	return m
}
