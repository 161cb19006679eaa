package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// Benchmarks: every kernel on every path this machine has, with throughput
// metrics. Compare paths with
//
//	go test -run '^$' -bench . -count 10 ./kernel/ > bench.txt
//	benchstat -col /impl bench.txt
//
// BenchmarkPeakFMA and BenchmarkStream measure, in the same run, the
// machine's single-core FMA peak and its in-place read+write bandwidth over
// an array as large as A, the references for the GFLOP/s and GB/s figures.

// benchSizes are the dimensions of the benchmarks (63: not a multiple of the
// SIMD width).
var benchSizes = []int{8, 16, 63, 64, 256, 1024, 4096}

// lambda is the paper's population size 4+⌊3 ln n⌋.
func lambda(n int) int { return 4 + int(3*math.Log(float64(n))) }

// benchPaths runs body once per path available at start-up (allPaths in
// kernel_test.go) as a sub-benchmark named impl=<path>, restoring the flags
// afterwards.
func benchPaths(b *testing.B, body func(b *testing.B)) {
	for _, p := range allPaths() {
		if !p.avail {
			continue
		}
		b.Run("impl="+p.name, func(b *testing.B) {
			defer setPath(p)()
			body(b)
		})
	}
}

func randSlice(r *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = r.NormFloat64()
	}
	return s
}

// gflops reports flops per op as GFLOP/s.
func gflops(b *testing.B, flopsPerOp float64) {
	b.ReportMetric(flopsPerOp*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

func BenchmarkMulVecs(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, n := range benchSizes {
		k := lambda(n)
		a, x, y := randSlice(r, n*n), randSlice(r, k*n), make([]float64, k*n)
		b.Run(fmt.Sprintf("n=%d/k=%d", n, k), func(b *testing.B) {
			benchPaths(b, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(8 * n * n))
				for b.Loop() {
					MulVecs(y, a, n, x, k)
				}
				gflops(b, float64(2*k*n*n))
			})
		})
	}
}

func BenchmarkMulVec(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range benchSizes {
		a, x, y := randSlice(r, n*n), randSlice(r, n), make([]float64, n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			benchPaths(b, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(8 * n * n))
				for b.Loop() {
					MulVec(y, a, n, x)
				}
				gflops(b, float64(2*n*n))
			})
		})
	}
}

func BenchmarkScaleAddOuter(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 3))
	for _, n := range benchSizes {
		a, p, v := randSlice(r, n*n), randSlice(r, n), randSlice(r, n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			benchPaths(b, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(16 * n * n)) // A is read and written
				for b.Loop() {
					// α·β near 1 keeps A's magnitude steady over b.N calls.
					ScaleAddOuter(a, n, 0.999, 1e-3, p, v)
				}
			})
		})
	}
}

// BenchmarkScaleAxpyRows is the placing of a population of λ candidates:
// y_i ← s·y_i, x_i ← m + σ·y_i.
func BenchmarkScaleAxpyRows(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 9))
	for _, n := range []int{8, 30, 63, 64, 100} {
		k := lambda(n)
		x, y, m := make([]float64, k*n), randSlice(r, k*n), randSlice(r, n)
		b.Run(fmt.Sprintf("n=%d/k=%d", n, k), func(b *testing.B) {
			benchPaths(b, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(24 * k * n)) // y read and written, x written
				for b.Loop() {
					ScaleAxpyRows(x, 0.5, y, 1, m, k)
				}
			})
		})
	}
}

// BenchmarkScaleAddOuterNorms is the stop tests' scan of A with a pending
// update: ScaleAddOuterNorms (fused=true) against ScaleAddOuter followed by
// Norm of every row (fused=false), which reads A twice.
func BenchmarkScaleAddOuterNorms(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 8))
	for _, n := range benchSizes {
		a, p, v, norms := randSlice(r, n*n), randSlice(r, n), randSlice(r, n), make([]float64, n)
		for _, fused := range []bool{true, false} {
			b.Run(fmt.Sprintf("n=%d/fused=%v", n, fused), func(b *testing.B) {
				benchPaths(b, func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(16 * n * n))
					for b.Loop() {
						if fused {
							ScaleAddOuterNorms(a, n, 0.999, 1e-3, p, v, norms)
							continue
						}
						ScaleAddOuter(a, n, 0.999, 1e-3, p, v)
						for i := range n {
							norms[i] = Norm(a[i*n : i*n+n])
						}
					}
				})
			})
		}
	}
}

