package mmaes_test

import (
	"bytes"
	"encoding"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/mmaes-go/mmaes"
)

var (
	_ encoding.BinaryMarshaler   = (*mmaes.Optimizer)(nil)
	_ encoding.BinaryUnmarshaler = (*mmaes.Optimizer)(nil)
)

// runGens runs g generations of f on o by Ask and Tell (fewer if it stops).
func runGens(t testing.TB, o *mmaes.Optimizer, f func([]float64) float64, g int) {
	t.Helper()
	fit := make([]float64, o.Lambda())
	for i := 0; i < g && o.Reason() == mmaes.NotStopped; i++ {
		step(t, o, f, fit)
	}
}

func ckConfig(u mmaes.Update) mmaes.Config {
	cfg := startConfig(6, u, 42)
	cfg.TolFun, cfg.TolX = 0, 0 // keep going for the whole test
	return cfg
}

// TestCheckpointResume runs N generations, saves, restores into a fresh
// Optimizer, runs M more, and compares with the run of N+M generations
// never interrupted: the states must be identical bit for bit. It also
// saves between Ask and Tell.
func TestCheckpointResume(t *testing.T) {
	const N, M = 37, 53
	for _, u := range allUpdates {
		whole := mustNew(t, ckConfig(u))
		runGens(t, whole, ellipsoid, N+M)

		o := mustNew(t, ckConfig(u))
		runGens(t, o, ellipsoid, N)
		b, err := o.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var r mmaes.Optimizer
		if err := r.UnmarshalBinary(b); err != nil {
			t.Fatalf("%v: %v", u, err)
		}
		if !bytes.Equal(state(t, &r), b) {
			t.Fatalf("%v: the restored state marshals differently", u)
		}
		if r.Config().Update != u || r.Dim() != 6 || r.Generation() != N {
			t.Fatalf("%v: restored %v n=%d gen %d", u, r.Config().Update, r.Dim(), r.Generation())
		}
		runGens(t, &r, ellipsoid, M)
		if !bytes.Equal(state(t, &r), state(t, whole)) {
			t.Errorf("%v: resumed run differs from the whole run", u)
		}
		if a, b := r.Result(), whole.Result(); a.F != b.F || !slicesEqual(a.X, b.X) || a.Evals != b.Evals {
			t.Errorf("%v: results %+v and %+v", u, a, b)
		}

		// Save between Ask and Tell; the pending candidates survive.
		o = mustNew(t, ckConfig(u))
		runGens(t, o, ellipsoid, N)
		xs := o.Ask()
		b, err = o.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		r = mmaes.Optimizer{}
		if err := r.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		xr := r.Ask()
		for i := range xs {
			if !slicesEqual(xs[i], xr[i]) {
				t.Fatalf("%v: pending candidate %d differs", u, i)
			}
		}
		fit := make([]float64, len(xr))
		for i, x := range xr {
			fit[i] = ellipsoid(x)
		}
		if err := r.Tell(fit); err != nil {
			t.Fatal(err)
		}
		runGens(t, &r, ellipsoid, M-1)
		if !bytes.Equal(state(t, &r), state(t, whole)) {
			t.Errorf("%v: run resumed between Ask and Tell differs", u)
		}
	}
}

// TestCheckpointStopped saves a stopped run: it stays stopped.
func TestCheckpointStopped(t *testing.T) {
	cfg := startConfig(3, mmaes.ECMA, 1)
	cfg.MaxGenerations = 5
	o := mustNew(t, cfg)
	runGens(t, o, sphere, 10)
	b := state(t, o)
	var r mmaes.Optimizer
	called := false
	r.SetObserver(func(*mmaes.Optimizer) { called = true })
	if err := r.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if r.Reason() != mmaes.MaxGenerationsReached || r.Ask() != nil || !errors.Is(r.Tell(nil), mmaes.ErrStopped) {
		t.Errorf("restored stopped run: %v", r.Reason())
	}
	if r.Config().Observer == nil || called {
		t.Error("UnmarshalBinary dropped the receiver's observer")
	}
}

