package mmaes

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mmaes-go/mmaes/kernel"
)

// TestSplitRange checks splitRange's ranges for many sizes: they cover
// 0 … total−1 in order, at most parts of them, their inner boundaries are
// multiples of align, each is at least minLen long when there are two or
// more (minLen a multiple of align, as the pool's callers ask), and a
// total that can hold two ranges of minLen gets more than one when parts
// allows.
func TestSplitRange(t *testing.T) {
	bounds := make([]int, 9)
	for _, c := range [][2]int{{4, 4}, {64, 2048}, {1, 1}, {8, 24}} {
		align, minLen := c[0], c[1]
		for parts := 1; parts <= 8; parts++ {
			for total := 0; total <= 6*minLen+3*align; total += max(1, minLen/16) {
				used := splitRange(bounds, total, parts, align, minLen)
				if used < 1 || used > parts || bounds[0] != 0 || bounds[used] != total {
					t.Fatalf("total %d parts %d align %d min %d: %d ranges %v", total, parts, align, minLen, used, bounds[:used+1])
				}
				for i := 1; i <= used; i++ {
					if i < used && bounds[i]%align != 0 {
						t.Fatalf("total %d parts %d align %d: boundary %d not aligned: %v", total, parts, align, bounds[i], bounds[:used+1])
					}
					if used > 1 && bounds[i]-bounds[i-1] < minLen {
						t.Fatalf("total %d parts %d min %d: range %d shorter: %v", total, parts, minLen, i-1, bounds[:used+1])
					}
				}
				if parts >= 2 && total >= 2*minLen && used < 2 {
					t.Fatalf("total %d parts %d min %d: one range", total, parts, minLen)
				}
			}
		}
	}
}

// recordJob records which goroutine computed each range, and in what
// order: by with atomics (any goroutine), order only when one goroutine
// drains at a time.
type recordJob struct {
	by    []atomic.Int64 // 1 + the goroutine that computed each range, 0: none
	order []int          // unless concurrent
	twice atomic.Bool    // a range was computed again

	concurrent bool
}

func (j *recordJob) runRange(_ *rowThreads, i, w int) {
	if !j.by[i].CompareAndSwap(0, int64(w)+1) {
		j.twice.Store(true)
	}
	if !j.concurrent {
		j.order = append(j.order, i)
	}
}

// TestDrainBlocks checks the pool's division of a call's ranges: goroutine
// w owns the w-th block of them (the blocks in order, their sizes within
// one of each other) and computes it first; a goroutine whose own block is
// done takes what is left of the others', the next goroutine's first, so
// that every range is computed once, whoever arrives and whenever.
func TestDrainBlocks(t *testing.T) {
	for _, c := range []struct{ active, used int }{{2, 4}, {3, 6}, {3, 4}, {4, 9}, {2, 1}, {1, 3}, {5, 2}} {
		pool := &rowThreads{taken: make([]blockCount, c.active)}
		job := &recordJob{by: make([]atomic.Int64, c.used)}
		reset := func() {
			for i := range job.by {
				job.by[i].Store(0)
			}
			job.order = job.order[:0]
			pool.handOut(job, c.used, c.active-1)
		}
		reset()
		end := 0
		for w := range c.active {
			lo, hi := pool.blockOf(w)
			if lo != end || hi-lo < c.used/c.active || hi-lo > (c.used+c.active-1)/c.active {
				t.Fatalf("%+v: block %d is %d … %d after one ending at %d", c, w, lo, hi, end)
			}
			end = hi
		}
		if end != c.used {
			t.Fatalf("%+v: the blocks end at %d", c, end)
		}
		// One goroutine alone (the others late): its own block, then the
		// next goroutines' blocks in turn, wrapping around.
		for w := range c.active {
			reset()
			pool.drain(w)
			var want []int
			for b := range c.active {
				lo, hi := pool.blockOf((w + b) % c.active)
				for i := lo; i < hi; i++ {
					want = append(want, i)
				}
			}
			if fmt.Sprint(job.order) != fmt.Sprint(want) || job.twice.Load() {
				t.Fatalf("%+v: goroutine %d alone computed %v, want %v", c, w, job.order, want)
			}
			for i := range c.used {
				if job.by[i].Load() != int64(w)+1 {
					t.Fatalf("%+v: range %d by %d, not %d", c, i, job.by[i].Load()-1, w)
				}
			}
			for v := range c.active {
				pool.drain(v) // nothing is left
			}
			if len(job.order) != c.used {
				t.Fatalf("%+v: %d ranges computed after the first drain", c, len(job.order)-c.used)
			}
		}
		// All at once: every range once.
		reset()
		job.concurrent = true
		var wg sync.WaitGroup
		for w := range c.active {
			wg.Go(func() { pool.drain(w) })
		}
		wg.Wait()
		for i := range c.used {
			if job.by[i].Load() == 0 {
				t.Fatalf("%+v: range %d not computed concurrently", c, i)
			}
		}
		if job.twice.Load() {
			t.Fatalf("%+v: a range computed twice concurrently", c)
		}
	}
	// Worked out by hand: 4 ranges for 3 goroutines are the blocks {0},
	// {1}, {2, 3}; a goroutine alone goes on with the next goroutine's.
	pool := &rowThreads{taken: make([]blockCount, 3)}
	for w, want := range []string{"[0 1 2 3]", "[1 2 3 0]", "[2 3 0 1]"} {
		job := &recordJob{by: make([]atomic.Int64, 4)}
		pool.handOut(job, 4, 2)
		pool.drain(w)
		if got := fmt.Sprint(job.order); got != want {
			t.Fatalf("4 ranges, 3 goroutines: goroutine %d alone computed %s, want %s", w, got, want)
		}
	}
}

