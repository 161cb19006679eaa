package kernel

// The test suite runs every kernel on every path this CPU has (forEachPath)
// and checks each result against a reference that is more accurate than the
// generic kernels (double-double accumulation, math/big for Norm), within an
// error bound derived from the arithmetic (see the comments at dotAcc.bound,
// elemBound and normBound), never a fixed tolerance.

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// The paths available at start-up. The architecture's init function (in a
// non-test file, so it runs before this one: the go command presents a test
// package's files to the compiler after the package's own) has set the
// flags; the tests change them to run every path and restore them.
var startAVX512, startAVX2, startNEON bool

func init() {
	startAVX512, startAVX2, startNEON = useAVX512, useAVX2, useNEON
}

// pathSpec is one path and the flags that select it.
type pathSpec struct {
	name               string
	avx512, avx2, neon bool
	avail              bool // its flag was set at start-up
}

func allPaths() []pathSpec {
	return []pathSpec{
		{name: "generic", avail: true},
		{name: "avx2", avx2: true, avail: startAVX2},
		{name: "avx512", avx512: true, avx2: true, avail: startAVX512},
		{name: "neon", neon: true, avail: startNEON},
	}
}

// setPath selects p and returns a function that restores the previous flags.
func setPath(p pathSpec) (restore func()) {
	a5, a2, ne := useAVX512, useAVX2, useNEON
	useAVX512, useAVX2, useNEON = p.avx512, p.avx2, p.neon
	return func() { useAVX512, useAVX2, useNEON = a5, a2, ne }
}

// forEachPath runs body as the subtests generic, avx2, avx512 and neon,
// skipping the paths this CPU or build lacks. Not parallel: the flags are
// package state.
func forEachPath(t *testing.T, body func(t *testing.T)) {
	t.Helper()
	for _, p := range allPaths() {
		t.Run(p.name, func(t *testing.T) {
			if !p.avail {
				t.Skipf("path %s not available (CPU, GOARCH or GODEBUG)", p.name)
			}
			t.Cleanup(setPath(p))
			if got := Impl(); got != p.name {
				t.Fatalf("Impl() = %q with the flags of path %q", got, p.name)
			}
			body(t)
		})
	}
}

// eachPath calls f once on every available path, without subtests (for the
// fuzz targets), and restores the flags.
func eachPath(f func(path string)) {
	for _, p := range allPaths() {
		if !p.avail {
			continue
		}
		func() {
			defer setPath(p)() // restored even if f ends the test (FailNow)
			f(p.name)
		}()
	}
}

// onGeneric runs f on the generic path and restores the flags.
func onGeneric(f func()) {
	defer setPath(pathSpec{name: "generic"})()
	f()
}

// isSIMD reports whether the current path is not the generic one.
func isSIMD() bool { return Impl() != "generic" }

func TestImpl(t *testing.T) {
	// At start-up Impl names the widest path available.
	want := "generic"
	switch {
	case startAVX512:
		want = "avx512"
	case startAVX2:
		want = "avx2"
	case startNEON:
		want = "neon"
	}
	if got := Impl(); got != want {
		t.Errorf("Impl() at start-up = %q, want %q", got, want)
	}
	if startAVX512 && !startAVX2 {
		t.Errorf("useAVX512 set without useAVX2")
	}
	if (startAVX2 || startAVX512) && startNEON {
		t.Errorf("both amd64 and arm64 paths set")
	}
	ran := 0
	forEachPath(t, func(t *testing.T) {
		ran++
		name := t.Name()[strings.LastIndexByte(t.Name(), '/')+1:]
		if got := Impl(); got != name {
			t.Errorf("Impl() = %q in subtest %q", got, name)
		}
		if name == "generic" && (useAVX512 || useAVX2 || useNEON) {
			t.Errorf("generic subtest with flags %v %v %v", useAVX512, useAVX2, useNEON)
		}
		if name == "avx2" && (useAVX512 || !useAVX2) {
			t.Errorf("avx2 subtest with useAVX512=%v useAVX2=%v", useAVX512, useAVX2)
		}
	})
	if ran == 0 {
		t.Errorf("no path ran (the generic path is always available)")
	}
	if useAVX512 != startAVX512 || useAVX2 != startAVX2 || useNEON != startNEON {
		t.Errorf("flags not restored after forEachPath")
	}
}

// ---------------------------------------------------------------------------
// Arithmetic constants and bounds.

const (
	u    = 0x1p-53   // unit roundoff of float64 (round to nearest)
	tiny = 0x1p-1074 // smallest positive subnormal; η of the underflow model
)

// gamma returns γ_n = n·u/(1−n·u).
func gamma(n int) float64 {
	nu := float64(n) * u
	return nu / (1 - nu)
}

// dotAcc accumulates a reference for Σ x_i·y_i by Dot2 (Ogita, Rump and
// Oishi 2005): each product is split exactly into p + e with TwoProd (e by
// math.FMA) and the p are summed with TwoSum, the errors in a second word.
// Its result satisfies |ref − s| ≤ u·|s| + γ_n²·S + n·2⁻¹⁰⁷⁴, S = Σ|x_i·y_i|
// (the last term: TwoProd is not exact when a product underflows).
//
// It also tracks the IEEE class of the exact result: any NaN product, or
// products +Inf and −Inf, make it NaN; otherwise an infinite product makes it
// that infinity. Finite products that overflow are a bug of the test (their
// sum would depend on the order), so add panics on them.
type dotAcc struct {
	hi, lo          float64
	abs             float64 // Σ|fl(x_i·y_i)| rounded upwards in bound
	n               int
	nan, pinf, ninf bool
}

func (d *dotAcc) add(x, y float64) {
	d.n++
	p := float64(x * y) // float64(): no fusion (Go fuses on arm64)
	switch {
	case math.IsNaN(p):
		d.nan = true
		return
	case math.IsInf(p, 0):
		if !math.IsInf(x, 0) && !math.IsInf(y, 0) {
			panic(fmt.Sprintf("test bug: finite product %g·%g overflows", x, y))
		}
		if p > 0 {
			d.pinf = true
		} else {
			d.ninf = true
		}
		return
	}
	e := math.FMA(x, y, -p)
	s := d.hi + p
	bp := s - d.hi
	q := (d.hi - (s - bp)) + (p - bp)
	d.hi = s
	d.lo += q + e
	d.abs += math.Abs(p)
	if math.IsInf(d.hi, 0) || math.IsInf(d.abs, 0) {
		panic("test bug: finite sum overflows")
	}
}

// addVec is add for every pair of a and b (len(b) ≥ len(a)), with the state
// in local variables (the hot loop of the references).
func (d *dotAcc) addVec(a, b []float64) {
	hi, lo, abs := d.hi, d.lo, d.abs
	b = b[:len(a)]
	for i, x := range a {
		y := b[i]
		p := float64(x * y)
		if p-p != 0 { // NaN or ±Inf: the general path for the rest
			d.hi, d.lo, d.abs, d.n = hi, lo, abs, d.n+i
			for j := i; j < len(a); j++ {
				d.add(a[j], b[j])
			}
			return
		}
		e := math.FMA(x, y, -p)
		s := hi + p
		bp := s - hi
		q := (hi - (s - bp)) + (p - bp)
		hi = s
		lo += q + e
		abs += math.Abs(p)
	}
	if math.IsInf(hi, 0) || math.IsInf(abs, 0) {
		panic("test bug: finite sum overflows")
	}
	d.hi, d.lo, d.abs, d.n = hi, lo, abs, d.n+len(a)
}

// result returns the reference value and whether it is a special (NaN, ±Inf).
func (d *dotAcc) result() (float64, bool) {
	switch {
	case d.nan || d.pinf && d.ninf:
		return math.NaN(), true
	case d.pinf:
		return math.Inf(1), true
	case d.ninf:
		return math.Inf(-1), true
	}
	return d.hi + d.lo, false
}

// bound is the allowed |got − ref| for a dot-type result.
//
// Any summation order of n products, with or without FMA, satisfies
// |got − s| ≤ γ_n·S + n·2⁻¹⁰⁷⁵ (Higham, Accuracy and Stability, §3.1, with
// the underflow model fl(x·y) = x·y·(1+δ) + η, |η| ≤ 2⁻¹⁰⁷⁵, sums of
// subnormals being exact): each product passes through at most n roundings.
// With the reference's own error (dotAcc) that is at most
// (γ_n + u + γ_n²)·S + n·2⁻¹⁰⁷⁴ ≤ 2·γ_n·S·(1+2(n+1)u) + n·2⁻¹⁰⁷⁴, where the
// factor (1+2(n+1)u) also covers the rounding of S itself (abs sums n
// rounded |products|). The absolute term is doubled for safety against the
// underflow cases of the reference (still an O(n·2⁻¹⁰⁷⁴) term).
func (d *dotAcc) bound() float64 {
	n := d.n
	return 2*gamma(n)*d.abs*(1+2*float64(n+1)*u) + 2*float64(n)*tiny
}

// twoProdSum returns ≈ a·b + c·d for finite products, by TwoProd and TwoSum:
// the error is at most u·|E| + 3u²·A + 2⁻¹⁰⁷⁴ (E the exact value, A =
// |a·b| + |c·d|, the last term for products that underflow).
func twoProdSum(a, b, c, d float64) float64 {
	// The explicit float64 conversions round the products and keep Go from
	// fusing them into the later additions and subtractions (it does on
	// arm64), which would break the error-free transformations.
	p1 := float64(a * b)
	e1 := math.FMA(a, b, -p1)
	p2 := float64(c * d)
	e2 := math.FMA(c, d, -p2)
	s := p1 + p2
	bp := s - p1
	q := (p1 - (s - bp)) + (p2 - bp)
	return s + (q + (e1 + e2))
}

