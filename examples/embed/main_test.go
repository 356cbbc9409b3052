package main

import (
	"os"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/sessionref"
)

// TestReadmeShowsThisCode keeps the README's embedding sample honest: it
// must be this file's code, which compiles and is tested below.
func TestReadmeShowsThisCode(t *testing.T) {
	src, _ := os.ReadFile("main.go")
	_, rest, _ := strings.Cut(string(src), "// BEGIN README\n")
	sample, _, _ := strings.Cut(rest, "// END README")
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), strings.TrimSpace(sample)) {
		t.Fatal("README.md does not show examples/embed/main.go's code between BEGIN and END README")
	}
}

func TestEmbeddedChatSends(t *testing.T) {
	store := fakestore.New()
	store.Create("notes", nil, fakestore.DefaultNow)
	store.SetTitle("notes", "Design notes")
	store.AppendUser("notes", "SQLite it is.")
	m, err := newChat(store, sessionref.Target{ID: "current"})
	if err != nil {
		t.Fatal(err)
	}
	m.input.SetValue("see @[Design notes](dsh-session:Im5vdGVzIg)")
	next, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	next, cmd = next.Update(cmd())
	next, _ = next.Update(cmd())
	got := next.(chat)
	if len(got.sent) != 2 || !strings.Contains(got.sent[0], "Referenced 1 session") || got.sent[1] != "You: see @Design notes" {
		t.Fatalf("sent %q", got.sent)
	}
}
