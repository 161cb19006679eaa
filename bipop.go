package mmaes

import "math"

// bipop is the BIPOP strategy (see BIPOP): it alternates small- and
// large-population runs by the evaluations each regime has spent.
type bipop struct {
	max    int // large runs allowed
	sigma0 float64

	small      bool // the current run is a small one (the first is)
	large      int  // large runs made
	evalsSmall int  // evaluations of the finished small runs
	evalsLarge int  // and of the finished large runs

	next bipopState // the state plan moves to
}

// bipopState is the part of bipop's state that a restart changes.
type bipopState struct {
	small                  bool
	large                  int
	evalsSmall, evalsLarge int
}

func (s *bipop) allows(int) bool { return true }

func (s *bipop) plan(r *runs, lambda, spent int, src *xoshiro) (runPlan, bool) {
	lambda0 := r.lambda0
	nx := bipopState{large: s.large, evalsSmall: s.evalsSmall, evalsLarge: s.evalsLarge}
	if s.small {
		nx.evalsSmall += spent
	} else {
		nx.evalsLarge += spent
	}
	sigma := s.sigma0
	if nx.evalsSmall < nx.evalsLarge {
		nx.small = true
		u1 := uniform(src)
		u2 := uniform(src)
		sigma *= math.Pow(0.01, u1)
		lamL := float64(lambda0 << nx.large)
		l := math.Floor(float64(lambda0) * math.Pow(lamL/float64(lambda0), u2*u2))
		lambda = int(min(max(l, float64(lambda0)), lamL))
	} else {
		if nx.large >= s.max {
			return runPlan{}, false // no large run left: stop
		}
		nx.large++
		lambda = lambda0 << nx.large
	}
	p := runPlan{lambda: lambda, sigma: sigma}
	if nx.small {
		p.maxGen = smallRunBudget(nx.evalsLarge, lambda)
	}
	s.next = nx
	return p, true
}

// smallRunBudget is the generation budget of a small run of population λ
// after large runs that spent evalsLarge evaluations.
func smallRunBudget(evalsLarge, lambda int) int { return max(1, evalsLarge/(2*lambda)) }

// runBudget is the budget plan gave the current run: a small run's, but
// for the first run (small, and without one).
func (s *bipop) runBudget(r *runs, lambda int) int {
	if !s.small || r.restarts == 0 {
		return 0
	}
	return smallRunBudget(s.evalsLarge, lambda)
}

func (s *bipop) commit() {
	s.small, s.large = s.next.small, s.next.large
	s.evalsSmall, s.evalsLarge = s.next.evalsSmall, s.next.evalsLarge
}

func (s *bipop) valid(r *runs, lambda int) bool {
	l0 := r.lambda0
	return s.large <= s.max && s.large <= r.restarts &&
		lambda >= l0 && lambda <= l0<<s.large && (s.small || lambda == l0<<s.large)
}

func (s *bipop) encode(e *encoder) {
	e.bool(s.small)
	e.int(s.large)
	e.int(s.evalsSmall)
	e.int(s.evalsLarge)
}

func (s *bipop) decode(d *decoder) error {
	s.small = d.bool()
	s.large, s.evalsSmall, s.evalsLarge = d.count(), d.count(), d.count()
	return d.err
}
