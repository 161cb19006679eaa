package mmaes_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/mmaes-go/mmaes"
)

// updates are the full-matrix rules; allUpdates adds the limited memory.
var (
	updates    = []mmaes.Update{mmaes.MMA, mmaes.ECMA, mmaes.Cholesky}
	allUpdates = []mmaes.Update{mmaes.MMA, mmaes.ECMA, mmaes.Cholesky, mmaes.LMMA}
)

func sphere(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	return s
}

// ellipsoid is Σ 10^(6(i−1)/(n−1))·x_i² (the paper's f_Ell).
func ellipsoid(x []float64) float64 {
	n := len(x)
	s := 0.0
	for i, v := range x {
		e := 0.0
		if n > 1 {
			e = 6 * float64(i) / float64(n-1)
		}
		s += math.Pow(10, e) * v * v
	}
	return s
}

// mustNew returns an optimizer for cfg or fails the test.
func mustNew(t testing.TB, cfg mmaes.Config) *mmaes.Optimizer {
	t.Helper()
	o, err := mmaes.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// startConfig is the paper's start: σ0 = 20/3, the mean a fixed point in
// [−10, 10]^n.
func startConfig(n int, u mmaes.Update, seed uint64) mmaes.Config {
	cfg := mmaes.DefaultConfig(n)
	cfg.Update = u
	cfg.Seed = seed
	cfg.Sigma = 20.0 / 3
	cfg.Mean = make([]float64, n)
	for i := range cfg.Mean {
		cfg.Mean[i] = 10 * math.Sin(float64(3*i+1)) // deterministic, in [−10, 10]
	}
	return cfg
}

// step runs one generation by Ask and Tell.
func step(t testing.TB, o *mmaes.Optimizer, f func([]float64) float64, fit []float64) {
	t.Helper()
	xs := o.Ask()
	if xs == nil {
		t.Fatalf("Ask returned nil: %v", o.Reason())
	}
	for i, x := range xs {
		fit[i] = f(x)
	}
	if err := o.Tell(fit); err != nil {
		t.Fatal(err)
	}
}

// state returns the whole state of o as bytes, to compare states bit for bit.
func state(t testing.TB, o *mmaes.Optimizer) []byte {
	t.Helper()
	b, err := o.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDefaultParams(t *testing.T) {
	for _, n := range []int{1, 2, 3, 4, 5, 8, 10, 16, 32, 100, 1000, 4096} {
		o := mustNew(t, mmaes.DefaultConfig(n))
		p := o.Params()
		nf := float64(n)
		lambda := 4 + int(math.Floor(3*math.Log(nf)))
		mu := lambda / 2
		if p.Lambda != lambda || p.Mu != mu || o.Lambda() != lambda || o.Mu() != mu || o.Dim() != n {
			t.Fatalf("n=%d: λ, μ = %d, %d, want %d, %d", n, p.Lambda, p.Mu, lambda, mu)
		}
		sumLn := 0.0
		for j := 1; j <= mu; j++ {
			sumLn += math.Log(float64(j))
		}
		var sw, sw2 float64
		for i := 1; i <= mu; i++ {
			w := (math.Log(float64(mu)+1) - math.Log(float64(i))) / (float64(mu)*math.Log(float64(mu)+1) - sumLn)
			near(t, "w", p.Weights[i-1], w, 1e-15)
			if i > 1 && p.Weights[i-1] > p.Weights[i-2] {
				t.Errorf("n=%d: weights not decreasing", n)
			}
			sw += w
			sw2 += w * w
		}
		near(t, "Σw", sw, 1, 1e-14)
		muEff := 1 / sw2
		cs := math.Sqrt(muEff) / (math.Sqrt(nf) + math.Sqrt(muEff))
		ds := 1 + 2*math.Max(0, math.Sqrt((muEff-1)/(nf+1))-1) + cs
		near(t, "μ_eff", p.MuEff, muEff, 1e-14)
		near(t, "c_σ", p.CSigma, cs, 1e-14)
		near(t, "d_σ", p.DSigma, ds, 1e-14)
		near(t, "c", p.C, 4/(nf+4), 1e-15)
		near(t, "c1", p.C1, 2/math.Pow(nf+math.Sqrt2, 2), 1e-14)
		near(t, "E‖N‖", p.ChiN, math.Sqrt(nf)*(1-1/(4*nf)+1/(21*nf*nf)), 1e-15)
		// The approximation is close to the exact √2·Γ((n+1)/2)/Γ(n/2).
		lg1, _ := math.Lgamma((nf + 1) / 2)
		lg2, _ := math.Lgamma(nf / 2)
		near(t, "E‖N‖ vs Γ", p.ChiN, math.Sqrt2*math.Exp(lg1-lg2), 0.02/nf)
		if want := 10 + (30*n+lambda-1)/lambda; p.TolFunHist != want {
			t.Errorf("n=%d: TolFunHist %d, want %d", n, p.TolFunHist, want)
		}
	}
}

func near(t *testing.T, what string, got, want, rel float64) {
	t.Helper()
	if math.Abs(got-want) > rel*math.Abs(want) {
		t.Errorf("%s = %v, want %v (rel %g)", what, got, want, rel)
	}
}

func TestParamsOverride(t *testing.T) {
	cfg := mmaes.DefaultConfig(6)
	cfg.Lambda, cfg.Mu = 20, 20
	cfg.C, cfg.C1, cfg.CSigma, cfg.DSigma = 1, 0.5, 0.25, 3
	p := mustNew(t, cfg).Params()
	if p.Lambda != 20 || p.Mu != 20 || len(p.Weights) != 20 || p.C != 1 || p.C1 != 0.5 || p.CSigma != 0.25 || p.DSigma != 3 {
		t.Errorf("overrides not applied: %+v", p)
	}
	cfg.Mu = 0
	if p := mustNew(t, cfg).Params(); p.Mu != 10 {
		t.Errorf("μ = %d, want λ/2 = 10", p.Mu)
	}
}

func TestDefaultConfigNeverPanics(t *testing.T) {
	for _, n := range []int{math.MinInt, -1, 0, 1, 2, 1 << 30, math.MaxInt} {
		cfg := mmaes.DefaultConfig(n)
		if cfg.Dim != n || !math.IsInf(cfg.TargetF, -1) || cfg.TolFun != 1e-12 || cfg.TolX != 1e-11 {
			t.Errorf("DefaultConfig(%d) = %+v", n, cfg)
		}
		if n < 1 || n >= 1<<30 {
			if _, err := mmaes.New(cfg); !errors.Is(err, mmaes.ErrInvalidConfig) {
				t.Errorf("New(DefaultConfig(%d)): err = %v, want ErrInvalidConfig", n, err)
			}
		}
	}
	if g := mmaes.DefaultConfig(10).MaxGenerations; g != int(100+150*13*13/math.Sqrt(10)) {
		t.Errorf("MaxGenerations(10) = %d", g)
	}
}

func TestNewErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		field string
		edit  func(*mmaes.Config)
	}{
		{"Dim", func(c *mmaes.Config) { c.Dim = 0 }},
		{"Dim", func(c *mmaes.Config) { c.Dim = -3 }},
		{"Dim", func(c *mmaes.Config) { c.Dim = math.MaxInt / 2 }},
		{"Sigma", func(c *mmaes.Config) { c.Sigma = 0 }},
		{"Sigma", func(c *mmaes.Config) { c.Sigma = -1 }},
		{"Sigma", func(c *mmaes.Config) { c.Sigma = nan }},
		{"Sigma", func(c *mmaes.Config) { c.Sigma = inf }},
		{"Mean", func(c *mmaes.Config) { c.Mean = []float64{1, 2} }},
		{"Mean", func(c *mmaes.Config) { c.Mean = []float64{} }},
		{"Mean[2]", func(c *mmaes.Config) { c.Mean = []float64{0, 0, nan, 0} }},
		{"Mean[3]", func(c *mmaes.Config) { c.Mean = []float64{0, 0, 0, -inf} }},
		{"Update", func(c *mmaes.Config) { c.Update = 99 }},
		{"Update", func(c *mmaes.Config) { c.Update = -1 }},
		{"Lambda", func(c *mmaes.Config) { c.Lambda = 1 }},
		{"Lambda", func(c *mmaes.Config) { c.Lambda = -4 }},
		{"Lambda", func(c *mmaes.Config) { c.Lambda = math.MaxInt / 2 }},
		{"Mu", func(c *mmaes.Config) { c.Mu = -1 }},
		{"Mu", func(c *mmaes.Config) { c.Mu = 9 }},
		{"Mu", func(c *mmaes.Config) { c.Lambda, c.Mu = 4, 5 }},
		{"C", func(c *mmaes.Config) { c.C = 1.5 }},
		{"C", func(c *mmaes.Config) { c.C = -0.1 }},
		{"C1", func(c *mmaes.Config) { c.C1 = 1 }},
		{"C1", func(c *mmaes.Config) { c.C1 = nan }},
		{"CSigma", func(c *mmaes.Config) { c.CSigma = 2 }},
		{"DSigma", func(c *mmaes.Config) { c.DSigma = -1 }},
		{"Active", func(c *mmaes.Config) { c.Active = true }},
		{"FlatFitness", func(c *mmaes.Config) { c.FlatFitness = -1 }},
		{"Hopeless", func(c *mmaes.Config) { c.Hopeless = -1 }},
		{"Hopeless", func(c *mmaes.Config) { c.Hopeless = nan }},
		{"Hopeless", func(c *mmaes.Config) { c.Hopeless = inf }},
		{"DSigma", func(c *mmaes.Config) { c.DSigma = inf }},
		{"TargetF", func(c *mmaes.Config) { c.TargetF = nan }},
		{"MaxEvals", func(c *mmaes.Config) { c.MaxEvals = -1 }},
		{"MaxGenerations", func(c *mmaes.Config) { c.MaxGenerations = -1 }},
		{"TolFun", func(c *mmaes.Config) { c.TolFun = -1e-9 }},
		{"TolFun", func(c *mmaes.Config) { c.TolFun = nan }},
		{"TolFunHist", func(c *mmaes.Config) { c.TolFunHist = -2 }},
		{"TolX", func(c *mmaes.Config) { c.TolX = inf }},
		{"MaxCondition", func(c *mmaes.Config) { c.MaxCondition = -1 }},
		{"RankMu", func(c *mmaes.Config) { c.RankMu, c.Update = true, mmaes.ECMA }},
		{"RankMu", func(c *mmaes.Config) { c.RankMu, c.Update = true, mmaes.Cholesky }},
		{"CMu", func(c *mmaes.Config) { c.CMu = 0.1 }},
		{"CMu", func(c *mmaes.Config) { c.RankMu, c.CMu = true, 1 }},
		{"CMu", func(c *mmaes.Config) { c.RankMu, c.CMu = true, nan }},
		{"CMu", func(c *mmaes.Config) { c.RankMu, c.CMu, c.C1 = true, 0.6, 0.5 }},
		{"Restart", func(c *mmaes.Config) { c.Restart = 3 }},
		{"Restart", func(c *mmaes.Config) { c.Restart = -1 }},
		{"MaxRestarts", func(c *mmaes.Config) { c.MaxRestarts = 3 }},
		{"MaxRestarts", func(c *mmaes.Config) { c.Restart, c.MaxRestarts = mmaes.IPOP, -1 }},
		{"MaxRestarts", func(c *mmaes.Config) { c.Restart, c.MaxRestarts = mmaes.BIPOP, 30 }},
		{"MaxRestarts", func(c *mmaes.Config) { c.Restart, c.Lambda = mmaes.IPOP, 1<<19 }},
		{"Lower", func(c *mmaes.Config) { c.Lower = []float64{0, 0, 0} }},
		{"Upper", func(c *mmaes.Config) { c.Upper = []float64{} }},
		{"Lower[1]", func(c *mmaes.Config) { c.Lower = []float64{-1, nan, -1, -1} }},
		{"Upper[3]", func(c *mmaes.Config) { c.Upper = []float64{1, 1, 1, nan} }},
		{"Lower[0]", func(c *mmaes.Config) { c.Lower = []float64{inf, -1, -1, -1} }},
		{"Upper[2]", func(c *mmaes.Config) { c.Upper = []float64{1, 1, -inf, 1} }},
		{"Lower[2]", func(c *mmaes.Config) {
			c.Lower, c.Upper = []float64{-1, -1, 2, -1}, []float64{1, 1, 1, 1}
		}},
		{"Mean", func(c *mmaes.Config) { c.Lower = []float64{-1, 1, -1, -1} }}, // the origin outside
		{"Mean[3]", func(c *mmaes.Config) {
			c.Mean, c.Upper = []float64{0, 0, 0, 2}, []float64{1, 1, 1, 1}
		}},
		{"Workers", func(c *mmaes.Config) { c.Workers = -1 }},
		{"Workers", func(c *mmaes.Config) { c.Workers = 1 << 30 }},
		{"Scales", func(c *mmaes.Config) { c.Scales = []float64{1, 1, 1} }},
		{"Scales", func(c *mmaes.Config) { c.Scales = []float64{} }},
		{"Scales[0]", func(c *mmaes.Config) { c.Scales = []float64{0, 1, 1, 1} }},
		{"Scales[1]", func(c *mmaes.Config) { c.Scales = []float64{1, -2, 1, 1} }},
		{"Scales[2]", func(c *mmaes.Config) { c.Scales = []float64{1, 1, nan, 1} }},
		{"Scales[3]", func(c *mmaes.Config) { c.Scales = []float64{1, 1, 1, inf} }},
		{"Scales[3]", func(c *mmaes.Config) { c.Scales = []float64{1, 1, 1, 5e-324} }},
		{"MinStd", func(c *mmaes.Config) { c.MinStd = -1 }},
		{"MinStd", func(c *mmaes.Config) { c.MinStd = nan }},
		{"MinStd", func(c *mmaes.Config) { c.MinStd = inf }},
		{"MaxStd", func(c *mmaes.Config) { c.MaxStd = -1e-3 }},
		{"MaxStd", func(c *mmaes.Config) { c.MaxStd = nan }},
		{"MinStd", func(c *mmaes.Config) { c.MinStd, c.MaxStd = 2, 1 }},
		{"FastMemory", func(c *mmaes.Config) { c.FastMemory = 2 }}, // not with MMA
		{"FastMemory", func(c *mmaes.Config) { c.Update, c.FastMemory = mmaes.LMMA, -2 }},
		{"FastMemory", func(c *mmaes.Config) { c.Update, c.FastMemory = mmaes.LMMA, 1025 }},
	}
	for _, tc := range cases {
		cfg := mmaes.DefaultConfig(4)
		tc.edit(&cfg)
		o, err := mmaes.New(cfg)
		var ce *mmaes.ConfigError
		if o != nil || !errors.Is(err, mmaes.ErrInvalidConfig) || !errors.As(err, &ce) {
			t.Errorf("%s: New = %v, %v; want nil and a *ConfigError", tc.field, o, err)
			continue
		}
		if ce.Field != tc.field || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%s: error %q names %q", tc.field, err, ce.Field)
		}
	}
	// Valid corner cases.
	for _, edit := range []func(*mmaes.Config){
		func(c *mmaes.Config) { c.Dim, c.Mean = 1, nil },
		func(c *mmaes.Config) { c.Lambda, c.Mu = 2, 1 },
		func(c *mmaes.Config) { c.Lambda, c.Mu = 3, 3 },
		func(c *mmaes.Config) { c.TargetF = math.Inf(1) },
		func(c *mmaes.Config) { c.Sigma = 1e-300 },
		func(c *mmaes.Config) { c.Sigma = 1e300 },
		func(c *mmaes.Config) { c.C, c.CSigma = 1, 1 },
		func(c *mmaes.Config) { c.MaxCondition = inf },
		func(c *mmaes.Config) { c.RankMu = true },
		func(c *mmaes.Config) { c.RankMu, c.CMu = true, 0.5 },
		func(c *mmaes.Config) { c.Restart, c.MaxRestarts = mmaes.IPOP, 16 },
		func(c *mmaes.Config) { c.Restart = mmaes.BIPOP },
		func(c *mmaes.Config) { c.Lower, c.Upper = []float64{0, -inf, -1, 0}, []float64{0, 0, inf, 1e-300} },
		func(c *mmaes.Config) { c.Lower = []float64{-inf, -inf, -inf, -inf} },
		func(c *mmaes.Config) { c.Workers = 1 },
		func(c *mmaes.Config) { c.Workers = 64 },
		func(c *mmaes.Config) { c.Scales = []float64{1e-300, 1e300, 1, 1e-308} },
		func(c *mmaes.Config) { c.MinStd, c.MaxStd = 1, 1 },
		func(c *mmaes.Config) { c.MinStd = 1e-300 },
	} {
		cfg := mmaes.DefaultConfig(4)
		edit(&cfg)
		if _, err := mmaes.New(cfg); err != nil {
			t.Errorf("New(%+v): %v", cfg, err)
		}
	}
}

