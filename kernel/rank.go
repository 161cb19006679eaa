package kernel

import (
	"math"
	"math/bits"
)

// CountLess sets dst[i] to the number of j with keys[j] < keys[i], for
// i < len(keys). For distinct keys that is the rank of keys[i] (0 for the
// smallest): the optimizer (package mmaes) ranks its population this way,
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

// RankFloatsMax is the largest len(x) RankFloats takes.
const RankFloatsMax = 64

// RankFloats sets idx[:len(x)] to the indices of x sorted in ascending
// order, with −Inf first, +Inf after every finite value and NaN after
// everything; values that compare equal (−0 and +0, any two NaNs) keep
// their index order. It returns the number of values that are not NaN
// (they come first). This is the optimizer's ranking of a population
// (package mmaes), without a data-dependent branch. len(x) must be at
// most RankFloatsMax, idx and pos must have at least len(x) elements and
// keys at least 2·len(x) (scratch; their contents are undefined after the
// call).
func RankFloats(idx []int, x []float64, keys []int64, pos []int) (valid int) {
	n := len(x)
	if n > RankFloatsMax || len(idx) < n || len(pos) < n || len(keys) < 2*n {
		panic("kernel: RankFloats: bad lengths")
	}
	if n == 0 {
		return 0
	}
	return rankFloats(idx[:n], x, keys[:2*n], pos[:n])
}

// rankFloatsGeneric is RankFloats on any path: each value's rank is the
// number of smaller keys (CountLess), on keys that carry the index in
// their 6 low bits, so that they are distinct and ties go by index. Only
// values whose keys agree in all other bits can come out of order, and
// one pass of insertion on the full keys (which moves nothing in the
// usual case, so its branches are predicted) puts them right.
func rankFloatsGeneric(idx []int, x []float64, keys []int64, pos []int) (valid int) {
	n := len(x)
	keys, packed := keys[:n], keys[n:2*n]
	for i, f := range x {
		k := floatKey(f)
		keys[i], packed[i] = k, k&^(RankFloatsMax-1)|int64(i)
		if f == f {
			valid++
		}
	}
	countLess(pos, packed)
	for i, p := range pos {
		idx[p] = i
	}
	for i := 1; i < n; i++ {
		c, j := idx[i], i
		for ; j > 0 && keys[c] < keys[idx[j-1]]; j-- {
			idx[j] = idx[j-1]
		}
		idx[j] = c
	}
	return valid
}

// floatKey maps a value to an integer key in RankFloats' order: keys
// compare as the values do (−0 and +0, and all NaNs, get one key each).
// Without a branch on the sign: the bits of a negative value, magnitude
// bits flipped, order as their two's complement.
func floatKey(f float64) int64 {
	if f != f {
		return math.MaxInt64
	}
	b := int64(math.Float64bits(f + 0)) // −0 + 0 = +0
	return b ^ (b >> 63 & math.MaxInt64)
}
