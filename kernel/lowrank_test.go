package kernel

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

// dotRowsCase is one DotRows problem: the blocks a (ka×n) and b (kb×n) at
// offsets in guarded buffers, the reference of every dot product and its
// bound, and the generic result.
type dotRowsCase struct {
	ka, kb, n int
	a, b      []float64
	ref, bnd  []float64
	special   []bool
	gen       []float64
	offDst    int
	desc      string
}

func dotRowsShapes() [][3]int {
	var s [][3]int
	for _, ka := range []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 13} {
		for _, kb := range []int{0, 1, 2, 3, 5, 6, 7, 12} {
			for _, n := range []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100} {
				s = append(s, [3]int{ka, kb, n})
			}
		}
	}
	// Past one block of columns, and its tails.
	for _, n := range []int{dotRowsBlock - 1, dotRowsBlock, dotRowsBlock + 1, 2*dotRowsBlock + 7, 3000} {
		s = append(s, [3]int{5, 3, n}, [3]int{1, 7, n}, [3]int{9, 6, n})
	}
	return s
}

func makeDotRowsCases(seed uint64, special bool) []dotRowsCase {
	r := rand.New(rand.NewPCG(seed, 7))
	var cs []dotRowsCase
	for i, sh := range dotRowsShapes() {
		ka, kb, n := sh[0], sh[1], sh[2]
		kind := i % numKinds
		var a, b []float64
		if special {
			a, b = genSpecialVec(r, ka*n, kind, 0.05), genSpecialVec(r, kb*n, kind, 0.05)
		} else {
			a, b = genVec(r, ka*n, kind), genVec(r, kb*n, kind)
		}
		c := dotRowsCase{ka: ka, kb: kb, n: n, a: placed(r.IntN(8), a), b: placed(r.IntN(8), b), offDst: r.IntN(8)}
		c.ref, c.bnd, c.special = make([]float64, ka*kb), make([]float64, ka*kb), make([]bool, ka*kb)
		for j := 0; j < kb; j++ {
			for i := 0; i < ka; i++ {
				var d dotAcc
				d.addVec(a[i*n:i*n+n], b[j*n:j*n+n])
				c.ref[j*ka+i], c.special[j*ka+i] = d.result()
				c.bnd[j*ka+i] = d.bound()
			}
		}
		c.gen = make([]float64, ka*kb)
		onGeneric(func() { DotRows(c.gen, c.a, ka, c.b, kb, n) })
		c.desc = fmt.Sprintf("ka=%d kb=%d n=%d kind=%s", ka, kb, n, kindNames[kind])
		cs = append(cs, c)
	}
	return cs
}

// TestDotRows checks every dot product of DotRows against the double-double
// reference within the bound of any summation order, on every path, at
// every offset of the inputs and the output (guard cells around it), with
// and without special values; and that dst's earlier contents do not
// matter.
func TestDotRows(t *testing.T) {
	for _, special := range []bool{false, true} {
		cs := makeDotRowsCases(3, special)
		t.Run(fmt.Sprintf("special=%v", special), func(t *testing.T) {
			forEachPath(t, func(t *testing.T) {
				c := checker{t: t}
				for _, tc := range cs {
					g := newGuarded(tc.offDst, tc.ka*tc.kb)
					for i := range g.s {
						g.s[i] = 12345 // overwritten, not added to
					}
					DotRows(g.s, tc.a, tc.ka, tc.b, tc.kb, tc.n)
					if !checkGuards(t, g, tc.desc) {
						return
					}
					for e, got := range g.s {
						where := func() string { return fmt.Sprintf("%s: dst[%d]", tc.desc, e) }
						if !c.value(where, got, tc.gen[e], tc.ref[e], tc.special[e], tc.bnd[e]) {
							return
						}
					}
				}
			})
		})
	}
}

