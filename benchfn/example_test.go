package benchfn_test

import (
	"fmt"

	"github.com/mmaes-go/mmaes/benchfn"
)

func ExampleCigar() {
	fmt.Println(benchfn.Cigar([]float64{1, 2, 3})) // 1 + 10⁶·(4+9)
	// Output: 1.3000001e+07
}

func ExampleSchwefel12Paper() {
	// The paper's Sch omits x_n; the usual Schwefel 1.2 does not.
	x := []float64{1, 2, 3}
	fmt.Println(benchfn.Schwefel12Paper(x), benchfn.Schwefel12(x))
	// Output: 10 46
}

func ExampleAll() {
	for _, f := range benchfn.All() {
		fmt.Printf("%-4s %-16s %g\n", f.Short, f.Name, f.Target)
	}
	// Output:
	// sp   Sphere           1e-10
	// cig  Cigar            1e-10
	// ctb  CigarTablet      1e-10
	// ell  Ellipsoid        1e-10
	// tab  Tablet           1e-10
	// tx   TwoAxes          1e-10
	// dp   DiffPowers       1e-10
	// sch  Schwefel12Paper  1e-10
	// ros  Rosenbrock       1e-10
	// pr   ParabolicRidge   -1e+10
}

func ExampleByName() {
	f, ok := benchfn.ByName("ros")
	fmt.Println(f.Name, ok, f.F([]float64{1, 1, 1}))
	_, ok = benchfn.ByName("ackley")
	fmt.Println(ok)
	// Output:
	// Rosenbrock true 0
	// false
}

func ExampleRotated() {
	const n = 4
	r := benchfn.Rotation(n, 1)
	ell := benchfn.Rotated(benchfn.Ellipsoid, r, n) // x ↦ f_Ell(R·x)
	sp := benchfn.Rotated(benchfn.Sphere, r, n)     // rotation keeps ‖x‖²
	x := []float64{1, 2, 3, 4}
	fmt.Printf("%.3g %.6g\n", ell(make([]float64, n)), sp(x))
	// Output: 0 30
}
