package kernel

// RowAlign is the granularity of the row ranges of MulVecsRowsWork and
// UpdateMulVecsRowsWork: a multiple of the height of every path's tiles
// (4, 6 and 8 rows), so that a range's rows are computed by the tiles the
// whole call uses for them.
const RowAlign = 24

// RowTail is how far before n a range that does not end at n must end:
// the rows past the last whole tile, and the tile moved back to end at n,
// lie within the last RowTail rows, and the range that ends at n computes
// them as the whole call does.
const RowTail = 12

// checkRows panics unless r0 … r1−1 is a valid range of rows of an n×n A.
func checkRows(n, r0, r1 int) {
	switch {
	case r0 < 0 || r1 < r0 || r1 > n:
		panic("kernel: row range out of bounds")
	case r0%RowAlign != 0:
		panic("kernel: row range does not start at a multiple of RowAlign")
	case r1 < n && (r1%RowAlign != 0 || r1 > n-RowTail):
		panic("kernel: row range ends within the last RowTail rows or not at a multiple of RowAlign")
	case r1 == n && r0 != 0 && r0 > n-RowTail:
		panic("kernel: the last row range starts within the last RowTail rows")
	}
}

// SplitRows divides the n rows of an n×n A into ranges for MulVecsRowsWork
// and UpdateMulVecsRowsWork: at most parts, and at most n/minRows (and
// n/RowAlign) of them, range i being bounds[i] … bounds[i+1]−1 for i below
// the count it returns (1 when n is too small to split). The boundaries
// are i·⌊n/parts⌋ rounded up to a multiple of RowAlign, so that each range
// is within RowAlign of n/parts rows and the first is not shorter than
// the last but for n mod parts rows; rounded down where rounding up would
// leave fewer ranges (none may lie within RowTail rows of n).
// len(bounds) must be at least parts+1.
func SplitRows(bounds []int, n, parts, minRows int) int {
	if n < 0 || parts < 1 {
		panic("kernel: SplitRows: negative n or no parts")
	}
	if len(bounds) < parts+1 {
		panic("kernel: SplitRows: short bounds")
	}
	parts = max(1, min(parts, n/max(minRows, RowAlign)))
	if used := splitRows(bounds, n, parts, RowAlign-1); used == parts {
		return used
	}
	return splitRows(bounds, n, parts, 0)
}

// splitRows is SplitRows for parts ranges, the boundaries i·⌊n/parts⌋ + up
// rounded down to a multiple of RowAlign (up = RowAlign−1 rounds up).
func splitRows(bounds []int, n, parts, up int) int {
	bounds[0] = 0
	used := 1
	for i := 1; i < parts; i++ {
		b := (i*(n/parts) + up) / RowAlign * RowAlign
		if b <= bounds[used-1] || b > n-RowTail {
			continue
		}
		bounds[used] = b
		used++
	}
	bounds[used] = n
	return used
}
