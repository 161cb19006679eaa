//go:build gc && !purego

package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestMulVecsSmallChain checks the small-n kernel of MulVecs on AVX-512
// (called directly, for more n than MulVecs hands it) against the exact
// operation its contract names: per output, the chain of fused
// multiply-adds over the columns in order, starting from the rounded first
// product, bit for bit (math.FMA is exact rounding; any two NaNs count as
// equal). n from 1 to 70 (every width of the last 8-row and 16-column
// block), k across one and more assembly calls, unaligned inputs with
// guards, every kind of value and special values (NaN, ±Inf, subnormals,
// ±0). TestMulVecs checks MulVecs on this path against the exact sum.
func TestMulVecsSmallChain(t *testing.T) {
	if !startAVX512 {
		t.Skip("no AVX-512")
	}
	defer setPath(pathSpec{name: "avx512", avx512: true, avx2: true})()
	r := rand.New(rand.NewPCG(21, 21))
	for n := 1; n <= 70; n++ {
		step := max(1, smallWork/(n*n))
		for _, k := range []int{1, 2, 3, 10, 17, step, step + 3} {
			if k > 300 && n%5 != 0 {
				continue // the call boundaries at a few n suffice
			}
			for kind := range numKinds {
				for _, special := range []bool{false, true} {
					var a, x []float64
					if special {
						a, x = genSpecialVec(r, n*n, kind, 0.05), genSpecialVec(r, k*n, kind, 0.05)
					} else {
						a, x = genVec(r, n*n, kind), genVec(r, k*n, kind)
					}
					desc := fmt.Sprintf("n=%d k=%d kind=%s special=%v", n, k, kindNames[kind], special)
					g := newGuarded(r.IntN(8), k*n)
					mulVecsSmall(g.s, placed(r.IntN(8), a), n, placed(r.IntN(8), x), k)
					if i := g.guardsIntact(); i != math.MinInt {
						t.Fatalf("%s: wrote outside y at %d", desc, i)
					}
					for j := range k {
						for row := range n {
							want := a[row*n] * x[j*n]
							for c := 1; c < n; c++ {
								want = math.FMA(a[row*n+c], x[j*n+c], want)
							}
							got := g.s[j*n+row]
							if math.Float64bits(got) != math.Float64bits(want) && !(got != got && want != want) {
								t.Fatalf("%s: y[%d] = %v (%#x), want the chain %v (%#x)",
									desc, j*n+row, got, math.Float64bits(got), want, math.Float64bits(want))
							}
						}
					}
				}
			}
		}
	}
}
