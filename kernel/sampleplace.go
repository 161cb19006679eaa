package kernel

// StepFused reports whether SamplePlace and RecombineStep run as one
// kernel call each (and ScaleAddOuterNorms the same way) for vectors of n
// ≥ 1 elements on the current path, each vector in one register: on
// AVX-512 for n ≤ 8. Elsewhere SamplePlace makes its sequence of calls,
// which costs a little more than the caller making them itself;
// RecombineFused tells where RecombineStep is still one pass.
func StepFused(n int) bool { return stepFused(n) }

// A RankOne is the rank-one update A ← Alpha·A + Beta·P·Vᵀ of an n×n A
// (UpdateMulVecs' α, β, p and v).
type RankOne struct {
	Alpha, Beta float64
	P, V        []float64
}

// SamplePlace computes the sampling and the placement of the k candidates
// of one generation of MMA-ES, x_i = m + σ·s·A·z_i (n = len(m)):
//
//	UpdateMulVecsWork(y, a, n, u.Alpha, u.Beta, u.P, u.V, z, k, work)  (u non-nil)
//	MulVecsWork(y, a, n, z, k, work)                                   (u nil)
//	finite = ScaleAxpyRows(x, sigma, y, s, m, k)
//
// with the same results, A included, and the same panics on misuse. On
// AVX-512 with n ≤ 8 (and no work space) each y_i is scaled and placed
// while it is in a register. len(m) must be n.
func SamplePlace(x, y, a []float64, n int, z []float64, k int, u *RankOne, work []float64, s, sigma float64, m []float64) (finite bool) {
	if len(m) != n {
		panic("kernel: length mismatch")
	}
	if len(work) == 0 && n > 0 && k > 0 && stepFused(n) && checkSamplePlace(x, y, a, n, z, k, u, m) {
		return samplePlace(x, y, a, n, z, k, u, s, sigma, m)
	}
	if u != nil {
		UpdateMulVecsWork(y, a, n, u.Alpha, u.Beta, u.P, u.V, z, k, work)
	} else {
		MulVecsWork(y, a, n, z, k, work)
	}
	return ScaleAxpyRows(x, sigma, y, s, m, k)
}

// checkSamplePlace reports whether SamplePlace's arguments (n, k ≥ 1, no
// work space) pass the checks of its calls, so that the fused kernel may
// run; if not, the calls themselves panic as they would.
func checkSamplePlace(x, y, a []float64, n int, z []float64, k int, u *RankOne, m []float64) bool {
	if mulOverflows(n, n) || mulOverflows(k, n) || len(a) < n*n || len(z) < k*n || len(y) < k*n || len(x) < k*n {
		return false
	}
	a, z, y, x = a[:n*n], z[:k*n], y[:k*n], x[:k*n]
	if overlaps(y, a) || overlaps(y, z) || overlaps(x, y) || overlaps(x, m) || overlaps(y, m) {
		return false
	}
	if u == nil {
		return true
	}
	if len(u.P) < n || len(u.V) < n {
		return false
	}
	p, v := u.P[:n], u.V[:n]
	return !overlaps(a, p) && !overlaps(a, v) && !overlaps(y, p) && !overlaps(y, v)
}
