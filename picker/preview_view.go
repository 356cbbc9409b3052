package picker

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/sessionref"
)

// previewMinLines is the least height, in content lines, the popup asks
// for while a preview shows: a heading, the counts and ten lines of the
// conversation, when the pane has room.
const previewMinLines = 12

// previewHead is how many lines above the conversation the preview
// takes: the session's label, and its counts (or why it has none).
const previewHead = 2

// previewRender is a preview's conversation broken into lines for one
// width: each a list of segments (the hit's terms apart), and the line a
// hit's match is on.
type previewRender struct {
	width int
	terms string // the hit's terms, joined, that the lines were drawn for
	lines [][]seg
	match int // the line of the hit's first match; -1: none
	base  *previewBase
}

// previewBase is a preview's conversation laid out for one width,
// whatever the terms: made safe and wrapped once, so a new query's terms
// cost a pass over the lines, not a new layout of a 64 KiB snapshot.
type previewBase struct {
	width int
	lines []baseLine
	// The text of each message made safe and case folded: what matchTurn
	// looks for a snippet in.
	lowSafe []string
}

// baseLine is one line of a laid out conversation: a message's role, the
// blank line between messages, or a line of a message's text.
type baseLine struct {
	text string
	turn int
	kind int
}

const (
	lineRole = iota
	lineBlank
	lineText
)

// layoutPreview lays p's conversation out at width w: a line naming
// each message's role, then its text, sanitised and wrapped, set in by
// two cells.
func layoutPreview(p Preview, w int) *previewBase {
	b := &previewBase{width: w}
	textW := max(w-2, 1)
	for i, t := range p.Snapshot.Conversation {
		role := "assistant"
		if t.Role == sessionref.RoleUser {
			role = "user"
		}
		if i > 0 {
			b.lines = append(b.lines, baseLine{turn: i, kind: lineBlank})
		}
		b.lines = append(b.lines, baseLine{text: "▸ " + role, turn: i, kind: lineRole})
		safe := textutil.Block(t.Text)
		for _, para := range strings.Split(safe, "\n") {
			for _, l := range textutil.Wrap(para, textW) {
				b.lines = append(b.lines, baseLine{text: l, turn: i, kind: lineText})
			}
		}
		b.lowSafe = append(b.lowSafe, sessionref.Lower(textutil.Inline(t.Text)))
	}
	return b
}

// renderPreview breaks p's conversation into lines w cells wide, newest
// last: a line naming each message's role, then its text, sanitised,
// set in by two cells. With terms, their occurrences are segments of
// their own and match is the line of the first one, in the newest
// message that has all of them (else the most of them).
func renderPreview(p Preview, w int, snippet string, terms []string) *previewRender {
	return renderLaidOut(p, layoutPreview(p, w), snippet, terms)
}

// renderLaidOut is renderPreview over a layout already made.
func renderLaidOut(p Preview, b *previewBase, snippet string, terms []string) *previewRender {
	r := &previewRender{width: b.width, terms: strings.Join(terms, "\x00"), match: -1, base: b}
	if len(p.Snapshot.Conversation) == 0 {
		r.lines = append(r.lines, []seg{{"(no messages kept)", partStale}})
		return r
	}
	best := b.matchTurn(p.Snapshot.Conversation, snippet, terms)
	for _, l := range b.lines {
		switch l.kind {
		case lineBlank:
			r.lines = append(r.lines, nil)
		case lineRole:
			r.lines = append(r.lines, []seg{{l.text, partMeta}})
		default:
			segs := append([]seg{{text: "  "}}, termSegs(l.text, terms)...)
			if l.turn == best && r.match < 0 && len(segs) > 2 {
				r.match = len(r.lines)
			}
			r.lines = append(r.lines, segs)
		}
	}
	return r
}

