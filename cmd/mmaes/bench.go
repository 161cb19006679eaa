package main

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/gonum/optimize"

	"github.com/mmaes-go/mmaes"
	"github.com/mmaes-go/mmaes/kernel"
)

// benchCmd is `mmaes bench`: the time of one generation of MMA-ES against
// the machine's roofline, OpenBLAS doing the same linear algebra, and gonum's
// CmaEsChol, all measured in the same run on one core.
func benchCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench", stderr)
	dimsFlag := fs.String("dims", "16,64,256,1024,4096", "dimensions (at most 16384)")
	reps := fs.Int("reps", 7, "timed repetitions per measurement (the median is reported)")
	gonumMax := fs.Int("gonum-max", 1024, "largest n for gonum's CmaEsChol (it is O(n³) per generation)")
	latencyDims := fs.String("latency-dims", "64,1024", "dimensions of the single-generation latency distribution (empty: none)")
	latencyGens := fs.Int("latency-gens", 10000, "generations timed one by one for the latency distribution")
	mdPath := fs.String("md", "", "also write the tables as Markdown to this file")
	plotPath := fs.String("plot", "", "write a log-log PNG of time per generation against n")
	runs := fs.Int("runs", 1, "measure the whole table this many times; with more than one, also print the median and range of each ratio over the runs (the plot shows the medians)")
	threads := fs.Int("threads", 0, "also time the generations with Config.Threads = this many goroutines (and as many cores), against one, at each of -dims and -lmma-dims (0: not)")
	lmmaDims := fs.String("lmma-dims", "10000,100000", "dimensions of the limited-memory (LMMA) table (empty: none; 1000000 needs about 2 GB and a minute)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	dims, err := parseInts("dims", *dimsFlag)
	if err != nil {
		return err
	}
	var latDims []int
	if *latencyDims != "" {
		if latDims, err = parseInts("latency-dims", *latencyDims); err != nil {
			return err
		}
	}
	var lmDims []int
	if *lmmaDims != "" {
		if lmDims, err = parseInts("lmma-dims", *lmmaDims); err != nil {
			return err
		}
	}
	if *threads < 0 || *threads == 1 || *threads > maxBenchThreads {
		return fmt.Errorf("%w: -threads must be 0 or in [2, %d]", errUsage, maxBenchThreads)
	}
	for _, n := range slices.Concat(dims, latDims) {
		if err := checkBenchDim(n, *threads); err != nil {
			return err
		}
	}
	if *reps < 1 || *latencyGens < 1 || *runs < 1 {
		return fmt.Errorf("%w: -reps, -runs and -latency-gens must be positive", errUsage)
	}
	if err := checkOutputFiles("md", *mdPath, "plot", *plotPath); err != nil {
		return err
	}
	runtime.GOMAXPROCS(1) // one core, as every figure is per core

	var out strings.Builder
	w := io.MultiWriter(stdout, &out)
	fmt.Fprintf(w, "machine: %s, GOARCH=%s, kernel path %s (ziggurat %s), %s\n", cpuName(), runtime.GOARCH, kernel.Impl(), kernel.ZigguratImpl(), runtime.Version())
	core := "not built (go run -tags openblas . bench)"
	if haveOpenBLAS {
		core = openblasCore() + " kernels, 1 thread (OPENBLAS_CORETYPE picks them)"
	}
	fmt.Fprintf(w, "OpenBLAS: %s\n", core)

	var runRows [][]benchRow
	for run := 1; run <= *runs; run++ {
		if *runs > 1 {
			fmt.Fprintf(w, "\nrun %d of %d\n", run, *runs)
		}
		runRows = append(runRows, benchRun(w, dims, *reps, *gonumMax))
	}
	fmt.Fprintln(w, "\nT_roof(n) = max(2·λ·n²/P, 16·n²/B(n)): P the peak above, B(n) the in-place read+write bandwidth over 8·n² bytes (kernel.Scale).")
	fmt.Fprintln(w, "mmaes GFLOP/s and GB/s: the sampling's 2·λ·n² flops and A's 16·n² bytes (read and written once) per generation time.")
	fmt.Fprintln(w, "A generation is Ask, a cheap objective (random values, so the run never converges) and Tell with mmaes.MMA; medians of the repetitions.")
	fmt.Fprint(w, tilingLines(dims))
	rows := runRows[0]
	if *runs > 1 {
		rows = medianRows(runRows)
		fmt.Fprintf(w, "\nmedian [min–max] over the %d runs (each ratio taken within its run):\n\n", *runs)
		fmt.Fprint(w, summaryTable(runRows))
	}

	if *threads >= 2 {
		benchThreads(w, dims, *reps, *threads)
	}
	if len(lmDims) > 0 {
		peak, _ := measurePeak(*reps)
		benchLMMA(w, lmDims, *reps, peak)
		if *threads >= 2 {
			benchLMMAThreads(w, lmDims, *reps, *threads)
		}
	}
	if len(latDims) > 0 {
		lat := make([][3]float64, len(latDims)) // median, p99, max
		for i, n := range latDims {
			lat[i][0], lat[i][1], lat[i][2] = latency(n, *latencyGens)
		}
		clock := clockCost(*latencyGens)
		fmt.Fprintf(w, "\nsingle-generation latency over %d generations:\n\n| n | median µs | median − clock µs | p99 µs | max µs |\n|---|---|---|---|---|\n", *latencyGens)
		for i, n := range latDims {
			med, p99, mx := lat[i][0], lat[i][1], lat[i][2]
			fmt.Fprintf(w, "| %d | %.3f | %.3f | %.2f | %.2f |\n", n, med*1e6, (med-clock)*1e6, p99*1e6, mx*1e6)
		}
		fmt.Fprintf(w, "\nThe median, p99 and max include the clock read around each generation: timing an empty function the same way takes %.3f µs (median of %d); the second column is the median less that.\n", clock*1e6, *latencyGens)
	}
	if *mdPath != "" {
		if err := os.WriteFile(*mdPath, []byte(out.String()), 0o644); err != nil {
			return err
		}
	}
	if *plotPath != "" {
		if err := plotBench(*plotPath, rows); err != nil {
			return err
		}
	}
	return nil
}

