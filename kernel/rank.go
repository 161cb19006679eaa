package kernel

import "math/bits"

// CountLess sets dst[i] to the number of j with keys[j] < keys[i], for
// i < len(keys). For distinct keys that is the rank of keys[i] (0 for the
// smallest): the optimizer ranks its population this way (mmaes/select.go),
// λ² comparisons without a data-dependent branch, where a comparison sort
// mispredicts about one branch per element on random fitness values. dst
// must have at least len(keys) elements. The cost is len(keys)² comparisons:
// it is meant for populations, not for large arrays.
func CountLess(dst []int, keys []int64) {
	if len(dst) < len(keys) {
		panic("kernel: short dst")
	}
	if len(keys) == 0 {
		return
	}
	countLess(dst[:len(keys)], keys)
}

// countLessGeneric is CountLess in Go: the comparison is the borrow of an
// unsigned subtraction of the keys with the sign bit flipped, so the
// compiler emits no branch for it.
func countLessGeneric(dst []int, keys []int64) {
	for i, p := range keys {
		up, c := uint64(p)^1<<63, uint64(0)
		for _, q := range keys {
			_, borrow := bits.Sub64(uint64(q)^1<<63, up, 0)
			c += borrow
		}
		dst[i] = int(c)
	}
}
