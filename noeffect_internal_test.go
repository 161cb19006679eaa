package mmaes

import (
	"hash/fnv"
	"math"
	"testing"
)

// TestNoEffectShortcutSameRun: NoEffect's shortcut (axesMove) changes no
// decision. Runs with it and without it (axesAlways) give the same
// candidates in every generation and stop at the same generation for the
// same reason; in them the shortcut spares most decompositions, and
// NoEffectAxis ends some of the runs (a mean far from 0, whose resolution
// the steps reach).
func TestNoEffectShortcutSameRun(t *testing.T) {
	skips, decisions, axisStops := 0, 0, 0
	for _, n := range []int{4, 7, 12} {
		for _, center := range []float64{0, 1e6, -3e11} {
			for seed := uint64(1); seed <= 2; seed++ {
				type result struct {
					hash   uint64
					reason Reason
					gen    int
					skips  int
				}
				run := func(always bool) result {
					cfg := DefaultConfig(n)
					cfg.NoEffect, cfg.Seed, cfg.Restart = true, seed, NoRestart
					cfg.TolFun, cfg.TolX, cfg.MaxGenerations = 0, 0, 4000
					cfg.Mean = make([]float64, n)
					for i := range cfg.Mean {
						cfg.Mean[i] = center + 1
					}
					o, err := New(cfg)
					if err != nil {
						t.Fatal(err)
					}
					d := o.dist.(*fullMatrix)
					d.axesAlways = always
					h := fnv.New64a()
					var buf [8]byte
					fit := make([]float64, o.Lambda())
					for o.Reason() == NotStopped {
						xs := o.Ask()
						if xs == nil {
							break
						}
						for k, x := range xs {
							f := 0.0
							for i, v := range x {
								e := v - center
								f += math.Pow(10, 3*float64(i)/float64(n-1)) * e * e
								b := math.Float64bits(v)
								for j := range buf {
									buf[j] = byte(b >> (8 * j))
								}
								h.Write(buf[:])
							}
							fit[k] = f
						}
						if err := o.Tell(fit); err != nil {
							t.Fatal(err)
						}
					}
					return result{h.Sum64(), o.Reason(), o.Generation(), d.axesSkips}
				}
				with, without := run(false), run(true)
				if with.hash != without.hash || with.reason != without.reason || with.gen != without.gen {
					t.Fatalf("n=%d center=%g seed=%d: with the shortcut %v at %d (%#x), without %v at %d (%#x)",
						n, center, seed, with.reason, with.gen, with.hash, without.reason, without.gen, without.hash)
				}
				if without.skips != 0 {
					t.Fatalf("axesAlways spared %d decompositions", without.skips)
				}
				skips += with.skips
				decisions += with.gen / n
				if with.reason == NoEffectAxis {
					axisStops++
				}
			}
		}
	}
	t.Logf("%d of %d decisions without a decomposition; %d runs ended by NoEffectAxis", skips, decisions, axisStops)
	if skips < decisions/2 {
		t.Errorf("the shortcut spared %d of %d decompositions", skips, decisions)
	}
	if axisStops == 0 {
		t.Error("no run ended by NoEffectAxis: the test does not reach the shortcut's edge")
	}
}

// TestNoEffectRefLarge: beyond noEffectRefMaxN there is no reference (no
// 2n² more floats), and move never answers without a decomposition.
func TestNoEffectRefLarge(t *testing.T) {
	r := newNoEffectRef(noEffectRefMaxN + 1)
	if r.at != nil || r.axes != nil || r.y != nil {
		t.Fatal("a reference beyond noEffectRefMaxN")
	}
	if r.move(nil, noEffectRefMaxN+1, []float64{1}, 1) {
		t.Error("an empty reference answered")
	}
	if r := newNoEffectRef(3); len(r.at) != 9 || len(r.axes) != 9 || len(r.s) != 3 || len(r.y) != 9 {
		t.Errorf("n = 3: buffers %d, %d, %d, %d", len(r.at), len(r.axes), len(r.s), len(r.y))
	}
}
