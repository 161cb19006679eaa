//go:build !cgo || !openblas

package main

// Without the build tag openblas (and cgo), `mmaes bench` has no OpenBLAS
// column: go run -tags openblas . bench (needs Debian's libopenblas-dev).
const haveOpenBLAS = false

func openblasCore() string { return "" }

func openblasGeneration(n, k int, a, z, y, p, v []float64) {}
