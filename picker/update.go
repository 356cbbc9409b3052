package picker

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/sessionref"
)

// WantsKey reports whether Update would consume the key: while the
// picker is open, every one of its bindings. Tab and Enter are consumed
// even when nothing can be picked (the popup then says why), so a host
// never turns them into a send while the picker is open.
func (m Model) WantsKey(msg tea.KeyPressMsg) bool {
	if !m.open {
		return false
	}
	k := m.keys
	if m.previewKey() && key.Matches(msg, k.Preview) {
		return true
	}
	return key.Matches(msg, k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End, k.Accept, k.AcceptEnter, k.Dismiss)
}

// previewKey reports whether the Preview key does something: with a
// preview, in a pane too narrow for the preview beside the rows.
func (m Model) previewKey() bool { return m.open && m.hasPreviews() && !m.previewWide() }

// WantsMouse reports whether Update would consume the mouse message:
// while the picker is open, a click anywhere (inside it moves or picks,
// outside it closes the picker) and wheel or motion over the popup. A
// host routes such messages to the picker first and does not act on
// them itself.
func (m Model) WantsMouse(msg tea.MouseMsg) bool {
	if !m.open {
		return false
	}
	if _, ok := msg.(tea.MouseClickMsg); ok {
		return true
	}
	mouse := msg.Mouse()
	return m.Rect().Contains(mouse.X, mouse.Y)
}

// Update handles fetch results, keys and mouse messages. A pick it makes
// is both returned by [Model.TakePick] and sent as a [PickedMsg] Cmd.
//
// Tab or Enter pressed before the source has answered the current query
// never picks a row of an older answer (those rows are greyed and carry
// no marker): the popup says at once "picking the first match for …",
// and the first enabled row of the answer is picked when it arrives. If
// the answer has none, nothing is picked and the popup says why. A click
// picks the row clicked, as drawn.
//
// With a preview (see [WithPreview]), anything that moves the highlight
// also starts the preview's read, or cancels the one running.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if p, ok := msg.(previewMsg); ok {
		m.pick = nil
		m = m.applyPreview(p)
		return m.followPreview(nil)
	}
	m, cmd := m.update(msg)
	m.hold()
	return m.followPreview(cmd)
}

func (m Model) update(msg tea.Msg) (Model, tea.Cmd) {
	m.pick = nil
	switch msg := msg.(type) {
	case AnswerMsg:
		return m.apply(msg)
	case slowMsg:
		if msg.picker == m.id && msg.seq == m.seq {
			m.markSlow()
		}
	case tea.WindowSizeMsg:
		m.SetScreenSize(msg.Width, msg.Height)
	case tea.KeyPressMsg:
		if m.open {
			return m.handleKey(msg)
		}
	case tea.MouseMsg:
		if m.open {
			return m.handleMouse(msg)
		}
	}
	return m, nil
}

func (m Model) handleKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Dismiss):
		m.Close()
		return m, dismissed
	case key.Matches(msg, k.Accept, k.AcceptEnter):
		return m.accept()
	case m.previewKey() && key.Matches(msg, k.Preview):
		m.pv.shown = !m.pv.shown
		return m, nil
	case key.Matches(msg, k.Up):
		m.move(-1, true)
	case key.Matches(msg, k.Down):
		m.move(1, true)
	case key.Matches(msg, k.PageUp, k.PageDown) && m.previewInPlace():
		// The preview is what shows: page it, not the hidden rows.
		g := m.layout()
		page := max(g.lines-previewHead-1, 1)
		if key.Matches(msg, k.PageUp) {
			page = -page
		}
		m.scrollPreview(page)
		return m, nil
	case key.Matches(msg, k.PageUp):
		m.move(-m.visibleRows(), false)
	case key.Matches(msg, k.PageDown):
		m.move(m.visibleRows(), false)
	case key.Matches(msg, k.Home):
		m.cursor = 0
		m.skipDisabled(1)
		m.scrollToCursor()
	case key.Matches(msg, k.End):
		m.cursor = m.entries() - 1
		m.skipDisabled(-1)
		m.scrollToCursor()
	default:
		return m, nil
	}
	// A move is a new choice: an earlier pick waiting for its answer and
	// an earlier warning no longer apply.
	m.chose = true
	m.acceptOnArrival = false
	m.notice, m.nudged = "", false
	return m, nil
}