// benchRun measures the peak and every dimension once (each figure the
// median of reps), prints the table to w and returns its rows.
func benchRun(w io.Writer, dims []int, reps, gonumMax int) []benchRow {
	peak, width := measurePeak(reps)
	if peak > 0 {
		fmt.Fprintf(w, "peak FP64 FMA (one core, %s): %.1f GFLOP/s\n", width, peak/1e9)
	}
	fmt.Fprintln(w, "\n| n | λ | mmaes µs/gen | T_roof µs | mmaes/T_roof | B(n) GB/s | mmaes GFLOP/s | mmaes GB/s | OpenBLAS µs | OpenBLAS/mmaes | gonum µs | gonum/mmaes | gonum allocs/gen |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	var rows []benchRow
	for _, n := range dims {
		r := benchRow{n: n}
		r.lambda = defaultLambda(n)
		r.bw = measureBandwidth(n, reps)
		r.mmaes = timeMMAES(n, reps)
		r.roof = math.Max(2*float64(r.lambda)*float64(n)*float64(n)/peak, 16*float64(n)*float64(n)/r.bw)
		if haveOpenBLAS {
			r.openblas = timeOpenBLAS(n, r.lambda, reps)
		}
		if n <= gonumMax {
			r.gonum, r.gonumAllocs = timeGonum(n, r.lambda, reps)
		}
		rows = append(rows, r)
		fmt.Fprintln(w, r.markdown())
	}
	return rows
}

// medianRows returns, per dimension, the median over the runs of each time
// (for the plot).
func medianRows(runs [][]benchRow) []benchRow {
	rows := slices.Clone(runs[0])
	for i := range rows {
		med := func(f func(benchRow) float64) float64 {
			v := make([]float64, len(runs))
			for k, run := range runs {
				v[k] = f(run[i])
			}
			return median(v)
		}
		rows[i].mmaes = med(func(r benchRow) float64 { return r.mmaes })
		rows[i].roof = med(func(r benchRow) float64 { return r.roof })
		rows[i].openblas = med(func(r benchRow) float64 { return r.openblas })
		rows[i].gonum = med(func(r benchRow) float64 { return r.gonum })
	}
	return rows
}

// summaryTable prints, per dimension, the median and range over the runs of
// the generation time and of the ratios, each taken within its run.
func summaryTable(runs [][]benchRow) string {
	var b strings.Builder
	b.WriteString("| n | mmaes µs/gen | mmaes/T_roof | OpenBLAS/mmaes | gonum/mmaes |\n|---|---|---|---|---|\n")
	for i, r0 := range runs[0] {
		stat := func(f func(benchRow) float64, format string) string {
			var v []float64
			for _, run := range runs {
				if x := f(run[i]); x > 0 {
					v = append(v, x)
				}
			}
			if len(v) == 0 {
				return "–"
			}
			return fmt.Sprintf(format+" ["+format+"–"+format+"]", median(v), slices.Min(v), slices.Max(v))
		}
		ratio := func(num func(benchRow) float64) func(benchRow) float64 {
			return func(r benchRow) float64 {
				if num(r) == 0 {
					return 0
				}
				return num(r) / r.mmaes
			}
		}
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %s |\n", r0.n,
			stat(func(r benchRow) float64 { return r.mmaes * 1e6 }, "%.2f"),
			stat(func(r benchRow) float64 { return r.mmaes / r.roof }, "%.2f"),
			stat(ratio(func(r benchRow) float64 { return r.openblas }), "%.2f×"),
			stat(ratio(func(r benchRow) float64 { return r.gonum }), "%.0f×"))
	}
	return b.String()
}

