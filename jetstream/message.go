package jetstream

import (
	"encoding/binary"
	"errors"
	"hash/fnv"
	"math"
)

// The wire format, version 1. All integers and floats are little-endian; a
// float64 travels as its IEEE-754 bits, so a candidate arrives bit for bit.
//
//	task:   "MMT" 1 | generation u64 | index u32 | check u64 | n u32 | x[n] f64 | run id
//	result: "MMR" 1 | generation u64 | index u32 | check u64 | delivered u32 | f f64 | run id
//
// The run id fills the rest of the message (1 to 64 bytes). check is an
// FNV-1a hash of the run id, the generation, the index and the candidate's
// bits, computed by the coordinator; a worker echoes it, and the
// coordinator applies a result only when run id, generation, index and
// check all match a candidate it is waiting for.
const (
	wireVersion = 1
	taskHeader  = 4 + 8 + 4 + 8 + 4
	resultSize  = 4 + 8 + 4 + 8 + 4 + 8
	maxRunID    = 64
)

var (
	taskMagic   = [4]byte{'M', 'M', 'T', wireVersion}
	resultMagic = [4]byte{'M', 'M', 'R', wireVersion}
)

// errMalformed is the decoders' error: wrong magic or version, wrong
// length, or an invalid run id.
var errMalformed = errors.New("malformed message")

// task is one candidate to evaluate.
type task struct {
	runID      string
	generation uint64
	index      uint32
	check      uint64
	x          []float64
}

// result is a worker's answer to a task.
type result struct {
	runID      string
	generation uint64
	index      uint32
	check      uint64
	delivered  uint32 // how many times the task was delivered to a worker
	f          float64
}

// candidateCheck is the check of candidate index of generation in run.
func candidateCheck(runID string, generation uint64, index uint32, x []float64) uint64 {
	h := fnv.New64a()
	var b [8]byte
	h.Write([]byte(runID))
	binary.LittleEndian.PutUint64(b[:], generation)
	h.Write(b[:])
	binary.LittleEndian.PutUint32(b[:4], index)
	h.Write(b[:4])
	for _, v := range x {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
		h.Write(b[:])
	}
	return h.Sum64()
}

// appendTask appends t's encoding to dst.
func appendTask(dst []byte, t *task) []byte {
	dst = append(dst, taskMagic[:]...)
	dst = binary.LittleEndian.AppendUint64(dst, t.generation)
	dst = binary.LittleEndian.AppendUint32(dst, t.index)
	dst = binary.LittleEndian.AppendUint64(dst, t.check)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(t.x)))
	for _, v := range t.x {
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(v))
	}
	return append(dst, t.runID...)
}

// decodeTask decodes a task into t, reusing t.x's storage.
func decodeTask(b []byte, t *task) error {
	if len(b) < taskHeader || [4]byte(b[:4]) != taskMagic {
		return errMalformed
	}
	n := uint64(binary.LittleEndian.Uint32(b[24:28]))
	rest := uint64(len(b) - taskHeader)
	if n > rest/8 {
		return errMalformed
	}
	id := b[taskHeader+8*n:]
	if !validRunID(string(id)) {
		return errMalformed
	}
	t.generation = binary.LittleEndian.Uint64(b[4:12])
	t.index = binary.LittleEndian.Uint32(b[12:16])
	t.check = binary.LittleEndian.Uint64(b[16:24])
	t.x = t.x[:0]
	for i := range n {
		t.x = append(t.x, math.Float64frombits(binary.LittleEndian.Uint64(b[taskHeader+8*i:])))
	}
	t.runID = string(id)
	return nil
}

// appendResult appends r's encoding to dst.
func appendResult(dst []byte, r *result) []byte {
	dst = append(dst, resultMagic[:]...)
	dst = binary.LittleEndian.AppendUint64(dst, r.generation)
	dst = binary.LittleEndian.AppendUint32(dst, r.index)
	dst = binary.LittleEndian.AppendUint64(dst, r.check)
	dst = binary.LittleEndian.AppendUint32(dst, r.delivered)
	dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(r.f))
	return append(dst, r.runID...)
}

// decodeResult decodes a result into r.
func decodeResult(b []byte, r *result) error {
	if len(b) < resultSize || [4]byte(b[:4]) != resultMagic || !validRunID(string(b[resultSize:])) {
		return errMalformed
	}
	r.generation = binary.LittleEndian.Uint64(b[4:12])
	r.index = binary.LittleEndian.Uint32(b[12:16])
	r.check = binary.LittleEndian.Uint64(b[16:24])
	r.delivered = binary.LittleEndian.Uint32(b[24:28])
	r.f = math.Float64frombits(binary.LittleEndian.Uint64(b[28:36]))
	r.runID = string(b[resultSize:])
	return nil
}

// validRunID reports whether id can name a run: 1 to 64 characters from
// A–Z, a–z, 0–9, '-' and '_' (it becomes a subject token, a consumer name
// and a key).
func validRunID(id string) bool {
	if len(id) == 0 || len(id) > maxRunID {
		return false
	}
	for _, c := range []byte(id) {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_':
		default:
			return false
		}
	}
	return true
}
