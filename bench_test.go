package mmaes_test

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mmaes-go/mmaes"
	"github.com/mmaes-go/mmaes/kernel"
)

// renewEvery is the number of generations after which the generation
// benchmarks start a fresh optimizer (New's allocations, spread over the
// generations, show as a few B/op and round to 0 allocs/op; TestAllocs
// checks that a generation allocates nothing): with every stop off, a long
// run drifts (the sphere converges, random selection makes σ and A random
// walks) until the state is subnormal or huge, and then the benchmark would
// time the slow arithmetic of degenerate numbers instead of a generation.
const renewEvery = 1000

// benchGenerations times generations (Ask, λ evaluations of f, Tell) of
// optimizers made from cfg with every stop off, renewed every renewEvery
// generations, and reports ns/generation (= ns/op) under its own name.
func benchGenerations(b *testing.B, cfg mmaes.Config, f func(x []float64) float64) {
	cfg.TolFun, cfg.TolX, cfg.MaxGenerations, cfg.MaxCondition, cfg.Endless = 0, 0, 0, 0, true
	renew := func() *mmaes.Optimizer {
		o, err := mmaes.New(cfg)
		if err != nil {
			b.Fatal(err)
		}
		cfg.Seed++
		return o
	}
	o := renew()
	fit := make([]float64, o.Lambda())
	b.ReportAllocs()
	gens := 0
	for b.Loop() {
		if gens > 0 && gens%renewEvery == 0 {
			// Timed: StopTimer and StartTimer read the memory statistics,
			// which stops the world and costs more than New at small n.
			o = renew()
		}
		xs := o.Ask()
		if xs == nil {
			b.Fatalf("stopped after %d generations: %v", gens, o.Reason())
		}
		for i, x := range xs {
			fit[i] = f(x)
		}
		if err := o.Tell(fit); err != nil {
			b.Fatal(err)
		}
		gens++
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(gens), "ns/generation")
	b.ReportMetric(float64(o.Lambda()), "lambda")
}

// BenchmarkGeneration measures one generation: Ask (λ·n normal deviates,
// Y = A·Z, X = m + σ·Y), λ sphere evaluations and Tell (ranking,
// recombination, paths, the rank-one update(s) of A, stop checks), at the
// paper's λ for n.
func BenchmarkGeneration(b *testing.B) {
	b.Logf("kernel path: %s", kernel.Impl())
	for _, u := range updates {
		for _, n := range []int{16, 64, 256, 1024, 4096} {
			b.Run(fmt.Sprintf("update=%s/n=%d", lower(u), n), func(b *testing.B) {
				cfg := mmaes.DefaultConfig(n)
				cfg.Update = u
				b.SetBytes(int64(8 * n * n)) // A is read (sampling) and updated once per generation
				benchGenerations(b, cfg, sphere)
			})
		}
	}
}

// BenchmarkGenerationThreads is BenchmarkGeneration for MMA with the
// generation's sampling and fused update split over Config.Threads
// goroutines (threads=1: one); benchstat compares the two.
func BenchmarkGenerationThreads(b *testing.B) {
	for _, n := range []int{64, 128, 256, 512, 1024, 2048, 4096} {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("n=%d/threads=%d", n, threads), func(b *testing.B) {
				cfg := mmaes.DefaultConfig(n)
				cfg.Threads = threads
				b.SetBytes(int64(8 * n * n))
				benchGenerations(b, cfg, sphere)
			})
		}
	}
}

