package kernel

// Differential fuzz targets: inputs are built with math/rand/v2 from the
// fuzzed seed (possibly mixed with special values), every available path
// runs, and each result is checked against the references of kernel_test.go
// within the derived bounds (dotAcc.bound, elemBound, normBound), against the
// generic path within twice the bound, and for guard cells around the
// outputs.
//
//	go test -run '^$' -fuzz '^FuzzMulVecs$' -fuzztime 20s ./kernel/

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// fuzzScale folds a fuzzed scale factor into ±[2^-560, 2^400] (its mantissa
// and sign kept); 0, NaN and ±Inf give 1. Products of scaled values with the
// other inputs then neither overflow (the test's references need finite
// sums) nor lose everything to underflow.
func fuzzScale(s float64) float64 {
	if s == 0 || math.IsNaN(s) || math.IsInf(s, 0) {
		return 1
	}
	m, e := math.Frexp(s)
	return math.Ldexp(m, min(max(e, -560), 400))
}

// fuzzScalar folds a fuzzed α or β: NaN and ±Inf stay (every path must give
// the IEEE special), finite values get an exponent ≤ 64 so that α·x stays
// finite for |x| < 2^507.
func fuzzScalar(s float64) float64 {
	if s == 0 || math.IsNaN(s) || math.IsInf(s, 0) {
		return s
	}
	m, e := math.Frexp(s)
	return math.Ldexp(m, min(e, 64))
}

// fuzzVec returns n values of a kind chosen by r (not kindHuge unless huge),
// times scale, with specials mixed in at a rate chosen by r (often none).
// Specials are not scaled; noHuge leaves out the huge specials.
func fuzzVec(r *rand.Rand, n int, scale float64, huge, noHuge bool) []float64 {
	kind := r.IntN(numKinds)
	if kind == kindHuge && !huge {
		kind = kindWide
	}
	if kind == kindMixed && !huge {
		kind = kindUniform + r.IntN(kindHuge)
	}
	v := genVec(r, n, kind)
	for i := range v {
		v[i] *= scale
	}
	frac := 0.0
	if r.IntN(4) == 0 {
		frac = r.Float64() * 0.2
	}
	sp := specials
	if noHuge {
		sp = specials[:len(specials)-3]
	}
	for i := range v {
		if r.Float64() < frac {
			v[i] = sp[r.IntN(len(sp))]
		}
	}
	return v
}

