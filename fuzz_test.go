package mmaes_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mmaes-go/mmaes"
)

// FuzzOptimizer drives optimizers of random dimension, step size, seed,
// update rule, λ and μ with adversarial fitness streams: every value is chosen by a
// byte of stream (NaN, ±Inf, ±1e308, ±MaxFloat64, 0, a constant, random,
// the sphere, the negative sphere, the smallest subnormal, ...). It checks
// that nothing panics, that σ is always finite and > 0, and that while the
// run has not stopped the mean, A (and A_inv), the paths and the best value
// are finite (or the best value is NaN only before any non-NaN value).
func FuzzOptimizer(f *testing.F) {
	f.Add(uint8(3), 1.0, uint64(1), uint8(0), []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})
	f.Add(uint8(1), 1e-300, uint64(2), uint8(1), []byte{9, 9, 9, 9})
	f.Add(uint8(40), 1e300, uint64(3), uint8(2), []byte{10, 10, 10, 0, 0, 3})
	f.Add(uint8(7), 6.6, uint64(0), uint8(2), []byte{})
	f.Add(uint8(2), 5e-324, uint64(4), uint8(0), []byte{11})
	f.Add(uint8(5), math.MaxFloat64, uint64(5), uint8(1), []byte{3, 4})
	f.Add(uint8(12), 1.0, uint64(6), uint8(0), []byte{8})
	f.Add(uint8(9), math.NaN(), uint64(7), uint8(2), []byte{1})
	f.Fuzz(func(t *testing.T, dim uint8, sigma float64, seed uint64, upd uint8, stream []byte) {
		n := int(dim)%48 + 1
		cfg := mmaes.DefaultConfig(n)
		cfg.Sigma = sigma
		cfg.Seed = seed
		cfg.Update = mmaes.Update(upd % 4) // 3 is invalid
		if l := int(upd>>2) % 16; l > 0 {
			cfg.Lambda = l                  // 1 is invalid
			cfg.Mu = int(seed>>8) % (l + 1) // 0: λ/2; may equal λ
		}
		cfg.MaxGenerations = 60
		if seed&1 == 1 {
			cfg.TolFun, cfg.TolX, cfg.MaxCondition = 0, 0, 0
		}
		o, err := mmaes.New(cfg)
		if err != nil {
			return // invalid σ or update: rejected, not a panic
		}
		rng := rand.New(rand.NewPCG(seed, 99))
		fit := make([]float64, o.Lambda())
		k := 0
		next := func(x []float64) float64 {
			var b byte
			if len(stream) > 0 {
				b = stream[k%len(stream)]
			} else {
				b = byte(k)
			}
			k++
			switch b % 16 {
			case 0:
				return math.NaN()
			case 1:
				return math.Inf(1)
			case 2:
				return math.Inf(-1)
			case 3:
				return 1e308
			case 4:
				return -1e308
			case 5:
				return math.MaxFloat64
			case 6:
				return -math.MaxFloat64
			case 7:
				return 0
			case 8:
				return 42
			case 9:
				return rng.NormFloat64()
			case 10:
				return sphere(x)
			case 11:
				return -sphere(x)
			case 12:
				return 5e-324
			case 13:
				return -x[0]
			case 14:
				return math.Copysign(0, -1)
			}
			return rng.Float64() * 1e300
		}
		for g := 0; g < 80; g++ {
			xs := o.Ask()
			if xs == nil {
				break
			}
			for i, x := range xs {
				fit[i] = next(x)
			}
			if err := o.Tell(fit); err != nil {
				t.Fatalf("Tell after Ask: %v", err)
			}
			check(t, o)
		}
		check(t, o)
		res := o.Result()
		if len(res.X) != n {
			t.Fatalf("Result.X has length %d", len(res.X))
		}
		if o.Reason() == mmaes.NotStopped {
			t.Fatalf("not stopped after %d generations (MaxGenerations 60)", o.Generation())
		}
	})
}

func check(t *testing.T, o *mmaes.Optimizer) {
	t.Helper()
	if s := o.Sigma(); !(s > 0) || math.IsInf(s, 0) {
		t.Fatalf("σ = %v (reason %v)", s, o.Reason())
	}
	if o.Reason() != mmaes.NotStopped {
		return
	}
	for name, v := range map[string][]float64{"mean": o.Mean(), "A": o.A(), "A_inv": o.AInv(), "p": o.P(), "v": o.V(), "s": o.S(), "best x": o.BestX()} {
		if !allFinite(v) {
			t.Fatalf("generation %d: %s not finite without a stop", o.Generation(), name)
		}
	}
	if math.IsNaN(o.BestF()) && o.Generation() > 0 && o.Reason() != mmaes.AllNaN {
		// Every generation so far had at least one non-NaN value, or the
		// run would have stopped.
		t.Fatalf("best value NaN after %d generations", o.Generation())
	}
}
