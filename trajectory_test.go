package mmaes_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/mmaes-go/mmaes"
	"github.com/mmaes-go/mmaes/kernel"
)

// The trajectories of the optimizer, pinned. Each configuration below runs
// with an observer that hashes the mean and σ after every generation, and
// at the end the best point and value, the counters, the reason and A. The
// hashes were recorded from the code as it was before the optimizer was
// split into a driver and a search distribution, once for each kernel path
// (the paths round differently, so each has its own trajectories): a change
// of any bit of any generation fails the test. A change of behaviour that is
// meant records new hashes with
//
//	MMAES_PIN_PRINT=1 go test -run TestTrajectories -v
//
// (and GODEBUG=cpu.avx512f=off, GODEBUG=cpu.all=off, -tags purego,
// GOARCH=arm64 -exec qemu-aarch64-static, GOARCH=386 for the other paths),
// and says so in its commit. Recorded again since: the three sphere/n=2/long
// runs, when the optimizer began to rebalance the scales of σ and A (their
// means, σ·A and best points are the same bits: TestRebalanceExact); and the
// LMMA cases on AVX-512 were recorded where that path first ran DotRows in
// 8 lanes (an Intel Xeon with AVX-512).

// pinCase is one pinned configuration: a config, an objective, and whether
// to drive it by Ask/Tell (with a checkpoint round trip in the middle) or by
// Optimize.
type pinCase struct {
	name    string
	cfg     func() mmaes.Config
	f       func([]float64) float64
	askTell bool // drive by Ask/Tell, restoring from a checkpoint at gen 7
	long    bool // skipped with -short
}

func shifted(f func([]float64) float64, c float64) func([]float64) float64 {
	return func(x []float64) float64 {
		var buf [64]float64
		y := buf[:0]
		if len(x) > len(buf) {
			y = make([]float64, 0, len(x))
		}
		for _, xi := range x {
			y = append(y, xi-c)
		}
		return f(y)
	}
}

func rosenbrock(x []float64) float64 {
	s := 0.0
	for i := 0; i+1 < len(x); i++ {
		a, b := x[i]*x[i]-x[i+1], x[i]-1
		s += 100*a*a + b*b
	}
	return s
}

func rastrigin(x []float64) float64 {
	s := 10 * float64(len(x))
	for _, v := range x {
		s += v*v - 10*math.Cos(2*math.Pi*v)
	}
	return s
}

// nanOutside is f, but NaN where x_0 > 1 (an infeasible region).
func nanOutside(f func([]float64) float64) func([]float64) float64 {
	return func(x []float64) float64 {
		if x[0] > 1 {
			return math.NaN()
		}
		return f(x)
	}
}