const helperEnv = "MMAES_CHECKPOINT_HELPER"

// TestCheckpointProcess saves in a child process (this test binary, run as
// TestHelperProcess) and continues in the parent: the result is the run
// never interrupted.
func TestCheckpointProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	for _, u := range allUpdates {
		path := filepath.Join(t.TempDir(), "ck.bin")
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), helperEnv+"="+path, "MMAES_UPDATE="+u.String())
		if out, err := cmd.CombinedOutput(); err != nil {
			if errors.Is(err, syscall.ENOEXEC) {
				// Under user-mode emulation (GOARCH=arm64 with -exec
				// qemu-aarch64-static and no binfmt handler) the test
				// binary cannot start itself.
				t.Skipf("cannot re-execute the test binary here: %v", err)
			}
			t.Fatalf("%v: helper: %v\n%s", u, err, out)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var r mmaes.Optimizer
		if err := r.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		runGens(t, &r, ellipsoid, 53)
		whole := mustNew(t, ckConfig(u))
		runGens(t, whole, ellipsoid, 37+53)
		if !bytes.Equal(state(t, &r), state(t, whole)) {
			t.Errorf("%v: run resumed from another process differs", u)
		}
	}
}

// TestHelperProcess is the child of TestCheckpointProcess: it runs 37
// generations and writes the checkpoint to the file named by helperEnv.
func TestHelperProcess(t *testing.T) {
	path := os.Getenv(helperEnv)
	if path == "" {
		t.Skip("helper process only")
	}
	u := mmaes.MMA
	for _, v := range allUpdates {
		if v.String() == os.Getenv("MMAES_UPDATE") {
			u = v
		}
	}
	o := mustNew(t, ckConfig(u))
	runGens(t, o, ellipsoid, 37)
	if err := os.WriteFile(path, state(t, o), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestUnmarshalBad feeds truncated, corrupted and foreign inputs: always an
// error wrapping ErrCheckpoint, never a panic, the receiver unchanged.
func TestUnmarshalBad(t *testing.T) {
	for _, u := range allUpdates {
		o := mustNew(t, startConfig(3, u, 1))
		runGens(t, o, sphere, 5)
		o.Ask()
		good := state(t, o)

		recv := mustNew(t, startConfig(2, mmaes.MMA, 9))
		before := state(t, recv)
		check := func(what string, b []byte) {
			t.Helper()
			if err := recv.UnmarshalBinary(b); !errors.Is(err, mmaes.ErrCheckpoint) {
				t.Fatalf("%v %s: err = %v", u, what, err)
			}
			if !bytes.Equal(state(t, recv), before) {
				t.Fatalf("%v %s: a failed UnmarshalBinary changed the receiver", u, what)
			}
		}
		for n := 0; n < len(good); n++ {
			check("truncated", good[:n])
		}
		for i := range good {
			for _, bit := range []byte{1, 0x80} {
				b := bytes.Clone(good)
				b[i] ^= bit
				check("bit flip", b)
			}
		}
		check("appended", append(bytes.Clone(good), 0))
		check("foreign", []byte("PK\x03\x04 not a checkpoint at all, just some bytes"))
		check("nil", nil)

		// Valid checksum, inconsistent content: the decoder must still
		// refuse it. Rewrite a word and fix the CRC.
		off := ckLayout(t, o)
		for _, c := range []struct {
			field string
			v     uint64
		}{
			{"cfg.Dim", 0}, {"cfg.Dim", 1 << 62}, {"cfg.Dim", 2},
			{"par.Lambda", 1}, {"par.Lambda", 1 << 62}, {"par.Mu", 0}, {"par.Mu", 99},
			{"cfg.Update", 9}, {"par.TolFunHist", 0}, {"asked", 2}, {"reason", 99},
			{"fired", 1 << mmaes.MaxEvalsReached}, // stops fired in a live run
			{"sigma", 0x7ff8000000000001},         // σ = NaN in a live run
			{"m", 0x7ff0000000000000},             // an infinite mean
			{"best.ok", 3},
			{"hist.pos", 1 << 40},
			{"scale", 0}, // LMMA: S[0], and 0 is a state a long run reaches (skipped below)
			{"scale", math.Float64bits(-1)},
			{"cfg.hasScales", 2},
			{"cfg.MinStd", math.Float64bits(math.NaN())},
			{"cfg.MaxStd", math.Float64bits(-1)},
		} {
			if u == mmaes.LMMA && c.field == "scale" && c.v == 0 {
				continue
			}
			check("rewritten "+c.field, rewrite(good, off[c.field], c.v))
		}
		// Wrong versions: 1 (before restarts and bounds) and the next.
		for _, v := range []uint32{1, 10} {
			b := bytes.Clone(good)
			binary.LittleEndian.PutUint32(b[8:], v)
			binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.ChecksumIEEE(b[:len(b)-4]))
			check(fmt.Sprintf("version %d", v), b)
		}
	}
}

// FuzzUnmarshal: no input panics; an accepted input marshals back to itself.
func FuzzUnmarshal(f *testing.F) {
	for _, u := range allUpdates {
		o := mustNew(f, startConfig(2, u, 1))
		runGens(f, o, sphere, 3)
		f.Add(state(f, o))
		o.Ask()
		f.Add(state(f, o))
	}
	// The options beyond the paper: restarts (after some), rank-μ, bounds.
	for _, r := range []mmaes.Restart{mmaes.IPOP, mmaes.BIPOP} {
		o := mustNew(f, featureConfig(r))
		runGensAny(f, o, sphere, 9)
		f.Add(state(f, o))
		o.Ask()
		f.Add(state(f, o))
	}
	f.Add([]byte("MMAESCKP"))
	// Version-3 checkpoints, read for compatibility.
	v3, _ := filepath.Glob(filepath.Join("testdata", "checkpoint-v3", "*.ckp"))
	for _, name := range v3 {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var o mmaes.Optimizer
		if err := o.UnmarshalBinary(b); err != nil {
			if !errors.Is(err, mmaes.ErrCheckpoint) {
				t.Fatalf("error %v does not wrap ErrCheckpoint", err)
			}
			return
		}
		// The current version round-trips; an older one is rewritten
		// in it, which must round-trip in turn.
		again := state(t, &o)
		if binary.LittleEndian.Uint32(b[8:]) != 4 {
			var r mmaes.Optimizer
			if err := r.UnmarshalBinary(again); err != nil {
				t.Fatalf("an accepted older checkpoint rewritten is refused: %v", err)
			}
			b = again
			again = state(t, &r)
		}
		if !bytes.Equal(again, b) {
			t.Fatal("accepted input does not round-trip")
		}
		runGensAny(t, &o, sphere, 2)
	})
}

