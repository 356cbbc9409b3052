package picker

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/sessionref"
)

// Hit is a session found by what was said in it, for the picker's second
// section ("in messages"). The picker does not search; a [HitSource]
// does (the module's discover package, for one).
type Hit struct {
	// Candidate is the session, picked like any candidate.
	sessionref.Candidate
	// Snippet is one line of the matching text. The picker sanitises it
	// again before drawing it.
	Snippet string
	// Match holds the byte ranges [start, end) of the matched terms in
	// Snippet; ranges out of order, overlapping, out of bounds or inside
	// a character are ignored.
	Match [][2]int
}

// HitSource finds sessions by what was said in them. Like [Source] it is
// called from a tea.Cmd, never from Update, and must honour ctx: the
// picker cancels a search as soon as the query changes. It is never
// called for a query that is empty or only spaces.
type HitSource func(ctx context.Context, query string) ([]Hit, error)

// WithHitSource adds the "in messages" section under the candidates, fed
// by src. A session that the candidates above already list is not shown
// again among the hits.
func WithHitSource(src HitSource) Option { return func(m *Model) { m.hitSource = src } }

// HitsMsg carries a hit source's answer to one query. Like [FetchedMsg],
// it is applied only if it answers the picker's newest query and that
// search is still running.
type HitsMsg struct {
	picker int64
	seq    uint64
	Query  string
	Hits   []Hit
	Err    error
	// cancelled says the search's context had ended when it returned.
	cancelled bool
}

// NewHitsMsg builds the answer of p's hit source to p's newest query, for
// tests and hosts that fake a source. It is dropped when query is not p's
// current query or its search is answered already.
func NewHitsMsg(p Model, query string, hits []Hit, err error) HitsMsg {
	return HitsMsg{picker: p.id, seq: p.seq, Query: query, Hits: hits, Err: err}
}

// hitSectionExtra is how many lines the hits section may add to the
// popup's height beyond the rows cap: its heading and two hits.
const hitSectionExtra = 5

// Hits returns the hits shown in the "in messages" section, which answer
// Query only when HitsFresh. Sessions listed among Items are left out.
func (m Model) Hits() []Hit { return m.hits }

// HitsFresh reports whether the hits answer the current query. Without
// a hit source there is nothing to wait for, and it is true.
func (m Model) HitsFresh() bool {
	return m.hitSource == nil || !m.hitsPending && m.hitsQuery == m.query
}

// HitsErr returns the hit source's error for the current query, if any
// (with Hits and HitsFresh; SectionErr(MessagesID) says the same).
func (m Model) HitsErr() error { return m.hitErr }

// startHits starts the search of the current query, cancelling the one
// before. The hits shown stay, greyed, until the answer comes; a blank
// query searches nothing and clears them.
func (m *Model) startHits() tea.Cmd {
	m.stopHits()
	if m.hitSource == nil {
		return nil
	}
	if strings.TrimSpace(m.query) == "" {
		m.hitsAll, m.hits, m.hitErr, m.hitsQuery, m.hitsPending = nil, nil, nil, m.query, false
		m.clampCursor()
		return nil
	}
	m.hitsPending = true
	return m.searchCmd()
}

// searchCmd runs the hit source on the current query, in a new context.
func (m *Model) searchCmd() tea.Cmd {
	ctx, cancel := m.fetchContext()
	m.hitCancel = cancel
	src, id, seq, query := m.hitSource, m.id, m.seq, m.query
	return func() tea.Msg {
		hits, err := src(ctx, query)
		return HitsMsg{picker: id, seq: seq, Query: query, Hits: hits, Err: err, cancelled: ctx.Err() != nil}
	}
}

func (m *Model) stopHits() {
	if m.hitCancel != nil {
		m.hitCancel()
		m.hitCancel = nil
	}
}

