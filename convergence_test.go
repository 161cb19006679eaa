package mmaes_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mmaes-go/mmaes"
	"github.com/mmaes-go/mmaes/benchfn"
)

// convSeeds are the optimizer seeds of each case; the start mean is drawn
// from a generator seeded by (seed, n), so the three update rules start from
// the same point.
var convSeeds = []uint64{1, 2, 3, 4, 5}

// convBudget is the evaluation budget of one run in dimension n.
func convBudget(n int) int { return 10000 * n }

// convUpdates names the update rules; convRunOnce sets Config.Update from
// the name.
var convUpdates = []string{"MMA", "ECMA", "Cholesky"}

// convRun runs one optimization (convRunOnce) and fails the test, naming the
// case, if New or Optimize returns an error; it returns the result in any
// case.
func convRun(t testing.TB, name, update string, f func([]float64) float64, n int, seed uint64, target float64, budget int) mmaes.Result {
	t.Helper()
	res, err := convRunOnce(update, f, n, seed, target, budget)
	if err != nil {
		t.Errorf("%v: %s", err, convDescribe(name, n, update, seed, res))
	}
	return res
}

// convRunOnce runs one optimization: m0 uniform in [−10, 10]^n, drawn from
// PCG(seed, n); σ0 = 20/3; the optimizer seeded by seed; stops at target or
// after budget evaluations (or by the optimizer's other default stops). Each
// tweak, if any, changes the Config last.
func convRunOnce(update string, f func([]float64) float64, n int, seed uint64, target float64, budget int, tweaks ...func(*mmaes.Config)) (mmaes.Result, error) {
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	m0 := make([]float64, n)
	for i := range m0 {
		m0[i] = 20*rng.Float64() - 10
	}
	cfg := mmaes.DefaultConfig(n)
	cfg.Mean = m0
	cfg.Sigma = 20.0 / 3
	cfg.Seed = seed
	cfg.TargetF = target
	cfg.MaxEvals = budget
	switch update {
	case "MMA":
		cfg.Update = mmaes.MMA
	case "ECMA":
		cfg.Update = mmaes.ECMA
	case "Cholesky":
		cfg.Update = mmaes.Cholesky
	default:
		return mmaes.Result{}, fmt.Errorf("unknown update %q", update)
	}
	for _, tw := range tweaks {
		tw(&cfg)
	}
	opt, err := mmaes.New(cfg)
	if err != nil {
		return mmaes.Result{}, fmt.Errorf("New(%s, n=%d): %w", update, n, err)
	}
	res, err := opt.Optimize(context.Background(), f)
	if err != nil {
		return res, fmt.Errorf("Optimize(%s, n=%d, seed=%d): %w", update, n, seed, err)
	}
	return res, nil
}

// convRosLocal reports whether a Rosenbrock run that missed the target ended
// in the function's local minimum: for n ≥ 4 that minimum has x_1 ≈ −0.78 and
// f ≈ 3.70 (n = 4) up to x_1 ≈ −0.99 and f ≈ 3.99 (n ≥ 8), so a final value in
// [3.6, 4.1] with x_1 < −0.5 counts. y is the point in Rosenbrock's own
// coordinates (R·x for the rotated function).
func convRosLocal(n int, f float64, y []float64) bool {
	return n >= 4 && f >= 3.6 && f <= 4.1 && len(y) > 0 && y[0] < -0.5
}

// convDescribe names a run and its outcome for the test log.
func convDescribe(fn string, n int, update string, seed uint64, res mmaes.Result) string {
	return fmt.Sprintf("%s n=%d %s seed=%d: f=%.6g evals=%v generations=%v reason=%v",
		fn, n, update, seed, res.F, res.Evals, res.Generations, res.Reason)
}

