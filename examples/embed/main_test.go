package main

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/internal/cmdrun"
	"github.com/dshkit/mentions/internal/readme"
	"github.com/dshkit/mentions/sessionref"
)

// TestReadmeShowsThisCode keeps the README's embedding sample honest: it
// must be this file's code, which compiles and is tested below.
func TestReadmeShowsThisCode(t *testing.T) {
	if err := readme.Check("main.go", "../../README.md"); err != nil {
		t.Fatal(err)
	}
}

func newTestChat(t *testing.T) chat {
	t.Helper()
	store := fakestore.New()
	store.Create("notes", nil, fakestore.DefaultNow)
	store.SetTitle("notes", "Design notes")
	store.AppendUser("notes", "SQLite it is.")
	m, err := newChat(store, sessionref.Target{ID: "current"})
	if err != nil {
		t.Fatal(err)
	}
	next, _ := m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	return next.(chat)
}

// send passes msg and every message its Cmds produce back through Update.
func send(m chat, msg tea.Msg) chat {
	queue := []tea.Msg{msg}
	for len(queue) > 0 {
		next, cmd := m.Update(queue[0])
		m = next.(chat)
		queue = append(queue[1:], cmdrun.Run(cmd, time.Second)...)
	}
	return m
}

func TestRebindSendKey(t *testing.T) {
	m := newTestChat(t)
	m.input.SetValue("see @[Design notes](dsh-session:Im5vdGVzIg)")
	m = send(m, tea.KeyPressMsg{Code: tea.KeyEnter})
	if len(m.sent) != 0 {
		t.Fatalf("enter sent the draft although ctrl+s is the send key: %q", m.sent)
	}
	if !strings.Contains(m.input.Canonical(), "\n") {
		t.Fatalf("enter did not break the line: %q", m.input.Canonical())
	}
	m = send(m, tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	if len(m.sent) != 2 || !strings.Contains(m.sent[0], "Referenced 1 session") || !strings.HasPrefix(m.sent[1], "You: see @Design notes") {
		t.Fatalf("sent %q", m.sent)
	}
	if !strings.Contains(m.input.View(), "ctrl+s") {
		t.Fatalf("the footer does not name the rebound send key:\n%s", m.input.View())
	}
}

func TestPopupStaysInThePane(t *testing.T) {
	m := newTestChat(t)
	for _, r := range "@des" {
		m = send(m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	p := m.input.Picker()
	if !p.IsOpen() {
		t.Fatal("the picker did not open")
	}
	if footer := m.input.View(); strings.Contains(footer, "newline") || !strings.Contains(footer, "tab") {
		t.Fatalf("with the picker open, Enter picks, so the footer must not offer it as newline:\n%s", footer)
	}
	r := p.Rect()
	if r.X < sidebarWidth || r.X+r.W > m.width || r.Y < 0 || r.Y+r.H > m.height {
		t.Fatalf("popup %+v leaves the chat pane (x %d..%d, 0..%d)", r, sidebarWidth, m.width, m.height)
	}
	screen := m.View().Content
	if !strings.Contains(screen, "38;2;215;135;95") {
		t.Fatal("the popup does not use the host's frame colour")
	}
	var found bool
	for _, line := range strings.Split(ansi.Strip(screen), "\n") {
		if strings.Contains(line, "Design notes") {
			found = true
			if i := strings.Index(line, "Design notes"); ansi.StringWidth(line[:i]) < sidebarWidth {
				t.Fatalf("a row starts inside the sidebar: %q", line)
			}
		}
	}
	if !found {
		t.Fatalf("no row for the session:\n%s", ansi.Strip(screen))
	}
}

func TestRealCursorInThePane(t *testing.T) {
	m := newTestChat(t)
	m = send(m, tea.KeyPressMsg{Code: 'h', Text: "h"})
	v := m.View()
	if v.Cursor == nil {
		t.Fatal("no terminal cursor")
	}
	if v.Cursor.X != sidebarWidth+m.input.Cursor().X || v.Cursor.Y < m.height-m.input.Height() {
		t.Fatalf("cursor at %d,%d is not in the composer (origin %d,%d)", v.Cursor.X, v.Cursor.Y, sidebarWidth, m.height-m.input.Height())
	}
}

// The preview: in this 78-column pane alt+p shows what the model would
// get in place of the rows; in a 128-column one it stands beside them.
func TestPreview(t *testing.T) {
	m := newTestChat(t)
	for _, r := range "@des" {
		m = send(m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	if strings.Contains(ansi.Strip(m.View().Content), "1/1 kept") {
		t.Fatal("a narrow pane shows the preview only after alt+p")
	}
	m = send(m, tea.KeyPressMsg{Code: 'p', Mod: tea.ModAlt})
	if got := ansi.Strip(m.View().Content); !strings.Contains(got, "1/1 kept") || !strings.Contains(got, "SQLite it is.") {
		t.Fatalf("alt+p shows no preview:\n%s", got)
	}
	m = send(m, tea.WindowSizeMsg{Width: 150, Height: 30})
	got := ansi.Strip(m.View().Content)
	if !strings.Contains(got, "SQLite it is.") || !strings.Contains(got, "Design notes") {
		t.Fatalf("a wide pane shows the rows and the preview:\n%s", got)
	}
}