// combineRef returns m + σ·(s·z + Σ_t c_t·p_t) exactly rounded (big.Float
// with enough precision for the inputs' exponent range) and the bound of
// the kernels' chain: the k+1 products and k additions of the inner sum
// round at most 2k+2 times, the outer multiply-add twice, so
//
//	|got − exact| ≤ γ_{2k+4}·(|m| + |σ|·Σ|terms|) + (2k+4)·2⁻¹⁰⁷⁴·(1 + |σ|),
//
// plus the reference's own rounding, u·|exact|. ok is false when the exact
// value is special (a NaN or infinite input): then the class comes from
// the float64 chain, whose IEEE class does not depend on the rounding.
func combineRef(m, sigma, s, z float64, c, p []float64) (ref, bound float64, special bool) {
	vals := []float64{m, sigma, s, z}
	vals = append(vals, c...)
	vals = append(vals, p...)
	for _, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			u := float64(s * z)
			for t := range c {
				u += float64(c[t] * p[t])
			}
			return m + float64(sigma*u), 0, true
		}
	}
	const prec = 4400
	acc := new(big.Float).SetPrec(prec).Mul(big.NewFloat(s), big.NewFloat(z))
	abs := math.Abs(s * z)
	for t := range c {
		term := new(big.Float).SetPrec(prec).Mul(big.NewFloat(c[t]), big.NewFloat(p[t]))
		acc.Add(acc, term)
		abs += math.Abs(c[t] * p[t])
	}
	acc.Mul(acc, big.NewFloat(sigma))
	acc.Add(acc, big.NewFloat(m))
	ref, _ = acc.Float64()
	k := len(c)
	bound = gamma(2*k+4)*(math.Abs(m)+math.Abs(sigma)*abs)*(1+4*u) + u*math.Abs(ref) +
		float64(2*k+4)*tiny*(1+math.Abs(sigma))
	return ref, bound, false
}

type combineCase struct {
	k, n, kp    int
	sigma       float64
	m, s, z, p  []float64
	c           []float64
	ref, bnd    []float64
	special     []bool
	gen         []float64
	offX        int
	desc        string
	zeroM, unit bool
}

func makeCombineCases(seed uint64, special bool) []combineCase {
	r := rand.New(rand.NewPCG(seed, 9))
	var cs []combineCase
	i := 0
	// k: below, at and past the tiles of 4 and of combTileRows (6 on
	// amd64), their overlapping last tiles (k = 8, 9 and 11 on AVX-512:
	// a tile of 4 over two or three rows left, a tile of 6 over five),
	// several whole tiles; k = 31, 32 and 38, where the last main tile
	// and the one or two rows past it go in two tiles of 4 on AVX-512
	// (the second overlapping one row at 31), and 33, which keeps its
	// main tiles.
	for _, k := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 31, 32, 33, 38} {
		for _, kp := range []int{0, 1, 2, 3, 5, 8, 17, combineTerms + 6, 2*combineTerms + 2} {
			// n = 71: two whole steps of 32 columns of the AVX-512 tile,
			// one of 4 and 3 columns alone, with the terms in chunks.
			// n = 2·combineRowBlock + 37: a single row's blocks and its
			// passes of combineRowTerms terms (kp = 17: 8, 8, 1), against
			// the same row in a population of 2 (blocks of CombineRowsBlock).
			for _, n := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 15, 16, 17, 31, 32, 33, 71, 100, combineBlockMax + 3, 2*combineRowBlock + 37} {
				if k > 13 {
					if n != 33 && n != 71 || kp != 5 && kp != 17 {
						continue
					}
				} else if n == 2*combineRowBlock+37 {
					if k < 1 || k > 2 || kp != 17 {
						continue
					}
				} else if n > 100 && (k > 3 || kp > 5) || kp > 17 && n > 17 && (n != 71 || k < 6) || k > 7 && n > 33 && (k > 11 || n > 100) {
					continue
				}
				kind := i % numKinds
				i++
				gen := func(cnt int) []float64 {
					if special {
						return genSpecialVec(r, cnt, kind, 0.03)
					}
					return genVec(r, cnt, kind)
				}
				tc := combineCase{k: k, n: n, kp: kp, offX: r.IntN(8)}
				tc.sigma = []float64{1, 0.5, -3, 1e-3, 7.25}[r.IntN(5)]
				m, s, z, p, c := gen(n), gen(n), gen(k*n), gen(kp*n), genVec(r, k*kp, kindUniform)
				tc.zeroM = r.IntN(4) == 0
				if tc.zeroM {
					clear(m)
				}
				tc.m, tc.s, tc.z, tc.p, tc.c = placed(r.IntN(8), m), placed(r.IntN(8), s), placed(r.IntN(8), z), placed(r.IntN(8), p), placed(r.IntN(8), c)
				tc.ref, tc.bnd, tc.special = make([]float64, k*n), make([]float64, k*n), make([]bool, k*n)
				pc := make([]float64, kp)
				for l := 0; l < k; l++ {
					for j := 0; j < n; j++ {
						for t := range pc {
							pc[t] = p[t*n+j]
						}
						e := l*n + j
						tc.ref[e], tc.bnd[e], tc.special[e] = combineRef(m[j], tc.sigma, s[j], z[e], c[l*kp:l*kp+kp], pc)
					}
				}
				tc.gen = make([]float64, k*n)
				onGeneric(func() { CombineRows(tc.gen, tc.m, tc.sigma, tc.s, tc.z, k, n, tc.p, kp, tc.c) })
				tc.desc = fmt.Sprintf("k=%d kp=%d n=%d σ=%g kind=%s", k, kp, n, tc.sigma, kindNames[kind])
				cs = append(cs, tc)
			}
		}
	}
	return cs
}

