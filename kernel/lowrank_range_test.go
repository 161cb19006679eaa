package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
)

// rangeSentinel marks the elements a range must not write.
var rangeSentinel = math.Float64frombits(0x7ff8dead0000beef)

// splitAt cuts 0 … total into parts ranges whose inner boundaries are
// multiples of align, drawn from r, as bounds (first 0, last total).
func splitAt(r *rand.Rand, total, parts, align int) []int {
	bounds := []int{0}
	for i := 1; i < parts; i++ {
		b := bounds[len(bounds)-1] + align*r.IntN(total/align/parts+2)
		if b >= total {
			break
		}
		bounds = append(bounds, b)
	}
	return append(bounds, total)
}

// checkRanges checks ranges of one kernel against its whole result: run
// computes the range lo … hi−1 into dst; owner(e) is the row or column of
// element e that decides its range. One range alone must write its
// elements alone, with whole's bits; all of them, in reverse order and
// then concurrently, must give whole.
func checkRanges(t *testing.T, desc string, whole []float64, bounds []int, pick int, owner func(e int) int, run func(dst []float64, lo, hi int)) {
	t.Helper()
	got := make([]float64, len(whole))
	for i := range got {
		got[i] = rangeSentinel
	}
	lo, hi := bounds[pick], bounds[pick+1]
	run(got, lo, hi)
	for e, v := range got {
		in := owner(e) >= lo && owner(e) < hi
		if !in && math.Float64bits(v) != math.Float64bits(rangeSentinel) {
			t.Fatalf("%s: range %d…%d wrote element %d (%d)", desc, lo, hi, e, owner(e))
		}
		if in && math.Float64bits(v) != math.Float64bits(whole[e]) {
			t.Fatalf("%s: range %d…%d: element %d = %v, the whole call gives %v", desc, lo, hi, e, v, whole[e])
		}
	}
	for q := len(bounds) - 2; q >= 0; q-- {
		run(got, bounds[q], bounds[q+1])
	}
	if e := sameResults(got, whole); e >= 0 {
		t.Fatalf("%s: in reverse order element %d = %v, the whole call gives %v", desc, e, got[e], whole[e])
	}
	clear(got)
	var wg sync.WaitGroup
	for q := 0; q+1 < len(bounds); q++ {
		wg.Go(func() { run(got, bounds[q], bounds[q+1]) })
	}
	wg.Wait()
	if e := sameResults(got, whole); e >= 0 {
		t.Fatalf("%s: concurrently element %d = %v, the whole call gives %v", desc, e, got[e], whole[e])
	}
}

// TestDotRowsRange checks that DotRowsRange over ranges that cover a's rows
// gives DotRows' bits on every path, computed in any order or at once on
// several goroutines, and that a range writes its rows of dst alone.
func TestDotRowsRange(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 21))
	type shape struct{ ka, kb, n int }
	shapes := []shape{{1, 1, 5}, {3, 4, 9}, {4, 3, 33}, {5, 7, 64}, {9, 5, dotRowsBlock + 7}, {13, 6, 2*dotRowsBlock + 3}, {49, 24, 1000}}
	if !testing.Short() {
		shapes = append(shapes, shape{77, 38, 3 * dotRowsBlock})
	}
	forEachPath(t, func(t *testing.T) {
		for _, sh := range shapes {
			a, b := genVec(r, sh.ka*sh.n, kindUniform), genVec(r, sh.kb*sh.n, kindUniform)
			whole := make([]float64, sh.ka*sh.kb)
			DotRows(whole, a, sh.ka, b, sh.kb, sh.n)
			for trial := range 4 {
				bounds := splitAt(r, sh.ka, 1+trial, DotRowsAlign)
				desc := fmt.Sprintf("ka=%d kb=%d n=%d ranges %v", sh.ka, sh.kb, sh.n, bounds)
				checkRanges(t, desc, whole, bounds, r.IntN(len(bounds)-1), func(e int) int { return e % sh.ka },
					func(dst []float64, lo, hi int) { DotRowsRange(dst, a, sh.ka, b, sh.kb, sh.n, lo, hi) })
			}
		}
	})
}

