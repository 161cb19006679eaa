package kernel

// l2Bytes is the size of a core's L2 cache: what CPUID reports on amd64
// (set by init), else l2Default.
var l2Bytes = l2Default

// l2Default is the L2 size assumed where the CPU does not report one: a
// core's L2 on the AMD CPUs measured (Zen 4 and Zen 5; the Intel Xeon
// measured has 2 MiB).
const l2Default = 1 << 20

// L2Bytes returns the size of one core's L2 cache in bytes, as CPUID
// reports it on amd64 (with assembly), else 1 MiB, assumed. CombineRows
// sizes its blocks by it (CombineRowsBlock).
func L2Bytes() int { return l2Bytes }
