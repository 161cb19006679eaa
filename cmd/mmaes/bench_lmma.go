package main

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"

	"github.com/mmaes-go/mmaes"
	"github.com/mmaes-go/mmaes/kernel"
)

// benchLMMA measures a generation of the limited memory (Update LMMA) at
// each n of dims in its steady state (all k = m + 1 pairs in use: a path
// rate of 1/2 fills them in 2k generations; the rate changes no cost) and
// prints it against its roofline, max(4·k·λ·n/P, 8·(2k + 4λ)·n/B), with P
// the measured FMA peak and B the in-place bandwidth over an array larger
// than the caches.
func benchLMMA(w io.Writer, dims []int, reps int, peak float64) {
	bw := measureBandwidth(4096, reps) // 8·4096² = 128 MiB, beyond every cache
	fmt.Fprintf(w, "\nLMMA (limited memory), one core; FMA peak P = %.1f GFLOP/s (measured again), memory bandwidth B = %.1f GB/s (in place, 128 MiB):\n\n", peak/1e9, bw/1e9)
	fmt.Fprintln(w, "| n | λ | k | µs/gen | T_roof µs | µs/T_roof | GFLOP/s | of peak | normal deviates µs | kernels + rest µs | heap MB | (2m+2λ+16)·n·8 MB |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|")
	var blocks []string // CombineRows' block at each n
	for _, n := range dims {
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		opt, gen, err := newLMMABench(n, 1)
		if err != nil {
			fmt.Fprintf(w, "| %d | – | – | %v |\n", n, err)
			continue
		}
		par := opt.Params()
		m := par.Memory // the stored terms besides the live slow pair
		if par.FastMemory > 0 {
			m += par.FastMemory + 1
		}
		k, lambda, nf := float64(m+1), float64(par.Lambda), float64(n)
		blocks = append(blocks, fmt.Sprintf("n = %d: %d", n, kernel.CombineRowsBlock(m+1, par.Lambda, n)))
		runtime.GC()
		runtime.ReadMemStats(&m1)
		heap := float64(m1.HeapAlloc) - float64(m0.HeapAlloc) - float64(8*par.Lambda)
		heapBound := float64(2*m+2*par.Lambda+16) * nf * 8
		t := medianOf(reps, func() float64 { return timed(gen) })
		flops, bytes := 4*k*lambda*nf, 8*(2*k+4*lambda)*nf
		roof := math.Max(flops/peak, bytes/bw)
		z := make([]float64, par.Lambda*n)
		var st [4 * kernel.ZigLanes]uint64
		for i := range st {
			st[i] = uint64(i)*0x9e3779b97f4a7c15 + 1
		}
		var xt [257]float64
		copy(xt[:], zigTable())
		normals := medianOf(reps, func() float64 {
			return timed(func() {
				var rej [64]uint64
				for zz := z; len(zz) > 0; {
					acc, nrej := kernel.Ziggurat(zz, &st, &xt, rej[:])
					zz = zz[min(len(zz), acc+nrej):]
				}
			})
		})
		fmt.Fprintf(w, "| %d | %d | %d | %.0f | %.0f | %.2f | %.1f | %.0f %% | %.0f | %.0f | %.1f | %.1f |\n",
			n, par.Lambda, int(k), t*1e6, roof*1e6, t/roof, flops/t/1e9, 100*flops/t/peak, normals*1e6, (t-normals)*1e6, heap/1e6, heapBound/1e6)
	}
	fmt.Fprintln(w, "\nk = Memory + FastMemory + 2 stored pairs (the slow and the fast ones); 4·k·λ·n flops and 8·(2k + 4λ)·n bytes a generation (the pairs read once, Z written once and read twice, X written).")
	fmt.Fprintln(w, "heap: the bytes the optimizer holds after the warm-up generations (runtime.MemStats.HeapAlloc after a GC), against (2m + 2λ + 16)·n·8 bytes with m = k − 1 (at small n the TolFun history of 10 + 30·n/λ values and the status board's two vectors exceed the 16 vectors: a few MB at most).")
	fmt.Fprintln(w, "normal deviates: the λ·n deviates of a generation by the ziggurat's fast path alone (kernel.Ziggurat; the rare slow-path draws not included).")
	fmt.Fprintf(w, "CombineRows' blocks of columns (kernel.CombineRowsBlock, from the L2 of %d KiB the CPU reports): %s.\n", kernel.L2Bytes()>>10, strings.Join(blocks, ", "))
	fmt.Fprintf(w, "%s.\n", streamNote())
}

