// Package logtest holds what the agent stores' tests share: a tree of
// log files written for a test, a fixture's first lines, and a surface
// as the turns a test states.
package logtest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/dshkit/mentions/sessionref"
)

// Tree writes files, each by its slash path below a new temporary
// directory, and returns the directory.
func Tree(t testing.TB, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// FirstLines is b's first n lines, each with its newline.
func FirstLines(b []byte, n int) []byte {
	off := 0
	for range n {
		off += bytes.IndexByte(b[off:], '\n') + 1
	}
	return b[:off]
}

// Turns checks sf (sessionref.CheckSurface) and gives each of its events,
// which must be one text block, to mk as its seq, its kind ("user",
// "assistant" or "checkpoint") and its text.
func Turns[T any](t testing.TB, sf sessionref.Surface, mk func(seq int64, kind, text string) T) []T {
	t.Helper()
	if err := sessionref.CheckSurface(sf); err != nil {
		t.Fatalf("CheckSurface: %v", err)
	}
	var out []T
	for _, e := range sf.Events {
		k := "user"
		switch {
		case e.Source.IsCheckpoint():
			k = "checkpoint"
		case e.Type == sessionref.EventAssistantMessage:
			k = "assistant"
		}
		if len(e.Content) != 1 || e.Content[0].Type != sessionref.BlockText {
			t.Fatalf("event %d: content %+v, want one text block", *e.Seq, e.Content)
		}
		out = append(out, mk(*e.Seq, k, e.Content[0].Text))
	}
	return out
}
