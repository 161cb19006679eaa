//go:build gc && !purego

package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"unsafe"
)

// TestAlignLine: the panels' scratch space starts at a cache line, dropping
// fewer than 8 float64s (the slack WorkLen adds).
func TestAlignLine(t *testing.T) {
	buf := make([]float64, 64)
	for off := 0; off < 16; off++ {
		s := buf[off:]
		got := alignLine(s)
		drop := len(s) - len(got)
		if addr := uintptr(unsafe.Pointer(unsafe.SliceData(got))); addr%64 != 0 || drop < 0 || drop > 7 {
			t.Errorf("off %d: start %#x, dropped %d", off, addr, drop)
		}
		if &got[0] != &s[drop] {
			t.Errorf("off %d: not a suffix of s", off)
		}
	}
}

// TestPanelCopyStride checks that the generated AVX-512 panels lay out the
// copies of A's blocks as panelACopy sizes them: rows panelAStride float64s
// apart (row 1 of a copy read at that offset), the second copy 8 rows on.
// The stride is a constant of the generator (kernel/_asm) and of this
// package; were they to differ, the copies would overrun their room.
func TestPanelCopyStride(t *testing.T) {
	src, err := os.ReadFile("mulvecs_panels_avx512_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	row := panelAStride * 8
	for _, want := range []string{
		fmt.Sprintf("VBROADCASTSD     %d(R11), Z28", row),
		fmt.Sprintf("ADDQ $0x%08x, AX", panelRows*row),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("mulvecs_panels_avx512_amd64.s has no %q", want)
		}
	}
	if strings.Contains(text, fmt.Sprintf("%d(R11)", 8*row)) {
		t.Errorf("a copy's row read %d bytes on: more than 8 rows of %d", 8*row, row)
	}
}

// TestPanelPairSameBits checks the panels' paired last register
// (panelLastPair, k mod 8 = 1 or 2 in a single block) against the 4-lane
// one (panelLastHalf) bit for bit: y and the updated A of MulVecs and
// UpdateMulVecs, with α = 1 and α ≠ 1, with scratch space and without (two
// copies of A's blocks, or one), over the whole matrix and over ranges of
// rows as the threads split it, on unaligned inputs with special values.
// n covers every row remainder of the 8- and 6-row tiles and a column
// tail; k the vectors 17 and 18 (8-row tiles of 3 registers) and 25 and 26
// (6-row tiles of 4).
func TestPanelPairSameBits(t *testing.T) {
	if !startAVX512 {
		t.Skip("no AVX-512")
	}
	ns := []int{256, 259, 262, 263, 300, 517}
	if !testing.Short() {
		ns = append(ns, 1031, 1543)
	}
	testPanelToggle(t, ns, []int{17, 18, 25, 26}, &panelPairs, "paired", "4 lanes wide")
}

// TestPanelPairSameBitsAVX2 is TestPanelPairSameBits for the AVX2 panels'
// pair register (panelBlocksAVX2: k mod 4 = 1 or 2, the tile ending in 2
// full registers and the pair) against the 4-lane register, on the AVX2
// path: every row remainder of the 4-row tiles, k with the paired block
// alone (9, 10) and after blocks of 2 (17), 3 (22), 2+2 (26) and 3+2 (30),
// k that keep the 4-lane register (5, 13), and a second batch of vectors
// that pairs (265: panelMaxLanes, then 9).
func TestPanelPairSameBitsAVX2(t *testing.T) {
	if !startAVX2 {
		t.Skip("no AVX2")
	}
	defer setPath(pathSpec{avx2: true})()
	// From 1536 (avx2PanelFusedMinN), and with α = 1 from 768 (a tile
	// ahead), the update runs inside the panels.
	ns, ks := []int{768, 769, 770, 771, 1537}, []int{5, 9, 10, 13, 17, 22, 26, 30}
	if !testing.Short() {
		ns = append(ns, 1031, 1543)
		ks = append(ks, panelMaxLanes+9)
	}
	testPanelToggle(t, ns, ks, &avx2PanelPairs, "paired", "in a register of 4")
}

// TestPanelAheadSameBitsAVX2 compares the AVX2 panels' update of the next
// tile's block under a tile's FMAs, the blocks read from copies
// (avx2Ahead), with the update of each tile's own block before its blocks
// read A, bit for bit, as TestPanelPairSameBits does, with α = 1 (ahead:
// fused from n = 768, the panels' smallest) and 0.999 (never ahead: fused
// from 1536, avx2PanelFusedMinN). The
// tile's first block, which updates the next tile, covers every kind: 1
// register (k = 4: kc = 768, never ahead), 2 (5, 8, 13, 26), 3 (11, 24,
// 28; 24 with a second block of 3 reading the copy) and the paired block
// alone (9); a second batch of vectors (265: only the first updates). The
// last panel has kc
// mod 8 from 0 to 7 columns (1536 + r with kc = 384, 192 or 104) or fewer
// than 8 (1565 at k = 26, 28: 15·104 + 5), rows left below the last tile
// (n mod 4), and 384 or more tiles (three calls a panel).
func TestPanelAheadSameBitsAVX2(t *testing.T) {
	if !startAVX2 {
		t.Skip("no AVX2")
	}
	defer setPath(pathSpec{avx2: true})()
	ns, ks := []int{769, 1537, 1565}, []int{4, 5, 9, 13, 24, 26, 28}
	if !testing.Short() {
		ns = append(ns, 1031, 1536, 1541, 1543)
		ks = append(ks, 8, 11, panelMaxLanes+9)
	}
	testPanelToggle(t, ns, ks, &avx2Ahead, "ahead", "each tile's own")
}

