//go:build gc && !purego

package kernel

import (
	"math"
	"unsafe"
)

// dotRows adds to dst[j*ka+i] the dot products of a_i and b_j over the
// first cols columns (rows stride apart). On AVX2 (also on AVX-512 CPUs:
// see dotRowsAVX2) tiles of 4 rows of a by 3 rows of b, then 4×1 for the
// last rows of b and one dot product a pair for the last rows of a.
func dotRows(dst, a []float64, ka int, b []float64, kb, cols, stride int) {
	if !useAVX2 {
		dotRowsGeneric(dst, a, ka, b, kb, cols, stride)
		return
	}
	dotRowsAVX2(dst, a, ka, b, kb, cols, stride)
}

// dotRowsAVX2 is the AVX2 path of dotRows. The AVX-512 path uses it too:
// the limited memory's passes move about 8·(2k + 3λ)·n bytes for 4·k·λ·n
// flops, so at large n they are limited by memory bandwidth, which wider
// registers do not raise. The columns past the last whole vector of 4 are
// added afterwards in index order (math.FMA on each product, the bits of
// VFMADD231SD).
func dotRowsAVX2(dst, a []float64, ka int, b []float64, kb, cols, stride int) {
	c4 := cols &^ 3
	i := 0
	for ; i+4 <= ka; i += 4 {
		ai := unsafe.SliceData(a[i*stride:])
		j := 0
		for ; j+3 <= kb; j += 3 {
			dotRows4x3AVX2(&dst[j*ka+i], ai, unsafe.SliceData(b[j*stride:]), c4, stride, ka)
		}
		for ; j < kb; j++ {
			dotRows4x1AVX2(&dst[j*ka+i], ai, unsafe.SliceData(b[j*stride:]), c4, stride)
		}
	}
	for ; i < ka; i++ {
		ai := a[i*stride : i*stride+c4]
		for j := 0; j < kb; j++ {
			if c4 > 0 {
				dst[j*ka+i] += dotAVX2(ai, b[j*stride:j*stride+c4])
			}
		}
	}
	if c4 == cols {
		return
	}
	for j := 0; j < kb; j++ {
		bj := b[j*stride+c4 : j*stride+cols]
		for i := 0; i < ka; i++ {
			s := dst[j*ka+i]
			for c, x := range a[i*stride+c4 : i*stride+cols] {
				s = math.FMA(x, bj[c], s)
			}
			dst[j*ka+i] = s
		}
	}
}

// combineRows computes CombineRows' elements in the first cols columns of
// the k rows. On AVX2: 4 rows at a time (their coefficients transposed into
// a frame of the stack), then one; the columns past the last whole vector
// of 4 in Go with math.FMA (the same chain of roundings as the lanes).
func combineRows(x, m []float64, sigma float64, s, z []float64, k, cols, stride int, p []float64, kp int, c []float64) {
	if !useAVX2 {
		combineRowsGeneric(x, m, sigma, s, z, k, cols, stride, p, kp, c)
		return
	}
	c4 := cols &^ 3
	var ct [4 * combineTerms]float64
	l := 0
	for ; l+4 <= k; l += 4 {
		for t0 := 0; t0 < kp || t0 == 0; t0 += combineTerms {
			kc := min(combineTerms, kp-t0)
			for t := 0; t < kc; t++ {
				for r := 0; r < 4; r++ {
					ct[t*4+r] = c[(l+r)*kp+t0+t]
				}
			}
			if c4 > 0 {
				combineRows4AVX2(&x[l*stride], &m[0], &s[0], &z[l*stride], pAt(p, t0*stride), &ct[0], sigma, c4, stride, kc, t0 == 0, t0+kc >= kp)
			}
			if kp == 0 {
				break
			}
		}
	}
	for ; l < k; l++ {
		for t0 := 0; t0 < kp || t0 == 0; t0 += combineTerms {
			kc := min(combineTerms, kp-t0)
			if c4 > 0 {
				combineRows1AVX2(&x[l*stride], &m[0], &s[0], &z[l*stride], pAt(p, t0*stride), cAt(c, l*kp+t0), sigma, c4, stride, kc, t0 == 0, t0+kc >= kp)
			}
			if kp == 0 {
				break
			}
		}
	}
	if c4 == cols {
		return
	}
	for l := 0; l < k; l++ {
		for j := c4; j < cols; j++ {
			u := s[j] * z[l*stride+j]
			for t, ct := range c[l*kp : l*kp+kp] {
				u = math.FMA(ct, p[t*stride+j], u)
			}
			x[l*stride+j] = math.FMA(sigma, u, m[j])
		}
	}
}

// pAt and cAt return a pointer to element i of p (c), or a harmless
// pointer when there are no terms.
func pAt(p []float64, i int) *float64 {
	if len(p) == 0 {
		return nil
	}
	return &p[i]
}

func cAt(c []float64, i int) *float64 {
	if i >= len(c) {
		return nil
	}
	return &c[i]
}

//go:noescape
func dotRows4x3AVX2(dst, a, b *float64, cols, stride, ldd int)

//go:noescape
func dotRows4x1AVX2(dst, a, b *float64, cols, stride int)

//go:noescape
func combineRows4AVX2(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, first, last bool)

//go:noescape
func combineRows1AVX2(x, m, s, z, p, c *float64, sigma float64, cols, stride, kp int, first, last bool)
