package mmaes

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// lowRankRun returns an LMMA optimizer at n that has run gens generations
// of a rotated ellipsoid with a short window (c = 0.4: T = 2 or 3) and
// mem frozen terms, so that its slots have wrapped around; and the
// distribution.
func lowRankRun(t *testing.T, n, mem, gens int, scales bool) (*Optimizer, *lowRank) {
	t.Helper()
	cfg := DefaultConfig(n)
	cfg.Update, cfg.Memory, cfg.C, cfg.Seed = LMMA, mem, 0.4, 11
	cfg.Sigma, cfg.TolFun, cfg.TolX, cfg.MaxCondition = 1, 0, 0, 0
	cfg.Mean = make([]float64, n)
	for i := range cfg.Mean {
		cfg.Mean[i] = 3 + math.Sin(float64(i))
	}
	if scales {
		cfg.Scales = make([]float64, n)
		for i := range cfg.Scales {
			cfg.Scales[i] = math.Pow(10, float64(i%5)-2)
		}
	}
	o, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	f := func(x []float64) float64 {
		s := 0.0
		for i := 1; i < len(x); i++ {
			d := x[i] - 0.5*x[i-1]
			s += math.Pow(1e3, float64(i)/float64(len(x))) * d * d
		}
		return s + x[0]*x[0]
	}
	fit := make([]float64, o.Lambda())
	for g := 0; g < gens; g++ {
		for i, x := range o.Ask() {
			fit[i] = f(x)
		}
		if err := o.Tell(fit); err != nil {
			t.Fatal(err)
		}
	}
	return o, o.dist.(*lowRank)
}

// exactA returns A_ij = a·D_i·δ_ij + Σ_t g_t·p_t,i·v_t,j exactly (big.Float).
func exactA(d *lowRank, i, j int) *big.Float {
	n := d.n
	s := new(big.Float).SetPrec(2200)
	if i == j {
		s.SetFloat64(d.sd[i])
	}
	for t := 0; t < d.k; t++ {
		term := new(big.Float).SetPrec(2200).SetFloat64(d.g[t])
		term.Mul(term, big.NewFloat(d.p[t*n+i]))
		term.Mul(term, big.NewFloat(d.v[t*n+j]))
		s.Add(s, term)
	}
	return s
}

// TestLowRankSample: the candidates x_l = m + σ·A·z_l of the two-pass
// kernels agree with the product of the exact A, within the rounding of
// the passes: the coefficients v_t·z_l carry γ_n·Σ_j|v_t,j·z_j|, each
// multiplied by |g_t·p_t,i|, and the chain of the combination γ_{2k+4}·S
// (S the sum of the magnitudes of its terms, |m_i| included).
func TestLowRankSample(t *testing.T) {
	for _, scales := range []bool{false, true} {
		o, d := lowRankRun(t, 23, 3, 40, scales)
		if d.k != d.slots() || d.fast == 0 {
			t.Fatalf("setup: %d slots in use, want all %d, the fast ring's %d among them", d.k, d.slots(), d.fast)
		}
		n, lam := d.n, o.pop.lambda
		r := rand.New(rand.NewPCG(3, 4))
		z := make([]float64, lam*n)
		for i := range z {
			z[i] = r.NormFloat64()
		}
		x := make([]float64, lam*n)
		sigma := 0.37
		d.sampleDirect(x, z, o.m, sigma, lam, math.Inf(1))
		gammaN, gammaK := gammaOf(n), gammaOf(2*d.k+4)
		for l := 0; l < lam; l++ {
			zl := z[l*n : l*n+n]
			for i := 0; i < n; i++ {
				exact := new(big.Float).SetPrec(2200)
				for j := 0; j < n; j++ {
					exact.Add(exact, new(big.Float).SetPrec(2200).Mul(exactA(d, i, j), big.NewFloat(zl[j])))
				}
				exact.Mul(exact, big.NewFloat(sigma))
				exact.Add(exact, big.NewFloat(o.m[i]))
				want, _ := exact.Float64()
				// The bound of the two passes.
				S := math.Abs(o.m[i]) + sigma*math.Abs(d.sd[i]*zl[i])
				coef := 0.0
				for tt := 0; tt < d.k; tt++ {
					vz := 0.0
					for j := 0; j < n; j++ {
						vz += math.Abs(d.v[tt*n+j] * zl[j])
					}
					gp := math.Abs(d.g[tt] * d.p[tt*n+i])
					S += sigma * gp * vz
					coef += sigma * gp * (gammaN*vz + 2*u*vz)
				}
				bound := coef + gammaK*S*(1+8*u) + u*math.Abs(want)
				if got := x[l*n+i]; !(math.Abs(got-want) <= bound) {
					t.Fatalf("scales %v: x[%d][%d] = %v, want %v (|err| %.3g > bound %.3g)", scales, l, i, got, want, math.Abs(got-want), bound)
				}
			}
		}
	}
}

