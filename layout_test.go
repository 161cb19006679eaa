package mmaes_test

import (
	"encoding/binary"
	"hash/crc32"
	"math"
	"testing"

	"github.com/mmaes-go/mmaes"
)

// ckLayout gives the byte offsets of the fields of a version-7 checkpoint
// of o, from the format as MarshalBinary's doc comment states it: a second,
// independent description of the layout for the tests that rewrite fields.
func ckLayout(t testing.TB, o *mmaes.Optimizer) map[string]int {
	t.Helper()
	cfg := o.Config()
	// The Config's vectors are full length; the state is of the free
	// coordinates.
	full, mu := o.Dim(), o.Mu()
	n := full - len(cfg.Fixed)
	hist := o.Params().TolFunHist
	off := map[string]int{}
	pos := 12
	word := func(name string) { off[name] = pos; pos += 8 }
	vec := func(name string, k int) { off[name] = pos; pos += 8 * k }
	for _, f := range []string{"Dim", "Seed", "Sigma", "Update", "Lambda", "Mu", "C", "C1", "CSigma", "DSigma",
		"TargetF", "MaxEvals", "MaxGenerations", "TolFun", "TolFunHist", "TolX", "MaxCondition",
		"NoEffect", "Stagnation", "FlatFitness", "Hopeless", "Endless", "RankMu", "CMu",
		"Active", "Restart", "MaxRestarts", "Workers", "MaxMemory"} {
		word("cfg." + f)
	}
	vec("cfg.Mean", full)
	word("cfg.hasLower")
	if cfg.Lower != nil {
		vec("cfg.Lower", full)
	}
	word("cfg.hasUpper")
	if cfg.Upper != nil {
		vec("cfg.Upper", full)
	}
	word("cfg.hasScales")
	if cfg.Scales != nil {
		vec("cfg.Scales", full)
	}
	word("cfg.MinStd")
	word("cfg.MaxStd")
	word("cfg.Noise")
	word("cfg.nInteger")
	vec("cfg.Integer", len(cfg.Integer))
	word("cfg.nFixed")
	vec("cfg.Fixed", 2*len(cfg.Fixed))
	word("cfg.Memory")
	word("cfg.FastMemory")
	word("par.Lambda")
	word("par.Mu")
	vec("par.Weights", mu)
	for _, f := range []string{"MuEff", "C", "C1", "CSigma", "DSigma", "ChiN", "TolFunHist", "CMu"} {
		word("par." + f)
	}
	if cfg.Active {
		vec("par.NegWeights", o.Lambda()-mu)
	}
	word("par.Stagnation")
	for _, f := range []string{"gen", "evals", "reason", "fired", "asked"} {
		word(f)
	}
	vec("m", n)
	word("sigma")
	vec("s", n)
	word("best.ok")
	word("best.f")
	vec("best.x", n)
	word("hist.pos")
	word("hist.len")
	vec("hist", hist)
	for _, f := range []string{"restarts", "run.gen", "run.evals0", "run.maxGen"} {
		word(f)
	}
	if cfg.Restart == mmaes.BIPOP {
		for _, f := range []string{"bipop.small", "bipop.large", "bipop.evalsSmall", "bipop.evalsLarge"} {
			word(f)
		}
	}
	for _, f := range []string{"watch.bestBefore", "watch.best", "watch.bestGen", "watch.flat", "watch.recPos", "watch.recLen"} {
		word(f)
	}
	if cfg.Stagnation {
		records := 20000
		if cfg.MaxGenerations > 0 {
			records = min(records, cfg.MaxGenerations/5+1)
		}
		vec("watch.records", 2*records)
	}
	integer := 0 // the integer coordinates searched
	for _, i := range cfg.Integer {
		if _, fixed := cfg.Fixed[i]; !fixed {
			integer++
		}
	}
	if integer > 0 {
		vec("margin.d", integer)
	}
	if cfg.Noise {
		for _, f := range []string{"etaM", "etaS", "vm", "vs"} {
			word("noise." + f)
		}
		vec("noise.em", n)
		vec("noise.es", n*n)
	}
	word("inject.queued") // no injection in the layout's optimizers
	word("inject.count")
	word("inject.led")
	word("scale")
	word("rowA")
	word("rowAInv")
	vec("p", n)
	vec("v", n)
	vec("A", n*n)
	if cfg.Update == mmaes.Cholesky {
		vec("AInv", n*n)
	}
	vec("Z", o.Lambda()*n)
	vec("Y", o.Lambda()*n)
	off["generator"] = pos
	return off
}

// rewrite returns b with the word at off set to v and the CRC fixed.
func rewrite(b []byte, off int, v uint64) []byte {
	b = append([]byte(nil), b...)
	binary.LittleEndian.PutUint64(b[off:], v)
	binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.ChecksumIEEE(b[:len(b)-4]))
	return b
}

// TestCkLayout checks ckLayout against a checkpoint: the fields it names
// hold the optimizer's values, and the length is the layout's plus the
// generator's 36 words and the CRC.
func TestCkLayout(t *testing.T) {
	for _, cfg := range []mmaes.Config{featureConfig(mmaes.BIPOP), startConfig(4, mmaes.Cholesky, 3)} {
		o := mustNew(t, cfg)
		runGensAny(t, o, sphere, 5)
		o.Ask()
		b := state(t, o)
		off := ckLayout(t, o)
		u := func(name string) uint64 { return binary.LittleEndian.Uint64(b[off[name]:]) }
		f := func(name string) float64 { return math.Float64frombits(u(name)) }
		if int(u("cfg.Dim")) != o.Dim() || int(u("par.Lambda")) != o.Lambda() || int(u("gen")) != o.Generation() ||
			int(u("evals")) != o.Evals() || f("sigma") != o.Sigma() || f("m") != o.Mean()[0] ||
			int(u("restarts")) != o.Restarts() || f("best.f") != o.BestF() || u("asked") != 1 {
			t.Fatalf("%v: the layout does not match the checkpoint", cfg.Update)
		}
		n, lam := o.Dim()-len(o.Config().Fixed), o.Lambda()
		if want := off["Y"] + 8*lam*n + 8*36 + 4; len(b) != want {
			t.Fatalf("%v: %d bytes, layout %d", cfg.Update, len(b), want)
		}
	}
}
