package picker

// The highlight rule, in one place (see the package doc): when the query
// changes, the highlight goes to the first row in section order that Tab
// would pick by itself (enabled, not Manual); each answer, whatever
// order the answers arrive in, puts it there again, until the user moves
// it (a key, the mouse). From then on an answer leaves it on the row the
// user chose: the same session, in whichever section now shows it, or
// the same host's item.

// rowRef names the row under the cursor across answers: a session by its
// id, a host's item by its section and place.
type rowRef struct {
	section string // a host's item's section; "" for a session
	session string
	at      int
	ok      bool
}

// cursorRef is the row under the cursor.
func (m Model) cursorRef() rowRef {
	if m.cursor < 0 || m.cursor >= m.entries() {
		return rowRef{}
	}
	b, j := m.locate(m.cursor)
	if j < 0 {
		return rowRef{}
	}
	if b.kind == kindHost {
		return rowRef{section: m.blockID(b), at: j, ok: true}
	}
	return rowRef{session: m.entry(m.cursor).SessionID, ok: true}
}

// find is the entry r names, if one shows it.
func (m Model) find(r rowRef) (int, bool) {
	if !r.ok {
		return 0, false
	}
	for _, b := range m.blocks() {
		switch {
		case r.section != "":
			if m.blockID(b) == r.section && r.at < b.n {
				return b.first + r.at, true
			}
		case b.kind != kindHost:
			for i := b.first; i < b.first+b.n; i++ {
				if m.entry(i).SessionID == r.session {
					return i, true
				}
			}
		}
	}
	return 0, false
}

// placeCursor applies the highlight rule after the rows changed: on the
// row the user chose (seen, before the change) when they chose one and
// it still shows, else on the first row in section order.
func (m *Model) placeCursor(seen rowRef) {
	if m.chose {
		if i, ok := m.find(seen); ok {
			if _, off := m.entryDisabled(i); !off {
				m.cursor = i
				m.scrollToCursor()
				return
			}
		}
	}
	if m.entries() == 0 {
		m.cursor, m.offset = 0, 0 // nothing to scroll to
		return
	}
	m.cursor = m.firstRow()
	m.clampCursor()
}

// firstRow is the first entry in section order that Tab would pick by
// itself: enabled and not Manual. With none it is 0.
func (m Model) firstRow() int {
	for i := range m.entries() {
		if m.autoPickable(i) {
			return i
		}
	}
	return 0
}

// autoPickable reports whether entry i may be picked without the user
// having highlighted it: it is enabled and not a Manual item.
func (m Model) autoPickable(i int) bool {
	if _, off := m.entryDisabled(i); off {
		return false
	}
	it, ok := m.item(i)
	return !ok || !it.Manual
}

// shownHighlighted reports whether the row under the cursor is drawn
// highlighted: every row but a Manual item the user did not move to.
func (m Model) shownHighlighted() bool {
	it, ok := m.item(m.cursor)
	return !ok || !it.Manual || m.chose
}