// featureConfig is a small run with every option beyond the paper: active
// rank-μ, restarts r after 3 generations per run, bounds, the stops of
// RecommendedConfig, scales, bounds on the deviations, a fixed coordinate,
// an integer one and the noise handling.
func featureConfig(r mmaes.Restart) mmaes.Config {
	cfg := startConfig(4, mmaes.MMA, 7)
	cfg.RankMu, cfg.Restart, cfg.MaxGenerations, cfg.MaxRestarts = true, r, 3, 4
	cfg.Active, cfg.NoEffect, cfg.Stagnation, cfg.FlatFitness, cfg.Hopeless = true, true, true, 2, 10
	cfg.Lower, cfg.Upper = []float64{-10, -10, 0, -1}, []float64{10, 10, 10, 1}
	cfg.Mean = []float64{1, 2, 3, 0}
	cfg.Scales, cfg.MinStd, cfg.MaxStd = []float64{1, 0.5, 2, 1}, 1e-9, 100
	cfg.Fixed = map[int]float64{3: 0.5}
	cfg.Integer = []int{2}
	cfg.Noise = true
	return cfg
}

// TestUnmarshalBadFeatures: inconsistent values in the fields of rank-μ,
// restarts and bounds (with a valid checksum) are refused.
func TestUnmarshalBadFeatures(t *testing.T) {
	o := mustNew(t, featureConfig(mmaes.BIPOP))
	runGensAny(t, o, sphere, 7)
	if o.Restarts() == 0 {
		t.Fatal("no restart yet")
	}
	good := state(t, o)
	off := ckLayout(t, o)
	lower := off["cfg.Lower"]
	for name, c := range map[string]struct {
		off int
		v   uint64
	}{
		"RankMu = 2":             {off["cfg.RankMu"], 2},
		"Restart = 3":            {off["cfg.Restart"], 3},
		"MaxRestarts huge":       {off["cfg.MaxRestarts"], 60},
		"Workers = -1":           {off["cfg.Workers"], 1<<64 - 1},
		"no Lower":               {off["cfg.hasLower"], 0},
		"large runs > max":       {off["bipop.large"], 9},
		"small = 2":              {off["bipop.small"], 2},
		"run after the end":      {off["run.gen"], 1 << 40},
		"restarts = 0":           {off["restarts"], 0},
		"scale of A 2":           {off["scale"], math.Float64bits(2)},
		"scale of A 0":           {off["scale"], 0},
		"scale of A NaN":         {off["scale"], math.Float64bits(math.NaN())},
		"Lower[0] > mean":        {lower, math.Float64bits(5)},
		"Lower[2] > Upper[2]":    {lower + 16, math.Float64bits(11)},
		"initial mean NaN":       {off["cfg.Mean"], math.Float64bits(math.NaN())},
		"weight NaN":             {off["par.Weights"], math.Float64bits(math.NaN())},
		"c_μ = 0 with rank-μ":    {off["par.CMu"], 0},
		"evals before the run":   {off["run.evals0"], 1 << 40},
		"evals of large huge":    {off["bipop.evalsLarge"], 1 << 63},
		"TolFunHist 2^30":        {off["cfg.TolFunHist"], 1 << 30},
		"history position past":  {off["hist.pos"], 1000},
		"Active = 2":             {off["cfg.Active"], 2},
		"Active off":             {off["cfg.Active"], 0},
		"negative weight > 0":    {off["par.NegWeights"], math.Float64bits(0.5)},
		"negative weight NaN":    {off["par.NegWeights"], math.Float64bits(math.NaN())},
		"stagnation period":      {off["par.Stagnation"], 7},
		"Stagnation off":         {off["cfg.Stagnation"], 0},
		"FlatFitness -1":         {off["cfg.FlatFitness"], 1<<64 - 1},
		"Hopeless NaN":           {off["cfg.Hopeless"], math.Float64bits(math.NaN())},
		"run best NaN":           {off["watch.best"], math.Float64bits(math.NaN())},
		"run best found later":   {off["watch.bestGen"], 1 << 20},
		"flat longer than run":   {off["watch.flat"], 1 << 20},
		"record position past":   {off["watch.recPos"], 5},
		"records more than kept": {off["watch.recLen"], 2},
		"Scales[1] = 0":          {off["cfg.Scales"] + 8, 0},
		"Scales[0] = -1":         {off["cfg.Scales"], math.Float64bits(-1)},
		"Scales[2] = Inf":        {off["cfg.Scales"] + 16, math.Float64bits(math.Inf(1))},
		"no Scales":              {off["cfg.hasScales"], 0},
		"MinStd > MaxStd":        {off["cfg.MinStd"], math.Float64bits(1000)},
		"MaxStd -Inf":            {off["cfg.MaxStd"], math.Float64bits(math.Inf(-1))},
		"no Fixed":               {off["cfg.nFixed"], 0},
		"Fixed count 2":          {off["cfg.nFixed"], 2},
		"Fixed count huge":       {off["cfg.nFixed"], 1 << 40},
		"Fixed index 4":          {off["cfg.Fixed"], 4},
		"Fixed index -1":         {off["cfg.Fixed"], 1<<64 - 1},
		"Fixed value NaN":        {off["cfg.Fixed"] + 8, math.Float64bits(math.NaN())},
		"Fixed value outside":    {off["cfg.Fixed"] + 8, math.Float64bits(3)},
		"Integer count huge":     {off["cfg.nInteger"], 1 << 40},
		"Integer count 0":        {off["cfg.nInteger"], 0},
		"Integer index 9":        {off["cfg.Integer"], 9},
		"margin d 0":             {off["margin.d"], 0},
		"margin d NaN":           {off["margin.d"], math.Float64bits(math.NaN())},
		"margin d -1":            {off["margin.d"], math.Float64bits(-1)},
		"Noise off":              {off["cfg.Noise"], 0},
		"Noise = 2":              {off["cfg.Noise"], 2},
		"η_m 0":                  {off["noise.etaM"], 0},
		"η_Σ 2":                  {off["noise.etaS"], math.Float64bits(2)},
		"η_m NaN":                {off["noise.etaM"], math.Float64bits(math.NaN())},
		"V_Σ −1":                 {off["noise.vs"], math.Float64bits(-1)},
		"E_Σ Inf":                {off["noise.es"], math.Float64bits(math.Inf(1))},
	} {
		var r mmaes.Optimizer
		if err := r.UnmarshalBinary(rewrite(good, c.off, c.v)); !errors.Is(err, mmaes.ErrCheckpoint) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

// TestCheckpointVersion2: a checkpoint of version 2 (A itself, before the
// optimizer kept A as s·Ã) is read with s = 1: the restored run has the
// same A, mean and σ, bit for bit, marshals as the current version, and
// continues as the original does within rounding (the two hold A
// differently). The version-2 input is made from a version-3 one of
// testdata by taking the scale word out and writing s·Ã in place of Ã.
func TestCheckpointVersion2(t *testing.T) {
	const hdr = 12
	v3, err := os.ReadFile(filepath.Join("testdata", "checkpoint-v3", "ecma-n5.ckp"))
	if err != nil {
		t.Fatal(err)
	}
	var o mmaes.Optimizer
	if err := o.UnmarshalBinary(v3); err != nil {
		t.Fatal(err)
	}
	n := o.Dim()
	a := append([]float64(nil), o.A()...)
	scaleOff := hdr + 8*(6+22+o.Mu()+7+18) // the scale: the last state word
	v2 := append(bytes.Clone(v3[:scaleOff]), v3[scaleOff+8:len(v3)-4]...)
	binary.LittleEndian.PutUint32(v2[8:], 2)
	aOff := scaleOff + 8*5*n // A follows m, p, v, s and the best x
	for i, ai := range a {
		binary.LittleEndian.PutUint64(v2[aOff+8*i:], math.Float64bits(ai))
	}
	v2 = binary.LittleEndian.AppendUint32(v2, crc32.ChecksumIEEE(v2))
	var r mmaes.Optimizer
	if err := r.UnmarshalBinary(v2); err != nil {
		t.Fatal(err)
	}
	for i, ai := range r.A() {
		if math.Float64bits(ai) != math.Float64bits(a[i]) {
			t.Fatalf("A[%d] = %v restored, %v saved", i, ai, a[i])
		}
	}
	if r.Sigma() != o.Sigma() || !slices.Equal(r.Mean(), o.Mean()) {
		t.Fatalf("σ, mean = %v, %v restored; %v, %v saved", r.Sigma(), r.Mean(), o.Sigma(), o.Mean())
	}
	if v := binary.LittleEndian.Uint32(state(t, &r)[8:]); v != 9 {
		t.Fatalf("restored run marshals as version %d", v)
	}
	runGens(t, &o, ellipsoid, 5)
	runGens(t, &r, ellipsoid, 5)
	ao, ar := o.A(), r.A()
	scale := 0.0
	for _, x := range ao {
		scale = max(scale, math.Abs(x))
	}
	for i := range ao {
		if d := math.Abs(ao[i] - ar[i]); d > 1e-12*scale {
			t.Fatalf("5 generations on: A[%d] = %v restored from version 2, %v original", i, ar[i], ao[i])
		}
	}
}
