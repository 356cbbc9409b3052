package discover

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
)

// The index's journal is SQLite's write-ahead log (path-wal) and its
// shared-memory index (path-shm). While any connection has the index
// open, SQLite holds a lock in the -shm file; one that finds no such lock
// applies the -wal to the index it opens, whatever wrote it: a journal
// left by a process that was killed, or moved beside another index file,
// would be applied to ours. Before SQLite sees it, a journal nobody holds
// is set aside (renamed path-wal.stale, path-shm.stale) with a
// NoticeStaleJournal, never applied: the index is a cache, and what the
// journal held of it is indexed again by the next Sync (a file left
// half-checkpointed is found damaged and rebuilt). A journal another
// process holds is that process's, in use, and left alone; so is one
// this process has open (another Index on the same file). Where no lock
// can be tested (Windows), the journal is left to SQLite.

// open counts, by path, the Indexes of this process on each file: their
// journal is in use, and testing its lock from here would release theirs
// (POSIX record locks are the process's, released by any close).
var open = struct {
	sync.Mutex
	paths map[string]int
}{paths: map[string]int{}}

func holdPath(path string) {
	open.Lock()
	open.paths[path]++
	open.Unlock()
}

func releasePath(path string) {
	open.Lock()
	if open.paths[path]--; open.paths[path] <= 0 {
		delete(open.paths, path)
	}
	open.Unlock()
}

func heldHere(path string) bool {
	open.Lock()
	defer open.Unlock()
	return open.paths[path] > 0
}

// setAsideStaleJournal renames a journal of path that no connection
// holds, and reports it.
func (ix *Index) setAsideStaleJournal() error {
	if heldHere(ix.path) {
		return nil
	}
	wal, shm := ix.path+"-wal", ix.path+"-shm"
	if !exists(wal) && !exists(shm) {
		return nil
	}
	release, held, err := lockJournal(shm)
	if err != nil || held {
		return nil // in use, or not knowable here: SQLite's
	}
	defer release()
	var moved []string
	for _, p := range []string{wal, shm} {
		if !exists(p) {
			continue
		}
		if err := os.Remove(p + ".stale"); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%w: %s: %v", ErrUnwritable, filepath.Dir(p), err)
		}
		if err := os.Rename(p, p+".stale"); err != nil {
			return fmt.Errorf("%w: cannot set aside %s: %v", ErrUnwritable, p, err)
		}
		moved = append(moved, filepath.Base(p))
	}
	ix.notice(Notice{Kind: NoticeStaleJournal, Path: ix.path, Err: fmt.Errorf("%v", moved)})
	return nil
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// checkAccess says, in one sentence, why the index cannot be used at
// path: its directory cannot be written (SQLite writes the journal
// beside the file), or the file cannot be opened for reading and writing.
func checkAccess(path string) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, ".discover-probe-*")
	if err != nil {
		return fmt.Errorf("%w: the directory %s cannot be written (%s), and the index and its journal are written there", ErrUnwritable, dir, reason(err))
	}
	f.Close()
	os.Remove(f.Name())
	g, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%w: the index file %s cannot be opened for reading and writing (%s)", ErrUnreadable, path, reason(err))
	}
	g.Close()
	return nil
}

// reason is an operating system error without the path it names.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	switch {
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case errors.Is(err, syscall.EROFS):
		return "read-only file system"
	}
	return err.Error()
}
