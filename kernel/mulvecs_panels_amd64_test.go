//go:build gc && !purego

package kernel

import (
	"fmt"
	"os"
	"strings"
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

// TestPanelCopyStride checks that the generated AVX-512 panels lay out the
// copies of A's blocks as panelACopy sizes them: rows panelAStride float64s
// apart (row 1 of a copy read at that offset), the second copy 8 rows on.
// The stride is a constant of the generator (kernel/_asm) and of this
// package; were they to differ, the copies would overrun their room.
func TestPanelCopyStride(t *testing.T) {
	src, err := os.ReadFile("mulvecs_panels_avx512_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	row := panelAStride * 8
	for _, want := range []string{
		fmt.Sprintf("VBROADCASTSD     %d(R11), Z28", row),
		fmt.Sprintf("ADDQ $0x%08x, AX", panelRows*row),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("mulvecs_panels_avx512_amd64.s has no %q", want)
		}
	}
	if strings.Contains(text, fmt.Sprintf("%d(R11)", 8*row)) {
		t.Errorf("a copy's row read %d bytes on: more than 8 rows of %d", 8*row, row)
	}
}
