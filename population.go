package mmaes

import "github.com/mmaes-go/mmaes/kernel"

// population holds one generation: the λ×n row-major z_i ~ N(0, I),
// y_i = A·z_i and candidates x_i = m + σ·y_i, the views Ask hands out, the
// fitness values and the ranking, and the generation handed to the
// distribution. Its buffers have room for the largest λ so far; resize
// reslices them for the current one. With a distribution that samples
// directly (directSampler), y is nil: the candidates come from z alone.
type population struct {
	n, lambda int
	direct    bool
	z, y, x   []float64
	xs        [][]float64
	evalBuf   []float64 // Optimize's fitness values
	evalDone  int       // of them, the pending generation's a cancelled Optimize computed
	fit       []float64 // Tell's copy of the fitness values
	idx       []int     // ranking: idx[k] is the k-th best candidate
	sel       generation
	part      partialBufs // TellSome's scratch space
	ranks     rankScratch // rank's keys
}

func newPopulation(n int, direct bool) population {
	v := make([]float64, 2*n)
	return population{n: n, direct: direct, sel: generation{zw: v[:n:n], yw: v[n:]}}
}

// resize sizes the population for λ candidates and the selection for the
// weights w (μ of them) and the negative weights neg of the worst (none
// without the active update), allocating only when λ exceeds every λ
// before.
func (p *population) resize(lambda int, w, neg []float64) {
	n := p.n
	if cap(p.idx) < lambda {
		if p.direct {
			pop := make([]float64, 2*lambda*n)
			p.z, p.x = pop[:0:lambda*n], pop[lambda*n:lambda*n]
		} else {
			pop := make([]float64, 3*lambda*n)
			p.z, p.y, p.x = pop[:0:lambda*n], pop[lambda*n:lambda*n:2*lambda*n], pop[2*lambda*n:2*lambda*n]
		}
		p.xs = make([][]float64, lambda)
		p.evalBuf = make([]float64, lambda)
		p.fit = make([]float64, lambda)
		p.idx = make([]int, lambda)
	}
	p.part.resize(lambda)
	p.ranks.resize(lambda)
	p.lambda = lambda
	p.z, p.x = p.z[:lambda*n], p.x[:lambda*n]
	if !p.direct {
		p.y = p.y[:lambda*n]
	}
	p.xs, p.evalBuf, p.fit, p.idx = p.xs[:lambda], p.evalBuf[:lambda], p.fit[:lambda], p.idx[:lambda]
	p.sel.z, p.sel.y, p.sel.idx, p.sel.weights, p.sel.negWeights = p.z, p.y, p.idx, w, neg
	p.sel.pathScale = 1
	for i := range p.xs {
		p.xs[i] = p.x[i*n : i*n+n : i*n+n]
	}
}

// place sets y_i ← s·y_i (s = 1: y as it is) and x_i = m + σ·y_i for the
// whole population, and reports whether every x_i is finite.
func (p *population) place(m []float64, sigma, s float64) bool {
	return kernel.ScaleAxpyRows(p.x, sigma, p.y, s, m, p.lambda)
}

// views returns the candidates as λ slices of the population buffer (made
// by resize).
func (p *population) views() [][]float64 { return p.xs }

// recombine sets the weighted sums y_w and z_w of the μ best steps (z_w
// only when the population keeps no y: the distribution gives y_w).
func (p *population) recombine() {
	sel := p.sel.idx[:len(p.sel.weights)]
	if p.direct {
		kernel.WeightedSum(p.sel.zw, p.sel.weights, p.z, p.n, sel)
		return
	}
	kernel.WeightedSum2(p.sel.yw, p.y, p.sel.zw, p.z, p.sel.weights, p.n, sel)
}

// encode writes the steps z and y of the population (the candidates x
// follow from them, and Ask's views of x may hold what the caller wrote).
func (p *population) encode(e *encoder) {
	e.floats(p.z)
	e.floats(p.y)
}

// decode reads the steps; those of pending candidates (asked) must be
// finite.
func (p *population) decode(d *decoder, asked bool) error {
	d.floats(p.z)
	d.floats(p.y)
	if d.err == nil && asked && (!allFinite(p.z) || !allFinite(p.y)) {
		return ckErr("non-finite candidates")
	}
	return d.err
}
