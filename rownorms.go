package mmaes

import (
	"math"

	"github.com/mmaes-go/mmaes/kernel"
)

// The stop tests need the row norms of A: TolX compares σ·max_i ‖A_i‖ with
// its threshold, MaxCondition the ratio of the largest to the smallest, and
// a non-finite or zero row is a numerical breakdown. Computing them reads
// all of A, so the full-matrix distribution keeps an upper bound of the
// largest row norm of A (and of A_inv) by a recurrence in O(n) per update
// and scans A exactly only every scanEvery generations, or when the bound
// no longer proves that A is finite.

// scanEvery returns how often (in generations) the row norms of A are
// computed exactly: every 4th generation up to n = 64, then every
// ⌈n/16⌉-th, so that the scan (a read of A, and the pending update applied
// on its own) costs at most 16/n of a pass per generation. At small n a
// kernel call per row makes it dearer than its bytes, hence the floor of 4.
func scanEvery(n int) int { return max(4, (n+15)/16) }

// scanDue reports whether generation gen ≥ 0 is one of scanEvery(n)'s:
// gen mod scanEvery(n) = 0, without a division for the usual power of two
// (every n ≤ 64).
func scanDue(gen, n int) bool {
	e := scanEvery(n)
	if e&(e-1) == 0 {
		return gen&(e-1) == 0
	}
	return gen%e == 0
}

// boundLimit is the largest row-norm bound that is taken as proof that every
// entry of A (or A_inv) is finite; above it, A is scanned.
const boundLimit = 1e300

// inspect scans A on the schedule, when exact asks for it or when its
// bound is too large, and A_inv when its bound is too large, and reports
// the bounds.
//
// The result is made from scalars at each return: a health built up in
// place lives in memory (five fields), and returning it copied it in
// 16-byte loads from 8-byte stores, which the CPU cannot forward (a stall
// of a few nanoseconds every generation).
func (d *fullMatrix) inspect(gen int, exact bool) health {
	minRow, cond := math.NaN(), math.NaN()
	scanned := exact || scanDue(gen, d.n) || !(d.rowA < boundLimit)
	if scanned {
		minRow = d.scanA()
		if !(d.rowA < math.Inf(1)) || !(minRow > 0) {
			return health{minRow: minRow, cond: cond, scanned: true, broken: true}
		}
		cond = d.rowA / minRow
		if d.s0 != nil {
			cond = relativeCond(d.norms, d.s0)
		}
	}
	if d.ainv != nil && !(d.rowAInv < boundLimit) {
		d.scanAInv()
		if !(d.rowAInv < math.Inf(1)) {
			return health{minRow: minRow, cond: cond, scanned: scanned, broken: true}
		}
	}
	return health{maxRow: d.rowA, minRow: minRow, cond: cond, scanned: scanned}
}

// scanA computes the row norms of Ã exactly into norms: it sets rowA to
// the largest norm of A's rows and returns the smallest. A non-finite entry
// makes the largest non-finite. A pending update is applied in the same
// pass (kernel.ScaleAddOuterNorms: the bits of flush and then the norms,
// reading A once instead of twice).
func (d *fullMatrix) scanA() (minRow float64) {
	if !d.pend {
		rowNormsTo(d.norms, d.a, d.n)
	} else {
		kernel.ScaleAddOuterNorms(d.a, d.n, d.pendAlpha, d.pendBeta, d.p, d.pendQ, d.norms)
		d.pend = false
	}
	d.rowA, minRow = extremes(d.norms)
	d.scanned = true
	// The norms of Ã's rows, times s.
	d.rowA *= d.scale
	return minRow * d.scale
}

// stdDevs sets dst to the row norms of A: those of the last scan when A
// has not changed since (the integer margin reads them every generation,
// right after the stop tests' scan), else a pass over A.
func (d *fullMatrix) stdDevs(dst []float64) {
	if d.scanned {
		copy(dst, d.norms)
	} else {
		d.flush()
		rowNormsTo(dst, d.a, d.n)
	}
	if d.scale != 1 {
		kernel.Scale(d.scale, dst)
	}
}

// relativeCond returns max_i r_i/s_i over min_i r_i/s_i.
func relativeCond(r, s []float64) float64 {
	hi, lo := 0.0, math.Inf(1)
	for i, x := range r {
		q := x / s[i]
		hi, lo = max(hi, q), min(lo, q)
	}
	return hi / lo
}

// scanAInv computes the largest row norm of A_inv exactly (Cholesky).
func (d *fullMatrix) scanAInv() {
	d.rowAInv, _ = rowNorms(d.ainv, d.n)
}

// extremes returns the largest and the smallest of the row norms r, both
// NaN if one is NaN (as rowNorms).
func extremes(r []float64) (maxRow, minRow float64) {
	minRow = math.Inf(1)
	for _, x := range r {
		if x != x {
			return x, x
		}
		maxRow, minRow = max(maxRow, x), min(minRow, x)
	}
	return maxRow, minRow
}

// rowNormsTo sets r[i] to the norm of row i of the n×n row-major m.
func rowNormsTo(r, m []float64, n int) {
	kernel.RowNorms(r[:n], m, n)
}

// rowNorms returns the largest and the smallest row norm of the n×n
// row-major m; the largest is NaN as soon as a row has a NaN.
func rowNorms(m []float64, n int) (maxRow, minRow float64) {
	minRow = math.Inf(1)
	for i := 0; i < n; i++ {
		r := kernel.Norm(m[i*n : i*n+n])
		if r != r {
			return r, r
		}
		maxRow, minRow = max(maxRow, r), min(minRow, r)
	}
	return maxRow, minRow
}

func (d *fullMatrix) deviations() (lo, hi float64) {
	if d.scanned {
		hi, lo = extremes(d.norms)
	} else {
		d.flush()
		hi, lo = rowNorms(d.a, d.n)
	}
	return lo * d.scale, hi * d.scale
}

func (d *lowRank) deviations() (lo, hi float64) {
	if !d.scanned {
		d.scan()
	}
	return d.lo, d.hi
}