func pinCases() []pinCase {
	// LMMA's cases were recorded before its fast terms: they run without
	// them (FastMemory −1), the cases "lmma/fast/…" with them.
	base := func(n int, u mmaes.Update, seed uint64) func() mmaes.Config {
		return func() mmaes.Config {
			cfg := startConfig(n, u, seed)
			if u == mmaes.LMMA {
				cfg.FastMemory = -1
			}
			return cfg
		}
	}
	fast := func(n int, seed uint64) func() mmaes.Config {
		return func() mmaes.Config { return startConfig(n, mmaes.LMMA, seed) }
	}
	with := func(c func() mmaes.Config, mod func(*mmaes.Config)) func() mmaes.Config {
		return func() mmaes.Config { cfg := c(); mod(&cfg); return cfg }
	}
	target := func(cfg *mmaes.Config) { cfg.TargetF = 1e-10 }
	var cases []pinCase
	for _, u := range allUpdates {
		name := strings.ToLower(u.String())
		cases = append(cases,
			pinCase{name: name + "/sphere/n=2", cfg: base(2, u, 1), f: sphere},
			pinCase{name: name + "/ellipsoid/n=8", cfg: with(base(8, u, 2), target), f: ellipsoid},
			pinCase{name: name + "/ellipsoid/n=8/asktell", cfg: with(base(8, u, 3), target), f: ellipsoid, askTell: true},
			pinCase{name: name + "/rosenbrock/n=33", cfg: with(base(33, u, 4), func(c *mmaes.Config) { c.MaxGenerations = 600 }), f: rosenbrock},
			pinCase{name: name + "/ellipsoid/n=300", cfg: with(base(300, u, 5), func(c *mmaes.Config) { c.MaxGenerations = 30 }), f: ellipsoid, long: true},
			pinCase{name: name + "/ellipsoid/n=1031", cfg: with(base(1031, u, 6), func(c *mmaes.Config) { c.MaxGenerations = 12 }), f: ellipsoid, long: true},
			// Long enough for several exact rescalings of A's scale.
			pinCase{name: name + "/sphere/n=2/long", cfg: with(base(2, u, 7), func(c *mmaes.Config) {
				c.TolFun, c.TolX, c.MaxCondition, c.MaxGenerations = 0, 0, 0, 2500
			}), f: sphere},
			pinCase{name: name + "/nan-region/n=4", cfg: with(base(4, u, 8), func(c *mmaes.Config) {
				c.Mean = []float64{0, 3, -2, 1}
			}), f: nanOutside(shifted(sphere, 2))},
			pinCase{name: name + "/condition/n=3", cfg: with(base(3, u, 9), func(c *mmaes.Config) {
				c.MaxCondition, c.TolX = 1e4, 0
			}), f: ellipsoid},
		)
	}
	rankMu := func(c *mmaes.Config) { c.RankMu = true }
	lmma := func(c *mmaes.Config) { c.Update, c.Memory, c.C, c.FastMemory = mmaes.LMMA, 4, 0.3, -1 } // windows of 3: the memory wraps; no fast terms
	cases = append(cases,
		pinCase{name: "lmma/short-windows/rosenbrock/n=40", cfg: with(with(base(40, mmaes.LMMA, 22), lmma), func(c *mmaes.Config) {
			c.MaxGenerations = 400
		}), f: rosenbrock},
		pinCase{name: "lmma/bipop/bounds/workers/rastrigin/n=6", cfg: with(with(base(6, mmaes.LMMA, 23), lmma), func(c *mmaes.Config) {
			c.Restart, c.MaxEvals, c.Workers = mmaes.BIPOP, 30000, 2
			c.Lower, c.Upper = []float64{-5, -5, -5, -5, -5, -5}, []float64{5, 5, 5, 5, 5, 5}
			c.Mean = []float64{1, 2, 3, 4, -1, -2}
		}), f: rastrigin, askTell: false},
		pinCase{name: "lmma/scales/ellipsoid/n=20/asktell", cfg: with(with(base(20, mmaes.LMMA, 24), lmma), func(c *mmaes.Config) {
			c.Scales = make([]float64, 20)
			for i := range c.Scales {
				c.Scales[i] = 1 + float64(i%4)
			}
			c.TargetF = 1e-10
		}), f: ellipsoid, askTell: true},
		// The defaults: the fast ring and the slow one both wrap.
		pinCase{name: "lmma/fast/rosenbrock/n=12", cfg: with(fast(12, 25), func(c *mmaes.Config) {
			c.MaxGenerations = 700
		}), f: rosenbrock},
		pinCase{name: "lmma/fast/ellipsoid/n=30/asktell", cfg: with(fast(30, 26), target), f: ellipsoid, askTell: true},
		pinCase{name: "rankmu/ellipsoid/n=16", cfg: with(with(base(16, mmaes.MMA, 10), rankMu), target), f: ellipsoid},
		pinCase{name: "rankmu/ellipsoid/n=16/asktell", cfg: with(with(base(16, mmaes.MMA, 11), rankMu), target), f: ellipsoid, askTell: true},
		pinCase{name: "rankmu/lambda=100/rosenbrock/n=10", cfg: with(base(10, mmaes.MMA, 12), func(c *mmaes.Config) {
			c.RankMu, c.Lambda, c.MaxGenerations = true, 100, 300
		}), f: rosenbrock},
		pinCase{name: "rankmu/ellipsoid/n=300", cfg: with(base(300, mmaes.MMA, 13), func(c *mmaes.Config) {
			c.RankMu, c.MaxGenerations = true, 20
		}), f: ellipsoid, long: true},
		pinCase{name: "ipop/rastrigin/n=5", cfg: with(base(5, mmaes.MMA, 14), func(c *mmaes.Config) {
			c.Restart, c.MaxEvals, c.TargetF = mmaes.IPOP, 60000, 1e-8
		}), f: rastrigin},
		pinCase{name: "ipop/cholesky/rastrigin/n=4/asktell", cfg: with(base(4, mmaes.Cholesky, 15), func(c *mmaes.Config) {
			c.Restart, c.MaxRestarts, c.MaxEvals = mmaes.IPOP, 3, 30000
		}), f: rastrigin, askTell: true},
		pinCase{name: "bipop/rankmu/rastrigin/n=5", cfg: with(base(5, mmaes.MMA, 16), func(c *mmaes.Config) {
			c.Restart, c.RankMu, c.MaxEvals, c.TargetF = mmaes.BIPOP, true, 80000, 1e-8
		}), f: rastrigin},
		pinCase{name: "bipop/ecma/rastrigin/n=3/asktell", cfg: with(base(3, mmaes.ECMA, 17), func(c *mmaes.Config) {
			c.Restart, c.MaxRestarts, c.MaxEvals = mmaes.BIPOP, 4, 40000
		}), f: rastrigin, askTell: true},
		pinCase{name: "bipop/nan-region/n=4", cfg: with(base(4, mmaes.MMA, 18), func(c *mmaes.Config) {
			c.Restart, c.MaxEvals, c.Mean = mmaes.BIPOP, 20000, []float64{0, 3, -2, 1}
		}), f: nanOutside(rastrigin)},
		pinCase{name: "bounds/sphere/n=6", cfg: with(base(6, mmaes.MMA, 19), func(c *mmaes.Config) {
			c.Lower = []float64{1, -10, -10, 0.5, -1, -3}
			c.Upper = []float64{10, 10, 10, 10, 10, -3}
			c.Mean = []float64{5, 0, 0, 5, 5, -3}
			c.TargetF = 1e-10
		}), f: sphere},
		pinCase{name: "bounds/rankmu/ipop/rastrigin/n=4/asktell", cfg: with(base(4, mmaes.MMA, 20), func(c *mmaes.Config) {
			c.Lower, c.Upper = []float64{-5, -5, -5, -5}, []float64{5, 5, 5, math.Inf(1)}
			c.Mean = []float64{1, 2, 3, 4}
			c.RankMu, c.Restart, c.MaxEvals = true, mmaes.IPOP, 20000
		}), f: rastrigin, askTell: true},
		pinCase{name: "workers/ellipsoid/n=8", cfg: with(base(8, mmaes.MMA, 2), func(c *mmaes.Config) {
			c.TargetF, c.Workers = 1e-10, 3
		}), f: ellipsoid},
		pinCase{name: "workers/bipop/rankmu/rastrigin/n=5", cfg: with(base(5, mmaes.MMA, 16), func(c *mmaes.Config) {
			c.Restart, c.RankMu, c.MaxEvals, c.TargetF, c.Workers = mmaes.BIPOP, true, 80000, 1e-8, 2
		}), f: rastrigin},
		pinCase{name: "custom-rates/ellipsoid/n=6", cfg: with(base(6, mmaes.MMA, 21), func(c *mmaes.Config) {
			c.Lambda, c.Mu, c.C, c.C1, c.CSigma, c.DSigma, c.TolFunHist = 12, 3, 0.3, 0.05, 0.4, 2, 7
		}), f: ellipsoid},
	)
	return cases
}

