package jsonlog

import (
	"errors"
	"path/filepath"
	"testing"
)

// A torn frame's lines are read back only while the torn bytes are the
// ones indexed: a writer that undoes a torn write and writes another
// frame in its place (a bigger file, the bytes before it kept) must not
// have its new lines served as the old ones.
func TestTornFrameRewrittenIsChanged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.box")
	head := box("h\n")
	whole := box("a\nbb\ncc\n")
	write(t, path, head+whole[:len(whole)-1]) // torn: "a", "bb" decode
	l := framedLog(1 << 20)
	got, snap := useFramed(t, l, path)
	if len(got) != 3 || snap.Lines != 3 {
		t.Fatalf("the torn frame's lines: %q", got)
	}
	if b, err := snap.ReadLine(framePos(1, 2), 2); err != nil || string(b) != "bb" {
		t.Fatalf("read back: %q %v", b, err)
	}
	// The writer truncates the torn frame and writes a different one.
	other := box("a\nXY\nccc\n")
	write(t, path, head+other)
	if b, err := snap.ReadLine(framePos(1, 2), 2); !errors.Is(err, ErrChanged) {
		t.Fatalf("the rewritten torn frame was read as the old one: %q %v", b, err)
	}
	// The frame completed as it was written is still read.
	write(t, path, head+whole)
	if b, err := snap.ReadLine(framePos(1, 2), 2); err != nil || string(b) != "bb" {
		t.Fatalf("the torn frame, completed: %q %v", b, err)
	}
}
