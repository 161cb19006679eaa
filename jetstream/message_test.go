package jetstream

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"
)

// The layout is the documented one, written out by hand.
func TestTaskLayout(t *testing.T) {
	x := []float64{1.5, math.Inf(-1), math.Copysign(0, -1)}
	got := appendTask(nil, &task{runID: "r-1", generation: 7, index: 3, check: 0x0102030405060708, x: x})
	var want []byte
	want = append(want, 'M', 'M', 'T', 1)
	want = binary.LittleEndian.AppendUint64(want, 7)
	want = binary.LittleEndian.AppendUint32(want, 3)
	want = binary.LittleEndian.AppendUint64(want, 0x0102030405060708)
	want = binary.LittleEndian.AppendUint32(want, 3)
	for _, v := range x {
		want = binary.LittleEndian.AppendUint64(want, math.Float64bits(v))
	}
	want = append(want, "r-1"...)
	if !bytes.Equal(got, want) {
		t.Fatalf("task\n%x, want\n%x", got, want)
	}
	r := appendResult(nil, &result{runID: "r-1", generation: 7, index: 3, check: 9, delivered: 2, f: -2.25})
	want = append(want[:0], 'M', 'M', 'R', 1)
	want = binary.LittleEndian.AppendUint64(want, 7)
	want = binary.LittleEndian.AppendUint32(want, 3)
	want = binary.LittleEndian.AppendUint64(want, 9)
	want = binary.LittleEndian.AppendUint32(want, 2)
	want = binary.LittleEndian.AppendUint64(want, math.Float64bits(-2.25))
	want = append(want, "r-1"...)
	if !bytes.Equal(r, want) {
		t.Fatalf("result\n%x, want\n%x", r, want)
	}
}

// Round trips keep every bit (NaN payloads, signed zeros); every
// truncation and every changed magic byte is an error.
func TestMessagesRoundTrip(t *testing.T) {
	nan := math.Float64frombits(0x7ff8_0000_dead_beef)
	in := task{runID: "run_A-9", generation: 1 << 40, index: 1<<32 - 1, check: 42, x: []float64{nan, math.Copysign(0, -1), math.MaxFloat64, 5e-324}}
	b := appendTask(nil, &in)
	var out task
	if err := decodeTask(b, &out); err != nil {
		t.Fatal(err)
	}
	if out.runID != in.runID || out.generation != in.generation || out.index != in.index || out.check != in.check || len(out.x) != len(in.x) {
		t.Fatalf("%+v, want %+v", out, in)
	}
	for i := range in.x {
		if math.Float64bits(out.x[i]) != math.Float64bits(in.x[i]) {
			t.Errorf("x[%d] bits %x, want %x", i, math.Float64bits(out.x[i]), math.Float64bits(in.x[i]))
		}
	}
	rin := result{runID: "r", generation: 3, index: 1, check: 5, delivered: 4, f: nan}
	rb := appendResult(nil, &rin)
	var rout result
	if err := decodeResult(rb, &rout); err != nil || rout.runID != "r" || rout.generation != 3 || rout.index != 1 ||
		rout.check != 5 || rout.delivered != 4 || math.Float64bits(rout.f) != math.Float64bits(nan) {
		t.Fatalf("%+v, %v", rout, err)
	}
	// A task whose run id is cut to nothing, or any shorter prefix.
	for k := range len(b) - len(in.runID) + 1 {
		if decodeTask(b[:k], &out) == nil {
			t.Errorf("task cut to %d bytes decoded", k)
		}
	}
	for k := range len(rb) {
		if decodeResult(rb[:k], &rout) == nil {
			t.Errorf("result cut to %d bytes decoded", k)
		}
	}
	for i := range 4 {
		bad := append([]byte(nil), b...)
		bad[i] ^= 0x20
		if decodeTask(bad, &out) == nil {
			t.Errorf("task with byte %d of the magic changed decoded", i)
		}
		bad = append(bad[:0], rb...)
		bad[i] ^= 0x20
		if decodeResult(bad, &rout) == nil {
			t.Errorf("result with byte %d of the magic changed decoded", i)
		}
	}
	// A task that claims more coordinates than it holds.
	huge := append([]byte(nil), b...)
	binary.LittleEndian.PutUint32(huge[24:], 1<<31)
	if decodeTask(huge, &out) == nil {
		t.Error("task claiming 2³¹ coordinates decoded")
	}
	// Run ids: characters and length.
	for _, id := range []string{"", "a b", "a.b", "a*", "a>", string(make([]byte, 65)), "é"} {
		if validRunID(id) {
			t.Errorf("run id %q accepted", id)
		}
	}
	if !validRunID("Run_1-x") || !validRunID(string(bytes.Repeat([]byte{'z'}, 64))) {
		t.Error("valid run id refused")
	}
}

// The check depends on every input: run id, generation, index and each
// coordinate's bits (a sign of zero included).
func TestCandidateCheck(t *testing.T) {
	x := []float64{1, 0, 3}
	base := candidateCheck("r", 1, 2, x)
	for name, c := range map[string]uint64{
		"run id":     candidateCheck("s", 1, 2, x),
		"generation": candidateCheck("r", 2, 2, x),
		"index":      candidateCheck("r", 1, 3, x),
		"coordinate": candidateCheck("r", 1, 2, []float64{1, math.Copysign(0, -1), 3}),
		"length":     candidateCheck("r", 1, 2, x[:2]),
	} {
		if c == base {
			t.Errorf("changing the %s leaves the check", name)
		}
	}
	if candidateCheck("r", 1, 2, []float64{1, 0, 3}) != base {
		t.Error("the check is not a function of its inputs")
	}
}

// Decoding arbitrary bytes never panics, and what decodes encodes back to
// the same bytes.
func FuzzDecode(f *testing.F) {
	f.Add(appendTask(nil, &task{runID: "r", generation: 1, index: 2, check: 3, x: []float64{1, 2}}))
	f.Add(appendResult(nil, &result{runID: "r", generation: 1, index: 2, check: 3, delivered: 1, f: 4}))
	f.Add([]byte("MMT\x01"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var tk task
		if decodeTask(b, &tk) == nil && !bytes.Equal(appendTask(nil, &tk), b) {
			t.Fatalf("task %x re-encodes differently", b)
		}
		var r result
		if decodeResult(b, &r) == nil && !bytes.Equal(appendResult(nil, &r), b) {
			t.Fatalf("result %x re-encodes differently", b)
		}
	})
}
