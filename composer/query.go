package composer

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

// Where a mention query starts and ends (the package doc says it for
// people):
//
//   - It opens when typing, deleting or a horizontal cursor move (a
//     character, a word, line start or end, a click) leaves the cursor at
//     the end of, or inside, an "@word": an '@' at the start of the draft
//     or after whitespace, followed by text without whitespace up to the
//     cursor. So typing '@' opens it, and so do typing after Esc and
//     moving back into "@pars". Vertical moves, jumps to the start or end
//     of the draft, SetValue and pastes never open it.
//   - Once open, the query is the text from the '@' to the cursor and may
//     hold single spaces, as titles do. It ends on a second consecutive
//     space, on a space typed after a query that matched no session, on
//     a newline or a token, when the cursor leaves it, on Esc, or with a
//     pick.

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
		if i, ok := m.wordQueryAt(m.cursor); ok {
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
	if i < 0 || i >= len(m.atoms) || !m.atoms[i].isAt() || m.cursor <= i {
		return "", false
	}
	if i > 0 && !m.atoms[i-1].isSpace() {
		return "", false
	}
	var b strings.Builder
	prevSpace := false
	for j, a := range m.atoms[i+1 : m.cursor] {
		if a.tok != nil || a.isNewline() {
			return "", false
		}
		if a.isSpace() {
			if j == 0 || prevSpace {
				return "", false // "@ " is no mention; a second space ends it
			}
		}
		prevSpace = a.isSpace()
		b.WriteString(a.text)
	}
	return strings.TrimRightFunc(b.String(), unicode.IsSpace), true
}

// wordQueryAt returns the '@' of the @word the cursor position c is in
// or at the end of.
func (m Model) wordQueryAt(c int) (int, bool) {
	j := c
	for j > 0 && m.atoms[j-1].tok == nil && !m.atoms[j-1].isSpace() {
		j--
	}
	if j < c && m.atoms[j].isAt() && (j == 0 || m.atoms[j-1].isSpace()) {
		return j, true
	}
	return -1, false
}

// matchedNothing reports whether the open picker's answers for its
// current query are in and hold no row, in any section: no session by
// title or in its full-text hits, and no host's item.
func (m Model) matchedNothing() bool {
	return m.picker.Settled() && m.picker.Err() == nil && m.picker.Len() == 0
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
