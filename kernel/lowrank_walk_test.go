//go:build gc && !purego && (amd64 || arm64)

package kernel

import (
	"fmt"
	"testing"
	"unsafe"
)

// TestPanelWalk follows the walks the first tiles of a block are given,
// line by line as combineRows6AVX512 steps them (a line a term step, to
// the end of the row's segment, then stride on from the segment's start),
// and checks that together they ask for every line of the next block's
// panel of p: each of its kp rows from the next block's first column to
// its last, the next block as wide as the block or narrower (the last),
// with chunks of combineTerms terms where kp has more.
func TestPanelWalk(t *testing.T) {
	for _, tc := range []struct{ kp, n, block, c0 int }{
		{77, 100000, 1024, 0},     // the steady state at n = 10⁵
		{77, 100000, 1024, 97280}, // the block before the last, whose next block has 1696 columns
		{77, 100000, 1024, 98304}, // the next block the last, 672 columns
		{80, 1000, 256, 512},      // the next block the last, 232 columns: fewer lines than a tile's steps
		{8, 9000, 512, 0},
		{300, 20000, 256, 1024}, // chunks of combineTerms terms
	} {
		t.Run(fmt.Sprintf("kp=%d/n=%d/block=%d/c0=%d", tc.kp, tc.n, tc.block, tc.c0), func(t *testing.T) {
			kp, n, w, c0 := tc.kp, tc.n, tc.block, tc.c0
			next := min(w, n-c0-w)
			if next <= 0 {
				t.Fatal("no next block")
			}
			p := make([]float64, kp*n)[c0:] // the block's p, as combineBlocks passes it
			base := uintptr(unsafe.Pointer(&p[0]))
			steps := w / 32
			asked := map[int]bool{} // element offsets from &p[0], one a line
			for q := 0; q < panelFetchTiles+1; q++ {
				for t0 := 0; t0 < kp; t0 += combineTerms {
					kc := min(combineTerms, kp-t0)
					f := panelFetch{ahead: w, q: q}.walk(p, kp, n, t0, w)
					if q == panelFetchTiles {
						if f.at != nil {
							t.Fatalf("tile %d walks", q)
						}
						continue
					}
					if f.at == nil {
						continue // past the panel's last row
					}
					if f.left <= 0 || f.left%64 != 0 || f.left > f.rowBytes || f.rowBytes != 64*((next+7)/8) {
						t.Fatalf("tile %d, terms from %d: left %d, row %d bytes", q, t0, f.left, f.rowBytes)
					}
					at := int(uintptr(unsafe.Pointer(f.at))-base) / 8
					left := f.left
					for range kc * steps {
						asked[at] = true
						at += 8
						if left -= 64; left == 0 {
							at += n - f.rowBytes/8
							left = f.rowBytes
						}
					}
				}
			}
			for r := 0; r < kp; r++ {
				for j := 0; j < next; j += 8 {
					if i := r*n + w + j; !asked[i] {
						t.Fatalf("row %d, column %d of the next block: never asked for", r, j)
					}
				}
			}
			// Nothing inside the panel's rows but its lines.
			for i := range asked {
				r, j := i/n, i%n-w
				if r < kp && (j < 0 || j >= next || j%8 != 0) {
					t.Fatalf("asked for row %d, column %d of the block: not a line of the next panel", r, j+w)
				}
			}
		})
	}
}
