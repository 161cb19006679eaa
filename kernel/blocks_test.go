package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestVectorBlocks covers vectors longer than vecBlock, which the wrappers
// hand to the assembly block by block: Dot and Norm within their bounds of
// the reference, AxpBy and Scale element by element against the generic
// kernels' arithmetic (fma(α, x, β·y) rounds once more than α·x + β·y on
// the generic path: the elemBound of kernel_test.go), and every element
// written (the last block included).
func TestVectorBlocks(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 7))
	for _, n := range []int{vecBlock, vecBlock + 1, 3*vecBlock + 7} {
		x, y := genVec(r, n, 0), genVec(r, n, 0)
		var acc dotAcc
		acc.addVec(x, y)
		ref, _ := acc.result()
		var sq dotAcc
		sq.addVec(x, x)
		refSq, _ := sq.result()
		forEachPath(t, func(t *testing.T) {
			if got := Dot(x, y); math.Abs(got-ref) > acc.bound() {
				t.Errorf("n=%d: Dot = %v, reference %v (bound %g)", n, got, ref, acc.bound())
			}
			want := math.Sqrt(refSq)
			if got := Norm(x); math.Abs(got-want) > normBound(n, want) {
				t.Errorf("n=%d: Norm = %v, reference %v", n, got, want)
			}
			z := append([]float64(nil), y...)
			AxpBy(0.75, x, -1.25, z)
			for i := range z {
				want, A, _ := elemRef(0.75, x[i], -1.25, y[i])
				if math.Abs(z[i]-want) > elemBound(A) {
					t.Fatalf("n=%d: AxpBy[%d] = %v, reference %v", n, i, z[i], want)
				}
			}
			copy(z, y)
			Scale(-3, z)
			for i := range z {
				if z[i] != -3*y[i] {
					t.Fatalf("n=%d: Scale[%d] = %v, want %v", n, i, z[i], -3*y[i])
				}
			}
		})
	}
}
