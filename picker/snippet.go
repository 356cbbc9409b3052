package picker

import (
	"unicode/utf8"

	"github.com/dshkit/mentions/internal/textutil"
)

// snippetIndent is how far a hit's snippet is set in under its row.
const snippetIndent = 4

// heading draws the hits section's heading: "in messages", or why the
// search failed.
func (m Model) heading(w int) string {
	text := "in messages"
	switch {
	case m.hitErr != nil:
		text += " · couldn't search: " + textutil.Inline(m.hitErr.Error())
	case m.hitsPending:
		text += " · searching…"
	}
	return m.textLine(text, m.styles.Section, w)
}

// renderSnippet draws a hit's snippet line, exactly innerW cells wide,
// its matched terms in the match style, in the row's style (plain or
// highlighted, as the hit's row above it).
func (m Model) renderSnippet(h Hit, highlighted, stale bool, innerW int, plain, hi *rowStyles) string {
	rs := plain
	if highlighted {
		rs = hi
	}
	segs := []seg{{text: spaces(min(snippetIndent, innerW))}}
	segs = append(segs, snippetSegs(h.Snippet, h.Match, stale)...)
	return paint(fitSegs(segs, innerW), rs, innerW)
}

// snippetSegs splits a snippet at its match ranges, each piece drawn
// through the sanitiser. Ranges that are out of order, overlap, fall
// outside the snippet or inside a character are skipped, so a wrong
// range can only lose a highlight.
func snippetSegs(snippet string, match [][2]int, stale bool) []seg {
	text, hit := partSnippet, partMatch
	if stale {
		text, hit = partStale, partStale
	}
	var segs []seg
	at := 0
	for _, r := range match {
		a, z := r[0], r[1]
		if a < at || z <= a || z > len(snippet) || !boundary(snippet, a) || !boundary(snippet, z) {
			continue
		}
		segs = append(segs, seg{textutil.Inline(snippet[at:a]), text}, seg{textutil.Inline(snippet[a:z]), hit})
		at = z
	}
	return append(segs, seg{textutil.Inline(snippet[at:]), text})
}

// boundary reports whether byte i of s starts a character (or ends s).
func boundary(s string, i int) bool { return i == len(s) || utf8.RuneStart(s[i]) }
