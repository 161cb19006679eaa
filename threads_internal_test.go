package mmaes

import "testing"

// TestSplitRange checks splitRange's ranges for many sizes: they cover
// 0 … total−1 in order, at most parts of them, their inner boundaries are
// multiples of align, each is at least minLen long when there are two or
// more (minLen a multiple of align, as the pool's callers ask), and a
// total that can hold two ranges of minLen gets more than one when parts
// allows.
func TestSplitRange(t *testing.T) {
	bounds := make([]int, 9)
	for _, c := range [][2]int{{4, 4}, {64, 2048}, {1, 1}, {8, 24}} {
		align, minLen := c[0], c[1]
		for parts := 1; parts <= 8; parts++ {
			for total := 0; total <= 6*minLen+3*align; total += max(1, minLen/16) {
				used := splitRange(bounds, total, parts, align, minLen)
				if used < 1 || used > parts || bounds[0] != 0 || bounds[used] != total {
					t.Fatalf("total %d parts %d align %d min %d: %d ranges %v", total, parts, align, minLen, used, bounds[:used+1])
				}
				for i := 1; i <= used; i++ {
					if i < used && bounds[i]%align != 0 {
						t.Fatalf("total %d parts %d align %d: boundary %d not aligned: %v", total, parts, align, bounds[i], bounds[:used+1])
					}
					if used > 1 && bounds[i]-bounds[i-1] < minLen {
						t.Fatalf("total %d parts %d min %d: range %d shorter: %v", total, parts, minLen, i-1, bounds[:used+1])
					}
				}
				if parts >= 2 && total >= 2*minLen && used < 2 {
					t.Fatalf("total %d parts %d min %d: one range", total, parts, minLen)
				}
			}
		}
	}
}
