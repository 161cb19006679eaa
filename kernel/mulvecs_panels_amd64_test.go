//go:build gc && !purego

package kernel

import (
	"testing"
	"unsafe"
)

// TestAlignLine: the panels' scratch space starts at a cache line, dropping
// fewer than 8 float64s (the slack WorkLen adds).
func TestAlignLine(t *testing.T) {
	buf := make([]float64, 64)
	for off := 0; off < 16; off++ {
		s := buf[off:]
		got := alignLine(s)
		drop := len(s) - len(got)
		if addr := uintptr(unsafe.Pointer(unsafe.SliceData(got))); addr%64 != 0 || drop < 0 || drop > 7 {
			t.Errorf("off %d: start %#x, dropped %d", off, addr, drop)
		}
		if &got[0] != &s[drop] {
			t.Errorf("off %d: not a suffix of s", off)
		}
	}
}