// testPanelToggle compares the results of MulVecs and UpdateMulVecs with
// *flag on (named onName in the messages) and off (offName), bit for bit,
// for the n and k given (see TestPanelPairSameBits).
func testPanelToggle(t *testing.T, ns, ks []int, flag *bool, onName, offName string) {
	defer func(was bool) { *flag = was }(*flag)
	r := rand.New(rand.NewPCG(12, 13))
	for _, n := range ns {
		for _, k := range ks {
			if k > panelMaxLanes && n > ns[0] {
				continue // two batches once, at the first n
			}
			for i, kind := range []int{kindUniform, kindHuge} {
				special := i == 1
				var a, x, p, v []float64
				if special {
					a, x = genSpecialVec(r, n*n, kind, 0.01), genSpecialVec(r, k*n, kind, 0.01)
					p, v = genSpecialVec(r, n, kind, 0.05), genSpecialVec(r, n, kind, 0.05)
				} else {
					a, x, p, v = genVec(r, n*n, kind), genVec(r, k*n, kind), genVec(r, n, kind), genVec(r, n, kind)
				}
				off := r.IntN(8)
				for _, alpha := range []float64{1, 0.999} {
					beta := 0.01 * r.NormFloat64()
					run := func(set bool, update, work bool, r0, r1 int) (y, ai []float64) {
						*flag = set
						ai = placed(off, a)
						y = placed((off+3)%8, make([]float64, k*n))
						var w []float64
						if work {
							w = make([]float64, WorkLen(n, k))
						}
						switch {
						case update && r1 > 0:
							UpdateMulVecsRowsWork(y, ai, n, alpha, beta, p, v, placed((off+1)%8, x), k, r0, r1, w)
						case update:
							UpdateMulVecsWork(y, ai, n, alpha, beta, p, v, placed((off+1)%8, x), k, w)
						case r1 > 0:
							MulVecsRowsWork(y, ai, n, placed((off+1)%8, x), k, r0, r1, w)
						default:
							MulVecsWork(y, ai, n, placed((off+1)%8, x), k, w)
						}
						return y, ai
					}
					for _, update := range []bool{false, true} {
						for _, work := range []bool{false, true} {
							m := n / 2 / RowAlign * RowAlign
							for _, rows := range [][2]int{{0, 0}, {0, m}, {m, n}} {
								desc := fmt.Sprintf("n=%d k=%d special=%v α=%v update=%v work=%v rows=%v", n, k, special, alpha, update, work, rows)
								y1, a1 := run(false, update, work, rows[0], rows[1])
								y2, a2 := run(true, update, work, rows[0], rows[1])
								if j := sameBits(y1, y2); j >= 0 {
									t.Fatalf("%s: y[%d] (vector %d, row %d) = %v %s, %v %s", desc, j, j/n, j%n, y2[j], onName, y1[j], offName)
								}
								if j := sameBits(a1, a2); j >= 0 {
									t.Fatalf("%s: a[%d] = %v %s, %v %s", desc, j, a2[j], onName, a1[j], offName)
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestPanelBlocksAVX2 checks the AVX2 panels' split of the registers
// against splits worked out by hand, and that every split covers the kp/4
// registers (the paired block 3 of them).
func TestPanelBlocksAVX2(t *testing.T) {
	defer func(on bool) { avx2PanelPairs = on }(avx2PanelPairs)
	avx2PanelPairs = true
	for _, c := range []struct{ k, g3, g2, g1, pair int }{
		{4, 0, 0, 1, 0}, {5, 0, 1, 0, 0}, {9, 0, 0, 0, 1}, {11, 1, 0, 0, 0}, {13, 0, 2, 0, 0},
		{17, 0, 1, 0, 1}, {20, 1, 1, 0, 0}, {22, 1, 0, 0, 1}, {26, 0, 2, 0, 1}, {28, 1, 2, 0, 0}, {30, 1, 1, 0, 1},
	} {
		kp := (c.k + 3) &^ 3
		if g3, g2, g1, pair := panelBlocksAVX2(kp, c.k); g3 != c.g3 || g2 != c.g2 || g1 != c.g1 || pair != c.pair {
			t.Errorf("k=%d: blocks %d, %d, %d, pair %d; want %d, %d, %d, %d", c.k, g3, g2, g1, pair, c.g3, c.g2, c.g1, c.pair)
		}
	}
	for _, pairs := range []bool{false, true} {
		avx2PanelPairs = pairs
		for k := 1; k <= panelMaxLanes; k++ {
			kp := (k + 3) &^ 3
			g3, g2, g1, pair := panelBlocksAVX2(kp, k)
			z := kp / 4
			wantPair := pairs && (k%4 == 1 || k%4 == 2) && (z == 3 || z >= 5)
			if 3*g3+2*g2+g1+3*pair != z || (pair != 0) != wantPair || g1 != 0 && pair != 0 {
				t.Errorf("pairs=%v k=%d: blocks %d, %d, %d, pair %d for %d registers", pairs, k, g3, g2, g1, pair, kp/4)
			}
		}
	}
}

// TestAVX2CopyShape checks that the AVX2 panels' copies hold a panel's
// columns for every k ≥ 5 and that those tiles have no block of 1
// register (the copies' code has none), so that the next tile's update
// runs ahead for all of them, and that the copies' row stride is an odd
// number of cache lines.
func TestAVX2CopyShape(t *testing.T) {
	if lines := avx2CopyStride / 8; avx2CopyStride%8 != 0 || lines%2 != 1 {
		t.Fatalf("avx2CopyStride = %d float64s: not an odd number of cache lines", avx2CopyStride)
	}
	for k := 5; k <= panelMaxLanes; k++ {
		kp, kc := panelShapeAVX2(1<<20, k, avx2PanelPack)
		if kc > avx2CopyStride {
			t.Errorf("k=%d: panels of %d columns, copies of %d", k, kc, avx2CopyStride)
		}
		if _, _, g1, _ := panelBlocksAVX2(kp, k); g1 != 0 {
			t.Errorf("k=%d: %d blocks of 1 register", k, g1)
		}
	}
}

// TestAVX2CopyStride checks that the generated AVX2 panels read and write
// the copies with the row stride the Go side sizes them by
// (avx2CopyStride): the blocks' broadcasts of row 1 and 3, the second
// copy 4 rows after the first, and no access a fifth row on.
func TestAVX2CopyStride(t *testing.T) {
	src, err := os.ReadFile("mulvecs_panels_avx2_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	row := avx2CopyStride * 8
	for _, want := range []string{
		fmt.Sprintf("VBROADCASTSD %d(R11), Y15", row),
		fmt.Sprintf("VBROADCASTSD %d(R11), Y15", 3*row),
		fmt.Sprintf("ADDQ         $0x%08x, AX", avx2PanelRows*row),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("mulvecs_panels_avx2_amd64.s has no %q", want)
		}
	}
	if strings.Contains(text, fmt.Sprintf("%d(R11)", avx2PanelRows*row)) || strings.Contains(text, fmt.Sprintf("%d(CX)", avx2PanelRows*row)) {
		t.Errorf("a copy's row read or written %d bytes on: more than %d rows of %d", avx2PanelRows*row, avx2PanelRows, row)
	}
}

// TestAVX2AheadRuns checks that UpdateMulVecsWork on the AVX2 panels
// updates a tile ahead (writing the copies in its scratch space) when α =
// 1 and k ≥ 5, and not otherwise: the scratch space is filled with NaN
// first and its copies' room read after.
func TestAVX2AheadRuns(t *testing.T) {
	if !startAVX2 {
		t.Skip("no AVX2")
	}
	defer setPath(pathSpec{avx2: true})()
	r := rand.New(rand.NewPCG(5, 7))
	for _, c := range []struct {
		n, k  int
		alpha float64
		ahead bool
	}{{769, 24, 1, true}, {1540, 26, 1, true}, {769, 5, 1, true}, {1540, 26, 0.999, false}, {1540, 4, 1, false}} {
		a, x, p, v := randVals(r, c.n*c.n), randVals(r, c.k*c.n), randVals(r, c.n), randVals(r, c.n)
		w := make([]float64, WorkLen(c.n, c.k))
		if len(w) != avx2WorkLen {
			t.Fatalf("WorkLen(%d, %d) = %d on AVX2, want %d", c.n, c.k, len(w), avx2WorkLen)
		}
		for i := range w {
			w[i] = math.NaN()
		}
		UpdateMulVecsWork(make([]float64, c.k*c.n), a, c.n, c.alpha, 0.01, p, v, x, c.k, w)
		written := 0
		for _, e := range w[avx2PanelPack:] {
			if e == e {
				written++
			}
		}
		if got := written > 0; got != c.ahead {
			t.Errorf("n=%d k=%d α=%v: %d elements of the copies written; want ahead = %v", c.n, c.k, c.alpha, written, c.ahead)
		}
	}
}
