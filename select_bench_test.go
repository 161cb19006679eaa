package mmaes

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkRank measures rank at the λ of n = 2, 8, 32 and 1024 on random
// fitness values, a different set each call (4096 sets in turn), so that the
// branch predictor cannot learn one order, as it cannot in a run.
func BenchmarkRank(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, lam := range []int{6, 10, 14, 24} {
		sets := make([][]float64, 4096)
		for i := range sets {
			sets[i] = make([]float64, lam)
			for j := range sets[i] {
				sets[i][j] = r.NormFloat64()
			}
		}
		idx := make([]int, lam)
		var sc rankScratch
		sc.resize(lam)
		b.Run(fmt.Sprintf("lambda=%d", lam), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				rank(idx, sets[i&(len(sets)-1)], &sc)
				i++
			}
		})
	}
}
