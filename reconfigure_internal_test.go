package mmaes

import "testing"

// TestReconfigureMemory: a MaxGenerations that would grow Stagnation's
// records beyond the memory budget is refused, changing nothing, so that
// every checkpoint a run writes stays one it can read.
func TestReconfigureMemory(t *testing.T) {
	cfg := DefaultConfig(4)
	cfg.Stagnation, cfg.MaxGenerations = true, 50
	par, err := resolve(&cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxMemory = int64(runMemory(&cfg, nil, par.Lambda, par.Mu)) + 4096
	o, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	before, err := o.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if err := o.SetLimits(0, 20000); err == nil {
		t.Fatal("records of 20 000 generations accepted within a budget of 4 KB more than 50 need")
	}
	after, err := o.MarshalBinary()
	if err != nil || string(after) != string(before) {
		t.Fatalf("the refused SetLimits changed the optimizer (%v)", err)
	}
	if err := o.SetLimits(0, 100); err != nil {
		t.Fatalf("records of 100 generations (800 B more): %v", err)
	}
	b, err := o.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if err := new(Optimizer).UnmarshalBinary(b); err != nil {
		t.Fatalf("the checkpoint after SetLimits: %v", err)
	}
}
