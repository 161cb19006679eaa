//go:build gc && !purego

package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestTileWidthsSameBits checks the AVX-512 whole-row tiles of 4, 5 and 6
// vectors, each called for k vectors (its groups walked in assembly, the
// last moved back to end at k), against single tiles of 6 (which
// TestMulVecs checks against the exact sums): every output must have the
// same bits, so the width tileVecs chooses and the walk change no run. n
// from 4 to 75 covers every column tail over one to nine 8-column blocks,
// k every count of groups to 16 with every position of the last one; the
// inputs are unaligned, of every kind and with special values, and the
// outputs are guarded.
func TestTileWidthsSameBits(t *testing.T) {
	if !startAVX512 {
		t.Skip("no AVX-512")
	}
	const kMax = 16
	r := rand.New(rand.NewPCG(4, 5))
	for n := 4; n <= 75; n++ {
		for kind := range numKinds {
			for _, special := range []bool{false, true} {
				var a, x []float64
				if special {
					a, x = genSpecialVec(r, 4*n, kind, 0.05), genSpecialVec(r, kMax*n, kind, 0.05)
				} else {
					a, x = genVec(r, 4*n, kind), genVec(r, kMax*n, kind)
				}
				off := r.IntN(8)
				ap, xp := placed(off, a), placed((off+3)%8, x)
				// ref[j*n+i]: output i of vector j from one tile of 6.
				ref := make([]float64, kMax*n)
				one := make([]float64, 5*n+4)
				for j := range kMax {
					w := min(j, kMax-6)
					tile4x6AVX512(one, ap, xp[w*n:(w+6)*n], n, 6)
					copy(ref[j*n:j*n+4], one[(j-w)*n:(j-w)*n+4])
				}
				for _, v := range []int{4, 5, 6} {
					for k := v; k <= kMax; k++ {
						desc := fmt.Sprintf("n=%d v=%d k=%d kind=%s special=%v off=%d", n, v, k, kindNames[kind], special, off)
						g := newGuarded((off+k)%8, (k-1)*n+4)
						switch v {
						case 4:
							tile4x4AVX512(g.s, ap, xp[:k*n], n, k)
						case 5:
							tile4x5AVX512(g.s, ap, xp[:k*n], n, k)
						default:
							tile4x6AVX512(g.s, ap, xp[:k*n], n, k)
						}
						checkGuards(t, g, desc)
						for j := range k {
							for i := range 4 {
								if got, want := g.s[j*n+i], ref[j*n+i]; sameBits([]float64{got}, []float64{want}) >= 0 {
									t.Fatalf("%s: y[%d] (vector %d, row %d) = %v, a tile of 6 gives %v", desc, j*n+i, j, i, got, want)
								}
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

// TestTileRowsSumOrder checks every output of the AVX-512 whole-row tiles
// of 4, 5 and 6 vectors bit for bit against a model of their arithmetic:
// lane l of an accumulator is the chain of fused multiply-adds over the
// columns c ≡ l (mod 8) in order, the masked lanes of the column tail
// adding 0·0, and the lanes x are summed as ((x0+x4) + (x1+x5)) + ((x2+x6)
// + (x3+x7)) (any two NaNs equal). The order is what makes a run the same
// bits on every CPU of the path, so a change of the reduction that still
// passes the error bounds of TestMulVecs fails here. k runs one group,
// one and a vector (the last group moved back over the first) and two and
// a vector; every cell of y that is not an output must keep its guard.
func TestTileRowsSumOrder(t *testing.T) {
	if !startAVX512 {
		t.Skip("no AVX-512")
	}
	model := func(a, x []float64) float64 {
		n := len(a)
		var lane [8]float64
		for c := 0; c < (n+7)&^7; c++ {
			if c < n {
				lane[c%8] = math.FMA(a[c], x[c], lane[c%8])
			} else {
				lane[c%8] = math.FMA(0, 0, lane[c%8])
			}
		}
		s := [4]float64{lane[0] + lane[4], lane[1] + lane[5], lane[2] + lane[6], lane[3] + lane[7]}
		return (s[0] + s[1]) + (s[2] + s[3])
	}
	r := rand.New(rand.NewPCG(6, 7))
	for n := 4; n <= 75; n++ {
		for kind := range numKinds {
			for _, special := range []bool{false, true} {
				for _, v := range []int{4, 5, 6} {
					for _, k := range []int{v, v + 1, 2*v + 1} {
						var a, x []float64
						if special {
							a, x = genSpecialVec(r, 4*n, kind, 0.05), genSpecialVec(r, k*n, kind, 0.05)
						} else {
							a, x = genVec(r, 4*n, kind), genVec(r, k*n, kind)
						}
						desc := fmt.Sprintf("n=%d v=%d k=%d kind=%s special=%v", n, v, k, kindNames[kind], special)
						y := make([]float64, (k-1)*n+4)
						for i := range y {
							y[i] = guard
						}
						tileGroups(y, a, x, n, k, v) // tile4x<v>AVX512
						for i, got := range y {
							j, row := i/n, i%n
							if row >= 4 {
								if math.Float64bits(got) != guardBits {
									t.Fatalf("%s: y[%d] = %v is not an output and was written", desc, i, got)
								}
								continue
							}
							want := model(a[row*n:(row+1)*n], x[j*n:(j+1)*n])
							if sameResults([]float64{got}, []float64{want}) >= 0 {
								t.Fatalf("%s: y[%d] (vector %d, row %d) = %v, the model gives %v", desc, i, j, row, got, want)
							}
						}
					}
				}
			}
		}
	}
}
