package kernel

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// zigReference is an independent model of Ziggurat: it first draws each
// lane's stream on its own (xoshiro256++ as published), then merges the
// rounds. It returns what Ziggurat must return and leave in s.
func zigReference(n int, s *[4 * ZigLanes]uint64, x *[257]float64, rejCap int) (z []float64, rej []uint64, state [4 * ZigLanes]uint64) {
	state = *s
	next := func(l int) uint64 {
		a, b, c, d := &state[l], &state[ZigLanes+l], &state[2*ZigLanes+l], &state[3*ZigLanes+l]
		r := bits.RotateLeft64(*a+*d, 23) + *a
		t := *b << 17
		*c ^= *a
		*d ^= *b
		*b ^= *c
		*a ^= *d
		*c ^= t
		*d = bits.RotateLeft64(*d, 45)
		return r
	}
	for len(z)+len(rej) < n && len(rej)+ZigLanes <= rejCap {
		live := min(ZigLanes, n-len(z)-len(rej))
		for l := range ZigLanes {
			r := next(l)
			if l >= live {
				continue
			}
			u := 2 + float64(r>>12)*0x1p-51 - 3 // exact: 2 + m·2⁻⁵¹ is the double in [2, 4)
			if d := u * x[r%256]; math.Abs(d) < x[r%256+1] {
				z = append(z, d)
			} else {
				rej = append(rej, r)
			}
		}
	}
	return z, rej, state
}

// zigTables returns random layer edges (some layers accept almost always,
// some rarely), with layer 3 never accepting (x[4] = 0), layer 4 always
// (d = u·0 = ±0 < x[5]), and layers of +Inf and NaN (their d is ±Inf or
// NaN: rejected).
func zigTables(r *rand.Rand) *[257]float64 {
	x := new([257]float64)
	for i := range x {
		x[i] = 4 * r.Float64()
	}
	x[3], x[4], x[5] = 1, 0, 1
	x[10], x[20] = math.Inf(1), math.NaN()
	return x
}

func TestZiggurat(t *testing.T) {
	r := rand.New(rand.NewPCG(61, 67))
	x := zigTables(r)
	var lens []int
	for n := 0; n <= 70; n++ {
		lens = append(lens, n)
	}
	lens = append(lens, 127, 128, 129, 1000, 4099)
	testZigguratPaths(t, x, lens, r)
}

// TestZigguratStreaming checks fills long enough that the SIMD paths ask
// for the lines ahead of the deviates they write (ZIG_STREAM_MIN = 2^15
// elements in ziggurat_amd64.h), just below, at and well above that
// length, with edges under which every draw is accepted (x[j] = 2: |2u| <
// 2), so that each call fills the whole of z.
func TestZigguratStreaming(t *testing.T) {
	x := new([257]float64)
	for i := range x {
		x[i] = 2
	}
	const streamMin = 1 << 15
	r := rand.New(rand.NewPCG(71, 73))
	testZigguratPaths(t, x, []int{streamMin - 1, streamMin, 3*streamMin + 5}, r)
}

// testZigguratPaths checks Ziggurat on every path against the reference.
func testZigguratPaths(t *testing.T, x *[257]float64, lens []int, r *rand.Rand) {
	forEachPath(t, func(t *testing.T) {
		for i, n := range lens {
			for _, rejCap := range []int{8, 9, 15, 16, 64} {
				var s [4 * ZigLanes]uint64
				for w := range s {
					s[w] = r.Uint64()
				}
				wantZ, wantRej, wantS := zigReference(n, &s, x, rejCap)
				gz := newGuarded(i%8, n)
				rej := make([]uint64, rejCap+3)
				for k := range rej {
					rej[k] = 0xdead
				}
				acc, nrej := Ziggurat(gz.s, &s, x, rej[:rejCap])
				what := fmt.Sprintf("n=%d rejCap=%d", n, rejCap)
				if acc != len(wantZ) || nrej != len(wantRej) {
					t.Fatalf("%s: acc, nrej = %d, %d; want %d, %d", what, acc, nrej, len(wantZ), len(wantRej))
				}
				for k, w := range wantZ {
					if math.Float64bits(gz.s[k]) != math.Float64bits(w) {
						t.Fatalf("%s: z[%d] = %v, want %v", what, k, gz.s[k], w)
					}
				}
				// z[acc:] and rej[nrej:] are scratch, but no path writes
				// more than its stores need: AVX-512 a register of 8 past
				// the counts, the others nothing.
				slack := 0
				if Impl() == "avx512" {
					slack = ZigLanes
				}
				for k := acc + slack; k < n; k++ {
					if math.Float64bits(gz.s[k]) != guardBits {
						t.Fatalf("%s: z[%d] = %v written past acc+%d", what, k, gz.s[k], slack)
					}
				}
				if g := gz.guardsIntact(); g != math.MinInt {
					t.Fatalf("%s: guard cell %d overwritten", what, g)
				}
				for k, w := range wantRej {
					if rej[k] != w {
						t.Fatalf("%s: rej[%d] = %#x, want %#x", what, k, rej[k], w)
					}
				}
				for k := min(nrej+slack, rejCap); k < len(rej); k++ {
					if rej[k] != 0xdead {
						t.Fatalf("%s: rej[%d] written past nrej+%d or len(rej)", what, k, slack)
					}
				}
				if s != wantS {
					t.Fatalf("%s: state %x, want %x", what, s, wantS)
				}
			}
		}
	})
}

