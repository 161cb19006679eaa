package mmaes

import (
	"math"

	"github.com/mmaes-go/mmaes/kernel"
)

// Standard normal deviates by the ziggurat method of Marsaglia and Tsang
// (2000), in the form of Doornik (2005): 256 layers, one 64-bit draw per
// deviate in the common case. Sampling is λ·n deviates per generation, and
// math/rand/v2's NormFloat64 (128 layers, a call through the Source
// interface, 32-bit layer arithmetic) costs several times more per deviate;
// fillNormal runs eight xoshiro256++ generators side by side (rand.go,
// kernel.Ziggurat).
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
// layer, which includes the tail; zigX[i+1] is the inner edge of layer i,
// under the curve for sure), and zigF[i] = f(zigX[i]).
var (
	zigX  [zigLayers + 1]float64
	zigF  [zigLayers + 1]float64
	zigSq [zigLayers]squeeze
)

// squeeze bounds f(t) = exp(−t²/2) on a layer's wedge, zigX[j+1] ≤ t <
// zigX[j], by two lines: lo0 + lo1·t ≤ f(t) ≤ hi0 + hi1·t. Where f is convex
// (t ≥ 1) the chord is above it and the tangent at the middle below, where
// it is concave (t ≤ 1) the other way round; the layer that holds t = 1 has
// no bounds (lo = 0, hi = +Inf). normalSlow decides most wedge draws with
// them and calls math.Exp only in the thin band between; the bounds are
// widened by squeezeMargin, far more than their rounding, so the decision is
// always the one math.Exp would make and the deviates are the same.
type squeeze struct{ lo0, lo1, hi0, hi1 float64 }

// squeezeMargin widens the squeeze (relative): its lines are computed with
// a few roundings, 1e-16 each, and f itself by math.Exp within 1 ulp.
const squeezeMargin = 0x1p-40

// newSqueeze returns the squeeze of the wedge over [a, b].
func newSqueeze(a, b float64) squeeze {
	f := func(t float64) float64 { return math.Exp(-0.5 * t * t) }
	fa, fb := f(a), f(b)
	slope := (fb - fa) / (b - a)
	chord0 := fa - slope*a
	m := (a + b) / 2
	fm := f(m)
	tan1 := -m * fm // f'(m)
	tan0 := fm - tan1*m
	switch {
	case a >= 1: // convex
		return squeeze{lo0: tan0, lo1: tan1, hi0: chord0, hi1: slope}
	case b <= 1: // concave
		return squeeze{lo0: chord0, lo1: slope, hi0: tan0, hi1: tan1}
	}
	return squeeze{hi0: math.Inf(1)}
}

func init() {
	f := func(x float64) float64 { return math.Exp(-0.5 * x * x) }
	zigX[0] = zigV / f(zigR)
	zigX[1] = zigR
	for i := 2; i < zigLayers; i++ {
		zigX[i] = math.Sqrt(-2 * math.Log(zigV/zigX[i-1]+f(zigX[i-1])))
	}
	zigX[zigLayers] = 0
	for i := range zigF {
		zigF[i] = f(zigX[i])
	}
	for j := 1; j < zigLayers; j++ {
		zigSq[j] = newSqueeze(zigX[j+1], zigX[j])
	}
}

// normalMax bounds the magnitude of fillNormal's deviates: the fast path
// and the wedges return |x| < zigR, the tail zigR + (−ln u)/zigR with u ≥
// 2⁻⁵⁴ (uniformOpen), below 14.
const normalMax = 16

// fillNormal fills z with independent standard normal deviates drawn from
// p: the fast path of the ziggurat (almost all draws) runs on p's lanes
// in kernel.Ziggurat, eight at a time on AVX-512; the draws it rejects go
// through the slow path (the wedges and the tail) on p's scalar generator.
// The deviates are a function of p's state and len(z) alone, the same on
// every kernel path; a fill of n and two fills that add up to n differ (a
// fill's last round discards the draws of lanes it does not need).
func fillNormal(p *xoshiro, z []float64) {
	rej := p.rej[:] // in p: a local array would be cleared on every call
	for len(z) > 0 {
		acc, nrej := kernel.Ziggurat(z, &p.lanes, &zigX, rej)
		z = z[acc:]
		for _, r := range rej[:nrej] {
			z[0] = normalSlow(p, r&(zigLayers-1), kernel.ZigUniform(r))
			z = z[1:]
		}
	}
}