// TestCombineRows checks CombineRows against the exact value within the
// bound of its chain, on every path, at every offset (guard cells around
// the output), with and without special values; and that each row has the
// bits it has when computed alone (k = 1), which the optimizer relies on to
// recompute a candidate.
func TestCombineRows(t *testing.T) {
	for _, special := range []bool{false, true} {
		cs := makeCombineCases(5, special)
		t.Run(fmt.Sprintf("special=%v", special), func(t *testing.T) {
			forEachPath(t, func(t *testing.T) {
				c := checker{t: t}
				for _, tc := range cs {
					g := newGuarded(tc.offX, tc.k*tc.n)
					CombineRows(g.s, tc.m, tc.sigma, tc.s, tc.z, tc.k, tc.n, tc.p, tc.kp, tc.c)
					if !checkGuards(t, g, tc.desc) {
						return
					}
					for e, got := range g.s {
						where := func() string { return fmt.Sprintf("%s: x[%d]", tc.desc, e) }
						if !c.value(where, got, tc.gen[e], tc.ref[e], tc.special[e], tc.bnd[e]) {
							return
						}
					}
					// m nil: the steps themselves, u (σ not used).
					y := make([]float64, tc.k*tc.n)
					CombineRows(y, nil, tc.sigma, tc.s, tc.z, tc.k, tc.n, tc.p, tc.kp, tc.c)
					for l := 0; l < tc.k; l++ {
						for j := 0; j < tc.n; j++ {
							pc := make([]float64, tc.kp)
							for t := range pc {
								pc[t] = tc.p[t*tc.n+j]
							}
							ref, bnd, special := combineRef(0, 1, tc.s[j], tc.z[l*tc.n+j], tc.c[l*tc.kp:l*tc.kp+tc.kp], pc)
							where := func() string { return fmt.Sprintf("%s: y[%d][%d] (m nil)", tc.desc, l, j) }
							if !c.value(where, y[l*tc.n+j], ref, ref, special, bnd) {
								return
							}
						}
					}
					one := make([]float64, tc.n)
					for l := 0; l < tc.k; l++ {
						CombineRows(one, tc.m, tc.sigma, tc.s, tc.z[l*tc.n:], 1, tc.n, tc.p, tc.kp, tc.c[l*tc.kp:])
						if j := sameResults(one, g.s[l*tc.n:(l+1)*tc.n]); j >= 0 {
							if !c.errorf("%s: row %d alone differs at %d: %v, in the population %v", tc.desc, l, j, one[j], g.s[l*tc.n+j]) {
								return
							}
						}
					}
				}
			})
		})
	}
}

// TestLowRankMisuse: short slices, negative sizes and overlaps panic with a
// "kernel:" message before anything is written.
func TestLowRankMisuse(t *testing.T) {
	buf := make([]float64, 100)
	x, z, m, s, p, c := make([]float64, 6), make([]float64, 6), make([]float64, 3), make([]float64, 3), make([]float64, 6), make([]float64, 4)
	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"DotRows negative", func() { DotRows(buf, buf, -1, buf, 1, 1) }},
		{"DotRows short a", func() { DotRows(make([]float64, 4), make([]float64, 5), 2, make([]float64, 6), 2, 3) }},
		{"DotRows short b", func() { DotRows(make([]float64, 4), make([]float64, 6), 2, make([]float64, 5), 2, 3) }},
		{"DotRows short dst", func() { DotRows(make([]float64, 3), make([]float64, 6), 2, make([]float64, 6), 2, 3) }},
		{"DotRows overlap", func() { DotRows(buf[:4], buf[2:8], 2, make([]float64, 6), 2, 3) }},
		{"CombineRows negative", func() { CombineRows(x, m, 1, s, z, -1, 3, p, 2, c) }},
		{"CombineRows short x", func() { CombineRows(x[:5], m, 1, s, z, 2, 3, p, 2, c) }},
		{"CombineRows short z", func() { CombineRows(x, m, 1, s, z[:5], 2, 3, p, 2, c) }},
		{"CombineRows short m", func() { CombineRows(x, m[:2], 1, s, z, 2, 3, p, 2, c) }},
		{"CombineRows short s", func() { CombineRows(x, m, 1, s[:2], z, 2, 3, p, 2, c) }},
		{"CombineRows short p", func() { CombineRows(x, m, 1, s, z, 2, 3, p[:5], 2, c) }},
		{"CombineRows short c", func() { CombineRows(x, m, 1, s, z, 2, 3, p, 2, c[:3]) }},
		{"CombineRows x overlaps z", func() { CombineRows(buf[:6], m, 1, s, buf[3:9], 2, 3, p, 2, c) }},
		{"CombineRows x overlaps p", func() { CombineRows(buf[:6], m, 1, s, z, 2, 3, buf[5:11], 2, c) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := append([]float64(nil), buf...)
			defer func() {
				r := recover()
				if msg, ok := r.(string); !ok || !strings.HasPrefix(msg, "kernel:") {
					t.Errorf("panic %v, want a kernel: message", r)
				}
				if sameBits(before, buf) >= 0 {
					t.Error("wrote before panicking")
				}
			}()
			tc.f()
		})
	}
}