// elemRef returns the reference of an elementwise result a·b + c·d (AxpBy:
// α·x + β·y; ScaleAddOuter: α·a + s·v with s = fl(β·p), the product the
// kernels define), A = |a·b| + |c·d| and whether the exact IEEE result is a
// special: when a product is NaN or infinite, fl(a·b) + fl(c·d) is exactly
// the IEEE value of the fused or unfused expression.
func elemRef(a, b, c, d float64) (ref, A float64, special bool) {
	p1, p2 := float64(a*b), float64(c*d)
	if math.IsNaN(p1) || math.IsNaN(p2) || math.IsInf(p1, 0) || math.IsInf(p2, 0) {
		for _, z := range [][2]float64{{a, b}, {c, d}} {
			if math.IsInf(z[0]*z[1], 0) && !math.IsInf(z[0], 0) && !math.IsInf(z[1], 0) {
				panic(fmt.Sprintf("test bug: finite product %g·%g overflows", z[0], z[1]))
			}
		}
		return p1 + p2, 0, true
	}
	return twoProdSum(a, b, c, d), math.Abs(p1) + math.Abs(p2), false
}

// elemBound is the allowed |got − ref| of an elementwise result.
//
// The kernels compute t = fl(c·d) (AxpBy: β·y; ScaleAddOuter: α·a) and then
// fma(a, b, t) (SIMD) or fl(fl(a·b) + t) (generic; Go may also fuse either
// product on arm64). With the underflow model each rounded product is
// x·y·(1+δ) + η, |δ| ≤ u, |η| ≤ 2⁻¹⁰⁷⁵, and the sum (1+δ):
//
//	|got − E| ≤ u·|a·b| + u·|c·d| + 2⁻¹⁰⁷⁴ + u·(A + u·A + 2⁻¹⁰⁷⁴) ≤ (2u+u²)·A + 2⁻¹⁰⁷⁴·(1+u).
//
// The reference (twoProdSum) adds u·A + 3u²·A + 2⁻¹⁰⁷⁴, so
// |got − ref| ≤ (3u + 4u²)·A + 2⁻¹⁰⁷⁴·(2+u); A itself is computed with
// relative error ≤ 2u, covered by taking (3u + 16u²)·A and 2⁻¹⁰⁷³ + 2⁻¹⁰⁷⁴.
func elemBound(A float64) float64 {
	return (3*u+16*u*u)*A + 3*tiny
}

// normRef returns ‖x‖ correctly rounded (up to a 2⁻³⁰⁰ relative error of the
// big.Float sum, then the rounding to float64), and whether it is special:
// NaN if any element is NaN, else +Inf if any is infinite (√(xᵀx) in IEEE
// arithmetic).
func normRef(x []float64) (float64, bool) {
	inf := false
	for _, xi := range x {
		if math.IsNaN(xi) {
			return math.NaN(), true
		}
		if math.IsInf(xi, 0) {
			inf = true
		}
	}
	if inf {
		return math.Inf(1), true
	}
	const prec = 300
	sum := new(big.Float).SetPrec(prec)
	sq := new(big.Float).SetPrec(prec)
	for _, xi := range x {
		b := new(big.Float).SetFloat64(xi)
		sq.Mul(b, b)
		sum.Add(sum, sq)
	}
	r, _ := new(big.Float).SetPrec(prec).Sqrt(sum).Float64()
	return r, false
}

// normBound is the allowed |got − ref| of Norm for a vector of length n with
// reference norm ref.
//
// The fast path computes ŝ = s·(1+θ), |θ| ≤ γ_n (all terms are ≥ 0 so S = s;
// underflow of squares is negligible against s > 2⁻⁵⁰⁰), then √ŝ rounded:
// relative error ≤ γ_n/2 + u + O(u²). The fallback normScaled (dnrm2)
// multiplies the running ssq by at most five rounded factors per element
// (the ratio twice, two products, the sum) and each new term by three, so
// ssq has relative error ≤ γ_{5n+4}; √ halves it, then √ and the product by
// scale each add u. With the reference's rounding (u·ref, 2⁻¹⁰⁷⁵ for a
// subnormal result):
//
//	|got − ref| ≤ ref·(γ_{5n+4}/2 + 3u + 2u²) + 2⁻¹⁰⁷³.
func normBound(n int, ref float64) float64 {
	return ref*(gamma(5*n+4)/2+3*u+2*u*u) + 2*tiny
}

// ---------------------------------------------------------------------------
// Inputs.

// guardBits is a quiet NaN with a distinctive payload, written around every
// output; the kernels must leave it bit for bit.
const guardBits = 0x7ff8dead_beef0bad

var guard = math.Float64frombits(guardBits)

// guarded is a slice of length n at offset off in a buffer that has guard
// cells before and after it.
type guarded struct {
	buf    []float64
	s      []float64
	off, n int
}

const guardTail = 9

func newGuarded(off, n int) guarded {
	buf := make([]float64, off+n+guardTail)
	for i := range buf {
		buf[i] = guard
	}
	return guarded{buf: buf, s: buf[off : off+n : off+n], off: off, n: n}
}

// placed returns a copy of v at offset off in a larger buffer (an unaligned
// input), filled with guards around it.
func placed(off int, v []float64) []float64 {
	g := newGuarded(off, len(v))
	copy(g.s, v)
	return g.s
}

// guardsIntact reports the first guard cell that changed, or -1.
func (g guarded) guardsIntact() int {
	for i := 0; i < g.off; i++ {
		if math.Float64bits(g.buf[i]) != guardBits {
			return i - g.off
		}
	}
	for i := g.off + g.n; i < len(g.buf); i++ {
		if math.Float64bits(g.buf[i]) != guardBits {
			return i - g.off
		}
	}
	return math.MinInt
}

// checkGuards fails the test if a guard cell around g changed.
func checkGuards(t *testing.T, g guarded, what string) bool {
	t.Helper()
	if i := g.guardsIntact(); i != math.MinInt {
		t.Errorf("%s: wrote the cell at index %d outside the output [0,%d): %#x",
			what, i, g.n, math.Float64bits(g.buf[g.off+i]))
		return false
	}
	return true
}

// sameBits reports the first index where a and b differ in bits, or -1.
func sameBits(a, b []float64) int {
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return i
		}
	}
	return -1
}

// sameResults is sameBits for results: any two NaNs are equal (their
// payloads are not specified).
func sameResults(a, b []float64) int {
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return i
		}
	}
	return -1
}

// Value kinds of the generated inputs.
const (
	kindUniform = iota // [-1, 1)
	kindWide           // ±[1,2)·2^[-40,40]
	kindInt            // small integers (exact arithmetic)
	kindTiny           // products underflow: ±2^[-575,-515] and subnormals
	kindHuge           // ±[1,2)·2^[440,500]: products up to 2^1002, no overflow for n ≤ 300
	kindMixed          // each element of any of the kinds above
	numKinds
)

var kindNames = [...]string{"uniform", "wide", "int", "tiny", "huge", "mixed"}

func genValue(r *rand.Rand, kind int) float64 {
	sign := 1.0
	if r.IntN(2) == 0 {
		sign = -1
	}
	switch kind {
	case kindUniform:
		return 2*r.Float64() - 1
	case kindWide:
		return sign * math.Ldexp(1+r.Float64(), r.IntN(81)-40)
	case kindInt:
		return float64(r.IntN(21) - 10)
	case kindTiny:
		if r.IntN(4) == 0 {
			return sign * math.Float64frombits(r.Uint64N(1<<52)) // subnormal
		}
		return sign * math.Ldexp(1+r.Float64(), r.IntN(61)-575)
	case kindHuge:
		return sign * math.Ldexp(1+r.Float64(), r.IntN(61)+440)
	case kindMixed:
		return genValue(r, r.IntN(kindMixed))
	}
	panic("bad kind")
}

func genVec(r *rand.Rand, n, kind int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = genValue(r, kind)
	}
	return v
}

// specials are the special values the special-value tests sprinkle in. The
// huge ones are 2^505·[1,2): a product of two is below 2^1012, so the sum of
// up to 300 of them does not overflow.
var specials = []float64{
	math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1),
	0x1p-1074, -0x1p-1074, 0x1p-1060, -0x0.fffffffffffffp-1022, 0x1p-1022,
	0x1.8p505, -0x1.fp505, math.MaxFloat64 / 0x1p520,
}

// genSpecialVec returns n values of the kind with a fraction frac of them
// replaced by specials.
func genSpecialVec(r *rand.Rand, n, kind int, frac float64) []float64 {
	v := genVec(r, n, kind)
	for i := range v {
		if r.Float64() < frac {
			v[i] = specials[r.IntN(len(specials))]
		}
	}
	return v
}

// Sizes: every n up to past the widest unroll, then a spread.
func vecSizes() []int {
	var ns []int
	for n := 0; n <= 70; n++ {
		ns = append(ns, n)
	}
	return append(ns, 71, 95, 100, 127, 128, 129, 191, 255, 256, 257, 300, 513, 1000, 1031)
}

func matSizes() []int {
	var ns []int
	for n := 0; n <= 70; n++ {
		ns = append(ns, n)
	}
	return append(ns, 100, 127, 128, 129, 255, 256, 257, 300)
}

// ---------------------------------------------------------------------------
// Checking.

// checker compares results and limits the number of reported failures.
type checker struct {
	t    *testing.T
	fail int
}

const maxFailures = 12

