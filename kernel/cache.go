package kernel

// l2Bytes is the size of a core's L2 cache: what CPUID reports on amd64
// (set by init), else l2Default.
var l2Bytes = l2Default

// l2Default is the L2 size assumed where the CPU does not report one: a
// core's L2 on the AMD CPUs measured (Zen 4 and Zen 5; the Intel Xeon
// measured has 2 MiB).
const l2Default = 1 << 20

// l3Bytes is the size of the L3 cache where CPUID reports it the way
// AMD's CPUs do (set by init on amd64), else 0: unknown.
var l3Bytes int

// L2Bytes returns the size of one core's L2 cache in bytes, as CPUID
// reports it on amd64 (with assembly), else 1 MiB, assumed. CombineRows
// sizes its blocks by it (CombineRowsBlock).
func L2Bytes() int { return l2Bytes }

// L3Bytes returns the size of the L3 cache in bytes where CPUID reports
// it in leaf 0x80000006 (AMD's CPUs, on amd64 with assembly), else 0.
// StreamBytes follows it.
func L3Bytes() int { return l3Bytes }

// StreamBytes returns the size from which DotRows and CombineRows treat
// their operands (the stored vectors and the population together) as
// streaming from memory: they then ask for the next block's rows ahead of
// time and CombineRows writes x with non-temporal stores, on the paths
// that do, and CombineRows sizes its blocks for two panels
// (CombineRowsBlock). It is 16 MiB, or an eighth of the L3 where the CPU
// reports one (the share of one of the eight cores that share an L3 on
// the AMD CPUs measured: 4 MiB on a 32 MiB L3), but never less than L2.
// None of it changes a bit of the results.
func StreamBytes() int { return 8 * streamMin }

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

// cacheBytes is the size of a cache from the EBX and ECX of CPUID's
// deterministic cache parameters (leaf 4, or 0x8000001D on AMD): ways ×
// partitions × line size × sets, each field one less than its value.
func cacheBytes(ebx, ecx uint32) int {
	return int(ebx>>22+1) * int(ebx>>12&0x3ff+1) * int(ebx&0xfff+1) * int(ecx+1)
}