func FuzzMulVecs(f *testing.F) {
	f.Add(uint16(5), uint8(3), uint8(0), uint64(1), 1.0)
	f.Add(uint16(4), uint8(6), uint8(9), uint64(2), 1e-300)
	f.Add(uint16(17), uint8(7), uint8(63), uint64(3), 1e100)
	f.Add(uint16(64), uint8(13), uint8(5), uint64(4), -3.5)
	f.Add(uint16(255), uint8(8), uint8(18), uint64(5), 0.25)
	f.Add(uint16(257), uint8(9), uint8(27), uint64(8), 1.5)
	f.Add(uint16(300), uint8(5), uint8(36), uint64(9), -0.75)
	f.Add(uint16(1), uint8(40), uint8(7), uint64(6), math.Inf(1))
	f.Add(uint16(0), uint8(3), uint8(1), uint64(7), 1.0)
	f.Fuzz(func(t *testing.T, nIn uint16, kIn, off uint8, seed uint64, scale float64) {
		// n up to 320: past panelMinN, where AVX-512 splits A into panels.
		n, k := int(nIn)%321, int(kIn)%41
		r := rand.New(rand.NewPCG(seed, uint64(n)<<8|uint64(k)))
		offY, offA, offX := int(off&7), int(off>>3&7), r.IntN(8)
		a0 := fuzzVec(r, n*n, fuzzScale(scale), false, false)
		x0 := fuzzVec(r, k*n, 1, false, false)
		a, x := placed(offA, a0), placed(offX, x0)
		w0 := fuzzVec(r, k, 1, false, false)
		rows := make([]int, k)
		for i := range rows {
			rows[i] = r.IntN(k)
		}
		w := placed(offX^5, w0)
		desc := fmt.Sprintf("n=%d k=%d offy=%d offa=%d offx=%d", n, k, offY, offA, offX)

		// References.
		mv := newDotResults(k * n)
		for v := range k {
			for row := range n {
				var d dotAcc
				d.addVec(a0[row*n:row*n+n], x0[v*n:v*n+n])
				mv.set(v*n+row, &d)
			}
		}
		var mt, ws dotResults
		if k > 0 {
			mt, ws = newDotResults(n), newDotResults(n)
			for j := range n {
				var d, dw dotAcc
				for i := range n {
					d.add(x0[i], a0[i*n+j])
				}
				for i, wi := range w0 {
					dw.add(wi, x0[rows[i]*n+j])
				}
				mt.set(j, &d)
				ws.set(j, &dw)
			}
		}
		// The kernels on the current path: MulVecs; for k > 0 also MulVec and
		// MulVecTrans of the first vector and WeightedSum of the k vectors.
		run := func(t *testing.T) (ys, yv, yt, yw guarded) {
			ys = newGuarded(offY, k*n)
			MulVecs(ys.s, a, n, x, k)
			yv, yt, yw = newGuarded(offY, n), newGuarded(offY^1, n), newGuarded(offY^2, n)
			if k > 0 {
				MulVec(yv.s, a, n, x[:n])
				MulVecTrans(yt.s, a, n, x[:n])
				if n > 0 { // n = 0: len(x)/n rows is undefined, WeightedSum rejects every row
					WeightedSum(yw.s, w, x, n, rows)
				}
			}
			for _, g := range []guarded{ys, yv, yt, yw} {
				checkGuards(t, g, desc)
			}
			if sameBits(a0, a) >= 0 || sameBits(x0, x) >= 0 || sameBits(w0, w) >= 0 {
				t.Errorf("%s: an input was modified", desc)
			}
			return
		}
		var gys, gyv, gyt, gyw guarded
		onGeneric(func() { gys, gyv, gyt, gyw = run(t) })
		eachPath(func(path string) {
			ys, yv, yt, yw := run(t)
			c := &checker{t: t}
			for j := range ys.s {
				c.value(func() string { return fmt.Sprintf("%s MulVecs %s y[%d]", path, desc, j) },
					ys.s[j], gys.s[j], mv.ref[j], mv.spec[j], mv.bnd[j])
			}
			if k == 0 {
				return
			}
			for j := range n {
				c.value(func() string { return fmt.Sprintf("%s MulVec %s y[%d]", path, desc, j) },
					yv.s[j], gyv.s[j], mv.ref[j], mv.spec[j], mv.bnd[j])
				c.value(func() string { return fmt.Sprintf("%s MulVecTrans %s y[%d]", path, desc, j) },
					yt.s[j], gyt.s[j], mt.ref[j], mt.spec[j], mt.bnd[j])
				c.value(func() string { return fmt.Sprintf("%s WeightedSum %s rows=%v dst[%d]", path, desc, rows, j) },
					yw.s[j], gyw.s[j], ws.ref[j], ws.spec[j], ws.bnd[j])
			}
			// Deterministic.
			ys2, _, _, _ := run(t)
			if i := sameResults(ys.s, ys2.s); i >= 0 {
				t.Errorf("%s MulVecs %s: not deterministic at y[%d]: %v then %v", path, desc, i, ys.s[i], ys2.s[i])
			}
		})
	})
}