func dismissed() tea.Msg { return DismissedMsg{} }

// accept picks the highlighted row. While the rows on screen do not
// answer the current query yet it waits, visibly, and picks the first
// match of the answer (see Update); with no row to pick it says why.
func (m Model) accept() (Model, tea.Cmd) {
	if i, ok := m.highlightedEntry(); ok {
		return m.pickEntry(i)
	}
	m.notice = ""
	if m.anyPending() {
		m.acceptOnArrival = true
		m.markSlow() // show the popup now: the user asked for something
		return m, nil
	}
	m.nudged = true
	return m, nil
}

// pickFirst finishes a pick asked for before the answer came: the first
// row of the answers, in section order, that Tab would pick by itself
// (see firstRow), or, with none, a warning that says why. While a
// section before that row is still waiting for its answer, it waits for
// it.
func (m Model) pickFirst() (Model, tea.Cmd) {
	for _, b := range m.blocks() {
		for i := b.first; i < b.first+b.n; i++ {
			if m.autoPickable(i) {
				if !m.sectionsFreshTo(b.sec) {
					return m, nil // a section before it may bring a row first: wait
				}
				m.acceptOnArrival = false
				m.cursor = i
				m.scrollToCursor()
				return m.pickEntry(i)
			}
		}
	}
	if m.anyPending() {
		return m, nil
	}
	m.acceptOnArrival = false
	m.nudged = true
	return m, nil
}

// sectionsFreshTo reports whether the sections up to m.secs[last] have
// answered the current query.
func (m Model) sectionsFreshTo(last int) bool {
	for i := 0; i <= last; i++ {
		if !m.fresh(&m.secs[i]) {
			return false
		}
	}
	return true
}

// pickEntry picks entry i: a session's mention, or a host's item.
func (m Model) pickEntry(i int) (Model, tea.Cmd) {
	b, j := m.locate(i)
	switch {
	case j < 0:
		return m, nil
	case b.kind == kindHost:
		id, it := m.secs[b.sec].id, m.secs[b.sec].answer.Items[j]
		m.Close()
		p := PickedMsg{Section: id, Item: &it}
		m.pick = &p
		return m, func() tea.Msg { return p }
	}
	return m.pickSession(m.entry(i), m.blockID(b))
}

// pickRow picks candidate c of the sessions section.
func (m Model) pickRow(c sessionref.Candidate) (Model, tea.Cmd) { return m.pickSession(c, SessionsID) }

// pickSession picks session c, found in section.
func (m Model) pickSession(c sessionref.Candidate, section string) (Model, tea.Cmd) {
	if c.Label = MentionLabel(c.Label); c.Label == "" {
		c.Label = MentionLabel(c.SessionID)
	}
	mention, err := sessionref.FormatMention(sessionref.Reference{SessionID: c.SessionID, Label: &c.Label})
	if err != nil {
		m.notice, m.nudged = "cannot mention this session: "+textutil.Inline(err.Error()), true
		return m, nil
	}
	m.Close()
	p := PickedMsg{Candidate: c, Mention: mention, Section: section}
	m.pick = &p
	return m, func() tea.Msg { return p }
}

// move moves the cursor by delta rows, wrapping at the ends when wrap is
// set and clamping otherwise, and skips disabled rows.
func (m *Model) move(delta int, wrap bool) {
	n := m.entries()
	if n == 0 {
		return
	}
	c := m.cursor + delta
	if wrap {
		c = ((c % n) + n) % n
	} else {
		c = min(max(c, 0), n-1)
	}
	m.cursor = c
	dir := 1
	if delta < 0 {
		dir = -1
	}
	m.skipDisabled(dir)
	m.scrollToCursor()
}

