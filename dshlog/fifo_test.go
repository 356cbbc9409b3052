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
	s, _ := Open(root)
	ctx := context.Background()
	id := "228b7b82-84ed-49b7-a567-981c03b28c77"
	done := make(chan error, 1)
	go func() {
		hs, err := s.ListSessions(ctx)
		if err == nil && len(hs) != 1 {
			err = errors.New("the FIFO was listed")
		}
		infos, _ := s.Sessions(ctx)
		for _, in := range infos {
			if in.Path == filepath.Join(fifoDir, RawName) && !errors.Is(in.Err, ErrNotRegular) {
				err = in.Err
			}
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
