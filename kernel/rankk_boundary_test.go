//go:build linux

package kernel

import (
	"fmt"
	"runtime/debug"
	"testing"
)

// TestScaleAddRankKBoundaryPages places every slice against a PROT_NONE page
// (boundary_test.go): an access past a slice's end or before its start
// faults. The values are small binary fractions, so the result is exact and
// checked too.
func TestScaleAddRankKBoundaryPages(t *testing.T) {
	ns := boundarySizes()
	maxN := ns[len(ns)-1]
	ks := []int{0, 1, 2, 3, 5, 8, 15, 16, 17, 40}
	maxK := ks[len(ks)-1]
	forEachPath(t, func(t *testing.T) {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		mA := newFencedMem(t, maxN*maxN)
		mP, mQ, mB := newFencedMem(t, maxK*maxN), newFencedMem(t, maxK*maxN), newFencedMem(t, maxK)
		vals := []float64{0.5, -1, 2, 0.25, -3, 1.5, 1, -0.75, 4}
		for _, atEnd := range []bool{true, false} {
			place := "start of a page"
			if atEnd {
				place = "end of a page"
			}
			for _, n := range ns {
				kn := ks
				if n > 300 {
					kn = []int{1, 17}
				}
				for _, k := range kn {
					what := fmt.Sprintf("ScaleAddRankK n=%d k=%d, every slice at the %s", n, k, place)
					a := mA.place(n*n, atEnd, vals)
					beta, p, q := mB.place(k, atEnd, vals[3:]), mP.place(k*n, atEnd, vals[1:]), mQ.place(k*n, atEnd, vals[2:])
					faultCheck(t, what, func() { ScaleAddRankK(a, n, 0.5, beta, p, q, k) })
					if n > 300 {
						continue
					}
					for e, got := range a {
						i, j := e/n, e%n
						want := 0.5 * vals[e%len(vals)]
						for tt := range k {
							want += beta[tt] * p[tt*n+i] * q[tt*n+j]
						}
						if got != want {
							t.Errorf("%s: a[%d][%d] = %v, want %v", what, i, j, got, want)
							break
						}
					}
				}
			}
		}
	})
}