// value checks one result: got against the reference (class if special,
// bound otherwise) and, on a SIMD path, against the generic result gen
// within twice the bound. where describes the case. It returns false after
// too many failures.
func (c *checker) value(where func() string, got, gen, ref float64, special bool, bound float64) bool {
	c.t.Helper()
	if c.fail >= maxFailures {
		return false
	}
	ok := true
	var msg string
	switch {
	case special && math.IsNaN(ref):
		if !math.IsNaN(got) {
			ok, msg = false, fmt.Sprintf("got %v, want NaN", got)
		}
	case special:
		if got != ref {
			ok, msg = false, fmt.Sprintf("got %v, want %v", got, ref)
		}
	default:
		if d := math.Abs(got - ref); !(d <= bound) {
			ok, msg = false, fmt.Sprintf("got %v (%#x), ref %v (%#x): |err| = %.3g > bound %.3g (%.2f×)",
				got, math.Float64bits(got), ref, math.Float64bits(ref), d, bound, d/bound)
		} else if isSIMD() {
			if d := math.Abs(got - gen); !(d <= 2*bound) {
				ok, msg = false, fmt.Sprintf("got %v, generic %v: |diff| = %.3g > 2·bound %.3g (ref %v)",
					got, gen, d, 2*bound, ref)
			}
		}
	}
	if !ok {
		c.fail++
		c.t.Errorf("%s: %s", where(), msg)
		if c.fail == maxFailures {
			c.t.Errorf("too many failures, stopping")
		}
	}
	return c.fail < maxFailures
}

func (c *checker) errorf(format string, args ...any) bool {
	c.t.Helper()
	if c.fail < maxFailures {
		c.t.Errorf(format, args...)
	}
	c.fail++
	return c.fail < maxFailures
}

// ---------------------------------------------------------------------------
// Vector kernels: Dot, Norm, AxpBy, Axpy, Scale.

type vecCase struct {
	n, offX, offY, kind int
	x, y                []float64 // placed at offX, offY
	dot                 float64   // reference
	dotSpecial          bool
	dotBound            float64
	dotGen              float64
	desc                string
}

func makeVecCases(seed uint64, special bool) []vecCase {
	r := rand.New(rand.NewPCG(seed, 1))
	var cs []vecCase
	i := 0
	for _, n := range vecSizes() {
		reps := 2
		if n > 70 {
			reps = 1
		}
		for rep := 0; rep < reps; rep++ {
			kind := i % numKinds
			i++
			c := vecCase{n: n, offX: r.IntN(8), offY: r.IntN(8), kind: kind}
			var x, y []float64
			if special {
				frac := []float64{0.02, 0.1, 0.3}[r.IntN(3)]
				x = genSpecialVec(r, n, kind, frac)
				y = genSpecialVec(r, n, kind, frac)
			} else {
				x, y = genVec(r, n, kind), genVec(r, n, kind)
			}
			c.x, c.y = placed(c.offX, x), placed(c.offY, y)
			var d dotAcc
			d.addVec(x, y)
			c.dot, c.dotSpecial = d.result()
			c.dotBound = d.bound()
			onGeneric(func() { c.dotGen = Dot(c.x, c.y) })
			c.desc = fmt.Sprintf("n=%d offx=%d offy=%d kind=%s", n, c.offX, c.offY, kindNames[kind])
			cs = append(cs, c)
		}
	}
	return cs
}

func TestDot(t *testing.T) {
	for _, special := range []bool{false, true} {
		cs := makeVecCases(1, special)
		t.Run(fmt.Sprintf("special=%v", special), func(t *testing.T) {
			forEachPath(t, func(t *testing.T) {
				c := &checker{t: t}
				for _, tc := range cs {
					x0, y0 := append([]float64(nil), tc.x...), append([]float64(nil), tc.y...)
					got := Dot(tc.x, tc.y)
					if !c.value(func() string { return "Dot " + tc.desc }, got, tc.dotGen, tc.dot, tc.dotSpecial, tc.dotBound) {
						return
					}
					if got2 := Dot(tc.x, tc.y); math.Float64bits(got2) != math.Float64bits(got) && !(math.IsNaN(got) && math.IsNaN(got2)) {
						c.errorf("Dot %s: not deterministic: %v then %v", tc.desc, got, got2)
					}
					// The same values at other offsets give the same bits.
					xs, ys := placed((tc.offX+3)%8, tc.x), placed((tc.offY+5)%8, tc.y)
					if got3 := Dot(xs, ys); math.Float64bits(got3) != math.Float64bits(got) && !(math.IsNaN(got) && math.IsNaN(got3)) {
						c.errorf("Dot %s: result depends on the alignment: %v at offsets %d,%d, %v at %d,%d",
							tc.desc, got, tc.offX, tc.offY, got3, (tc.offX+3)%8, (tc.offY+5)%8)
					}
					// Dot is symmetric in value (the bound is the same).
					if got4 := Dot(tc.y, tc.x); !tc.dotSpecial {
						c.value(func() string { return "Dot(y, x) " + tc.desc }, got4, tc.dotGen, tc.dot, false, tc.dotBound)
					}
					if i := sameBits(x0, tc.x); i >= 0 {
						c.errorf("Dot %s: modified x[%d]", tc.desc, i)
					}
					if i := sameBits(y0, tc.y); i >= 0 {
						c.errorf("Dot %s: modified y[%d]", tc.desc, i)
					}
				}
			})
		})
	}
}

func TestNorm(t *testing.T) {
	type normCase struct {
		x        []float64
		ref, gen float64
		special  bool
		desc     string
	}
	var cs []normCase
	add := func(x []float64, off int, desc string) {
		xs := placed(off, x)
		c := normCase{x: xs, desc: fmt.Sprintf("%s n=%d off=%d", desc, len(x), off)}
		c.ref, c.special = normRef(x)
		onGeneric(func() { c.gen = Norm(xs) })
		cs = append(cs, c)
	}
	r := rand.New(rand.NewPCG(2, 2))
	for _, n := range vecSizes() {
		for kind := range numKinds {
			if n > 70 && kind%2 == 1 {
				continue
			}
			add(genVec(r, n, kind), r.IntN(8), kindNames[kind])
		}
		add(genSpecialVec(r, n, kindWide, 0.05), r.IntN(8), "specials")
		// Both sides of the fast path's range [2^-500, 2^1000] of xᵀx.
		for _, e := range []int{-800, -540, -510, -250, 495, 500, 505, 700, 1000, 1014} {
			x := genVec(r, n, kindUniform)
			for i := range x {
				x[i] = math.Ldexp(x[i], e)
			}
			add(x, r.IntN(8), fmt.Sprintf("scaled 2^%d", e))
		}
	}
	// Order of NaN and Inf does not matter.
	add([]float64{math.Inf(1), math.NaN()}, 0, "Inf,NaN")
	add([]float64{math.NaN(), math.Inf(-1)}, 1, "NaN,-Inf")
	add([]float64{1, math.Inf(-1), 3}, 0, "-Inf")
	add([]float64{math.MaxFloat64 / 2, -math.MaxFloat64 / 2}, 0, "max/2")
	add([]float64{math.MaxFloat64, 0, 1}, 0, "max")
	add([]float64{3, 4}, 0, "3,4")
	add([]float64{0x1p-1074, 0x1p-1074}, 0, "2 smallest subnormals")
	add([]float64{0, math.Copysign(0, -1)}, 0, "zeros")
	forEachPath(t, func(t *testing.T) {
		c := &checker{t: t}
		for _, tc := range cs {
			got := Norm(tc.x)
			if !c.value(func() string { return "Norm " + tc.desc }, got, tc.gen, tc.ref, tc.special, normBound(len(tc.x), tc.ref)) {
				return
			}
			if !tc.special && (got < 0 || math.IsInf(got, 0)) {
				c.errorf("Norm %s = %v, want finite ≥ 0", tc.desc, got)
			}
			if got2 := Norm(tc.x); math.Float64bits(got2) != math.Float64bits(got) && !(math.IsNaN(got) && math.IsNaN(got2)) {
				c.errorf("Norm %s: not deterministic: %v then %v", tc.desc, got, got2)
			}
		}
	})
}

// scalarPairs are the (α, β) the elementwise tests use.
var scalarPairs = [][2]float64{
	{1, 1}, {0.5, -2}, {0, 1}, {1, 0}, {-1, 0.1}, {0, 0}, {3, 1e-300},
	{-0.3, 0.7}, {1e-310, 2}, {7.25, -1},
}

