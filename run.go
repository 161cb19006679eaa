package mmaes

import "math"

// New validates cfg and returns an Optimizer at generation 0: mean cfg.Mean,
// step size cfg.Sigma, A = I (and A_inv = I; diag(cfg.Scales) and its
// inverse with Scales), all paths zero. Every buffer
// the run needs is allocated here. An invalid cfg gives an error that wraps
// ErrInvalidConfig and is a *ConfigError naming the field.
func New(cfg Config) (*Optimizer, error) {
	cfg, fix, err := splitFixed(cfg)
	if err != nil {
		return nil, err
	}
	par, err := resolve(&cfg, fix)
	if err != nil {
		return nil, err
	}
	o := newOptimizer(cfg, fix, par, par.Lambda, par.TolFunHist)
	o.src = newXoshiro(cfg.Seed)
	o.startRun(cfg.Sigma, 0)
	copy(o.best.x, o.m)
	o.best.f = math.NaN()
	o.startBoard()
	o.startThreads()
	return o, nil
}

// newOptimizer allocates an Optimizer for a validated config of the free
// coordinates and their embedding fix (nil without fixed coordinates), the
// current run's parameters par, the first run's λ0 and a TolFun history of
// capacity histCap, and sizes its buffers for par; the state is zero and
// the generator unset. It keeps copies of the initial mean (the origin for
// a nil Mean) and of the bounds.
func newOptimizer(cfg Config, fix *fixedCoords, par Params, lambda0, histCap int) *Optimizer {
	n := cfg.Dim
	mean := make([]float64, n)
	if cfg.Mean != nil {
		copy(mean, cfg.Mean)
	}
	cfg.Mean = mean
	if cfg.Lower != nil {
		cfg.Lower = append([]float64(nil), cfg.Lower...)
	}
	if cfg.Upper != nil {
		cfg.Upper = append([]float64(nil), cfg.Upper...)
	}
	if cfg.Scales != nil {
		cfg.Scales = append([]float64(nil), cfg.Scales...)
	}
	if cfg.Integer != nil {
		cfg.Integer = append([]int(nil), cfg.Integer...)
	}
	o := &Optimizer{cfg: cfg, par: par, fix: fix}
	o.run = runs{policy: newRestartPolicy(&o.cfg), lambda0: lambda0, budget: memoryBudget(&o.cfg)}
	o.margin = newIntegerMargin(&o.cfg)
	if cfg.Noise {
		o.noise = newNoiseAdapt(n)
	}
	o.box = newBox(n, cfg.Lower, cfg.Upper, cfg.Integer)
	v := make([]float64, 2*n)
	o.m, o.mNew = v[:n:n], v[n:]
	o.step = newStepSize(n)
	o.dist = newDistribution(&o.cfg)
	o.direct, _ = o.dist.(directSampler)
	o.scaled, _ = o.dist.(scaledSampler)
	o.pop = newPopulation(n, o.direct != nil)
	o.best = newBestPoint(n)
	o.watch = newRunWatch(&o.cfg)
	o.hist.buf = make([]float64, 0, max(histCap, par.TolFunHist))
	o.applyParams()
	return o
}

// applyParams hands the current run's parameters to the parts and sizes the
// buffers that depend on λ, μ and the TolFun history (allocating only what
// grows).
func (o *Optimizer) applyParams() {
	par := &o.par
	o.pop.resize(par.Lambda, par.Weights, par.NegWeights)
	if o.fix != nil {
		o.fix.resize(par.Lambda)
	}
	if o.margin != nil {
		o.margin.setParams(o.cfg.Dim, par.Lambda)
	}
	o.dist.setParams(par, par.Lambda)
	o.step.setParams(par)
	o.hist.resize(par.TolFunHist)
}

// runGenLimit returns a run's generation limit: MaxGenerations, or the
// restart strategy's budget for the run where that is smaller (0: none).
func runGenLimit(maxGenerations, budget int) int {
	if budget > 0 && (maxGenerations == 0 || budget < maxGenerations) {
		return budget
	}
	return maxGenerations
}

// startRun starts a run with the parameters o.par, step size σ and a
// generation budget (0: Config.MaxGenerations alone): the initial mean,
// the distribution's initial state (A = I, paths zero), a zero σ-path, an
// empty TolFun history, no pending candidates.
func (o *Optimizer) startRun(sigma float64, budget int) {
	o.applyParams()
	o.dist.reset()
	if o.margin != nil {
		o.margin.reset()
	}
	if o.noise != nil {
		o.noise.reset()
	}
	o.step.reset(sigma)
	if o.inj != nil {
		o.inj.led = false // a run does not start from the last one's leader
	}
	copy(o.m, o.cfg.Mean)
	o.run.gen, o.run.evals0 = 0, o.evals
	bestBefore := math.NaN()
	if o.best.ok {
		bestBefore = o.best.f
	}
	o.watch.start(bestBefore)
	o.run.maxGen = runGenLimit(o.cfg.MaxGenerations, budget)
	o.asked = false
}