// benchRow holds one dimension's figures, in seconds and bytes per second.
type benchRow struct {
	n, lambda                    int
	bw, mmaes, roof              float64
	openblas, gonum, gonumAllocs float64
}

func (r benchRow) markdown() string {
	opt := func(v float64, f string) string {
		if v == 0 {
			return "–"
		}
		return fmt.Sprintf(f, v)
	}
	nn := float64(r.n) * float64(r.n)
	return fmt.Sprintf("| %d | %d | %.2f | %.2f | %.2f | %.1f | %.1f | %.1f | %s | %s | %s | %s | %s |",
		r.n, r.lambda, r.mmaes*1e6, r.roof*1e6, r.mmaes/r.roof, r.bw/1e9,
		2*float64(r.lambda)*nn/r.mmaes/1e9, 16*nn/r.mmaes/1e9,
		opt(r.openblas*1e6, "%.2f"), opt(r.openblas/r.mmaes, "%.2f×"),
		opt(r.gonum*1e6, "%.1f"), opt(r.gonum/r.mmaes, "%.0f×"), opt(r.gonumAllocs, "%.0f"))
}

// medianOf runs f reps times and returns the median of its results.
func medianOf(reps int, f func() float64) float64 {
	v := make([]float64, reps)
	for i := range v {
		v[i] = f()
	}
	return median(v)
}

// timed returns the seconds f takes.
func timed(f func()) float64 {
	t := time.Now()
	f()
	return time.Since(t).Seconds()
}

// maxBenchThreads is the most goroutines -threads may ask for: the
// library's bound on Config.Threads.
const maxBenchThreads = 1024

// maxBenchDim bounds the full-matrix dimensions of bench: beside the
// optimizer's A it holds an n×n buffer for the bandwidth and OpenBLAS's
// copies, 2 GiB each at this n.
const maxBenchDim = 16384

// checkBenchDim reports a usage error unless a full-matrix generation of
// dimension n (with threads goroutines, 0: one) fits: n ≤ maxBenchDim, and
// the optimizer within the library's memory budget.
func checkBenchDim(n, threads int) error {
	if n > maxBenchDim {
		return fmt.Errorf("%w: -dims and -latency-dims at most %d (the full matrix; -lmma-dims for larger n)", errUsage, maxBenchDim)
	}
	cfg := mmaes.DefaultConfig(n)
	cfg.Threads = threads
	if _, err := cfg.Params(); err != nil {
		return fmt.Errorf("%w: n = %d: %v", errUsage, n, err)
	}
	return nil
}

// batch returns how many repetitions of something taking about per seconds
// fill 20 ms (at least 1).
func batch(per float64) int { return max(1, int(0.02/per)) }

