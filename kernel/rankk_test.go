package kernel

// Tests of ScaleAddRankK on every path (forEachPath), with the references and
// bounds of kernel_test.go: each element a[i*n+j] = α·a[i*n+j] + Σ_t c_t·q_t[j]
// (c_t = fl(β[t]·p_t[i]), the coefficient the kernels define) is a dot
// product of k+1 products, so its double-double reference is a dotAcc and
// its bound dotAcc.bound (γ_{k+1}·Σ|terms| and the underflow term: any order,
// with or without FMA). Beyond the bound, the SIMD paths must give exactly the
// bits of the fma chain s = α·a; s = fma(c_t, q_t[j], s) for t = 0, 1, …, and
// the generic path those of the same chain with Go's rounding.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// rkCase is one ScaleAddRankK input with its references.
type rkCase struct {
	n, k                   int
	offA, offB, offP, offQ int
	alpha                  float64
	a0, beta0, p0, q0      []float64 // the values
	beta, p, q             []float64 // placed at offB, offP, offQ
	want                   dotResults
	gen                    []float64 // the generic result
	desc                   string
}

// rkCoef is the coefficient of term t in row i as the kernels round it.
func rkCoef(beta, p []float64, n, t, i int) float64 {
	return float64(beta[t] * p[t*n+i])
}

// rkChain returns element (i, j) computed as the kernels' chain: s = fl(α·a),
// then for t < k: s = fma(c_t, q_t[j], s) (fused) or fl(s + fl(c_t·q_t[j])).
func rkChain(alpha, a float64, beta, p, q []float64, n, k, i, j int, fused bool) float64 {
	s := float64(alpha * a)
	for t := 0; t < k; t++ {
		c := rkCoef(beta, p, n, t, i)
		if fused {
			s = math.FMA(c, q[t*n+j], s)
		} else {
			s += float64(c * q[t*n+j])
		}
	}
	return s
}

func newRKCase(r *rand.Rand, n, k int, alpha float64, a0, beta, p, q []float64, desc string) rkCase {
	c := rkCase{n: n, k: k, offA: r.IntN(8), offB: r.IntN(8), offP: r.IntN(8), offQ: r.IntN(8),
		alpha: alpha, a0: a0, beta0: beta, p0: p, q0: q}
	c.beta, c.p, c.q = placed(c.offB, beta), placed(c.offP, p), placed(c.offQ, q)
	c.want = newDotResults(n * n)
	coef := make([]float64, k)
	for i := range n {
		for t := range k {
			coef[t] = rkCoef(beta, p, n, t, i)
		}
		for j := range n {
			var d dotAcc
			d.add(alpha, a0[i*n+j])
			for t, ct := range coef {
				d.add(ct, q[t*n+j])
			}
			c.want.set(i*n+j, &d)
		}
	}
	onGeneric(func() { c.gen = c.run(c.offA).s })
	c.desc = fmt.Sprintf("n=%d k=%d offa=%d offβ=%d offp=%d offq=%d α=%v %s",
		n, k, c.offA, c.offB, c.offP, c.offQ, alpha, desc)
	return c
}

// run applies ScaleAddRankK on the current path to a copy of a0 at offset
// offA, between guard cells.
func (c *rkCase) run(offA int) guarded {
	g := newGuarded(offA, c.n*c.n)
	copy(g.s, c.a0)
	ScaleAddRankK(g.s, c.n, c.alpha, c.beta, c.p, c.q, c.k)
	return g
}