// hashFloats writes the bits of xs to h.
func hashFloats(h hash.Hash64, xs ...float64) {
	var b [8]byte
	for _, x := range xs {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(x))
		h.Write(b[:])
	}
}

func hashInts(h hash.Hash64, xs ...int) {
	var b [8]byte
	for _, x := range xs {
		binary.LittleEndian.PutUint64(b[:], uint64(x))
		h.Write(b[:])
	}
}

// runPin runs c and returns its hash.
func runPin(t *testing.T, c pinCase) uint64 {
	h := fnv.New64a()
	observe := func(o *mmaes.Optimizer) {
		hashInts(h, o.Generation(), o.Evals(), o.Restarts(), o.Lambda(), int(o.Reason()))
		hashFloats(h, o.Sigma())
		hashFloats(h, o.Mean()...)
	}
	cfg := c.cfg()
	cfg.Observer = observe
	o := mustNew(t, cfg)
	if !c.askTell {
		if _, err := o.Optimize(context.Background(), c.f); err != nil && !o.Reason().Failed() {
			t.Fatalf("%s: %v", c.name, err)
		}
	} else {
		var fit []float64
		for o.Reason() == mmaes.NotStopped {
			if o.Generation() == 7 {
				// Restore from a checkpoint taken between Ask and Tell.
				o.Ask()
				b, err := o.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				var r mmaes.Optimizer
				if err := r.UnmarshalBinary(b); err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				r.SetObserver(observe)
				o = &r
			}
			xs := o.Ask()
			if xs == nil {
				break
			}
			fit = fit[:0]
			for _, x := range xs {
				fit = append(fit, c.f(x))
			}
			if err := o.Tell(fit); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}
	}
	res := o.Result()
	hashInts(h, res.Evals, res.Generations, res.Restarts, int(res.Reason))
	hashFloats(h, res.F)
	hashFloats(h, res.X...)
	hashFloats(h, o.A()...)
	hashFloats(h, o.P()...)
	hashFloats(h, o.V()...)
	hashFloats(h, o.S()...)
	return h.Sum64()
}