func TestAxpBy(t *testing.T) {
	type axCase struct {
		n, offX, offY, kind int
		alpha, beta         float64
		x, y                []float64 // inputs (y's initial value), x placed
		ref, A              []float64
		spec                []bool
		gen                 []float64
		inPlace, axpy       bool
		desc                string
	}
	r := rand.New(rand.NewPCG(3, 3))
	var cs []axCase
	i := 0
	for _, special := range []bool{false, true} {
		for _, n := range vecSizes() {
			for rep := 0; rep < 3; rep++ {
				if n > 70 && rep > 0 {
					continue
				}
				kind := i % numKinds
				ab := scalarPairs[i%len(scalarPairs)]
				i++
				c := axCase{n: n, offX: r.IntN(8), offY: r.IntN(8), kind: kind,
					alpha: ab[0], beta: ab[1], inPlace: rep == 1, axpy: rep == 2}
				if kind == kindHuge && math.Abs(c.alpha) > 8 {
					c.alpha = 0.5 // keep α·x finite
				}
				var x, y []float64
				if special {
					x, y = genSpecialVec(r, n, kind, 0.1), genSpecialVec(r, n, kind, 0.1)
					if rep == 0 && n%5 == 0 {
						c.alpha, c.beta = specials[r.IntN(len(specials)-3)], specials[r.IntN(len(specials)-3)]
					}
				} else {
					x, y = genVec(r, n, kind), genVec(r, n, kind)
				}
				if c.axpy {
					c.beta = 1
				}
				if c.inPlace {
					y = x
				}
				c.x, c.y = placed(c.offX, x), y
				c.ref, c.A, c.spec = make([]float64, n), make([]float64, n), make([]bool, n)
				for j := range n {
					c.ref[j], c.A[j], c.spec[j] = elemRef(c.alpha, x[j], c.beta, y[j])
				}
				c.gen = append([]float64(nil), y...)
				onGeneric(func() {
					if c.inPlace {
						AxpBy(c.alpha, c.gen, c.beta, c.gen)
					} else {
						AxpBy(c.alpha, c.x, c.beta, c.gen)
					}
				})
				c.desc = fmt.Sprintf("n=%d offx=%d offy=%d kind=%s α=%v β=%v inplace=%v axpy=%v special=%v",
					n, c.offX, c.offY, kindNames[kind], c.alpha, c.beta, c.inPlace, c.axpy, special)
				cs = append(cs, c)
			}
		}
	}
	forEachPath(t, func(t *testing.T) {
		c := &checker{t: t}
		for _, tc := range cs {
			var got []float64
			g := newGuarded(tc.offY, tc.n)
			x0 := append([]float64(nil), tc.x...)
			if tc.inPlace {
				g = newGuarded(tc.offX, tc.n)
				copy(g.s, tc.x)
				if tc.axpy {
					Axpy(tc.alpha, g.s, g.s)
				} else {
					AxpBy(tc.alpha, g.s, tc.beta, g.s)
				}
			} else {
				copy(g.s, tc.y)
				if tc.axpy {
					Axpy(tc.alpha, tc.x, g.s)
				} else {
					AxpBy(tc.alpha, tc.x, tc.beta, g.s)
				}
				if i := sameBits(x0, tc.x); i >= 0 {
					c.errorf("AxpBy %s: modified x[%d]", tc.desc, i)
				}
			}
			got = g.s
			if !checkGuards(t, g, "AxpBy "+tc.desc) {
				continue
			}
			for j := range got {
				if !c.value(func() string { return fmt.Sprintf("AxpBy %s: y[%d] (x=%v y=%v)", tc.desc, j, x0[j], tc.y[j]) },
					got[j], tc.gen[j], tc.ref[j], tc.spec[j], elemBound(tc.A[j])) {
					return
				}
			}
			// Deterministic, also at another offset.
			g2 := newGuarded((tc.offY+3)%8, tc.n)
			copy(g2.s, tc.y)
			xs := placed((tc.offX+5)%8, tc.x)
			if tc.inPlace {
				copy(g2.s, tc.x)
				xs = g2.s
			}
			AxpBy(tc.alpha, xs, tc.beta, g2.s)
			if i := sameResults(got, g2.s); i >= 0 {
				c.errorf("AxpBy %s: not deterministic (or depends on alignment) at %d: %v then %v", tc.desc, i, got[i], g2.s[i])
			}
			if tc.inPlace {
				continue
			}
			// AxpByTo: AxpBy's bits into a third slice, y unchanged, also
			// at other offsets; and into x itself.
			g3 := newGuarded((tc.offY+1)%8, tc.n)
			ys := placed((tc.offY+6)%8, tc.y)
			AxpByTo(g3.s, tc.alpha, tc.x, tc.beta, ys)
			if !checkGuards(t, g3, "AxpByTo "+tc.desc) {
				continue
			}
			if i := sameResults(got, g3.s); i >= 0 {
				c.errorf("AxpByTo %s: dst[%d] = %v, AxpBy gives %v", tc.desc, i, g3.s[i], got[i])
			}
			if i := sameBits(tc.y, ys); i >= 0 {
				c.errorf("AxpByTo %s: modified y[%d]", tc.desc, i)
			}
			if i := sameBits(x0, tc.x); i >= 0 {
				c.errorf("AxpByTo %s: modified x[%d]", tc.desc, i)
			}
			g4 := newGuarded(tc.offX, tc.n)
			copy(g4.s, tc.x)
			AxpByTo(g4.s, tc.alpha, g4.s, tc.beta, ys)
			if checkGuards(t, g4, "AxpByTo into x "+tc.desc) {
				if i := sameResults(got, g4.s); i >= 0 {
					c.errorf("AxpByTo into x %s: dst[%d] = %v, AxpBy gives %v", tc.desc, i, g4.s[i], got[i])
				}
			}
		}
	})
}

func TestScale(t *testing.T) {
	alphas := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 3, 0x1p-1074, 0x1p-1000, 0x1p1000,
		-0x1.5p-600, math.NaN(), math.Inf(1), math.Inf(-1), 1e300}
	type scCase struct {
		alpha float64
		x     []float64
		off   int
		desc  string
	}
	r := rand.New(rand.NewPCG(4, 4))
	var cs []scCase
	i := 0
	for _, n := range vecSizes() {
		for rep := 0; rep < 3; rep++ {
			if n > 70 && rep > 0 {
				continue
			}
			kind := i % numKinds
			alpha := alphas[i%len(alphas)]
			i++
			x := genSpecialVec(r, n, kind, []float64{0, 0.05, 0.3}[rep])
			off := r.IntN(8)
			cs = append(cs, scCase{alpha, x, off, fmt.Sprintf("n=%d off=%d kind=%s α=%v", n, off, kindNames[kind], alpha)})
		}
	}
	forEachPath(t, func(t *testing.T) {
		c := &checker{t: t}
		for _, tc := range cs {
			g := newGuarded(tc.off, len(tc.x))
			copy(g.s, tc.x)
			Scale(tc.alpha, g.s)
			checkGuards(t, g, "Scale "+tc.desc)
			// Exactly α·x, one correctly rounded product, bit for bit
			// (NaN payloads are not compared).
			for j, xj := range tc.x {
				want := tc.alpha * xj
				got := g.s[j]
				if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
					if !c.errorf("Scale %s: x[%d] = %v·%v = %v (%#x), want %v (%#x)",
						tc.desc, j, tc.alpha, xj, got, math.Float64bits(got), want, math.Float64bits(want)) {
						return
					}
				}
			}
		}
	})
}

// ---------------------------------------------------------------------------
// Matrix kernels: MulVecs, MulVec, MulVecTrans, ScaleAddOuter, WeightedSum.

// dotResults holds the references of a block of dot-type outputs.
type dotResults struct {
	ref, bnd []float64
	spec     []bool
}

func newDotResults(m int) dotResults {
	return dotResults{make([]float64, m), make([]float64, m), make([]bool, m)}
}

func (d dotResults) set(i int, acc *dotAcc) {
	d.ref[i], d.spec[i] = acc.result()
	d.bnd[i] = acc.bound()
}

type mvCase struct {
	n, k, offA, offX, offY int
	a, x                   []float64 // inputs, placed at offA, offX
	a0, x0                 []float64 // their values, to check they are not modified
	want                   dotResults
	gen                    []float64 // the generic result
	desc                   string
}

// mulVecsShapes: all k ≤ 40 for small n, a spread for larger n.
func mulVecsShapes() [][2]int {
	var s [][2]int
	for n := 0; n <= 70; n++ {
		if n <= 16 {
			for k := 0; k <= 40; k++ {
				s = append(s, [2]int{n, k})
			}
			continue
		}
		for _, k := range []int{1, 2, 3, 5, 6, 7, 13} {
			s = append(s, [2]int{n, k})
		}
	}
	s = append(s, [2]int{33, 40}, [2]int{64, 40}, [2]int{67, 19}, [2]int{129, 13}, [2]int{64, 16}, [2]int{71, 16}, [2]int{65, 14})
	for _, n := range []int{100, 127, 128, 129, 255} {
		for _, k := range []int{1, 6, 7} {
			s = append(s, [2]int{n, k})
		}
	}
	// From n = 256 the AVX-512 path runs column panels for k ≥ 8
	// (panelMinN, panelMinK) in tiles of 8 rows and blocks of 3, 2 or 1
	// registers of 8 vectors: cover every row remainder (n mod 8 = 0, 1, 3,
	// 4, 5, 7), every split of the registers (k = 8: 1; 9–16: 2; 17–24: 3;
	// 25–32: 6-row tiles of 4; 33–40: 3+2; 41–48: 3+3; 49–56: 3+2+2; 57–64:
	// 6-row tiles of 4+4) and every count of vectors in the last register
	// (k mod 8), which the sums add to y 8 at a time.
	for _, n := range []int{256, 257, 259, 261, 263, 300} {
		for _, k := range []int{1, 3, 7, 8, 9, 10, 14, 15, 16, 17, 24, 25, 26, 27, 30, 31, 32, 33, 42, 47, 52, 57, 63} {
			s = append(s, [2]int{n, k})
		}
	}
	s = append(s, [2]int{385, 11}, [2]int{515, 17})
	// From n = 768 the AVX2 path (without AVX-512) runs column panels for
	// k ≥ 4 (avx2PanelMinN, avx2PanelMinK) in tiles of 4 rows and blocks of 3, 2
	// or 1 registers of 4 vectors: every row remainder (n mod 4), every
	// split of the registers (k = 4: 1; 5–8: 2; 9–12: 3; 13–16: 2+2;
	// 17–20: 3+2; 21–24: 3+3; 25–28: 3+2+2) and every count of vectors in
	// the last register (k mod 4).
	s = append(s, [2]int{768, 4}, [2]int{769, 13}, [2]int{770, 28}, [2]int{771, 6})
	if !testing.Short() && startAVX2 { // the rest only where that path runs
		for _, k := range []int{5, 7, 8, 9, 10, 11, 12, 14, 15, 16, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27} {
			s = append(s, [2]int{768 + k%4, k})
		}
	}
	if !testing.Short() {
		// More than 128 tiles in a panel (panelTiles), several panels, and
		// more vectors than one pass packs (panelMaxLanes), whose two batches
		// tile the rows differently (6 and 8 rows: 258 and 256 of 262).
		s = append(s, [2]int{1031, 4}, [2]int{1031, 9}, [2]int{1031, 28}, [2]int{262, 260})
	}
	return s
}

