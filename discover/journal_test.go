package discover

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/sessionref"
)

// copyFile copies src to dst.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// otherIndex opens a second index over a store of one session, synced
// and left open, so its journal holds what it wrote.
func otherIndex(t *testing.T, path string) *Index {
	t.Helper()
	fs := fakestore.New()
	fs.Create("zebra", nil, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	fs.AppendUser("zebra", "zebras crossing the savanna")
	ix, err := Open(path, fs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	if _, err := ix.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	return ix
}

// A journal (-wal, -shm) that another index wrote, put beside ours when
// no process holds ours, is set aside with a notice, never applied: the
// index answers as before, and says so.
func TestForeignJournalSetAside(t *testing.T) {
	dir := t.TempDir()
	ours, theirs := filepath.Join(dir, "ours.sqlite"), filepath.Join(dir, "theirs.sqlite")
	c := newCorpus(t)
	first := openSynced(t, c, ours)
	first.Close()
	otherIndex(t, theirs)
	if !exists(theirs + "-wal") {
		t.Fatal("the other index has no journal to leave")
	}
	copyFile(t, theirs+"-wal", ours+"-wal")
	copyFile(t, theirs+"-shm", ours+"-shm")

	ix, err := Open(ours, c.store)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	ns := ix.Notices()
	if len(ns) != 1 || ns[0].Kind != NoticeStaleJournal || !strings.Contains(ns[0].String(), "set it aside") {
		t.Fatalf("notices %v", ns)
	}
	if !exists(ours+"-wal.stale") || !exists(ours+"-shm.stale") {
		t.Fatal("the journal was not set aside")
	}
	if got := found(t, ix, c, sessionref.Target{}, "retry"); len(got) == 0 {
		t.Fatal("the index lost its sessions")
	}
	if hits, err := ix.Search(context.Background(), sessionref.Target{}, "zebras", 5); err != nil || len(hits) != 0 {
		t.Fatalf("the other index's journal was applied: %v, %v", hits, err)
	}
	if st, err := ix.Sync(context.Background()); err != nil || st.Indexed != 0 {
		t.Fatalf("Sync after: %+v, %v", st, err) // nothing was lost: no session indexed again
	}
}

// A journal in use is left alone: another Index of this process on the
// same file, or (below) another process holding it.
func TestJournalInUseLeftAlone(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "index.sqlite")
	c := newCorpus(t)
	openSynced(t, c, path)
	if !exists(path + "-wal") {
		t.Fatal("no journal while the index is open")
	}
	second, err := Open(path, c.store)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if ns := second.Notices(); len(ns) != 0 {
		t.Fatalf("notices %v", ns)
	}
	if got := found(t, second, c, sessionref.Target{}, "retry"); len(got) == 0 {
		t.Fatal("the second Index finds nothing")
	}
}

// TestHoldJournal is run by TestJournalHeldByAnotherProcess as a child
// process: it holds a journal's connection lock, as a SQLite connection
// does, until its standard input closes.
func TestHoldJournal(t *testing.T) {
	shm := os.Getenv("DISCOVER_TEST_HOLD_SHM")
	if shm == "" {
		t.Skip("a helper process")
	}
	f, err := os.OpenFile(shm, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := holdShared(f); err != nil {
		t.Fatal(err)
	}
	fmt.Println("held")
	bufio.NewReader(os.Stdin).ReadString('\n')
}

func TestJournalHeldByAnotherProcess(t *testing.T) {
	if _, _, err := lockJournal(filepath.Join(t.TempDir(), "x-shm")); err != nil {
		t.Skip("no journal lock test on this system")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "index.sqlite")
	c := newCorpus(t)
	openSynced(t, c, path).Close()
	theirs := filepath.Join(dir, "theirs.sqlite")
	otherIndex(t, theirs)
	copyFile(t, theirs+"-wal", path+"-wal")
	copyFile(t, theirs+"-shm", path+"-shm")

	child := exec.Command(os.Args[0], "-test.run=^TestHoldJournal$")
	child.Env = append(os.Environ(), "DISCOVER_TEST_HOLD_SHM="+path+"-shm")
	in, err := child.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer child.Wait()
	defer in.Close()
	if line, _ := bufio.NewReader(out).ReadString('\n'); !strings.HasPrefix(line, "held") {
		t.Fatalf("the helper process says %q", line)
	}
	ix, err := Open(path, c.store)
	if err == nil {
		defer ix.Close()
		if ns := ix.Notices(); len(ns) != 0 {
			t.Fatalf("a journal another process holds was set aside: %v", ns)
		}
	}
	if exists(path + "-wal.stale") {
		t.Fatal("a journal another process holds was set aside")
	}
}

// A file that cannot be opened for reading and writing, and a directory
// that cannot be written, are each one clear error, not SQLite's
// "unable to open database file: out of memory".
func TestUnusableIndexSaysWhy(t *testing.T) {
	if runtime.GOOS == "windows" || os.Geteuid() == 0 {
		t.Skip("permissions are not enforced here (Windows, or root)")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "index.sqlite")
	c := newCorpus(t)
	openSynced(t, c, path).Close()

	os.Chmod(path, 0)
	_, err := Open(path, c.store)
	os.Chmod(path, 0o600)
	if !errors.Is(err, ErrUnreadable) || !strings.Contains(err.Error(), "cannot be opened for reading and writing (permission denied)") {
		t.Fatalf("unreadable file: %v", err)
	}

	os.Chmod(dir, 0o500)
	_, err = Open(path, c.store)
	os.Chmod(dir, 0o700)
	if !errors.Is(err, ErrUnwritable) || !strings.Contains(err.Error(), "cannot be written (permission denied)") {
		t.Fatalf("read-only directory: %v", err)
	}
}

// The reasons the errors give, for the causes the system reports.
func TestAccessReasons(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{&fs.PathError{Op: "open", Path: "/x", Err: syscall.EACCES}, "permission denied"},
		{&fs.PathError{Op: "open", Path: "/x", Err: syscall.EPERM}, "permission denied"},
		{&fs.PathError{Op: "open", Path: "/x", Err: syscall.EROFS}, "read-only file system"},
		{&fs.PathError{Op: "open", Path: "/x", Err: syscall.ENOSPC}, syscall.ENOSPC.Error()},
	} {
		if got := reason(c.err); got != c.want {
			t.Errorf("%v: %q, want %q", c.err, got, c.want)
		}
	}
}
