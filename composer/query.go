package composer

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	rules "github.com/dshkit/mentions/mention"
	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

// Where a mention query starts and ends is decided by the mention
// package's rules (rules.WordStart, rules.QueryText), the same for
// every editor of this module; the package doc says them for people. The
// composer opens a query after typing, deleting or a move along the line
// (a character, a word, line start or end, a click), never after a
// vertical move, a jump to the start or end of the draft, SetValue or a
// paste. Esc (or a click outside the popup) marks the @word's '@' as
// dismissed: it stays text until an edit inside the word.

func (a atom) isAt() bool { return a.tok == nil && a.text == "@" }

// follow keeps the picker in step after the cursor moved or the draft
// changed: an open query is updated or closed, and when reopen is set a
// closed one opens if the cursor is in an @word. It also keeps the
// cursor's line in view and the picker's anchor and disabled rows right.
func (m *Model) follow(reopen bool) tea.Cmd {
	var cmd tea.Cmd
	switch {
	case m.pickEnd >= 0 && m.picker.Accepting():
		// A pick waits for its answer: typing after the query is fine,
		// going back into it drops the pick.
		if m.cursor < m.pickEnd {
			m.closePicker()
		}
	case m.picker.IsOpen():
		if q, ok := m.activeQuery(); ok {
			m.picker, cmd = m.picker.SetQuery(q)
		} else {
			m.closePicker()
		}
	}
	if reopen && m.focused && !m.picker.IsOpen() {
		if i, ok := m.wordQueryAt(m.cursor); ok && !m.atoms[i].dismissed {
			m.atIndex = i
			q, _ := m.activeQuery()
			m.syncPicker()
			m.picker, cmd = m.picker.Open(q)
		}
	}
	m.scrollToCursor()
	m.syncPicker()
	return cmd
}

// afterEdit keeps an open query in step with a change the user did not
// type (SetValue, a paste, a pick, a sent draft): it never opens one.
func (m *Model) afterEdit() { m.follow(false) }

// activeQuery is the open query: the text between the '@' and the
// cursor, while that is still a mention query by the rules above. A
// trailing space is not part of what the picker searches for.
func (m Model) activeQuery() (string, bool) {
	i := m.atIndex
	if i < 0 || i >= len(m.atoms) || !m.atoms[i].isAt() || m.cursor <= i || m.cursor-i > rules.MaxQuery+1 {
		return "", false
	}
	return rules.QueryText(unitText(m.atoms[i:m.cursor]), i == 0 || m.atoms[i-1].isSpace())
}

// wordQueryAt returns the '@' of the @word the cursor position c is in
// or at the end of.
func (m Model) wordQueryAt(c int) (int, bool) {
	from := c
	for from > 0 && c-from <= rules.MaxQuery && m.atoms[from-1].tok == nil && !m.atoms[from-1].isNewline() {
		from--
	}
	before := unitText(m.atoms[from:c])
	j, ok := rules.WordStart(before, from == 0 || m.atoms[from-1].isSpace())
	if !ok {
		return -1, false
	}
	for i := from; i < c; i++ { // the byte offset back to an atom
		if j == 0 {
			return i, true
		}
		j -= len(m.atoms[i].text)
	}
	return -1, false
}

// unitText is atoms as the mention rules read them: a token is
// rules.TokenRune.
func unitText(atoms []atom) string {
	var b strings.Builder
	for _, a := range atoms {
		if a.tok != nil {
			b.WriteRune(rules.TokenRune)
		} else {
			b.WriteString(a.text)
		}
	}
	return b.String()
}

// wordEnd is where the word that atom i is in ends: at a space, a token
// or the end of the draft.
func (m Model) wordEnd(i int) int {
	for i < len(m.atoms) && m.atoms[i].tok == nil && !m.atoms[i].isSpace() {
		i++
	}
	return i
}

// dismiss marks the '@' of the query just closed by the user: its @word
// is text now.
func (m *Model) dismiss(at int) {
	if at < 0 || at >= len(m.atoms) || !m.atoms[at].isAt() {
		return
	}
	m.atoms = slices.Clone(m.atoms) // copies of the model share the array
	m.atoms[at].dismissed = true
}

// undismissAround makes a dismissed @word a query again when an edit at
// position c is inside it: typing inside it, or deleting any of it. Text
// typed right after it (c at its end, insert) leaves it text.
func (m *Model) undismissAround(c int, deleting bool) {
	i, ok := m.wordQueryAt(c)
	if !ok || !m.atoms[i].dismissed {
		return
	}
	if !deleting && c >= m.wordEnd(i) {
		return
	}
	m.atoms = slices.Clone(m.atoms)
	m.atoms[i].dismissed = false
}

func (m *Model) closePicker() {
	if m.picker.IsOpen() {
		m.picker = m.picker.Close()
	}
	m.atIndex, m.pickEnd = -1, -1
}

// syncPicker tells the picker the screen, the anchor and which rows are
// disabled.
func (m *Model) syncPicker() {
	m.picker.SetScreenSize(m.screenW, m.screenH)
	switch {
	case !m.bounds.Empty():
		m.picker.SetBounds(m.bounds)
	case m.sized:
		m.picker.SetBounds(picker.Rect{})
	default:
		// No screen size yet: the composer's own columns, from the top
		// of the screen to its last line.
		m.picker.SetBounds(picker.Rect{X: m.originX, W: m.width, H: m.originY + m.visibleLines(len(m.lines())) + 1})
	}
	if m.atIndex >= 0 && m.atIndex <= len(m.atoms) {
		lines := m.lines()
		l := lineOf(lines, m.atIndex)
		col := cells(m.atoms[lines[l].start:m.atIndex], m.textWidth())
		// Hang from all the editor's visible lines, not just the '@' line,
		// so the popup never covers the draft.
		last := m.visibleLines(len(lines)) - 1
		m.picker.SetAnchorSpan(m.originX+promptW+col, m.originY, m.originY+last)
	}
	ids := slices.Clone(m.refs)
	limit := m.maxRefs
	m.picker.SetDisable(func(c sessionref.Candidate) (string, bool) {
		if slices.Contains(ids, c.SessionID) {
			return "already mentioned", true
		}
		if len(ids) >= limit {
			return fmt.Sprintf("limit %d/%d reached", len(ids), limit), true
		}
		return "", false
	})
}

// pickerAnswered reports whether the picker's sessions and the host's
// sections have answered the current query (the "in messages" search may
// still run: the popup says so).
func (m Model) pickerAnswered() bool {
	for _, id := range m.picker.Sections() {
		if id != picker.MessagesID && !m.picker.SectionFresh(id) {
			return false
		}
	}
	return true
}
