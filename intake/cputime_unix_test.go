//go:build unix

package intake

import "syscall"

// cpuSeconds is the CPU time this process has used (user and system): a
// machine loaded by other work slows the wall clock, not this.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}