// TestZigUniform checks the map of a draw to [−1, 1): its ends, and that it
// is the 52 top bits exactly.
func TestZigUniform(t *testing.T) {
	if u := ZigUniform(0); u != -1 {
		t.Errorf("ZigUniform(0) = %v, want -1", u)
	}
	if u := ZigUniform(math.MaxUint64); u != 1-0x1p-51 {
		t.Errorf("ZigUniform(max) = %v, want 1-2^-51", u)
	}
	if u := ZigUniform(1 << 63); u != 0 {
		t.Errorf("ZigUniform(2^63) = %v, want 0", u)
	}
	if u := ZigUniform(0xff); u != -1 {
		t.Errorf("ZigUniform(0xff) = %v: the layer bits must not move u", u)
	}
}

func TestZigguratShortRej(t *testing.T) {
	defer func() {
		if r := recover(); r == nil {
			t.Error("Ziggurat with len(rej) < 8 did not panic")
		}
	}()
	var s [4 * ZigLanes]uint64
	Ziggurat(make([]float64, 4), &s, new([257]float64), make([]uint64, 7))
}

func TestZigguratAllocs(t *testing.T) {
	var s [4 * ZigLanes]uint64
	for i := range s {
		s[i] = uint64(i + 1)
	}
	x := zigTables(rand.New(rand.NewPCG(1, 2)))
	z, rej := make([]float64, 1000), make([]uint64, 64)
	forEachPath(t, func(t *testing.T) {
		if a := testing.AllocsPerRun(20, func() { Ziggurat(z, &s, x, rej) }); a != 0 {
			t.Errorf("%v allocations", a)
		}
	})
}

// TestZigguratBoundary sets up lanes whose first draw is chosen (s0 = 0
// makes it rotl(s3, 23)): |d| = |u·x[j]| equal to x[j+1] must be rejected,
// the next smaller |u| accepted.
func TestZigguratBoundary(t *testing.T) {
	const j = 5
	m := uint64(3) << 50 // u = 2 + m·2⁻⁵¹ − 3 = 0.5
	x := new([257]float64)
	x[j], x[j+1] = 2, 1
	forEachPath(t, func(t *testing.T) {
		var s [4 * ZigLanes]uint64
		for l := range ZigLanes {
			mm := m
			if l%2 == 1 {
				mm-- // u = 0.5 − 2⁻⁵¹: accepted
			}
			s[3*ZigLanes+l] = bits.RotateLeft64(mm<<12|j, -23)
		}
		z, rej := make([]float64, ZigLanes), make([]uint64, ZigLanes)
		acc, nrej := Ziggurat(z, &s, x, rej)
		if acc != 4 || nrej != 4 {
			t.Fatalf("acc, nrej = %d, %d; want 4, 4", acc, nrej)
		}
		for k := range acc {
			if want := (0.5 - 0x1p-51) * 2; z[k] != want {
				t.Errorf("z[%d] = %v, want %v", k, z[k], want)
			}
		}
		for k := range nrej {
			if rej[k] != m<<12|j {
				t.Errorf("rej[%d] = %#x, want %#x", k, rej[k], m<<12|j)
			}
		}
	})
}

// FuzzZiggurat checks that the path in use and the generic one give the same
// deviates, rejected draws and state, for any state, tables and length
// (odd layer edges ratioScale times the even ones before them).
func FuzzZiggurat(f *testing.F) {
	f.Add(uint16(1), uint8(8), uint64(1), uint64(2), 0.5, 1.0)
	f.Add(uint16(17), uint8(9), uint64(0), uint64(0), 0.99, 3.6)
	f.Add(uint16(1000), uint8(64), uint64(7), uint64(9), 0.0, 1e-300)
	f.Add(uint16(63), uint8(16), uint64(3), uint64(5), 1.0, math.Inf(1))
	f.Add(uint16(5), uint8(8), uint64(3), uint64(5), math.NaN(), -2.0)
	f.Fuzz(func(t *testing.T, nIn uint16, rejIn uint8, seed1, seed2 uint64, ratioScale, xScale float64) {
		n, rejCap := int(nIn%4096), 8+int(rejIn%120)
		r := rand.New(rand.NewPCG(seed1, seed2))
		var s [4 * ZigLanes]uint64
		for i := range s {
			s[i] = r.Uint64()
		}
		x := new([257]float64)
		for i := range x {
			x[i] = xScale * r.Float64()
			if i%2 == 1 {
				x[i] = ratioScale * x[i-1]
			}
		}
		s2 := s
		z, rej := make([]float64, n), make([]uint64, rejCap)
		acc, nrej := Ziggurat(z, &s, x, rej)
		var gz []float64
		var grej []uint64
		var gacc, gnrej int
		onGeneric(func() {
			gz, grej = make([]float64, n), make([]uint64, rejCap)
			gacc, gnrej = Ziggurat(gz, &s2, x, grej)
		})
		if acc != gacc || nrej != gnrej || s != s2 {
			t.Fatalf("acc, nrej = %d, %d; generic %d, %d (states equal: %v)", acc, nrej, gacc, gnrej, s == s2)
		}
		for i := range acc {
			if math.Float64bits(z[i]) != math.Float64bits(gz[i]) {
				t.Fatalf("z[%d] = %v, generic %v", i, z[i], gz[i])
			}
		}
		for i := range nrej {
			if rej[i] != grej[i] {
				t.Fatalf("rej[%d] = %#x, generic %#x", i, rej[i], grej[i])
			}
		}
	})
}