// BenchmarkStream is the bandwidth reference for ScaleAddOuter: an in-place
// scale of an array of 8·n² bytes (16·n² bytes moved), with the same path.
func BenchmarkStream(b *testing.B) {
	for _, n := range benchSizes {
		a := make([]float64, n*n)
		for i := range a {
			a[i] = 1
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			benchPaths(b, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(16 * n * n))
				for b.Loop() {
					Scale(1, a)
				}
			})
		})
	}
}

// BenchmarkVector covers the vector helpers at every size.
func BenchmarkVector(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 4))
	for _, n := range benchSizes {
		x, y := randSlice(r, n), randSlice(r, n)
		const mu = 12
		block, w, rows := randSlice(r, 2*mu*n), randSlice(r, mu), make([]int, mu)
		for i := range rows {
			rows[i] = 2 * i
		}
		var sink float64
		kernels := []struct {
			name  string
			flops int
			f     func()
		}{
			{"dot", 2 * n, func() { sink += Dot(x, y) }},
			{"norm", 2 * n, func() { sink += Norm(x) }},
			{"axpby", 3 * n, func() { AxpBy(1e-3, x, 0.999, y) }},
			{"scale", n, func() { Scale(1, y) }},
			{"weightedsum", 2 * mu * n, func() { WeightedSum(y, w, block, n, rows) }},
		}
		for _, kern := range kernels {
			b.Run(fmt.Sprintf("kernel=%s/n=%d", kern.name, n), func(b *testing.B) {
				benchPaths(b, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						kern.f()
					}
					gflops(b, float64(kern.flops))
				})
			})
		}
		_ = sink
	}
}

// BenchmarkUpdateMulVecs is a generation's matrix work: the rank-one update
// of A and the sampling, fused (one pass over A where the path has it), with
// the scratch space passed in as the optimizer does (work=true) or on the
// stack (work=false), and as ScaleAddOuter followed by MulVecs (fused=false);
// alpha=1 is the optimizer's update, whose α is 1 (A = s·Ã).
func BenchmarkUpdateMulVecs(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 5))
	for _, n := range benchSizes {
		k := lambda(n)
		a, x, y, p, v := randSlice(r, n*n), randSlice(r, k*n), make([]float64, k*n), randSlice(r, n), randSlice(r, n)
		for _, mode := range []string{"fused=true/work=true", "fused=true/work=true/alpha=1", "fused=true/work=false", "fused=false"} {
			b.Run(fmt.Sprintf("n=%d/k=%d/%s", n, k, mode), func(b *testing.B) {
				benchPaths(b, func(b *testing.B) {
					w := make([]float64, WorkLen(n, k))
					b.ReportAllocs()
					for b.Loop() {
						switch mode {
						case "fused=true/work=true":
							UpdateMulVecsWork(y, a, n, 0.999, 1e-3, p, v, x, k, w)
						case "fused=true/work=true/alpha=1":
							UpdateMulVecsWork(y, a, n, 1, 1e-6, p, v, x, k, w)
						case "fused=true/work=false":
							UpdateMulVecs(y, a, n, 0.999, 1e-3, p, v, x, k)
						default:
							ScaleAddOuter(a, n, 0.999, 1e-3, p, v)
							MulVecs(y, a, n, x, k)
						}
					}
					gflops(b, float64(2*k*n*n+3*n*n))
				})
			})
		}
	}
}

// BenchmarkCountLess ranks a population's keys: λ = 6, 10, 14, 24 and 64,
// random keys (the comparisons have no branch, so one set suffices).
func BenchmarkCountLess(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 7))
	for _, k := range []int{6, 10, 14, 24, 64} {
		keys, dst := make([]int64, k), make([]int, k)
		for i := range keys {
			keys[i] = int64(r.Uint64())
		}
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			benchPaths(b, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					CountLess(dst, keys)
				}
				b.ReportMetric(float64(k*k)*float64(b.N)/float64(b.Elapsed().Nanoseconds()), "cmp/ns")
			})
		})
	}
}

// BenchmarkRowNorms times the norms of all n rows of an n×n matrix (the
// optimizer's exact scan of A), by RowNorms and by a call of Norm per row.
func BenchmarkRowNorms(b *testing.B) {
	for _, n := range []int{16, 32, 64, 256} {
		r := rand.New(rand.NewPCG(1, 2))
		a := genVec(r, n*n, kindUniform)
		dst := make([]float64, n)
		b.Run(fmt.Sprintf("n=%d/rownorms", n), func(b *testing.B) {
			for b.Loop() {
				RowNorms(dst, a, n)
			}
		})
		b.Run(fmt.Sprintf("n=%d/norm-per-row", n), func(b *testing.B) {
			for b.Loop() {
				for i := range dst {
					dst[i] = Norm(a[i*n : i*n+n])
				}
			}
		})
	}
}
