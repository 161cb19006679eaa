package kernel

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
)

// TestRowsSameBits checks that MulVecsRowsWork and UpdateMulVecsRowsWork
// over the ranges SplitRows gives, computed one after another in reverse
// order and concurrently, leave the same bits in y and A as the whole
// calls, on every path, at sizes that reach every driver (small kernels,
// whole-row tiles, the AVX-512 panels narrow and wide with tiles of 6 and
// 8 rows and several batches of vectors (k = 265: two batches of the
// AVX-512 panels), the AVX2 panels with and without
// the fused update), and that the ranges cover the rows in order.
func TestRowsSameBits(t *testing.T) {
	type shape struct{ n, k int }
	var shapes []shape
	for _, n := range []int{1, 5, 31, 47, 48, 61, 100, 255, 256, 301, 515, 769, 1541} {
		for _, k := range []int{1, 3, 8, 13, 24, 32} {
			if n > 800 && k > 13 {
				continue
			}
			shapes = append(shapes, shape{n, k})
		}
	}
	shapes = append(shapes, shape{300, 265}, shape{773, 4})
	forEachPath(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(7, 11))
		for _, sh := range shapes {
			n, k := sh.n, sh.k
			a := genVec(r, n*n, kindUniform)
			x, p, v := genVec(r, k*n, kindUniform), genVec(r, n, kindUniform), genVec(r, n, kindUniform)
			alpha, beta := 0.97, 0.03
			work := make([]float64, WorkLen(n, k))
			wantY := make([]float64, k*n)
			MulVecsWork(wantY, a, n, x, k, work)
			wantA, wantUY := append([]float64(nil), a...), make([]float64, k*n)
			UpdateMulVecsWork(wantUY, wantA, n, alpha, beta, p, v, x, k, work)
			for _, parts := range []int{2, 3, 5} {
				bounds := make([]int, parts+1)
				used := SplitRows(bounds, n, parts, 1)
				for i := 0; i < used; i++ {
					if bounds[i] >= bounds[i+1] {
						t.Fatalf("n=%d parts=%d: bounds %v not increasing", n, parts, bounds[:used+1])
					}
				}
				if bounds[0] != 0 || bounds[used] != n {
					t.Fatalf("n=%d parts=%d: bounds %v do not cover 0 … n", n, parts, bounds[:used+1])
				}
				what := fmt.Sprintf("n=%d k=%d ranges %v", n, k, bounds[:used+1])
				// One after another, the last range first.
				y := make([]float64, k*n)
				for i := used - 1; i >= 0; i-- {
					MulVecsRowsWork(y, a, n, x, k, bounds[i], bounds[i+1], work)
				}
				if j := sameResults(y, wantY); j >= 0 {
					t.Fatalf("%s: MulVecsRowsWork y[%d] = %v, whole call %v", what, j, y[j], wantY[j])
				}
				// Concurrently, each range with its own work.
				ua, uy := append([]float64(nil), a...), make([]float64, k*n)
				var wg sync.WaitGroup
				for i := 0; i < used; i++ {
					wg.Add(1)
					go func(r0, r1 int) {
						defer wg.Done()
						UpdateMulVecsRowsWork(uy, ua, n, alpha, beta, p, v, x, k, r0, r1, make([]float64, WorkLen(n, k)))
					}(bounds[i], bounds[i+1])
				}
				wg.Wait()
				if j := sameResults(ua, wantA); j >= 0 {
					t.Fatalf("%s: UpdateMulVecsRowsWork A[%d] = %v, whole call %v", what, j, ua[j], wantA[j])
				}
				if j := sameResults(uy, wantUY); j >= 0 {
					t.Fatalf("%s: UpdateMulVecsRowsWork y[%d] = %v, whole call %v", what, j, uy[j], wantUY[j])
				}
			}
		}
	})
}

