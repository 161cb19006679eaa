package jetstream

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"strconv"

	natsjs "github.com/nats-io/nats.go/jetstream"
)

// A run's checkpoint is a snapshot (mmaes.Optimizer.MarshalBinary) and a
// log of the generations told since: their fitness values, which replayed
// on the snapshot (Ask, then Tell or TellSome) give the optimizer's state
// bit for bit. Both are named by a manifest stored under the run id; after
// every generation the coordinator replaces the manifest (compare-and-set
// on its revision), with either a new snapshot and an empty log or one more
// log entry. The manifest names the coordinator that wrote it (its
// owner): a coordinator that finds another's name there has been
// replaced. A snapshot larger than a message is stored in chunks under
// "<run id>.<writer>.<slot>.<k>", writer the coordinator that wrote them;
// a coordinator's two slots alternate, a new snapshot's chunks are written
// into the slot the manifest does not name, and the manifest is replaced
// last, so that a coordinator that dies while storing leaves the previous
// checkpoint whole, and one that was replaced writes only its own keys.
//
//	manifest: "MMC" 2 | length u64 | chunks u32 | slot u8 | hash u64 |
//	          entries u32 | log length u32 | owner (16 bytes) | writer (16 bytes) |
//	          log | snapshot (chunks = 0)
//	entry:    all u8 | k u32 | indices u32×k (all = 0) | values f64×k
//
// all = 1 is a Tell of every candidate in order; all = 0 a TellSome of the
// listed candidates in that order.
const (
	manifestHeader = 4 + 8 + 4 + 1 + 8 + 4 + 4 + 2*incarnationLen
	// incarnationLen is the length of a coordinator's name (hex).
	incarnationLen = 16
	// chunkHeadroom is what a chunk leaves of the server's maximum payload
	// for the message's headers.
	chunkHeadroom = 4096
	// snapshotLogBytes bounds the log: a new snapshot is taken when the
	// log would exceed the snapshot's size / snapshotLogRatio, or this
	// size. A small optimizer is snapshotted every generation; a large one
	// (n = 1024: 8.4 MB) once per ~250 generations (λ = 32), whose replay
	// on resume costs less than a second.
	snapshotLogBytes = 64 << 10
	snapshotLogRatio = 64
)

var manifestMagic = [4]byte{'M', 'M', 'C', 2}

// checkpointStore reads and writes the checkpoints of one run.
type checkpointStore struct {
	kv       natsjs.KeyValue
	key      string
	chunk    int    // bytes a chunk holds
	self     string // this coordinator's name (incarnationLen bytes)
	revision uint64 // of the manifest loaded or stored last; 0: none
	owner    string // of the manifest loaded or stored last

	// The snapshot the manifest names, and its log.
	length uint64
	chunks uint32
	slot   byte
	hash   uint64
	writer string // of the chunks
	inline []byte // the snapshot, when it is in the manifest

	slotChunks [2]int // the chunks this coordinator wrote into each slot
	entries    uint32
	log        []byte

	manifest []byte
}

func checkpointHash(b []byte) uint64 {
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}

func (s *checkpointStore) chunkKey(writer string, slot byte, k int) string {
	return s.key + "." + writer + "." + string('a'+slot) + "." + strconv.Itoa(k)
}

