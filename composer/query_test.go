package composer

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/picker"
)

// TestQueryHoldsSpaces: a query grows over single spaces, as titles have
// them, and a pick from such a query replaces all of it.
func TestQueryHoldsSpaces(t *testing.T) {
	e := newEnv(t)
	m := typeText(e.composer(), "see @fix the ses")
	if !m.Picker().IsOpen() || m.Picker().Query() != "fix the ses" {
		t.Fatalf("open=%v query %q", m.Picker().IsOpen(), m.Picker().Query())
	}
	if it := m.Picker().Answer(picker.SessionsID).Candidates; len(it) != 1 || it[0].SessionID != "s-parser" {
		t.Fatalf("items %+v", it)
	}
	m, _ = press(m, tab)
	if m.Readable() != "see @Fix the session parser " {
		t.Fatalf("readable %q", m.Readable())
	}
}

// TestQueryEnds: each way a query ends leaves the text as typed.
func TestQueryEnds(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct {
		name, text string
		keys       []tea.KeyPressMsg
	}{
		{"second space", "@fix  ", nil},
		{"space after no match", "@zzzq ", nil},
		{"space right after @", "meet @ ", nil},
		{"newline", "@fix", []tea.KeyPressMsg{shiftEnt}},
		{"esc", "@fix the", []tea.KeyPressMsg{esc}},
		{"cursor before the @", "go @fi", []tea.KeyPressMsg{left, left, left}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := typeText(e.composer(), c.text)
			for _, k := range c.keys {
				m, _ = press(m, k)
			}
			if m.Picker().IsOpen() {
				t.Fatalf("still open, query %q", m.Picker().Query())
			}
			if m.Readable() != c.text+map[bool]string{true: "\n"}[len(c.keys) > 0 && c.keys[0] == shiftEnt] {
				t.Fatalf("text changed: %q", m.Readable())
			}
		})
	}
	// After "@zzzq " closed the query, prose goes on without the picker.
	m := typeText(e.composer(), "@zzzq and more words")
	if m.Picker().IsOpen() {
		t.Fatalf("prose after a dead query reopened the picker: %q", m.Picker().Query())
	}
}

// TestQueryReopens: the picker comes back when the cursor enters a
// pending @query by a move along the line, and not by vertical moves,
// jumps, SetValue or pastes. Esc makes the @word text: moves over it and
// typing after it (another '@' included) leave it closed, Enter then
// sends nothing picked; an edit inside it opens it again.
func TestQueryReopens(t *testing.T) {
	e := newEnv(t)

	m := typeText(e.composer(), "ping @pars")
	m, _ = press(m, esc)
	if m.Picker().IsOpen() {
		t.Fatal("esc did not close")
	}
	for _, k := range []tea.KeyPressMsg{{Code: tea.KeyHome}, {Code: tea.KeyEnd}, left, right} {
		if m, _ = press(m, k); m.Picker().IsOpen() {
			t.Fatalf("a move (%v) reopened a dismissed query: %q", k, m.Picker().Query())
		}
	}
	if m2 := typeText(m, "e@"); m2.Picker().IsOpen() {
		t.Fatalf("typing after a dismissed query reopened it as %q", m2.Picker().Query())
	}
	m, _ = press(m, tea.KeyPressMsg{Code: tea.KeyBackspace}) // an edit inside
	if !m.Picker().IsOpen() || m.Picker().Query() != "par" {
		t.Fatalf("an edit inside: open=%v %q", m.Picker().IsOpen(), m.Picker().Query())
	}

	m = typeText(e.composer(), "@pars and")
	for range 4 { // back over "and" and the space: into "@pars"
		m, _ = press(m, left)
	}
	if !m.Picker().IsOpen() || m.Picker().Query() != "pars" {
		t.Fatalf("moving back into @pars: open=%v %q", m.Picker().IsOpen(), m.Picker().Query())
	}
	m, _ = press(m, left)
	if m.Picker().Query() != "par" {
		t.Fatalf("query follows the cursor: %q", m.Picker().Query())
	}
	m, _ = press(m, tab)
	if m.Readable() != "@Fix the session parser and" || m.cursor != 2 {
		// The pick replaces the whole word and reuses the space after it.
		t.Fatalf("pick inside a word: %q", m.Readable())
	}

	// A word that only contains an '@' is no query.
	m = typeText(e.composer(), "mail a@b.c now")
	for range 5 {
		m, _ = press(m, left)
	}
	if m.Picker().IsOpen() {
		t.Fatal("a@b opened the picker")
	}

	// Vertical moves and jumps do not open it; SetValue and pastes neither.
	m = e.composer()
	m.SetValue("@pars\nsecond line")
	if m.Picker().IsOpen() {
		t.Fatal("SetValue opened the picker")
	}
	m, _ = press(m, tea.KeyPressMsg{Code: tea.KeyUp})
	if m.Picker().IsOpen() {
		t.Fatal("up into @pars opened the picker")
	}
	m, _ = press(m, tea.KeyPressMsg{Code: tea.KeyHome, Mod: tea.ModCtrl})
	m, _ = press(m, tea.KeyPressMsg{Code: tea.KeyEnd, Mod: tea.ModCtrl})
	if m.Picker().IsOpen() {
		t.Fatal("a jump opened the picker")
	}
	m.SetValue("")
	m, _ = step(m, tea.PasteMsg{Content: "@pars"})
	if m.Picker().IsOpen() {
		t.Fatal("a paste opened the picker")
	}
	// A click at the end of "@pars" is a horizontal move: it opens.
	m, _ = step(m, tea.MouseClickMsg{X: 2 + 5, Y: 20, Button: tea.MouseLeft})
	if !m.Picker().IsOpen() || m.Picker().Query() != "pars" {
		t.Fatalf("click into @pars: open=%v %q", m.Picker().IsOpen(), m.Picker().Query())
	}
}

// TestAtTypedBeforeAWord: an '@' typed in front of a word the draft
// already holds, then a pick, keeps that word: the pick replaces the
// query typed ("@par"), not the rest of the word, which is not in the
// label picked.
func TestAtTypedBeforeAWord(t *testing.T) {
	e := newEnv(t)
	m := typeText(e.composer(), "hello world")
	m, _ = press(m, tea.KeyPressMsg{Code: tea.KeyHome})
	m = typeText(m, "@par")
	if !m.Picker().IsOpen() || m.Picker().Query() != "par" {
		t.Fatalf("open=%v query %q", m.Picker().IsOpen(), m.Picker().Query())
	}
	m, _ = press(m, tab)
	if got := m.Readable(); got != "@Fix the session parser hello world" {
		t.Fatalf("the word after the '@' was lost or changed: %q", got)
	}
}
