package kernel

import "math"

// The generic kernels: plain Go loops in the natural summation order. They are
// the fallback on every architecture without assembly (and under -tags
// purego), and the reference the assembly is tested against. They build on
// every architecture so that one test run can compare them with the SIMD
// paths.

// mulVecsGeneric computes y_i = A·x_i for i < k. Rows of A are the outer loop,
// so a row stays in cache while it meets all k vectors and A is read once.
func mulVecsGeneric(y, a []float64, n int, x []float64, k int) {
	mulVecsGenericRows(y, a, n, x, k, 0, n)
}

// mulVecsGenericRows computes the rows r0 … r1−1 of the k products.
func mulVecsGenericRows(y, a []float64, n int, x []float64, k, r0, r1 int) {
	for r := r0; r < r1; r++ {
		row := a[r*n : r*n+n]
		for i := 0; i < k; i++ {
			y[i*n+r] = dotGeneric(row, x[i*n:i*n+n])
		}
	}
}

// mulVecGeneric computes y = A·x.
func mulVecGeneric(y, a []float64, n int, x []float64) {
	for r := range y[:n] {
		y[r] = dotGeneric(a[r*n:r*n+n], x)
	}
}

// scaleAddOuterGeneric computes a[i*n+j] = α·a[i*n+j] + (β·p[i])·v[j] for
// the rows i < rows of a.
func scaleAddOuterGeneric(a []float64, n, rows int, alpha, beta float64, p, v []float64) {
	v = v[:n]
	for i := 0; i < rows; i++ {
		s := beta * p[i]
		row := a[i*n : i*n+n]
		for j, vj := range v {
			row[j] = alpha*row[j] + s*vj
		}
	}
}

// scaleAddRankKGeneric computes, for i < rows and j < cols (rows of a, p
// and q are n apart),
//
//	s := α·a[i*n+j]
//	for t := 0; t < k; t++ { s += (β[t]·p[t*n+i])·q[t*n+j] }
//	a[i*n+j] = s
//
// Row by row, it scales the row and then adds the k terms one after the
// other (an axpy over the row for each t, the row staying in L1): each
// element sees the terms in increasing t, the order of the SIMD chains. Go
// rounds s + c·q as fl(s + fl(c·q)) on amd64 (GOAMD64 < v3) and may fuse it
// on other architectures.
func scaleAddRankKGeneric(a []float64, n, rows, cols int, alpha float64, beta, p, q []float64, k int) {
	for i := 0; i < rows; i++ {
		row := a[i*n : i*n+cols]
		for j := range row {
			row[j] *= alpha
		}
		for t, bt := range beta[:k] {
			ct := bt * p[t*n+i]
			qt := q[t*n : t*n+cols]
			qt = qt[:len(row)]
			for j := range row {
				row[j] += ct * qt[j]
			}
		}
	}
}

// dotGeneric returns Σ x[i]·y[i] summed left to right.
func dotGeneric(x, y []float64) float64 {
	y = y[:len(x)]
	var s float64
	for i, xi := range x {
		s += xi * y[i]
	}
	return s
}

// axpbyGeneric computes dst[i] = α·x[i] + β·y[i].
func axpbyGeneric(dst []float64, alpha float64, x []float64, beta float64, y []float64) {
	y, dst = y[:len(x)], dst[:len(x)]
	for i, xi := range x {
		dst[i] = alpha*xi + beta*y[i]
	}
}

// scaleGeneric computes x[i] = α·x[i].
func scaleGeneric(alpha float64, x []float64) {
	for i := range x {
		x[i] *= alpha
	}
}