func measurePeak(reps int) (flopsPerSecond float64, width string) {
	const iters = 1 << 20
	peakLoop(1 << 16) // warm up
	var flops float64
	t := medianOf(reps, func() float64 {
		return timed(func() { flops, width = peakLoop(iters) })
	})
	return flops / t, width
}

// measureBandwidth returns the in-place read+write bandwidth over an array
// of 8·n² bytes, as kernel.Scale moves it.
func measureBandwidth(n, reps int) float64 {
	buf := make([]float64, n*n)
	for i := range buf {
		buf[i] = 1
	}
	kernel.Scale(1, buf)
	k := batch(timed(func() { kernel.Scale(1, buf) }))
	t := medianOf(reps, func() float64 {
		return timed(func() {
			for range k {
				kernel.Scale(1, buf)
			}
		}) / float64(k)
	})
	return 16 * float64(n) * float64(n) / t
}

// neutral runs generations of MMA-ES at dimension n with every stop off and
// an objective of pseudo-random values (randomValue): selection is random,
// so nothing converges and every generation costs the same. A long run
// would still drift (σ and A are random walks) into subnormal or huge
// numbers, whose slow arithmetic is not a generation's cost: renew starts a
// fresh optimizer, and the timing loops call it, untimed, every renewEvery
// generations.
type neutral struct {
	cfg  mmaes.Config
	opt  *mmaes.Optimizer
	fit  []float64
	ctr  uint64 // values drawn so far
	gens int
}

// randomValue returns the pseudo-random value number i of the neutral
// objective in [0, 2⁵³): SplitMix64's output function of i. The values of
// a generation are independent of each other (no chain through a
// generator's state, no call through an interface), so the objective adds
// almost nothing to a generation's figures (docs/performance.md).
func randomValue(i uint64) float64 {
	z := (i + 1) * 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return float64((z ^ z>>31) >> 11)
}

// renewEvery is how many generations a neutral optimizer runs before renew.
const renewEvery = 1000

func newNeutral(n int) *neutral { return newNeutralThreads(n, 0) }

// newNeutralThreads is newNeutral with Config.Threads = threads.
func newNeutralThreads(n, threads int) *neutral {
	cfg := mmaes.DefaultConfig(n)
	cfg.Threads = threads
	cfg.Sigma = 1
	cfg.MaxGenerations, cfg.TolFun, cfg.TolX, cfg.MaxCondition, cfg.Endless = 0, 0, 0, 0, true
	r := &neutral{cfg: cfg}
	r.renew()
	r.fit = make([]float64, r.opt.Lambda())
	return r
}

// renew replaces the optimizer by a fresh one (the next seed) and runs its
// first generations, whose buffers are still cold.
func (r *neutral) renew() {
	r.cfg.Seed++
	opt, err := mmaes.New(r.cfg)
	if err != nil {
		panic(err) // a valid config by construction
	}
	if r.opt != nil {
		r.opt.Close() // its Threads' goroutines
	}
	r.opt, r.gens = opt, 0
	if r.fit != nil {
		for range 3 {
			r.generation()
		}
	}
}

// due reports whether the optimizer has run its renewEvery generations.
func (r *neutral) due() bool { return r.gens >= renewEvery }

// generation runs one Ask, evaluation and Tell.
func (r *neutral) generation() {
	for i := range r.opt.Ask() {
		r.fit[i] = randomValue(r.ctr + uint64(i))
	}
	r.ctr += uint64(len(r.fit))
	if err := r.opt.Tell(r.fit); err != nil {
		panic(err) // no stop is enabled
	}
	r.gens++
}

// timeMMAES returns the median time of a generation at dimension n: each
// repetition times about 20 ms of generations, in runs of at most renewEvery.
func timeMMAES(n, reps int) float64 {
	rep, done := mmaesRep(n, 0)
	defer done()
	return medianOf(reps, rep)
}

