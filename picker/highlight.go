package picker

// The highlight stays on the session the user sees: answers that arrive
// late (the candidates after the hits, or either after a Refresh) may
// add rows above it or move it from one section to the other, but they
// never move the highlight to another session. Only a new query starts
// again at the first row.

// cursorSession is the session under the cursor when its section's rows
// answer the current query (a refresh of the same query included), so a
// late answer can keep the highlight on it.
func (m Model) cursorSession() (string, bool) {
	if !m.open || m.cursor < 0 || m.cursor >= m.entries() {
		return "", false
	}
	b, j := m.locate(m.cursor)
	switch {
	case j < 0 || b.kind == kindHost:
		return "", false // a host's item: its own rules (hostChoice)
	case b.kind == kindHits && m.hitsQuery != m.query, b.kind == kindSessions && m.itemsQuery != m.query:
		return "", false
	}
	return m.entry(m.cursor).SessionID, true
}

// keepCursorOn puts the cursor back on session id when an entry still
// shows it and can be picked; it reports whether it did.
func (m *Model) keepCursorOn(id string) bool {
	for i := range m.entries() {
		if b, j := m.locate(i); j < 0 || b.kind == kindHost || m.entry(i).SessionID != id {
			continue
		}
		if _, off := m.entryDisabled(i); off {
			return false
		}
		m.cursor = i
		m.scrollToCursor()
		return true
	}
	return false
}
