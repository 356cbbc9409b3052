//go:build !unix

package dshlog

import "time"

// cpuTime is not measured here.
func cpuTime() time.Duration { return 0 }