func makeMulVecsCases(seed uint64, shapes [][2]int, special bool) []mvCase {
	r := rand.New(rand.NewPCG(seed, 5))
	cs := make([]mvCase, 0, len(shapes))
	for i, sh := range shapes {
		n, k := sh[0], sh[1]
		kindA, kindX := i%numKinds, (i/numKinds)%numKinds
		if kindA == kindHuge || kindX == kindHuge {
			kindA, kindX = kindHuge, kindUniform // huge·huge·n could overflow
		}
		var a, x []float64
		if special {
			a, x = genSpecialVec(r, n*n, kindA, 0.03), genSpecialVec(r, k*n, kindX, 0.03)
		} else {
			a, x = genVec(r, n*n, kindA), genVec(r, k*n, kindX)
		}
		c := mvCase{n: n, k: k, offA: r.IntN(8), offX: r.IntN(8), offY: r.IntN(8), a0: a, x0: x}
		c.a, c.x = placed(c.offA, a), placed(c.offX, x)
		c.want = newDotResults(k * n)
		for v := range k {
			for row := range n {
				var d dotAcc
				d.addVec(a[row*n:row*n+n], x[v*n:v*n+n])
				c.want.set(v*n+row, &d)
			}
		}
		c.gen = make([]float64, k*n)
		onGeneric(func() { MulVecs(c.gen, c.a, n, c.x, k) })
		c.desc = fmt.Sprintf("n=%d k=%d offa=%d offx=%d offy=%d kinds=%s,%s special=%v",
			n, k, c.offA, c.offX, c.offY, kindNames[kindA], kindNames[kindX], special)
		cs = append(cs, c)
	}
	return cs
}

func specialMatShapes() [][2]int {
	var s [][2]int
	for n := 1; n <= 40; n++ {
		for _, k := range []int{1, 3, 6, 7} {
			s = append(s, [2]int{n, k})
		}
	}
	// The AVX-512 column panels (n ≥ 256) accumulate partial sums in y.
	return append(s, [2]int{129, 7}, [2]int{256, 4}, [2]int{257, 9}, [2]int{300, 6}, [2]int{768, 5}, [2]int{771, 9})
}

func TestMulVecs(t *testing.T) {
	for _, special := range []bool{false, true} {
		shapes := mulVecsShapes()
		if special {
			shapes = specialMatShapes()
		}
		cs := makeMulVecsCases(6, shapes, special)
		t.Run(fmt.Sprintf("special=%v", special), func(t *testing.T) {
			forEachPath(t, func(t *testing.T) {
				c := &checker{t: t}
				for _, tc := range cs {
					n, k := tc.n, tc.k
					g := newGuarded(tc.offY, k*n)
					MulVecs(g.s, tc.a, n, tc.x, k)
					checkGuards(t, g, "MulVecs "+tc.desc)
					if i := sameBits(tc.a0, tc.a); i >= 0 {
						c.errorf("MulVecs %s: modified a[%d]", tc.desc, i)
					}
					if i := sameBits(tc.x0, tc.x); i >= 0 {
						c.errorf("MulVecs %s: modified x[%d]", tc.desc, i)
					}
					for j, got := range g.s {
						if !c.value(func() string { return fmt.Sprintf("MulVecs %s: y[%d] (vector %d, row %d)", tc.desc, j, j/n, j%n) },
							got, tc.gen[j], tc.want.ref[j], tc.want.spec[j], tc.want.bnd[j]) {
							return
						}
					}
					// Deterministic, also with every slice at another offset
					// and the scratch space passed in (MulVecsWork, its
					// contents garbage, its guard cells checked).
					g2 := newGuarded((tc.offY+3)%8, k*n)
					w := newWork(tc.offX, n, k)
					MulVecsWork(g2.s, placed((tc.offA+5)%8, tc.a), n, placed((tc.offX+1)%8, tc.x), k, w.s)
					if i := sameResults(g.s, g2.s); i >= 0 {
						c.errorf("MulVecs %s: not deterministic (or depends on alignment or work) at y[%d]: %v then %v",
							tc.desc, i, g.s[i], g2.s[i])
					}
					if i := w.guardsIntact(); i != math.MinInt {
						c.errorf("MulVecsWork %s: wrote work[%d], past WorkLen", tc.desc, i)
					}
				}
			})
		})
	}
}

func TestMulVec(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	type mCase struct {
		mvCase
		trans   dotResults // references of MulVecTrans
		genT    []float64
		special bool
	}
	var cs []mCase
	i := 0
	for _, special := range []bool{false, true} {
		for _, n := range matSizes() {
			if special && n > 70 && n != 129 {
				continue
			}
			kindA, kindX := i%numKinds, (i/numKinds)%numKinds
			i++
			if kindA == kindHuge || kindX == kindHuge {
				kindA, kindX = kindUniform, kindHuge
			}
			var a, x []float64
			if special {
				a, x = genSpecialVec(r, n*n, kindA, 0.05), genSpecialVec(r, n, kindX, 0.05)
			} else {
				a, x = genVec(r, n*n, kindA), genVec(r, n, kindX)
			}
			c := mCase{mvCase: mvCase{n: n, k: 1, offA: r.IntN(8), offX: r.IntN(8), offY: r.IntN(8), a0: a, x0: x}, special: special}
			c.a, c.x = placed(c.offA, a), placed(c.offX, x)
			c.want, c.trans = newDotResults(n), newDotResults(n)
			for row := range n {
				var d, dt dotAcc
				for col := range n {
					d.add(a[row*n+col], x[col])
					dt.add(x[col], a[col*n+row]) // (Aᵀx)_row = Σ_c x_c·a[c][row]
				}
				c.want.set(row, &d)
				c.trans.set(row, &dt)
			}
			c.gen, c.genT = make([]float64, n), make([]float64, n)
			onGeneric(func() {
				MulVec(c.gen, c.a, n, c.x)
				MulVecTrans(c.genT, c.a, n, c.x)
			})
			c.desc = fmt.Sprintf("n=%d offa=%d offx=%d offy=%d kinds=%s,%s special=%v",
				n, c.offA, c.offX, c.offY, kindNames[kindA], kindNames[kindX], special)
			cs = append(cs, c)
		}
	}
	for _, fn := range []string{"MulVec", "MulVecTrans"} {
		t.Run(fn, func(t *testing.T) {
			forEachPath(t, func(t *testing.T) {
				c := &checker{t: t}
				for _, tc := range cs {
					n := tc.n
					run := func(y, a, x []float64) {
						if fn == "MulVec" {
							MulVec(y, a, n, x)
						} else {
							MulVecTrans(y, a, n, x)
						}
					}
					want, gen := tc.want, tc.gen
					if fn == "MulVecTrans" {
						want, gen = tc.trans, tc.genT
					}
					g := newGuarded(tc.offY, n)
					run(g.s, tc.a, tc.x)
					checkGuards(t, g, fn+" "+tc.desc)
					if i := sameBits(tc.a0, tc.a); i >= 0 {
						c.errorf("%s %s: modified a[%d]", fn, tc.desc, i)
					}
					if i := sameBits(tc.x0, tc.x); i >= 0 {
						c.errorf("%s %s: modified x[%d]", fn, tc.desc, i)
					}
					for j, got := range g.s {
						if !c.value(func() string { return fmt.Sprintf("%s %s: y[%d]", fn, tc.desc, j) },
							got, gen[j], want.ref[j], want.spec[j], want.bnd[j]) {
							return
						}
					}
					g2 := newGuarded((tc.offY+3)%8, n)
					run(g2.s, placed((tc.offA+5)%8, tc.a), placed((tc.offX+1)%8, tc.x))
					if i := sameResults(g.s, g2.s); i >= 0 {
						c.errorf("%s %s: not deterministic (or depends on alignment) at y[%d]: %v then %v",
							fn, tc.desc, i, g.s[i], g2.s[i])
					}
				}
			})
		})
	}
}

// outerPairs are the (α, β) of the ScaleAddOuter tests.
var outerPairs = [][2]float64{
	{1, 1}, {0.5, -2}, {0, 1}, {1, 0}, {-1, 0.1}, {0, 0}, {0.999, 1e-3},
	{-0.3, 0.7}, {1e-310, 2}, {7.25, -1}, {1, 0x1p-1074},
}

type saoCase struct {
	n, offA, offP, offV int
	alpha, beta         float64
	a0                  []float64 // initial A
	p, v                []float64 // placed
	p0, v0              []float64
	ref, A              []float64
	spec                []bool
	gen                 []float64
	desc                string
}

func makeSAOCase(r *rand.Rand, n int, alpha, beta float64, a0, p, v []float64, desc string) saoCase {
	c := saoCase{n: n, offA: r.IntN(8), offP: r.IntN(8), offV: r.IntN(8), alpha: alpha, beta: beta,
		a0: a0, p0: p, v0: v}
	c.p, c.v = placed(c.offP, p), placed(c.offV, v)
	c.ref, c.A, c.spec = make([]float64, n*n), make([]float64, n*n), make([]bool, n*n)
	for i := range n {
		s := beta * p[i] // the kernels' (β·p[i]), rounded once
		for j := range n {
			c.ref[i*n+j], c.A[i*n+j], c.spec[i*n+j] = elemRef(alpha, a0[i*n+j], s, v[j])
		}
	}
	c.gen = append([]float64(nil), a0...)
	onGeneric(func() { ScaleAddOuter(c.gen, n, alpha, beta, c.p, c.v) })
	c.desc = fmt.Sprintf("n=%d offa=%d offp=%d offv=%d α=%v β=%v %s", n, c.offA, c.offP, c.offV, alpha, beta, desc)
	return c
}