// check runs the case on the current path and checks the guards, the inputs,
// every element against the reference, the bound and the generic result, the
// exact bits of the chain, and that the result does not depend on the
// alignment. It returns false after too many failures.
func (c *rkCase) check(t *testing.T, path string, ch *checker) bool {
	t.Helper()
	n, k := c.n, c.k
	g := c.run(c.offA)
	checkGuards(t, g, path+" ScaleAddRankK "+c.desc)
	if sameBits(c.beta0, c.beta) >= 0 || sameBits(c.p0, c.p) >= 0 || sameBits(c.q0, c.q) >= 0 {
		ch.errorf("%s ScaleAddRankK %s: modified beta, p or q", path, c.desc)
	}
	for e, got := range g.s {
		if !ch.value(func() string {
			return fmt.Sprintf("%s ScaleAddRankK %s: a[%d][%d] (a=%v)", path, c.desc, e/n, e%n, c.a0[e])
		}, got, c.gen[e], c.want.ref[e], c.want.spec[e], c.want.bnd[e]) {
			return false
		}
	}
	// The exact chain: fused on the SIMD paths; on the generic path Go's
	// rounding, unfused or (on arm64 and GOAMD64=v3) fused.
	for e, got := range g.s {
		i, j := e/n, e%n
		fused := rkChain(c.alpha, c.a0[e], c.beta0, c.p0, c.q0, n, k, i, j, true)
		unfused := rkChain(c.alpha, c.a0[e], c.beta0, c.p0, c.q0, n, k, i, j, false)
		ok := sameResults([]float64{got}, []float64{fused}) < 0
		if !isSIMD() && !ok {
			ok = sameResults([]float64{got}, []float64{unfused}) < 0
		}
		if !ok {
			return ch.errorf("%s ScaleAddRankK %s: a[%d][%d] = %v (%#x), want the chain's %v (%#x)",
				path, c.desc, i, j, got, math.Float64bits(got), fused, math.Float64bits(fused))
		}
	}
	g2 := newGuarded((c.offA+3)%8, n*n)
	copy(g2.s, c.a0)
	ScaleAddRankK(g2.s, n, c.alpha, placed((c.offB+1)%8, c.beta0), placed((c.offP+5)%8, c.p0),
		placed((c.offQ+2)%8, c.q0), k)
	if e := sameResults(g.s, g2.s); e >= 0 {
		return ch.errorf("%s ScaleAddRankK %s: not deterministic (or depends on alignment) at a[%d]: %v then %v",
			path, c.desc, e, g.s[e], g2.s[e])
	}
	return true
}

// rkKs are the term counts of the tests: every k to past one chunk
// (rankKChunk = 16) and a few chunks.
func rkKs() []int {
	var ks []int
	for k := 0; k <= 20; k++ {
		ks = append(ks, k)
	}
	return append(ks, 40)
}

// rkShapes: every k for small n; for larger n three k each (cycling through
// rkKs, so that every k meets several n), always including a chunk edge.
func rkShapes() [][2]int {
	ks := rkKs()
	var s [][2]int
	i := 0
	for _, n := range matSizes() {
		if n <= 17 {
			for _, k := range ks {
				s = append(s, [2]int{n, k})
			}
			continue
		}
		s = append(s, [2]int{n, ks[i%len(ks)]}, [2]int{n, ks[(i+7)%len(ks)]}, [2]int{n, []int{1, 16, 17, 40}[i%4]})
		i++
	}
	// Column panels (min(k, rankKChunk)·n > rankKPanel): a last panel of
	// one column, of 24 columns, several panels with chunks.
	s = append(s, [2]int{129, 16}, [2]int{200, 11}, [2]int{300, 40})
	if !testing.Short() {
		// Panels and blocks of fewer rows than n per assembly call.
		s = append(s, [2]int{1031, 3}, [2]int{600, 17})
	}
	return s
}

// rkAlphas are the α of the tests.
var rkAlphas = []float64{1, 0.5, 0, -1, 0.999, 1e-310, 7.25, -0.3, 0x1p-1074}

// rkInputs returns the inputs of one case: A of kindA, p and q of kindPQ, β
// of moderate size. Huge values (kindHuge, kindMixed) meet only a small α or
// β, so that no finite product or sum overflows (the references need that).
func rkInputs(r *rand.Rand, n, k, kindA, kindPQ int, alpha float64) (float64, []float64, []float64, []float64, []float64) {
	a0 := genVec(r, n*n, kindA)
	p, q := genVec(r, k*n, kindPQ), genVec(r, k*n, kindPQ)
	beta := genVec(r, k, []int{kindUniform, kindWide, kindInt}[r.IntN(3)])
	if kindA == kindHuge || kindA == kindMixed {
		if math.Abs(alpha) > 8 {
			alpha = 0.5
		}
	}
	if kindPQ == kindHuge || kindPQ == kindMixed {
		for t := range beta {
			beta[t] = math.Ldexp(beta[t], -540)
		}
	}
	return alpha, a0, beta, p, q
}

