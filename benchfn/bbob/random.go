package bbob

import "math"

// The instance generator of COCO's bbob suite (its "legacy" bbob2009 code):
// a lagged shuffle of a Park–Miller (16807) generator for uniform numbers,
// Box–Muller for normal ones, and from them the optimum x_opt, the optimal
// value f_opt and the random rotations. Every instance of every function
// draws from these with its own seed, function + 10000·instance.

// unif fills r with uniform numbers in (0, 1) from seed.
func unif(r []float64, seed int64) {
	if seed < 0 {
		seed = -seed
	}
	if seed < 1 {
		seed = 1
	}
	akt := seed
	var rgrand [32]int64
	step := func() {
		tmp := int64(math.Floor(float64(akt) / 127773))
		akt = 16807*(akt-tmp*127773) - 2836*tmp
		if akt < 0 {
			akt += 2147483647
		}
	}
	for i := 39; i >= 0; i-- {
		step()
		if i < 32 {
			rgrand[i] = akt
		}
	}
	aktrand := rgrand[0]
	for i := range r {
		step()
		tmp := int64(math.Floor(float64(aktrand) / 67108865))
		aktrand = rgrand[tmp]
		rgrand[tmp] = akt
		r[i] = float64(aktrand) / 2.147483647e9
		if r[i] == 0 {
			r[i] = 1e-99
		}
	}
}

// gauss fills g with normal numbers from seed (Box–Muller on 2·len(g)
// uniform ones: the first half gives the radii, the second the angles).
func gauss(g []float64, seed int64) {
	n := len(g)
	u := make([]float64, 2*n)
	unif(u, seed)
	for i := range g {
		g[i] = math.Sqrt(-2*math.Log(u[i])) * math.Cos(2*math.Pi*u[n+i])
		if g[i] == 0 {
			g[i] = 1e-99
		}
	}
}

// rotation returns an n×n orthogonal matrix, row-major, from seed: normal
// numbers in column-major order, orthonormalized column by column
// (Gram–Schmidt).
func rotation(n int, seed int64) []float64 {
	g := make([]float64, n*n)
	gauss(g, seed)
	b := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			b[i*n+j] = g[j*n+i]
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			prod := 0.0
			for k := 0; k < n; k++ {
				prod += b[k*n+i] * b[k*n+j]
			}
			for k := 0; k < n; k++ {
				b[k*n+i] -= prod * b[k*n+j]
			}
		}
		prod := 0.0
		for k := 0; k < n; k++ {
			prod += b[k*n+i] * b[k*n+i]
		}
		for k := 0; k < n; k++ {
			b[k*n+i] /= math.Sqrt(prod)
		}
	}
	return b
}

// xopt returns the optimum of an instance: uniform in [−4, 4) on a grid of
// 8e-4, never exactly 0.
func xopt(n int, seed int64) []float64 {
	x := make([]float64, n)
	unif(x, seed)
	for i := range x {
		x[i] = 8*math.Floor(1e4*x[i])/1e4 - 4
		if x[i] == 0 {
			x[i] = -1e-5
		}
	}
	return x
}

// fopt returns the optimal value of function f's instance: a ratio of two
// normal numbers, rounded to two decimals and clipped to [−1000, 1000].
// f4 and f18 take the seeds of f3 and f17.
func fopt(f, instance int) float64 {
	rseed := int64(f)
	switch f {
	case 4:
		rseed = 3
	case 18:
		rseed = 17
	}
	rrseed := rseed + 10000*int64(instance)
	var g1, g2 [1]float64
	gauss(g1[:], rrseed)
	gauss(g2[:], rrseed+1)
	return math.Min(1000, math.Max(-1000, math.Floor(100*100*g1[0]/g2[0]+0.5)/100))
}