// load returns the stored snapshot and log, or found false when there is
// none.
func (s *checkpointStore) load(ctx context.Context) (snapshot, log []byte, found bool, err error) {
	e, err := s.kv.Get(ctx, s.key)
	if errors.Is(err, natsjs.ErrKeyNotFound) {
		return nil, nil, false, nil
	}
	if err != nil {
		return nil, nil, false, err
	}
	m := e.Value()
	if len(m) < manifestHeader || [4]byte(m[:4]) != manifestMagic {
		return nil, nil, true, errors.New("not a checkpoint manifest of this version")
	}
	length := binary.LittleEndian.Uint64(m[4:12])
	chunks := binary.LittleEndian.Uint32(m[12:16])
	slot := m[16] & 1
	hash := binary.LittleEndian.Uint64(m[17:25])
	entries := binary.LittleEndian.Uint32(m[25:29])
	logLen := uint64(binary.LittleEndian.Uint32(m[29:33]))
	owner, writer := string(m[33:33+incarnationLen]), string(m[33+incarnationLen:manifestHeader])
	if logLen > uint64(len(m)-manifestHeader) || !validRunID(owner) || !validRunID(writer) {
		return nil, nil, true, errors.New("manifest's log is cut short, or its names are not names")
	}
	log = m[manifestHeader : manifestHeader+logLen]
	rest := m[manifestHeader+logLen:]
	if chunks == 0 {
		snapshot = rest
	} else {
		for k := range int(chunks) {
			c, err := s.kv.Get(ctx, s.chunkKey(writer, slot, k))
			if err != nil {
				return nil, nil, true, fmt.Errorf("chunk %d of %d: %w", k, chunks, err)
			}
			snapshot = append(snapshot, c.Value()...)
		}
	}
	if uint64(len(snapshot)) != length || checkpointHash(snapshot) != hash {
		return nil, nil, true, errors.New("snapshot's length or hash does not match its manifest")
	}
	s.revision, s.owner, s.writer = e.Revision(), owner, writer
	s.length, s.chunks, s.slot, s.hash, s.entries = length, chunks, slot, hash, entries
	s.log = append(s.log[:0], log...)
	s.inline = nil
	if chunks == 0 {
		s.inline = append(s.inline, snapshot...)
	}
	return snapshot, log, true, nil
}

// logFull reports whether the log, with entry added, should give way to a
// new snapshot of size about snapshotSize.
func (s *checkpointStore) logFull(entry []byte, snapshotSize int) bool {
	n := len(s.log) + len(entry)
	return n > snapshotLogBytes || n > snapshotSize/snapshotLogRatio || manifestHeader+n+len(s.inline) > s.chunk
}

// storeSnapshot stores data as the run's snapshot, with an empty log. Its
// chunks go under this coordinator's own keys, into the slot the manifest
// does not name; after the commit, the chunks of another writer that the
// manifest named are deleted.
func (s *checkpointStore) storeSnapshot(ctx context.Context, data []byte) error {
	slot := byte(0)
	if s.writer == s.self {
		slot = s.slot ^ 1
	}
	chunks := 0
	if manifestHeader+len(data) > s.chunk {
		chunks = (len(data) + s.chunk - 1) / s.chunk
		for k := range chunks {
			part := data[k*s.chunk : min(len(data), (k+1)*s.chunk)]
			if _, err := s.kv.Put(ctx, s.chunkKey(s.self, slot, k), part); err != nil {
				return err
			}
		}
	}
	prev := *s
	held := s.slotChunks[slot]
	next := *s
	next.length, next.chunks, next.slot, next.hash = uint64(len(data)), uint32(chunks), slot, checkpointHash(data)
	next.writer = s.self
	next.inline = nil
	if chunks == 0 {
		next.inline = data
	}
	next.entries, next.log = 0, nil
	if err := s.commit(ctx, &next); err != nil {
		if errors.Is(err, natsjs.ErrKeyRevisionMismatch) || errors.Is(err, natsjs.ErrKeyExists) {
			// Replaced: the manifest names another slot or writer, so the
			// chunks just written are nobody's.
			for k := range chunks {
				s.kv.Purge(ctx, s.chunkKey(s.self, slot, k))
			}
		}
		return err
	}
	// The chunks no manifest can name any more: the slot's beyond this
	// snapshot's, and, after a takeover, all of the previous writer's.
	// Failing to delete them leaves garbage, never a wrong state.
	s.slotChunks[slot] = chunks
	for k := chunks; k < held; k++ {
		s.kv.Purge(ctx, s.chunkKey(s.self, slot, k))
	}
	if prev.writer != s.self && prev.writer != "" {
		if keys, err := s.kv.ListKeysFiltered(ctx, s.key+"."+prev.writer+".>"); err == nil {
			var old []string
			for k := range keys.Keys() {
				old = append(old, k)
			}
			for _, k := range old {
				s.kv.Purge(ctx, k)
			}
		}
	}
	return nil
}

// claim rewrites the loaded manifest with this coordinator as its owner:
// a coordinator of the run still running sees it replaced and stops.
func (s *checkpointStore) claim(ctx context.Context) error {
	next := *s
	next.log = append([]byte(nil), s.log...)
	return s.commit(ctx, &next)
}