func TestSphereConverges(t *testing.T) {
	for _, u := range allUpdates {
		for _, n := range []int{2, 10} {
			for seed := uint64(1); seed <= 3; seed++ {
				cfg := startConfig(n, u, seed)
				cfg.TargetF = 1e-10
				res, err := mustNew(t, cfg).Optimize(context.Background(), sphere)
				if err != nil || res.Reason != mmaes.TargetReached || !(res.F <= 1e-10) || sphere(res.X) != res.F {
					t.Errorf("%v n=%d seed %d: %v, F=%g after %d evals (err %v)", u, n, seed, res.Reason, res.F, res.Evals, err)
				}
				if max := 2000 * n; res.Evals > max {
					t.Errorf("%v n=%d: %d evals, more than %d", u, n, res.Evals, max)
				}
			}
		}
	}
}

// TestMeanUpdate checks m ← Σ w_i·x_{i:λ} on one generation with a known
// ranking.
func TestMeanUpdate(t *testing.T) {
	for _, u := range allUpdates {
		o := mustNew(t, startConfig(5, u, 3))
		xs := o.Ask()
		fit := make([]float64, len(xs))
		for i, x := range xs {
			fit[i] = sphere(x)
		}
		order := argsort(fit)
		w := o.Params().Weights
		m0 := append([]float64(nil), o.Mean()...)
		want, mag := make([]float64, 5), make([]float64, 5)
		for k, wk := range w {
			for j := range want {
				want[j] += wk * xs[order[k]][j]
				mag[j] += wk * (math.Abs(xs[order[k]][j]) + math.Abs(m0[j]))
			}
		}
		if err := o.Tell(fit); err != nil {
			t.Fatal(err)
		}
		// The optimizer computes m + σ·Σ w_k·y_k, the test Σ w_k·x_k with
		// x_k = m + σ·y_k rounded: both are μ-term sums of terms bounded by
		// w_k·(|x_k| + |m|) (σ|y_k| ≤ |x_k| + |m|), a few roundings each.
		mu := float64(len(w))
		for j, mj := range o.Mean() {
			if math.Abs(mj-want[j]) > 2*(mu+4)*0x1p-53*mag[j] {
				t.Errorf("%v: mean[%d] = %v, want %v", u, j, mj, want[j])
			}
		}
	}
}

