package mmaes_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/mmaes-go/mmaes"
)

// FuzzOptimizer drives optimizers of random dimension, step size, seed,
// update rule, λ and μ with adversarial fitness streams: every value is chosen by a
// byte of stream (NaN, ±Inf, ±1e308, ±MaxFloat64, 0, a constant, random,
// the sphere, the negative sphere, the smallest subnormal, ...). The bits of
// feat add the options beyond the paper: rank-μ (bit 0), a restart strategy
// (bits 1–2; 3 is invalid), box constraints with finite, infinite, huge,
// tiny and degenerate bounds (bit 3), the run driven by Optimize with
// 1 + (bits 4–5) workers instead of Ask and Tell (bit 6), a small restart
// limit (bit 7). It checks that nothing panics, that σ is always finite and
// > 0, that every candidate lies in the box, and that while the run has not
// stopped the mean, A (and A_inv), the paths and the best value are finite
// (or the best value is NaN only before any non-NaN value).
func FuzzOptimizer(f *testing.F) {
	f.Add(uint8(3), 1.0, uint64(1), uint8(0), []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, uint8(0))
	f.Add(uint8(1), 1e-300, uint64(2), uint8(1), []byte{9, 9, 9, 9}, uint8(0))
	f.Add(uint8(40), 1e300, uint64(3), uint8(2), []byte{10, 10, 10, 0, 0, 3}, uint8(0))
	f.Add(uint8(7), 6.6, uint64(0), uint8(2), []byte{}, uint8(0))
	f.Add(uint8(2), 5e-324, uint64(4), uint8(0), []byte{11}, uint8(0))
	f.Add(uint8(5), math.MaxFloat64, uint64(5), uint8(1), []byte{3, 4}, uint8(0))
	f.Add(uint8(12), 1.0, uint64(6), uint8(0), []byte{8}, uint8(0))
	f.Add(uint8(9), math.NaN(), uint64(7), uint8(2), []byte{1}, uint8(0))
	f.Add(uint8(6), 2.0, uint64(8), uint8(0), []byte{10, 9, 0}, uint8(0b10001011))
	f.Add(uint8(4), 1e10, uint64(9), uint8(0), []byte{11, 1, 13}, uint8(0b11111101))
	f.Add(uint8(3), 0.5, uint64(11), uint8(0), []byte{10}, uint8(0b00001100))
	f.Add(uint8(20), 3.0, uint64(12), uint8(0), []byte{0, 0, 0, 10}, uint8(0b01011011))
	f.Add(uint8(5), 1.0, uint64(0b111<<16|4), uint8(0), []byte{10}, uint8(0b00001101))
	f.Add(uint8(8), 0.3, uint64(0b101<<16|6), uint8(1), []byte{10, 9}, uint8(0b01000000))
	f.Add(uint8(3), 2.0, uint64(0b010<<16|8), uint8(2), []byte{13}, uint8(0))
	f.Add(uint8(6), 1.0, uint64(0b1001<<16|10), uint8(0), []byte{10}, uint8(0b00001001))
	f.Add(uint8(4), 0.01, uint64(0b1111<<16|12), uint8(1), []byte{9, 10}, uint8(0b00001011))
	f.Add(uint8(7), 1.0, uint64(0b10000<<16|14), uint8(0), []byte{10, 9, 9}, uint8(0b00000011))
	f.Add(uint8(5), 3.0, uint64(0b11111<<16|16), uint8(2), []byte{9}, uint8(0b01001000))
	f.Add(uint8(6), 1.0, uint64(0b100000<<16|18), uint8(0), []byte{10, 9, 3, 0}, uint8(0b00001011))
	f.Add(uint8(4), 2.0, uint64(0b111111<<16|20), uint8(2), []byte{10, 1, 9}, uint8(0b00001101))
	f.Fuzz(func(t *testing.T, dim uint8, sigma float64, seed uint64, upd uint8, stream []byte, feat uint8) {
		n := int(dim)%48 + 1
		cfg := mmaes.DefaultConfig(n)
		cfg.Sigma = sigma
		cfg.Seed = seed
		cfg.Update = mmaes.Update(upd % 5) // 4 is invalid
		if cfg.Update == mmaes.LMMA {
			cfg.Memory = int(seed>>24) % 4       // 0: the default
			cfg.FastMemory = int(seed>>26)%4 - 1 // −1: none, 0: the default
		}
		if l := int(upd>>2) % 16; l > 0 {
			cfg.Lambda = l                  // 1 is invalid
			cfg.Mu = int(seed>>8) % (l + 1) // 0: λ/2; may equal λ
		}
		cfg.MaxGenerations = 60
		if seed&1 == 1 {
			cfg.TolFun, cfg.TolX, cfg.MaxCondition = 0, 0, 0
		}
		rng := rand.New(rand.NewPCG(seed, 99))
		cfg.RankMu = feat&1 == 1
		cfg.Restart = mmaes.Restart(feat >> 1 & 3)
		if feat&128 != 0 && cfg.Restart != 0 {
			cfg.MaxRestarts = 2
		}
		if feat&8 != 0 {
			inf := math.Inf(1)
			los := []float64{-1, -inf, 0, -1e300, -5e-324, -math.MaxFloat64, math.NaN()}
			his := []float64{1, inf, 0, 1e300, 5e-324, math.MaxFloat64, 2}
			cfg.Lower, cfg.Upper = make([]float64, n), make([]float64, n)
			for i := range cfg.Lower {
				cfg.Lower[i], cfg.Upper[i] = los[rng.IntN(len(los))], his[rng.IntN(len(his))]
			}
		}
		// Seed bits 16–20: scales, bounds on the deviations, a fixed
		// coordinate, integer coordinates (each from values that include
		// the extremes), noise handling.
		if seed>>16&1 != 0 {
			ss := []float64{1, 1e-300, 1e300, 5e-324, 0, -1, 1e-8, 1e8}
			cfg.Scales = make([]float64, n)
			for i := range cfg.Scales {
				cfg.Scales[i] = ss[rng.IntN(len(ss))]
			}
		}
		if seed>>17&1 != 0 {
			ds := []float64{0, 1e-300, 1e-8, 1, 1e300, -1, math.Inf(1)}
			cfg.MinStd, cfg.MaxStd = ds[rng.IntN(len(ds))], ds[rng.IntN(len(ds))]
		}
		if seed>>18&1 != 0 {
			vs := []float64{0, 1, -1e300, math.NaN(), 5e-324}
			cfg.Fixed = map[int]float64{rng.IntN(n+1) - 1 + rng.IntN(2): vs[rng.IntN(len(vs))]}
		}
		cfg.Noise = seed>>20&1 != 0
		if seed>>19&1 != 0 {
			for range 1 + rng.IntN(3) {
				cfg.Integer = append(cfg.Integer, rng.IntN(n+1))
			}
		}
		parallel := feat&64 != 0
		if parallel {
			cfg.Workers = 1 + int(feat>>4&3)
		}
		o, err := mmaes.New(cfg)
		if err != nil {
			return // invalid σ, update, bounds...: rejected, not a panic
		}
		inside := func(x []float64) {
			for _, i := range cfg.Integer {
				if x[i] != math.Round(x[i]) {
					panic(fmt.Sprintf("candidate %v: x[%d] not an integer", x, i))
				}
			}
			for i, v := range cfg.Fixed {
				if x[i] != v {
					panic(fmt.Sprintf("candidate %v: x[%d] fixed at %v", x, i, v))
				}
			}
			for i, v := range x {
				if cfg.Lower != nil && !(v >= cfg.Lower[i]) || cfg.Upper != nil && !(v <= cfg.Upper[i]) {
					panic(fmt.Sprintf("candidate %v outside the box [%v, %v]", x, cfg.Lower, cfg.Upper))
				}
			}
		}
		var fit []float64
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
		if parallel {
			// The objective runs on several goroutines: serialize the
			// stream. Stop after 80 generations' worth of calls.
			var mu sync.Mutex
			calls := 0
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			o.SetObserver(func(o *mmaes.Optimizer) {
				check(t, o)
				if o.Generation() >= 80 {
					cancel()
				}
			})
			res, err := o.Optimize(ctx, func(x []float64) float64 {
				inside(x)
				mu.Lock()
				defer mu.Unlock()
				calls++
				return next(x)
			})
			if err != nil && res.Reason != mmaes.Canceled && !res.Reason.Failed() {
				t.Fatalf("Optimize: %v (%v)", err, res.Reason)
			}
			if len(res.X) != n || res.Evals > calls {
				t.Fatalf("Result %+v after %d calls", res, calls)
			}
			inside(res.X)
			return
		}
		// Seed bit 21: points injected (from the stream's values, far,
		// NaN) and partial generations (TellSome with every other
		// candidate).
		inject := seed>>21&1 != 0
		for g := 0; g < 80; g++ {
			if inject && g%3 == 0 {
				p := make([]float64, n)
				for i := range p {
					p[i] = next(p)
					if math.IsNaN(p[i]) || math.IsInf(p[i], 0) {
						p[i] = float64(g) * 1e6
					}
				}
				if err := o.Inject(p); err != nil && o.Reason() == mmaes.NotStopped {
					t.Fatalf("Inject(%v): %v", p, err)
				}
			}
			xs := o.Ask()
			if xs == nil {
				break
			}
			fit = append(fit[:0], make([]float64, len(xs))...)
			for i, x := range xs {
				inside(x)
				fit[i] = next(x)
			}
			if inject && g%2 == 1 {
				var idx []int
				var part []float64
				for i := 0; i < len(xs); i += 2 {
					idx, part = append(idx, i), append(part, fit[i])
				}
				if err := o.TellSome(idx, part); err != nil {
					t.Fatalf("TellSome after Ask: %v", err)
				}
			} else if err := o.Tell(fit); err != nil {
				t.Fatalf("Tell after Ask: %v", err)
			}
			check(t, o)
		}
		check(t, o)
		res := o.Result()
		if len(res.X) != n {
			t.Fatalf("Result.X has length %d", len(res.X))
		}
		if o.Generation() > 0 {
			inside(res.X)
		}
		if o.Reason() == mmaes.NotStopped && cfg.Restart == mmaes.NoRestart {
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
	if math.IsNaN(o.BestF()) && o.Generation() > 0 && o.Reason() != mmaes.AllNaN && o.Restarts() == 0 {
		// Every generation so far had at least one non-NaN value, or the
		// run would have stopped (or, with a restart strategy, restarted).
		t.Fatalf("best value NaN after %d generations", o.Generation())
	}
}

// FuzzTellSome: random subsets of a generation's candidates, with repeated
// and out-of-range indices and special values. A refused call (ErrLength,
// ErrIndex) changes nothing; an accepted one counts exactly its values as
// evaluations, and the run goes on with finite candidates.
func FuzzTellSome(f *testing.F) {
	f.Add(uint64(1), []byte{0, 1, 2, 3}, false)
	f.Add(uint64(2), []byte{5, 5}, true)
	f.Add(uint64(3), []byte{200, 1}, false)
	f.Add(uint64(4), []byte{}, true)
	f.Add(uint64(5), []byte{9, 8, 7, 6, 5, 4, 3, 2, 1, 0}, true)
	f.Fuzz(func(t *testing.T, seed uint64, stream []byte, active bool) {
		cfg := mmaes.DefaultConfig(5)
		cfg.Seed, cfg.RankMu, cfg.Active = seed, active, active
		o, err := mmaes.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		vals := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, 1e308, -1e308, 5e-324}
		for g := 0; len(stream) > 0 && g < 20 && o.Reason() == mmaes.NotStopped; g++ {
			xs := o.Ask()
			k := int(stream[0]) % (len(xs) + 3)
			stream = stream[1:]
			idx, fit := make([]int, 0, k), make([]float64, 0, k)
			for j := 0; j < k && len(stream) > 0; j++ {
				b := stream[0]
				stream = stream[1:]
				idx = append(idx, int(b%16)-1) // −1 … 14: some out of range
				v := sphere(xs[0]) + float64(b)
				if b >= 240 {
					v = vals[int(b)%len(vals)]
				}
				fit = append(fit, v)
			}
			if len(stream) > 0 && stream[0] == 0xff && len(fit) > 0 {
				fit = fit[1:] // a length mismatch
			}
			before, evals := state(t, o), o.Evals()
			err := o.TellSome(idx, fit)
			switch {
			case errors.Is(err, mmaes.ErrLength) || errors.Is(err, mmaes.ErrIndex):
				if !bytes.Equal(state(t, o), before) {
					t.Fatalf("a refused TellSome(%v) changed the optimizer", idx)
				}
			case err != nil:
				t.Fatalf("TellSome(%v): %v", idx, err)
			case o.Evals() != evals+len(idx):
				t.Fatalf("Evals %d after %d results, was %d", o.Evals(), len(idx), evals)
			}
		}
		if xs := o.Ask(); xs != nil {
			for _, x := range xs {
				for _, v := range x {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						t.Fatalf("candidate %v", x)
					}
				}
			}
		}
	})
}