func TestScaleAddRankK(t *testing.T) {
	r := rand.New(rand.NewPCG(61, 6))
	var cs []rkCase
	for i, sh := range rkShapes() {
		n, k := sh[0], sh[1]
		kindA, kindPQ := i%numKinds, (i/numKinds+i)%numKinds
		alpha, a0, beta, p, q := rkInputs(r, n, k, kindA, kindPQ, rkAlphas[i%len(rkAlphas)])
		cs = append(cs, newRKCase(r, n, k, alpha, a0, beta, p, q,
			fmt.Sprintf("kinds=%s,%s", kindNames[kindA], kindNames[kindPQ])))
	}
	forEachPath(t, func(t *testing.T) {
		ch := &checker{t: t}
		for i := range cs {
			if !cs[i].check(t, Impl(), ch) {
				return
			}
		}
	})
}

// rkSpecialVec is genSpecialVec with the huge specials left out when noHuge.
func rkSpecialVec(r *rand.Rand, m, kind int, frac float64, noHuge bool) []float64 {
	v := genVec(r, m, kind)
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

// TestScaleAddRankKSpecials sprinkles NaN, ±Inf, ±0, subnormals and (in A)
// huge values into every input: each element must have the IEEE class of
// α·a + Σ_t c_t·q_t[j] (NaN from a NaN operand, 0·∞ or ∞−∞; else the
// infinity), and finite elements stay within the bound.
func TestScaleAddRankKSpecials(t *testing.T) {
	r := rand.New(rand.NewPCG(62, 6))
	var cs []rkCase
	i := 0
	for n := 1; n <= 40; n++ {
		for _, k := range []int{1, 2, 3, 7, 17} {
			kindA := i % numKinds
			kindPQ := []int{kindUniform, kindWide, kindInt, kindTiny}[i%4]
			frac := []float64{0.02, 0.1, 0.3}[i%3]
			alpha := rkAlphas[i%len(rkAlphas)]
			if i%4 == 3 {
				alpha = specials[r.IntN(len(specials)-3)]
			}
			i++
			a0 := rkSpecialVec(r, n*n, kindA, frac/3, false)
			p, q := rkSpecialVec(r, k*n, kindPQ, frac, true), rkSpecialVec(r, k*n, kindPQ, frac, true)
			beta := rkSpecialVec(r, k, kindWide, frac, true)
			if math.Abs(alpha) > 8 {
				alpha = 0.5
			}
			cs = append(cs, newRKCase(r, n, k, alpha, a0, beta, p, q,
				fmt.Sprintf("special kinds=%s,%s", kindNames[kindA], kindNames[kindPQ])))
		}
	}
	// Hand-made classes: 0·∞ in α·a and in a coefficient, ∞ − ∞ between
	// terms, NaN in β, an infinite term after a NaN-free chain, n = 129.
	inf, nan := math.Inf(1), math.NaN()
	hand := []struct {
		alpha         float64
		a, beta, p, q []float64
		n, k          int
		name          string
	}{
		{0, []float64{inf, 1, 2, 3}, []float64{1}, []float64{1, 1}, []float64{1, 1}, 2, 1, "0·∞ in α·a"},
		{1, []float64{1, 2, 3, 4}, []float64{0, 1}, []float64{inf, 1, 1, 1}, []float64{1, 2, 3, 4}, 2, 2, "β·p = 0·∞"},
		{1, []float64{1, 2, 3, 4}, []float64{1, 1}, []float64{1, 1, 1, 1}, []float64{inf, 2, -inf, 4}, 2, 2, "∞ − ∞"},
		{1, []float64{1, 2, 3, 4}, []float64{nan, 1}, []float64{1, 1, 1, 1}, []float64{1, 2, 3, 4}, 2, 2, "NaN β"},
		{-2, []float64{1, 2, 3, 4}, []float64{1, 3}, []float64{1, 1, 1, -1}, []float64{1, 2, inf, 4}, 2, 2, "±∞ term"},
		{inf, []float64{1, -2, 0, 4}, []float64{1}, []float64{1, 1}, []float64{1, 2}, 2, 1, "α = ∞"},
	}
	for _, h := range hand {
		cs = append(cs, newRKCase(r, h.n, h.k, h.alpha, h.a, h.beta, h.p, h.q, h.name))
	}
	{
		const n, k = 129, 5
		a0 := rkSpecialVec(r, n*n, kindMixed, 0.01, false)
		p, q := rkSpecialVec(r, k*n, kindWide, 0.02, true), rkSpecialVec(r, k*n, kindUniform, 0.02, true)
		cs = append(cs, newRKCase(r, n, k, 0.75, a0, rkSpecialVec(r, k, kindUniform, 0.2, true), p, q, "special n=129"))
	}
	forEachPath(t, func(t *testing.T) {
		ch := &checker{t: t}
		for i := range cs {
			if !cs[i].check(t, Impl(), ch) {
				return
			}
		}
	})
}

// TestScaleAddRankKRankOne checks that k = 1 with β = [β] is ScaleAddOuter bit
// for bit on every path (both compute fma(fl(β·p[i]), v[j], fl(α·a))), and
// that k = 0 is Scale.
func TestScaleAddRankKRankOne(t *testing.T) {
	r := rand.New(rand.NewPCG(63, 6))
	forEachPath(t, func(t *testing.T) {
		for _, n := range []int{1, 2, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 129, 300} {
			a0, p, v := genVec(r, n*n, kindWide), genVec(r, n, kindWide), genVec(r, n, kindWide)
			a1, a2 := append([]float64(nil), a0...), append([]float64(nil), a0...)
			ScaleAddRankK(a1, n, 0.75, []float64{-1.5}, p, v, 1)
			ScaleAddOuter(a2, n, 0.75, -1.5, p, v)
			if i := sameBits(a1, a2); i >= 0 && isSIMD() {
				t.Errorf("n=%d: ScaleAddRankK k=1 %v, ScaleAddOuter %v at a[%d]", n, a1[i], a2[i], i)
			}
			copy(a1, a0)
			copy(a2, a0)
			ScaleAddRankK(a1, n, 0.75, nil, nil, nil, 0)
			Scale(0.75, a2)
			if i := sameBits(a1, a2); i >= 0 {
				t.Errorf("n=%d: ScaleAddRankK k=0 %v, Scale %v at a[%d]", n, a1[i], a2[i], i)
			}
		}
	})
}

func TestScaleAddRankKMisuse(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		const n, k = 6, 4
		buf := newGuarded(3, 2*n*n+3*k*n)
		for i := range buf.s {
			buf.s[i] = float64(i%7) - 3
		}
		fresh := func(m int) []float64 { s := make([]float64, m); s[0] = 1; return s }
		beta, p, q := fresh(k), fresh(k*n), fresh(k*n)
		ga := newGuarded(1, n*n)
		a := ga.s
		half := 1 << (strconv.IntSize / 2)

		mustPanic(t, "n<0", func() { ScaleAddRankK(a, -1, 1, beta, p, q, k) })
		mustPanic(t, "k<0", func() { ScaleAddRankK(a, n, 1, beta, p, q, -1) })
		mustPanic(t, "k<0 n=0", func() { ScaleAddRankK(nil, 0, 1, nil, nil, nil, -1) })
		mustPanic(t, "short a", func() { ScaleAddRankK(a[:n*n-1], n, 1, beta, p, q, k) })
		mustPanic(t, "short beta", func() { ScaleAddRankK(a, n, 1, beta[:k-1], p, q, k) })
		mustPanic(t, "short beta n=0", func() { ScaleAddRankK(nil, 0, 1, nil, nil, nil, 2) })
		mustPanic(t, "short p", func() { ScaleAddRankK(a, n, 1, beta, p[:k*n-1], q, k) })
		mustPanic(t, "short q", func() { ScaleAddRankK(a, n, 1, beta, p, q[:k*n-1], k) })
		mustPanic(t, "k·n overflows", func() { ScaleAddRankK(a, n, 1, beta, p, q, math.MaxInt/n+1) })
		mustPanic(t, "k·n wraps to 0", func() { ScaleAddRankK(a, 4, 1, beta, p, q, 1<<(strconv.IntSize-2)) })
		mustPanic(t, "n·n wraps to 0", func() { ScaleAddRankK(nil, half, 1, nil, nil, nil, 0) })
		for i, c := range ga.buf {
			if math.Float64bits(c) != guardBits {
				t.Errorf("misuse wrote a cell %d", i-ga.off)
				break
			}
		}

		// Overlaps: a with p, q or β (partly, inside, or the same memory).
		A := buf.s[:n*n]
		mustPanic(t, "a overlaps p", func() { ScaleAddRankK(A, n, 1, beta, buf.s[n*n-1:], q, k) })
		mustPanic(t, "p inside a", func() { ScaleAddRankK(buf.s[:2*n*n], n, 1, beta, buf.s[n:], q, 1) })
		mustPanic(t, "a overlaps q", func() { ScaleAddRankK(buf.s[n:n+n*n], n, 1, beta, p, buf.s[:k*n], k) })
		mustPanic(t, "a overlaps beta", func() { ScaleAddRankK(A, n, 1, buf.s[n*n-2:], p, q, k) })
		mustPanic(t, "beta inside a", func() { ScaleAddRankK(A, n, 1, buf.s[3:3+k], p, q, k) })
		mustPanic(t, "q is part of a", func() { ScaleAddRankK(A, n, 1, beta, p, A[:k*n], k) })
		for i, c := range buf.buf {
			if math.Float64bits(c) != guardBits && (i < buf.off || i >= buf.off+len(buf.s)) {
				t.Errorf("overlap misuse wrote a guard cell %d", i-buf.off)
				break
			}
		}
		for i, c := range A {
			if c != float64(i%7)-3 {
				t.Errorf("overlap misuse wrote a[%d] = %v", i, c)
				break
			}
		}

		// Allowed: p and q the same slice, β inside p, inputs longer than
		// needed and touching a only past what is used, k = 0 with nil
		// inputs.
		x := make([]float64, k*n+k)
		for i := range x {
			x[i] = 0.5
		}
		b := make([]float64, n*n+1)
		b[n*n] = 1
		ScaleAddRankK(b, n, 1, x[k*n:], x, x, k)         // a[i] = k·0.5³
		ScaleAddRankK(b, n, 1, b[n*n:], x[1:], x[2:], 1) // β past a's n·n elements: + 0.5²
		ScaleAddRankK(b, n, 2, nil, nil, nil, 0)
		want := 2 * (float64(k)*0.125 + 0.25)
		for i, v := range b[:n*n] {
			if v != want {
				t.Errorf("allowed calls: a[%d] = %v, want %v", i, v, want)
				break
			}
		}
	})
}

