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

// TestEvalsTable measures the median number of evaluations to reach the
// paper's target on each of its ten functions for MMA, ECMA and Cholesky
// over 11 seeds, and the ratios to Cholesky per function, and checks the
// paper's claim that MMA and ECMA are as efficient as the Cholesky CMA-ES:
// every rule reaches the target in most runs of every function, and the
// medians of MMA and ECMA are within 1.5× Cholesky's. The set-up is the one
// of TestConvergence (convRunOnce; budget convBudget(n) = 10⁴·n). As in the
// paper, a run that misses the target counts as costing more than any
// successful run, so a median over 6 or more misses is reported as "-";
// "(k/11)" counts the runs that reached the target when not all did.
//
// It runs n = 8 with the optimizer's default stops (DefaultConfig: TolFun
// 1e-12, TolX, MaxCondition, MaxGenerations), as a user gets them, in about
// a second. With MMAES_REPORT=1 it also runs n = 16 and 32, adds a table with
// TolFun off (closer to the paper: the runs stop only at the target, the
// budget or the other default stops), logs every run that misses the target
// and prints the tables:
//
//	MMAES_REPORT=1 go test -run TestEvalsTable -v -timeout 30m .
func TestEvalsTable(t *testing.T) {
	dims := []int{8}
	report := os.Getenv("MMAES_REPORT") == "1"
	if report {
		dims = []int{8, 16, 32}
	}
	evalsTable(t, "default stops", dims, report, nil)
	if report {
		evalsTable(t, "TolFun off", dims, report, func(c *mmaes.Config) { c.TolFun = 0 })
	}
}

// evalsTable runs the table's runs on GOMAXPROCS goroutines (one Optimizer
// each) with tweak applied to every Config, checks the claim and, with
// report, logs the table and the misses.
func evalsTable(t *testing.T, title string, dims []int, report bool, tweak func(*mmaes.Config)) {
	const nSeeds = 11
	updates := []string{"MMA", "ECMA", "Cholesky"}
	fns := benchfn.All()
	var tweaks []func(*mmaes.Config)
	if tweak != nil {
		tweaks = append(tweaks, tweak)
	}

	type key struct {
		fn, update string
		n          int
	}
	type job struct {
		k    key
		f    benchfn.Function
		seed uint64
	}
	evals := map[key][]float64{} // +Inf for a run that missed the target
	var mu sync.Mutex
	jobs := make(chan job)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				res, err := convRunOnce(j.k.update, j.f.F, j.k.n, j.seed, j.f.Target, convBudget(j.k.n), tweaks...)
				e := float64(res.Evals)
				if err != nil || !(res.F <= j.f.Target) {
					e = math.Inf(1)
					x1 := math.NaN()
					if len(res.X) > 0 {
						x1 = res.X[0]
					}
					if report {
						t.Logf("%s: missed: %s x1=%.3g err=%v", title, convDescribe(j.k.fn, j.k.n, j.k.update, j.seed, res), x1, err)
					}
				}
				mu.Lock()
				evals[j.k] = append(evals[j.k], e)
				mu.Unlock()
			}
		}()
	}
	for _, f := range fns {
		for _, n := range dims {
			for _, u := range updates {
				for s := range uint64(nSeeds) {
					jobs <- job{key{f.Short, u, n}, f, s + 1}
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
	cell := func(m float64, ok int) string {
		if math.IsInf(m, 1) {
			return fmt.Sprintf("- (%d/%d)", ok, nSeeds)
		}
		if ok == nSeeds {
			return fmt.Sprintf("%.0f", m)
		}
		return fmt.Sprintf("%.0f (%d/%d)", m, ok, nSeeds)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s: median evaluations to target, %d seeds, budget 1e4·n\n\n", title, nSeeds)
	fmt.Fprintf(&b, "| f | n | MMA | ECMA | Cholesky | MMA/Chol | ECMA/Chol |\n|---|---|---|---|---|---|---|\n")
	for _, f := range fns {
		for _, n := range dims {
			mm, okm := median(key{f.Short, "MMA", n})
			me, oke := median(key{f.Short, "ECMA", n})
			mc, okc := median(key{f.Short, "Cholesky", n})
			fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %.3f | %.3f |\n", f.Short, n,
				cell(mm, okm), cell(me, oke), cell(mc, okc), mm/mc, me/mc)
			if okm <= nSeeds/2 || oke <= nSeeds/2 || okc <= nSeeds/2 || !(mm <= 1.5*mc) || !(me <= 1.5*mc) {
				t.Errorf("%s %s n=%d: MMA %s, ECMA %s, Cholesky %s: not as efficient", title, f.Short, n,
					cell(mm, okm), cell(me, oke), cell(mc, okc))
			}
		}
	}
	if report {
		t.Log(b.String())
	}
}
