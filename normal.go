package mmaes

import "math"

// Standard normal deviates by the ziggurat method of Marsaglia and Tsang
// (2000), in the form of Doornik (2005): 256 layers, one 64-bit draw per
// deviate in the common case. Sampling is λ·n deviates per generation, and
// math/rand/v2's NormFloat64 (128 layers, a call through the Source
// interface, 32-bit layer arithmetic) costs several times more per deviate;
// fillNormal runs the optimizer's xoshiro256++ generator (rand.go) with its
// state in registers.
//
// normal_test.go checks the moments, the tails beyond the ziggurat's base
// (|z| > 3.65) and the distribution function against Φ.

// zigLayers is the number of layers; zigR is the x where the tail starts and
// zigV the common area of the layers, for 256 layers.
const (
	zigLayers = 256
	zigR      = 3.6541528853610088
	zigV      = 0.00492867323399
)

// The ziggurat tables, computed once at start-up and read-only after:
// layer i spans x in [0, zigX[i]) (zigX[0] is the virtual width of the base
// layer, which includes the tail), zigRatio[i] = zigX[i+1]/zigX[i] is the
// share of the layer under the curve for sure, and zigF[i] = f(zigX[i]).
var (
	zigX     [zigLayers + 1]float64
	zigRatio [zigLayers]float64
	zigF     [zigLayers + 1]float64
)

func init() {
	f := func(x float64) float64 { return math.Exp(-0.5 * x * x) }
	zigX[0] = zigV / f(zigR)
	zigX[1] = zigR
	for i := 2; i < zigLayers; i++ {
		zigX[i] = math.Sqrt(-2 * math.Log(zigV/zigX[i-1]+f(zigX[i-1])))
	}
	zigX[zigLayers] = 0
	for i := 0; i < zigLayers; i++ {
		zigRatio[i] = zigX[i+1] / zigX[i]
	}
	for i := range zigF {
		zigF[i] = f(zigX[i])
	}
}

// fillNormal fills z with independent standard normal deviates drawn from
// p. The generator's state stays in registers for the fast path; the rare
// slow path (the wedges and the tail, 1.2% of the draws) goes through p.
func fillNormal(p *xoshiro, z []float64) {
	s0, s1, s2, s3 := p.s0, p.s1, p.s2, p.s3
	for i := range z {
		var r uint64
		r, s0, s1, s2, s3 = xoshiroStep(s0, s1, s2, s3)
		j := r & (zigLayers - 1)
		u := float64(int64(r)>>11) * 0x1p-52 // signed 53 bits: [−1, 1)
		if math.Abs(u) < zigRatio[j] {
			z[i] = u * zigX[j]
			continue
		}
		p.s0, p.s1, p.s2, p.s3 = s0, s1, s2, s3
		z[i] = normalSlow(p, j, u)
		s0, s1, s2, s3 = p.s0, p.s1, p.s2, p.s3
	}
	p.s0, p.s1, p.s2, p.s3 = s0, s1, s2, s3
}

// normalSlow finishes a draw that missed the fast path of layer j with the
// signed uniform u: the tail for the base layer, the wedge test otherwise,
// and on rejection new draws until one is accepted.
func normalSlow(p *xoshiro, j uint64, u float64) float64 {
	for {
		x := u * zigX[j]
		if j == 0 {
			return normalTail(p, u < 0)
		}
		// The wedge between the layer's inner rectangle and the curve.
		if zigF[j+1]+uniform(p)*(zigF[j]-zigF[j+1]) < math.Exp(-0.5*x*x) {
			return x
		}
		r := p.Uint64()
		j = r & (zigLayers - 1)
		u = float64(int64(r)>>11) * 0x1p-52
		if math.Abs(u) < zigRatio[j] {
			return u * zigX[j]
		}
	}
}

// normalTail draws from the normal tail beyond zigR by Marsaglia's (1964)
// method, with the given sign.
func normalTail(p *xoshiro, negative bool) float64 {
	for {
		x := -math.Log(uniformOpen(p)) / zigR
		y := -math.Log(uniformOpen(p))
		if 2*y >= x*x {
			if negative {
				return -(zigR + x)
			}
			return zigR + x
		}
	}
}

// uniform returns a uniform float64 in [0, 1) from 53 random bits.
func uniform(p *xoshiro) float64 {
	return float64(p.Uint64()>>11) * 0x1p-53
}

// uniformOpen returns a uniform float64 in (0, 1), for logarithms.
func uniformOpen(p *xoshiro) float64 {
	return (float64(p.Uint64()>>11) + 0.5) * 0x1p-53
}