// TestConvergence is the convergence test: the paper's set-up ("Experimental
// Studies": m0 uniform in [−10, 10]^n, σ0 = 20/3) on each of its ten test
// functions, for each update rule, n = 2, 4, 8, 16 and five seeds per case,
// with the optimizer's default stops (DefaultConfig) plus the target and the
// budget. Every run must reach the paper's target (1e-10; −1e10 for the
// parabolic ridge) within convBudget(n) evaluations, except that a Rosenbrock
// run may end in that function's local minimum (see convRosLocal); such runs
// are counted and logged, and the test fails only if more than a third of the
// Rosenbrock runs of one update rule end there.
//
// The budget is 10⁴·n evaluations (2·10⁴ at n = 2, 1.6·10⁵ at n = 16). The
// slowest cases measured (Rosenbrock, Tablet, TwoAxes) need at most about
// 1.8·10³·n (28 000 at n = 16), so the budget leaves a margin of more than
// five; TestEvalsTable prints the medians.
//
// With -short the test runs n = 2, 4, 8 only. The whole test takes about a
// second.
func TestConvergence(t *testing.T) {
	dims := []int{2, 4, 8, 16}
	if testing.Short() {
		dims = []int{2, 4, 8}
	}
	rosRuns := map[string]int{}
	rosStuck := map[string]int{}
	for _, fn := range benchfn.All() {
		for _, n := range dims {
			for _, update := range convUpdates {
				for _, seed := range convSeeds {
					res := convRun(t, fn.Short, update, fn.F, n, seed, fn.Target, convBudget(n))
					msg := convDescribe(fn.Short, n, update, seed, res)
					if fn.Short == "ros" {
						rosRuns[update]++
					}
					switch {
					case res.F <= fn.Target:
						if testing.Verbose() {
							t.Log(msg)
						}
					case fn.Short == "ros" && convRosLocal(n, res.F, res.X):
						rosStuck[update]++
						t.Logf("local minimum: %s", msg)
					default:
						t.Errorf("target %g not reached: %s", fn.Target, msg)
					}
					if res.Evals > convBudget(n)+64 {
						t.Errorf("over budget %d: %s", convBudget(n), msg)
					}
				}
			}
		}
	}
	for _, update := range convUpdates {
		t.Logf("Rosenbrock, %s: %d of %d runs ended in the local minimum", update, rosStuck[update], rosRuns[update])
		if 3*rosStuck[update] > rosRuns[update] {
			t.Errorf("Rosenbrock, %s: %d of %d runs ended in the local minimum (more than a third)", update, rosStuck[update], rosRuns[update])
		}
	}
}

// TestConvergenceRotated checks invariance under rotation as the paper does:
// f(R·x) with a random orthogonal R (benchfn.Rotation) for the ellipsoid and
// Rosenbrock at n = 8 reaches the same target as f(x), with the same seeds,
// budget and Rosenbrock allowance as TestConvergence. For the ellipsoid it
// also compares the cost: the median number of evaluations over the 15 runs
// (3 updates × 5 seeds) on f(R·x) must be within a factor 1.25 of the median
// on f(x) (they differ only by noise, as R·m0 is not m0; measured: within 5%).
func TestConvergenceRotated(t *testing.T) {
	const n = 8
	for _, short := range []string{"ell", "ros"} {
		fn, _ := benchfn.ByName(short)
		stuck, runs := 0, 0
		var plain, rotated []int
		for _, update := range convUpdates {
			for _, seed := range convSeeds {
				r := benchfn.Rotation(n, 100+seed)
				res := convRun(t, "rotated "+short, update, benchfn.Rotated(fn.F, r, n), n, seed, fn.Target, convBudget(n))
				msg := convDescribe("rotated "+short, n, update, seed, res)
				runs++
				if res.F <= fn.Target {
					if testing.Verbose() {
						t.Log(msg)
					}
					rotated = append(rotated, res.Evals)
					if short == "ell" {
						res0 := convRun(t, short, update, fn.F, n, seed, fn.Target, convBudget(n))
						plain = append(plain, res0.Evals)
					}
					continue
				}
				y := make([]float64, n)
				for i := range y {
					if len(res.X) != n {
						break
					}
					for j := range n {
						y[i] += r[i*n+j] * res.X[j]
					}
				}
				if short == "ros" && convRosLocal(n, res.F, y) {
					stuck++
					t.Logf("local minimum: %s", msg)
					continue
				}
				t.Errorf("target %g not reached: %s", fn.Target, msg)
			}
		}
		if 3*stuck > runs {
			t.Errorf("rotated %s: %d of %d runs ended in the local minimum", short, stuck, runs)
		}
		if short == "ell" && len(plain) > 0 {
			slices.Sort(plain)
			slices.Sort(rotated)
			mp, mr := float64(plain[len(plain)/2]), float64(rotated[len(rotated)/2])
			t.Logf("ellipsoid n=%d: median evaluations %v on f(x), %v on f(R·x)", n, mp, mr)
			if mr > 1.25*mp || mp > 1.25*mr {
				t.Errorf("ellipsoid n=%d: median evaluations %v on f(x) but %v on f(R·x): not rotation invariant", n, mp, mr)
			}
		}
	}
}
