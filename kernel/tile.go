//go:build (amd64 || arm64) && gc && !purego

package kernel

// The register-tile drivers shared by the SIMD paths. The assembly computes
// tileRows rows of A against groups of vectors (tileGroups: on AVX-512 all
// the groups of a row block in one call) or against one vector
// (tileRowsVec); these loops walk the row blocks and, on AVX2 and NEON, the
// groups. A remainder
// that is narrower than a tile is not computed by a separate kernel: the
// last tile is moved back so that it ends at the edge and recomputes a few
// outputs of its neighbour, which is harmless because the outputs do not
// overlap the inputs (MulVecs checks it). Here the recomputed outputs get the
// same bits again. After the AVX-512 column panels (mulvecs_panels_amd64.go) these
// tiles compute the up to 7 rows below the panels' last whole tile; when
// that remainder is not a multiple of 4 their last tile also recomputes up
// to 3 panel rows, whose sums ran in another order: the same error bound,
// not always the same bits.

// tileRows is the number of rows of A in every register tile.
const tileRows = 4

// mulVecsTiled computes the rows r0 … r1−1 of y_i = A·x_i for i < k, n ≥
// tileRows (rowsValid), walking blocks of tileRows rows of A (the outer
// loop, so a block is read from memory once and stays in cache for all k
// vectors) and, inside, groups of tileVecs(k) vectors.
func mulVecsTiled(y, a []float64, n int, x []float64, k, r0, r1 int) {
	for r := r0; r < r1; r += tileRows {
		r = min(r, n-tileRows)
		mulVecsRowBlock(y, a, n, x, k, r)
		if r == n-tileRows {
			return
		}
	}
}

// mulVecsRowBlock computes the rows r to r+tileRows−1 of all k products.
func mulVecsRowBlock(y, a []float64, n int, x []float64, k, r int) {
	v := tileVecs(k)
	block := a[r*n : (r+tileRows)*n]
	if k < v {
		for j := 0; j < k; j++ {
			tileRowsVec(y[j*n+r:j*n+r+tileRows], block, x[j*n:(j+1)*n], n)
		}
		return
	}
	tileGroups(y[r:(k-1)*n+r+tileRows], block, x[:k*n], n, k, v)
}

// tileGroupsLoop is tileGroups with one call of tileOne a tile of v
// vectors, the last moved back to end at k.
func tileGroupsLoop(y, a, x []float64, n, k, v int) {
	for j := 0; ; j += v {
		j = min(j, k-v)
		tileOne(y[j*n:(j+v-1)*n+tileRows], a, x[j*n:(j+v)*n], n)
		if j == k-v {
			return
		}
	}
}

// mulVecTiled computes y = A·x, n ≥ tileRows, tileRows rows at a time.
func mulVecTiled(y, a []float64, n int, x []float64) {
	for r := 0; ; r += tileRows {
		r = min(r, n-tileRows)
		tileRowsVec(y[r:r+tileRows], a[r*n:(r+tileRows)*n], x, n)
		if r == n-tileRows {
			return
		}
	}
}
