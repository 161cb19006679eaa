package kernel

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
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

// rankFloatsRef is RankFloats the obvious way: a stable sort on the
// order of the values, NaN last.
func rankFloatsRef(x []float64) ([]int, int) {
	idx := make([]int, len(x))
	valid := 0
	for i := range idx {
		idx[i] = i
		if x[i] == x[i] {
			valid++
		}
	}
	less := func(a, b float64) bool {
		switch {
		case a != a:
			return false
		case b != b:
			return true
		}
		return a < b
	}
	slices.SortStableFunc(idx, func(i, j int) int {
		switch {
		case less(x[i], x[j]):
			return -1
		case less(x[j], x[i]):
			return 1
		}
		return 0
	})
	return idx, valid
}

// TestRankFloats checks every path against a stable sort and against the
// sequence RankFloats replaces (keys with the index in the low bits,
// CountLess, the scatter and the insertion pass: rankFloatsGeneric), for
// every length up to RankFloatsMax (every tail of the groups of 8), with
// random values, many ties, the special values (±0, ±Inf, NaNs of either
// sign and any payload, subnormals, ±MaxFloat64) and values whose keys
// agree in all but the low bits; idx and pos past len(x) stay untouched.
func TestRankFloats(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 43))
	specials := []float64{math.NaN(), -math.NaN(), math.Float64frombits(0x7ff0000000000001),
		math.Float64frombits(0xfff8000000000123), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1),
		5e-324, -5e-324, 0x1p-1022, -0x1p-1022, 1, -1, math.Nextafter(1, 2), math.Nextafter(-1, -2),
		math.MaxFloat64, -math.MaxFloat64}
	type tc struct {
		x    []float64
		desc string
	}
	var cs []tc
	for n := 0; n <= RankFloatsMax; n++ {
		for kind := range 5 {
			buf := make([]float64, n+8)
			off := r.IntN(8)
			x := buf[off : off+n]
			for i := range x {
				switch kind {
				case 0:
					x[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(20)-10))
				case 1: // many ties
					x[i] = float64(r.IntN(3)) - 1
				case 2:
					x[i] = specials[r.IntN(len(specials))]
				case 3: // keys agreeing in all but the low bits
					x[i] = math.Float64frombits(math.Float64bits(1.5) + uint64(r.IntN(200)))
					if r.IntN(2) == 0 {
						x[i] = -x[i]
					}
				default: // a mix
					if r.IntN(3) == 0 {
						x[i] = specials[r.IntN(len(specials))]
					} else {
						x[i] = r.NormFloat64()
					}
				}
			}
			cs = append(cs, tc{x, fmt.Sprintf("n=%d kind=%d off=%d", n, kind, off)})
		}
	}
	forEachPath(t, func(t *testing.T) {
		for _, c := range cs {
			n := len(c.x)
			want, wantValid := rankFloatsRef(c.x)
			idx, pos := make([]int, n+3), make([]int, n+3)
			keys := make([]int64, 2*n+3)
			for i := range idx {
				idx[i], pos[i] = -7, -7
			}
			x0 := slices.Clone(c.x)
			valid := RankFloats(idx, c.x, keys, pos)
			if valid != wantValid || !slices.Equal(idx[:n], want) {
				t.Fatalf("%s: %v (%d valid), want %v (%d) for %v", c.desc, idx[:n], valid, want, wantValid, c.x)
			}
			if n > 0 {
				oidx := make([]int, n)
				if v := rankFloatsGeneric(oidx, c.x, make([]int64, 2*n), make([]int, n)); v != valid || !slices.Equal(oidx, idx[:n]) {
					t.Fatalf("%s: composed sequence %v (%d), kernel %v (%d)", c.desc, oidx, v, idx[:n], valid)
				}
			}
			for i := n; i < len(idx); i++ {
				if idx[i] != -7 || pos[i] != -7 {
					t.Fatalf("%s: wrote idx or pos past len(x)", c.desc)
				}
			}
			for i := range x0 {
				if math.Float64bits(x0[i]) != math.Float64bits(c.x[i]) {
					t.Fatalf("%s: modified x[%d]", c.desc, i)
				}
			}
		}
		mustPanic(t, "RankFloats too long", func() {
			RankFloats(make([]int, 65), make([]float64, 65), make([]int64, 130), make([]int, 65))
		})
		mustPanic(t, "RankFloats short keys", func() {
			RankFloats(make([]int, 3), make([]float64, 3), make([]int64, 5), make([]int, 3))
		})
	})
}

// TestFloatKey checks that the keys of RankFloats compare as the values
// do (NaN last, all NaNs equal, −0 = +0).
func TestFloatKey(t *testing.T) {
	vals := []float64{math.NaN(), -math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1),
		5e-324, -5e-324, 0x1p-1022, -0x1p-1022, 1, -1, math.Nextafter(1, 2), math.Nextafter(-1, -2),
		math.MaxFloat64, -math.MaxFloat64}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		vals = append(vals, rng.NormFloat64()*math.Pow(10, float64(rng.IntN(600)-300)))
	}
	cmp := func(a, b float64) int {
		switch an, bn := a != a, b != b; {
		case an && bn:
			return 0
		case an:
			return 1
		case bn:
			return -1
		case a < b:
			return -1
		case a > b:
			return 1
		}
		return 0
	}
	for _, a := range vals {
		for _, b := range vals {
			ka, kb := floatKey(a), floatKey(b)
			got := 0
			if ka < kb {
				got = -1
			} else if ka > kb {
				got = 1
			}
			if got != cmp(a, b) {
				t.Fatalf("keys of %v, %v compare %d, want %d", a, b, got, cmp(a, b))
			}
		}
	}
}