// applyHits takes a search's answer, unless it is stale.
func (m Model) applyHits(msg HitsMsg) (Model, tea.Cmd) {
	if msg.picker != m.id || msg.seq != m.seq || msg.Query != m.query || !m.open || !m.hitsPending {
		return m, nil // stale: it answers an older query
	}
	if msg.cancelled {
		return m, m.searchCmd() // a copy cancelled it (see Model): ask again
	}
	m.stopHits()
	m.hitsPending = false
	keep, had := m.cursorSession()
	m.hitsAll, m.hitErr, m.hitsQuery = msg.Hits, msg.Err, msg.Query
	if msg.Err != nil {
		m.hitsAll = nil
	}
	id, at, chose := m.hostChoice()
	m.filterHits()
	switch {
	case chose && m.restoreCursor(id, at): // the host's item the user moved to stays highlighted
	case had && m.keepCursorOn(keep): // the session the user sees stays highlighted
	case len(m.items) == 0 || m.cursor >= m.entries():
		m.cursor = 0
		m.skipDisabled(1)
	}
	m.clampCursor()
	if m.acceptOnArrival && !m.pending {
		m.cursor = 0
		m.skipDisabled(1)
		return m.pickFirst()
	}
	return m, nil
}

// filterHits drops the hits of sessions the candidates already list.
func (m *Model) filterHits() {
	if len(m.hitsAll) == 0 {
		m.hits = nil
		return
	}
	listed := make(map[string]struct{}, len(m.items))
	for _, c := range m.items {
		listed[c.SessionID] = struct{}{}
	}
	m.hits = make([]Hit, 0, len(m.hitsAll))
	for _, h := range m.hitsAll {
		if _, dup := listed[h.SessionID]; !dup {
			m.hits = append(m.hits, h)
		}
	}
}

// The picker's entries are those of its sections, in the order of
// sectionOrder; one cursor moves through them. On screen a candidate or
// a host's item takes one line, a hit two (its row and its snippet), and
// every section but the first has a heading line above its entries (the
// hits section always has one). Offsets into the popup are in lines.

// sectionKind is what a block of entries holds.
type sectionKind uint8

const (
	kindSessions sectionKind = iota // the candidates
	kindHits                        // the "in messages" hits
	kindHost                        // a host's section, m.sections[host]
)

// block is a section as drawn: its entries and lines.
type block struct {
	kind    sectionKind
	host    int  // m.sections index, for kindHost
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
func (m Model) blockID(b block) string {
	switch b.kind {
	case kindSessions:
		return SessionsID
	case kindHits:
		return MessagesID
	}
	return m.sections[b.host].ID
}

// blocks are the sections drawn, in order. The sessions show while they
// have rows (or, beside a host's rows, an error); the hits while they
// have rows or an error, which their heading alone tells; a host's
// section likewise.
func (m Model) blocks() []block {
	out := make([]block, 0, 2+len(m.sections))
	entry, line := 0, 0
	add := func(b block) {
		b.first, b.line = entry, line
		if len(out) > 0 {
			b.heading = true
		}
		out = append(out, b)
		entry += b.n
		line += b.lines()
	}
	for _, id := range m.sectionOrder() {
		switch id {
		case SessionsID:
			if len(m.items) > 0 || m.err != nil && m.hostEntries() > 0 {
				// A heading of its own says why it has no rows.
				add(block{kind: kindSessions, n: len(m.items), heading: len(m.items) == 0})
			}
		case MessagesID:
			if len(m.hits) > 0 || m.hitErr != nil {
				add(block{kind: kindHits, n: len(m.hits), heading: true})
			}
		default:
			i := m.sectionIndex(id)
			if s := m.sections[i]; len(s.items) > 0 || s.err != nil {
				add(block{kind: kindHost, host: i, n: len(s.items), heading: true})
			}
		}
	}
	return out
}

// hostEntries is the number of rows of the host's sections.
func (m Model) hostEntries() int {
	n := 0
	for _, s := range m.sections {
		n += len(s.items)
	}
	return n
}

// entries is the number of entries of every section.
func (m Model) entries() int { return len(m.items) + len(m.hits) + m.hostEntries() }

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
		return m.items[j]
	case b.kind == kindHits:
		return m.hits[j].Candidate
	}
	return sessionref.Candidate{}
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
	switch {
	case j < 0:
		return false
	case b.kind == kindHits:
		return m.HitsFresh()
	case b.kind == kindHost:
		return m.SectionFresh(m.sections[b.host].ID)
	}
	return m.Fresh()
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