// TestHelperSpin checks how long a helper spins after a call: 1.5 times
// the longest of the gaps before its last 6 calls, at least 100 µs, and
// 100 µs where that would exceed 1 ms; a generation's long gap (the
// evaluation) among its short ones keeps the spin long until 6 short
// gaps have passed.
func TestHelperSpin(t *testing.T) {
	us := func(v float64) time.Duration { return time.Duration(v * float64(time.Microsecond)) }
	for _, tc := range []struct{ gap, want time.Duration }{
		{0, us(100)}, {us(50), us(100)}, {us(66), us(100)}, {us(67), us(100.5)},
		{us(400), us(600)}, {us(666), us(999)}, {us(667), us(100)}, {us(2000), us(100)},
	} {
		if got := spinLimit(tc.gap); got != tc.want {
			t.Errorf("spinLimit(%v) = %v, want %v", tc.gap, got, tc.want)
		}
	}
	var h poolHelper
	// A generation of three calls: the long gap before its first.
	for gen := 0; gen < 3; gen++ {
		for i, gap := range []time.Duration{us(400), us(2), us(1)} {
			if got := h.noteGap(gap); got != us(600) {
				t.Fatalf("generation %d, call %d (gap %v): spin %v, want 600µs", gen, i, gap, got)
			}
		}
	}
	for i := 1; i <= 6; i++ {
		want := us(600)
		if i >= 4 { // the last gap of 400 µs leaves the last 6 with the 4th short one
			want = us(100)
		}
		if got := h.noteGap(us(1)); got != want {
			t.Errorf("short gap %d after the long ones: spin %v, want %v", i, got, want)
		}
	}
}

// TestFillJobChunks checks that a fillJob's chunks, taken by several
// goroutines at once (the pool's helper and the caller), give the
// population fillPopulation draws and leave the generator where it does,
// and that a job whose chunks are all taken draws nothing more.
func TestFillJobChunks(t *testing.T) {
	const m = 5*normalChunk + 3
	want, src := make([]float64, m), newXoshiro(9)
	ref := *src
	fillPopulation(&ref, want)
	var j fillJob
	seeds := make([]uint64, normalChunks(m))
	for round := range 2 {
		z := make([]float64, m)
		j.setFill(src, z, seeds)
		var wg sync.WaitGroup
		for range 3 {
			wg.Go(j.drawChunks)
		}
		j.drawChunks()
		wg.Wait()
		if !j.src.sameState(&ref) {
			t.Fatalf("round %d: the job leaves the generator elsewhere than fillPopulation", round)
		}
		for i := range z {
			if math.Float64bits(z[i]) != math.Float64bits(want[i]) {
				t.Fatalf("round %d: deviate %d is %v, fillPopulation's %v", round, i, z[i], want[i])
			}
		}
		clear(z)
		j.drawChunks()
		if slices.ContainsFunc(z, func(v float64) bool { return v != 0 }) {
			t.Fatalf("round %d: a job whose chunks are taken drew again", round)
		}
	}
}