func TestScaleAddOuter(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	var cs []saoCase
	i := 0
	for _, special := range []bool{false, true} {
		for _, n := range matSizes() {
			if special && n > 70 && n != 129 {
				continue
			}
			kind := i % numKinds
			ab := outerPairs[i%len(outerPairs)]
			i++
			var a0, p, v []float64
			if special {
				a0, p, v = genSpecialVec(r, n*n, kind, 0.03), genSpecialVec(r, n, kind, 0.05), genSpecialVec(r, n, kind, 0.05)
				if n%3 == 0 {
					ab = [2]float64{specials[r.IntN(len(specials)-3)], specials[r.IntN(len(specials)-3)]}
				}
			} else {
				a0, p, v = genVec(r, n*n, kind), genVec(r, n, kind), genVec(r, n, kind)
			}
			if kind == kindHuge || kind == kindMixed {
				// β·p·v must stay finite: the huge p and v meet only small β.
				if math.Abs(ab[1]) > 0x1p-500 {
					ab[1] = 0x1p-500
				}
				if math.Abs(ab[0]) > 8 {
					ab[0] = 0.5
				}
			}
			cs = append(cs, makeSAOCase(r, n, ab[0], ab[1], a0, p, v,
				fmt.Sprintf("kind=%s special=%v", kindNames[kind], special)))
		}
	}
	forEachPath(t, func(t *testing.T) {
		c := &checker{t: t}
		for _, tc := range cs {
			n := tc.n
			g := newGuarded(tc.offA, n*n)
			copy(g.s, tc.a0)
			ScaleAddOuter(g.s, n, tc.alpha, tc.beta, tc.p, tc.v)
			checkGuards(t, g, "ScaleAddOuter "+tc.desc)
			if i := sameBits(tc.p0, tc.p); i >= 0 {
				c.errorf("ScaleAddOuter %s: modified p[%d]", tc.desc, i)
			}
			if i := sameBits(tc.v0, tc.v); i >= 0 {
				c.errorf("ScaleAddOuter %s: modified v[%d]", tc.desc, i)
			}
			for j, got := range g.s {
				if !c.value(func() string {
					return fmt.Sprintf("ScaleAddOuter %s: a[%d][%d] (a=%v p=%v v=%v)", tc.desc, j/n, j%n, tc.a0[j], tc.p0[j/n], tc.v0[j%n])
				}, got, tc.gen[j], tc.ref[j], tc.spec[j], elemBound(tc.A[j])) {
					return
				}
			}
			g2 := newGuarded((tc.offA+3)%8, n*n)
			copy(g2.s, tc.a0)
			ScaleAddOuter(g2.s, n, tc.alpha, tc.beta, placed((tc.offP+5)%8, tc.p), placed((tc.offV+1)%8, tc.v))
			if i := sameResults(g.s, g2.s); i >= 0 {
				c.errorf("ScaleAddOuter %s: not deterministic (or depends on alignment) at a[%d]: %v then %v",
					tc.desc, i, g.s[i], g2.s[i])
			}
		}
	})
}

type wsCase struct {
	n, kx, offD, offW, offX int
	w, x                    []float64 // placed
	rows                    []int
	want                    dotResults
	gen                     []float64
	desc                    string
}

func makeWSCase(r *rand.Rand, n, kx, m int, w, x []float64, desc string) wsCase {
	c := wsCase{n: n, kx: kx, offD: r.IntN(8), offW: r.IntN(8), offX: r.IntN(8)}
	c.w, c.x = placed(c.offW, w), placed(c.offX, x)
	c.rows = make([]int, m+r.IntN(3)) // longer than w is allowed
	for i := range c.rows {
		c.rows[i] = r.IntN(kx)
	}
	c.want = newDotResults(n)
	for j := range n {
		var d dotAcc
		for i, wi := range w {
			d.add(wi, x[c.rows[i]*n+j])
		}
		c.want.set(j, &d)
	}
	c.gen = make([]float64, n)
	onGeneric(func() { WeightedSum(c.gen, c.w, c.x, n, c.rows) })
	c.desc = fmt.Sprintf("n=%d k=%d len(w)=%d offdst=%d offw=%d offx=%d rows=%v %s",
		n, kx, m, c.offD, c.offW, c.offX, c.rows[:min(len(c.rows), 8)], desc)
	return c
}

func TestWeightedSum(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	var cs []wsCase
	i := 0
	for _, special := range []bool{false, true} {
		for _, n := range matSizes() {
			if n == 0 {
				continue // no row index is valid when n = 0; see TestZeroSizes
			}
			for _, m := range []int{0, 1, 2, 3, 7, 20} {
				if n > 70 && m%2 == 1 {
					continue
				}
				kind := i % numKinds
				i++
				kx := 1 + r.IntN(13)
				var w, x []float64
				if special {
					w, x = genSpecialVec(r, m, kindUniform, 0.1), genSpecialVec(r, kx*n+r.IntN(n), kind, 0.05)
				} else {
					w, x = genVec(r, m, kindUniform), genVec(r, kx*n+r.IntN(n), kind)
				}
				cs = append(cs, makeWSCase(r, n, kx, m, w, x, fmt.Sprintf("kind=%s special=%v", kindNames[kind], special)))
			}
		}
	}
	forEachPath(t, func(t *testing.T) {
		c := &checker{t: t}
		for _, tc := range cs {
			w0, x0 := append([]float64(nil), tc.w...), append([]float64(nil), tc.x...)
			g := newGuarded(tc.offD, tc.n)
			WeightedSum(g.s, tc.w, tc.x, tc.n, tc.rows)
			checkGuards(t, g, "WeightedSum "+tc.desc)
			if sameBits(w0, tc.w) >= 0 || sameBits(x0, tc.x) >= 0 {
				c.errorf("WeightedSum %s: modified an input", tc.desc)
			}
			for j, got := range g.s {
				if !c.value(func() string { return fmt.Sprintf("WeightedSum %s: dst[%d]", tc.desc, j) },
					got, tc.gen[j], tc.want.ref[j], tc.want.spec[j], tc.want.bnd[j]) {
					return
				}
			}
			if len(tc.w) == 0 {
				for j, got := range g.s {
					if got != 0 {
						c.errorf("WeightedSum %s: empty sum gives dst[%d] = %v, want 0", tc.desc, j, got)
					}
				}
			}
			g2 := newGuarded((tc.offD+3)%8, tc.n)
			WeightedSum(g2.s, placed((tc.offW+5)%8, tc.w), placed((tc.offX+1)%8, tc.x), tc.n, tc.rows)
			if i := sameResults(g.s, g2.s); i >= 0 {
				c.errorf("WeightedSum %s: not deterministic (or depends on alignment) at dst[%d]: %v then %v",
					tc.desc, i, g.s[i], g2.s[i])
			}
		}
	})
}

// ---------------------------------------------------------------------------
// The references themselves, against math/big.

// bigExact returns Σ a[i]·b[i] exactly (the sum of double products fits in
// 4400 bits: exponents from −2148 to 2048 plus the 106-bit products and the
// carries), rounded to float64 only at the end.
func bigExact(a, b []float64) (*big.Float, float64) {
	const prec = 4400
	sum := new(big.Float).SetPrec(prec)
	p := new(big.Float).SetPrec(prec)
	for i := range a {
		p.Mul(new(big.Float).SetFloat64(a[i]), new(big.Float).SetFloat64(b[i]))
		sum.Add(sum, p)
	}
	f, _ := sum.Float64()
	return sum, f
}

func TestReferences(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 10))
	for i := range 400 {
		n := r.IntN(60) + 1
		kind := i % numKinds
		kx := kind
		if kind == kindHuge {
			kx = kindUniform
		}
		x, y := genVec(r, n, kind), genVec(r, n, kx)
		if i%7 == 0 { // heavy cancellation: the second half cancels the first
			for j := n / 2; j < n; j++ {
				x[j], y[j] = -x[j-n/2], y[j-n/2]*(1+0x1p-30*float64(r.IntN(3)-1))
			}
		}
		var d, dv dotAcc
		for j := range n {
			d.add(x[j], y[j])
		}
		dv.addVec(x, y)
		if d != dv {
			t.Errorf("dotAcc.addVec %+v != add %+v", dv, d)
		}
		exact, ef := bigExact(x, y)
		got, _ := d.result()
		// Dot2: |ref − s| ≤ u·|s| + γ_n²·S + n·2⁻¹⁰⁷⁴.
		diff, _ := new(big.Float).SetPrec(4400).Sub(exact, new(big.Float).SetFloat64(got)).Float64()
		if b := u*math.Abs(ef) + gamma(n)*gamma(n)*d.abs*(1+2*float64(n+1)*u) + float64(n)*tiny; !(math.Abs(diff) <= b) {
			t.Errorf("dotAcc n=%d kind=%s: ref %v exact %v: err %.3g > %.3g", n, kindNames[kind], got, ef, diff, b)
		}
		// The same check for elemRef and normRef.
		ref, A, _ := elemRef(x[0], y[0], x[n-1], y[n-1])
		exact2, ef2 := bigExact([]float64{x[0], x[n-1]}, []float64{y[0], y[n-1]})
		if n == 1 {
			exact2, ef2 = bigExact([]float64{x[0], x[0]}, []float64{y[0], y[0]})
		}
		diff2, _ := new(big.Float).SetPrec(4400).Sub(exact2, new(big.Float).SetFloat64(ref)).Float64()
		if b := u*math.Abs(ef2) + 3*u*u*A + 2*tiny; !(math.Abs(diff2) <= b) {
			t.Errorf("elemRef kind=%s: ref %v exact %v: err %.3g > %.3g", kindNames[kind], ref, ef2, diff2, b)
		}
		nr, _ := normRef(x)
		exact3, _ := bigExact(x, x)
		nb, _ := new(big.Float).SetPrec(4400).Sqrt(exact3).Float64()
		if nr != nb {
			t.Errorf("normRef kind=%s n=%d: %v, big.Float %v", kindNames[kind], n, nr, nb)
		}
	}
	// The class of specials.
	for _, tc := range []struct {
		x, y []float64
		want float64
	}{
		{[]float64{1, math.NaN()}, []float64{1, 1}, math.NaN()},
		{[]float64{0, 1}, []float64{math.Inf(1), 1}, math.NaN()},
		{[]float64{math.Inf(1), math.Inf(1)}, []float64{1, -1}, math.NaN()},
		{[]float64{math.Inf(1), 1e150}, []float64{2, -1e150}, math.Inf(1)},
		{[]float64{-3, 1}, []float64{math.Inf(1), 1}, math.Inf(-1)},
	} {
		var d dotAcc
		for j := range tc.x {
			d.add(tc.x[j], tc.y[j])
		}
		got, special := d.result()
		if !special || math.Float64bits(got) != math.Float64bits(tc.want) && !(math.IsNaN(got) && math.IsNaN(tc.want)) {
			t.Errorf("dotAcc(%v, %v) = %v, %v; want %v", tc.x, tc.y, got, special, tc.want)
		}
	}
}