// TestCombineRowsStreaming runs CombineRows on stored vectors, or stored
// vectors and a population, too large to stay in the caches, where the
// AVX-512 path asks for the next block's panel of p ahead and writes x
// with non-temporal stores: every SIMD path computes each element as the chain of
// fused multiply-adds the documentation gives, so the result must be that
// chain's bits exactly (the generic path, which may round each product, is
// checked by TestCombineRows). The blocks follow the L2 size
// (CombineRowsBlock): each shape runs with the L2 sizes that give it
// blocks of 256, 512 and 1024 columns, none a divisor of n.
func TestCombineRowsStreaming(t *testing.T) {
	l2 := l2Bytes
	t.Cleanup(func() { l2Bytes = l2 })
	// The stored vectors alone past prefetchMin, or only with the
	// population ({40, 8}: as a run of the limited memory starts).
	for _, sh := range []struct {
		k, kp, over int
		alone       bool // kp·n reaches prefetchMin
	}{{7, 8, 8, true}, {8, 80, 80, true}, {40, 8, 48, false}} {
		k, kp := sh.k, sh.kp
		n := (prefetchMin/sh.over + 47) &^ 7 // rows 64-byte aligned, not a whole number of blocks
		r := rand.New(rand.NewPCG(3, 9))
		p, z := genVec(r, kp*n, kindUniform), genVec(r, k*n, kindUniform)
		m, s, c := genVec(r, n, kindUniform), genVec(r, n, kindUniform), genVec(r, k*kp, kindUniform)
		const sigma = 0.75
		want := make([]float64, k*n)
		for l := 0; l < k; l++ {
			for j := 0; j < n; j++ {
				u := s[j] * z[l*n+j]
				for t := 0; t < kp; t++ {
					u = math.FMA(c[l*kp+t], p[t*n+j], u)
				}
				want[l*n+j] = math.FMA(sigma, u, m[j])
			}
		}
		// x 64-byte aligned (a large allocation starts a page), which the
		// AVX-512 path writes with non-temporal stores, and x one element
		// on, which it must not.
		aligned := make([]float64, k*n+1)
		if !streamAligned(aligned, n) || streamAligned(aligned[1:], n) {
			t.Fatal("the two outputs do not take the two kinds of stores")
		}
		blocks := map[int]bool{}
		for _, l2Bytes = range []int{32 << 10, 256 << 10, 1 << 20, 2 << 20} {
			block := CombineRowsBlock(kp, k, n)
			if !combineStreams(kp, k, n) || (kp*n >= prefetchMin) != sh.alone || n%block == 0 {
				t.Fatalf("shape %d×%d, blocks of %d: does not reach the streaming blocks", kp, n, block)
			}
			blocks[block] = true
			forEachPath(t, func(t *testing.T) {
				if Impl() == "generic" {
					t.Skip("the generic path may round each product")
				}
				for _, x := range [][]float64{aligned[:k*n], aligned[1:]} {
					clear(x)
					CombineRows(x, m, sigma, s, z, k, n, p, kp, c)
					if e := sameResults(x, want); e >= 0 {
						t.Fatalf("kp=%d, blocks of %d: x[%d] (row %d, column %d) = %v, the chain gives %v", kp, block, e, e/n, e%n, x[e], want[e])
					}
				}
			})
		}
		if kp == 80 && len(blocks) != 3 {
			t.Errorf("kp=%d: blocks %v, want 256, 512 and 1024", kp, blocks)
		}
	}
}