// TestStartHelpers checks start's hand-out: a job for h helpers is one
// range for each of the first h (at most all of them), none for the
// caller, every range computed once by a helper; and the next
// generation's deviates go to one helper per chunk (one for a population
// drawn in one fill), which together draw fillPopulation's bits.
func TestStartHelpers(t *testing.T) {
	pool := newRowThreads(4) // 3 helpers
	defer pool.stop()
	for _, c := range []struct{ asked, want int }{{1, 1}, {2, 2}, {3, 3}, {7, 3}, {0, 1}} {
		job := &recordJob{by: make([]atomic.Int64, 4), concurrent: true}
		if !pool.start(job, c.asked) {
			t.Fatal("start refused on a running pool")
		}
		pool.wait()
		for i := range job.by {
			switch w := job.by[i].Load() - 1; {
			case i < c.want && w < 1:
				t.Errorf("asked for %d helpers: range %d computed by goroutine %d, want a helper", c.asked, i, w)
			case i >= c.want && w != -1:
				t.Errorf("asked for %d helpers: range %d of %d computed", c.asked, i, c.want)
			}
		}
		if job.twice.Load() {
			t.Errorf("asked for %d helpers: a range computed twice", c.asked)
		}
	}
	var j fillJob
	seeds := make([]uint64, normalChunks(5*normalChunk+3))
	for _, m := range []int{normalChunk, 5*normalChunk + 3} {
		want, src := make([]float64, m), newXoshiro(11)
		ref := *src
		fillPopulation(&ref, want)
		z := make([]float64, m)
		j.setFill(src, z, seeds)
		if h, wantH := j.helpers(), max(1, normalChunks(m)); h != wantH {
			t.Errorf("m = %d: the fill goes to %d helpers, want %d", m, h, wantH)
		}
		pool.start(&j, j.helpers())
		pool.wait()
		if !j.src.sameState(&ref) {
			t.Errorf("m = %d: the helpers leave the generator elsewhere than fillPopulation", m)
		}
		if i := slices.IndexFunc(z, func(v float64) bool { return v == 0 }); i >= 0 || !slices.Equal(z, want) {
			t.Errorf("m = %d: the helpers' deviates differ from fillPopulation's (first zero at %d)", m, i)
		}
	}
}

// blockJob is a rangeJob whose ranges wait for release before they
// return (at most 5 s, then noting the time-out), recording who computed
// them: a job the caller must not wait for.
type blockJob struct {
	recordJob
	release  chan struct{}
	timedOut atomic.Bool
}

func (j *blockJob) runRange(t *rowThreads, i, w int) {
	select {
	case <-j.release:
	case <-time.After(5 * time.Second):
		j.timedOut.Store(true)
	}
	j.recordJob.runRange(t, i, w)
}

// TestChainCarried checks chain: the job goes with the next call to its
// first helpers (as many as asked, at least one, at most all), each
// computing one range of it once the call's ranges are done; the call
// returns without waiting for it, and wait does; a job no call carried is
// computed by wait on the caller's goroutine, and unchain forgets it.
func TestChainCarried(t *testing.T) {
	pool := newRowThreads(4) // 3 helpers
	defer pool.stop()
	for _, c := range []struct{ asked, used, want int }{{1, 4, 1}, {2, 2, 2}, {3, 2, 3}, {2, 8, 2}, {7, 3, 3}, {0, 6, 1}} {
		carried := &blockJob{recordJob: recordJob{by: make([]atomic.Int64, 4), concurrent: true}, release: make(chan struct{})}
		if !pool.chain(carried, c.asked) {
			t.Fatal("chain refused on a running pool")
		}
		if !pool.drawing() {
			t.Errorf("%+v: a chained job is not reported as drawing", c)
		}
		call := &recordJob{by: make([]atomic.Int64, c.used), concurrent: true}
		pool.run(call, c.used) // returns while the carried ranges wait
		for i := range c.used {
			if call.by[i].Load() == 0 {
				t.Errorf("%+v: range %d of the call not computed", c, i)
			}
		}
		if !pool.drawing() {
			t.Errorf("%+v: the carried job is not reported as drawing while it runs", c)
		}
		close(carried.release)
		pool.wait()
		if carried.timedOut.Load() {
			t.Fatalf("%+v: the call waited for the job it carried", c)
		}
		if pool.drawing() {
			t.Errorf("%+v: drawing after wait", c)
		}
		for i := range carried.by {
			switch by := carried.by[i].Load() - 1; {
			case i < c.want && by != int64(i)+1:
				t.Errorf("%+v: carried range %d computed by goroutine %d, want helper %d", c, i, by, i+1)
			case i >= c.want && by != -1:
				t.Errorf("%+v: carried range %d of %d computed", c, i, c.want)
			}
		}
		if carried.twice.Load() || call.twice.Load() {
			t.Errorf("%+v: a range computed twice", c)
		}
	}
	// A call while a carried job runs starts only once it is done.
	carried := &blockJob{recordJob: recordJob{by: make([]atomic.Int64, 1), concurrent: true}, release: make(chan struct{})}
	pool.chain(carried, 1)
	pool.run(&recordJob{by: make([]atomic.Int64, 2), concurrent: true}, 2)
	next := &recordJob{by: make([]atomic.Int64, 2), concurrent: true}
	ran := make(chan struct{})
	go func() { pool.run(next, 2); close(ran) }()
	time.Sleep(20 * time.Millisecond)
	if next.by[0].Load() != 0 || next.by[1].Load() != 0 {
		t.Error("a call started while the job the last one carried was running")
	}
	close(carried.release)
	<-ran
	if next.by[0].Load() == 0 || next.by[1].Load() == 0 || carried.timedOut.Load() {
		t.Error("the call after the carried job did not compute its ranges")
	}
	// No call carries it: wait computes it on the caller's goroutine.
	alone := &recordJob{by: make([]atomic.Int64, 1)}
	pool.chain(alone, 1)
	pool.wait()
	if by := alone.by[0].Load() - 1; by != 0 {
		t.Errorf("a chained job no call carried: computed by goroutine %d, want the caller", by)
	}
	// Unchained: never computed, and the next call carries nothing.
	dropped := &recordJob{by: make([]atomic.Int64, 1)}
	pool.chain(dropped, 1)
	if !pool.unchain() || pool.unchain() {
		t.Error("unchain does not report the job it forgot once")
	}
	pool.run(&recordJob{by: make([]atomic.Int64, 2), concurrent: true}, 2)
	pool.wait()
	if dropped.by[0].Load() != 0 || pool.drawing() {
		t.Error("an unchained job was computed")
	}
	pool.stop()
	if pool.chain(dropped, 1) {
		t.Error("chain accepted a job on a stopped pool")
	}
}

