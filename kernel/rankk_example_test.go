package kernel_test

import (
	"fmt"

	"github.com/mmaes-go/mmaes/kernel"
)

func ExampleScaleAddRankK() {
	// A ← 0.5·I + 2·p_0·q_0ᵀ − 1·p_1·q_1ᵀ with two terms (k = 2) stored as
	// the rows of p and q. The values are exact, so every path prints the same.
	a := []float64{1, 0, 0, 1}
	beta := []float64{2, -1}
	p := []float64{
		1, 2, // p_0
		0.5, 1, // p_1
	}
	q := []float64{
		3, 4, // q_0
		2, -2, // q_1
	}
	kernel.ScaleAddRankK(a, 2, 0.5, beta, p, q, 2)
	fmt.Printf("%.3g\n%.3g\n", a[:2], a[2:])
	// Output:
	// [5.5 9]
	// [10 18.5]
}