// streamNote says from which sizes the low-rank kernels stream their
// operands and why.
func streamNote() string {
	from := fmt.Sprintf("an eighth of the %d MiB L3 the CPU reports, at most 16 MiB, at least the L2", kernel.L3Bytes()>>20)
	combineFrom := "the larger of 4 MiB and twice the L2, at most DotRows' size"
	if kernel.L3Bytes() == 0 {
		from, combineFrom = "the CPU reports no L3", "DotRows' size, the CPU reporting no L3"
	}
	return fmt.Sprintf("DotRows streams (the next block asked for ahead) where the stored pairs and the population exceed %.1f MiB (kernel.StreamBytes: %s); "+
		"CombineRows (the next block's panel walked ahead, non-temporal stores, two panels a block) where they exceed %.1f MiB (kernel.CombineStreamBytes: %s)",
		float64(kernel.StreamBytes())/(1<<20), from, float64(kernel.CombineStreamBytes())/(1<<20), combineFrom)
}

// newLMMABench makes the optimizer benchLMMA times at n, with
// Config.Threads = threads, runs it to its steady state (all k = m + 1
// pairs in use: a path rate of 1/2 fills them in 2k generations; the rate
// changes no cost), and returns it and a function that runs one
// generation with a cheap objective (random values).
func newLMMABench(n, threads int) (*mmaes.Optimizer, func(), error) {
	cfg := mmaes.DefaultConfig(n)
	cfg.Update, cfg.C, cfg.Sigma, cfg.Threads = mmaes.LMMA, 0.5, 1, threads
	cfg.TolFun, cfg.TolX, cfg.MaxGenerations, cfg.MaxCondition, cfg.Endless = 0, 0, 0, 0, true
	opt, err := mmaes.New(cfg)
	if err != nil {
		return nil, nil, err
	}
	par := opt.Params()
	fit := make([]float64, par.Lambda)
	var h uint64
	gen := func() {
		for i := range opt.Ask() {
			h = (h + 0x9e3779b97f4a7c15) * 0xbf58476d1ce4e5b9
			fit[i] = float64(h >> 11)
		}
		if err := opt.Tell(fit); err != nil {
			panic(err) // a live run by construction
		}
	}
	for range 2*par.Memory + 4 {
		gen()
	}
	return opt, gen, nil
}

// benchLMMAThreads prints, for each n, the time of an LMMA generation on
// one goroutine and with Config.Threads = threads on as many cores
// (GOMAXPROCS), each the median of reps, the repetitions of the two
// interleaved.
func benchLMMAThreads(w io.Writer, dims []int, reps, threads int) {
	fmt.Fprintf(w, "\nLMMA threads (Config.Threads = %d on %d cores against 1 on one; %d CPUs here; repetitions interleaved):\n\n", threads, threads, runtime.NumCPU())
	fmt.Fprintf(w, "| n | λ | 1 thread µs | %d threads µs | speed-up |\n|---|---|---|---|---|\n", threads)
	for _, n := range dims {
		oneOpt, oneGen, err := newLMMABench(n, 1)
		if err != nil {
			fmt.Fprintf(w, "| %d | – | %v |\n", n, err)
			return
		}
		prev := runtime.GOMAXPROCS(threads)
		manyOpt, manyGen, err := newLMMABench(n, threads)
		runtime.GOMAXPROCS(prev)
		if err != nil {
			fmt.Fprintf(w, "| %d | – | %v |\n", n, err)
			return
		}
		one, many := interleaved(reps, threads, func() float64 { return timed(oneGen) }, func() float64 { return timed(manyGen) })
		manyOpt.Close()
		fmt.Fprintf(w, "| %d | %d | %.2f | %.2f | %.2f× |\n", n, oneOpt.Lambda(), one*1e6, many*1e6, one/many)
	}
}

// zigTable returns the ziggurat's layer table x[0..256] for 256 layers
// (Doornik's form, the library's: x[1] = r, the base layer's virtual
// width in x[0], x[256] = 0).
func zigTable() []float64 {
	const r, v = 3.6541528853610088, 0.00492867323399
	f := func(x float64) float64 { return math.Exp(-0.5 * x * x) }
	x := make([]float64, 257)
	x[0], x[1] = v/f(r), r
	for i := 2; i < 256; i++ {
		x[i] = math.Sqrt(-2 * math.Log(v/x[i-1]+f(x[i-1])))
	}
	return x
}
