//go:build unix

package dshlog

import (
	"os"
	"syscall"
)

// openNoFollow opens path for reading without blocking (a FIFO swapped in
// for a log would otherwise wait for a writer forever) and without
// following a symbolic link in its last element. The caller checks that
// what it opened is a regular file.
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
}

// openNonBlocking opens path for reading without blocking, following a
// link (OpenFile's own path, which the caller chose).
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
