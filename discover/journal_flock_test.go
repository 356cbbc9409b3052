//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package discover

import (
	"os"
	"syscall"
)

// holdShared takes a shared lock on the connection byte of a -shm file,
// as every SQLite connection to the index does.
func holdShared(f *os.File) error {
	lk := syscall.Flock_t{Type: syscall.F_RDLCK, Start: shmDMS, Len: 1}
	return syscall.FcntlFlock(f.Fd(), syscall.F_SETLK, &lk)
}