// normScaled returns ‖x‖ without over- or underflow, by the scaled sum of
// squares of the reference BLAS dnrm2 (two passes would do as well; this is
// the rare fallback of Norm).
func normScaled(x []float64) float64 {
	scale, ssq := 0.0, 1.0
	inf := false
	for _, xi := range x {
		if xi == 0 {
			continue
		}
		if math.IsNaN(xi) {
			return math.NaN()
		}
		ax := math.Abs(xi)
		if math.IsInf(ax, 1) {
			// Keep looking for a NaN: √(xᵀx) is NaN if any element is,
			// whatever the order.
			inf = true
			continue
		}
		if scale < ax {
			ssq = 1 + ssq*(scale/ax)*(scale/ax)
			scale = ax
		} else {
			ssq += (ax / scale) * (ax / scale)
		}
	}
	if inf {
		return math.Inf(1)
	}
	return scale * math.Sqrt(ssq)
}

// weightedSumGeneric computes, for j < len(dst),
//
//	dst[j] = Σ_{i < len(w)} w[i]·x[rows[i]*n+j]
//
// as a chain of axpby calls, row by row (rows valid: WeightedSum checks).
func weightedSumGeneric(dst, w, x []float64, n int, rows []int) {
	clear(dst)
	m := len(dst)
	for i, wi := range w {
		r := rows[i]
		axpbyGeneric(dst, wi, x[r*n:r*n+m], 1, dst)
	}
}

// dotRowsGeneric adds to dst[j*ka+i], i0 ≤ i < i1, the dot product of a_i
// and b_j over the first cols columns (rows of a and b are stride apart),
// in index order.
func dotRowsGeneric(dst, a []float64, ka int, b []float64, kb, cols, stride, i0, i1 int) {
	for j := 0; j < kb; j++ {
		bj := b[j*stride : j*stride+cols]
		for i := i0; i < i1; i++ {
			dst[j*ka+i] += dotGeneric(a[i*stride:i*stride+cols], bj)
		}
	}
}

// combineRowsGeneric computes the elements of CombineRows in the columns
// j < cols of the k rows (rows of x, z and p are stride apart; m and s are
// offset like them). Go rounds u + c·p as fl(u + fl(c·p)) on amd64 (GOAMD64 <
// v3) and may fuse it on other architectures.
func combineRowsGeneric(x, m []float64, sigma float64, s, z []float64, k, cols, stride int, p []float64, kp int, c []float64) {
	s = s[:cols]
	for l := 0; l < k; l++ {
		xl := x[l*stride : l*stride+cols]
		zl := z[l*stride : l*stride+cols]
		for j := range xl {
			xl[j] = s[j] * zl[j]
		}
		for t, ct := range c[l*kp : l*kp+kp] {
			pt := p[t*stride : t*stride+cols]
			for j, v := range pt {
				xl[j] += ct * v
			}
		}
		if m == nil {
			continue
		}
		for j, u := range xl {
			xl[j] = m[j] + sigma*u
		}
	}
}

// scaleAxpyRowsVec is ScaleAxpyRows with the kernels of the path in
// separate passes: Scale, m copied into every row, AxpBy, and Σ x² as the
// quick test of finiteness (finite when every x is finite and not huge;
// else the elements decide). The generic paths run it too: calling
// axpbyGeneric with β = 1 where the compiler sees the constant lets it
// round α·x + y differently on arm64 (fused or not) than AxpBy does.
func scaleAxpyRowsVec(x []float64, sigma float64, y []float64, s float64, m []float64) bool {
	if s != 1 {
		Scale(s, y)
	}
	n := len(m)
	for i := 0; i+n <= len(x); i += n {
		copy(x[i:i+n], m)
	}
	AxpBy(sigma, y, 1, x)
	if ss := dotBlocks(x, x); ss <= math.MaxFloat64 {
		return true
	}
	var bad uint64
	for _, v := range x {
		bad |= notFinite(v)
	}
	return bad>>63 == 0
}

// notFinite returns a word whose top bit is set when v is ±Inf or NaN (its
// exponent all ones: adding one to it carries into the sign's place).
func notFinite(v float64) uint64 {
	const exp, one = 0x7ff << 52, 1 << 52
	return math.Float64bits(v)&exp + one
}
