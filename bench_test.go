package mmaes_test

import (
	"fmt"
	"testing"

	"github.com/mmaes-go/mmaes"
	"github.com/mmaes-go/mmaes/kernel"
)

// BenchmarkGeneration measures one generation: Ask (λ·n normal deviates,
// Y = A·Z, X = m + σ·Y), λ sphere evaluations and Tell (ranking,
// recombination, paths, the rank-one update(s) of A, stop checks), at the
// paper's λ for n. Stops are off so the run never ends. ns/generation is
// ns/op, reported under its own name for benchstat.
func BenchmarkGeneration(b *testing.B) {
	b.Logf("kernel path: %s", kernel.Impl())
	for _, u := range updates {
		for _, n := range []int{16, 64, 256, 1024, 4096} {
			b.Run(fmt.Sprintf("update=%s/n=%d", lower(u), n), func(b *testing.B) {
				cfg := mmaes.DefaultConfig(n)
				cfg.Update = u
				cfg.TolFun, cfg.TolX, cfg.MaxGenerations, cfg.MaxCondition = 0, 0, 0, 0
				o, err := mmaes.New(cfg)
				if err != nil {
					b.Fatal(err)
				}
				fit := make([]float64, o.Lambda())
				b.ReportAllocs()
				b.SetBytes(int64(8 * n * n)) // A is read (sampling) and updated once per generation
				gens := 0
				for b.Loop() {
					xs := o.Ask()
					if xs == nil {
						b.Fatalf("stopped: %v", o.Reason())
					}
					for i, x := range xs {
						fit[i] = sphere(x)
					}
					if err := o.Tell(fit); err != nil {
						b.Fatal(err)
					}
					gens++
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(gens), "ns/generation")
				b.ReportMetric(float64(o.Lambda()), "lambda")
			})
		}
	}
}

// BenchmarkGenerationRankMu is BenchmarkGeneration for MMA with the rank-μ
// update (Config.RankMu): every Tell applies μ+1 terms to A in one pass
// (kernel.ScaleAddRankK) besides the sampling's read of A.
func BenchmarkGenerationRankMu(b *testing.B) {
	for _, n := range []int{64, 256, 1024, 4096} {
		b.Run(fmt.Sprintf("update=mma/n=%d", n), func(b *testing.B) {
			cfg := mmaes.DefaultConfig(n)
			cfg.RankMu = true
			cfg.TolFun, cfg.TolX, cfg.MaxGenerations, cfg.MaxCondition = 0, 0, 0, 0
			o, err := mmaes.New(cfg)
			if err != nil {
				b.Fatal(err)
			}
			fit := make([]float64, o.Lambda())
			b.ReportAllocs()
			gens := 0
			for b.Loop() {
				xs := o.Ask()
				if xs == nil {
					b.Fatalf("stopped: %v", o.Reason())
				}
				for i, x := range xs {
					fit[i] = sphere(x)
				}
				if err := o.Tell(fit); err != nil {
					b.Fatal(err)
				}
				gens++
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(gens), "ns/generation")
		})
	}
}

func lower(u mmaes.Update) string {
	switch u {
	case mmaes.MMA:
		return "mma"
	case mmaes.ECMA:
		return "ecma"
	}
	return "cholesky"
}

// BenchmarkGenerationSmall measures a whole generation at the small n that
// services use most, with an objective that costs almost nothing (a counter
// hashed to a pseudo-random value, so selection is random and the run
// never converges or stops): ns/generation is the optimizer's own cost.
func BenchmarkGenerationSmall(b *testing.B) {
	for _, n := range []int{2, 8, 32} {
		b.Run(fmt.Sprintf("update=mma/n=%d", n), func(b *testing.B) {
			cfg := mmaes.DefaultConfig(n)
			cfg.TolFun, cfg.TolX, cfg.MaxGenerations, cfg.MaxCondition = 0, 0, 0, 0
			o, err := mmaes.New(cfg)
			if err != nil {
				b.Fatal(err)
			}
			fit := make([]float64, o.Lambda())
			var h uint64
			b.ReportAllocs()
			gens := 0
			for b.Loop() {
				xs := o.Ask()
				for i := range xs {
					h = (h + 0x9e3779b97f4a7c15) * 0xbf58476d1ce4e5b9
					fit[i] = float64(h >> 11)
				}
				if err := o.Tell(fit); err != nil {
					b.Fatal(err)
				}
				gens++
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(gens), "ns/generation")
		})
	}
}
