//go:build gc && !purego

package kernel

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCPUVendorIntel checks the CPUID vendor test against the vendor the
// operating system reports.
func TestCPUVendorIntel(t *testing.T) {
	info, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skip("no /proc/cpuinfo")
	}
	var vendor string
	for _, line := range strings.Split(string(info), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "vendor_id" {
			vendor = strings.TrimSpace(v)
			break
		}
	}
	if vendor == "" {
		t.Skip("/proc/cpuinfo names no vendor_id")
	}
	if got, want := cpuVendorIntel(), vendor == "GenuineIntel"; got != want {
		t.Errorf("cpuVendorIntel() = %v; /proc/cpuinfo vendor_id %q", got, vendor)
	}
}

// linuxCacheKiB returns the size in KiB Linux gives for cpu0's unified
// cache of the given level, skipping the test where it names none.
func linuxCacheKiB(t *testing.T, level string) int {
	t.Helper()
	dirs, _ := filepath.Glob("/sys/devices/system/cpu/cpu0/cache/index*")
	for _, d := range dirs {
		read := func(name string) string {
			b, _ := os.ReadFile(filepath.Join(d, name))
			return strings.TrimSpace(string(b))
		}
		if read("level") != level || read("type") != "Unified" {
			continue
		}
		kib, err := strconv.Atoi(strings.TrimSuffix(read("size"), "K"))
		if err != nil {
			t.Skipf("%s/size: %q", d, read("size"))
		}
		return kib
	}
	t.Skipf("Linux names no unified level-%s cache of cpu0", level)
	return 0
}

// TestL2Bytes checks the L2 size CPUID reports against the size Linux
// gives for cpu0's unified level-2 cache.
func TestL2Bytes(t *testing.T) {
	kib := linuxCacheKiB(t, "2")
	if got := int(cpuidL2KiB()); got != kib {
		t.Errorf("CPUID: L2 of %d KiB; Linux: %d KiB", got, kib)
	}
	if L2Bytes() != kib<<10 {
		t.Errorf("L2Bytes() = %d, want %d", L2Bytes(), kib<<10)
	}
}

// TestL3Bytes checks the L3 size CPUID reports against the size Linux
// gives for cpu0's unified level-3 cache.
func TestL3Bytes(t *testing.T) {
	kib := linuxCacheKiB(t, "3")
	if got := cpuidL3Bytes(); got != kib<<10 {
		t.Errorf("CPUID: L3 of %d bytes; Linux: %d KiB", got, kib)
	}
	if L3Bytes() != kib<<10 {
		t.Errorf("L3Bytes() = %d, want %d", L3Bytes(), kib<<10)
	}
}

// TestAVX512NeedsVLAndDQ checks that the AVX-512 path is not chosen on a
// CPU without AVX512VL or AVX512DQ (the column panels' half-width
// registers and the ziggurat's lane inserts use them): a child process
// with either feature turned off by GODEBUG starts on the AVX2 path.
func TestAVX512NeedsVLAndDQ(t *testing.T) {
	if os.Getenv("MMAES_KERNEL_IMPL_CHILD") == "1" {
		os.Stdout.WriteString("impl=" + Impl() + "\n")
		return
	}
	if !startAVX512 {
		t.Skip("the AVX-512 path is not available here")
	}
	for _, feature := range []string{"avx512vl", "avx512dq"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestAVX512NeedsVLAndDQ$", "-test.count=1")
		cmd.Env = append(os.Environ(), "MMAES_KERNEL_IMPL_CHILD=1", "GODEBUG=cpu."+feature+"=off")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s off: %v", feature, err)
		}
		if !strings.Contains(string(out), "impl=avx2\n") {
			t.Errorf("with GODEBUG=cpu.%s=off the child started on %q, want the avx2 path", feature, out)
		}
	}
}