// pinPath names the kernel path and architecture the hashes belong to. The
// generic path differs between -tags purego and GODEBUG=cpu.all=off: the
// latter also turns off the FMA in the standard library's math.Exp.
func pinPath() string { return runtime.GOARCH + "/" + kernel.Impl() + pinTag }

// pinTag is "+purego" in a purego build.
var pinTag = ""

// TestTrajectories runs every pinned configuration and compares its hash
// with the one recorded for this kernel path.
func TestTrajectories(t *testing.T) {
	want, ok := pinned[pinPath()]
	print := os.Getenv("MMAES_PIN_PRINT") != ""
	if !ok && !print {
		t.Skipf("no trajectories recorded for %s", pinPath())
	}
	got := map[string]uint64{}
	for _, c := range pinCases() {
		if c.long && testing.Short() {
			continue
		}
		got[c.name] = runPin(t, c)
		if !print {
			if w, ok := want[c.name]; !ok {
				t.Errorf("%s: no hash recorded for %s", c.name, pinPath())
			} else if got[c.name] != w {
				t.Errorf("%s on %s: trajectory hash %#016x, recorded %#016x", c.name, pinPath(), got[c.name], w)
			}
		}
	}
	if print {
		names := make([]string, 0, len(got))
		for k := range got {
			names = append(names, k)
		}
		sort.Strings(names)
		var b strings.Builder
		fmt.Fprintf(&b, "\t%q: {\n", pinPath())
		for _, k := range names {
			fmt.Fprintf(&b, "\t\t%q: %#016x,\n", k, got[k])
		}
		b.WriteString("\t},\n")
		t.Log("\n" + b.String())
		if dir := os.Getenv("MMAES_PIN_PRINT"); dir != "1" {
			os.WriteFile(filepath.Join(dir, strings.ReplaceAll(pinPath(), "/", "-")+".txt"), []byte(b.String()), 0o644)
		}
	}
}

// Checkpoints written by format version 3, pinned: testdata/checkpoint-v3
// holds checkpoints that the code before the split into driver and
// distribution wrote (MMAES_PIN_WRITE_V3=dir writes them anew, which is
// only meaningful with that code), and v3Cases how they were made. Each is
// restored and continued for up to 40 generations; the hash of that
// continuation (as runPin's) was recorded per kernel path like the
// trajectories.
type v3Case struct {
	name string
	cfg  func() mmaes.Config
	f    func([]float64) float64
	gens int  // generations before the checkpoint
	ask  bool // checkpoint between Ask and Tell
}

func v3Cases() []v3Case {
	cfg := func(n int, u mmaes.Update, seed uint64, mod func(*mmaes.Config)) func() mmaes.Config {
		return func() mmaes.Config {
			c := startConfig(n, u, seed)
			if mod != nil {
				mod(&c)
			}
			return c
		}
	}
	return []v3Case{
		{"mma-n8-asked", cfg(8, mmaes.MMA, 31, nil), ellipsoid, 40, true},
		{"ecma-n5", cfg(5, mmaes.ECMA, 32, nil), ellipsoid, 30, false},
		{"cholesky-n8-asked", cfg(8, mmaes.Cholesky, 33, nil), ellipsoid, 50, true},
		{"mma-n2-rescaled", cfg(2, mmaes.MMA, 34, func(c *mmaes.Config) {
			c.TolFun, c.TolX, c.MaxCondition, c.MaxGenerations, c.Endless = 0, 0, 0, 0, true
		}), sphere, 700, false},
		{"rankmu-bipop-bounds-n4-asked", cfg(4, mmaes.MMA, 35, func(c *mmaes.Config) {
			c.RankMu, c.Restart, c.MaxEvals = true, mmaes.BIPOP, 50000
			c.Lower, c.Upper = []float64{-5, -5, -5, -5}, []float64{5, 5, 5, 5}
			c.Mean = []float64{1, 2, 3, 4}
		}), rastrigin, 1500, true},
		{"ipop-n3-stopped", cfg(3, mmaes.MMA, 36, func(c *mmaes.Config) {
			c.Restart, c.MaxRestarts, c.MaxEvals = mmaes.IPOP, 2, 0
		}), rastrigin, 100000, false},
	}
}