// TestCombineRowsRange checks CombineRowsRange likewise: ranges of columns
// anywhere (single rows, whole tiles, blocks and the passes of a single
// row's terms among them) give CombineRows' bits, in any order or
// concurrently, and a range writes its columns alone.
func TestCombineRowsRange(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 22))
	type shape struct{ k, kp, n int }
	shapes := []shape{{1, 3, 7}, {1, 17, 2*combineRowBlock + 37}, {2, 9, 100}, {4, 5, 71}, {7, 13, combineBlockMax + 45}, {38, 20, 3*combineBlockMax + 5}}
	forEachPath(t, func(t *testing.T) {
		for _, sh := range shapes {
			p, z := genVec(r, sh.kp*sh.n, kindUniform), genVec(r, sh.k*sh.n, kindUniform)
			m, s, c := genVec(r, sh.n, kindUniform), genVec(r, sh.n, kindUniform), genVec(r, sh.k*sh.kp, kindUniform)
			whole := make([]float64, sh.k*sh.n)
			CombineRows(whole, m, 0.75, s, z, sh.k, sh.n, p, sh.kp, c)
			for trial := range 4 {
				align := []int{1, 4, 8, 32}[trial]
				bounds := splitAt(r, sh.n, 1+trial, align)
				desc := fmt.Sprintf("k=%d kp=%d n=%d ranges %v", sh.k, sh.kp, sh.n, bounds)
				checkRanges(t, desc, whole, bounds, r.IntN(len(bounds)-1), func(e int) int { return e % sh.n },
					func(dst []float64, lo, hi int) { CombineRowsRange(dst, m, 0.75, s, z, sh.k, sh.n, p, sh.kp, c, lo, hi) })
			}
		}
	})
}

// TestRangeMisuse: ranges out of bounds or not aligned panic with a
// "kernel:" message before anything is written.
func TestRangeMisuse(t *testing.T) {
	a, b, dst := make([]float64, 9*10), make([]float64, 3*10), make([]float64, 27)
	x, z, m, s, p, c := make([]float64, 20), make([]float64, 20), make([]float64, 10), make([]float64, 10), make([]float64, 30), make([]float64, 6)
	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"DotRowsRange start not aligned", func() { DotRowsRange(dst, a, 9, b, 3, 10, 2, 9) }},
		{"DotRowsRange end not aligned", func() { DotRowsRange(dst, a, 9, b, 3, 10, 0, 6) }},
		{"DotRowsRange end past ka", func() { DotRowsRange(dst, a, 9, b, 3, 10, 4, 12) }},
		{"DotRowsRange reversed", func() { DotRowsRange(dst, a, 9, b, 3, 10, 8, 4) }},
		{"DotRowsRange negative", func() { DotRowsRange(dst, a, 9, b, 3, 10, -4, 4) }},
		{"CombineRowsRange end past n", func() { CombineRowsRange(x, m, 1, s, z, 2, 10, p, 3, c, 0, 11) }},
		{"CombineRowsRange reversed", func() { CombineRowsRange(x, m, 1, s, z, 2, 10, p, 3, c, 5, 4) }},
		{"CombineRowsRange negative", func() { CombineRowsRange(x, m, 1, s, z, 2, 10, p, 3, c, -1, 4) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for i := range dst {
				dst[i] = 1
			}
			for i := range x {
				x[i] = 1
			}
			defer func() {
				msg, ok := recover().(string)
				if !ok || !strings.HasPrefix(msg, "kernel:") {
					t.Errorf("panic %q, want a kernel: message", msg)
				}
				for i := range dst {
					if dst[i] != 1 {
						t.Fatal("dst written before the panic")
					}
				}
				for i := range x {
					if x[i] != 1 {
						t.Fatal("x written before the panic")
					}
				}
			}()
			tc.f()
		})
	}
}

// TestCombineRowsRowAlone checks that a row of CombineRows' result does not
// depend on the tile that computes it: for every k up to 20 (every rest of
// the tiles of 6 and of 4, below and past them) each row equals, bit for
// bit, the same row computed alone (k = 1). kp = 70 takes the single row
// through passes of combineRowTerms terms, and a population through one
// chunk; n = 77 ends in a step of 4 columns and one of 1.
func TestCombineRowsRowAlone(t *testing.T) {
	const kp, n, maxK = 70, 77, 20
	r := rand.New(rand.NewPCG(12, 5))
	p, z := genVec(r, kp*n, kindUniform), genVec(r, maxK*n, kindUniform)
	m, s, c := genVec(r, n, kindUniform), genVec(r, n, kindUniform), genVec(r, maxK*kp, kindUniform)
	forEachPath(t, func(t *testing.T) {
		alone := make([]float64, maxK*n)
		for l := range maxK {
			CombineRows(alone[l*n:l*n+n], m, 0.75, s, z[l*n:l*n+n], 1, n, p, kp, c[l*kp:l*kp+kp])
		}
		for k := 1; k <= maxK; k++ {
			x := make([]float64, k*n)
			CombineRows(x, m, 0.75, s, z, k, n, p, kp, c)
			for e, v := range x {
				if math.Float64bits(v) != math.Float64bits(alone[e]) {
					t.Fatalf("k = %d: row %d, column %d: %v in the population, %v alone", k, e/n, e%n, v, alone[e])
				}
			}
		}
	})
}
