package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// newWork returns scratch space of WorkLen(n, k) float64s on the current
// path at offset off (an unaligned start), filled with NaN (its contents on
// entry must not matter) and surrounded by guard cells.
func newWork(off, n, k int) guarded {
	w := newGuarded(off, WorkLen(n, k))
	for i := range w.s {
		w.s[i] = math.NaN()
	}
	return w
}

// TestWorkLen: the panels (AVX-512, n ≥ 256, k ≥ 8; AVX2 without AVX-512,
// n ≥ 768, k ≥ 4) need scratch space, every other path none; the size does
// not grow with n past the wide panels.
func TestWorkLen(t *testing.T) {
	mustPanic(t, "WorkLen n<0", func() { WorkLen(-1, 8) })
	mustPanic(t, "WorkLen k<0", func() { WorkLen(256, -1) })
	forEachPath(t, func(t *testing.T) {
		for _, sh := range [][2]int{{0, 0}, {8, 20}, {255, 20}, {256, 7}, {256, 8}, {511, 24}, {512, 24}, {768, 3}, {768, 4}, {4096, 28}, {20000, 300}} {
			n, k := sh[0], sh[1]
			got := WorkLen(n, k)
			panels := Impl() == "avx512" && n >= 256 && k >= 8 || Impl() == "avx2" && n >= 768 && k >= 4
			if panels != (got > 0) {
				t.Errorf("WorkLen(%d, %d) = %d on %s", n, k, got, Impl())
			}
			if ref := max(WorkLen(512, 24), WorkLen(768, 24)); got > ref {
				t.Errorf("WorkLen(%d, %d) = %d > %d, the wide panels'", n, k, got, ref)
			}
		}
	})
}

// TestWorkMisuse: scratch space that overlaps an input or output panics;
// a short one is not used (the results are the same bits).
func TestWorkMisuse(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	forEachPath(t, func(t *testing.T) {
		const n, k = 300, 20
		need := max(WorkLen(n, k), 1) // overlaps panic on every path
		a, p, v, x := randVals(r, n*n), randVals(r, n), randVals(r, n), randVals(r, k*n)
		buf := make([]float64, need+k*n)
		y := buf[need:]
		mustPanic(t, "MulVecsWork work over y", func() { MulVecsWork(y, a, n, x, k, buf[1:]) })
		mustPanic(t, "MulVecsWork work over a", func() { MulVecsWork(make([]float64, k*n), a, n, x, k, a) })
		mustPanic(t, "MulVecsWork work over x", func() { MulVecsWork(make([]float64, k*n), a, n, x, k, x) })
		big := make([]float64, need+n)
		mustPanic(t, "UpdateMulVecsWork work over p", func() {
			UpdateMulVecsWork(make([]float64, k*n), append([]float64(nil), a...), n, 1, 1, big[need:], v, x, k, big)
		})
		mustPanic(t, "UpdateMulVecsWork work over v", func() {
			UpdateMulVecsWork(make([]float64, k*n), append([]float64(nil), a...), n, 1, 1, p, big[need:], x, k, big)
		})
		y1, y2 := make([]float64, k*n), make([]float64, k*n)
		MulVecs(y1, a, n, x, k)
		short := newWork(0, n, k)
		MulVecsWork(y2, a, n, x, k, short.s[:max(len(short.s)-1, 0)])
		if i := sameBits(y1, y2); i >= 0 {
			t.Fatalf("short work: y[%d] = %v, MulVecs gives %v", i, y2[i], y1[i])
		}
		for i, w := range short.s {
			if !math.IsNaN(w) {
				t.Fatalf("short work: work[%d] written (%v)", i, w)
			}
		}
	})
}

func TestWorkNoAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, sh := range [][2]int{{16, 12}, {300, 20}, {600, 24}} {
		n, k := sh[0], sh[1]
		a, p, v, x, y := randVals(r, n*n), randVals(r, n), randVals(r, n), randVals(r, k*n), make([]float64, k*n)
		forEachPath(t, func(t *testing.T) {
			w := make([]float64, WorkLen(n, k))
			if got := testing.AllocsPerRun(5, func() { UpdateMulVecsWork(y, a, n, 0.999, 1e-3, p, v, x, k, w) }); got != 0 {
				t.Errorf("UpdateMulVecsWork n=%d k=%d: %v allocations", n, k, got)
			}
			if got := testing.AllocsPerRun(5, func() { MulVecsWork(y, a, n, x, k, w) }); got != 0 {
				t.Errorf("MulVecsWork n=%d k=%d: %v allocations", n, k, got)
			}
		})
	}
}
