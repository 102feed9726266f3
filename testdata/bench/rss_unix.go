//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// maxRSSMiB returns the peak resident set size of the finished child, from
// its rusage: the largest of the child and the descendants it waited for
// (go list), not their sum. Linux reports Maxrss in KiB, macOS in bytes.
func maxRSSMiB(ps *os.ProcessState) float64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return float64(ru.Maxrss) / (1 << 20)
	}
	return float64(ru.Maxrss) / 1024
}

// ownCPU returns the CPU seconds (user+system) used by this process and by
// the children it has waited for, with theirs.
func ownCPU() float64 {
	var self, kids syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &self) != nil || syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids) != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(self.Utime) + tv(self.Stime) + tv(kids.Utime) + tv(kids.Stime)
}