func argsort(f []float64) []int {
	idx := make([]int, len(f))
	for i := range idx {
		idx[i] = i
	}
	for i := 1; i < len(idx); i++ { // stable insertion sort
		for j := i; j > 0 && f[idx[j]] < f[idx[j-1]]; j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
	return idx
}

// TestMatrixUpdates checks one Tell of each rule against a naive
// computation of the paper's formula from the state before it (A, p, v,
// A_inv) and the paths after it. The tolerance is a few units of rounding of
// each term: |ΔA_ij| ≤ 8u·(|α·a_ij| + |β·p_i·q_j|).
func TestMatrixUpdates(t *testing.T) {
	const u = 0x1p-53
	for _, upd := range updates {
		for _, n := range []int{1, 3, 7} {
			o := mustNew(t, startConfig(n, upd, 11))
			fit := make([]float64, o.Lambda())
			for g := 0; g < 30; g++ { // get A away from I
				step(t, o, ellipsoid, fit)
			}
			a0 := append([]float64(nil), o.A()...)
			ainv0 := append([]float64(nil), o.AInv()...)
			step(t, o, ellipsoid, fit)
			c1 := o.Params().C1
			p, v := o.P(), o.V()
			var alpha, beta float64
			// The naive ECMA/Cholesky coefficients (here, not in the code)
			// cancel in √(1+x) − 1, x = c1/(1−c1)·‖q‖²: a relative error
			// of about u/x, bounded by 8u·(1 + 1/x) with the other roundings.
			cancel := 0.0
			q := v
			switch upd {
			case mmaes.MMA:
				alpha, beta = 1-c1/2, c1/2
			case mmaes.ECMA:
				nv2 := dot(v, v)
				alpha = math.Sqrt(1 - c1)
				beta = math.Sqrt(1-c1) / nv2 * (math.Sqrt(1+c1/(1-c1)*nv2) - 1)
				cancel = 8 * u * (1 + (1-c1)/(c1*nv2))
			case mmaes.Cholesky:
				q = matVec(ainv0, n, p) // u = A_inv·p
				nu2 := dot(q, q)
				cancel = 8 * u * (1 + (1-c1)/(c1*nu2))
				alpha = math.Sqrt(1 - c1)
				beta = math.Sqrt(1-c1) / nu2 * (math.Sqrt(1+c1/(1-c1)*nu2) - 1)
				// A_inv ← A_inv/√(1−c1) + 1/(√(1−c1)‖u‖²)(1/√(1+c1/(1−c1)‖u‖²) − 1)·u·(uᵀA_inv)
				ut := matTVec(ainv0, n, q)
				ai := 1 / math.Sqrt(1-c1)
				bi := 1 / (math.Sqrt(1-c1) * nu2) * (1/math.Sqrt(1+c1/(1-c1)*nu2) - 1)
				for i := 0; i < n; i++ {
					for j := 0; j < n; j++ {
						want := ai*ainv0[i*n+j] + bi*q[i]*ut[j]
						tol := cancel*math.Abs(bi*q[i]*ut[j]) + 8*u*(math.Abs(ai*ainv0[i*n+j])+math.Abs(bi*q[i]*ut[j]))
						if d := math.Abs(o.AInv()[i*n+j] - want); d > tol {
							t.Errorf("%v n=%d: A_inv[%d,%d] = %v, want %v (Δ %g > %g)", upd, n, i, j, o.AInv()[i*n+j], want, d, tol)
						}
					}
				}
			}
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					want := alpha*a0[i*n+j] + beta*p[i]*q[j]
					tol := cancel*math.Abs(beta*p[i]*q[j]) + 8*u*(math.Abs(alpha*a0[i*n+j])+math.Abs(beta*p[i]*q[j]))
					if d := math.Abs(o.A()[i*n+j] - want); d > tol {
						t.Errorf("%v n=%d: A[%d,%d] = %v, want %v (Δ %g > %g)", upd, n, i, j, o.A()[i*n+j], want, d, tol)
					}
				}
			}
		}
	}
}

