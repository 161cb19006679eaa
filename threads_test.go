package mmaes_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mmaes-go/mmaes"
	"github.com/mmaes-go/mmaes/kernel"
)

// TestTrajectoriesThreads runs the pinned configurations of n = 1031 (the
// ones at or above threadMinN, where the ranges are used) with Threads = 2
// and 3: every hash must be the one recorded for one goroutine (the ranges
// of rows are computed as the whole call computes them). They are long
// (-short skips them); TestThreadsSameRun covers the split under -short.
func TestTrajectoriesThreads(t *testing.T) {
	want, ok := pinned[pinPath()]
	if !ok {
		t.Skipf("no trajectories recorded for %s", pinPath())
	}
	for _, threads := range []int{2, 3} {
		for _, c := range pinCases() {
			if c.long && testing.Short() || !strings.Contains(c.name, "n=1031") {
				continue
			}
			cfg := c.cfg
			c.cfg = func() mmaes.Config { x := cfg(); x.Threads = threads; return x }
			if got := runPin(t, c); got != want[c.name] {
				t.Errorf("%s with Threads = %d: trajectory hash %#016x, recorded %#016x", c.name, threads, got, want[c.name])
			}
		}
	}
}

// TestThreadsSameRun checks that a run at n = 520 (split into a range of
// rows per goroutine, and into blocks of two as above 2048) with restarts
// that change λ, rank-μ, each update rule and a Threads change in the
// middle ends with the bits of the run on one goroutine.
func TestThreadsSameRun(t *testing.T) {
	for _, blocks := range []bool{false, true} {
		if blocks {
			defer mmaes.SetThreadOneRangeMaxN(0)()
		}
		testThreadsSameRun(t, blocks)
	}
}

func testThreadsSameRun(t *testing.T, blocks bool) {
	for _, u := range allUpdates {
		t.Run(fmt.Sprintf("%v/blocks=%v", u, blocks), func(t *testing.T) {
			run := func(threads, switchTo int) (mmaes.Result, []float64) {
				cfg := startConfig(520, u, 7)
				cfg.Threads, cfg.Restart, cfg.RankMu = threads, mmaes.IPOP, u == mmaes.MMA
				// TolX stops every run at its first test: IPOP restarts
				// with λ doubled until the budget.
				cfg.MaxEvals, cfg.TolFun, cfg.TolX = 1500, 0, 1e9
				o := mustNew(t, cfg)
				defer o.Close()
				fit := make([]float64, 0, 64)
				for o.Reason() == mmaes.NotStopped {
					if o.Generation() == 3 && switchTo != threads {
						if err := o.Reconfigure(func(c *mmaes.Config) { c.Threads = switchTo }); err != nil {
							t.Fatal(err)
						}
					}
					xs := o.Ask()
					if xs == nil {
						break
					}
					fit = fit[:0]
					for _, x := range xs {
						fit = append(fit, ellipsoid(x))
					}
					if err := o.Tell(fit); err != nil {
						t.Fatal(err)
					}
				}
				if o.Restarts() < 2 {
					t.Fatalf("%d restarts: the test wants λ to change", o.Restarts())
				}
				return o.Result(), o.Mean()
			}
			want, wantMean := run(1, 1)
			for _, tc := range [][2]int{{2, 2}, {3, 3}, {1, 2}, {4, 1}} {
				got, mean := run(tc[0], tc[1])
				what := fmt.Sprintf("Threads %d, then %d", tc[0], tc[1])
				if got.F != want.F || got.Evals != want.Evals || got.Generations != want.Generations || got.Reason != want.Reason {
					t.Errorf("%s: result %+v, one goroutine %+v", what, got, want)
				}
				if j := firstDiff(mean, wantMean); j >= 0 {
					t.Errorf("%s: mean[%d] = %v, one goroutine %v", what, j, mean[j], wantMean[j])
				}
			}
		})
	}
}

func firstDiff(a, b []float64) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// TestThreadsAllocs: a generation split over goroutines allocates nothing.
func TestThreadsAllocs(t *testing.T) {
	cfg := startConfig(512, mmaes.MMA, 1)
	cfg.Threads, cfg.TolFun, cfg.TolX, cfg.MaxGenerations = 2, 0, 0, 0
	if a := allocsPerGeneration(t, cfg, 1, 20); a != 0 {
		t.Errorf("%v allocations per generation with Threads = 2", a)
	}
}

