package mmaes_test

import (
	"slices"
	"testing"

	"github.com/mmaes-go/mmaes"
	"github.com/mmaes-go/mmaes/benchfn"
)

// TestRankMuHelps: on the ellipsoid and the tablet at n = 16 (5 seeds, the
// paper's start), rank-μ needs at most 0.8× the evaluations of the paper's
// rank-one update (measured: about 0.58× and 0.29×; see
// TestRankMuTable), and on the sphere no more than 1.1×.
func TestRankMuHelps(t *testing.T) {
	for _, c := range []struct {
		fn    string
		ratio float64
	}{{"ell", 0.8}, {"tab", 0.8}, {"sp", 1.1}} {
		f, _ := benchfn.ByName(c.fn)
		med := func(rankMu bool) int {
			var ev []int
			for seed := uint64(1); seed <= 5; seed++ {
				res, err := convRunOnce("MMA", f.F, 16, seed, f.Target, convBudget(16), func(cfg *mmaes.Config) { cfg.RankMu = rankMu })
				if err != nil || !(res.F <= f.Target) {
					t.Fatalf("%s rank-μ %v seed %d: %v %v", c.fn, rankMu, seed, res.Reason, err)
				}
				ev = append(ev, res.Evals)
			}
			slices.Sort(ev)
			return ev[2]
		}
		paper, rank := med(false), med(true)
		t.Logf("%s n=16: paper %d, rank-μ %d evaluations", c.fn, paper, rank)
		if float64(rank) > c.ratio*float64(paper) {
			t.Errorf("%s n=16: rank-μ %d evaluations, paper %d: ratio above %g", c.fn, rank, paper, c.ratio)
		}
	}
}