// hitTerms are the matched terms of h, as its snippet gives them.
func hitTerms(h Hit) []string {
	var terms []string
	at := 0
	for _, r := range h.Match {
		a, z := r[0], r[1]
		if a < at || z <= a || z > len(h.Snippet) || !boundary(h.Snippet, a) || !boundary(h.Snippet, z) {
			continue
		}
		if t := textutil.Inline(h.Snippet[a:z]); strings.TrimSpace(t) != "" {
			terms = append(terms, t)
		}
		at = z
	}
	return terms
}

// summaryLine is the capture line of a preview, in the words of a card's
// collapsed line: kept of total, omitted messages and bytes, the flags.
func summaryLine(r sessionref.ReferenceRecord) string {
	s := fmt.Sprintf("%d/%d kept", r.RetainedMessages, r.OriginalMessages)
	if r.OmittedMessages > 0 || r.OmittedBytes > 0 {
		s += fmt.Sprintf(", %d omitted (%s)", r.OmittedMessages, textutil.Bytes(r.OmittedBytes))
	}
	if r.Compacted {
		s += ", compacted"
	}
	if r.Truncated {
		s += ", truncated"
	}
	return s
}

// matchTurn is the message a hit's snippet was taken from: the newest
// that holds the snippet's text (without its "…"), else the newest with
// the most of its terms; -1 for none.
func (b *previewBase) matchTurn(conv []sessionref.Turn, snippet string, terms []string) int {
	if len(terms) == 0 {
		return -1
	}
	core := sessionref.Lower(strings.TrimSpace(strings.Trim(textutil.Inline(snippet), "…")))
	for i := len(b.lowSafe) - 1; i >= 0 && core != ""; i-- {
		if strings.Contains(b.lowSafe[i], core) {
			return i
		}
	}
	best, bestN := -1, 0
	for i := len(conv) - 1; i >= 0; i-- {
		if n := countTerms(conv[i].Text, terms); n > bestN {
			best, bestN = i, n
		}
	}
	return best
}

// countTerms is how many of terms occur in s, case folded.
func countTerms(s string, terms []string) int {
	n := 0
	low := sessionref.Lower(s)
	for _, t := range terms {
		if strings.Contains(low, sessionref.Lower(t)) {
			n++
		}
	}
	return n
}

// termSegs splits line l at the occurrences of terms (case folded where
// folding keeps the length), the terms drawn as matches.
func termSegs(l string, terms []string) []seg {
	if len(terms) == 0 {
		return []seg{{l, partPlain}}
	}
	var segs []seg
	start := 0
	for i := 0; i < len(l); {
		n := 0
		for _, t := range terms {
			if len(t) > 0 && i+len(t) <= len(l) && strings.EqualFold(l[i:i+len(t)], t) && boundary(l, i+len(t)) {
				n = len(t)
				break
			}
		}
		if n == 0 {
			_, size := utf8.DecodeRuneInString(l[i:])
			i += size
			continue
		}
		segs = append(segs, seg{l[start:i], partPlain}, seg{l[i : i+n], partMatch})
		i += n
		start = i
	}
	return append(segs, seg{l[start:], partPlain})
}

// previewRendered is the entry's lines for width w and the highlighted
// hit's terms, drawn once and kept with the entry.
func (m Model) previewRendered(e *previewEntry, w int) *previewRender {
	var terms []string
	snippet := ""
	if m.pv.hasHit {
		terms, snippet = hitTerms(m.pv.wantHit), m.pv.wantHit.Snippet
	}
	r := e.render
	if r != nil && r.width == w && r.terms == strings.Join(terms, "\x00") {
		return r
	}
	switch {
	case m.pv.want.section != "":
		e.render = renderText(e.preview.Text, w)
	case r == nil || r.base == nil || r.base.width != w:
		e.render = renderPreview(e.preview, w, snippet, terms)
	default: // new terms at the same width: the layout stays
		e.render = renderLaidOut(e.preview, r.base, snippet, terms)
	}
	return e.render
}

