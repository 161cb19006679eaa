package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestScaleAddOuterNorms checks, on every path, that ScaleAddOuterNorms
// gives the bits of ScaleAddOuter followed by Norm of every row (any two
// NaNs equal): every n up to 70 and some across its row blocks (n > 2048
// puts one row in a block), every kind of value, special values, unaligned
// slices, and no write outside a or norms.
func TestScaleAddOuterNorms(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 41))
	ns := append(matSizes(), 2047, 2049)
	forEachPath(t, func(t *testing.T) {
		for i, n := range ns {
			kind := i % numKinds
			special := i%3 == 0
			a := genVec(r, n*n, kind)
			p, v := genVec(r, n, kind), genVec(r, n, kindUniform)
			if special {
				a, p = genSpecialVec(r, n*n, kind, 0.02), genSpecialVec(r, n, kind, 0.05)
			}
			alpha, beta := 1-r.Float64()/4, r.NormFloat64()
			desc := fmt.Sprintf("n=%d kind=%s special=%v", n, kindNames[kind], special)

			want := append([]float64(nil), a...)
			ScaleAddOuter(want, n, alpha, beta, p, v)
			wantNorms := make([]float64, n)
			for j := range n {
				wantNorms[j] = Norm(want[j*n : j*n+n])
			}

			ga, gn := newGuarded(r.IntN(8), n*n), newGuarded(r.IntN(8), n)
			copy(ga.s, a)
			ScaleAddOuterNorms(ga.s, n, alpha, beta, placed(r.IntN(8), p), placed(r.IntN(8), v), gn.s)
			checkGuards(t, ga, "ScaleAddOuterNorms a "+desc)
			checkGuards(t, gn, "ScaleAddOuterNorms norms "+desc)
			if j := sameResults(ga.s, want); j >= 0 {
				t.Fatalf("%s: a[%d] = %v, ScaleAddOuter gives %v", desc, j, ga.s[j], want[j])
			}
			if j := sameResults(gn.s, wantNorms); j >= 0 {
				t.Fatalf("%s: norms[%d] = %v, Norm of the row gives %v", desc, j, gn.s[j], wantNorms[j])
			}
		}
	})
}

func TestScaleAddOuterNormsMisuse(t *testing.T) {
	a, p, v := make([]float64, 9), make([]float64, 3), make([]float64, 3)
	mustPanic(t, "short norms", func() { ScaleAddOuterNorms(a, 3, 1, 1, p, v, make([]float64, 2)) })
	mustPanic(t, "norms overlaps a", func() { ScaleAddOuterNorms(a, 3, 1, 1, p, v, a[6:]) })
	mustPanic(t, "norms overlaps p", func() { ScaleAddOuterNorms(a, 3, 1, 1, p, v, p) })
	mustPanic(t, "short a", func() { ScaleAddOuterNorms(a[:8], 3, 1, 1, p, v, make([]float64, 3)) })
	ScaleAddOuterNorms(nil, 0, 1, 1, nil, nil, nil) // n = 0: nothing to do
}

// TestScaleAddOuterNormsSmall checks ScaleAddOuterNorms against ScaleAddOuter
// and Norm for every n up to past the one-register rows of AVX-512 (n ≤ 8)
// and multiples of 8 on both sides of its 32-element steps,
// with special values (±0, ±Inf, NaN, subnormals, huge and tiny rows that
// need Norm's scaled pass) in A, p, v, α and β, and rows at odd offsets.
func TestScaleAddOuterNormsSmall(t *testing.T) {
	r := rand.New(rand.NewPCG(89, 97))
	specials := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, -0x1p-1022, math.MaxFloat64, 1e-200, 1e200}
	forEachPath(t, func(t *testing.T) {
		for _, n := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 16, 24, 32, 40, 48, 64, 72, 96, 136} {
			for trial := range 40 {
				special := trial >= 10
				val := func() float64 {
					if special && r.IntN(6) == 0 {
						return specials[r.IntN(len(specials))]
					}
					return r.NormFloat64() * []float64{1, 1e-170, 1e170}[trial%3]
				}
				off := r.IntN(3)
				fill := func(l int) []float64 {
					b := make([]float64, l+off+1)
					for i := range b {
						b[i] = val()
					}
					return b[off : off+l]
				}
				a, p, v := fill(n*n), fill(n), fill(n)
				alpha, beta := 0.9, 0.05
				if special && trial%4 == 0 {
					alpha, beta = val(), val()
				}
				want := append([]float64(nil), a...)
				ScaleAddOuter(want, n, alpha, beta, p, v)
				wantNorms := make([]float64, n)
				for j := range n {
					wantNorms[j] = Norm(want[j*n : j*n+n])
				}
				norms := make([]float64, n+1)
				norms[n] = 7
				ScaleAddOuterNorms(a, n, alpha, beta, p, v, norms[:n])
				for j := range a {
					if math.Float64bits(a[j]) != math.Float64bits(want[j]) {
						t.Fatalf("n=%d trial=%d: a[%d] = %v, want %v", n, trial, j, a[j], want[j])
					}
				}
				for j := range n {
					if math.Float64bits(norms[j]) != math.Float64bits(wantNorms[j]) {
						t.Fatalf("n=%d trial=%d: norms[%d] = %v, want %v", n, trial, j, norms[j], wantNorms[j])
					}
				}
				if norms[n] != 7 {
					t.Fatalf("n=%d: wrote past norms", n)
				}
			}
		}
	})
}
