//go:build unix

package subscription_test

import (
	"syscall"
	"time"
)

// cpuTime is the process's user plus system time. Benchmarks report it
// beside wall time because the shared build machines are often loaded
// many times over, which stretches wall time but not CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
