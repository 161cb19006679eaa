package mmaes

// RecommendedConfig returns the configuration the library recommends for
// black-box problems of dimension n, where the objective's structure is
// unknown and evaluations are the cost: the MMA update with the rank-μ term
// and BIPOP restarts (up to MaxRestarts = 9 large-population runs). It
// starts, like DefaultConfig, from the origin with σ0 = 1 and the default
// stops (which end each run of the restart strategy); set Mean, Sigma,
// TargetF and MaxEvals for the problem at hand. It never panics; for n < 1
// it returns a Config that New rejects.
//
// DefaultConfig stays the paper's algorithm. The repository's docs/bbob.md
// measures both on COCO's bbob suite against pycma.
func RecommendedConfig(n int) Config {
	cfg := DefaultConfig(n)
	cfg.RankMu = true
	cfg.Restart = BIPOP
	return cfg
}