// makeV3 runs c up to its checkpoint.
func makeV3(t *testing.T, c v3Case) *mmaes.Optimizer {
	o := mustNew(t, c.cfg())
	for g := 0; g < c.gens && o.Reason() == mmaes.NotStopped; g++ {
		xs := o.Ask()
		if xs == nil {
			break
		}
		fit := make([]float64, len(xs))
		for i, x := range xs {
			fit[i] = c.f(x)
		}
		if err := o.Tell(fit); err != nil {
			t.Fatal(err)
		}
	}
	if c.ask {
		o.Ask()
	}
	return o
}

// continueHash restores b and hashes up to 40 more generations.
func continueHash(t *testing.T, b []byte, f func([]float64) float64) uint64 {
	var o mmaes.Optimizer
	if err := o.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	o.SetObserver(func(o *mmaes.Optimizer) {
		hashInts(h, o.Generation(), o.Evals(), o.Restarts(), o.Lambda(), int(o.Reason()))
		hashFloats(h, o.Sigma())
		hashFloats(h, o.Mean()...)
	})
	for g := 0; g < 40; g++ {
		xs := o.Ask()
		if xs == nil {
			break
		}
		fit := make([]float64, len(xs))
		for i, x := range xs {
			fit[i] = f(x)
		}
		if err := o.Tell(fit); err != nil {
			t.Fatal(err)
		}
	}
	res := o.Result()
	hashInts(h, res.Evals, res.Generations, res.Restarts, int(res.Reason))
	hashFloats(h, res.F)
	hashFloats(h, res.X...)
	hashFloats(h, o.A()...)
	hashFloats(h, o.S()...)
	return h.Sum64()
}

// TestCheckpointV3 restores the pinned checkpoints of versions 3 to 6 and
// 8 (the same states, written by the code of each version; those of
// versions 6 and 8 are the checkpoints of the version before restored and
// marshalled by the code of that version, since the states themselves
// depend on the kernel path that made them) and compares their
// continuations with the recorded hashes.
func TestCheckpointV3(t *testing.T) {
	if dir := os.Getenv("MMAES_PIN_WRITE_V3"); dir != "" {
		for _, c := range v3Cases() {
			b, err := makeV3(t, c).MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, c.name+".ckp"), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	want, ok := pinnedV3[pinPath()]
	print := os.Getenv("MMAES_PIN_PRINT") != ""
	if !ok && !print {
		t.Skipf("no continuations recorded for %s", pinPath())
	}
	var b strings.Builder
	for _, c := range v3Cases() {
		for _, version := range []uint32{3, 4, 5, 6, 8} {
			data, err := os.ReadFile(filepath.Join("testdata", fmt.Sprintf("checkpoint-v%d", version), c.name+".ckp"))
			if err != nil {
				t.Fatal(err)
			}
			if v := binary.LittleEndian.Uint32(data[8:]); v != version {
				t.Fatalf("%s: version %d, want %d", c.name, v, version)
			}
			got := continueHash(t, data, c.f)
			if version == 3 {
				fmt.Fprintf(&b, "\t\t%q: %#016x,\n", c.name, got)
			}
			// Rewritten in the current version, it continues the same.
			var o mmaes.Optimizer
			if err := o.UnmarshalBinary(data); err != nil {
				t.Fatal(err)
			}
			if again := continueHash(t, state(t, &o), c.f); again != got {
				t.Errorf("%s: continues differently once rewritten in the current version", c.name)
			}
			if !print && got != want[c.name] {
				t.Errorf("%s (version %d) on %s: continuation hash %#016x, recorded %#016x", c.name, version, pinPath(), got, want[c.name])
			}
		}
	}
	if print {
		out := fmt.Sprintf("\t%q: {\n%s\t},\n", pinPath(), b.String())
		t.Log("\n" + out)
		if dir := os.Getenv("MMAES_PIN_PRINT"); dir != "1" {
			os.WriteFile(filepath.Join(dir, "v3-"+strings.ReplaceAll(pinPath(), "/", "-")+".txt"), []byte(out), 0o644)
		}
	}
}
