package mmaes

// SetLowRankSplit sets the fewest flops of a limited-memory pass that
// Config.Threads splits and the fewest columns of a range, and returns a
// function that restores them: the tests split small runs, which the
// emulated arm64 runs in seconds too.
func SetLowRankSplit(flops float64, cols int) (restore func()) {
	w, c := lowRankThreadWork, lowRankThreadCols
	lowRankThreadWork, lowRankThreadCols = flops, cols
	return func() { lowRankThreadWork, lowRankThreadCols = w, c }
}

// DrawsAheadEarly reports whether o's pool draws the next generation's
// deviates during the sampling of the current one (drawAheadEarly): at
// once, or carried by the sampling's call once its ranges are done.
func DrawsAheadEarly(o *Optimizer) bool {
	return o.drawsDuringSampling() && o.drawsAhead()
}

// SetThreadOneRangeMaxN sets the largest n whose sampling splits into one
// range of rows per goroutine and returns a function that restores it: the
// tests split small runs into blocks of two ranges too.
func SetThreadOneRangeMaxN(n int) (restore func()) {
	old := threadOneRangeMaxN
	threadOneRangeMaxN = n
	return func() { threadOneRangeMaxN = old }
}
