package picker

import (
	"context"

	"github.com/dshkit/mentions/sessionref"
)

// Hit is a session found by what was said in it, for the picker's "in
// messages" section. The picker does not search; a [HitSource] does (the
// module's discover package, for one).
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

// WithHitSource adds the "in messages" section ([MessagesID]), fed by
// src. A session that the sessions section lists is not shown again
// among the hits. Like every section it is placed by [WithOrder]; by
// default it comes last.
func WithHitSource(src HitSource) Option { return func(m *Model) { m.hitSource = src } }

// hitSectionExtra is how many lines the hits section may add to the
// popup's height beyond the rows cap: its heading and two hits.
const hitSectionExtra = 5

// filterHits drops the hits of sessions the sessions section lists.
func (m *Model) filterHits() {
	s := m.sec(MessagesID)
	if s == nil {
		return
	}
	if len(s.hitsAll) == 0 {
		s.answer.Hits = nil
		return
	}
	var listed map[string]struct{}
	if ss := m.sec(SessionsID); ss != nil {
		listed = make(map[string]struct{}, len(ss.answer.Candidates))
		for _, c := range ss.answer.Candidates {
			listed[c.SessionID] = struct{}{}
		}
	}
	hits := make([]Hit, 0, len(s.hitsAll))
	for _, h := range s.hitsAll {
		if _, dup := listed[h.SessionID]; !dup {
			hits = append(hits, h)
		}
	}
	s.answer.Hits = hits
}
