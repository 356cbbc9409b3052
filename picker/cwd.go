package picker

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/sessionref"
)

// The folder column shows a working directory under the home as "~/…",
// but the source matches the whole path. So that every row shows why it
// matched: a query that starts with "~" also asks the source with the
// home written out (what is shown matches), and a row whose folder
// matched only in the part the column hides shows the whole path, cut
// so that the match stays in view and underlined.

// sourceQueries is what the source is asked for query: the query itself
// and, when it starts with "~" or "~/", the same with the home in place
// of the "~".
func (m Model) sourceQueries(query string) []string {
	home := strings.TrimRight(m.home, `/\`)
	if home == "" || !(query == "~" || strings.HasPrefix(query, "~/")) {
		return []string{query}
	}
	return []string{home + query[1:], query}
}

// fetchAll asks src for each query and merges the answers: every session
// once, in the core's order (rank, then newest); more says a source's
// limit cut an answer.
func fetchAll(ctx context.Context, src Source, queries []string) (cands []sessionref.Candidate, more bool, err error) {
	ask := func(q string) ([]sessionref.Candidate, error) {
		if ms, ok := src.(MoreSource); ok {
			cs, m, err := ms.CandidatesMore(ctx, q)
			more = more || m
			return cs, err
		}
		return src.Candidates(ctx, q)
	}
	first, err := ask(queries[0])
	if err != nil || len(queries) == 1 {
		return first, more, err
	}
	merged := slices.Clone(first)
	seen := make(map[string]bool, len(first))
	for _, c := range first {
		seen[c.SessionID] = true
	}
	for _, q := range queries[1:] {
		next, err := ask(q)
		if err != nil {
			return nil, false, err
		}
		for _, c := range next {
			if !seen[c.SessionID] {
				seen[c.SessionID] = true
				merged = append(merged, c)
			}
		}
	}
	stableSortCandidates(merged)
	return merged, more, nil
}

// rememberMore notes whether the cached answer to query was cut. Like
// the cache, the map is copied before it changes, so a copy of the model
// never sees this model's notes.
func (m *Model) rememberMore(query string, more bool) {
	k := cacheKey{m.targetKey, query}
	if m.moreOf[k] == more {
		return
	}
	m.moreOf = maps.Clone(m.moreOf)
	if m.moreOf == nil {
		m.moreOf = map[cacheKey]bool{}
	}
	if more {
		m.moreOf[k] = true
	} else {
		delete(m.moreOf, k)
	}
}

// stableSortCandidates orders by rank, then newest first, keeping the
// order of equals (the core's tie order).
func stableSortCandidates(cs []sessionref.Candidate) {
	slices.SortStableFunc(cs, func(a, b sessionref.Candidate) int {
		if a.Rank != b.Rank {
			return cmp.Compare(a.Rank, b.Rank)
		}
		return cmp.Compare(b.CreatedAt, a.CreatedAt)
	})
}

// cwdText is the folder as the column shows it before any cut: under
// the home as "~/…", unless the query matches only the part that hides.
func (m Model) cwdText(c sessionref.Candidate) string {
	if c.Cwd == nil {
		return "(no cwd)"
	}
	full := textutil.Inline(*c.Cwd)
	short := textutil.ShortenHome(full, m.home)
	if short != full && m.query != "" {
		if _, _, ok := matchRange(short, m.query); !ok {
			if _, _, ok := matchRange(full, m.query); ok {
				return full
			}
		}
	}
	return short
}

// cwdSegs is the folder cut to w cells, its match to the query (if any)
// underlined and kept in view: the middle of a long path gives way, or,
// when the match is in the middle, the ends do.
func (m Model) cwdSegs(c sessionref.Candidate, w int, meta part, mark bool) []seg {
	text := m.cwdText(c)
	a, z, ok := matchRange(text, m.query)
	if c.Cwd == nil || !mark || !ok {
		return []seg{{textutil.Middle(text, w), meta}}
	}
	a, z = wholeClusters(text, a, z)
	if textutil.Width(text) <= w {
		return []seg{{text[:a], meta}, {text[a:z], partMatch}, {text[z:], meta}}
	}
	if cut := textutil.Middle(text, w); strings.Contains(lowerJS(cut), lowerJS(m.query)) {
		if a2, z2, ok := matchRange(cut, m.query); ok {
			a2, z2 = wholeClusters(cut, a2, z2)
			return []seg{{cut[:a2], meta}, {cut[a2:z2], partMatch}, {cut[z2:], meta}}
		}
	}
	// The match, with what follows it, after a "…" for what precedes.
	head := "…"
	if a == 0 {
		head = ""
	}
	return fitSegs([]seg{{head, meta}, {text[a:z], partMatch}, {text[z:], meta}}, w)
}

// matchesFolderOnly reports whether the query matches c's folder and
// neither its label nor its id: the folder is then what shows why the
// row is listed, and the column keeps it longest.
func (m Model) matchesFolderOnly(c sessionref.Candidate) bool {
	if m.query == "" || c.Cwd == nil {
		return false
	}
	if _, _, ok := matchRange(m.cwdText(c), m.query); !ok {
		return false
	}
	_, _, inLabel := matchRange(textutil.Inline(c.Label), m.query)
	return !inLabel && !strings.Contains(lowerJS(c.SessionID), lowerJS(m.query))
}