// allocsPerGeneration runs warm generations of an optimizer of cfg on the
// ellipsoid, then returns testing.AllocsPerRun over runs more.
func allocsPerGeneration(t *testing.T, cfg mmaes.Config, warm, runs int) float64 {
	t.Helper()
	o := mustNew(t, cfg)
	defer o.Close()
	fit := make([]float64, o.Lambda())
	gen := func() {
		for i, x := range o.Ask() {
			fit[i] = ellipsoid(x)
		}
		if err := o.Tell(fit); err != nil {
			t.Fatal(err)
		}
	}
	for range warm {
		gen()
	}
	return testing.AllocsPerRun(runs, gen)
}

// TestThreadsGoroutines checks the goroutines' life: New starts Threads −
// 1, Close ends them (and the optimizer goes on), an optimizer dropped
// without Close ends them when it is collected, and Reconfigure replaces
// them.
func TestThreadsGoroutines(t *testing.T) {
	// The optimizers of earlier tests end their goroutines when they are
	// collected: wait until the count stays put.
	base, still := runtime.NumGoroutine(), 0
	for deadline := time.Now().Add(10 * time.Second); still < 20 && time.Now().Before(deadline); {
		runtime.GC()
		time.Sleep(2 * time.Millisecond)
		if g := runtime.NumGoroutine(); g != base {
			base, still = g, 0
		} else {
			still++
		}
	}
	settle := func(want int, what string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for runtime.NumGoroutine() != want {
			if time.Now().After(deadline) {
				t.Fatalf("%s: %d goroutines, want %d", what, runtime.NumGoroutine(), want)
			}
			runtime.GC()
			time.Sleep(5 * time.Millisecond)
		}
	}
	cfg := startConfig(256, mmaes.MMA, 2)
	cfg.Threads = 4
	o := mustNew(t, cfg)
	settle(base+3, "after New with Threads = 4")
	if err := o.Reconfigure(func(c *mmaes.Config) { c.Threads = 2 }); err != nil {
		t.Fatal(err)
	}
	settle(base+1, "after Reconfigure to Threads = 2")
	if err := o.Close(); err != nil {
		t.Fatal(err)
	}
	if err := o.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	settle(base, "after Close")
	fit := make([]float64, o.Lambda())
	for i, x := range o.Ask() {
		fit[i] = ellipsoid(x)
	}
	if err := o.Tell(fit); err != nil {
		t.Fatalf("Tell after Close: %v", err)
	}
	func() {
		c := startConfig(256, mmaes.ECMA, 3)
		c.Threads = 3
		dropped := mustNew(t, c)
		dropped.Ask()
	}()
	settle(base, "after an optimizer with Threads = 3 was dropped")
	runtime.KeepAlive(o)
}

// TestThreadsInvalid: a Threads out of range is a Config error from New
// and Reconfigure, which then changes nothing.
func TestThreadsInvalid(t *testing.T) {
	for _, th := range []int{-1, 1025} {
		cfg := startConfig(4, mmaes.MMA, 1)
		cfg.Threads = th
		if _, err := mmaes.New(cfg); !errors.Is(err, mmaes.ErrInvalidConfig) || !strings.Contains(err.Error(), "Threads") {
			t.Errorf("New with Threads = %d: %v, want a Config error naming Threads", th, err)
		}
		o := mustNew(t, startConfig(4, mmaes.MMA, 1))
		if err := o.Reconfigure(func(c *mmaes.Config) { c.Threads = th }); !errors.Is(err, mmaes.ErrInvalidConfig) {
			t.Errorf("Reconfigure to Threads = %d: %v, want a Config error", th, err)
		}
		if got := o.Config().Threads; got != 0 {
			t.Errorf("after a refused Reconfigure, Threads = %d", got)
		}
	}
}

