package mmaes

import "syscall"

// machineMemory returns the physical memory of the machine in bytes, 0 if
// it cannot be read.
func machineMemory() int64 {
	var info syscall.Sysinfo_t
	if syscall.Sysinfo(&info) != nil {
		return 0
	}
	b := float64(info.Totalram) * float64(info.Unit)
	if b <= 0 || b > 1<<62 {
		return 0
	}
	return int64(b)
}
