//go:build gc && !purego

package kernel

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestTileWidthsSameBits checks that the AVX-512 whole-row tiles of 4 and 5
// vectors give each output the bits of the tile of 6 (which TestMulVecs
// checks against the exact sums): the width tileVecs chooses must not change
// a run. n from 4 to 75 covers every column tail over one to nine 8-column
// blocks; the inputs are unaligned, of every kind and with special values,
// and the outputs are guarded.
func TestTileWidthsSameBits(t *testing.T) {
	if !startAVX512 {
		t.Skip("no AVX-512")
	}
	r := rand.New(rand.NewPCG(4, 5))
	for n := 4; n <= 75; n++ {
		for kind := range numKinds {
			for _, special := range []bool{false, true} {
				var a, x []float64
				if special {
					a, x = genSpecialVec(r, 4*n, kind, 0.05), genSpecialVec(r, 6*n, kind, 0.05)
				} else {
					a, x = genVec(r, 4*n, kind), genVec(r, 6*n, kind)
				}
				off := r.IntN(8)
				ap, xp := placed(off, a), placed((off+3)%8, x)
				ref := newGuarded(0, 5*n+4)
				tile4x6AVX512(ref.s, ap, xp, n)
				for _, v := range []int{4, 5} {
					desc := fmt.Sprintf("n=%d v=%d kind=%s special=%v off=%d", n, v, kindNames[kind], special, off)
					g := newGuarded((off+v)%8, (v-1)*n+4)
					if v == 4 {
						tile4x4AVX512(g.s, ap, xp[:4*n], n)
					} else {
						tile4x5AVX512(g.s, ap, xp[:5*n], n)
					}
					checkGuards(t, g, desc)
					for j := range v {
						for i := range 4 {
							got, want := g.s[j*n+i], ref.s[j*n+i]
							if sameBits([]float64{got}, []float64{want}) >= 0 {
								t.Fatalf("%s: y[%d] (vector %d, row %d) = %v, the 6-wide tile gives %v", desc, j*n+i, j, i, got, want)
							}
						}
					}
				}
			}
		}
	}
}

// TestTileVecs checks the widths of the AVX-512 whole-row tiles against the
// products each computes (worked out by hand: k vectors in tiles of v cost
// ⌈k/v⌉·v, the widest of the cheapest wins), and that the AVX2 path keeps
// its one width of 3.
func TestTileVecs(t *testing.T) {
	want512 := map[int]int{
		4: 4, 5: 5, 6: 6, 7: 4, 8: 4, 9: 5, 10: 5, 11: 6, 12: 6, 13: 5, 14: 5, 15: 5,
		16: 4, 17: 6, 18: 6, 19: 5, 20: 5, 23: 6, 24: 6, 28: 4, 29: 6, 40: 5, 100: 5,
	}
	forEachPath(t, func(t *testing.T) {
		if Impl() == "generic" {
			t.Skip("no register tiles")
		}
		for k, w := range want512 {
			if Impl() == "avx2" {
				w = 3
			}
			if got := tileVecs(k); got != w {
				t.Errorf("tileVecs(%d) = %d, want %d", k, got, w)
			}
		}
	})
}
