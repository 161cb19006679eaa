package kernel

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// countLessRef is CountLess the obvious way.
func countLessRef(keys []int64) []int {
	dst := make([]int, len(keys))
	for i, p := range keys {
		for _, q := range keys {
			if q < p {
				dst[i]++
			}
		}
	}
	return dst
}

// TestCountLess checks every path against the obvious double loop, for
// every length up to 70 (every tail of the 8- and 4-key groups) and some
// longer ones, keys at every offset of a larger array, with ties, the
// extreme keys and keys that differ in the sign bit only; dst past
// len(keys) must stay untouched.
func TestCountLess(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 31))
	extremes := []int64{math.MinInt64, math.MinInt64 + 1, -1, 0, 1, math.MaxInt64 - 1, math.MaxInt64}
	type tc struct {
		keys []int64
		desc string
	}
	var cs []tc
	for _, n := range append(matSizes()[:71], 100, 129, 255) {
		for kind := range 4 {
			buf := make([]int64, n+8)
			off := r.IntN(8)
			keys := buf[off : off+n]
			for i := range keys {
				switch kind {
				case 0: // distinct with probability 1
					keys[i] = int64(r.Uint64())
				case 1: // many ties
					keys[i] = int64(r.IntN(4)) - 2
				case 2: // the extremes
					keys[i] = extremes[r.IntN(len(extremes))]
				default: // the sign bit alone differs
					keys[i] = int64(r.Uint64()&1<<63 | 5)
				}
			}
			cs = append(cs, tc{keys, fmt.Sprintf("n=%d kind=%d off=%d", n, kind, off)})
		}
	}
	forEachPath(t, func(t *testing.T) {
		for _, c := range cs {
			want := countLessRef(c.keys)
			dst := make([]int, len(c.keys)+3)
			for i := range dst {
				dst[i] = -7
			}
			keys0 := append([]int64(nil), c.keys...)
			CountLess(dst, c.keys)
			for i, w := range want {
				if dst[i] != w {
					t.Fatalf("%s: dst[%d] = %d, want %d (keys %v)", c.desc, i, dst[i], w, c.keys[:min(len(c.keys), 16)])
				}
			}
			for i := len(c.keys); i < len(dst); i++ {
				if dst[i] != -7 {
					t.Fatalf("%s: wrote dst[%d] past len(keys)", c.desc, i)
				}
			}
			for i := range keys0 {
				if keys0[i] != c.keys[i] {
					t.Fatalf("%s: modified keys[%d]", c.desc, i)
				}
			}
		}
	})
}

func TestCountLessMisuse(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		mustPanic(t, "CountLess short dst", func() { CountLess(make([]int, 2), []int64{1, 2, 3}) })
		CountLess(nil, nil) // nothing to do
	})
}

// FuzzCountLess compares CountLess on every path with the obvious double
// loop, for keys read from the input (8 bytes each, up to 70 keys).
func FuzzCountLess(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 128})
	f.Add(make([]byte, 8*17))
	f.Fuzz(func(t *testing.T, data []byte) {
		keys := make([]int64, min(len(data)/8, 70))
		for i := range keys {
			keys[i] = int64(binary.LittleEndian.Uint64(data[8*i:]))
		}
		want := countLessRef(keys)
		dst := make([]int, len(keys))
		eachPath(func(path string) {
			clear(dst)
			CountLess(dst, keys)
			for i := range want {
				if dst[i] != want[i] {
					t.Fatalf("%s: dst[%d] = %d, want %d (keys %v)", path, i, dst[i], want[i], keys)
				}
			}
		})
	})
}
