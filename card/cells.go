package card

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/internal/textutil"
)

// The card measures every line with textutil.Width. x/ansi's Truncate
// and Hardwrap count some graphemes narrower than its StringWidth does (a
// keycap such as "1️⃣" is 1 cell to them and 2 to StringWidth), so a line
// they cut can still be wider than asked. The two helpers below correct
// for that by measuring what they produce with textutil.Width.

// fit cuts s to at most w cells as textutil.Width measures them, ending
// in "…" when cut, and pads it to w cells. It is textutil.Fit, retried
// narrower by the excess for as long as a grapheme was undercounted.
func fit(s string, w int) string {
	out := textutil.Fit(s, w)
	for limit := w; limit > 0; {
		excess := textutil.Width(out) - w
		if excess <= 0 {
			break
		}
		limit -= excess
		out = textutil.Fit(s, max(limit, 0))
		if pad := w - textutil.Width(out); pad > 0 {
			out += strings.Repeat(" ", pad)
		}
	}
	return out
}

// wrap splits a styled line into lines of at most w cells, breaking
// between grapheme clusters as textutil.Width sees them (escape sequences
// take no room). A grapheme wider than w gets a line of its own.
func wrap(s string, w int) []string {
	if textutil.Width(s) <= w {
		return []string{s}
	}
	var lines []string
	var cur strings.Builder
	used := 0
	for len(s) > 0 {
		var piece string
		if s[0] == ansi.ESC {
			piece, _, _, _ = ansi.DecodeSequence(s, 0, nil)
		} else {
			piece, _ = ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
		}
		if piece == "" {
			piece = s[:1]
		}
		s = s[len(piece):]
		cw := textutil.Width(piece)
		if cw > 0 && used+cw > w && used > 0 {
			lines = append(lines, cur.String())
			cur.Reset()
			used = 0
		}
		cur.WriteString(piece)
		used += cw
	}
	return append(lines, cur.String())
}
