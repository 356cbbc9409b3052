//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package discover

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// shmDMS is the byte of the -shm file on which every SQLite connection
// to the index holds a shared lock while it has the index open (the unix
// VFS's "dead man switch").
const shmDMS = 128

// lockJournal takes the -shm file's connection lock exclusively, which
// only succeeds when no connection holds the index (held = false; the
// caller calls release when done). A missing -shm file is held by none.
func lockJournal(shm string) (release func(), held bool, err error) {
	f, err := os.OpenFile(shm, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return func() {}, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: 0, Start: shmDMS, Len: 1}
	if err := syscall.FcntlFlock(f.Fd(), syscall.F_SETLK, &lk); err != nil {
		f.Close()
		if errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EACCES) {
			return nil, true, nil
		}
		return nil, false, err
	}
	return func() { f.Close() }, false, nil
}