func dot(x, y []float64) float64 {
	s := 0.0
	for i := range x {
		s += x[i] * y[i]
	}
	return s
}

func matVec(a []float64, n int, x []float64) []float64 {
	y := make([]float64, n)
	for i := range y {
		y[i] = dot(a[i*n:i*n+n], x)
	}
	return y
}

func matTVec(a []float64, n int, x []float64) []float64 {
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			y[j] += x[i] * a[i*n+j]
		}
	}
	return y
}

// TestCholeskyInverse checks that A·A_inv stays I over a whole run. In exact
// arithmetic the two updates keep A_inv = A⁻¹ (Sherman–Morrison); in
// floating point each generation adds a rounding error of order
// n·u·‖A‖·‖A_inv‖ to A·A_inv − I and the old error is carried on
// unchanged (A'·A_inv' − I = A·A_inv − I for exact updates of perturbed
// matrices, to first order). So after g generations the error is at most
// g·K·n·u·max_t ‖A_t‖_F·‖A_inv,t‖_F, here with K = 8.
func TestCholeskyInverse(t *testing.T) {
	const u = 0x1p-53
	for _, n := range []int{2, 5, 12} {
		for _, f := range []func([]float64) float64{sphere, ellipsoid} {
			o := mustNew(t, startConfig(n, mmaes.Cholesky, 5))
			fit := make([]float64, o.Lambda())
			kappa := 0.0
			for g := 1; g <= 600 && o.Reason() == mmaes.NotStopped; g++ {
				step(t, o, f, fit)
				a, ai := o.A(), o.AInv()
				kappa = math.Max(kappa, math.Sqrt(dot(a, a)*dot(ai, ai)))
				bound := float64(g) * 8 * float64(n) * u * kappa
				worst := 0.0
				for i := 0; i < n; i++ {
					for j := 0; j < n; j++ {
						s := 0.0
						for k := 0; k < n; k++ {
							s += a[i*n+k] * ai[k*n+j]
						}
						if i == j {
							s--
						}
						worst = math.Max(worst, math.Abs(s))
					}
				}
				if !(worst <= bound) {
					t.Fatalf("n=%d gen %d: max|A·A_inv − I| = %g > %g", n, g, worst, bound)
				}
			}
		}
	}
}

