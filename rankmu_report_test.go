package mmaes_test

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mmaes-go/mmaes"
	"github.com/mmaes-go/mmaes/benchfn"
)

// TestRankMuTable measures Config.RankMu: median evaluations to the target
// (1e-10; −1e10 for the parabolic ridge), σ0 = 20/3, x0 uniform in
// [−10, 10]^n (convRunOnce), on the ten functions, for
//
//   - paper: the paper's MMA-ES (RankMu off),
//   - tutorial c_μ: RankMu with Hansen's tutorial c_μ (Config.CMu set to it),
//   - rank-μ: RankMu with the package's default c_μ (3× the tutorial's),
//
// with the target and the budget (10⁴·n evaluations) as the only stops, as
// pycma's figures were measured ("other stops off"). A run that misses the
// target counts as +Inf; "(k/seeds)" counts the successes when not all
// succeeded. It checks what docs/rank-mu.md states: on the ill-conditioned
// functions (ctb, ell, tab, dp, sch, ros) rank-μ needs at most 0.9× the
// paper's median evaluations (measured: 0.15–0.73×), elsewhere at most
// 1.15× (measured: up to 1.07×); with the full report, also that the five
// cells compared with pycma 4.4.0 are within 1.1× its median.
//
// By default it runs n = 16 over 7 seeds (a few seconds). With
// MMAES_REPORT=1 it runs n = 8, 16, 32, 64 over 21 seeds (about two minutes
// on two cores) and prints the tables:
//
//	MMAES_REPORT=1 go test -run TestRankMuTable -v -timeout 30m .
func TestRankMuTable(t *testing.T) {
	nSeeds, dims := 7, []int{16}
	report := os.Getenv("MMAES_REPORT") == "1"
	if report {
		nSeeds, dims = 21, []int{8, 16, 32, 64}
	}
	variants := []string{"paper", "tutorial c_μ", "rank-μ"}
	tweak := func(variant string, n int) func(*mmaes.Config) {
		return func(c *mmaes.Config) {
			c.TolFun, c.TolX, c.MaxCondition, c.MaxGenerations, c.Endless = 0, 0, 0, 0, true
			switch variant {
			case "tutorial c_μ":
				o, err := mmaes.New(mmaes.DefaultConfig(n))
				if err != nil {
					panic(err)
				}
				me, nf := o.Params().MuEff, float64(n)
				c1 := 2 / ((nf+1.3)*(nf+1.3) + me)
				c.RankMu, c.CMu = true, math.Min(1-c1, 2*(me-2+1/me)/((nf+2)*(nf+2)+me))
			case "rank-μ":
				c.RankMu = true
			}
		}
	}
	type key struct {
		fn, variant string
		n           int
	}
	type job struct {
		k    key
		f    benchfn.Function
		seed uint64
	}
	evals := map[key][]float64{}
	var mu sync.Mutex
	jobs := make(chan job)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				res, err := convRunOnce("MMA", j.f.F, j.k.n, j.seed, j.f.Target, convBudget(j.k.n), tweak(j.k.variant, j.k.n))
				e := float64(res.Evals)
				if err != nil || !(res.F <= j.f.Target) {
					e = math.Inf(1)
				}
				mu.Lock()
				evals[j.k] = append(evals[j.k], e)
				mu.Unlock()
			}
		}()
	}
	for _, f := range benchfn.All() {
		for _, n := range dims {
			for _, v := range variants {
				for s := range uint64(nSeeds) {
					jobs <- job{key{f.Short, v, n}, f, s + 1}
				}
			}
		}
	}
	close(jobs)
	wg.Wait()

	median := func(k key) (float64, int) {
		v := slices.Clone(evals[k])
		slices.Sort(v)
		ok := 0
		for _, e := range v {
			if !math.IsInf(e, 1) {
				ok++
			}
		}
		return v[len(v)/2], ok
	}
	cell := func(k key) string {
		m, ok := median(k)
		switch {
		case math.IsInf(m, 1):
			return fmt.Sprintf("- (%d/%d)", ok, nSeeds)
		case ok < nSeeds:
			return fmt.Sprintf("%.0f (%d/%d)", m, ok, nSeeds)
		}
		return fmt.Sprintf("%.0f", m)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nmedian evaluations to target, %d seeds, MMA, target and budget 1e4·n only\n\n", nSeeds)
	fmt.Fprintf(&b, "| f | n | paper | tutorial c_μ | rank-μ | rank-μ/paper |\n|---|---|---|---|---|---|\n")
	for _, f := range benchfn.All() {
		for _, n := range dims {
			mp, _ := median(key{f.Short, "paper", n})
			mr, _ := median(key{f.Short, "rank-μ", n})
			fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %.2f |\n", f.Short, n,
				cell(key{f.Short, "paper", n}), cell(key{f.Short, "tutorial c_μ", n}), cell(key{f.Short, "rank-μ", n}), mr/mp)
			limit := 1.15
			if strings.Contains(" ctb ell tab dp sch ros ", " "+f.Short+" ") {
				limit = 0.9
			}
			if !(mr <= limit*mp) && !math.IsInf(mp, 1) {
				t.Errorf("%s n=%d: rank-μ %s, paper %s: ratio above %g", f.Short, n,
					cell(key{f.Short, "rank-μ", n}), cell(key{f.Short, "paper", n}), limit)
			}
		}
	}
	if report {
		fmt.Fprintf(&b, "\nthe goal: at most 1.1× pycma 4.4.0's median\n\n")
		fmt.Fprintf(&b, "| f | n | pycma | goal | tutorial c_μ | rank-μ | met |\n|---|---|---|---|---|---|---|\n")
		for _, g := range []struct {
			fn    string
			n     int
			pycma float64
		}{{"sp", 32, 5418}, {"cig", 16, 7380}, {"cig", 32, 14266}, {"ell", 16, 9420}, {"ell", 32, 32396}} {
			mt, _ := median(key{g.fn, "tutorial c_μ", g.n})
			mr, _ := median(key{g.fn, "rank-μ", g.n})
			fmt.Fprintf(&b, "| %s | %d | %.0f | %.0f | %.0f (%.2f×) | %.0f (%.2f×) | %v |\n", g.fn, g.n, g.pycma, 1.1*g.pycma,
				mt, mt/g.pycma, mr, mr/g.pycma, mr <= 1.1*g.pycma)
			if report && !(mr <= 1.1*g.pycma) {
				t.Errorf("%s n=%d: rank-μ median %.0f, above 1.1× pycma's %.0f", g.fn, g.n, mr, g.pycma)
			}
		}
	}
	if report {
		t.Log(b.String())
	}
}
