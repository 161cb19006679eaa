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