const u = 0x1p-53

func gammaOf(k int) float64 { return float64(k) * u / (1 - float64(k)*u) }

// TestLowRankScan: the row norms of the O(n·k²) formula agree with the
// exact row norms of A. The formula sums (a·D_i)², 2·a·D_i·Σ q_t·v_t,i and
// Σ q_t·(G·q)_t with G = VᵀV rounded; the squared norm carries γ_{n+2k+4}
// times the sum of those terms' magnitudes, (|a·D_i| + Σ_t |q_t|·‖v_t‖)²
// bounds it, and the square root halves the relative error.
func TestLowRankScan(t *testing.T) {
	for _, scales := range []bool{false, true} {
		_, d := lowRankRun(t, 29, 4, 50, scales)
		n := d.n
		lo, hi := d.deviations() // a scan without the vector of norms
		rows := make([]float64, n)
		d.stdDevs(rows) // a scan into it
		if wantHi, wantLo := extremes(rows); hi != wantHi || lo != wantLo {
			t.Fatalf("deviations %v, %v; the norms' extremes %v, %v", lo, hi, wantLo, wantHi)
		}
		if scales && d.relCond != relativeCond(rows, d.s0) {
			t.Fatalf("relative condition %v, of the norms %v", d.relCond, relativeCond(rows, d.s0))
		}
		for i := 0; i < n; i++ {
			sq := new(big.Float).SetPrec(2200)
			for j := 0; j < n; j++ {
				a := exactA(d, i, j)
				sq.Add(sq, new(big.Float).SetPrec(2200).Mul(a, a))
			}
			want2, _ := sq.Float64()
			want := math.Sqrt(want2)
			mag := math.Abs(d.sd[i])
			for tt := 0; tt < d.k; tt++ {
				mag += math.Abs(d.g[tt]*d.p[tt*n+i]) * d.vNorm[tt]
			}
			bound2 := gammaOf(n+2*d.k+8) * mag * mag
			// |√a − √b| ≤ |a − b|/(√a + √b) ≤ |a − b|/√b.
			bound := bound2/want + 2*u*want
			if got := rows[i]; !(math.Abs(got-want) <= bound) {
				t.Fatalf("scales %v: row %d norm %v, want %v (|err| %.3g > %.3g)", scales, i, got, want, math.Abs(got-want), bound)
			}
		}
		// The bound of the stop tests bounds every row.
		for _, r := range rows {
			if r > d.rowBound() {
				t.Fatalf("row norm %v above the bound %v", r, d.rowBound())
			}
		}
	}
}

// TestLowRankSolve: z = solve(y) satisfies A·z = y up to the rounding of
// the product and the condition of the k×k system: the residual is checked
// against γ·(|A|·|z| + |y|) with a factor for the elimination.
func TestLowRankSolve(t *testing.T) {
	for _, scales := range []bool{false, true} {
		_, d := lowRankRun(t, 31, 3, 60, scales)
		n := d.n
		r := rand.New(rand.NewPCG(5, 6))
		y := make([]float64, n)
		for i := range y {
			y[i] = r.NormFloat64()
		}
		z := make([]float64, n)
		if !d.solve(z, y) {
			t.Fatal("solve reports a singular A")
		}
		a := d.matrix()
		for i := 0; i < n; i++ {
			az, mag := 0.0, math.Abs(y[i])
			for j := 0; j < n; j++ {
				az += a[i*n+j] * z[j]
				mag += math.Abs(a[i*n+j] * z[j])
			}
			// The elimination of the k×k system and the O(n) sums: a
			// generous polynomial in n and k of the unit roundoff (no
			// test of conditioning: A here is well conditioned, κ < 1e4).
			bound := 1e4 * gammaOf(n+d.k*d.k) * mag
			if res := math.Abs(az - y[i]); !(res <= bound) {
				t.Fatalf("scales %v: (A·z − y)[%d] = %.3g > %.3g", scales, i, res, bound)
			}
		}
	}
}

