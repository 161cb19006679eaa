//go:build !linux

package mmaes

// machineMemory returns 0: the machine's memory is not read on this
// platform, so without Config.MaxMemory or a runtime memory limit only
// sizes that cannot be represented are refused.
func machineMemory() int64 { return 0 }
