//go:build linux || darwin

package dshlog

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A sessions root, or a project directory, replaced by a FIFO after the
// store was opened is refused as not a directory; listing never blocks
// on it.
func TestRootReplacedByAFIFO(t *testing.T) {
	for _, which := range []string{"root", "project"} {
		t.Run(which, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "sessions")
			place(t, root, []byte(probeHeader+userLines(0, "one")), RawName)
			s, err := Open(root)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.ListSessions(context.Background()); err != nil {
				t.Fatal(err)
			}
			dir := root
			if which == "project" {
				dir = filepath.Join(root, "--p--")
			}
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(dir, 0o644); err != nil {
				t.Skipf("no FIFOs here: %v", err)
			}
			done := make(chan error, 1)
			go func() {
				var err error
				if which == "root" {
					_, err = s.ListSessions(context.Background())
				} else {
					err = readDirErr(s, dir)
				}
				done <- err
			}()
			select {
			case err := <-done:
				var le *LogError
				if !errors.As(err, &le) || !errors.Is(err, ErrNotRegular) || le.Path != dir {
					t.Fatalf("%T %v", err, err)
				}
			case <-time.After(20 * time.Second):
				// Unblock the read, so the test can end.
				if f, err := os.OpenFile(dir, os.O_WRONLY, 0); err == nil {
					f.Close()
				}
				t.Fatal("a FIFO where a directory was blocked the listing")
			}
		})
	}
}

// readDirErr is the error of listing the project directory dir, which
// the store found a directory when it listed the root.
func readDirErr(s *Store, dir string) error {
	_, err := s.readDir(dir)
	return err
}
