package mmaes_test

import (
	"bytes"
	"context"
	"sync"
	"testing"

	"github.com/mmaes-go/mmaes"
)

// TestConcurrent runs dozens of optimizers at once, each on its own
// goroutine (run it with -race), and checks that each ends in exactly the
// state of the same run done alone: optimizers share no mutable state.
func TestConcurrent(t *testing.T) {
	const runs = 48
	cfgOf := func(i int) mmaes.Config {
		cfg := startConfig(2+i%9, updates[i%3], uint64(i/3))
		cfg.MaxGenerations = 60 + i
		return cfg
	}
	alone := make([][]byte, runs)
	for i := range alone {
		o := mustNew(t, cfgOf(i))
		if _, err := o.Optimize(context.Background(), ellipsoid); err != nil {
			t.Fatal(err)
		}
		alone[i] = state(t, o)
	}

	together := make([][]byte, runs)
	var wg sync.WaitGroup
	for i := range together {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o, err := mmaes.New(cfgOf(i))
			if err != nil {
				t.Error(err)
				return
			}
			// Half use Optimize, half Ask/Tell.
			if i%2 == 0 {
				if _, err := o.Optimize(context.Background(), ellipsoid); err != nil {
					t.Error(err)
				}
			} else {
				fit := make([]float64, o.Lambda())
				for o.Reason() == mmaes.NotStopped {
					for k, x := range o.Ask() {
						fit[k] = ellipsoid(x)
					}
					if err := o.Tell(fit); err != nil {
						t.Error(err)
						return
					}
				}
			}
			b, err := o.MarshalBinary()
			if err != nil {
				t.Error(err)
			}
			together[i] = b
		}()
	}
	wg.Wait()
	for i := range alone {
		if !bytes.Equal(alone[i], together[i]) {
			t.Errorf("run %d: concurrent result differs from the run alone", i)
		}
	}
}