// skipDisabled moves the cursor in dir to the nearest pickable row, if
// any; with none, it stays where it is.
func (m *Model) skipDisabled(dir int) {
	n := m.entries()
	for i := 0; i < n; i++ {
		c := ((m.cursor+dir*i)%n + n) % n
		if _, off := m.entryDisabled(c); !off {
			m.cursor = c
			m.scrollToCursor()
			return
		}
	}
}

// scrollToCursor moves the window of lines so the cursor's entry shows
// whole (with the section heading above the first hit, when it fits).
func (m *Model) scrollToCursor() {
	rows := m.visibleRows()
	first, h := m.lineOf(m.cursor)
	if m.isFirstOf(m.cursor) && h+1 <= rows {
		first, h = first-1, h+1 // the heading goes with the section's first entry
	}
	if first < m.offset {
		m.offset = first
	}
	if first+h > m.offset+rows {
		m.offset = first + h - rows
	}
	m.offset = min(max(m.offset, 0), max(m.totalLines()-rows, 0))
}

func (m Model) handleMouse(msg tea.MouseMsg) (Model, tea.Cmd) {
	mouse := msg.Mouse()
	r := m.Rect()
	switch msg.(type) {
	case tea.MouseWheelMsg:
		if !r.Contains(mouse.X, mouse.Y) {
			return m, nil
		}
		if g := m.layout(); g.previewW > 0 && mouse.X >= g.previewLeft && mouse.X < g.previewLeft+g.previewW {
			switch mouse.Button {
			case tea.MouseWheelUp:
				m.scrollPreview(-3)
			case tea.MouseWheelDown:
				m.scrollPreview(3)
			}
			return m, nil
		}
		switch mouse.Button {
		case tea.MouseWheelUp:
			m.scroll(-1)
		case tea.MouseWheelDown:
			m.scroll(1)
		}
	case tea.MouseMotionMsg:
		if row, ok := m.RowAt(mouse.X, mouse.Y); ok {
			if _, off := m.entryDisabled(row); !off {
				m.cursor, m.chose = row, true
			}
		}
	case tea.MouseClickMsg:
		if !r.Contains(mouse.X, mouse.Y) {
			m.Close()
			return m, dismissed
		}
		if mouse.Button != tea.MouseLeft {
			return m, nil
		}
		row, ok := m.RowAt(mouse.X, mouse.Y)
		if !ok {
			return m, nil
		}
		if _, off := m.entryDisabled(row); off {
			return m, nil
		}
		if !m.entryFresh(row) {
			// A row of a list that answers an older query: the user
			// saw it and chose it, so it is that row that is picked.
			return m.pickEntry(row)
		}
		m.cursor = row
		return m.accept()
	}
	return m, nil
}

// scroll moves the window of visible lines, keeping the cursor on an
// entry whose row is inside it.
func (m *Model) scroll(delta int) {
	rows := m.visibleRows()
	m.offset = min(max(m.offset+delta, 0), max(m.totalLines()-rows, 0))
	// The entries whose row is in the window: lo..hi.
	lo, hi := -1, -1
	for l := m.offset; l < min(m.offset+rows, m.totalLines()); l++ {
		if e, kind := m.atLine(l); kind == lineRow {
			if lo < 0 {
				lo = e
			}
			hi = e
		}
	}
	if lo < 0 {
		return // only a snippet or the heading shows: leave the cursor
	}
	m.cursor = min(max(m.cursor, lo), hi)
	// The cursor rests on an enabled row of the window when there is one.
	for d := 0; d <= hi-lo; d++ {
		for _, i := range []int{m.cursor - d, m.cursor + d} {
			if i >= lo && i <= hi {
				if _, off := m.entryDisabled(i); !off {
					m.cursor = i
					return
				}
			}
		}
	}
}
