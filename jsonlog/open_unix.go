//go:build unix

package jsonlog

import (
	"os"
	"syscall"
)

// openFile opens path for reading without waiting for a writer (a FIFO
// put where a log was expected would block an ordinary open) and without
// following a symbolic link in its last element. The caller still checks
// that it got a regular file.
func openFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
}