func FuzzScaleAddOuter(f *testing.F) {
	f.Add(uint16(5), uint8(0), uint64(1), 0.9, 0.1)
	f.Add(uint16(8), uint8(13), uint64(2), 1.0, -1.0)
	f.Add(uint16(33), uint8(7), uint64(3), 0.0, 2.0)
	f.Add(uint16(70), uint8(63), uint64(4), 0.5, 0.0)
	f.Add(uint16(255), uint8(21), uint64(5), -0.999, 1e-3)
	f.Add(uint16(300), uint8(22), uint64(8), 0.9, 0.1)
	f.Add(uint16(3), uint8(1), uint64(6), math.NaN(), 1.0)
	f.Add(uint16(9), uint8(2), uint64(7), math.Inf(-1), 0x1p-1074)
	f.Fuzz(func(t *testing.T, nIn uint16, off uint8, seed uint64, alpha, beta float64) {
		// n up to 320: from n = 257 ScaleAddOuter splits A into blocks of
		// rows (scaleAddOuterBlock).
		n := int(nIn) % 321
		alpha, beta = fuzzScalar(alpha), fuzzScalar(beta)
		r := rand.New(rand.NewPCG(seed, uint64(n)))
		offA, offP, offV := int(off&7), int(off>>3&7), r.IntN(8)
		a0 := fuzzVec(r, n*n, 1, false, false)
		// p and v stay below 2^42 (no huge specials): with |β| < 2^64 the
		// product (β·p)·v is far from overflow.
		p0, v0 := fuzzVec(r, n, 1, false, true), fuzzVec(r, n, 1, false, true)
		c := makeSAOCase(r, n, alpha, beta, a0, p0, v0, "")
		c.offA, c.offP, c.offV = offA, offP, offV
		c.p, c.v = placed(offP, p0), placed(offV, v0)
		desc := fmt.Sprintf("n=%d offa=%d offp=%d offv=%d α=%v β=%v", n, offA, offP, offV, alpha, beta)
		eachPath(func(path string) {
			g := newGuarded(offA, n*n)
			copy(g.s, a0)
			ScaleAddOuter(g.s, n, alpha, beta, c.p, c.v)
			checkGuards(t, g, path+" ScaleAddOuter "+desc)
			if sameBits(p0, c.p) >= 0 || sameBits(v0, c.v) >= 0 {
				t.Errorf("%s ScaleAddOuter %s: modified p or v", path, desc)
			}
			ch := &checker{t: t}
			for j, got := range g.s {
				ch.value(func() string {
					return fmt.Sprintf("%s ScaleAddOuter %s a[%d][%d] (a=%v p=%v v=%v)", path, desc, j/n, j%n, a0[j], p0[j/n], v0[j%n])
				}, got, c.gen[j], c.ref[j], c.spec[j], elemBound(c.A[j]))
			}
		})
	})
}

