//go:build unix

package dshlog

import (
	"syscall"
	"time"
)

// cpuTime is the process's user and system time so far: on a busy
// machine it shows the work a benchmark did apart from the time it
// waited for a core.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