// appendLog adds entry to the log of the stored snapshot.
func (s *checkpointStore) appendLog(ctx context.Context, entry []byte) error {
	next := *s
	next.entries++
	next.log = append(append([]byte(nil), s.log...), entry...)
	return s.commit(ctx, &next)
}

// commit replaces the manifest by next's, if the stored one is still the
// one s loaded or stored last (else natsjs.ErrKeyExists or
// natsjs.ErrKeyRevisionMismatch), and makes s next.
func (s *checkpointStore) commit(ctx context.Context, next *checkpointStore) error {
	m := append(s.manifest[:0], manifestMagic[:]...)
	m = binary.LittleEndian.AppendUint64(m, next.length)
	m = binary.LittleEndian.AppendUint32(m, next.chunks)
	m = append(m, next.slot)
	m = binary.LittleEndian.AppendUint64(m, next.hash)
	m = binary.LittleEndian.AppendUint32(m, next.entries)
	m = binary.LittleEndian.AppendUint32(m, uint32(len(next.log)))
	m = append(m, s.self...)
	m = append(m, next.writer...)
	m = append(m, next.log...)
	m = append(m, next.inline...)
	var rev uint64
	var err error
	if len(s.self) != incarnationLen || len(next.writer) != incarnationLen {
		return errors.New("checkpoint store without the coordinator's name")
	}
	if s.revision == 0 {
		rev, err = s.kv.Create(ctx, s.key, m)
	} else {
		rev, err = s.kv.Update(ctx, s.key, m, s.revision)
	}
	if err != nil {
		// A retried write that the server applied before its reply was lost
		// looks like a conflict: it is this store's when the stored manifest
		// is the one just written.
		e, gerr := s.kv.Get(ctx, s.key)
		if gerr != nil || string(e.Value()) != string(m) {
			s.manifest = m
			return err
		}
		rev = e.Revision()
	}
	next.revision, next.owner = rev, s.self
	next.inline = append([]byte(nil), next.inline...)
	next.manifest = m
	*s = *next
	return nil
}

// appendEntry appends the log entry of a generation told with the values
// fit of the candidates idx (all: every candidate, in order).
func appendEntry(dst []byte, all bool, idx []int, fit []float64) []byte {
	flag := byte(0)
	if all {
		flag = 1
	}
	dst = append(dst, flag)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(fit)))
	if !all {
		for _, i := range idx {
			dst = binary.LittleEndian.AppendUint32(dst, uint32(i))
		}
	}
	for _, v := range fit {
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(v))
	}
	return dst
}

// replay tells the generations of log, entry by entry: tell(nil, fit) for
// a generation of every candidate, tell(idx, fit) for some.
func replay(log []byte, entries uint32, tell func(idx []int, fit []float64) error) error {
	for e := range entries {
		if len(log) < 5 {
			return fmt.Errorf("log entry %d cut short", e)
		}
		all, k := log[0] == 1, uint64(binary.LittleEndian.Uint32(log[1:5]))
		log = log[5:]
		size := 8 * k
		if !all {
			size += 4 * k
		}
		if uint64(len(log)) < size {
			return fmt.Errorf("log entry %d cut short", e)
		}
		var idx []int
		if !all {
			idx = make([]int, k)
			for j := range idx {
				idx[j] = int(binary.LittleEndian.Uint32(log[4*j:]))
			}
			log = log[4*k:]
		}
		fit := make([]float64, k)
		for j := range fit {
			fit[j] = math.Float64frombits(binary.LittleEndian.Uint64(log[8*j:]))
		}
		log = log[8*k:]
		if err := tell(idx, fit); err != nil {
			return fmt.Errorf("log entry %d: %w", e, err)
		}
	}
	if len(log) != 0 {
		return errors.New("log longer than its entries")
	}
	return nil
}

// manifestOwner returns the name of the coordinator that wrote manifest m,
// "" if m is not a manifest.
func manifestOwner(m []byte) string {
	if len(m) < manifestHeader || [4]byte(m[:4]) != manifestMagic {
		return ""
	}
	return string(m[33 : 33+incarnationLen])
}