// TestAskCarriesDeviates checks that a full-matrix optimizer whose
// sampling splits has its next deviates carried by the sampling's call:
// after Ask they are handed out (ahead), no longer wait for a call to carry
// them (chained), and the last call, the sampling, had a carrier (not the
// caller computing them in wait); the bits are TestThreadsDrawAhead's.
func TestAskCarriesDeviates(t *testing.T) {
	cfg := DefaultConfig(520)
	cfg.Threads, cfg.Seed = 2, 3
	o, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	fit := make([]float64, o.Lambda())
	for g := range 4 {
		xs := o.Ask()
		if !o.ahead || o.threads.chained || o.threads.carriers != 1 {
			t.Fatalf("generation %d: deviates ahead %v, still chained %v, carried by %d helpers: want them carried by the sampling's one helper",
				g, o.ahead, o.threads.chained, o.threads.carriers)
		}
		for i, x := range xs {
			fit[i] = x[0]
		}
		if err := o.Tell(fit); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSamplePlacement checks the split sampling with the placement: the
// candidates and the scaled steps are the bits of the whole call and the
// whole placement (kernel.MulVecsWork, population.place's
// kernel.ScaleAxpyRows), and a non-finite candidate in any range is
// reported.
func TestSamplePlacement(t *testing.T) {
	const n, k = 600, 5
	pool := newRowThreads(3)
	defer pool.stop()
	pool.size(n, k)
	rng := newXoshiro(5)
	a, z, m := make([]float64, n*n), make([]float64, k*n), make([]float64, n)
	fillNormal(rng, a)
	fillNormal(rng, z)
	fillNormal(rng, m)
	const sigma, s = 0.3, 1.7
	wantY, wantX := make([]float64, k*n), make([]float64, k*n)
	kernel.MulVecsWork(wantY, a, n, z, k, nil)
	if !kernel.ScaleAxpyRows(wantX, sigma, wantY, s, m, k) {
		t.Fatal("the reference candidates are not finite")
	}
	y, x := make([]float64, k*n), make([]float64, k*n)
	pl := &placement{x: x, m: m, sigma: sigma, s: s}
	split, finite := pool.sample(false, y, a, n, 0, 0, nil, nil, z, k, pl)
	if !split || !finite {
		t.Fatalf("split %v, finite %v: want both", split, finite)
	}
	for i := range x {
		if math.Float64bits(x[i]) != math.Float64bits(wantX[i]) || math.Float64bits(y[i]) != math.Float64bits(wantY[i]) {
			t.Fatalf("element %d: x %v, y %v; the whole calls give %v, %v", i, x[i], y[i], wantX[i], wantY[i])
		}
	}
	used := kernel.SplitRows(make([]int, len(pool.bounds)), n, pool.rowParts(n), threadMinRows)
	if used < 3 {
		t.Fatalf("%d ranges: the test wants at least 3", used)
	}
	for _, row := range []int{0, n / 2, n - 1} {
		m[row] = math.Inf(1)
		if _, finite := pool.sample(false, y, a, n, 0, 0, nil, nil, z, k, pl); finite {
			t.Errorf("m[%d] = +Inf: the candidates reported finite", row)
		}
		m[row] = 0
	}
	if _, finite := pool.sample(false, y, a, n, 0, 0, nil, nil, z, k, pl); !finite {
		t.Error("finite m again: the candidates reported not finite")
	}
}

// sameState reports whether x and y are in the same state (their scratch
// aside).
func (x *xoshiro) sameState(y *xoshiro) bool {
	return x.s0 == y.s0 && x.s1 == y.s1 && x.s2 == y.s2 && x.s3 == y.s3 && x.lanes == y.lanes
}
