package composer

import (
	"github.com/dshkit/mentions/internal/mentionpick"
	"github.com/dshkit/mentions/picker"
)

// Where a mention query starts and ends, what Esc and a pick do, is
// decided by the mention model (m.draft), the same for every editor of
// this module; the package doc says it for people. The composer's moves
// are mention.Move (a character, a word, line start or end, a click:
// they may open a query) or mention.Jump (vertical moves, the start or
// end of the draft: they never do); SetValue and a paste never open one.

func (m *Model) closePicker() {
	m.draft.Close()
	if m.picker.IsOpen() {
		m.picker.Close()
	}
}

// syncPicker tells the picker the anchor and which rows are disabled,
// and, until a tea.WindowSizeMsg told the screen, keeps the popup in the
// composer's own columns, from the top of the screen to its last line.
// The screen size and bounds are otherwise the host's, set on Picker().
func (m *Model) syncPicker() {
	if !m.sized {
		m.picker.SetBounds(picker.Rect{X: m.originX, W: m.width, H: m.originY + m.visibleLines(len(m.lines())) + 1})
	}
	if _, at, ok := m.draft.Query(); ok {
		i := m.atomAt(at)
		lines := m.lines()
		l := lineOf(lines, i)
		col := cells(m.atoms[lines[l].start:i], m.textWidth())
		// Hang from all the editor's visible lines, not just the '@' line,
		// so the popup never covers the draft.
		last := m.visibleLines(len(lines)) - 1
		m.picker.SetAnchorSpan(m.originX+promptW+col, m.originY, m.originY+last)
	}
	mentionpick.Disable(&m.picker, &m.draft, m.maxRefs)
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
