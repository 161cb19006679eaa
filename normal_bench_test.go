package mmaes

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkNormal compares fillNormal (eight xoshiro256++ lanes, 256-layer
// ziggurat) with math/rand/v2's NormFloat64 on its PCG, per deviate.
func BenchmarkNormal(b *testing.B) {
	z := make([]float64, 1024)
	b.Run("impl=ziggurat256", func(b *testing.B) {
		src := newXoshiro(1)
		b.ReportAllocs()
		for b.Loop() {
			fillNormal(src, z)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(z)), "ns/deviate")
	})
	b.Run("impl=rand.NormFloat64", func(b *testing.B) {
		r := rand.New(rand.NewPCG(1, 2))
		b.ReportAllocs()
		for b.Loop() {
			for i := range z {
				z[i] = r.NormFloat64()
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(z)), "ns/deviate")
	})
}

// BenchmarkNormalFill times fillNormal per deviate into a buffer that stays
// in L1 (len=1024) and into one that goes to memory (len=4194304, 32 MiB,
// as the limited memory's population at n = 10⁵ does): the second pays for
// the lines the deviates are written to.
func BenchmarkNormalFill(b *testing.B) {
	for _, n := range []int{1024, 1 << 22} {
		z := make([]float64, n)
		b.Run(fmt.Sprintf("len=%d", n), func(b *testing.B) {
			src := newXoshiro(1)
			b.ReportAllocs()
			for b.Loop() {
				fillNormal(src, z)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(z)), "ns/deviate")
		})
	}
}
