package kernel

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestCombineRowsCoefCache checks that CombineRows over several blocks,
// with its tiles' coefficients transposed once for all of them, gives the
// bits of transposing them in every block, on every path: every tile in
// the room, the terms in chunks, the overlapping last tiles, and tiles
// past the room (their coefficients transposed by each block, the later
// smaller tiles cached again).
func TestCombineRowsCoefCache(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 17))
	type shape struct{ k, kp, n int }
	shapes := []shape{
		{38, 77, 3*combineBlockMax + 5},                 // all tiles in the room
		{13, 2*combineTerms + 2, 2*combineBlockMax + 9}, // chunks of terms
		{11, 9, 2*combineBlockMax + 64},                 // overlapping tiles
		{38, 300, 2*combineBlockMax + 36},               // past the room
		{45, 91, combineBlockMax + 1},                   // a last block of one column
	}
	forEachPath(t, func(t *testing.T) {
		for _, sh := range shapes {
			p, z := genVec(r, sh.kp*sh.n, kindUniform), genVec(r, sh.k*sh.n, kindUniform)
			m, s, c := genVec(r, sh.n, kindUniform), genVec(r, sh.n, kindUniform), genVec(r, sh.k*sh.kp, kindWide)
			want, got := make([]float64, sh.k*sh.n), make([]float64, sh.k*sh.n)
			func() {
				combineCoefCaching = false
				defer func() { combineCoefCaching = true }()
				CombineRows(want, m, 0.75, s, z, sh.k, sh.n, p, sh.kp, c)
			}()
			CombineRows(got, m, 0.75, s, z, sh.k, sh.n, p, sh.kp, c)
			if e := sameResults(got, want); e >= 0 {
				desc := fmt.Sprintf("k=%d kp=%d n=%d", sh.k, sh.kp, sh.n)
				t.Fatalf("%s: x[%d] (row %d, column %d) = %v with the coefficients transposed once, %v in every block", desc, e, e/sh.n, e%sh.n, got[e], want[e])
			}
		}
	})
}

// TestLowRankNoAllocs checks that DotRows and CombineRows over several
// blocks (the coefficients' frame of CombineRows on the stack) allocate
// nothing.
func TestLowRankNoAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 18))
	const k, kp, n = 9, 13, 3*combineBlockMax + 5
	p, z, x := genVec(r, kp*n, kindUniform), genVec(r, k*n, kindUniform), make([]float64, k*n)
	m, s, c, w := genVec(r, n, kindUniform), genVec(r, n, kindUniform), genVec(r, k*kp, kindUniform), make([]float64, k*kp)
	forEachPath(t, func(t *testing.T) {
		if a := testing.AllocsPerRun(5, func() { CombineRows(x, m, 0.5, s, z, k, n, p, kp, c) }); a != 0 {
			t.Errorf("CombineRows: %v allocations", a)
		}
		if a := testing.AllocsPerRun(5, func() { DotRows(w, p, kp, z, k, n) }); a != 0 {
			t.Errorf("DotRows: %v allocations", a)
		}
	})
}