func FuzzVector(f *testing.F) {
	f.Add(uint16(0), uint8(0), uint64(1), 2.0, 3.0)
	f.Add(uint16(1), uint8(9), uint64(2), -1.0, 1.0)
	f.Add(uint16(7), uint8(18), uint64(3), 0.5, -0.25)
	f.Add(uint16(33), uint8(27), uint64(4), 1e-300, 1e300)
	f.Add(uint16(64), uint8(36), uint64(5), 0.0, 0.0)
	f.Add(uint16(129), uint8(45), uint64(6), math.Inf(1), 1.0)
	f.Add(uint16(300), uint8(54), uint64(7), 1.0, math.NaN())
	f.Fuzz(func(t *testing.T, nIn uint16, off uint8, seed uint64, alpha, beta float64) {
		n := int(nIn) % 301
		alpha, beta = fuzzScalar(alpha), fuzzScalar(beta)
		r := rand.New(rand.NewPCG(seed, uint64(n)))
		offX, offY := int(off&7), int(off>>3&7)
		x0, y0 := fuzzVec(r, n, 1, true, false), fuzzVec(r, n, 1, true, false)
		x, y := placed(offX, x0), placed(offY, y0)
		desc := fmt.Sprintf("n=%d offx=%d offy=%d α=%v β=%v", n, offX, offY, alpha, beta)

		var d dotAcc
		d.addVec(x0, y0)
		dref, dspec := d.result()
		nref, nspec := normRef(x0)
		ax := struct {
			ref, A []float64
			spec   []bool
		}{make([]float64, n), make([]float64, n), make([]bool, n)}
		axIn := struct {
			ref, A []float64
			spec   []bool
		}{make([]float64, n), make([]float64, n), make([]bool, n)}
		for i := range n {
			ax.ref[i], ax.A[i], ax.spec[i] = elemRef(alpha, x0[i], beta, y0[i])
			axIn.ref[i], axIn.A[i], axIn.spec[i] = elemRef(alpha, x0[i], beta, x0[i])
		}
		type results struct {
			dot, norm float64
			ax, axIn  guarded
		}
		run := func(t *testing.T, path string) results {
			var res results
			res.dot = Dot(x, y)
			res.norm = Norm(x)
			res.ax = newGuarded(offY, n)
			copy(res.ax.s, y0)
			AxpBy(alpha, x, beta, res.ax.s)
			res.axIn = newGuarded(offX, n)
			copy(res.axIn.s, x0)
			AxpBy(alpha, res.axIn.s, beta, res.axIn.s)
			checkGuards(t, res.ax, path+" AxpBy "+desc)
			checkGuards(t, res.axIn, path+" AxpBy in place "+desc)
			// Axpy is AxpBy with β = 1 (bit for bit, as 1·y is exact).
			gy := newGuarded(offY, n)
			copy(gy.s, y0)
			Axpy(alpha, x, gy.s)
			gy2 := newGuarded(offY, n)
			copy(gy2.s, y0)
			AxpBy(alpha, x, 1, gy2.s)
			if i := sameResults(gy.s, gy2.s); i >= 0 {
				t.Errorf("%s Axpy %s: y[%d] = %v, AxpBy(α, x, 1, y) gives %v", path, desc, i, gy.s[i], gy2.s[i])
			}
			// AxpByTo is AxpBy into a third slice, bit for bit.
			gt := newGuarded((offY+3)%8, n)
			AxpByTo(gt.s, alpha, x, beta, y)
			checkGuards(t, gt, path+" AxpByTo "+desc)
			if i := sameResults(gt.s, res.ax.s); i >= 0 {
				t.Errorf("%s AxpByTo %s: dst[%d] = %v, AxpBy gives %v", path, desc, i, gt.s[i], res.ax.s[i])
			}
			// Scale: exactly α·x.
			gs := newGuarded(offX, n)
			copy(gs.s, x0)
			Scale(alpha, gs.s)
			checkGuards(t, gs, path+" Scale "+desc)
			for i, xi := range x0 {
				want := alpha * xi
				if math.Float64bits(gs.s[i]) != math.Float64bits(want) && !(math.IsNaN(want) && math.IsNaN(gs.s[i])) {
					t.Errorf("%s Scale %s: x[%d] = %v·%v = %v, want %v", path, desc, i, alpha, xi, gs.s[i], want)
					break
				}
			}
			if sameBits(x0, x) >= 0 || sameBits(y0, y) >= 0 {
				t.Errorf("%s %s: an input was modified", path, desc)
			}
			return res
		}
		var gen results
		onGeneric(func() { gen = run(t, "generic") })
		eachPath(func(path string) {
			res := run(t, path)
			c := &checker{t: t}
			c.value(func() string { return path + " Dot " + desc }, res.dot, gen.dot, dref, dspec, d.bound())
			c.value(func() string { return path + " Norm " + desc }, res.norm, gen.norm, nref, nspec, normBound(n, nref))
			for i := range n {
				c.value(func() string { return fmt.Sprintf("%s AxpBy %s y[%d] (x=%v y=%v)", path, desc, i, x0[i], y0[i]) },
					res.ax.s[i], gen.ax.s[i], ax.ref[i], ax.spec[i], elemBound(ax.A[i]))
				c.value(func() string { return fmt.Sprintf("%s AxpBy in place %s y[%d] (x=%v)", path, desc, i, x0[i]) },
					res.axIn.s[i], gen.axIn.s[i], axIn.ref[i], axIn.spec[i], elemBound(axIn.A[i]))
			}
		})
	})
}
