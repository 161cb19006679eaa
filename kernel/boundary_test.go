//go:build linux

package kernel

// Every kernel on every path with its slices placed against inaccessible
// pages: each slice either ENDS exactly at a page boundary followed by a
// PROT_NONE page, or STARTS exactly at the beginning of a page preceded by a
// PROT_NONE page. A read or write past len (or before the start) faults; the
// fault is turned into a panic (debug.SetPanicOnFault) and reported with the
// kernel, path, sizes and placement.

import (
	"fmt"
	"math"
	"runtime/debug"
	"syscall"
	"testing"
	"unsafe"
)

// fencedMem is a mapping [PROT_NONE page][data][PROT_NONE page].
type fencedMem struct {
	mem  []byte
	data []float64
}

func newFencedMem(t *testing.T, maxElems int) *fencedMem {
	t.Helper()
	page := syscall.Getpagesize()
	dataBytes := (max(maxElems, 1)*8 + page - 1) / page * page
	size := dataBytes + 2*page
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatalf("mmap: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[:page], syscall.PROT_NONE); err != nil {
		t.Fatalf("mprotect: %v", err)
	}
	if err := syscall.Mprotect(mem[page+dataBytes:], syscall.PROT_NONE); err != nil {
		t.Fatalf("mprotect: %v", err)
	}
	data := unsafe.Slice((*float64)(unsafe.Pointer(&mem[page])), dataBytes/8)
	return &fencedMem{mem: mem, data: data}
}

// place returns n elements ending at the trailing fence (atEnd) or starting
// at the leading fence, filled with vals (cycled).
func (m *fencedMem) place(n int, atEnd bool, vals []float64) []float64 {
	var s []float64
	if atEnd {
		s = m.data[len(m.data)-n : len(m.data) : len(m.data)]
	} else {
		s = m.data[:n:n]
	}
	for i := range s {
		s[i] = vals[i%len(vals)]
	}
	return s
}

// faultCheck runs f and reports a memory fault (a panic from
// SetPanicOnFault) or any other panic as a test error.
func faultCheck(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			if f, ok := r.(interface{ Addr() uintptr }); ok {
				t.Errorf("%s: %v: a memory fault at %#x (an access outside the slices)", what, r, f.Addr())
				return
			}
			t.Errorf("%s: panic: %v", what, r)
		}
	}()
	f()
}

func boundarySizes() []int {
	var ns []int
	for n := 0; n <= 70; n++ {
		ns = append(ns, n)
	}
	ns = append(ns, 100, 127, 128, 129, 255, 256, 257, 259, 300)
	if !testing.Short() {
		ns = append(ns, 513, 1031)
	}
	return ns
}

var boundaryKs = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 26, 28, 30, 47}

func TestBoundaryPages(t *testing.T) {
	ns := boundarySizes()
	maxN := ns[len(ns)-1]
	maxK := boundaryKs[len(boundaryKs)-1]
	forEachPath(t, func(t *testing.T) {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		// One mapping per slice role, so that every slice can sit at a fence.
		mA := newFencedMem(t, maxN*maxN)
		mX := newFencedMem(t, maxK*maxN)
		mY := newFencedMem(t, maxK*maxN)
		mP := newFencedMem(t, maxN)
		mV := newFencedMem(t, maxN)
		mW := newFencedMem(t, maxK)
		vals := []float64{0.5, -1, 2, 0.25, -3, 1.5, 1, -0.75, 4}
		for _, atEnd := range []bool{true, false} {
			place := "start of a page"
			if atEnd {
				place = "end of a page"
			}
			for _, n := range ns {
				where := func(kernel string) string {
					return fmt.Sprintf("%s n=%d, every slice at the %s", kernel, n, place)
				}
				x, y := mX.place(n, atEnd, vals), mY.place(n, atEnd, vals[1:])
				faultCheck(t, where("Dot"), func() {
					// The values are small binary fractions: the dot is exact.
					want := 0.0
					for i := range n {
						want += x[i] * y[i]
					}
					if got := Dot(x, y); got != want {
						t.Errorf("%s: %v, want %v", where("Dot"), got, want)
					}
				})
				faultCheck(t, where("Dot(x, x)"), func() { Dot(x, x) })
				faultCheck(t, where("Norm"), func() { Norm(x) })
				faultCheck(t, where("Norm fallback"), func() {
					z := mV.place(n, atEnd, []float64{1e300, -1e300, 0})
					Norm(z)
				})
				faultCheck(t, where("AxpBy"), func() { AxpBy(0.5, x, -2, y) })
				faultCheck(t, where("Axpy"), func() { Axpy(0.25, x, y) })
				faultCheck(t, where("AxpBy in place"), func() { AxpBy(0.5, y, 2, y) })
				faultCheck(t, where("Scale"), func() { Scale(0.5, y) })

				a := mA.place(n*n, atEnd, vals)
				faultCheck(t, where("MulVec"), func() { MulVec(mY.place(n, atEnd, vals), a, n, x) })
				faultCheck(t, where("MulVecTrans"), func() { MulVecTrans(mY.place(n, atEnd, vals), a, n, x) })
				faultCheck(t, where("ScaleAddOuter"), func() {
					ScaleAddOuter(a, n, 0.5, 0.25, mP.place(n, atEnd, vals), mV.place(n, atEnd, vals[2:]))
				})
				ks := boundaryKs
				if n > 300 {
					ks = []int{1, 4, 5, 9}
				}
				for _, k := range ks {
					xk := mX.place(k*n, atEnd, vals)
					faultCheck(t, where(fmt.Sprintf("MulVecs k=%d", k)), func() {
						MulVecs(mY.place(k*n, atEnd, vals), mA.place(n*n, atEnd, vals), n, xk, k)
					})
					if n > 0 {
						rows := make([]int, k)
						for i := range rows {
							rows[i] = (i * 7) % k
						}
						faultCheck(t, where(fmt.Sprintf("WeightedSum k=%d", k)), func() {
							WeightedSum(mY.place(n, atEnd, vals), mW.place(k, atEnd, vals), xk, n, rows)
						})
					}
				}
			}
		}
	})
}

// TestBoundaryPagesFault checks that the fences work: reading the element
// just past a slice that ends at a fence, or just before one that starts at
// a fence, faults.
func TestBoundaryPagesFault(t *testing.T) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	m := newFencedMem(t, 16)
	for _, atEnd := range []bool{true, false} {
		s := m.place(5, atEnd, []float64{1})
		p := unsafe.Pointer(unsafe.SliceData(s))
		if atEnd {
			p = unsafe.Add(p, 5*8)
		} else {
			p = unsafe.Add(p, -8)
		}
		faulted := func() (faulted bool) {
			defer func() { faulted = recover() != nil }()
			sink := *(*float64)(p)
			_ = math.Abs(sink)
			return false
		}()
		if !faulted {
			t.Errorf("reading outside a slice at the fence (atEnd=%v) did not fault", atEnd)
		}
	}
}
