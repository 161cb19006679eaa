package kernel_test

import (
	"fmt"

	"github.com/mmaes-go/mmaes/kernel"
)

// The inputs are small integers and binary fractions, so every result is
// exact and every path prints the same.

func ExampleMulVecs() {
	// A = [1 2; 3 4], two vectors x_0 = (1, 0) and x_1 = (0.5, -1).
	a := []float64{1, 2, 3, 4}
	x := []float64{1, 0, 0.5, -1}
	y := make([]float64, len(x))
	kernel.MulVecs(y, a, 2, x, 2)
	fmt.Printf("y_0 = %.3g\ny_1 = %.3g\n", y[:2], y[2:])
	// Output:
	// y_0 = [1 3]
	// y_1 = [-1.5 -2.5]
}

func ExampleUpdateMulVecsWork() {
	// A caller that samples every generation keeps the kernels' scratch
	// space (WorkLen) with its other buffers: here A = I is updated to
	// 0.5·I + 2·p·vᵀ, then y = A·x for the vectors x_0 = (1, 0), x_1 = (0, 1).
	const n, k = 2, 2
	work := make([]float64, kernel.WorkLen(n, k)) // 0 here: n < 256
	a := []float64{1, 0, 0, 1}
	p, v := []float64{1, 2}, []float64{3, 4}
	x := []float64{1, 0, 0, 1}
	y := make([]float64, k*n)
	kernel.UpdateMulVecsWork(y, a, n, 0.5, 2, p, v, x, k, work)
	fmt.Printf("y_0 = %.3g\ny_1 = %.3g\n", y[:2], y[2:])
	// Output:
	// y_0 = [6.5 12]
	// y_1 = [8 16.5]
}

func ExampleScaleAddOuter() {
	// A ← 0.5·I + 2·p·vᵀ.
	a := []float64{1, 0, 0, 1}
	p := []float64{1, 2}
	v := []float64{3, 4}
	kernel.ScaleAddOuter(a, 2, 0.5, 2, p, v)
	fmt.Printf("%.3g\n%.3g\n", a[:2], a[2:])
	// Output:
	// [6.5 8]
	// [12 16.5]
}

func ExampleDot() {
	x := []float64{1, 2, 3}
	y := []float64{4, 5, 6}
	fmt.Printf("%.3g\n", kernel.Dot(x, y))
	// Output: 32
}

func ExampleWeightedSum() {
	// Three vectors of length 2; recombine 0.5·x_2 + 0.25·x_0.
	x := []float64{1, 2, 3, 4, 5, 6}
	w := []float64{0.5, 0.25}
	rows := []int{2, 0}
	dst := make([]float64, 2)
	kernel.WeightedSum(dst, w, x, 2, rows)
	fmt.Printf("%.3g\n", dst)
	// Output: [2.75 3.5]
}

func ExampleCountLess() {
	// The rank of each key among distinct keys: how many are smaller.
	keys := []int64{30, -5, 12, 7}
	rank := make([]int, len(keys))
	kernel.CountLess(rank, keys)
	order := make([]int64, len(keys))
	for i, r := range rank {
		order[r] = keys[i]
	}
	fmt.Println(rank, order)
	// Output: [3 0 2 1] [-5 7 12 30]
}
