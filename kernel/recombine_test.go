package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestRecombineStep checks on every path that RecombineStep gives the bits
// of its sequence of calls (WeightedSum2, the mean by copy and AxpBy, two
// AxpByToNorm, AxpByTo, then the largest |PNew_i| and the finiteness of
// MNew), for n through the 8-element blocks and their tails and some
// longer, several μ, repeated rows, slices at odd offsets in their
// buffers, and special values (±0, ±Inf, NaN, subnormals, huge and tiny
// magnitudes that need the norms' scaled pass) in the vectors, the
// weights and the rates; that it writes nothing past n; and that it panics
// on misuse.
func TestRecombineStep(t *testing.T) {
	r := rand.New(rand.NewPCG(71, 73))
	specials := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, -0x1p-1022, math.MaxFloat64, 1e-200, 1e200}
	rates := []float64{0.7, -1.3, 0, math.Copysign(0, -1), 1, math.Inf(1), math.NaN(), 1e-200, 1e200}
	lens := []int{0}
	for n := 1; n <= 20; n++ {
		lens = append(lens, n)
	}
	lens = append(lens, 24, 31, 32, 33, 40, 56, 64, 72, 96, 100, 128, 136, 1016, 1024, 1032)
	forEachPath(t, func(t *testing.T) {
		same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
		if Impl() == "generic" {
			same = sameFloat
		}
		for _, n := range lens {
			for trial := range 24 {
				special := trial >= 12
				val := func() float64 {
					if special && r.IntN(5) == 0 {
						return specials[r.IntN(len(specials))]
					}
					return r.NormFloat64() * []float64{1, 1e-170, 1e170}[trial%3]
				}
				mu := []int{1, 2, 5, 12}[trial%4]
				if n >= 1016 && trial == 23 {
					mu = 70 // n·μ past one assembly call's work: the sequence
				}
				lam := mu + r.IntN(4)
				off := r.IntN(3) // odd offsets into the buffers
				fill := func(k int) []float64 {
					b := make([]float64, k+off+1)
					for i := range b {
						b[i] = val()
					}
					return b[off : off+k]
				}
				y, z := fill(lam*n), fill(lam*n)
				w, rows := make([]float64, mu), make([]int, mu)
				for i := range w {
					w[i], rows[i] = val(), r.IntN(lam)
					if !special {
						w[i] = math.Abs(w[i])
					}
				}
				rt := StepRates{Sigma: 0.3, DecayS: 0.6, RateS: 1.1, Decay: 0.7, Rate: 0.9}
				if special {
					f := []*float64{&rt.Sigma, &rt.DecayS, &rt.RateS, &rt.Decay, &rt.Rate}
					*f[r.IntN(5)] = rates[r.IntN(len(rates))]
				}
				m, s, v, p := fill(n), fill(n), fill(n), fill(n)
				// The old sequence.
				want := StepState{M: m, S: s, V: v, P: p}
				for _, d := range []*[]float64{&want.MNew, &want.SNew, &want.VNew, &want.PNew, &want.YW, &want.ZW} {
					*d = make([]float64, n)
				}
				WeightedSum2(want.YW, y, want.ZW, z, w, n, rows)
				copy(want.MNew, m)
				Axpy(rt.Sigma, want.YW, want.MNew)
				wantS := AxpByToNorm(want.SNew, rt.DecayS, s, rt.RateS, want.ZW)
				wantV := AxpByToNorm(want.VNew, rt.Decay, v, rt.Rate, want.ZW)
				AxpByTo(want.PNew, rt.Decay, p, rt.Rate, want.YW)
				wantP, wantM := 0.0, true
				for i := range n {
					if a := math.Abs(want.PNew[i]); a != a || wantP == wantP && a > wantP {
						wantP = a
					}
					if math.IsNaN(want.MNew[i]) || math.IsInf(want.MNew[i], 0) {
						wantM = false
					}
				}

				got := StepState{M: m, S: s, V: v, P: p}
				outs := []*[]float64{&got.MNew, &got.SNew, &got.VNew, &got.PNew, &got.YW, &got.ZW}
				for _, d := range outs {
					b := make([]float64, n+off+1)
					b[off+n] = 7
					*d = b[off : off+n]
				}
				gS, gV, gP, gM := RecombineStep(&got, &rt, y, z, w, rows)
				where := func() string {
					return "n=" + itoa(n) + " trial=" + itoa(trial)
				}
				if !same(gS, wantS) || !same(gV, wantV) || !sameFloat(gP, wantP) || gM != wantM {
					t.Fatalf("%s: returned %v %v %v %v, want %v %v %v %v", where(), gS, gV, gP, gM, wantS, wantV, wantP, wantM)
				}
				if gP == gP && !same(gP, wantP) {
					t.Fatalf("%s: pInf %v, want %v", where(), gP, wantP)
				}
				pairs := [][2][]float64{{got.MNew, want.MNew}, {got.SNew, want.SNew}, {got.VNew, want.VNew}, {got.PNew, want.PNew}, {got.YW, want.YW}, {got.ZW, want.ZW}}
				for k, pr := range pairs {
					for i := range n {
						if !same(pr[0][i], pr[1][i]) {
							t.Fatalf("%s: output %d element %d = %v, want %v", where(), k, i, pr[0][i], pr[1][i])
						}
					}
					if pr[0][:n+1][n] != 7 {
						t.Fatalf("%s: output %d written past n", where(), k)
					}
				}
			}
		}
		vec := func() []float64 { return make([]float64, 4) }
		st := func() *StepState {
			return &StepState{M: vec(), S: vec(), V: vec(), P: vec(), MNew: vec(), SNew: vec(), VNew: vec(), PNew: vec(), YW: vec(), ZW: vec()}
		}
		rt := &StepRates{}
		y := make([]float64, 12)
		w, rows := []float64{1}, []int{2}
		RecombineStep(st(), rt, y, y, w, rows)
		mustPanic(t, "RecombineStep length mismatch", func() { b := st(); b.VNew = b.VNew[:3]; RecombineStep(b, rt, y, y, w, rows) })
		mustPanic(t, "RecombineStep short rows", func() { RecombineStep(st(), rt, y, y, []float64{1, 1}, rows) })
		mustPanic(t, "RecombineStep row out of range", func() { RecombineStep(st(), rt, y, y[:8], w, rows) })
		mustPanic(t, "RecombineStep negative row", func() { RecombineStep(st(), rt, y, y, w, []int{-1}) })
	})
}

// itoa formats i for the messages.
func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
