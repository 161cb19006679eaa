//go:build linux

package kernel

import (
	"fmt"
	"runtime/debug"
	"testing"
	"unsafe"
)

// TestCountLessBoundaryPages runs CountLess on every path with keys and dst
// against inaccessible pages (boundary_test.go): the masked load of the last
// partial group must not touch the page after the keys.
func TestCountLessBoundaryPages(t *testing.T) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	ns := boundarySizes()
	maxN := ns[len(ns)-1]
	mK, mD := newFencedMem(t, maxN), newFencedMem(t, maxN)
	forEachPath(t, func(t *testing.T) {
		for _, n := range ns {
			for _, atEnd := range []bool{true, false} {
				k := mK.place(n, atEnd, []float64{3, -1, 2})
				d := mD.place(n, atEnd, []float64{0})
				keys := unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(k))), n)
				dst := unsafe.Slice((*int)(unsafe.Pointer(unsafe.SliceData(d))), n)
				faultCheck(t, fmt.Sprintf("CountLess n=%d atEnd=%v", n, atEnd), func() { CountLess(dst, keys) })
			}
		}
	})
}
