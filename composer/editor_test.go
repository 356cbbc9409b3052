package composer

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

var (
	up       = tea.KeyPressMsg{Code: tea.KeyUp}
	pgUp     = tea.KeyPressMsg{Code: tea.KeyPgUp}
	pgDown   = tea.KeyPressMsg{Code: tea.KeyPgDown}
	ctrlHome = tea.KeyPressMsg{Code: tea.KeyHome, Mod: tea.ModCtrl}
	ctrlEnd  = tea.KeyPressMsg{Code: tea.KeyEnd, Mod: tea.ModCtrl}
)

// col is the cursor's line and column.
func col(m Model) (int, int) {
	c := m.Cursor()
	return c.Y + m.top, c.X - promptW
}

// TestUpDownRememberTheColumn: passing through a short line does not
// lose the column a run of vertical moves started from.
func TestUpDownRememberTheColumn(t *testing.T) {
	e := newEnv(t)
	m := e.composer()
	m.SetVirtualCursor(false)
	m.SetValue("a long first line\nab\nanother long line")
	m, _ = press(m, ctrlHome)
	for range 10 {
		m, _ = press(m, right)
	}
	m, _ = press(m, down)
	if l, c := col(m); l != 1 || c != 2 {
		t.Fatalf("short line: %d,%d", l, c)
	}
	m, _ = press(m, down)
	if l, c := col(m); l != 2 || c != 10 {
		t.Fatalf("column not remembered going down: %d,%d", l, c)
	}
	m, _ = press(m, up)
	m, _ = press(m, up)
	if l, c := col(m); l != 0 || c != 10 {
		t.Fatalf("column not remembered going up: %d,%d", l, c)
	}
	// Any other key forgets it.
	m, _ = press(m, down)
	m, _ = press(m, left)
	m, _ = press(m, down)
	if l, c := col(m); l != 2 || c != 1 {
		t.Fatalf("after left: %d,%d", l, c)
	}
}

// TestJumpsAndPages: ctrl+home and ctrl+end go to the ends of the draft;
// PageUp and PageDown move by the editor's height in a tall draft.
func TestJumpsAndPages(t *testing.T) {
	e := newEnv(t)
	m := e.composer(withMaxLines(3))
	m.SetVirtualCursor(false)
	m.SetValue("l0\nl1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9")
	m, _ = press(m, ctrlHome)
	if m.cursor != 0 || m.top != 0 {
		t.Fatalf("ctrl+home: %d top %d", m.cursor, m.top)
	}
	m, _ = press(m, right)
	m, _ = press(m, pgDown)
	if l, c := col(m); l != 3 || c != 1 {
		t.Fatalf("pgdown: %d,%d", l, c)
	}
	m, _ = press(m, pgDown)
	m, _ = press(m, pgDown)
	if l, c := col(m); l != 9 || c != 1 || m.top != 7 {
		t.Fatalf("pgdown to the end: %d,%d top %d", l, c, m.top)
	}
	m, _ = press(m, pgDown) // on the last line: to the end
	if m.cursor != len(m.atoms) {
		t.Fatalf("pgdown on the last line: %d", m.cursor)
	}
	m, _ = press(m, pgUp)
	if l, _ := col(m); l != 6 {
		t.Fatalf("pgup: line %d", l)
	}
	m, _ = press(m, ctrlEnd)
	if m.cursor != len(m.atoms) {
		t.Fatalf("ctrl+end: %d", m.cursor)
	}
	m, _ = press(m, ctrlHome)
	m, _ = press(m, pgUp) // on the first line: to the start
	if m.cursor != 0 {
		t.Fatalf("pgup on the first line: %d", m.cursor)
	}
}

// A paste past MaxDraftBytes is cut to fit, with a message; at the bound
// typing stops with a message, and erasing makes room again.
func TestDraftIsBounded(t *testing.T) {
	e := newEnv(t)
	m := e.composer()
	m, _ = m.Update(tea.PasteMsg{Content: strings.Repeat("界", 1<<20)})
	if n := len(m.Readable()); n > MaxDraftBytes || n < MaxDraftBytes-4 {
		t.Fatalf("draft of %d bytes after a 3 MB paste", n)
	}
	if !strings.Contains(errText(m), "the draft holds at most 32 KiB") || !strings.Contains(errText(m), "left out") {
		t.Fatalf("message %q", errText(m))
	}
	for range 8 {
		m, _ = m.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
	}
	if n := len(m.Readable()); n > MaxDraftBytes || !strings.Contains(errText(m), "send or shorten it") {
		t.Fatalf("typing at the bound: %d bytes, message %q", n, errText(m))
	}
	m, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
	m, _ = m.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
	if !strings.HasSuffix(m.Readable(), "x") || errText(m) != "" {
		t.Fatalf("after erasing: %q, message %q", m.Readable()[len(m.Readable())-8:], errText(m))
	}
}
