//go:build race

package mmaes_test

func init() { raceEnabled = true }