// TestCombineRowsBlock checks the blocks' widths against the L2 sizes by
// hand: 3/4 of L2 over one panel of kp rows (two where the call streams,
// (kp+k)·n ≥ combineStreamMin: 2^21, then 2^19), in multiples of 128
// columns within [256, 1024].
func TestCombineRowsBlock(t *testing.T) {
	sm := combineStreamMin
	t.Cleanup(func() { combineStreamMin = sm })
	combineStreamMin = prefetchMin
	for _, tc := range []struct{ kp, k, n, l2, want int }{
		{77, 38, 100000, 1 << 20, 512},        // 786 432 / (2·77·8) = 638
		{91, 45, 1000000, 1 << 20, 512},       // 786 432 / 1456 = 540
		{63, 31, 10000, 1 << 20, 1024},        // one panel ((63+31)·10⁴ < 2^21): 786 432 / 504 = 1560
		{49, 24, 100000, 1 << 20, 896},        // 786 432 / 784 = 1003
		{70, 34, 25000, 1 << 20, 640},         // kp·n below 2^21, (kp+k)·n above: two panels, 702
		{70, 2, 25000, 1 << 20, 1024},         // (kp+k)·n below: one panel, 1404
		{77, 38, 100000, 2 << 20, 1024},       // 1276
		{77, 38, 100000, 512 << 10, 256},      // 319
		{300, 38, 100000, 1 << 20, 256},       // 163, raised to the floor
		{0, 38, 100, 1 << 20, 1024},           // no stored vectors
		{1, 2, 3, 0, 256},                     // no L2: the floor
		{math.MaxInt / 3, 2, 4, 1 << 20, 256}, // (kp+k)·n overflows: the floor, no division by 0
		{-3, 2, 100, 1 << 20, 1024},           // no stored vectors
	} {
		if got := combineRowsBlockFor(tc.kp, tc.k, tc.n, tc.l2); got != tc.want {
			t.Errorf("kp=%d k=%d n=%d L2=%d: %d columns, want %d", tc.kp, tc.k, tc.n, tc.l2, got, tc.want)
		}
	}
	// Streaming from 4 MiB (an eighth of a 32 MiB L3): n = 10⁴ takes two
	// panels, n = 10³ still one.
	combineStreamMin = 1 << 19
	for _, tc := range []struct{ kp, k, n, l2, want int }{
		{63, 31, 10000, 1 << 20, 768},  // (63+31)·10⁴ ≥ 2^19: 786 432 / (2·63·8) = 780
		{49, 24, 1000, 1 << 20, 1024},  // (49+24)·10³ < 2^19: one panel, 2006
		{63, 31, 10000, 2 << 20, 1024}, // 1 572 864 / 1008 = 1560: capped
	} {
		if got := combineRowsBlockFor(tc.kp, tc.k, tc.n, tc.l2); got != tc.want {
			t.Errorf("streaming from 2^19: kp=%d k=%d n=%d L2=%d: %d columns, want %d", tc.kp, tc.k, tc.n, tc.l2, got, tc.want)
		}
	}
}

// TestDotRowsStreaming runs DotRows on rows too large to stay in the
// caches, where the amd64 paths ask for the next block's rows ahead:
// asking must not change a bit, so the result must equal the same blocks
// summed without it.
func TestDotRowsStreaming(t *testing.T) {
	const ka, kb = 9, 7 // whole 4×3 tiles, and the last rows of each
	n := prefetchMin/(ka+kb) + 44
	if (ka+kb)*n < prefetchMin || n%dotRowsBlock == 0 {
		t.Fatalf("shape %d+%d × %d does not reach the streaming blocks", ka, kb, n)
	}
	r := rand.New(rand.NewPCG(5, 11))
	a, b := genVec(r, ka*n, kindUniform), genVec(r, kb*n, kindUniform)
	want, got := make([]float64, ka*kb), make([]float64, ka*kb)
	forEachPath(t, func(t *testing.T) {
		clear(want)
		for c0 := 0; c0 < n; c0 += dotRowsBlock {
			dotRows(want, a[c0:], ka, b[c0:], kb, min(dotRowsBlock, n-c0), n, 0, 0, ka)
		}
		DotRows(got, a, ka, b, kb, n)
		if e := sameResults(got, want); e >= 0 {
			t.Fatalf("dst[%d] = %v, the blocks without prefetching give %v", e, got[e], want[e])
		}
	})
}
