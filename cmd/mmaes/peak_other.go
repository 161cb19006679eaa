//go:build !cgo || !amd64

package main

// peakLoop has no measurement without cgo on amd64: the peak column of
// `mmaes bench` then stays empty.
func peakLoop(iters int) (flops float64, width string) { return 0, "" }
