package mmaes_test

import (
	"bytes"
	"errors"
	"math"
	"runtime"
	"slices"
	"sort"
	"testing"

	"github.com/mmaes-go/mmaes"
)

// TestCheckpointWrittenViews: the caller may write into Ask's views (they
// do not feed the update). A checkpoint taken after that is read back, the
// restored run hands out the candidates the optimizer computed, and
// Result.X is the evaluated point, not what was written into its view.
func TestCheckpointWrittenViews(t *testing.T) {
	cfg := featureConfig(mmaes.IPOP)
	o := mustNew(t, cfg)
	runGensAny(t, o, sphere, 2)
	xs := o.Ask()
	orig := make([][]float64, len(xs))
	for i, x := range xs {
		orig[i] = slices.Clone(x)
		for j := range x {
			x[j] = math.NaN()
		}
	}
	var r mmaes.Optimizer
	if err := r.UnmarshalBinary(state(t, o)); err != nil {
		t.Fatalf("a checkpoint the library wrote is refused: %v", err)
	}
	for i, x := range r.Ask() {
		if !slices.Equal(x, orig[i]) {
			t.Fatalf("restored candidate %d = %v, computed %v", i, x, orig[i])
		}
	}
	// The best of this generation is candidate 0; its view now holds 1e9s.
	fit := make([]float64, len(xs))
	for i := range fit {
		fit[i] = float64(i) - 1e6
	}
	for j := range xs[0] {
		xs[0][j] = 1e9
	}
	if err := o.Tell(fit); err != nil {
		t.Fatal(err)
	}
	if res := o.Result(); res.F != -1e6 || !slices.Equal(res.X, orig[0]) {
		t.Errorf("Result = %v at %v, want -1e6 at the evaluated %v", res.F, res.X, orig[0])
	}
}

// TestCheckpointForged: inputs with a valid checksum whose fields are
// inconsistent are refused: counters that would overflow, a best value
// that is NaN for a found best point, weights that do not belong to μ, a
// best point outside the box, parameters of another config.
func TestCheckpointForged(t *testing.T) {
	o := mustNew(t, featureConfig(mmaes.BIPOP))
	runGensAny(t, o, sphere, 6)
	o.Ask()
	good := state(t, o)
	off := ckLayout(t, o)
	bits := math.Float64bits
	for _, c := range []struct {
		name string
		off  int
		v    uint64
	}{
		{"generations near MaxInt", off["gen"], math.MaxInt64 - 5},
		{"evaluations near MaxInt", off["evals"], math.MaxInt64 - 5},
		{"evaluations 2^61", off["evals"], 1 << 61},
		{"run generations huge", off["run.maxGen"], math.MaxInt64},
		{"best value NaN", off["best.f"], bits(math.NaN())},
		{"best point outside the box", off["best.x"], bits(-20)},
		{"best point NaN", off["best.x"] + 8, bits(math.NaN())},
		{"weight 0", off["par.Weights"], 0},
		{"weight -1e300", off["par.Weights"] + 8, bits(-1e300)},
		{"c1 of another config", off["par.C1"], bits(0.3)},
		{"d_σ off by 1e-9", off["par.DSigma"], bits(math.Float64frombits(binaryWord(good, off["par.DSigma"])) * (1 + 1e-9))},
		{"pending step infinite", off["Y"], bits(math.Inf(1))},
		{"row bound of A below its rows", off["rowA"], bits(1e-3)},
	} {
		var r mmaes.Optimizer
		if err := r.UnmarshalBinary(rewrite(good, c.off, c.v)); !errors.Is(err, mmaes.ErrCheckpoint) {
			t.Errorf("%s: err = %v", c.name, err)
		}
	}
	// A NaN among the recorded best values (one recorded).
	var h mmaes.Optimizer
	b := rewrite(rewrite(rewrite(good, off["hist.len"], 1), off["hist.pos"], 1), off["hist"], bits(math.NaN()))
	if err := h.UnmarshalBinary(b); !errors.Is(err, mmaes.ErrCheckpoint) {
		t.Errorf("NaN in the TolFun history: err = %v", err)
	}
	// The untouched input still loads.
	var r mmaes.Optimizer
	if err := r.UnmarshalBinary(good); err != nil {
		t.Fatal(err)
	}
}

func binaryWord(b []byte, off int) uint64 {
	var w uint64
	for i := 7; i >= 0; i-- {
		w = w<<8 | uint64(b[off+i])
	}
	return w
}

