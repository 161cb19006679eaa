//go:build gc && !purego

package kernel

import (
	"os"
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
