package kernel

import (
	"strings"
	"testing"
)

// tilingCase is an n, k and the phrases Tiling must name there.
type tilingCase struct {
	n, k int
	want []string
}

// TestTiling checks that Tiling names the kernels the dispatch runs at the
// thresholds the package documents, on every path.
func TestTiling(t *testing.T) {
	if got := Tiling(-1, 4); got != "" {
		t.Errorf("Tiling(-1, 4) = %q, want \"\"", got)
	}
	if got := Tiling(8, 0); got != "nothing to compute" {
		t.Errorf("Tiling(8, 0) = %q", got)
	}
	paths := map[string][]tilingCase{
		"avx512": {
			{2, 3, []string{"small-n"}},
			{32, 10, []string{"small-n", "the rank-one update fused"}},
			{128, 16, []string{"whole-row tiles of 4 rows × 4 vectors"}},
			{128, 18, []string{"whole-row tiles of 4 rows × 6 vectors"}},
			{128, 19, []string{"whole-row tiles of 4 rows × 5 vectors"}},
			{1024, 24, []string{"AVX-512 column panels", "tiles of 8 rows × 3 registers (24 lanes for 24 vectors)", "512 columns a panel", "fused"}},
			{4096, 28, []string{"tiles of 6 rows × 4 registers, the last 4 lanes wide (28 lanes for 28 vectors)", "512 columns"}},
			{2048, 26, []string{"tiles of 6 rows × 4 registers, the last 2 lanes a row, two rows a register (26 lanes for 26 vectors)"}},
			{1200, 25, []string{"tiles of 6 rows × 4 registers, the last 2 lanes a row, two rows a register (26 lanes for 25 vectors)"}},
			{2048, 27, []string{"tiles of 6 rows × 4 registers, the last 4 lanes wide (28 lanes for 27 vectors)"}},
			{4096, 30, []string{"tiles of 6 rows × 4 registers (32 lanes for 30 vectors)"}},
			{256, 20, []string{"tiles of 8 rows × 3 registers, the last 4 lanes wide (20 lanes for 20 vectors)"}},
			{300, 40, []string{"tiles of 8 rows × 5 registers", "200 columns a panel"}},
			{1024, 300, []string{"256 vectors; 2 batches"}},
		},
		"avx2": {
			{2, 3, []string{"generic rows"}},
			{512, 24, []string{"whole-row tiles of 4 rows × 3 vectors"}},
			{1024, 24, []string{"AVX2 column panels", "tiles of 4 rows × 6 registers", "128 columns a panel", "the rank-one update fused, each tile updating the next one's block"}},
			{2048, 24, []string{"the rank-one update fused, each tile updating the next one's block"}},
			{1024, 4, []string{"tiles of 4 rows × 1 register (4 lanes", "768 columns a panel", "a separate pass"}},
			{2048, 4, []string{"768 columns a panel", "the rank-one update fused"}},
			{2048, 26, []string{"tiles of 4 rows × 7 registers, the last 2 lanes a row, two rows a register (26 lanes for 26 vectors)"}},
			{1200, 25, []string{"tiles of 4 rows × 7 registers, the last 2 lanes a row, two rows a register (26 lanes for 25 vectors)"}},
			{2048, 27, []string{"tiles of 4 rows × 7 registers (28 lanes for 27 vectors)"}},
			{800, 13, []string{"tiles of 4 rows × 4 registers (16 lanes for 13 vectors)"}},
		},
		"neon": {
			{2, 3, []string{"generic rows"}},
			{64, 8, []string{"whole-row tiles of 4 rows (neon)"}},
		},
		"generic": {
			{2, 3, []string{"generic rows"}},
			{1024, 24, []string{"generic rows"}},
		},
	}
	forEachPath(t, func(t *testing.T) {
		cases, ok := paths[Impl()]
		if !ok {
			t.Fatalf("no cases for path %s", Impl())
		}
		for _, c := range cases {
			got := Tiling(c.n, c.k)
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("Tiling(%d, %d) = %q, want it to contain %q", c.n, c.k, got, w)
				}
			}
		}
	})
}
