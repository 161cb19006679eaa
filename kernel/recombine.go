package kernel

import (
	"math"
	"math/bits"
)

// A StepState is the state one generation of MMA-ES moves on from: the
// mean M and the evolution paths S (of σ), V (in the space of z) and P (in
// the space of y = A·z), each of n = len(M) elements, with the proposed
// new values MNew, SNew, VNew and PNew, and the weighted sums YW and ZW of
// the selected steps. RecombineStep reads M, S, V and P and writes the
// other six.
type StepState struct {
	M, S, V, P             []float64
	MNew, SNew, VNew, PNew []float64
	YW, ZW                 []float64
}

// A StepRates holds the factors of one generation's step: the step size
// Sigma of the mean's move, the decay and the rate of the path of σ
// (DecayS, RateS) and those of the paths V and P (Decay, Rate).
type StepRates struct {
	Sigma, DecayS, RateS, Decay, Rate float64
}

// RecombineStep computes one generation's recombination, mean and paths
// from the ranked rows of the k×n blocks y and z (the selected steps
// rows[i] for i < len(w), n = len(st.M)):
//
//	WeightedSum2(st.YW, y, st.ZW, z, w, n, rows)
//	copy(st.MNew, st.M); AxpBy(r.Sigma, st.YW, 1, st.MNew)
//	normS = AxpByToNorm(st.SNew, r.DecayS, st.S, r.RateS, st.ZW)
//	normV = AxpByToNorm(st.VNew, r.Decay, st.V, r.Rate, st.ZW)
//	AxpByTo(st.PNew, r.Decay, st.P, r.Rate, st.YW)
//
// with the same results, and returns normS, normV, the largest |PNew_i|
// (compared as the bits of |PNew_i|, so a NaN is larger than +Inf) and
// whether every MNew_i is finite. On AVX-512 it is one pass
// (RecombineFused): in registers for n ≤ 8, 32 and then 8 columns at a
// time for the multiples of 8 up to 1024. Each of the ten vectors of st
// must have length n, and y and z hold k·n elements for some k with every rows[i], i < len(w), in
// [0, k): it panics otherwise. None of the six vectors it writes may
// overlap another slice of the call; this is not checked (the calls of
// the sequence check their own arguments where they run), and the results
// are then unspecified, but nothing outside the slices is read or written.
func RecombineStep(st *StepState, r *StepRates, y, z, w []float64, rows []int) (normS, normV, pInf float64, meanFinite bool) {
	n := len(st.M)
	checkStep(st, n, y, z, w, rows)
	if n == 0 {
		return 0, 0, 0, true
	}
	ssS, ssV, pBits, mBits, fused := recombineStep(st, r, y, z, w, rows)
	if !fused {
		// The calls themselves: generic code compiled into a second
		// caller may fuse its multiply-adds otherwise (arm64).
		WeightedSum2(st.YW, y, st.ZW, z, w, n, rows)
		copy(st.MNew, st.M)
		AxpBy(r.Sigma, st.YW, 1, st.MNew)
		normS = AxpByToNorm(st.SNew, r.DecayS, st.S, r.RateS, st.ZW)
		normV = AxpByToNorm(st.VNew, r.Decay, st.V, r.Rate, st.ZW)
		AxpByTo(st.PNew, r.Decay, st.P, r.Rate, st.YW)
		return normS, normV, math.Float64frombits(maxAbsBits(st.PNew)), maxAbsBits(st.MNew) < infBits
	}
	return normFromSquares(ssS, st.SNew), normFromSquares(ssV, st.VNew), math.Float64frombits(pBits), mBits < infBits
}

// RecombineFused reports whether RecombineStep runs as one kernel pass for
// vectors of n ≥ 1 elements on the current path: on AVX-512 for n ≤ 8 and
// for the multiples of 8 up to 1024, as long as n·len(w) ≤ 65 536 (one
// call into assembly, which is not preempted, does no more). Elsewhere it
// makes its sequence of calls, which costs a little more than the caller
// making them itself.
func RecombineFused(n int) bool { return stepFused(n) || recombineBlocks(n) }

// infBits is the bits of +Inf: |x| is finite when its bits are below.
const infBits = 0x7ff0000000000000

// normFromSquares returns Norm(x) given the sum of squares s of x that
// the SIMD dot kernel gives (AxpByToNorm's finish).
func normFromSquares(s float64, x []float64) float64 {
	if s > 0x1p-500 && s < 0x1p1000 {
		return math.Sqrt(s)
	}
	return normScaled(x)
}

// maxAbsBits returns the largest of the bits of |x_i| (0 for an empty x).
func maxAbsBits(x []float64) uint64 {
	var m uint64
	for _, v := range x {
		m = max(m, math.Float64bits(v)&^(1<<63))
	}
	return m
}

// checkStep panics on RecombineStep's misuse that would reach past a
// slice: a length other than n or a row out of range.
func checkStep(st *StepState, n int, y, z, w []float64, rows []int) {
	if len(st.S) != n || len(st.V) != n || len(st.P) != n || len(st.MNew) != n || len(st.SNew) != n ||
		len(st.VNew) != n || len(st.PNew) != n || len(st.YW) != n || len(st.ZW) != n {
		panic("kernel: length mismatch")
	}
	if len(rows) < len(w) {
		panic("kernel: short rows")
	}
	xLen := uint64(min(len(y), len(z)))
	for _, r := range rows[:len(w)] {
		hi, lo := bits.Mul64(uint64(r)+1, uint64(n))
		if r < 0 || hi != 0 || lo > xLen {
			panic("kernel: row out of range")
		}
	}
}
