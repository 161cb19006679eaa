package mmaes

import (
	"fmt"
	"math"
	"runtime/debug"

	"github.com/mmaes-go/mmaes/kernel"
)

// Memory is a checked resource: an allocation the runtime cannot satisfy
// kills the process, which no recover can stop. New computes the bytes a
// run allocates and refuses a Config whose first run exceeds the budget
// (Config.MaxMemory, or the default below); a restart whose larger
// population would exceed it ends the optimization with MaxMemoryReached
// instead of allocating.

// memoryBudget returns the budget in bytes for cfg: Config.MaxMemory when
// set, else the Go runtime's memory limit (debug.SetMemoryLimit, GOMEMLIMIT)
// when one is set, else the machine's physical memory; 0 when none is
// known (then only sizes that cannot be represented are refused).
func memoryBudget(cfg *Config) int64 {
	if cfg.MaxMemory > 0 {
		return cfg.MaxMemory
	}
	if l := debug.SetMemoryLimit(-1); l > 0 && l < math.MaxInt64 {
		return l
	}
	return machineMemory()
}

// runMemory returns the bytes a run of cfg (the searched coordinates') with
// population λ and μ parents allocates (and A() may add), with fix, the
// embedding of Fixed coordinates (nil: none), as a float64 so that no size
// overflows.
func runMemory(cfg *Config, fix *fixedCoords, lambda, mu int) float64 {
	n := float64(cfg.Dim)
	hist := float64(cfg.TolFunHist)
	if hist == 0 {
		hist = 10 + 30*n/float64(lambda) + 1
	}
	driver := 8 * (12*n + hist + float64(lambda)) // mean, step, best, box, history, weights
	if cfg.Threads > 1 {
		driver += threadStack * float64(cfg.Threads-1)
		if cfg.Update != LMMA || lowRankDrawsAhead(cfg, lambda) {
			driver += 8 * float64(lambda) * n // the deviates drawn ahead
		}
	}
	if fix != nil {
		driver += fix.memory(lambda)
	}
	return driver + watchMemory(cfg) + noiseMemory(cfg) + populationMemory(cfg.Dim, lambda, cfg.Update == LMMA) + distributionMemory(cfg, lambda, mu)
}

// threadStack is the memory counted for the stack of each goroutine
// Threads starts: the kernels' frames are small, and Go starts a stack at
// 2 KiB.
const threadStack = 8 << 10

// populationMemory returns the bytes of a population of λ points of
// dimension n: Z, Y (not with a distribution that samples directly), X,
// the views, the fitness values and the ranking.
func populationMemory(n, lambda int, direct bool) float64 {
	l, blocks := float64(lambda), 3.0
	if direct {
		blocks = 2
	}
	return 8*(blocks*l*float64(n)+2*l+2*float64(n)) + 8*l + 24*l + 33*l // and TellSome's scratch
}

// fullMatrixMemory returns the bytes of the full-matrix distribution: A,
// the copy A() returns, A_inv for Cholesky, its vectors, the sampling
// kernel's scratch space (one more for each goroutine of Threads) and the
// rank-μ blocks.
func fullMatrixMemory(cfg *Config, lambda, mu int) float64 {
	n := float64(cfg.Dim)
	work := float64(kernel.WorkLen(min(cfg.Dim, 1<<20), min(lambda, 1<<20)))
	if cfg.Threads > 1 {
		work *= float64(1 + cfg.Threads)
	}
	words := 2*n*n + 7*n + work
	if cfg.NoEffect {
		words += n*n + n // the axes
		if cfg.Dim <= noEffectRefMaxN {
			words += 2*n*n + (2+noEffectBatch)*n // their reference (noEffectRef)
		}
	}
	if cfg.Update == Cholesky {
		words += n * n
	}
	if cfg.RankMu {
		steps := float64(mu + 1)
		if cfg.Active {
			steps = float64(lambda + 1)
		}
		words += 2*steps*n + 2*steps
	}
	return 8 * words
}

// injectMemory returns the bytes Inject adds to a run of cfg with
// population λ: the injected candidates and their clipped parts, a few
// vectors, and for the full matrix the LU factors of A for the step's
// solve (the limited memory's solve space is in lowRankMemory).
func injectMemory(cfg *Config, lambda int) float64 {
	n := float64(cfg.Dim)
	b := 8 * (2*float64(lambda)*n + 5*n)
	if cfg.Update != LMMA {
		b += 8 * n * n
	}
	return b
}

// memory returns the bytes the optimizer's run of cfg (its own, or one
// with new limits) needs at population λ and μ parents: runMemory, and
// Inject's space once Inject was called (injected).
func (o *Optimizer) memory(cfg *Config, lambda, mu int) float64 {
	return runMemory(cfg, o.fix, lambda, mu) + o.injected(cfg, lambda)
}

// injected returns Inject's space in a run of cfg with population λ once
// Inject was called, else 0.
func (o *Optimizer) injected(cfg *Config, lambda int) float64 {
	if o.inj == nil {
		return 0
	}
	return injectMemory(cfg, lambda)
}

// checkMemory refuses a Config (with its embedding fix, as for runMemory)
// whose run with the λ and μ of p needs more than the budget, with extra
// bytes the optimizer adds (Inject's space).
func checkMemory(cfg *Config, fix *fixedCoords, p *Params, extra float64) error {
	budget := memoryBudget(cfg)
	need := runMemory(cfg, fix, p.Lambda, p.Mu) + extra
	if budget > 0 && need > float64(budget) {
		hint := ""
		if cfg.Update != LMMA {
			lm := *cfg
			lm.Update, lm.RankMu, lm.Active, lm.Noise, lm.NoEffect = LMMA, false, false, false, false
			if lmNeed := runMemory(&lm, fix, p.Lambda, p.Mu) + extra; lmNeed < need/2 { // the matrix is most of it
				hint = fmt.Sprintf("; the full matrix alone is n² floats: the limited-memory Update LMMA needs %s", bytesString(lmNeed))
			}
		}
		run := fmt.Sprintf("n = %d", cfg.Dim)
		if fix != nil {
			run = fmt.Sprintf("Dim = %d (n = %d searched)", len(fix.base), cfg.Dim)
		}
		return cfgErr("MaxMemory", "a run of %s, λ = %d needs %s, more than the budget of %s (%s)%s",
			run, p.Lambda, bytesString(need), bytesString(float64(budget)), budgetSource(cfg), hint)
	}
	return nil
}

// checkMaxMemory validates MaxMemory.
func checkMaxMemory(cfg *Config, _ *Params) error {
	if cfg.MaxMemory < 0 {
		return cfgErr("MaxMemory", "%d: must be ≥ 0 (0: the default)", cfg.MaxMemory)
	}
	return nil
}

// budgetSource says where the budget of cfg comes from.
func budgetSource(cfg *Config) string {
	switch {
	case cfg.MaxMemory > 0:
		return "Config.MaxMemory"
	case debug.SetMemoryLimit(-1) < math.MaxInt64:
		return "the Go runtime's memory limit; set Config.MaxMemory to change it"
	}
	return "the machine's memory; set Config.MaxMemory to change it"
}

// bytesString formats a byte count for an error message.
func bytesString(b float64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", b/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", b/(1<<20))
	}
	return fmt.Sprintf("%.0f bytes", b)
}