func TestStopReasons(t *testing.T) {
	ctx := context.Background()
	constant := func([]float64) float64 { return 1 }
	run := func(cfg mmaes.Config, f func([]float64) float64) (*mmaes.Optimizer, mmaes.Result, error) {
		o := mustNew(t, cfg)
		res, err := o.Optimize(ctx, f)
		return o, res, err
	}
	for _, u := range allUpdates {
		cfg := startConfig(4, u, 1)
		cfg.TargetF = 1e-3
		if _, res, err := run(cfg, sphere); res.Reason != mmaes.TargetReached || !(res.F <= 1e-3) || err != nil {
			t.Errorf("%v target: %v %g %v", u, res.Reason, res.F, err)
		}

		cfg = startConfig(4, u, 1)
		cfg.MaxEvals = 50
		if o, res, err := run(cfg, sphere); res.Reason != mmaes.MaxEvalsReached || res.Evals < 50 || res.Evals >= 50+o.Lambda() || err != nil {
			t.Errorf("%v MaxEvals: %v after %d evals, %v", u, res.Reason, res.Evals, err)
		}

		cfg = startConfig(4, u, 1)
		cfg.MaxGenerations = 7
		if _, res, err := run(cfg, sphere); res.Reason != mmaes.MaxGenerationsReached || res.Generations != 7 || err != nil {
			t.Errorf("%v MaxGenerations: %v after %d, %v", u, res.Reason, res.Generations, err)
		}

		cfg = startConfig(4, u, 1)
		cfg.TolX = 0
		o, res, err := run(cfg, constant)
		if h := o.Params().TolFunHist; res.Reason != mmaes.TolFunReached || res.Generations != h || err != nil {
			t.Errorf("%v TolFun: %v after %d generations (history %d), %v", u, res.Reason, res.Generations, h, err)
		}

		cfg = startConfig(4, u, 1)
		cfg.TolFun, cfg.TolX = 0, 1e-4
		o, res, err = run(cfg, sphere)
		if res.Reason != mmaes.TolXReached || err != nil {
			t.Errorf("%v TolX: %v, %v", u, res.Reason, err)
		}
		maxRow := 0.0
		for i := 0; i < 4; i++ {
			maxRow = math.Max(maxRow, math.Sqrt(dot(o.A()[4*i:4*i+4], o.A()[4*i:4*i+4])))
		}
		if !(o.Sigma()*maxRow < 1e-4) {
			t.Errorf("%v TolX: σ·max‖A_i‖ = %g", u, o.Sigma()*maxRow)
		}

		cfg = startConfig(6, u, 1)
		cfg.MaxCondition = 100
		if _, res, err := run(cfg, ellipsoid); res.Reason != mmaes.ConditionReached || err != nil {
			t.Errorf("%v MaxCondition: %v, %v", u, res.Reason, err)
		}

		cfg = startConfig(4, u, 1)
		o, res, err = run(cfg, func([]float64) float64 { return math.NaN() })
		if res.Reason != mmaes.AllNaN || !errors.Is(err, mmaes.ErrAllNaN) || !errors.Is(err, mmaes.ErrStopped) ||
			res.Generations != 1 || !math.IsNaN(res.F) || !slicesEqual(res.X, cfg.Mean) {
			t.Errorf("%v AllNaN: %v, %v, %+v", u, res.Reason, err, res)
		}

		// Maximizing ‖x‖₁ from σ0 = 1e300: the mean soon overflows.
		l1 := func(x []float64) float64 {
			s := 0.0
			for _, v := range x {
				s -= math.Abs(v)
			}
			return s
		}
		cfg = startConfig(4, u, 1)
		cfg.Sigma = 1e300
		o, res, err = run(cfg, l1)
		if res.Reason != mmaes.NumericalBreakdown || !errors.Is(err, mmaes.ErrBreakdown) || !strings.Contains(err.Error(), "breakdown") {
			t.Errorf("%v breakdown: %v, %v", u, res.Reason, err)
		}
		if !(o.Sigma() > 0) || math.IsInf(o.Sigma(), 0) || !allFinite(o.Mean()) || !allFinite(res.X) || res.F >= 0 {
			t.Errorf("%v breakdown: σ %g, mean %v, best %v %g", u, o.Sigma(), o.Mean(), res.X, res.F)
		}

		// Minimizing −x₁ from σ0 = 1: σ and the mean grow exponentially
		// until the run breaks down.
		cfg = startConfig(3, u, 2)
		cfg.MaxGenerations = 0
		o, res, _ = run(cfg, func(x []float64) float64 { return -x[0] })
		if res.Reason != mmaes.NumericalBreakdown || !(o.Sigma() > 0) || math.IsInf(o.Sigma(), 0) || !allFinite(o.Mean()) {
			t.Errorf("%v slow breakdown: %v σ=%g", u, res.Reason, o.Sigma())
		}
	}
}

