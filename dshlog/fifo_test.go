//go:build linux || darwin

package dshlog

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestFIFONeverBlocks: a FIFO where a log should be, listed or swapped in
// after listing, is refused as not a regular file without blocking.
func TestFIFONeverBlocks(t *testing.T) {
	root := t.TempDir()
	path := place(t, root, fixture(t, "acp-multi-turn.jsonl"), RawName)
	fifoDir := filepath.Join(root, "--w--", "fifo")
	os.MkdirAll(fifoDir, 0o755)
	if err := syscall.Mkfifo(filepath.Join(fifoDir, RawName), 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	s, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	id := "228b7b82-84ed-49b7-a567-981c03b28c77"
	done := make(chan error, 1)
	go func() {
		hs, err := s.ListSessions(ctx)
		if err == nil && len(hs) != 1 {
			err = errors.New("the FIFO was listed")
		}
		infos, serr := s.Sessions(ctx)
		seen := false
		for _, in := range infos {
			if in.Path == filepath.Join(fifoDir, RawName) {
				seen = true
				if !errors.Is(in.Err, ErrNotRegular) {
					err = errors.Join(err, fmt.Errorf("the FIFO's listing error: %v", in.Err))
				}
			}
		}
		if serr != nil || !seen {
			err = errors.Join(err, fmt.Errorf("the FIFO is not among the %d logs listed (%v)", len(infos), serr))
		}
		// Swap a FIFO in for the listed log.
		os.Remove(path)
		syscall.Mkfifo(path, 0o644)
		if _, rerr := s.ReadSurface(ctx, id); !errors.Is(rerr, ErrNotRegular) {
			err = errors.Join(err, errors.New("read: "), rerr)
		}
		if ts, terr := s.ReadTitles(ctx, []string{id}); terr != nil || !errors.Is(ts[0].Err, ErrNotRegular) {
			err = errors.Join(err, errors.New("titles"), terr)
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("a FIFO blocked the store")
	}
}

// TestUnreadableLogErrorsByID: a FIFO, a socket, a dangling link or a
// directory where a session's log should be is reported, when the
// session is read by id, with the *LogError listing gives it (naming the
// file), not as a session not found; OpenFile refuses such a path.
func TestUnreadableLogErrorsByID(t *testing.T) {
	root := t.TempDir()
	place(t, root, fixture(t, "acp-multi-turn.jsonl"), RawName)
	mk := func(id string, make func(path string) error) string {
		dir := filepath.Join(root, "--w--", sessionDir(id))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, RawName)
		if err := make(path); err != nil {
			t.Skipf("%s: %v", id, err)
		}
		return path
	}
	paths := map[string]string{
		"fifo":     mk("fifo", func(p string) error { return syscall.Mkfifo(p, 0o644) }),
		"dangling": mk("dangling", func(p string) error { return os.Symlink(filepath.Join(root, "nowhere"), p) }),
		"dir":      mk("dir", func(p string) error { return os.Mkdir(p, 0o755) }),
	}
	// A socket's path must be short: made in a short temporary directory
	// and linked-to by no one, its session directory is moved into place.
	if short, err := os.MkdirTemp("", "s"); err == nil {
		defer os.RemoveAll(short)
		if l, err := net.Listen("unix", filepath.Join(short, RawName)); err == nil {
			defer l.Close()
			dir := filepath.Join(root, "--w--", "sock")
			if err := os.Rename(short, dir); err == nil {
				paths["sock"] = filepath.Join(dir, RawName)
			}
		}
	}
	if _, ok := paths["sock"]; !ok {
		t.Log("no socket could be made here")
	}
	ctx := context.Background()
	s, _ := Open(root)
	for id, path := range paths {
		_, err := s.ReadSurface(ctx, id)
		var le *LogError
		if !errors.As(err, &le) || !errors.Is(err, ErrNotRegular) || le.Path != path {
			t.Errorf("%s: ReadSurface %v", id, err)
		}
		ts, err := s.ReadTitles(ctx, []string{id})
		if err != nil || !errors.As(ts[0].Err, &le) || !errors.Is(le, ErrNotRegular) || le.Path != path {
			t.Errorf("%s: ReadTitles %+v %v", id, ts, err)
		}
	}
	if _, err := s.ReadSurface(ctx, "absent"); !errors.Is(err, ErrNotFound) {
		t.Errorf("absent: %v", err)
	}

	zero := filepath.Join(t.TempDir(), "zero.jsonl")
	os.Symlink("/dev/zero", zero)
	for _, path := range []string{paths["fifo"], filepath.Dir(paths["dir"]), zero} {
		s, err := OpenFile(path)
		var le *LogError
		if s != nil || !errors.As(err, &le) || !errors.Is(err, ErrNotRegular) || le.Path != path {
			t.Errorf("OpenFile(%s) = %v, %v", path, s, err)
		}
	}
}