// normalChunk is the length of the chunks in which fillPopulation draws a
// population's deviates when it has more: each chunk from a generator of
// its own, seeded by one draw of the optimizer's, so that any goroutines
// can draw the chunks, in any order, with the same bits. 2¹⁵ deviates
// (256 KiB) is long enough that the seeding (36 SplitMix64 steps) costs
// under 0.1 % of the chunk, and short enough for a population of 10⁵
// (λ = 38) to make 116 chunks to share out.
const normalChunk = 1 << 15

// normalChunks returns the number of chunks of a population of m deviates:
// 0 (one fill from the generator itself) up to normalChunk.
func normalChunks(m int) int {
	if m <= normalChunk {
		return 0
	}
	return (m + normalChunk - 1) / normalChunk
}

// fillPopulation fills z with a population's deviates drawn from p: up to
// normalChunk of them by fillNormal from p itself; more in chunks of
// normalChunk (the last shorter), chunk c from the generator that
// fillChunk seeds with the c-th draw of p's scalar generator (all the
// seeds drawn first, in order). The deviates are a function of p's state
// and len(z) alone, whoever draws the chunks (fillJob shares them out).
func fillPopulation(p *xoshiro, z []float64) {
	for c := range normalChunks(len(z)) {
		fillChunk(p.Uint64(), z, c)
	}
	if len(z) <= normalChunk {
		fillNormal(p, z)
	}
}

// fillChunk fills chunk c of the population z from the generator that
// newXoshiro(seed) would return.
func fillChunk(seed uint64, z []float64, c int) {
	var g xoshiro
	g.seed(seed)
	fillNormal(&g, z[c*normalChunk:min(len(z), (c+1)*normalChunk)])
}

// normalSlow finishes a draw that missed the fast path of layer j with the
// signed uniform u: the tail for the base layer, the wedge test otherwise,
// and on rejection new draws until one is accepted.
//
// Whether a wedge draw is accepted is a coin toss the branch predictor
// cannot learn, so the loop decides it without a branch: the next draw is
// computed from the scalar state whatever the outcome and kept (the state
// moved on) only where the wedge rejects, and the deviate returned is chosen
// by its bits. The draws consumed and the deviates are those of the plain
// loop: a wedge test, then on rejection one draw for the fast path.
func normalSlow(p *xoshiro, j uint64, u float64) float64 {
	for {
		x := u * zigX[j]
		if j == 0 {
			return normalTail(p, u < 0)
		}
		// The wedge between the layer's inner rectangle and the curve: y
		// under f(|x|) accepts; the squeeze decides without math.Exp
		// unless y falls between its lines.
		y := zigF[j+1] + uniform(p)*(zigF[j]-zigF[j+1])
		t, sq := math.Abs(x), &zigSq[j]
		lo := (sq.lo0 + sq.lo1*t) * (1 - squeezeMargin)
		hi := (sq.hi0 + sq.hi1*t) * (1 + squeezeMargin)
		accept := b2u(y < lo)
		if b2u(y >= lo)&b2u(y < hi) != 0 {
			accept = b2u(y < math.Exp(-0.5*x*x))
		}
		// The draw that follows a rejection, and its fast path.
		r, s0, s1, s2, s3 := xoshiroStep(p.s0, p.s1, p.s2, p.s3)
		j2 := r & (zigLayers - 1)
		u2 := float64(int64(r)>>11) * 0x1p-52
		x2 := u2 * zigX[j2]
		fast := b2u(math.Abs(x2) < zigX[j2+1])
		keep := -uint64(accept) // all ones where the wedge accepts
		p.s0 = p.s0&keep | s0&^keep
		p.s1 = p.s1&keep | s1&^keep
		p.s2 = p.s2&keep | s2&^keep
		p.s3 = p.s3&keep | s3&^keep
		if accept|fast != 0 {
			return math.Float64frombits(math.Float64bits(x)&keep | math.Float64bits(x2)&^keep)
		}
		j, u = j2, u2
	}
}

// b2u returns 1 for true and 0 for false (without a branch).
func b2u(b bool) uint64 {
	var u uint64
	if b {
		u = 1
	}
	return u
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
