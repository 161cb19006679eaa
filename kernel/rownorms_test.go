package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestRowNorms checks that RowNorms gives every row the bits of Norm on
// the same path, for every row length up to past the kernels' blocks of
// 32 and 8 and their tails, every count of rows around the groups of 4,
// unaligned rows and output (guard cells around it), values of every
// magnitude (the tiny and huge ones take Norm's scaled branch) and special
// values.
func TestRowNorms(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 4))
	rowCounts := []int{0, 1, 3, 4, 5, 7, 8, 9, 13}
	forEachPath(t, func(t *testing.T) {
		for _, special := range []bool{false, true} {
			for _, n := range matSizes() {
				for _, rows := range rowCounts {
					kind := r.IntN(numKinds)
					var a []float64
					if special {
						a = genSpecialVec(r, rows*n, kind, 0.02)
					} else {
						a = genVec(r, rows*n, kind)
					}
					a = placed(r.IntN(8), a)
					g := newGuarded(r.IntN(8), rows)
					for i := range g.s {
						g.s[i] = 12345 // overwritten
					}
					RowNorms(g.s, a, n)
					desc := fmt.Sprintf("n=%d rows=%d kind=%s special=%v", n, rows, kindNames[kind], special)
					if !checkGuards(t, g, desc) {
						return
					}
					for i, got := range g.s {
						want := Norm(a[i*n : i*n+n])
						if math.Float64bits(got) != math.Float64bits(want) {
							t.Fatalf("%s: row %d: %v (%#x), Norm gives %v (%#x)", desc, i, got, math.Float64bits(got), want, math.Float64bits(want))
						}
					}
				}
			}
		}
		// Rows longer than Norm's block go to Norm whole.
		n := vecBlock + 3
		a := genVec(r, 4*n, kindUniform)
		got := make([]float64, 4)
		RowNorms(got, a, n)
		for i, v := range got {
			if want := Norm(a[i*n : i*n+n]); math.Float64bits(v) != math.Float64bits(want) {
				t.Fatalf("n=%d: row %d: %v, Norm gives %v", n, i, v, want)
			}
		}
	})
}

// TestRowNormsMisuse: a negative length, a short a or an output that
// overlaps a panic with a "kernel:" message.
func TestRowNormsMisuse(t *testing.T) {
	a := make([]float64, 12)
	mustPanic(t, "negative n", func() { RowNorms(make([]float64, 2), a, -1) })
	mustPanic(t, "short a", func() { RowNorms(make([]float64, 3), a, 5) })
	mustPanic(t, "overlap", func() { RowNorms(a[6:8], a, 4) })
	RowNorms(nil, nil, 7)   // no rows: nothing to do
	RowNorms(a[:2], nil, 0) // empty rows: norm 0
	if a[0] != 0 || a[1] != 0 {
		t.Errorf("rows of length 0: norms %v, want 0", a[:2])
	}
}
