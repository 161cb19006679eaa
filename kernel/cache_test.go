package kernel

import "testing"

// TestCacheBytes decodes CPUID's cache parameters worked out by hand.
func TestCacheBytes(t *testing.T) {
	for _, tc := range []struct {
		ways, parts, line, sets uint32
		want                    int
	}{
		{16, 1, 64, 32768, 32 << 20}, // a 32 MiB L3 of 16 ways
		{8, 1, 64, 2048, 1 << 20},    // a 1 MiB L2 of 8 ways
		{15, 1, 64, 278528, 255 << 20},
		{1, 1, 1, 1, 1},
	} {
		ebx := (tc.ways-1)<<22 | (tc.parts-1)<<12 | (tc.line - 1)
		if got := cacheBytes(ebx, tc.sets-1); got != tc.want {
			t.Errorf("%d ways × %d × %d bytes × %d sets: %d bytes, want %d", tc.ways, tc.parts, tc.line, tc.sets, got, tc.want)
		}
	}
}

// TestStreamMin checks the size from which the low-rank kernels stream
// against values worked out by hand: 16 MiB (2^21 elements) where the L3
// is unknown or at least 128 MiB, an eighth of the L3 below, never under
// the L2.
func TestStreamMin(t *testing.T) {
	for _, tc := range []struct{ l2, l3, want int }{
		{1 << 20, 0, 1 << 21},         // no L3 reported
		{1 << 20, 32 << 20, 1 << 19},  // 4 MiB of a 32 MiB L3
		{2 << 20, 260 << 20, 1 << 21}, // 32.5 MiB: capped at 16 MiB
		{1 << 20, 128 << 20, 1 << 21}, // exactly 16 MiB
		{1 << 20, 4 << 20, 1 << 17},   // 512 KiB: raised to the L2
		{0, 8 << 20, 1 << 17},         // an eighth of 8 MiB, no L2 known
	} {
		if got := streamMinFor(tc.l2, tc.l3); got != tc.want {
			t.Errorf("L2 %d, L3 %d: %d elements, want %d", tc.l2, tc.l3, got, tc.want)
		}
	}
	if got, want := StreamBytes(), 8*streamMin; got != want {
		t.Errorf("StreamBytes() = %d, want %d (8 × streamMin)", got, want)
	}
}

// TestCombineStreamMin checks the size from which CombineRows streams
// against values worked out by hand: StreamBytes where the L3 is unknown,
// else the larger of 4 MiB (2^19 elements) and twice the L2, at most
// StreamBytes.
func TestCombineStreamMin(t *testing.T) {
	for _, tc := range []struct{ l2, l3, want int }{
		{1 << 20, 0, 1 << 21},         // no L3 reported: 16 MiB, as DotRows
		{1 << 20, 32 << 20, 1 << 19},  // the AMD CPUs: 4 MiB, as DotRows
		{2 << 20, 105 << 20, 1 << 19}, // a 105 MiB L3 (DotRows: 13.1 MiB): 4 MiB
		{2 << 20, 260 << 20, 1 << 19}, // a 260 MiB L3 (DotRows: 16 MiB): 4 MiB
		{4 << 20, 260 << 20, 1 << 20}, // an L2 of 4 MiB: 8 MiB
		{1 << 20, 16 << 20, 1 << 18},  // a 16 MiB L3: DotRows' 2 MiB
		{8 << 20, 64 << 20, 1 << 20},  // an L2 of 8 MiB: DotRows' 8 MiB (the L2 is its floor)
	} {
		if got := combineStreamMinFor(tc.l2, tc.l3); got != tc.want {
			t.Errorf("L2 %d, L3 %d: %d elements, want %d", tc.l2, tc.l3, got, tc.want)
		}
	}
	if got, want := CombineStreamBytes(), 8*combineStreamMin; got != want {
		t.Errorf("CombineStreamBytes() = %d, want %d (8 × combineStreamMin)", got, want)
	}
	if CombineStreamBytes() > StreamBytes() {
		t.Errorf("CombineStreamBytes() = %d, above StreamBytes() = %d", CombineStreamBytes(), StreamBytes())
	}
}