// TestLowRankWindows rebuilds A from its definition, generation by
// generation, out of the live paths the accessors show (P, V) and the
// rates: each generation adds η = c1/2 to the live term's coefficient; after
// T generations the live term is frozen (with the paths of that moment)
// and a new live term starts at 0; at most Memory frozen terms are kept,
// the oldest forgotten. The dense A of the optimizer must equal
// I + Σ_frozen g·p·vᵀ + g_live·p·vᵀ (within the rounding of the sums).
// With the fast ring the same holds for its terms, whose paths the test
// follows on its own at the rate Params.FastC: from the slow paths'
// consecutive values it recovers z_w and y_w (v' = (1−c)·v + c_p·z_w),
// and each fast window adds ηF = 1/(2·T_F·n) for FastWindow generations.
func TestLowRankWindows(t *testing.T) {
	for _, fastMem := range []int{-1, 2} {
		t.Run(fmt.Sprintf("FastMemory=%d", fastMem), func(t *testing.T) { testLowRankWindows(t, fastMem) })
	}
}

func testLowRankWindows(t *testing.T, fastMem int) {
	const n, mem = 9, 3
	cfg := DefaultConfig(n)
	cfg.Update, cfg.Memory, cfg.C, cfg.Seed, cfg.FastMemory = LMMA, mem, 0.35, 4, fastMem
	cfg.TolFun, cfg.TolX, cfg.MaxCondition = 0, 0, 0
	cfg.Mean = make([]float64, n)
	for i := range cfg.Mean {
		cfg.Mean[i] = float64(i + 1)
	}
	o, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	par := o.Params()
	eta, window := par.C1/2, par.Window
	if window != 3 {
		t.Fatalf("window %d, want 1/0.35 rounded = 3", window)
	}
	type term struct {
		p, v []float64
		g    float64
	}
	var frozen, fastFrozen []term
	live := term{g: 0}
	win := 0
	// The fast ring: its rate, path normalization, η and window.
	cF, winF := par.FastC, par.FastWindow
	cp, cpF := math.Sqrt(par.C*(2-par.C)*par.MuEff), math.Sqrt(cF*(2-cF)*par.MuEff)
	etaF := 1 / (2 * float64(winF) * float64(n))
	fastLive := term{p: make([]float64, n), v: make([]float64, n)}
	fastWin := 0
	if fastMem >= 0 && (par.FastMemory != fastMem || !(cF > par.C) || winF != int(math.Round(1/cF))) {
		t.Fatalf("fast ring: Params FastMemory %d, FastC %v, FastWindow %d", par.FastMemory, cF, winF)
	}
	if fastMem < 0 && (par.FastMemory != 0 || cF != 0 || winF != 0) {
		t.Fatalf("no fast ring: Params FastMemory %d, FastC %v, FastWindow %d", par.FastMemory, cF, winF)
	}
	prevP, prevV := make([]float64, n), make([]float64, n)
	sd := make([]float64, n)
	for i := range sd {
		sd[i] = 1
	}
	dense := func(terms []term) []float64 {
		a := make([]float64, n*n)
		for i := 0; i < n; i++ {
			a[i*n+i] = sd[i]
		}
		for _, tm := range terms {
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					a[i*n+j] += tm.g * tm.p[i] * tm.v[j]
				}
			}
		}
		return a
	}
	fit := make([]float64, o.Lambda())
	for gen := 1; gen <= 40; gen++ {
		for i, x := range o.Ask() {
			s := 0.0
			for j, xj := range x {
				s += float64(j+1) * xj * xj
			}
			fit[i] = s
		}
		if err := o.Tell(fit); err != nil {
			t.Fatal(err)
		}
		live.p, live.v = append([]float64(nil), o.P()...), append([]float64(nil), o.V()...)
		if fastMem >= 0 {
			// z_w and y_w from the slow paths, then the fast paths.
			p, v := make([]float64, n), make([]float64, n)
			for i := range n {
				zw := (live.v[i] - (1-par.C)*prevV[i]) / cp
				yw := (live.p[i] - (1-par.C)*prevP[i]) / cp
				v[i] = (1-cF)*fastLive.v[i] + cpF*zw
				p[i] = (1-cF)*fastLive.p[i] + cpF*yw
			}
			fastLive.p, fastLive.v, fastLive.g = p, v, fastLive.g+etaF
			fastWin++
			if fastWin == winF {
				fastFrozen = append(fastFrozen, fastLive)
				if len(fastFrozen) > fastMem {
					fastFrozen = fastFrozen[1:]
				}
				fastLive, fastWin = term{p: p, v: v}, 0
			}
		}
		copy(prevP, live.p)
		copy(prevV, live.v)
		live.g += eta
		win++
		if win == window {
			frozen = append(frozen, live)
			if len(frozen) > mem {
				frozen = frozen[1:]
			}
			live, win = term{p: live.p, v: live.v}, 0
		}
		terms := append(append([]term(nil), frozen...), live)
		if fastMem >= 0 {
			terms = append(append(terms, fastFrozen...), fastLive)
		}
		want := dense(terms)
		got := o.A()
		for e := range want {
			if d := math.Abs(got[e] - want[e]); d > 1e-12*(1+math.Abs(want[e])) {
				t.Fatalf("generation %d: A[%d] = %v, the definition gives %v", gen, e, got[e], want[e])
			}
		}
	}
}

