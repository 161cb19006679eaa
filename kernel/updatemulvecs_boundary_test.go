//go:build linux

package kernel

import (
	"fmt"
	"math"
	"runtime/debug"
	"testing"
)

// TestUpdateMulVecsBoundaryPages places every slice of UpdateMulVecs against
// a PROT_NONE page (boundary_test.go), so that any access past a slice's end
// or before its start faults, and checks the result against the two passes.
func TestUpdateMulVecsBoundaryPages(t *testing.T) {
	ns := boundarySizes()
	if !testing.Short() {
		// k = 9 on the AVX2 panels: 259 tiles, the last call of 3, whose
		// last tile (A's last rows) is updated a tile ahead (α = 1 for even
		// n), its last panel of 12 columns a line and 4 masked ones.
		ns = append(ns, 1036)
	}
	maxN := ns[len(ns)-1]
	ks := []int{1, 4, 6, 7, 9, 13, 29}
	maxK := ks[len(ks)-1]
	vals := []float64{0.5, -1, 2, 0.25, -3, 1.5, 1, -0.75, 4}
	forEachPath(t, func(t *testing.T) {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		mA, mY, mX := newFencedMem(t, maxN*maxN), newFencedMem(t, maxK*maxN), newFencedMem(t, maxK*maxN)
		mP, mV := newFencedMem(t, maxN), newFencedMem(t, maxN)
		for _, atEnd := range []bool{true, false} {
			for _, n := range ns {
				kn := ks
				if n > 300 {
					kn = []int{9}
				}
				for _, k := range kn {
					what := fmt.Sprintf("UpdateMulVecs n=%d k=%d at the end of a page: %v", n, k, atEnd)
					// α = 1 too: the AVX2 panels then update a tile ahead,
					// with masks of their own for the last columns.
					alpha := 0.5
					if n%2 == 0 {
						alpha = 1
					}
					a := mA.place(n*n, atEnd, vals)
					p, v, x := mP.place(n, atEnd, vals[1:]), mV.place(n, atEnd, vals[2:]), mX.place(k*n, atEnd, vals[3:])
					y := mY.place(k*n, atEnd, vals)
					a2 := append([]float64(nil), a...)
					y2 := make([]float64, k*n)
					ScaleAddOuter(a2, n, alpha, 0.25, p, v)
					MulVecs(y2, a2, n, x, k)
					faultCheck(t, what, func() { UpdateMulVecs(y, a, n, alpha, 0.25, p, v, x, k) })
					for i := range y2 {
						if math.Float64bits(y[i]) != math.Float64bits(y2[i]) {
							t.Fatalf("%s: y[%d] = %v, two passes give %v", what, i, y[i], y2[i])
						}
					}
					for i := range a2 {
						if math.Float64bits(a[i]) != math.Float64bits(a2[i]) {
							t.Fatalf("%s: a[%d] = %v, two passes give %v", what, i, a[i], a2[i])
						}
					}
				}
			}
		}
	})
}