// TestThreadsLMMA checks that the limited memory's passes split over
// goroutines (the coefficients by ranges of the stored vectors, the
// candidates, y_w and the row norms' Gram matrix by ranges of columns)
// give the run on one goroutine bit for bit, with a Threads change in the
// middle, and allocate nothing a generation. The thresholds are lowered so
// that n = 3000 splits every pass from the first generation into up to 4
// ranges of columns (windows of 2 generations fill the memory as the run
// goes; MinStd scans the row norms every generation), or, in
// "sampling-late", only once 25 slots are in use (about generation 35),
// the pool drawing the next deviates during the sampling before.
func TestThreadsLMMA(t *testing.T) {
	t.Run("every-pass", func(t *testing.T) {
		defer mmaes.SetLowRankSplit(1<<12, 512)()
		testThreadsLMMA(t, false)
	})
	t.Run("sampling-late", func(t *testing.T) {
		defer mmaes.SetLowRankSplit(1<<22, 512)()
		testThreadsLMMA(t, true)
	})
}

// testThreadsLMMA is TestThreadsLMMA at the split thresholds set; early
// says whether runs with a pool draw deviates during the sampling in some
// generations and not in others.
func testThreadsLMMA(t *testing.T, early bool) {
	const n, gens = 3000, 50
	run := func(threads, switchTo int) ([]float64, []float64, float64) {
		cfg := startConfig(n, mmaes.LMMA, 7)
		cfg.Threads, cfg.C, cfg.MinStd = threads, 0.5, 1e-300
		cfg.TolFun, cfg.TolX, cfg.MaxGenerations = 0, 0, gens
		o := mustNew(t, cfg)
		defer o.Close()
		fit := make([]float64, o.Lambda())
		var xsum []float64     // a hash of every candidate's bits, each generation
		during, pooled := 0, 0 // generations that draw during their sampling, that have a pool
		for o.Reason() == mmaes.NotStopped {
			if o.Generation() == gens/2 && switchTo != threads {
				if err := o.Reconfigure(func(c *mmaes.Config) { c.Threads = switchTo }); err != nil {
					t.Fatal(err)
				}
			}
			xs := o.Ask()
			if mmaes.DrawsAheadEarly(o) {
				during++
			}
			if o.Config().Threads > 1 {
				pooled++
			}
			var h uint64
			for i, x := range xs {
				fit[i] = ellipsoid(x)
				for _, v := range x {
					h = (h ^ math.Float64bits(v)) * 0x100000001b3
				}
			}
			xsum = append(xsum, float64(h>>11))
			if err := o.Tell(fit); err != nil {
				t.Fatal(err)
			}
		}
		if o.Reason() != mmaes.MaxGenerationsReached {
			t.Fatalf("stopped by %v", o.Reason())
		}
		// With early, the generations with a pool draw during their
		// sampling until about generation 35, after it not.
		if pooled > 0 && early && (during == 0 || switchTo > 1 && during == pooled) || !early && during > 0 {
			t.Errorf("Threads %d, then %d: %d of the %d generations with a pool drew during their sampling", threads, switchTo, during, pooled)
		}
		// The row norms (from the Gram matrix) in the last values.
		xsum = append(xsum, o.StdDevs(nil)...)
		return xsum, append([]float64(nil), o.Mean()...), o.Sigma()
	}
	wantX, wantMean, wantSigma := run(1, 1)
	cases := [][2]int{{2, 2}, {3, 3}, {1, 2}, {2, 1}}
	if testing.Short() {
		cases = cases[2:3]
	}
	for _, tc := range cases {
		x, mean, sigma := run(tc[0], tc[1])
		what := fmt.Sprintf("Threads %d, then %d", tc[0], tc[1])
		if j := firstDiff(x, wantX); j >= 0 {
			t.Errorf("%s: the candidates of generation %d (past %d: the standard deviations) differ from one goroutine's", what, j+1, gens)
		}
		if j := firstDiff(mean, wantMean); j >= 0 {
			t.Errorf("%s: mean[%d] = %v, one goroutine %v", what, j, mean[j], wantMean[j])
		}
		if sigma != wantSigma {
			t.Errorf("%s: σ = %v, one goroutine %v", what, sigma, wantSigma)
		}
	}

	cfg := startConfig(n, mmaes.LMMA, 7)
	cfg.Threads, cfg.C, cfg.TolFun, cfg.TolX, cfg.MaxGenerations = 2, 0.5, 0, 0, 0
	if a := allocsPerGeneration(t, cfg, gens, 5); a != 0 {
		t.Errorf("%v allocations per generation of LMMA with Threads = 2", a)
	}
}

