package mmaes

// ipop is the IPOP strategy: run k has λ0·2^k and σ0.
type ipop struct {
	max    int // restarts allowed
	sigma0 float64
}

func (s *ipop) allows(restarts int) bool { return restarts < s.max }

func (s *ipop) plan(r *runs, _, _ int, _ *xoshiro) (runPlan, bool) {
	return runPlan{lambda: r.lambda0 << (r.restarts + 1), sigma: s.sigma0}, true
}

func (s *ipop) commit() {}

func (s *ipop) runBudget(*runs, int) int { return 0 }

func (s *ipop) valid(r *runs, lambda int) bool {
	return r.restarts <= s.max && lambda == r.lambda0<<r.restarts
}

func (s *ipop) encode(*encoder)       {}
func (s *ipop) decode(*decoder) error { return nil }
