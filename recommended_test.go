package mmaes

import "testing"

// TestRecommendedConfigValid: RecommendedConfig is a configuration New
// accepts in every dimension, and for n < 1 one it rejects.
func TestRecommendedConfigValid(t *testing.T) {
	for _, n := range []int{1, 2, 3, 10, 40, 200} {
		if _, err := New(RecommendedConfig(n)); err != nil {
			t.Errorf("n = %d: %v", n, err)
		}
	}
	for _, n := range []int{0, -1} {
		if _, err := New(RecommendedConfig(n)); err == nil {
			t.Errorf("n = %d accepted", n)
		}
	}
}