// TestLowRankDecodeSlots: while the ring of frozen terms fills (k below
// its slots) the live term is the last slot; a checkpoint whose live slot
// is another (which commit would then overwrite while it holds a frozen
// term) is refused, and the true one accepted.
func TestLowRankDecodeSlots(t *testing.T) {
	_, d := lowRankRun(t, 7, 6, 5, false)
	if d.k >= d.slots() || d.live != d.k-1 {
		t.Fatalf("after 5 generations: %d of %d slots, live %d: not filling", d.k, d.slots(), d.live)
	}
	var e encoder
	d.encode(&e)
	liveAt := 8*len(d.sd) + 8 // after S and k
	decode := func(b []byte) error {
		_, r := lowRankRun(t, 7, 6, 0, false)
		return r.decode(&decoder{b: b, version: ckVersion}, true)
	}
	if err := decode(e.b); err != nil {
		t.Fatalf("the true state: %v", err)
	}
	for live := d.fast; live < d.k-1; live++ {
		b := append([]byte(nil), e.b...)
		binary.LittleEndian.PutUint64(b[liveAt:], uint64(live))
		if err := decode(b); err == nil {
			t.Errorf("%d slots in use of %d, live %d accepted", d.k, d.slots(), live)
		}
	}
}

// TestLowRankCandidateBound checks the bound by which sampleDirect reports
// finite candidates: on a state whose slots have wrapped around, with and
// without scales, for σ from 1 to beyond overflow and deviates up to zMax
// in magnitude, every |x_l,i| is at most the bound (the bound is one), and
// where sampleDirect reports finite candidates they are; it does not
// report them for z of unknown magnitude, nor for a NaN in m.
func TestLowRankCandidateBound(t *testing.T) {
	for _, scales := range []bool{false, true} {
		o, d := lowRankRun(t, 23, 3, 40, scales)
		n, lam := d.n, o.pop.lambda
		r := rand.New(rand.NewPCG(5, 6))
		z := make([]float64, lam*n)
		x := make([]float64, lam*n)
		const zMax = 16.0
		reported := 0
		for _, sigma := range []float64{1, 1e10, 1e300, 1e305, 1e307, 1e308} {
			for rep := 0; rep < 5; rep++ {
				for i := range z {
					z[i] = zMax * (2*r.Float64() - 1)
				}
				if rep == 0 {
					z[r.IntN(len(z))] = zMax
				}
				ok := d.sampleDirect(x, z, o.m, sigma, lam, zMax)
				bound := d.candidateBound(o.m, sigma, lam, zMax)
				finiteX := true
				for i, v := range x {
					if !finite(v) {
						finiteX = false
						continue
					}
					if math.Abs(v) > bound*(1+1e-12) {
						t.Fatalf("scales %v, σ = %g: |x[%d]| = %g above the bound %g", scales, sigma, i, math.Abs(v), bound)
					}
				}
				if ok && !finiteX {
					t.Fatalf("scales %v, σ = %g: sampleDirect reports finite candidates, some are not", scales, sigma)
				}
				if ok {
					reported++
				}
				if d.sampleDirect(x, z, o.m, sigma, lam, math.Inf(1)) {
					t.Fatalf("scales %v, σ = %g: finite candidates reported for deviates of unknown magnitude", scales, sigma)
				}
			}
		}
		if reported != 10 { // σ = 1 and 10¹⁰, 5 repetitions each
			t.Errorf("scales %v: finite candidates reported %d times, want 10", scales, reported)
		}
		m := append([]float64(nil), o.m...)
		m[n/2] = math.NaN()
		if d.sampleDirect(x, z, m, 1, lam, zMax) {
			t.Errorf("scales %v: finite candidates reported with a NaN in m", scales)
		}
	}
}

