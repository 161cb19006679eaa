package main

import (
	"strings"
	"testing"
)

// TestRunLMMA: `mmaes run -update lmma` runs the limited memory at a
// dimension the full matrix would need 3 GB for, shows progress, and names
// the update; -memory sets its number of terms, and a bad one is a usage
// error.
func TestRunLMMA(t *testing.T) {
	code, stdout, stderr := exec("run", "-f", "sp", "-n", "20000", "-update", "lmma", "-memory", "5", "-max-evals", "600")
	if code != 0 || !strings.Contains(stdout, "LMMA") || !strings.Contains(stdout, "MaxEvals reached") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "generation") {
		t.Errorf("no progress on stderr:\n%s", stderr)
	}
	for _, args := range [][]string{{"-memory", "-1"}, {"-memory", "5", "-update", "mma"}, {"-update", "lmma", "-rank-mu"}} {
		code, _, stderr := exec(append([]string{"run", "-f", "sp", "-n", "8", "-q"}, args...)...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2 (usage)\n%s", args, code, stderr)
		}
	}
}