// BenchmarkGenerationThreadsObjective is BenchmarkGenerationThreads at
// n = 1024 with an objective that takes the given time a generation (a
// busy wait after the sphere: the caller evaluating, as a service's
// objective would), reporting the optimizer's time a generation without
// it: whether the pool's goroutines are still spinning when the next
// generation hands them its share (docs/performance.md, Threads).
func BenchmarkGenerationThreadsObjective(b *testing.B) {
	for _, eval := range []time.Duration{0, 400 * time.Microsecond, 800 * time.Microsecond} {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("n=1024/objective=%v/threads=%d", eval, threads), func(b *testing.B) {
				cfg := mmaes.DefaultConfig(1024)
				cfg.Threads = threads
				cfg.TolFun, cfg.TolX, cfg.MaxGenerations, cfg.MaxCondition, cfg.Endless = 0, 0, 0, 0, true
				o, err := mmaes.New(cfg)
				if err != nil {
					b.Fatal(err)
				}
				defer o.Close()
				fit := make([]float64, o.Lambda())
				var spent time.Duration // in the objective
				for b.Loop() {
					xs := o.Ask()
					t0 := time.Now()
					for i, x := range xs {
						fit[i] = sphere(x)
					}
					for time.Since(t0) < eval {
					}
					spent += time.Since(t0)
					if err := o.Tell(fit); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64((b.Elapsed()-spent).Nanoseconds())/float64(b.N), "ns/optimizer")
			})
		}
	}
}

// BenchmarkGenerationRankMu is BenchmarkGeneration for MMA with the rank-μ
// update (Config.RankMu): every Tell applies μ+1 terms to A in one pass
// (kernel.ScaleAddRankK) besides the sampling's read of A.
// With active=true (Config.Active) the λ+1 terms of the active update.
func BenchmarkGenerationRankMu(b *testing.B) {
	for _, active := range []bool{false, true} {
		for _, n := range []int{64, 256, 1024, 4096} {
			b.Run(fmt.Sprintf("update=mma/active=%v/n=%d", active, n), func(b *testing.B) {
				cfg := mmaes.DefaultConfig(n)
				cfg.RankMu, cfg.Active = true, active
				benchGenerations(b, cfg, sphere)
			})
		}
	}
}

// BenchmarkGenerationRecommended is BenchmarkGeneration for
// RecommendedConfig: the active rank-μ update applies λ+1 terms to A (the
// μ best and the λ − μ worst steps), and NoEffect decomposes A every n
// generations (about 3·10·n³ flops, n² a generation on average). n = 30
// and 100 are not multiples of the SIMD blocks.
func BenchmarkGenerationRecommended(b *testing.B) {
	for _, n := range []int{8, 30, 64, 100, 256, 1024} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			cfg := mmaes.RecommendedConfig(n)
			cfg.Restart = mmaes.NoRestart
			benchGenerations(b, cfg, sphere)
		})
	}
}

// BenchmarkGenerationSmall measures a whole generation at the small n that
// services use most, with an objective that costs almost nothing (a counter
// hashed to a pseudo-random value, so selection is random and the run
// never converges): ns/generation is the optimizer's own cost.
func BenchmarkGenerationSmall(b *testing.B) {
	for _, n := range []int{2, 8, 32, 64} {
		b.Run(fmt.Sprintf("update=mma/n=%d", n), func(b *testing.B) {
			var h uint64
			benchGenerations(b, mmaes.DefaultConfig(n), func([]float64) float64 {
				h = (h + 0x9e3779b97f4a7c15) * 0xbf58476d1ce4e5b9
				return float64(h >> 11)
			})
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

// BenchmarkGenerationLMMA measures a generation of the limited memory
// (Update LMMA, the default Memory m) at large n in its steady state, all
// k = m + 1 pairs in use (a path rate of 1/2, windows of 2 generations,
// fills them in 2k generations before the timing starts; the rate changes
// no cost), with an objective that costs almost nothing (a hashed counter:
// random selection), so that ns/generation is the optimizer's: λ·n normal
// deviates, the two passes of the sampling over the pairs and the
// population (4·k·λ·n flops; 8·(2k + 4λ)·n bytes: the pairs read once, Z
// written once and read twice, X written), ranking and the update (O(n·k)).
// It reports the flops and bytes a generation moves as rates.
func BenchmarkGenerationLMMA(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000, 1000000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchLMMA(b, n, 1) })
	}
}

// BenchmarkFirstAskLMMA measures what a caller waits for before its first
// candidates at large n: New and the first Ask of LMMA at the default
// memory (then Close), with the process's peak resident memory after them
// (peak-rss-MB, where /proc/self/status has it). Run one n at a time in a
// fresh process with -benchtime 1x: later iterations reuse memory that the
// first has already touched, and the first touch of a page is most of the
// cost on a virtual machine.
func BenchmarkFirstAskLMMA(b *testing.B) {
	for _, n := range []int{100000, 1000000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			cfg := mmaes.DefaultConfig(n)
			cfg.Update = mmaes.LMMA
			for b.Loop() {
				o, err := mmaes.New(cfg)
				if err != nil {
					b.Fatal(err)
				}
				o.Ask()
				o.Close()
			}
			if mb := peakRSSMB(); mb > 0 {
				b.ReportMetric(mb, "peak-rss-MB")
			}
		})
	}
}