// TestLowRankRestoredCandidates checks that the candidates recomputed from
// a decoded state's deviates are checked, not bounded by the generator's
// range: a deviate of 10³⁰⁸ (which no draw gives, a checkpoint may hold)
// makes a candidate overflow, and checkRestored reports it.
func TestLowRankRestoredCandidates(t *testing.T) {
	o, _ := lowRankRun(t, 23, 3, 40, false)
	o.Ask()
	if err := o.checkRestored(); err != nil {
		t.Fatalf("the state as it is: %v", err)
	}
	o.pop.z[5] = 1e308
	if err := o.checkRestored(); err == nil {
		t.Fatal("a candidate that overflows passed checkRestored")
	}
}

// TestLowRankUnusedSlots checks that nothing reads the slots past k, which
// reset leaves as they were: two runs from the same seed, one with NaN in
// every slot past k after New and again after a restart, give the same
// candidates, bit for bit, while their slots fill, wrap around, and fill
// again after the restart (a pass, a scan or a checkpoint that read one of
// them would carry the NaN into the candidates or the state).
func TestLowRankUnusedSlots(t *testing.T) {
	const n = 12
	cfg := DefaultConfig(n)
	cfg.Update, cfg.Memory, cfg.FastMemory, cfg.C, cfg.Seed = LMMA, 3, 2, 0.4, 5
	cfg.TolFun, cfg.TolX, cfg.MaxCondition = 0, 0, 0
	cfg.Mean = make([]float64, n)
	for i := range cfg.Mean {
		cfg.Mean[i] = 1 + math.Sin(float64(i))
	}
	var opts [2]*Optimizer
	for i := range opts {
		o, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		opts[i] = o
	}
	poison := func() {
		d := opts[1].dist.(*lowRank)
		if d.k == d.slots() {
			t.Fatalf("all %d slots in use: nothing to poison", d.k)
		}
		for i := d.k * n; i < len(d.p); i++ {
			d.p[i], d.v[i] = math.NaN(), math.NaN()
		}
	}
	f := func(x []float64) float64 {
		s := 0.0
		for i, xi := range x {
			s += math.Pow(100, float64(i)/(n-1)) * xi * xi
		}
		return s
	}
	fit := make([]float64, opts[0].Lambda())
	run := func(gens int) {
		for g := 0; g < gens; g++ {
			xs := [2][][]float64{opts[0].Ask(), opts[1].Ask()}
			for i := range xs[0] {
				for j := range xs[0][i] {
					if a, b := xs[0][i][j], xs[1][i][j]; math.Float64bits(a) != math.Float64bits(b) {
						t.Fatalf("generation %d, candidate %d, element %d: %v without the NaN, %v with", opts[0].Generation(), i, j, a, b)
					}
				}
				fit[i] = f(xs[0][i])
			}
			for _, o := range opts {
				if err := o.Tell(fit); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	poison()
	run(60)
	d := opts[1].dist.(*lowRank)
	if d.k != d.slots() || d.live == d.slots()-1 {
		t.Fatalf("after 60 generations %d of %d slots in use, live %d: the ring has not wrapped around", d.k, d.slots(), d.live)
	}
	for _, o := range opts {
		o.startRun(0.5, 0)
	}
	poison()
	run(4)
	if d.k == d.slots() {
		t.Fatal("all slots in use 4 generations after the restart")
	}
	var cks [2][]byte
	for i, o := range opts {
		ck, err := o.MarshalBinary()
		if err != nil {
			t.Fatalf("optimizer %d: checkpoint: %v", i, err)
		}
		cks[i] = ck
	}
	if !bytes.Equal(cks[0], cks[1]) {
		t.Error("the checkpoints differ")
	}
	run(30)
}