// previewTop is the first line of the conversation shown in h lines:
// where the user scrolled to, else the end, or a third above a hit's
// match.
func (m Model) previewTop(r *previewRender, h int) int {
	top := m.pv.top
	if m.pv.follow {
		top = len(r.lines) - h
		if r.match >= 0 {
			top = r.match - h/3
		}
	}
	return min(max(top, 0), max(len(r.lines)-h, 0))
}

// scrollPreview moves the preview by delta lines.
func (m *Model) scrollPreview(delta int) {
	g := m.layout()
	e := m.previewEntry()
	if g.previewW == 0 || e == nil || e.err != nil {
		return
	}
	r := m.previewRendered(e, g.previewW)
	h := max(g.lines-previewHead, 1)
	m.pv.top = min(max(m.previewTop(r, h)+delta, 0), max(len(r.lines)-h, 0))
	m.pv.follow = false
}

// previewView draws the preview in exactly h lines of w cells.
func (m Model) previewView(w, h int) []string {
	st := m.styles
	plain := st.over(st.Row)
	out := make([]string, 0, h)
	line := func(segs ...seg) {
		if len(out) < h {
			out = append(out, paint(fitSegs(segs, w), &plain, w))
		}
	}
	c := m.pv.wantC
	head := m.previewHeading(w)
	e := m.previewEntry()
	switch {
	case m.pv.want.id == "":
		line(seg{"nothing highlighted", partStatus})
	case e == nil:
		line(head...)
		line(seg{"reading " + m.previewName() + "…", partStatus})
	case e.err != nil:
		line(head...)
		for _, l := range textutil.Wrap(m.previewErrText(e.err), w) {
			line(seg{l, partError})
		}
	default:
		line(head...)
		meta := textutil.ShortID(c.SessionID) + " " + summaryLine(e.preview.Record)
		if m.pv.want.section != "" {
			meta = itemText(m.pv.wantItem.Detail)
		}
		if e.gen != m.pv.gen && m.pv.busy {
			meta += " · reading…"
		}
		line(seg{meta, partMeta})
		r := m.previewRendered(e, w)
		bodyH := max(h-len(out), 0)
		top := m.previewTop(r, bodyH)
		for _, l := range r.lines[top:min(top+bodyH, len(r.lines))] {
			line(l...)
		}
	}
	for len(out) < h {
		out = append(out, spaces(w))
	}
	return out
}

// previewHeading is the preview's first line: the session's label as a
// mention of it would say it, and, where the preview is in place of the
// rows, the key that brings them back.
func (m Model) previewHeading(w int) []seg {
	label := "@" + textutil.Inline(pickLabel(m.pv.wantC))
	if m.pv.want.section != "" {
		label = itemText(m.pv.wantItem.Label)
	}
	k := m.keys.Preview.Help().Key
	if m.previewWide() || k == "" {
		return []seg{{label, partLabel}}
	}
	hint := "  " + k + " rows"
	hw := textutil.Width(hint)
	if hw+8 > w {
		return []seg{{label, partLabel}}
	}
	label = textutil.Truncate(label, w-hw, "…")
	return []seg{{label, partLabel}, {spaces(w - hw - textutil.Width(label)), partPlain}, {hint, partMeta}}
}

// previewName names what the preview reads, while it reads it.
func (m Model) previewName() string {
	if m.pv.want.section != "" {
		return itemText(m.pv.wantItem.Label)
	}
	return textutil.ShortID(m.pv.wantC.SessionID)
}

// renderText breaks a host item's preview into lines w cells wide,
// sanitised as a conversation's text is.
func renderText(text string, w int) *previewRender {
	r := &previewRender{width: w, match: 0} // shown from its start

	if strings.TrimSpace(text) == "" {
		r.lines = append(r.lines, []seg{{"(nothing to preview)", partStale}})
		return r
	}
	for _, para := range strings.Split(textutil.Block(text), "\n") {
		for _, l := range textutil.Wrap(para, max(w, 1)) {
			r.lines = append(r.lines, []seg{{l, partPlain}})
		}
	}
	return r
}
