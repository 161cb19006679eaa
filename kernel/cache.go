package kernel

// l2Bytes is the size of a core's L2 cache: what CPUID reports on amd64
// (set by init), else l2Default.
var l2Bytes = l2Default

// l2Default is the L2 size assumed where the CPU does not report one: a
// core's L2 on the AMD CPUs measured (Zen 4 and Zen 5; the Intel Xeon
// measured has 2 MiB).
const l2Default = 1 << 20

// l3Bytes is the size of the L3 cache CPUID reports on amd64 (set by
// init), else 0: unknown.
var l3Bytes int

// L2Bytes returns the size of one core's L2 cache in bytes, as CPUID
// reports it on amd64 (with assembly), else 1 MiB, assumed. CombineRows
// sizes its blocks by it (CombineRowsBlock).
func L2Bytes() int { return l2Bytes }

// L3Bytes returns the size in bytes of the L3 cache a core shares, as
// CPUID's deterministic cache parameters report it on amd64 (with
// assembly; leaf 4 on Intel, 0x8000001D on AMD), else 0. StreamBytes
// follows it.
func L3Bytes() int { return l3Bytes }

// StreamBytes returns the size from which DotRows treats its operands (the
// stored vectors and the population together) as streaming from memory:
// it then asks for the next block's rows ahead of time, on the paths that
// do. It is an eighth of the L3 where the CPU reports one (the share of
// one of the eight cores that share an L3 on the AMD CPUs measured: 4 MiB
// of 32 MiB), at most 16 MiB (what an L3 of 128 MiB or more gives, and the
// size where the CPU reports none) and at least L2. It changes no bit of
// the results.
func StreamBytes() int { return 8 * streamMin }

// CombineStreamBytes returns the size from which CombineRows treats its
// operands (the stored vectors and the population together) as streaming
// from memory: it then walks the next block's panel ahead of time, writes
// x with non-temporal stores, on the paths that do, and sizes its blocks
// for two panels (CombineRowsBlock). Where the CPU reports an L3 it is the
// larger of 4 MiB and twice the L2, at most StreamBytes; where it reports
// none, StreamBytes. It is smaller than StreamBytes on CPUs with a large
// L3, where CombineRows measured faster streaming from 4 MiB and DotRows
// slower (docs/large-scale.md, Speed). It changes no bit of the results.
func CombineStreamBytes() int { return 8 * combineStreamMin }

// streamMinFor is the fewest elements that stream for an L2 of l2 bytes
// and an L3 of l3 bytes (0: unknown).
func streamMinFor(l2, l3 int) int {
	if l3 <= 0 {
		return prefetchMin
	}
	return min(prefetchMin, max(l3/64, l2/8))
}

// streamMin is streamMinFor for this CPU, in elements.
var streamMin = prefetchMin

// combineStreamMinFor is the fewest elements from which CombineRows
// streams for an L2 of l2 bytes and an L3 of l3 bytes (0: unknown).
func combineStreamMinFor(l2, l3 int) int {
	sm := streamMinFor(l2, l3)
	if l3 <= 0 {
		return sm
	}
	return min(sm, max(combineStreamFloor, l2/4))
}

// combineStreamFloor (2^19 elements, 4 MiB) is the least combineStreamMin
// that StreamBytes does not set: the size from which CombineRows measured
// faster streaming on the AMD CPUs (their StreamBytes too) and on the
// Intel Xeon with an L3 of 105 MiB, also with an objective that reads the
// candidates; below it, streaming lost there with such an objective.
const combineStreamFloor = 1 << 19

// combineStreamMin is combineStreamMinFor for this CPU, in elements.
var combineStreamMin = prefetchMin

// cacheBytes is the size of a cache from the EBX and ECX of CPUID's
// deterministic cache parameters (leaf 4, or 0x8000001D on AMD): ways ×
// partitions × line size × sets, each field one less than its value.
func cacheBytes(ebx, ecx uint32) int {
	return int(ebx>>22+1) * int(ebx>>12&0x3ff+1) * int(ebx&0xfff+1) * int(ecx+1)
}
