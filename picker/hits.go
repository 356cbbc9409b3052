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

// HitErr returns the hit source's error for the current query, if any.
func (m Model) HitErr() error { return m.hitErr }

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
	ctx, cancel := m.fetchContext()
	m.hitCancel = cancel
	src, id, seq, query := m.hitSource, m.id, m.seq, m.query
	return func() tea.Msg {
		hits, err := src(ctx, query)
		return HitsMsg{picker: id, seq: seq, Query: query, Hits: hits, Err: err}
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
	m.stopHits()
	m.hitsPending = false
	m.hitsAll, m.hitErr, m.hitsQuery = msg.Hits, msg.Err, msg.Query
	if msg.Err != nil {
		m.hitsAll = nil
	}
	m.filterHits()
	if len(m.items) == 0 || m.cursor >= m.entries() {
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

// The picker's entries are the candidates followed by the hits; one
// cursor moves through them. On screen a candidate takes one line, the
// hits section a heading line, then two lines per hit (its row and its
// snippet). Offsets into the popup are in lines.

// entries is the number of entries: candidates and hits.
func (m Model) entries() int { return len(m.items) + len(m.hits) }

// entry returns entry i's session.
func (m Model) entry(i int) sessionref.Candidate {
	if i < len(m.items) {
		return m.items[i]
	}
	return m.hits[i-len(m.items)].Candidate
}

// isHit reports whether entry i is in the hits section.
func (m Model) isHit(i int) bool { return i >= len(m.items) }

// entryFresh reports whether entry i answers the current query.
func (m Model) entryFresh(i int) bool {
	if m.isHit(i) {
		return m.HitsFresh()
	}
	return m.Fresh()
}

// hitLines is the height of the hits section: nothing, or its heading
// and two lines per hit (the heading alone says why a search failed).
func (m Model) hitLines() int {
	if len(m.hits) == 0 && m.hitErr == nil {
		return 0
	}
	return 1 + 2*len(m.hits)
}

// totalLines is the height of all entries drawn.
func (m Model) totalLines() int { return len(m.items) + m.hitLines() }

// maxLines caps the lines shown at once.
func (m Model) maxLines() int { return m.maxRows + min(m.hitLines(), hitSectionExtra) }

// lineOf is the first line of entry i, and its height.
func (m Model) lineOf(i int) (line, height int) {
	if i < len(m.items) {
		return i, 1
	}
	return len(m.items) + 1 + 2*(i-len(m.items)), 2
}

// lineKind is what a line of the popup shows.
type lineKind uint8

const (
	lineRow     lineKind = iota // a candidate's or a hit's row
	lineHeading                 // the hits section's heading
	lineSnippet                 // a hit's snippet
)

// atLine says what line l shows and of which entry.
func (m Model) atLine(l int) (entry int, kind lineKind) {
	if l < len(m.items) {
		return l, lineRow
	}
	l -= len(m.items)
	if l == 0 {
		return -1, lineHeading
	}
	e := len(m.items) + (l-1)/2
	if (l-1)%2 == 1 {
		return e, lineSnippet
	}
	return e, lineRow
}

// clampCursor keeps the cursor on an entry and the window on the lines.
func (m *Model) clampCursor() {
	m.cursor = min(max(m.cursor, 0), max(m.entries()-1, 0))
	m.scrollToCursor()
}