// mmaesRep returns a function that times one repetition of timeMMAES with
// Config.Threads = threads (the seconds a generation takes), and one that
// closes its optimizer.
func mmaesRep(n, threads int) (rep func() float64, done func()) {
	r := newNeutralThreads(n, threads)
	r.renew()
	k := batch(timed(r.generation))
	return func() float64 {
		total, gens := 0.0, 0
		for gens < k {
			if r.due() {
				r.renew()
			}
			m := min(k-gens, renewEvery-r.gens)
			total += timed(func() {
				for range m {
					r.generation()
				}
			})
			gens += m
		}
		return total / float64(gens)
	}, func() { r.opt.Close() }
}

// interleaved runs reps repetitions of one and of many in turn (one, many,
// one, many, …), many with GOMAXPROCS = procs, and returns their medians:
// a slow spell of a shared host then falls on both.
func interleaved(reps, procs int, one, many func() float64) (tOne, tMany float64) {
	a, b := make([]float64, reps), make([]float64, reps)
	for i := range reps {
		a[i] = one()
		prev := runtime.GOMAXPROCS(procs)
		b[i] = many()
		runtime.GOMAXPROCS(prev)
	}
	return median(a), median(b)
}

// benchThreads prints, for each n, the time of a generation on one
// goroutine and with Config.Threads = threads on as many cores
// (GOMAXPROCS), each the median of reps, the repetitions of the two
// interleaved.
func benchThreads(w io.Writer, dims []int, reps, threads int) {
	fmt.Fprintf(w, "\nThreads (Config.Threads = %d on %d cores against 1 on one; %d CPUs here; repetitions interleaved), MMA:\n\n", threads, threads, runtime.NumCPU())
	fmt.Fprintf(w, "| n | λ | 1 thread µs | %d threads µs | speed-up |\n|---|---|---|---|---|\n", threads)
	for _, n := range dims {
		oneRep, oneDone := mmaesRep(n, 0)
		prev := runtime.GOMAXPROCS(threads)
		manyRep, manyDone := mmaesRep(n, threads)
		runtime.GOMAXPROCS(prev)
		one, many := interleaved(reps, threads, oneRep, manyRep)
		oneDone()
		manyDone()
		fmt.Fprintf(w, "| %d | %d | %.2f | %.2f | %.2f× |\n", n, defaultLambda(n), one*1e6, many*1e6, one/many)
	}
}

// latency times gens single generations and returns their median, 99th
// percentile and maximum in seconds.
func latency(n, gens int) (med, p99, mx float64) {
	r := newNeutral(n)
	r.renew()
	ts := make([]float64, gens)
	// The table's gonum and OpenBLAS runs leave garbage: collect it now,
	// so that no GC cycle runs beside the timed generations (which
	// allocate nothing) on a machine with few cores.
	runtime.GC()
	for i := range ts {
		if r.due() {
			r.renew()
		}
		ts[i] = timed(r.generation)
	}
	slices.Sort(ts)
	return ts[gens/2], ts[int(math.Ceil(0.99*float64(gens)))-1], ts[gens-1]
}

// clockCost returns the median time timed reports for an empty function
// over gens calls: the part of each latency figure that is the clock.
func clockCost(gens int) float64 {
	ts := make([]float64, gens)
	for i := range ts {
		ts[i] = timed(func() {})
	}
	slices.Sort(ts)
	return ts[gens/2]
}

func timeOpenBLAS(n, lambda, reps int) float64 {
	r := rand.New(rand.NewPCG(3, 4))
	rnd := func(m int) []float64 {
		s := make([]float64, m)
		for i := range s {
			s[i] = r.NormFloat64()
		}
		return s
	}
	a, z, y, p, v := rnd(n*n), rnd(lambda*n), make([]float64, lambda*n), rnd(n), rnd(n)
	openblasGeneration(n, lambda, a, z, y, p, v)
	k := batch(timed(func() { openblasGeneration(n, lambda, a, z, y, p, v) }))
	return medianOf(reps, func() float64 {
		return timed(func() {
			for range k {
				openblasGeneration(n, lambda, a, z, y, p, v)
			}
		}) / float64(k)
	})
}

