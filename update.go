package mmaes

import (
	"math"

	"github.com/mmaes-go/mmaes/kernel"
)

// boundSlack covers the rounding of one rank-one update in the row-norm
// bounds (a few units in the last place of each term).
const boundSlack = 1 + 1e-14

// update applies one generation's update after ranking (Algorithm 1, lines
// 10–15, with the matrix update of the chosen rule):
//
//	y_w = Σ w_i·y_{i:λ},  z_w = Σ w_i·z_{i:λ}            (kernel.WeightedSum)
//	m  ← m + σ·y_w                                        (= Σ w_i·x_{i:λ}, Σw = 1)
//	p  ← (1−c)·p + √(c(2−c)μ_eff)·y_w
//	v  ← (1−c)·v + √(c(2−c)μ_eff)·z_w
//	A  ← the rule's rank-one update       (pending: applied by the next Ask's sampling pass)
//	s  ← (1−c_σ)·s + √(c_σ(2−c_σ)μ_eff)·z_w
//	σ  ← σ·exp(c_σ/d_σ·(‖s‖/E‖N(0,I)‖ − 1))
//
// The new mean, paths and σ are computed into scratch space and checked
// first; if any is non-finite (or σ is not > 0), or, for Cholesky, u or
// uᵀA_inv is, update returns false and changes nothing. Otherwise it
// commits, updates A (and A_inv) in place and their row-norm bounds, and
// returns true.
func (o *Optimizer) update() bool {
	n, par := o.n, &o.par
	sel := o.idx[:o.mu]
	kernel.WeightedSum(o.yw, par.Weights, o.y, n, sel)
	kernel.WeightedSum(o.zw, par.Weights, o.z, n, sel)

	copy(o.mNew, o.m)
	kernel.Axpy(o.sigma, o.yw, o.mNew)
	path(o.pNew, o.p, 1-par.C, o.cp, o.yw)
	path(o.vNew, o.v, 1-par.C, o.cp, o.zw)
	path(o.sNew, o.s, 1-par.CSigma, o.cs, o.zw)

	normS := kernel.Norm(o.sNew)
	normV := kernel.Norm(o.vNew)
	pInf := maxAbs(o.pNew)
	sigma := o.sigma * math.Exp(par.CSigma/par.DSigma*(normS/par.ChiN-1))
	if !allFinite(o.mNew) || !finite(pInf) || !finite(normV) || !finite(normS) ||
		!finite(sigma) || sigma <= 0 {
		return false
	}

	// The rank-one update A ← α·A + β·p·qᵀ, with q = v or u.
	c1 := par.C1
	var alpha, beta float64
	q, normQ := o.vNew, normV
	switch o.cfg.Update {
	case MMA:
		alpha, beta = 1-c1/2, c1/2
	case ECMA:
		alpha, beta = math.Sqrt(1-c1), ecmaCoef(c1, normV)
	case Cholesky:
		// u = A_inv·p and w = uᵀ·A_inv, both with the old A_inv.
		kernel.MulVec(o.u, o.ainv, n, o.pNew)
		normU := kernel.Norm(o.u)
		if !finite(normU) {
			return false
		}
		kernel.MulVecTrans(o.w, o.ainv, n, o.u)
		normW := kernel.Norm(o.w)
		if !finite(normW) {
			return false
		}
		alpha, beta = math.Sqrt(1-c1), ecmaCoef(c1, normU)
		q, normQ = o.u, normU
		ai, bi := invCoef(c1, normU)
		kernel.ScaleAddOuter(o.ainv, n, ai, bi, o.u, o.w)
		o.rowAInv = (ai*o.rowAInv + math.Abs(bi)*maxAbs(o.u)*normW) * boundSlack
	}

	// Commit.
	o.m, o.mNew = o.mNew, o.m
	o.p, o.pNew = o.pNew, o.p
	o.v, o.vNew = o.vNew, o.v
	o.s, o.sNew = o.sNew, o.s
	if o.cfg.RankMu {
		o.rankMuUpdate(pInf, normV) // rankmu.go: MMA with the rank-μ term
	} else {
		// Applied by the next Ask with its sampling (or by flushA), to Ã:
		// s·Ã ← α·s·Ã + β·p·qᵀ is s' = α·s/ρ and Ã ← ρ·Ã + (β/s')·p·qᵀ.
		rho := o.advanceScale(alpha)
		o.pend, o.pendAlpha, o.pendBeta, o.pendQ = true, rho, beta/o.aScale, q
		o.rowA = (alpha*o.rowA + math.Abs(beta)*pInf*normQ) * boundSlack
	}
	o.sigma = sigma
	return true
}

// path sets dst = decay·old + rate·step.
func path(dst, old []float64, decay, rate float64, step []float64) {
	copy(dst, step)
	kernel.AxpBy(decay, old, rate, dst)
}

// ecmaCoef returns the coefficient of p·qᵀ in the eCMA-ES and Cholesky
// updates,
//
//	b = √(1−c1)/‖q‖²·(√(1 + c1/(1−c1)·‖q‖²) − 1) = c1/(√(1−c1)·(√(1+x) + 1)),
//
// x = c1/(1−c1)·‖q‖², in the second form, which is the same value without
// the cancellation in √(1+x) − 1 and without dividing by ‖q‖²: at q = 0 it
// is the limit c1/(2√(1−c1)), and for ‖q‖² = +Inf it is 0.
func ecmaCoef(c1, normQ float64) float64 {
	x := c1 / (1 - c1) * normQ * normQ
	return c1 / (math.Sqrt(1-c1) * (math.Sqrt(1+x) + 1))
}

// invCoef returns the scale and rank-one coefficient of the A_inv update of
// the Cholesky CMA-ES:
//
//	1/√(1−c1)  and  1/(√(1−c1)·‖u‖²)·(1/√(1+x) − 1) = −c1/((1−c1)^{3/2}·√(1+x)·(√(1+x) + 1)),
//
// x = c1/(1−c1)·‖u‖², again in the cancellation-free second form (limit
// −c1/(2(1−c1)^{3/2}) at u = 0).
func invCoef(c1, normU float64) (alpha, beta float64) {
	x := c1 / (1 - c1) * normU * normU
	r := math.Sqrt(1 + x)
	sq := math.Sqrt(1 - c1)
	return 1 / sq, -c1 / ((1 - c1) * sq * r * (r + 1))
}

// maxAbs returns max_i |x_i|, NaN if some x_i is NaN.
func maxAbs(x []float64) float64 {
	m := 0.0
	for _, xi := range x {
		m = max(m, math.Abs(xi)) // NaN wins, without a branch to mispredict
	}
	return m
}

// allFinite reports whether every x_i is finite.
func allFinite(x []float64) bool {
	for _, xi := range x {
		if !finite(xi) {
			return false
		}
	}
	return true
}