func allFinite(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

func slicesEqual(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// TestCancel checks that cancelling Optimize leaves a run that continues
// exactly as one never interrupted, and that the resumed call does not
// evaluate again what the cancelled one did (the objective is called as
// often as in the uninterrupted run).
func TestCancel(t *testing.T) {
	for _, u := range allUpdates {
		cfg := startConfig(6, u, 9)
		cfg.TargetF = 1e-8
		whole, err := mustNew(t, cfg).Optimize(context.Background(), sphere)
		if err != nil {
			t.Fatal(err)
		}

		o := mustNew(t, cfg)
		ctx, cancel := context.WithCancel(context.Background())
		evals := 0
		res, err := o.Optimize(ctx, func(x []float64) float64 {
			if evals++; evals == 100 {
				cancel()
			}
			return sphere(x)
		})
		if res.Reason != mmaes.Canceled || !errors.Is(err, context.Canceled) || o.Reason() != mmaes.NotStopped {
			t.Fatalf("%v: cancelled Optimize: %v, %v, optimizer %v", u, res.Reason, err, o.Reason())
		}
		if res.Evals >= 100 || res.Evals%o.Lambda() != 0 {
			t.Errorf("%v: %d evals at cancel", u, res.Evals)
		}
		rest, err := o.Optimize(context.Background(), func(x []float64) float64 {
			evals++
			return sphere(x)
		})
		if err != nil || rest.Evals != whole.Evals || rest.F != whole.F || !slicesEqual(rest.X, whole.X) {
			t.Errorf("%v: resumed %+v, want %+v", u, rest, whole)
		}
		if evals != whole.Evals {
			t.Errorf("%v: %d calls of the objective in the two parts, %d in one", u, evals, whole.Evals)
		}

		// An already cancelled context: nothing evaluated.
		o = mustNew(t, cfg)
		res, err = o.Optimize(ctx, sphere)
		if res.Reason != mmaes.Canceled || res.Evals != 0 || !errors.Is(err, context.Canceled) {
			t.Errorf("%v: Optimize(cancelled ctx) = %+v, %v", u, res, err)
		}
	}
}

// TestCancelThenRestore: the values a cancelled Optimize kept belong to its
// pending generation only; restoring a checkpoint (here of another run, at
// another generation, also pending) into that optimizer drops them, and it
// continues as the checkpoint's run does.
func TestCancelThenRestore(t *testing.T) {
	cfg := startConfig(6, mmaes.MMA, 9)
	cfg.MaxEvals = 600
	o := mustNew(t, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	o.Optimize(ctx, func(x []float64) float64 {
		if calls++; calls == 23 { // in the middle of the third generation
			cancel()
		}
		return sphere(x)
	})

	other := startConfig(6, mmaes.MMA, 10)
	other.MaxEvals = 600
	src := mustNew(t, other)
	for range 5 {
		xs := src.Ask()
		fit := make([]float64, len(xs))
		for i, x := range xs {
			fit[i] = sphere(x)
		}
		if err := src.Tell(fit); err != nil {
			t.Fatal(err)
		}
	}
	src.Ask() // pending, as o is
	ckp, err := src.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if err := o.UnmarshalBinary(ckp); err != nil {
		t.Fatal(err)
	}
	got, err1 := o.Optimize(context.Background(), sphere)
	want, err2 := src.Optimize(context.Background(), sphere)
	if err1 != nil || err2 != nil || got.Evals != want.Evals || got.F != want.F || !slicesEqual(got.X, want.X) {
		t.Errorf("restored into a cancelled optimizer: %+v (%v), want %+v (%v)", got, err1, want, err2)
	}
}

func TestTellErrors(t *testing.T) {
	for _, u := range allUpdates {
		cfg := startConfig(5, u, 4)
		cfg.MaxGenerations = 3
		o := mustNew(t, cfg)
		fit := make([]float64, o.Lambda())

		before := state(t, o)
		if err := o.Tell(fit); !errors.Is(err, mmaes.ErrNotAsked) {
			t.Errorf("Tell before Ask: %v", err)
		}
		xs := o.Ask()
		asked := state(t, o)
		for _, bad := range [][]float64{nil, fit[:1], make([]float64, o.Lambda()+1)} {
			if err := o.Tell(bad); !errors.Is(err, mmaes.ErrLength) {
				t.Errorf("Tell(len %d): %v", len(bad), err)
			}
		}
		if !bytes.Equal(state(t, o), asked) || bytes.Equal(before, asked) {
			t.Errorf("%v: a rejected Tell changed the state", u)
		}
		// Ask again: the same candidates, the same state.
		xs2 := o.Ask()
		for i := range xs {
			if !slicesEqual(xs[i], xs2[i]) {
				t.Fatalf("second Ask gave other candidates")
			}
		}
		if !bytes.Equal(state(t, o), asked) {
			t.Errorf("%v: a second Ask changed the state", u)
		}
		for i, x := range xs {
			fit[i] = sphere(x)
		}
		if err := o.Tell(fit); err != nil {
			t.Fatal(err)
		}
		told := state(t, o)
		if err := o.Tell(fit); !errors.Is(err, mmaes.ErrNotAsked) {
			t.Errorf("second Tell: %v", err)
		}
		if !bytes.Equal(state(t, o), told) {
			t.Errorf("%v: a second Tell changed the state", u)
		}
		for o.Reason() == mmaes.NotStopped {
			step(t, o, sphere, fit)
		}
		if o.Reason() != mmaes.MaxGenerationsReached {
			t.Fatalf("reason %v", o.Reason())
		}
		stopped := state(t, o)
		if xs := o.Ask(); xs != nil {
			t.Errorf("Ask after the stop: %d candidates, want nil", len(xs))
		}
		err := o.Tell(fit)
		if !errors.Is(err, mmaes.ErrStopped) || errors.Is(err, mmaes.ErrBreakdown) ||
			!strings.Contains(err.Error(), mmaes.MaxGenerationsReached.String()) || err != o.Err() {
			t.Errorf("Tell after the stop: %v", err)
		}
		if !bytes.Equal(state(t, o), stopped) {
			t.Errorf("%v: Ask/Tell after the stop changed the state", u)
		}
		if res, err := o.Optimize(context.Background(), sphere); err != nil || res.Generations != 3 || res.Reason != mmaes.MaxGenerationsReached {
			t.Errorf("Optimize after the stop: %+v, %v", res, err)
		}
	}
}

func TestZeroOptimizer(t *testing.T) {
	var o mmaes.Optimizer
	if o.Ask() != nil || o.Dim() != 0 || o.Mean() != nil || o.Reason() != mmaes.NotStopped {
		t.Error("zero Optimizer not empty")
	}
	if err := o.Tell([]float64{1, 2}); !errors.Is(err, mmaes.ErrNotInitialized) {
		t.Errorf("Tell: %v", err)
	}
	if _, err := o.Optimize(context.Background(), sphere); !errors.Is(err, mmaes.ErrNotInitialized) {
		t.Errorf("Optimize: %v", err)
	}
	if _, err := o.MarshalBinary(); !errors.Is(err, mmaes.ErrNotInitialized) {
		t.Errorf("MarshalBinary: %v", err)
	}
	if err := o.Err(); !errors.Is(err, mmaes.ErrNotInitialized) { // what a further Tell returns
		t.Errorf("Err: %v", err)
	}
	if r := o.Result(); r.X != nil || !math.IsNaN(r.F) {
		t.Errorf("Result: %+v", r)
	}
	o2 := mustNew(t, mmaes.DefaultConfig(2))
	if _, err := o2.Optimize(context.Background(), nil); !errors.Is(err, mmaes.ErrNilObjective) {
		t.Errorf("Optimize(nil): %v", err)
	}
	//lint:ignore SA1012 a nil context must not panic
	if res, err := o2.Optimize(nil, sphere); err != nil || res.Reason == mmaes.NotStopped { //nolint:staticcheck
		t.Errorf("Optimize(nil ctx): %+v, %v", res, err)
	}
}

// TestNaNPolicy checks the ranking through the public API: the best point
// and the mean follow NaN-last, ±Inf-by-value, ties-by-index.
func TestNaNPolicy(t *testing.T) {
	cfg := startConfig(3, mmaes.MMA, 1)
	cfg.Lambda, cfg.Mu = 8, 4
	o := mustNew(t, cfg)
	xs := o.Ask()
	inf, nan := math.Inf(1), math.NaN()
	fit := []float64{nan, inf, 2, -inf, nan, 2, -inf, 0}
	order := []int{3, 6, 7, 2, 5, 1, 0, 4}
	w := o.Params().Weights
	want := make([]float64, 3)
	for k, wk := range w {
		for j := range want {
			want[j] += wk * xs[order[k]][j]
		}
	}
	best := append([]float64(nil), xs[3]...)
	if err := o.Tell(fit); err != nil {
		t.Fatal(err)
	}
	if o.BestF() != -inf || !slicesEqual(o.BestX(), best) {
		t.Errorf("best %v at %v, want −Inf at candidate 3", o.BestF(), o.BestX())
	}
	for j := range want {
		if math.Abs(o.Mean()[j]-want[j]) > 1e-13*(1+math.Abs(want[j])) {
			t.Errorf("mean %v, want %v", o.Mean(), want)
		}
	}
	// Fewer than μ non-NaN values: still an update, no stop.
	xs = o.Ask()
	for i := range fit {
		fit[i] = nan
	}
	fit[5] = 1
	if err := o.Tell(fit); err != nil || o.Reason() != mmaes.NotStopped {
		t.Errorf("one non-NaN value: %v, %v", err, o.Reason())
	}
	_ = xs
}

func TestObserver(t *testing.T) {
	calls := 0
	var last int
	cfg := startConfig(3, mmaes.MMA, 1)
	cfg.MaxGenerations = 25
	cfg.Observer = func(o *mmaes.Optimizer) {
		calls++
		last = o.Generation()
	}
	o := mustNew(t, cfg)
	if _, err := o.Optimize(context.Background(), sphere); err != nil {
		t.Fatal(err)
	}
	if calls != 25 || last != 25 {
		t.Errorf("observer called %d times, last at generation %d", calls, last)
	}
	o.SetObserver(nil)
	if o.Config().Observer != nil {
		t.Error("SetObserver(nil) did not clear it")
	}
}

func TestReproducible(t *testing.T) {
	for _, u := range allUpdates {
		run := func(seed uint64) []byte {
			cfg := startConfig(7, u, seed)
			cfg.MaxGenerations = 40
			o := mustNew(t, cfg)
			if _, err := o.Optimize(context.Background(), ellipsoid); err != nil {
				t.Fatal(err)
			}
			return state(t, o)
		}
		a, b, c := run(0), run(0), run(1)
		if !bytes.Equal(a, b) {
			t.Errorf("%v: two runs with seed 0 differ", u)
		}
		if bytes.Equal(a, c) {
			t.Errorf("%v: seeds 0 and 1 give the same run", u)
		}
	}
}

func TestStrings(t *testing.T) {
	seen := map[string]bool{}
	for r := mmaes.NotStopped; r <= mmaes.Hopeless; r++ {
		s := r.String()
		if s == "" || seen[s] || strings.Contains(s, "invalid") {
			t.Errorf("Reason(%d).String() = %q", int(r), s)
		}
		seen[s] = true
	}
	if s := mmaes.Reason(99).String(); !strings.Contains(s, "invalid") {
		t.Errorf("Reason(99) = %q", s)
	}
	for u, want := range map[mmaes.Update]string{mmaes.MMA: "MMA", mmaes.ECMA: "ECMA", mmaes.Cholesky: "Cholesky", 7: "Update(7)"} {
		if u.String() != want {
			t.Errorf("%d: %q", int(u), u.String())
		}
	}
	if !mmaes.AllNaN.Failed() || !mmaes.NumericalBreakdown.Failed() || mmaes.TolXReached.Failed() {
		t.Error("Failed")
	}
}

// TestConfigParams: Config.Params resolves what New would use, without an
// optimizer, and refuses what New refuses with the same error.
func TestConfigParams(t *testing.T) {
	for _, cfg := range []mmaes.Config{
		mmaes.DefaultConfig(1), mmaes.DefaultConfig(7), mmaes.DefaultConfig(1000),
		func() mmaes.Config { c := mmaes.DefaultConfig(10); c.RankMu, c.Lambda, c.Mu = true, 40, 7; return c }(),
		func() mmaes.Config {
			c := mmaes.DefaultConfig(5)
			c.Update, c.C1, c.CSigma = mmaes.Cholesky, 0.1, 0.5
			return c
		}(),
	} {
		p, err := cfg.Params()
		if err != nil {
			t.Fatal(err)
		}
		want := mustNew(t, cfg).Params()
		if p.Lambda != want.Lambda || p.Mu != want.Mu || p.MuEff != want.MuEff || p.C != want.C || p.C1 != want.C1 ||
			p.CMu != want.CMu || p.CSigma != want.CSigma || p.DSigma != want.DSigma || p.ChiN != want.ChiN ||
			p.TolFunHist != want.TolFunHist || !slicesEqual(p.Weights, want.Weights) {
			t.Errorf("n=%d: Config.Params %+v, New's %+v", cfg.Dim, p, want)
		}
	}
	// λ at n = 1000 is the paper's 4 + ⌊3 ln 1000⌋ = 24.
	if p, _ := mmaes.DefaultConfig(1000).Params(); p.Lambda != 24 || p.Mu != 12 {
		t.Errorf("n=1000: λ, μ = %d, %d, want 24, 12", p.Lambda, p.Mu)
	}
	bad := mmaes.DefaultConfig(4)
	bad.Lambda = 1
	_, errP := bad.Params()
	_, errN := mmaes.New(bad)
	if errP == nil || errN == nil || errP.Error() != errN.Error() {
		t.Errorf("invalid config: Params %v, New %v", errP, errN)
	}
}

// TestNoStopRefused: a Config literal has every stop that bounds a run at
// 0 and would run forever; New refuses it with an error naming Endless and
// saying how to ask for such a run, and accepts it with Endless set.
func TestNoStopRefused(t *testing.T) {
	cfg := mmaes.Config{Dim: 4, Sigma: 1}
	_, err := mmaes.New(cfg)
	var ce *mmaes.ConfigError
	if !errors.As(err, &ce) || ce.Field != "Endless" || !strings.Contains(err.Error(), "DefaultConfig") {
		t.Fatalf("Config{Dim: 4, Sigma: 1}: err = %v", err)
	}
	cfg.Endless = true
	if _, err := mmaes.New(cfg); err != nil {
		t.Errorf("with Endless: %v", err)
	}
	for _, set := range []func(*mmaes.Config){
		func(c *mmaes.Config) { c.MaxEvals = 10 }, func(c *mmaes.Config) { c.MaxGenerations = 10 },
		func(c *mmaes.Config) { c.TolFun = 1e-9 }, func(c *mmaes.Config) { c.TolX = 1e-9 },
		func(c *mmaes.Config) { c.MaxCondition = 1e10 },
	} {
		c := mmaes.Config{Dim: 4, Sigma: 1}
		set(&c)
		if _, err := mmaes.New(c); err != nil {
			t.Errorf("with a stop: %v", err)
		}
	}
}
