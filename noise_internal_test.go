package mmaes

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"
)

// TestNoiseBreakdownKeepsState: a generation whose update fails after the
// learning rates were adapted (σ would overflow when the falling η_m's
// compensation multiplies it) ends the run with NumericalBreakdown and
// leaves the noise-handling state as it was before that generation, as
// every other part of the state is left.
func TestNoiseBreakdownKeepsState(t *testing.T) {
	noiseState := func(g *noiseAdapt) []byte {
		var e encoder
		g.encode(&e)
		return e.b
	}
	adapted := 0
	for seed := uint64(1); seed <= 40; seed++ {
		cfg := DefaultConfig(2)
		cfg.Seed, cfg.Noise = seed, true
		cfg.TolFun, cfg.TolX, cfg.MaxCondition, cfg.MaxGenerations, cfg.MaxEvals = 0, 0, 0, 0, 1e6
		o, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(seed, 1))
		fit := make([]float64, o.Lambda())
		tell := func(sigma float64) {
			o.Ask()
			if sigma > 0 {
				o.step.sigma = sigma // after the sampling
			}
			for i := range fit {
				fit[i] = r.NormFloat64() // pure noise: η_m falls
			}
			o.Tell(fit) // an error: the run stopped, as Reason says
		}
		for range 30 {
			tell(0)
		}
		if o.noise.etaM >= 1 || o.Reason() != NotStopped {
			continue
		}
		before := noiseState(o.noise)
		o.noise.next = noiseRates{etaM: -1}
		tell(math.MaxFloat64 / 1.01)
		if o.Reason() != NumericalBreakdown || o.noise.next.etaM == -1 {
			continue // not a breakdown, or one before the rates
		}
		adapted++
		if after := noiseState(o.noise); !bytes.Equal(after, before) {
			t.Errorf("seed %d: the noise state moved in a generation that broke down", seed)
		}
	}
	if adapted == 0 {
		t.Fatal("no run broke down after adapting its rates")
	}
	t.Logf("%d runs broke down after adapting their rates", adapted)
}
