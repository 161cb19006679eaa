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