// peakRSSMB returns the process's peak resident memory in MB (VmHWM), 0
// where /proc/self/status does not give it.
func peakRSSMB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "VmHWM:" && f[2] == "kB" {
			kb, err := strconv.ParseFloat(f[1], 64)
			if err == nil {
				return kb / 1000
			}
		}
	}
	return 0
}

// BenchmarkGenerationLMMAThreads is BenchmarkGenerationLMMA with the two
// passes split over Config.Threads goroutines (threads=1: one); benchstat
// compares the two.
func BenchmarkGenerationLMMAThreads(b *testing.B) {
	for _, n := range []int{1000, 2000, 4000, 10000, 100000} {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("n=%d/threads=%d", n, threads), func(b *testing.B) { benchLMMA(b, n, threads) })
		}
	}
}

// BenchmarkRunStartLMMAThreads is BenchmarkGenerationLMMAThreads at the
// start of a run, with the default path rate: the slots in use are the
// fast ring's and one slow slot (k = FastMemory + 2), which the slow
// windows ((n + 4)/4 generations long) add to slowly, so that the passes
// are about a sixth of the steady state's and split only at larger n
// (from about n = 2.5·10⁴ with the default thresholds); the deviates are
// the same λ·n.
func BenchmarkRunStartLMMAThreads(b *testing.B) {
	for _, n := range []int{4000, 10000, 100000, 1000000} {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("n=%d/threads=%d", n, threads), func(b *testing.B) { benchLMMARun(b, n, threads, false) })
		}
	}
}

func benchLMMA(b *testing.B, n, threads int) { benchLMMARun(b, n, threads, true) }

// benchLMMARun times LMMA's generations at n, in the steady state (all
// slots in use, filled at a path rate of 1/2 before the timing) or from
// the start of a run at the default rates.
func benchLMMARun(b *testing.B, n, threads int, steady bool) {
	cfg := mmaes.DefaultConfig(n)
	cfg.Update, cfg.Threads = mmaes.LMMA, threads
	if steady {
		cfg.C = 0.5
	}
	cfg.TolFun, cfg.TolX, cfg.MaxGenerations, cfg.MaxCondition, cfg.Endless = 0, 0, 0, 0, true
	o, err := mmaes.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer o.Close()
	par := o.Params()
	k, lambda, nf := float64(par.Memory+1), float64(par.Lambda), float64(n)
	var h uint64
	fit := make([]float64, par.Lambda)
	gen := func() {
		for i := range o.Ask() {
			h = (h + 0x9e3779b97f4a7c15) * 0xbf58476d1ce4e5b9
			fit[i] = float64(h >> 11)
		}
		if err := o.Tell(fit); err != nil {
			b.Fatal(err)
		}
	}
	if steady {
		for range 2*par.Memory + 4 {
			gen()
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		gen()
	}
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(sec*1e9, "ns/generation")
	if steady { // k pairs in use
		b.ReportMetric(4*k*lambda*nf/sec/1e9, "GFLOP/s")
		b.ReportMetric(8*(2*k+4*lambda)*nf/sec/1e9, "GB/s")
	}
}
