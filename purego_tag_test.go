//go:build purego

package mmaes_test

func init() { pinTag = "+purego" }