// ---------------------------------------------------------------------------
// Misuse and zero sizes.

// mustPanic checks that f panics with a message starting "kernel:".
func mustPanic(t *testing.T, name string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Errorf("%s: did not panic", name)
			return
		}
		if msg := fmt.Sprint(r); !strings.HasPrefix(msg, "kernel:") {
			t.Errorf("%s: panic %q does not start with \"kernel:\"", name, msg)
		}
	}()
	f()
}

func TestMisusePanics(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		const n, k = 6, 4
		buf := newGuarded(3, 4*n*n+2*k*n)
		for i := range buf.s {
			buf.s[i] = float64(i%7) - 3
		}
		fresh := func(m int) []float64 { s := make([]float64, m); s[0] = 1; return s }
		a, x := fresh(n*n), fresh(k*n)
		// Outputs guarded: a misused call must panic before writing.
		gy := newGuarded(2, k*n)

		// MulVecs.
		mustPanic(t, "MulVecs n<0", func() { MulVecs(gy.s, a, -1, x, k) })
		mustPanic(t, "MulVecs k<0", func() { MulVecs(gy.s, a, n, x, -1) })
		mustPanic(t, "MulVecs k<0 n=0", func() { MulVecs(gy.s, a, 0, x, -1) })
		mustPanic(t, "MulVecs short a", func() { MulVecs(gy.s, a[:n*n-1], n, x, k) })
		mustPanic(t, "MulVecs short x", func() { MulVecs(gy.s, a, n, x[:k*n-1], k) })
		mustPanic(t, "MulVecs short y", func() { MulVecs(gy.s[:k*n-1], a, n, x, k) })
		mustPanic(t, "MulVecs y overlaps a", func() { MulVecs(buf.s[n*n-1:], buf.s[:n*n], n, x, k) })
		mustPanic(t, "MulVecs y overlaps x", func() { MulVecs(buf.s[n*n:], a, n, buf.s[n*n+3:], k) })
		mustPanic(t, "MulVecs y is x", func() { MulVecs(buf.s[:k*n], a, n, buf.s[:k*n], k) })
		// Sizes whose products overflow int must not pass the length checks.
		half := 1 << (strconv.IntSize / 2)
		mustPanic(t, "MulVecs k·n overflows", func() { MulVecs(gy.s, a, n, x, math.MaxInt/n+1) })
		mustPanic(t, "MulVecs k·n wraps to 0", func() { MulVecs(gy.s, a, 4, x, 1<<(strconv.IntSize-2)) })
		mustPanic(t, "MulVecs n·n wraps to 0", func() { MulVecs(nil, nil, half, nil, half) })
		checkGuards(t, gy, "MulVecs misuse")
		for i, v := range gy.s {
			if math.Float64bits(v) != guardBits {
				t.Errorf("MulVecs misuse wrote y[%d] = %v before panicking", i, v)
				break
			}
		}

		// MulVec, MulVecTrans.
		for _, f := range []struct {
			name string
			fn   func(y, a []float64, n int, x []float64)
		}{{"MulVec", MulVec}, {"MulVecTrans", MulVecTrans}} {
			g := newGuarded(1, n)
			mustPanic(t, f.name+" n<0", func() { f.fn(g.s, a, -1, x) })
			mustPanic(t, f.name+" short a", func() { f.fn(g.s, a[:n*n-1], n, x) })
			mustPanic(t, f.name+" short x", func() { f.fn(g.s, a, n, x[:n-1]) })
			mustPanic(t, f.name+" short y", func() { f.fn(g.s[:n-1], a, n, x) })
			mustPanic(t, f.name+" y overlaps a", func() { f.fn(buf.s[n*n-2:], buf.s[:n*n], n, x) })
			mustPanic(t, f.name+" y overlaps x", func() { f.fn(buf.s[n*n:], a, n, buf.s[n*n+n-1:]) })
			mustPanic(t, f.name+" y is x", func() { f.fn(buf.s[:n], a, n, buf.s[:n]) })
			if strconv.IntSize == 32 {
				// n·n wraps on 32-bit: 65536² = 2³² ≡ 0.
				m := 1 << 16
				mustPanic(t, f.name+" n·n wraps", func() { f.fn(make([]float64, m), nil, m, make([]float64, m)) })
			}
			checkGuards(t, g, f.name+" misuse")
			if i := g.guardsIntact(); i != math.MinInt || math.Float64bits(g.s[0]) != guardBits {
				t.Errorf("%s misuse wrote y", f.name)
			}
		}

		// ScaleAddOuter.
		ga := newGuarded(1, n*n)
		p, v := fresh(n), fresh(n)
		mustPanic(t, "ScaleAddOuter n<0", func() { ScaleAddOuter(ga.s, -1, 1, 1, p, v) })
		mustPanic(t, "ScaleAddOuter short a", func() { ScaleAddOuter(ga.s[:n*n-1], n, 1, 1, p, v) })
		mustPanic(t, "ScaleAddOuter short p", func() { ScaleAddOuter(ga.s, n, 1, 1, p[:n-1], v) })
		mustPanic(t, "ScaleAddOuter short v", func() { ScaleAddOuter(ga.s, n, 1, 1, p, v[:n-1]) })
		mustPanic(t, "ScaleAddOuter a overlaps p", func() { ScaleAddOuter(buf.s[:n*n], n, 1, 1, buf.s[n*n-1:], v) })
		mustPanic(t, "ScaleAddOuter a overlaps v", func() { ScaleAddOuter(buf.s[n:n+n*n], n, 1, 1, p, buf.s[1:n+1]) })
		mustPanic(t, "ScaleAddOuter p inside a", func() { ScaleAddOuter(buf.s[:n*n], n, 1, 1, buf.s[n:2*n], v) })
		for i, c := range ga.buf {
			if math.Float64bits(c) != guardBits {
				t.Errorf("ScaleAddOuter misuse wrote a cell %d", i-ga.off)
				break
			}
		}

		// Dot, AxpBy, Axpy.
		mustPanic(t, "Dot length mismatch", func() { Dot(x[:3], x[:4]) })
		mustPanic(t, "Dot length mismatch (nil)", func() { Dot(nil, x[:1]) })
		gy2 := newGuarded(0, 5)
		mustPanic(t, "AxpBy length mismatch", func() { AxpBy(1, x[:4], 1, gy2.s) })
		mustPanic(t, "Axpy length mismatch", func() { Axpy(1, x[:6], gy2.s) })
		mustPanic(t, "AxpBy partial overlap", func() { AxpBy(1, buf.s[0:10], 1, buf.s[1:11]) })
		mustPanic(t, "AxpBy partial overlap (x after y)", func() { AxpBy(1, buf.s[5:15], 1, buf.s[0:10]) })
		mustPanic(t, "Axpy partial overlap", func() { Axpy(2, buf.s[0:10], buf.s[9:19]) })
		mustPanic(t, "AxpByTo length mismatch (dst)", func() { AxpByTo(gy2.s, 1, x[:4], 1, x[:4]) })
		mustPanic(t, "AxpByTo length mismatch (y)", func() { AxpByTo(gy2.s, 1, x[:5], 1, x[:4]) })
		mustPanic(t, "AxpByTo dst overlaps x", func() { AxpByTo(buf.s[1:11], 1, buf.s[0:10], 1, x[:10]) })
		mustPanic(t, "AxpByTo dst overlaps y", func() { AxpByTo(buf.s[0:10], 1, x[:10], 1, buf.s[2:12]) })
		checkGuards(t, gy2, "AxpBy misuse")
		if i := sameBits(gy2.s, []float64{guard, guard, guard, guard, guard}); i >= 0 {
			t.Errorf("AxpBy misuse wrote y[%d]", i)
		}

		// WeightedSum.
		gd := newGuarded(1, n)
		w := []float64{1, 2}
		mustPanic(t, "WeightedSum n<0", func() { WeightedSum(gd.s, w, x, -1, []int{0, 1}) })
		mustPanic(t, "WeightedSum short dst", func() { WeightedSum(gd.s[:n-1], w, x, n, []int{0, 1}) })
		mustPanic(t, "WeightedSum short rows", func() { WeightedSum(gd.s, w, x, n, []int{0}) })
		mustPanic(t, "WeightedSum row < 0", func() { WeightedSum(gd.s, w, x, n, []int{0, -1}) })
		mustPanic(t, "WeightedSum row ≥ len(x)/n", func() { WeightedSum(gd.s, w, x, n, []int{k, 0}) })
		mustPanic(t, "WeightedSum row past a partial row", func() { WeightedSum(gd.s, w, x[:k*n-1], n, []int{0, k - 1}) })
		mustPanic(t, "WeightedSum dst overlaps x", func() { WeightedSum(buf.s[k*n-1:], w, buf.s[:k*n], n, []int{0, 1}) })
		mustPanic(t, "WeightedSum dst overlaps w", func() {
			ww := buf.s[k*n : k*n+n]
			WeightedSum(ww, ww[:2], buf.s[:k*n], n, []int{0, 1})
		})
		// n = 0 is a no-op, whatever the rows say.
		WeightedSum(nil, w, nil, 0, []int{5, -1})
		for i, c := range gd.buf {
			if math.Float64bits(c) != guardBits {
				t.Errorf("WeightedSum misuse wrote cell %d", i-gd.off)
				break
			}
		}

		// Allowed: AxpBy and Axpy in place, y longer than k·n overlapping
		// a only past k·n.
		s := []float64{1, 2, 3}
		AxpBy(2, s, 3, s)
		Axpy(1, s, s)
		if s[0] != 10 || s[1] != 20 || s[2] != 30 {
			t.Errorf("AxpBy, Axpy in place: %v, want [10 20 30]", s)
		}
		big := make([]float64, 2*n+n*n)
		for i := range big {
			big[i] = 1
		}
		MulVecs(big[:2*n+1], big[2*n:], n, x[:2*n], 2) // y[:2n] does not overlap a
	})
}