// timeGonum returns gonum's CmaEsChol time and heap allocations per
// generation (Concurrent = 1) on the same neutral objective, in the steady
// state: optimize.Minimize sets up on entry (allocations, the initial
// factorization) and returns after the last generation's evaluations,
// before that generation's update, so a run of g generations costs setup +
// g samplings + (g−1) updates, and dividing it by g would count (g−1)/g of
// an update and setup/g per generation (at n = 256 about 3 ms a generation
// from 2 generations against 5 ms in the steady state). steadyCost takes
// the difference of runs of gonumBase and gonumBase+extra generations
// instead.
func timeGonum(n, lambda, reps int) (perGen, allocs float64) {
	r := rand.New(rand.NewPCG(5, 6))
	run := func(gens int) (seconds, mallocs float64) {
		prob := optimize.Problem{Func: func([]float64) float64 { return r.Float64() }}
		settings := &optimize.Settings{
			FuncEvaluations: gens * lambda,
			Converger:       optimize.NeverTerminate{},
			Concurrent:      1,
		}
		method := &optimize.CmaEsChol{Population: lambda, InitStepSize: 1, Src: rand.NewPCG(7, 8)}
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		t := timed(func() { optimize.Minimize(prob, make([]float64, n), settings, method) })
		runtime.ReadMemStats(&m1)
		return t, float64(m1.Mallocs - m0.Mallocs)
	}
	probe, _ := steadyCost(run, 1) // also warms up
	extra := max(2, batch(probe))
	var as []float64
	perGen = medianOf(reps, func() float64 {
		t, a := steadyCost(run, extra)
		as = append(as, a)
		return t
	})
	return perGen, median(as)
}

// gonumBase is the shorter run of steadyCost: its setup and first
// generations warm the caches the longer run then finds warm too.
const gonumBase = 2

// steadyCost returns the cost per generation, in seconds and allocations,
// of the extra generations of a run of gonumBase+extra generations over one
// of gonumBase: run(g)'s setup and the update its last generation leaves
// out cancel in the difference. A difference that is not positive (noise on
// a busy machine) is measured again with twice the extra generations, up to
// four times, and then counts as 0.
func steadyCost(run func(gens int) (seconds, mallocs float64), extra int) (seconds, mallocs float64) {
	for try := 0; ; try++ {
		t0, a0 := run(gonumBase)
		t1, a1 := run(gonumBase + extra)
		if t1 > t0 || try == 4 {
			return max(0, t1-t0) / float64(extra), max(0, a1-a0) / float64(extra)
		}
		extra *= 2
	}
}

// cpuName returns the model name from /proc/cpuinfo, or GOARCH.
func cpuName() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				return strings.TrimSpace(v)
			}
		}
	}
	return runtime.GOARCH
}

// plotBench draws time per generation against n, log-log, for mmaes, the
// roofline, OpenBLAS and gonum.
func plotBench(path string, rows []benchRow) error {
	p := newLogPlot("time per generation (one core)", "n", "seconds")
	var dims []int
	for _, r := range rows {
		dims = append(dims, r.n)
	}
	logLog(p, dims) // a labelled tick at every measured n
	series := []struct {
		name string
		get  func(benchRow) float64
	}{
		{"mmaes (MMA)", func(r benchRow) float64 { return r.mmaes }},
		{"roofline T_roof", func(r benchRow) float64 { return r.roof }},
		{"OpenBLAS dgemm+dscal+dger", func(r benchRow) float64 { return r.openblas }},
		{"gonum CmaEsChol", func(r benchRow) float64 { return r.gonum }},
	}
	for i, s := range series {
		var xs, ys []float64
		for _, r := range rows {
			xs = append(xs, float64(r.n))
			ys = append(ys, s.get(r))
		}
		if err := addLinePoints(p, i, s.name, xs, ys); err != nil {
			return err
		}
	}
	p.Legend.Left = true
	return savePNG(p, path)
}

// tilingLines names the kernel tiling of each n's generation (kernel.Tiling
// with the default λ): the choice depends on the kernel path, n and λ, not
// on the CPU model.
func tilingLines(dims []int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "tiles (kernel path %s; the same on every CPU that runs it):\n", kernel.Impl())
	for _, n := range dims {
		fmt.Fprintf(&b, "  n = %d, λ = %d: %s\n", n, defaultLambda(n), kernel.Tiling(n, defaultLambda(n)))
	}
	return b.String()
}
