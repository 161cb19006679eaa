package mmaes

import (
	"maps"
	"slices"
	"strconv"
)

// Fixed coordinates (Config.Fixed) are removed from the search: the
// optimizer runs on the free coordinates alone, as if the Config had
// dimension Dim − len(Fixed) (its λ, weights, rates and A are those of the
// smaller problem), and fixedCoords embeds its vectors into the caller's
// dimension: Ask's candidates, the mean, the best point and the
// deviations are full length, the fixed entries holding their values.

// fixedCoords maps the free coordinates the optimizer searches to the
// caller's full vectors.
type fixedCoords struct {
	cfg  Config    // the caller's Config (copies of its slices and map)
	free []int     // free[k]: the caller's index of search coordinate k
	base []float64 // a full vector with the fixed values (0 at free entries)

	x          []float64   // the candidates, λ×n
	xs         [][]float64 // their views, which Ask returns
	mean, best []float64   // full copies for the accessors
	std        []float64   // the free coordinates' deviations (StdDevs)
}

// checkFixed validates Fixed: indices in [0, Dim), finite values within
// the bounds, a coordinate left free.
func checkFixed(cfg *Config, _ *Params) error {
	if len(cfg.Fixed) == 0 {
		return nil
	}
	for _, i := range slices.Sorted(maps.Keys(cfg.Fixed)) {
		v, name := cfg.Fixed[i], "Fixed["+strconv.Itoa(i)+"]"
		if i < 0 || i >= cfg.Dim {
			return cfgErr(name, "index outside [0, Dim = %d)", cfg.Dim)
		}
		if !finite(v) {
			return cfgErr(name, "%g: must be finite", v)
		}
		if lo, hi := bound(cfg.Lower, i, -1), bound(cfg.Upper, i, 1); v < lo || v > hi {
			return cfgErr(name, "%g: outside the bounds [%g, %g]", v, lo, hi)
		}
	}
	if len(cfg.Fixed) == cfg.Dim {
		return cfgErr("Fixed", "every coordinate is fixed: nothing to search")
	}
	return nil
}

// splitFixed validates the fields of cfg that are per coordinate and
// returns the Config of the free coordinates and their embedding; a cfg
// without Fixed is returned as it is, with a nil embedding. The other
// fields are validated by resolve on the returned Config.
func splitFixed(cfg Config) (Config, *fixedCoords, error) {
	if len(cfg.Fixed) == 0 {
		cfg.Fixed = nil
		return cfg, nil, nil
	}
	for _, check := range []func(*Config, *Params) error{checkCore, checkBounds, checkDistribution, checkInteger, checkFixed, checkMeanInBounds} {
		if err := check(&cfg, nil); err != nil {
			return cfg, nil, err
		}
	}
	n := cfg.Dim
	if b, need := memoryBudget(&cfg), fixedMemory(n, len(cfg.Fixed), 0); b > 0 && need > float64(b) {
		return cfg, nil, cfgErr("MaxMemory", "the full vectors of Dim = %d need %s, more than the budget of %s (%s)",
			n, bytesString(need), bytesString(float64(b)), budgetSource(&cfg))
	}
	f := &fixedCoords{base: make([]float64, n), mean: make([]float64, n), best: make([]float64, n)}
	for i := range n {
		if v, ok := cfg.Fixed[i]; ok {
			f.base[i] = v
		} else {
			f.free = append(f.free, i)
		}
	}
	f.std = make([]float64, len(f.free))
	user := cfg
	user.Mean = make([]float64, n)
	if cfg.Mean != nil {
		copy(user.Mean, cfg.Mean)
	}
	user.Lower, user.Upper, user.Scales = slices.Clone(cfg.Lower), slices.Clone(cfg.Upper), slices.Clone(cfg.Scales)
	user.Fixed = maps.Clone(cfg.Fixed)
	user.Integer = slices.Clone(cfg.Integer)
	f.cfg = user

	inner := cfg
	inner.Dim, inner.Fixed = len(f.free), nil
	inner.Mean, inner.Lower, inner.Upper, inner.Scales = f.gather(user.Mean), f.gather(cfg.Lower), f.gather(cfg.Upper), f.gather(cfg.Scales)
	inner.Integer = nil
	for k, i := range f.free {
		if slices.Contains(cfg.Integer, i) {
			inner.Integer = append(inner.Integer, k)
		}
	}
	return inner, f, nil
}

// gather returns the free entries of the full vector v (nil for nil).
func (f *fixedCoords) gather(v []float64) []float64 {
	if v == nil {
		return nil
	}
	out := make([]float64, len(f.free))
	for k, i := range f.free {
		out[k] = v[i]
	}
	return out
}

// expand sets the full vector dst to the fixed values and the free
// coordinates u.
func (f *fixedCoords) expand(dst, u []float64) []float64 {
	copy(dst, f.base)
	for k, i := range f.free {
		dst[i] = u[k]
	}
	return dst
}

// memory returns the bytes of the embedding with population λ (fixedMemory).
func (f *fixedCoords) memory(lambda int) float64 {
	return fixedMemory(len(f.base), len(f.cfg.Fixed), lambda)
}

// fixedMemory returns the bytes of the embedding of Dim = n with k fixed
// coordinates and population λ: the λ full candidates and their views, the
// full vectors (base, mean, best, the caller's Mean, Lower, Upper, Scales),
// the free coordinates' indices, deviations and gathered vectors, and the
// map of fixed values (about 48 bytes an entry).
func fixedMemory(n, k, lambda int) float64 {
	full, free, l := float64(n), float64(n-k), float64(lambda)
	return 8*(l*full+7*full+6*free) + 24*l + 48*float64(k)
}

// resize sizes the candidates for λ, allocating only when λ grows.
func (f *fixedCoords) resize(lambda int) {
	n := len(f.base)
	if len(f.xs) < lambda {
		f.x = make([]float64, lambda*n)
		f.xs = make([][]float64, lambda)
		for i := range f.xs {
			f.xs[i] = f.x[i*n : i*n+n : i*n+n]
		}
	}
}

// place sets the first λ candidates from the free ones, x (λ×len(free)).
func (f *fixedCoords) place(x []float64, lambda int) {
	nf := len(f.free)
	for i := range lambda {
		f.expand(f.xs[i], x[i*nf:i*nf+nf])
	}
}

// config returns a copy of the caller's Config.
func (f *fixedCoords) config() Config {
	c := f.cfg
	c.Lower, c.Upper, c.Scales = slices.Clone(c.Lower), slices.Clone(c.Upper), slices.Clone(c.Scales)
	c.Fixed = maps.Clone(c.Fixed)
	c.Integer = slices.Clone(c.Integer)
	return c
}
