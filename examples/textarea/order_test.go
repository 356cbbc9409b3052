package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/picker"
)

// A file whose name matches ranks before the sessions that only said the
// word ("in messages"): "@READ" and Tab writes the file, not a session.
func TestFileRanksBeforeHits(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("# app\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	store := fakestore.New()
	store.Create("s0", &dir, fakestore.DefaultNow)
	store.SetTitle("s0", "Release plan")
	store.AppendUser("s0", "update the README before the release")
	c, err := newChat(store, dir, picker.WithTick(neverTick))
	if err != nil {
		t.Fatal(err)
	}
	c = send(c, tea.WindowSizeMsg{Width: 100, Height: 30})
	c = keys(c, "@READ")
	if s := screen(c); !strings.Contains(s, "README.md") || !strings.Contains(s, "in messages") {
		t.Fatalf("setup: the popup should show the file and a hit:\n%s", s)
	}
	c = send(c, tea.KeyPressMsg{Code: tea.KeyTab})
	if got := c.input.Value(); got != "README.md " {
		t.Fatalf("@READ + Tab wrote %q, want the file", got)
	}
}