// TestSplitRows checks the ranges' alignment and sizes, and that the
// counts shrink where n is small.
func TestSplitRows(t *testing.T) {
	for _, tc := range []struct{ n, parts, minRows, want int }{
		{0, 4, 1, 1}, {47, 2, 1, 1}, {48, 2, 1, 2}, {100, 8, 1, 4}, {1024, 2, 256, 2},
		{1024, 8, 256, 4}, {255, 2, 128, 1}, {4096, 16, 1, 16}, {60, 2, 1, 2}, {59, 2, 1, 2}, {47, 3, 1, 1},
		{1024, 4, 64, 4}, {2048, 4, 64, 4}, {387, 4, 1, 4}, {4096, 6, 64, 6},
	} {
		bounds := make([]int, tc.parts+1)
		got := SplitRows(bounds, tc.n, tc.parts, tc.minRows)
		if got != tc.want {
			t.Errorf("SplitRows(n=%d, parts=%d, minRows=%d) = %d ranges %v, want %d", tc.n, tc.parts, tc.minRows, got, bounds[:got+1], tc.want)
			continue
		}
		for i := 0; i < got; i++ {
			r0, r1 := bounds[i], bounds[i+1]
			checkRows(tc.n, r0, r1) // panics on a range the kernels refuse
			if even := tc.n / got; got > 1 && (r1-r0 < even-RowAlign || r1-r0 > even+RowAlign+RowTail) {
				t.Errorf("n=%d: range %d … %d not within RowAlign of %d rows", tc.n, r0, r1, even)
			}
		}
	}
}

// TestSplitRowsBounds checks SplitRows' boundaries, worked out by hand:
// i·⌊n/parts⌋ rounded up to a multiple of 24 (the first ranges the longer),
// rounded down where rounding up would put one within 12 rows of n.
func TestSplitRowsBounds(t *testing.T) {
	for _, tc := range []struct {
		n, parts, minRows int
		want              string
	}{
		{1024, 4, 64, "[0 264 528 768 1024]"},             // 256, 512, 768 up
		{1024, 2, 64, "[0 528 1024]"},                     // 512 up
		{2048, 4, 64, "[0 528 1032 1536 2048]"},           // 512, 1024, 1536 up
		{4096, 6, 64, "[0 696 1368 2064 2736 3432 4096]"}, // 682, 1364, 2046, 2728, 3410 up
		{100, 4, 1, "[0 24 48 72 100]"},                   // up, 75 → 96 > 88: all down
		{59, 2, 1, "[0 24 59]"},                           // up, 29 → 48 > 47: down
		{600, 6, 64, "[0 120 216 312 408 504 600]"},       // 100, 200, 300, 400, 500 up
	} {
		bounds := make([]int, tc.parts+1)
		got := SplitRows(bounds, tc.n, tc.parts, tc.minRows)
		if s := fmt.Sprint(bounds[:got+1]); s != tc.want {
			t.Errorf("SplitRows(n=%d, parts=%d, minRows=%d) = %s, want %s", tc.n, tc.parts, tc.minRows, s, tc.want)
		}
	}
}

// TestRowsMisuse checks that ranges the kernels cannot compute with the
// whole call's bits panic before anything is written.
func TestRowsMisuse(t *testing.T) {
	n, k := 100, 2
	a, x, y := make([]float64, n*n), make([]float64, k*n), make([]float64, k*n)
	for _, rg := range [][2]int{{-24, 24}, {24, 12}, {0, 101}, {12, 48}, {0, 30}, {0, 96}, {96, 100}, {0, 90}} {
		func() {
			defer func() {
				e := recover()
				if s, ok := e.(string); !ok || !strings.HasPrefix(s, "kernel: row range") && !strings.HasPrefix(s, "kernel: the last row range") {
					t.Errorf("range %v: recovered %v, want a kernel row-range panic", rg, e)
				}
			}()
			MulVecsRowsWork(y, a, n, x, k, rg[0], rg[1], nil)
		}()
	}
}
