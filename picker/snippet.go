package picker

import (
	"unicode/utf8"

	"github.com/dshkit/mentions/internal/textutil"
)

// snippetIndent is how far a hit's snippet is set in under its row.
const snippetIndent = 4

// heading draws the hits section's heading: "in messages", or why the
// search failed.
func (m Model) heading(s *sectionState, w int) string {
	text := "in messages"
	switch {
	case s.answer.Err != nil:
		text += " · couldn't search: " + textutil.Inline(s.answer.Err.Error())
	case s.pending:
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
	indent := min(snippetIndent, innerW)
	segs := []seg{{text: spaces(indent)}}
	segs = append(segs, showFirstMatch(snippetSegs(h.Snippet, h.Match, stale), innerW-indent)...)
	return paint(fitSegs(segs, innerW), rs, innerW)
}

// showFirstMatch keeps the first matched term of a snippet too wide for
// w cells in sight: when the term would end past the line, the snippet's
// start gives way to "…" until the term ends about two thirds along, or
// the snippet's end fits (or the term starts the line, when it is that
// long itself). segs are snippetSegs'
// (text and term alternate: the terms are the odd ones).
func showFirstMatch(segs []seg, w int) []seg {
	total, end, matchW := 0, -1, 0
	for i, s := range segs {
		sw := textutil.Width(s.text)
		total += sw
		if end < 0 && i%2 == 1 && sw > 0 {
			end, matchW = total, sw
		}
	}
	start := end - matchW
	if total <= w || end < 0 || end <= w-1 || start == 0 {
		return segs
	}
	// "…" takes the place of the first of the cells dropped: as many as
	// bring the term's end two thirds along, or the snippet's end to the
	// line's when that is fewer, and never the term itself.
	drop := min(start, max(1, min(end+1-2*w/3, total+1-w)))
	out := []seg{{"…", segs[0].part}}
	for _, s := range segs {
		sw := textutil.Width(s.text)
		switch {
		case drop >= sw:
			drop -= sw
		case drop > 0:
			out = append(out, seg{textutil.LastCells(s.text, sw-drop), s.part})
			drop = 0
		default:
			out = append(out, s)
		}
	}
	return out
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