// TestThreadsReconfiguredFreed: changing Threads with Reconfigure stops
// the old pool and lets it be collected: 200 changes at n = 1024 leave the
// live heap within a few pools of where it was (each pool kept its
// goroutines' kernel work space, about 0.5 MB, until the optimizer was
// collected: 100 MB after 200 changes).
func TestThreadsReconfiguredFreed(t *testing.T) {
	cfg := mmaes.DefaultConfig(1024)
	cfg.Threads = 2
	o := mustNew(t, cfg)
	runGens(t, o, sphere, 1)
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := heap()
	for i := range 200 {
		if err := o.Reconfigure(func(c *mmaes.Config) { c.Threads = 2 + i%2 }); err != nil {
			t.Fatal(err)
		}
	}
	runGens(t, o, sphere, 1)
	if grown := int64(heap()) - int64(before); grown > 8<<20 {
		t.Errorf("the live heap grew by %d MB over 200 changes of Threads", grown>>20)
	}
	runtime.KeepAlive(o)
}

// TestCloseFreesThreads: when Close returns, the goroutines of Threads
// have ended and their kernel work space is garbage, though the optimizer
// lives on; a Reconfigure of Threads after Close starts a pool again.
func TestCloseFreesThreads(t *testing.T) {
	const n, threads = 1024, 32
	cfg := startConfig(n, mmaes.MMA, 5)
	cfg.Threads = threads
	o := mustNew(t, cfg)
	gen := func() { runGens(t, o, ellipsoid, 1) }
	gen()
	gen()
	heap := func() float64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		return float64(m.HeapAlloc)
	}
	before := heap()
	// Right after a generation the helpers spin, still holding the pool.
	gen()
	if err := o.Close(); err != nil {
		t.Fatal(err)
	}
	freed := before - heap()
	// Each of the 31 helpers and the caller held a kernel work space (none
	// on the generic path); 1 % of it for the GC's rounding.
	if want := 0.99 * float64(threads*kernel.WorkLen(n, o.Lambda())*8); freed < want {
		t.Errorf("Close freed %.0f bytes, want at least %.0f (the goroutines' work space)", freed, want)
	}
	gen()
	base := runtime.NumGoroutine()
	if err := o.Reconfigure(func(c *mmaes.Config) { c.Threads = 3 }); err != nil {
		t.Fatal(err)
	}
	if g := runtime.NumGoroutine(); g != base+2 {
		t.Errorf("Reconfigure to Threads = 3 after Close: %d goroutines, want %d", g, base+2)
	}
	gen()
	runtime.KeepAlive(o)
}

// TestThreadsDrawAhead checks the deviates a pool draws ahead (for the
// next generation, while the caller evaluates one, or while it samples it
// where the sampling does not split) against a run on one goroutine, bit
// for bit, where something else moves the generator or the population
// first: BIPOP restarts, whose small runs draw their σ and λ from the
// generator (at least one keeps the λ of the run before, so the drawn
// deviates fit the population and must still be dropped), checkpoints
// taken while the deviates are being drawn and restored into an optimizer
// with a pool, and a Close in the middle; for the full matrix and for the
// limited memory, its thresholds lowered so that its passes split, or so
// that they split only once more slots are in use (or at the larger λ of
// BIPOP's large runs) and the deviates are drawn during the sampling;
// and with populations of more than 2^15 deviates, drawn in chunks.
func TestThreadsDrawAhead(t *testing.T) {
	for _, tc := range []struct {
		name   string
		u      mmaes.Update
		split  float64 // the fewest flops of a limited-memory pass that split
		early  bool    // whether generations draw during their sampling
		lambda int     // Config.Lambda (70: the deviates in chunks, λ·n > 2^15)
		seed   uint64  // one whose BIPOP restarts include one that keeps λ
	}{
		{"MMA", mmaes.MMA, 1 << 12, true, 0, 7}, // carried by the sampling's call
		{"LMMA", mmaes.LMMA, 1 << 12, false, 0, 7},
		{"LMMA-early", mmaes.LMMA, 1 << 19, true, 0, 7},
		{"MMA-chunks", mmaes.MMA, 1 << 12, true, 70, 13},
		{"LMMA-chunks", mmaes.LMMA, 1 << 12, false, 70, 13},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer mmaes.SetLowRankSplit(tc.split, 512)()
			early := testThreadsDrawAhead(t, tc.u, tc.lambda, tc.seed)
			t.Logf("early %d", early)
			if (early > 0) != tc.early {
				t.Errorf("%d generations drew the next one's deviates during their sampling, want some: %v", early, tc.early)
			}
		})
	}
}

