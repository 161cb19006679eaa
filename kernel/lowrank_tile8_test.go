//go:build gc && !purego && (amd64 || arm64)

package kernel

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestDotRowsTile8 checks that DotRows' tiles of 8 rows of a give the bits
// of the tiles of 4 (which TestDotRows checks against the exact dot
// products): every count of rows of a past the tiles of 8, every count of
// rows of b left by the groups of 3, column tails of 4 (done by the AVX2
// kernel), several blocks, special values, and a shape that streams (each
// column step asking for the next block's lines).
func TestDotRowsTile8(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 8))
	type shape struct{ ka, kb, n int }
	var shapes []shape
	for _, ka := range []int{8, 9, 12, 15, 16, 20, 77} {
		for _, kb := range []int{1, 2, 3, 4, 5, 38} {
			for _, n := range []int{0, 4, 8, 12, 13, 64, 100, dotRowsBlock + 12, 2*dotRowsBlock + 4} {
				shapes = append(shapes, shape{ka, kb, n})
			}
		}
	}
	streaming := shape{17, 7, prefetchMin/24 + 36} // past prefetchMin, a tail of 4 columns
	if (streaming.ka+streaming.kb)*streaming.n < prefetchMin {
		t.Fatalf("shape %v does not stream", streaming)
	}
	shapes = append(shapes, streaming)
	forEachPath(t, func(t *testing.T) {
		if !lrHasDot8x3() {
			t.Skip("no tiles of 8 rows on this path")
		}
		for i, sh := range shapes {
			var a, b []float64
			if i%2 == 1 && sh.n < dotRowsBlock {
				a, b = genSpecialVec(r, sh.ka*sh.n, i%numKinds, 0.05), genSpecialVec(r, sh.kb*sh.n, i%numKinds, 0.05)
			} else {
				a, b = genVec(r, sh.ka*sh.n, i%numKinds), genVec(r, sh.kb*sh.n, i%numKinds)
			}
			want, got := make([]float64, sh.ka*sh.kb), make([]float64, sh.ka*sh.kb)
			func() {
				dotRowsTile8 = false
				defer func() { dotRowsTile8 = true }()
				DotRows(want, a, sh.ka, b, sh.kb, sh.n)
			}()
			DotRows(got, a, sh.ka, b, sh.kb, sh.n)
			if e := sameResults(got, want); e >= 0 {
				desc := fmt.Sprintf("ka=%d kb=%d n=%d", sh.ka, sh.kb, sh.n)
				t.Fatalf("%s: dst[%d] (i=%d, j=%d) = %v with the tiles of 8, %v with those of 4", desc, e, e%sh.ka, e/sh.ka, got[e], want[e])
			}
		}
	})
}
