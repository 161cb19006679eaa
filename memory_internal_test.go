package mmaes

import (
	"bufio"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestMemoryBudget: without Config.MaxMemory and a runtime limit the budget
// is the machine's memory, as /proc/meminfo states it on Linux.
func TestMemoryBudget(t *testing.T) {
	old := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(old)
	cfg := DefaultConfig(4)
	if runtime.GOOS != "linux" {
		if b := memoryBudget(&cfg); b != 0 {
			t.Errorf("budget %d without a way to read the machine's memory", b)
		}
		return
	}
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	var kb int64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fs := strings.Fields(sc.Text()); len(fs) >= 2 && fs[0] == "MemTotal:" {
			kb, _ = strconv.ParseInt(fs[1], 10, 64)
		}
	}
	b := memoryBudget(&cfg)
	if want := kb << 10; b < want*99/100 || b > want*101/100 {
		t.Errorf("budget %d bytes, MemTotal %d", b, want)
	}
	debug.SetMemoryLimit(1 << 30)
	if b := memoryBudget(&cfg); b != 1<<30 {
		t.Errorf("with a 1 GiB runtime limit: budget %d", b)
	}
	cfg.MaxMemory = 12345
	if b := memoryBudget(&cfg); b != 12345 {
		t.Errorf("MaxMemory 12345: budget %d", b)
	}
}

// TestRunMemoryCoversHeap: the memory New checks against the budget
// (runMemory) is at least the heap a run allocates in New and its first
// generations, and not more than about twice it, with the configurations that allocate most beside A: 64
// and 1024 goroutines of Threads (each with its kernel work space),
// Cholesky, MMA with active rank-μ, NoEffect's axes, Noise, LMMA with
// threads, and 10 searched coordinates of 3000 with λ = 2000 (the full
// candidates are most of it).
func TestRunMemoryCoversHeap(t *testing.T) {
	for _, c := range []struct {
		name string
		n    int
		edit func(*Config)
	}{
		{"mma", 1024, func(*Config) {}},
		{"threads=64", 1024, func(c *Config) { c.Threads = 64 }},
		{"threads=1024", 512, func(c *Config) { c.Threads = 1024 }},
		{"cholesky,threads=4", 512, func(c *Config) { c.Update = Cholesky; c.Threads = 4 }},
		{"mma,rank-mu,active,threads=8", 512, func(c *Config) { c.RankMu = true; c.Active = true; c.Threads = 8 }},
		{"noeffect", 512, func(c *Config) { c.NoEffect = true }},
		{"noise", 64, func(c *Config) { c.Noise = true }},
		{"lmma,threads=8", 20000, func(c *Config) { c.Update = LMMA; c.Threads = 8 }},
		{"fixed,lambda=2000", 3000, func(c *Config) {
			c.Lambda, c.Fixed = 2000, map[int]float64{}
			for i := 10; i < c.Dim; i++ {
				c.Fixed[i] = 1
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := DefaultConfig(c.n)
			c.edit(&cfg)
			var m0, m1 runtime.MemStats
			settleHeap(&m0)
			o, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer o.Close()
			fit := make([]float64, o.Lambda())
			for range 3 {
				for i, x := range o.Ask() {
					fit[i] = x[0]
				}
				if err := o.Tell(fit); err != nil {
					t.Fatal(err)
				}
			}
			runtime.GC()
			runtime.ReadMemStats(&m1)
			heap := float64(m1.HeapAlloc) - float64(m0.HeapAlloc) - float64(8*len(fit))
			par := o.Params()
			counted := runMemory(&o.cfg, o.fix, par.Lambda, par.Mu)
			// The optimizer's structs, slice headers and channels are not
			// counted: a few KiB.
			if heap > counted+16<<10 {
				t.Errorf("heap %.0f bytes, counted %.0f", heap, counted)
			}
			// Nor absurdly more: A's copy for A() (not made here) at most
			// doubles it, and the goroutines' stacks are not heap.
			if counted > 2.1*heap+float64(threadStack*cfg.Threads)+1<<20 {
				t.Errorf("counted %.0f bytes, heap %.0f", counted, heap)
			}
			runtime.KeepAlive(o)
		})
	}
}

// settleHeap collects until the live heap stays put and reads it into m:
// the pools of optimizers that earlier tests dropped without Close end
// after a collection ran their cleanups, and their work space is garbage
// only at a later one.
func settleHeap(m *runtime.MemStats) {
	runtime.GC()
	runtime.ReadMemStats(m)
	for range 50 {
		last := m.HeapAlloc
		time.Sleep(time.Millisecond)
		runtime.GC()
		runtime.ReadMemStats(m)
		if d := int64(m.HeapAlloc) - int64(last); d > -64<<10 && d < 64<<10 {
			return
		}
	}
}