func TestZeroSizes(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		g := newGuarded(3, 0) // an empty output: every cell is a guard
		for name, f := range map[string]func(){
			"MulVecs n=0":       func() { MulVecs(g.s, nil, 0, nil, 5) },
			"MulVecs k=0":       func() { MulVecs(g.s, []float64{1, 2, 3, 4}, 2, nil, 0) },
			"MulVecs n=k=0 nil": func() { MulVecs(nil, nil, 0, nil, 0) },
			"MulVec n=0":        func() { MulVec(g.s, nil, 0, nil) },
			"MulVecTrans n=0":   func() { MulVecTrans(g.s, nil, 0, nil) },
			"ScaleAddOuter n=0": func() { ScaleAddOuter(g.s, 0, 2, 3, nil, nil) },
			"AxpBy empty":       func() { AxpBy(2, nil, 3, g.s) },
			"Axpy empty":        func() { Axpy(2, g.s, g.s) },
			"Scale empty":       func() { Scale(math.NaN(), g.s) },
			"WeightedSum n=0":   func() { WeightedSum(g.s, nil, nil, 0, nil) },
			"WeightedSum n=0 w": func() { WeightedSum(g.s, []float64{1}, []float64{1}, 0, []int{0}) },
		} {
			f()
			checkGuards(t, g, name)
		}
		// Outputs longer than needed keep their tail.
		gy := newGuarded(1, 10)
		MulVecs(gy.s, nil, 0, nil, 3)
		MulVecs(gy.s, []float64{1}, 1, nil, 0)
		MulVec(gy.s, nil, 0, nil)
		MulVecTrans(gy.s, nil, 0, nil)
		ScaleAddOuter(gy.s, 0, 2, 2, nil, nil)
		WeightedSum(gy.s, nil, nil, 0, nil)
		for i, v := range gy.buf {
			if math.Float64bits(v) != guardBits {
				t.Errorf("a zero-size call wrote cell %d", i-gy.off)
				break
			}
		}
		if d := Dot(nil, nil); math.Float64bits(d) != 0 {
			t.Errorf("Dot(nil, nil) = %v, want +0", d)
		}
		if d := Norm(nil); math.Float64bits(d) != 0 {
			t.Errorf("Norm(nil) = %v, want +0", d)
		}
		if d := Dot([]float64{}, g.s); d != 0 {
			t.Errorf("Dot of empty slices = %v", d)
		}
	})
}

// ---------------------------------------------------------------------------
// Allocations.

func TestNoAllocs(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation")
	}
	const n, k = 37, 7
	r := rand.New(rand.NewPCG(11, 11))
	a, x, y := genVec(r, n*n, kindUniform), genVec(r, k*n, kindUniform), make([]float64, k*n)
	p, v, w := genVec(r, n, kindUniform), genVec(r, n, kindUniform), genVec(r, 5, kindUniform)
	rows := []int{0, 3, 6, 1, 1}
	huge := []float64{1e300, 1e300, -1e300}
	forEachPath(t, func(t *testing.T) {
		var sink float64
		for _, f := range []struct {
			name string
			fn   func()
		}{
			{"MulVecs", func() { MulVecs(y, a, n, x, k) }},
			{"MulVec", func() { MulVec(y[:n], a, n, x[:n]) }},
			{"MulVecTrans", func() { MulVecTrans(y[:n], a, n, x[:n]) }},
			{"ScaleAddOuter", func() { ScaleAddOuter(a, n, 0.9, 0.1, p, v) }},
			{"Dot", func() { sink += Dot(p, v) }},
			{"Norm", func() { sink += Norm(p) }},
			{"Norm fallback", func() { sink += Norm(huge) }},
			{"AxpBy", func() { AxpBy(0.5, p, 0.5, v) }},
			{"Axpy", func() { Axpy(0.5, p, v) }},
			{"Scale", func() { Scale(1.0000001, v) }},
			{"WeightedSum", func() { WeightedSum(y[:n], w, x, n, rows) }},
			{"RotatePair", func() { RotatePair(p, v, 0.8, 0.6, 1.25, 0.75) }},
			{"MaxAbs", func() { sink += MaxAbs(a) }},
		} {
			if allocs := testing.AllocsPerRun(20, f.fn); allocs != 0 {
				t.Errorf("%s: %v allocations per call, want 0", f.name, allocs)
			}
		}
		_ = sink
	})
}

// ---------------------------------------------------------------------------
// Dispatch.

// oneOfRoundings reports whether got is a·b + c·d as Go may evaluate it on
// the generic path: unfused, or with either product fused (Go fuses x*y + z
// on arm64 and other architectures, and which product it picks depends on
// the context). The SIMD paths' fma(a, b, fl(c·d)) is also one of them, but
// the bitwise checks of the reductions above tell the paths apart.
func oneOfRoundings(got, a, b, c, d float64) bool {
	ab, cd := float64(a*b), float64(c*d)
	for _, w := range []float64{ab + cd, math.FMA(a, b, cd), math.FMA(c, d, ab)} {
		if math.Float64bits(got) == math.Float64bits(w) {
			return true
		}
	}
	return false
}

// TestGenericPath checks that the generic path runs the kernels of
// kernel_generic.go: the exported reductions give their bits exactly, the
// elementwise kernels one of the roundings Go may compile them to.
func TestGenericPath(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 12))
	defer setPath(pathSpec{name: "generic"})()
	for _, n := range []int{1, 3, 4, 5, 8, 17, 64, 129} {
		const k = 7
		a, x := genVec(r, n*n, kindWide), genVec(r, k*n, kindWide)
		p, v := genVec(r, n, kindWide), genVec(r, n, kindWide)
		y, want := make([]float64, k*n), make([]float64, k*n)
		MulVecs(y, a, n, x, k)
		mulVecsGeneric(want, a, n, x, k)
		if i := sameBits(y, want); i >= 0 {
			t.Errorf("n=%d: MulVecs on the generic path is not mulVecsGeneric at %d", n, i)
		}
		MulVec(y[:n], a, n, x)
		mulVecGeneric(want[:n], a, n, x)
		if i := sameBits(y[:n], want[:n]); i >= 0 {
			t.Errorf("n=%d: MulVec on the generic path is not mulVecGeneric at %d", n, i)
		}
		if got, want := Dot(p, v), dotGeneric(p, v); math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("n=%d: Dot on the generic path %v, dotGeneric %v", n, got, want)
		}
		b := append([]float64(nil), a...)
		ScaleAddOuter(b, n, 0.75, -1.5, p, v)
		for i := range b {
			if !oneOfRoundings(b[i], 0.75, a[i], -1.5*p[i/n], v[i%n]) {
				t.Errorf("n=%d: ScaleAddOuter on the generic path is not α·a + (β·p)·v at %d: %v", n, i, b[i])
				break
			}
		}
		b = append([]float64(nil), v...)
		AxpBy(0.75, p, -1.5, b)
		for i := range b {
			if !oneOfRoundings(b[i], 0.75, p[i], -1.5, v[i]) {
				t.Errorf("n=%d: AxpBy on the generic path is not α·x + β·y at %d: %v", n, i, b[i])
				break
			}
		}
	}
}

// TestSIMDPathsDiffer checks that each SIMD path really runs its own code
// (and not, by a dispatch mistake, the generic loops): its reductions sum in
// another order and with FMA, so on many random inputs some result differs
// from the generic one in the last bits. (With 400 long random dot products
// the chance that a different summation gives all the same bits is nil.)
func TestSIMDPathsDiffer(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 13))
	const n, k, trials = 67, 13, 400
	a := genVec(r, n*n, kindUniform)
	xs := make([][]float64, trials)
	var gDot []float64
	gMV := make([][]float64, trials)
	onGeneric(func() {
		for i := range xs {
			xs[i] = genVec(r, k*n, kindUniform)
			gDot = append(gDot, Dot(xs[i][:n], xs[i][n:2*n]))
			gMV[i] = make([]float64, k*n)
			MulVecs(gMV[i], a, n, xs[i], k)
		}
	})
	forEachPath(t, func(t *testing.T) {
		if !isSIMD() {
			t.Skip("the generic path")
		}
		dotDiff, mvDiff, mv1Diff := false, false, false
		y := make([]float64, k*n)
		for i, x := range xs {
			if d := Dot(x[:n], x[n:2*n]); d != gDot[i] {
				dotDiff = true
			}
			MulVecs(y, a, n, x, k)
			if sameBits(y, gMV[i]) >= 0 {
				mvDiff = true
			}
			MulVec(y[:n], a, n, x[:n])
			if sameBits(y[:n], gMV[i][:n]) >= 0 {
				mv1Diff = true
			}
		}
		if !dotDiff {
			t.Errorf("Dot gives the generic bits on %d inputs: is the path dispatched?", trials)
		}
		if !mvDiff {
			t.Errorf("MulVecs gives the generic bits on %d inputs: is the path dispatched?", trials)
		}
		if !mv1Diff {
			t.Errorf("MulVec gives the generic bits on %d inputs: is the path dispatched?", trials)
		}
	})
}