// TestCheckpointSmallInputNoBigAllocation: a small input whose config asks
// for a huge population or history is refused before anything sized by it
// is allocated.
func TestCheckpointSmallInputNoBigAllocation(t *testing.T) {
	o := mustNew(t, startConfig(3, mmaes.MMA, 1))
	runGens(t, o, sphere, 2)
	good := state(t, o)
	off := ckLayout(t, o)
	for _, c := range []struct {
		name string
		off  int
		v    uint64
	}{
		{"Lambda 2^20", off["cfg.Lambda"], 1 << 20},
		{"λ 2^20", off["par.Lambda"], 1 << 20},
		{"TolFunHist 2^24", off["cfg.TolFunHist"], 1 << 24},
		{"Dim 2^20", off["cfg.Dim"], 1 << 20},
	} {
		b := rewrite(good, c.off, c.v)
		var ms0, ms1 runtime.MemStats
		runtime.ReadMemStats(&ms0)
		var r mmaes.Optimizer
		err := r.UnmarshalBinary(b)
		runtime.ReadMemStats(&ms1)
		if !errors.Is(err, mmaes.ErrCheckpoint) {
			t.Errorf("%s: err = %v", c.name, err)
		}
		if a := ms1.TotalAlloc - ms0.TotalAlloc; a > 1<<20 {
			t.Errorf("%s: %d bytes allocated for a %d-byte input", c.name, a, len(b))
		}
	}
}

// FuzzCheckpointFields writes a fuzzed value into one field of a valid
// checkpoint and fixes the checksum. An input the decoder accepts must be
// consistent: it marshals back to itself, and the restored optimizer runs
// generations whose counters grow by λ and 1, with a finite σ > 0, mean
// and best point, and the best point in the box.
func FuzzCheckpointFields(f *testing.F) {
	type seed struct {
		cfg   mmaes.Config
		gens  int
		asked bool
	}
	seeds := []seed{
		{featureConfig(mmaes.BIPOP), 6, true},
		{featureConfig(mmaes.IPOP), 9, false},
		{startConfig(4, mmaes.Cholesky, 2), 5, true},
		{startConfig(3, mmaes.ECMA, 3), 3, false},
	}
	type base struct {
		b      []byte
		fields []string
		off    map[string]int
	}
	var bases []base
	for _, s := range seeds {
		o := mustNew(f, s.cfg)
		runGensAny(f, o, sphere, s.gens)
		if s.asked {
			o.Ask()
		}
		off := ckLayout(f, o)
		names := make([]string, 0, len(off))
		for k := range off {
			names = append(names, k)
		}
		sort.Strings(names)
		bases = append(bases, base{state(f, o), names, off})
	}
	for i := range bases {
		for j := range 6 {
			f.Add(uint8(i), uint16(j*7), uint8(j), uint64(j)<<60)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, field uint16, word uint8, v uint64) {
		bs := bases[int(which)%len(bases)]
		name := bs.fields[int(field)%len(bs.fields)]
		o := bs.off[name] + 8*int(word%4)
		if o+8 > len(bs.b)-4 {
			return
		}
		b := rewrite(bs.b, o, v)
		var r mmaes.Optimizer
		if err := r.UnmarshalBinary(b); err != nil {
			if !errors.Is(err, mmaes.ErrCheckpoint) {
				t.Fatalf("%s: error %v does not wrap ErrCheckpoint", name, err)
			}
			return
		}
		if !bytes.Equal(state(t, &r), b) {
			t.Fatalf("%s = %#x accepted but does not round-trip", name, v)
		}
		checkConsistent(t, name, &r)
	})
}

// checkConsistent runs a few generations of a restored optimizer and checks
// its invariants.
func checkConsistent(t *testing.T, name string, o *mmaes.Optimizer) {
	t.Helper()
	cfg := o.Config()
	inBox := func(x []float64) bool {
		for i, xi := range x {
			if !(xi >= -math.MaxFloat64 && xi <= math.MaxFloat64) ||
				cfg.Lower != nil && xi < cfg.Lower[i] || cfg.Upper != nil && xi > cfg.Upper[i] {
				return false
			}
		}
		return true
	}
	for g := 0; g < 3; g++ {
		res := o.Result()
		if !inBox(res.X) || math.IsNaN(res.F) != math.IsNaN(o.BestF()) {
			t.Fatalf("%s: best %v at %v", name, res.F, res.X)
		}
		if o.Reason() != mmaes.NotStopped {
			if o.Ask() != nil {
				t.Fatalf("%s: a stopped run hands out candidates", name)
			}
			return
		}
		if s := o.Sigma(); !(s > 0 && s <= math.MaxFloat64) {
			t.Fatalf("%s: σ = %v in a live run", name, s)
		}
		for _, m := range o.Mean() {
			if !(math.Abs(m) <= math.MaxFloat64) {
				t.Fatalf("%s: mean %v", name, o.Mean())
			}
		}
		evals, gen := o.Evals(), o.Generation()
		xs := o.Ask()
		if xs == nil {
			return // a breakdown found by sampling
		}
		fit := make([]float64, len(xs))
		for i, x := range xs {
			if !inBox(x) {
				t.Fatalf("%s: candidate %v outside the box", name, x)
			}
			fit[i] = sphere(x)
		}
		lam := len(xs)
		if err := o.Tell(fit); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if o.Evals() != evals+lam || o.Generation() != gen+1 {
			t.Fatalf("%s: counters %d, %d after %d, %d and λ = %d", name, o.Evals(), o.Generation(), evals, gen, lam)
		}
	}
}