// testThreadsDrawAhead returns the generations of the run with a pool
// whose next deviates were drawn during their sampling.
func testThreadsDrawAhead(t *testing.T, u mmaes.Update, lambda int, seed uint64) (early int) {
	run := func(threads int) (res mmaes.Result, mean []float64, hashes []uint64, sameLambda int) {
		cfg := startConfig(520, u, seed)
		cfg.Threads, cfg.Restart, cfg.Lambda = threads, mmaes.BIPOP, lambda
		// TolX stops every run at its first test.
		cfg.MaxEvals, cfg.TolFun, cfg.TolX = 6000, 0, 1e9
		o := mustNew(t, cfg)
		defer func() { o.Close() }()
		fit := make([]float64, 0, 512)
		lastLambda, lastRestarts := 0, 0
		for o.Reason() == mmaes.NotStopped {
			xs := o.Ask()
			if xs == nil {
				break
			}
			if r := o.Restarts(); r != lastRestarts && len(xs) == lastLambda {
				sameLambda++
			}
			lastLambda, lastRestarts = len(xs), o.Restarts()
			if mmaes.DrawsAheadEarly(o) {
				early++
			}
			switch g := o.Generation(); {
			case g%5 == 2:
				// A checkpoint of the asked generation, restored into an
				// optimizer with a pool of its own.
				b, err := o.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				c := cfg
				c.Threads = threads
				next := mustNew(t, c)
				if err := next.UnmarshalBinary(b); err != nil {
					t.Fatal(err)
				}
				o.Close()
				o = next
				xs = o.Ask()
			case g == 7:
				o.Close() // the rest on one goroutine
			}
			// Every candidate's bits: a slow-path deviate drawn from the
			// wrong state can leave the generator where the right one
			// would (the draws of a stream catch up), so the end of the
			// run is not enough.
			h := fnv.New64a()
			fit = fit[:0]
			for _, x := range xs {
				fit = append(fit, ellipsoid(x))
				for _, v := range x {
					binary.Write(h, binary.LittleEndian, math.Float64bits(v))
				}
			}
			hashes = append(hashes, h.Sum64())
			if err := o.Tell(fit); err != nil {
				t.Fatal(err)
			}
		}
		return o.Result(), o.Mean(), hashes, sameLambda
	}
	want, wantMean, wantHashes, _ := run(1)
	// Threads 3: two helpers draw the chunks of the next deviates.
	threads := []int{2, 3}
	if testing.Short() {
		threads = threads[:1]
	}
	for _, th := range threads {
		early = 0
		got, mean, hashes, same := run(th)
		if len(hashes) != len(wantHashes) {
			t.Fatalf("Threads %d: %d generations, one goroutine %d", th, len(hashes), len(wantHashes))
		}
		for g := range hashes {
			if hashes[g] != wantHashes[g] {
				t.Errorf("Threads %d: generation %d's candidates differ from one goroutine's", th, g)
			}
		}
		if same == 0 {
			t.Fatalf("no restart kept λ: the test wants one (%d restarts)", got.Restarts)
		}
		if got.F != want.F || got.Evals != want.Evals || got.Generations != want.Generations || got.Reason != want.Reason || got.Restarts != want.Restarts {
			t.Errorf("Threads %d: result %+v, one goroutine %+v", th, got, want)
		}
		if j := firstDiff(mean, wantMean); j >= 0 {
			t.Errorf("Threads %d: mean[%d] = %v, one goroutine %v", th, j, mean[j], wantMean[j])
		}
	}
	return early
}