func TestScaleAddRankKZeroSizes(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		g := newGuarded(3, 0)
		ScaleAddRankK(g.s, 0, 2, []float64{1, 2, 3}, nil, nil, 3)
		ScaleAddRankK(nil, 0, 1, nil, nil, nil, 0)
		ScaleAddRankK(g.s, 0, math.NaN(), nil, nil, nil, 0)
		checkGuards(t, g, "ScaleAddRankK n=0")
		gy := newGuarded(1, 10) // a longer than n·n keeps its tail
		for i := range gy.s {
			gy.s[i] = float64(i)
		}
		ScaleAddRankK(gy.s, 0, 2, nil, nil, nil, 0)
		ScaleAddRankK(gy.s, 2, 2, []float64{1}, []float64{1, 1}, []float64{0.5, 0.25}, 1)
		ScaleAddRankK(gy.s, 3, 0.5, nil, nil, nil, 0)
		checkGuards(t, gy, "ScaleAddRankK tail")
		// n = 2: 2·a + q[j]; then n = 3: the first 9 halved.
		want := []float64{0.25, 1.125, 2.25, 3.125, 2, 2.5, 3, 3.5, 4, 9}
		if i := sameBits(gy.s, want); i >= 0 {
			t.Errorf("a = %v, want %v", gy.s, want)
		}
	})
}

func TestScaleAddRankKNoAllocs(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation")
	}
	r := rand.New(rand.NewPCG(64, 6))
	forEachPath(t, func(t *testing.T) {
		for _, sh := range [][2]int{{1, 1}, {37, 7}, {64, 0}, {300, 40}, {600, 17}} {
			n, k := sh[0], sh[1]
			a, beta := genVec(r, n*n, kindUniform), genVec(r, k, kindUniform)
			p, q := genVec(r, k*n, kindUniform), genVec(r, k*n, kindUniform)
			if allocs := testing.AllocsPerRun(10, func() { ScaleAddRankK(a, n, 0.9, beta, p, q, k) }); allocs != 0 {
				t.Errorf("n=%d k=%d: %v allocations per call, want 0", n, k, allocs)
			}
		}
	})
}
