package picker

import "github.com/dshkit/mentions/sessionref"

// The picker's entries are those of its sections, in their order; one
// cursor moves through them. On screen a candidate or a host's item
// takes one line, a hit two (its row and its snippet), and every section
// but the first has a heading line above its entries (the hits section
// always has one). Offsets into the popup are in lines.

// block is a section as drawn: its entries and lines.
type block struct {
	kind    sectionKind
	sec     int  // m.secs index
	first   int  // index of its first entry
	n       int  // its entries
	line    int  // its first line, the heading's when it has one
	heading bool // a heading line above the entries
}

// per is the lines each entry of b takes.
func (b block) per() int {
	if b.kind == kindHits {
		return 2
	}
	return 1
}

// lines is the height of b.
func (b block) lines() int {
	h := b.n * b.per()
	if b.heading {
		h++
	}
	return h
}

// blockID is the ID of b's section.
func (m Model) blockID(b block) string { return m.secs[b.sec].id }

// blocks are the sections drawn, in order. A section shows while it has
// rows or an error, which its heading alone tells; the sessions' error
// shows so only beside other rows (alone, the status says it).
func (m Model) blocks() []block {
	out := make([]block, 0, len(m.secs))
	entry, line := 0, 0
	for i := range m.secs {
		s := &m.secs[i]
		n := s.rows()
		switch {
		case n > 0:
		case s.answer.Err == nil:
			continue
		case s.kind == kindSessions && m.otherEntries() == 0:
			continue
		}
		b := block{kind: s.kind, sec: i, n: n, first: entry, line: line}
		// Every section after the first has a heading, and so does the
		// hits section and a section that has only its error to show.
		b.heading = len(out) > 0 || s.kind != kindSessions || n == 0
		out = append(out, b)
		entry += b.n
		line += b.lines()
	}
	return out
}

// entries is the number of entries of every section.
func (m Model) entries() int {
	n := 0
	for i := range m.secs {
		n += m.secs[i].rows()
	}
	return n
}

// otherEntries is the number of entries outside the sessions section.
func (m Model) otherEntries() int {
	n := 0
	for i := range m.secs {
		if m.secs[i].kind != kindSessions {
			n += m.secs[i].rows()
		}
	}
	return n
}

// locate returns the block of entry i and i's place in it.
func (m Model) locate(i int) (block, int) {
	for _, b := range m.blocks() {
		if i >= b.first && i < b.first+b.n {
			return b, i - b.first
		}
	}
	return block{kind: kindSessions, n: -1}, -1
}

// entry returns entry i's session; the zero Candidate for a host's item.
func (m Model) entry(i int) sessionref.Candidate {
	b, j := m.locate(i)
	switch {
	case j < 0:
		return sessionref.Candidate{}
	case b.kind == kindSessions:
		return m.secs[b.sec].answer.Candidates[j]
	case b.kind == kindHits:
		return m.secs[b.sec].answer.Hits[j].Candidate
	}
	return sessionref.Candidate{}
}

// item returns entry i's host item, if it is one.
func (m Model) item(i int) (Item, bool) {
	b, j := m.locate(i)
	if j < 0 || b.kind != kindHost {
		return Item{}, false
	}
	return m.secs[b.sec].answer.Items[j], true
}

// entryDisabled says whether entry i cannot be picked, and why. A
// host's item always can.
func (m Model) entryDisabled(i int) (string, bool) {
	b, j := m.locate(i)
	if j < 0 || b.kind == kindHost {
		return "", false
	}
	return m.disabled(m.entry(i))
}

// entryFresh reports whether entry i answers the current query.
func (m Model) entryFresh(i int) bool {
	b, j := m.locate(i)
	return j >= 0 && m.fresh(&m.secs[b.sec])
}

// totalLines is the height of all entries drawn.
func (m Model) totalLines() int {
	n := 0
	for _, b := range m.blocks() {
		n += b.lines()
	}
	return n
}

// maxLines caps the lines shown at once: the rows cap, and up to
// hitSectionExtra lines more for headings and snippets.
func (m Model) maxLines() int {
	extra := 0
	for _, b := range m.blocks() {
		switch {
		case b.kind == kindHits:
			extra += b.lines() // its heading and snippets, and two hits
		case b.heading:
			extra++
		}
	}
	return m.maxRows + min(extra, hitSectionExtra)
}

// lineOf is the first line of entry i, and its height.
func (m Model) lineOf(i int) (line, height int) {
	b, j := m.locate(i)
	if j < 0 {
		return 0, 1
	}
	line = b.line + j*b.per()
	if b.heading {
		line++
	}
	return line, b.per()
}

// lineKind is what a line of the popup shows.
type lineKind uint8

const (
	lineRow     lineKind = iota // an entry's row
	lineHeading                 // a section's heading
	lineSnippet                 // a hit's snippet
)

// atLine says what line l shows and of which entry (-1 for a heading).
func (m Model) atLine(l int) (entry int, kind lineKind) {
	_, e, k := m.lineAt(l)
	return e, k
}

// lineAt says what line l shows: its block, the entry (-1 for a
// heading) and what part of it.
func (m Model) lineAt(l int) (block, int, lineKind) {
	for _, b := range m.blocks() {
		if l < b.line || l >= b.line+b.lines() {
			continue
		}
		k := l - b.line
		if b.heading {
			if k == 0 {
				return b, -1, lineHeading
			}
			k--
		}
		e := b.first + k/b.per()
		if k%b.per() == 1 {
			return b, e, lineSnippet
		}
		return b, e, lineRow
	}
	return block{}, -1, lineHeading
}

// isFirstOf reports whether entry i is the first of a section with a
// heading, which goes with it when scrolled into view.
func (m Model) isFirstOf(i int) bool {
	b, j := m.locate(i)
	return j == 0 && b.heading
}

// clampCursor keeps the cursor on an entry and the window on the lines.
func (m *Model) clampCursor() {
	m.cursor = min(max(m.cursor, 0), max(m.entries()-1, 0))
	m.scrollToCursor()
}
