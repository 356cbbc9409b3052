package picker

import (
	"strings"
	"unicode"

	"github.com/dshkit/mentions/internal/textutil"
)

// maxItemBytes is how much of a host item's label or detail is looked
// at: far more than the widest row shows, and a bound on the work a huge
// string costs each View.
const maxItemBytes = 1024

// maxMarks is the most combining marks kept on one character of a host
// item's text; more (a "combining-mark bomb") would pile up over the
// rows around it in a terminal.
const maxMarks = 4

// itemText makes a host item's label or detail safe and cheap to draw:
// at most maxItemBytes of it, at most maxMarks combining marks a
// character, through the module's sanitiser.
func itemText(s string) string {
	if len(s) > maxItemBytes {
		s = textutil.CutUTF8(s, maxItemBytes) + "…"
	}
	var b strings.Builder // only once a mark is dropped
	marks := 0
	for i, r := range s {
		if !unicode.In(r, unicode.Mn, unicode.Me) {
			marks = 0
		} else if marks++; marks > maxMarks {
			if b.Len() == 0 {
				b.WriteString(s[:i])
			}
			continue
		}
		if b.Len() > 0 {
			b.WriteRune(r)
		}
	}
	if b.Len() > 0 {
		s = b.String()
	}
	return textutil.Inline(s)
}

// itemDetailMin is the least a host item's label keeps beside its
// detail; a narrower row drops the detail.
const itemDetailMin = 8

// renderItem draws a host's item, exactly innerW cells wide: the marker,
// its label (the query's match underlined) and its detail at the right,
// dimmed, in the styles of plain (a row) or hi (the highlighted row).
func (m Model) renderItem(it Item, highlighted, stale bool, innerW int, plain, hi *rowStyles) string {
	rs := plain
	if highlighted {
		rs = hi
	}
	segs := make([]seg, 0, 8)
	if highlighted {
		segs = append(segs, seg{"›", partMarker}, seg{text: " "})
	} else {
		segs = append(segs, seg{text: "  "})
	}
	label, detail := itemText(it.Label), itemText(it.Detail)
	rest := innerW - markerW
	detailW := 0
	if detail != "" {
		detailW = min(textutil.Width(detail), max((rest-gapW)*2/5, 0))
		if rest-gapW-detailW < itemDetailMin {
			detailW = 0
		}
	}
	labelW := rest
	if detailW > 0 {
		labelW -= gapW + detailW
	}
	meta := partMeta
	if stale {
		segs = append(segs, fitSegs([]seg{{label, partStale}}, labelW)...)
		meta = partStale
	} else {
		segs = append(segs, fitSegs(highlightMatch(label, m.query), labelW)...)
	}
	if detailW > 0 {
		segs = append(segs, seg{text: "  "})
		segs = append(segs, fitSegs([]seg{{textutil.Middle(detail, detailW), meta}}, detailW)...)
	}
	return paint(fitSegs(segs, innerW), rs, innerW)
}

// sectionHeading draws the heading of a section: its title and, when it
// has one, its state (searching, or why it failed).
func (m Model) sectionHeading(b block, w int) string {
	s := &m.secs[b.sec]
	if s.kind == kindHits {
		return m.heading(s, w)
	}
	text := itemText(s.title())
	switch {
	case s.answer.Err != nil:
		text += " · couldn't list: " + itemText(s.answer.Err.Error())
	case s.pending && s.slow:
		text += " · searching…"
	}
	return m.textLine(text, m.styles.Section, w)
}

// nothingMatches is the status of a popup with host sections when no
// section has a row: what was looked for, and which sections failed.
func (m Model) nothingMatches() string {
	text := "nothing matches “" + textutil.Inline(m.query) + "”"
	if strings.TrimSpace(m.query) == "" {
		text = "nothing to show yet · type to search"
	}
	for i := range m.secs {
		s := &m.secs[i]
		switch {
		case s.answer.Err == nil || s.kind == kindSessions:
		case s.kind == kindHits:
			text += "; couldn't search messages: " + textutil.Inline(s.answer.Err.Error())
		default:
			text += "; couldn't list " + itemText(s.title()) + ": " + itemText(s.answer.Err.Error())
		}
	}
	return text
}
