//go:build gc && !purego

package kernel

import "golang.org/x/sys/cpu"

// hasPOPCNT is set at start-up: the assembly counts the bits of the masks
// with POPCNT (every AVX2 CPU has it, but the feature bit is separate).
var hasPOPCNT = cpu.X86.HasPOPCNT

func countLess(dst []int, keys []int64) {
	switch {
	case useAVX512 && hasPOPCNT:
		countLessAVX512(dst, keys)
	case useAVX2 && hasPOPCNT:
		countLessAVX2(dst, keys)
	default:
		countLessGeneric(dst, keys)
	}
}

// countLessAVX512 is countLessGeneric with 8 keys a comparison (a mask, and
// its population count). len(keys) ≥ 1, len(dst) ≥ len(keys).
//
//go:noescape
func countLessAVX512(dst []int, keys []int64)

// countLessAVX2 is countLessAVX512 with 4 keys a comparison.
//
//go:noescape
func countLessAVX2(dst []int, keys []int64)

func rankFloats(idx []int, x []float64, keys []int64, pos []int) int {
	if useAVX512 && hasPOPCNT {
		return rankFloatsAVX512(idx, x, keys)
	}
	return rankFloatsGeneric(idx, x, keys, pos)
}

// rankFloatsAVX512 is RankFloats in one pass over the keys, 8 at a time,
// and one count: the rank of value i is the number of j with key_j < key_i
// or key_j = key_i and j < i, so no pass puts ties in order afterwards.
// 1 ≤ len(x) ≤ 64, len(idx) ≥ len(x), len(keys) ≥ 2·len(x).
//
//go:noescape
func rankFloatsAVX512(idx []int, x []float64, keys []int64) (valid int)
