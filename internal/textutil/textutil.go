// Package textutil holds the small text helpers the UI packages share:
// making untrusted text safe to print on one line, and cell-aware cuts.
package textutil

import (
	"unicode/utf8"

	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Fit cuts s to at most w cells, ending in "…" when cut, and pads it with
// spaces to exactly w cells. It is grapheme aware and keeps ANSI styling.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	s = Truncate(s, w, "…")
	if pad := w - Width(s); pad > 0 {
		s += strings.Repeat(" ", pad)
	}
	return s
}

// Truncate cuts s to at most w cells as [Width] measures them, ending in
// tail when cut; it keeps ANSI styling. x/ansi's Truncate measures a
// cluster that starts with an ASCII character (a keycap such as 1️⃣) as
// narrower than StringWidth does, so its answer is checked with Width;
// only when it is too wide is the cut found by a binary search on its
// limit, O(len(s)·log w).
//
// The upstream behaviour, for a report to charmbracelet/x (ansi): with
// x/ansi v0.11.7 through v0.11.10, ansi.Truncate("1\uFE0F\u20E31\uFE0F\u20E3x",
// 3, "") returns the whole string, which ansi.StringWidth measures as 5
// cells. TestTruncateKeycaps holds this package's answer to it.
func Truncate(s string, w int, tail string) string {
	if Width(s) <= w {
		return s
	}
	if t := ansi.Truncate(s, w, tail); Width(t) <= w {
		return t
	}
	best := ""
	for lo, hi := 0, w-1; lo <= hi; {
		mid := (lo + hi) / 2
		if t := ansi.Truncate(s, mid, tail); Width(t) <= w {
			best, lo = t, mid+1
		} else {
			hi = mid - 1
		}
	}
	return best
}

// Middle cuts plain text s to at most w cells by replacing its middle
// with "…", which keeps both ends of a path readable.
func Middle(s string, w int) string {
	sw := Width(s)
	if sw <= w {
		return s
	}
	if w <= 1 {
		return Truncate(s, w, "")
	}
	head := Truncate(s, (w-1)/2, "")
	return head + "…" + LastCells(s, w-1-Width(head))
}

// LastCells is the longest end of plain text s that takes at most w
// cells, cut at a grapheme cluster boundary. It is not x/ansi's
// TruncateLeft, which disagrees in two ways (checked over CJK, flags,
// ZWJ sequences and keycaps): it keeps a wide cluster the cut falls
// inside, so its answer can be a cell wider than w, and it measures
// keycaps narrower than [Width] does, so its answer can be shorter.
func LastCells(s string, w int) string {
	var ends []int // byte offset where each cluster starts
	var widths []int
	for i := 0; i < len(s); {
		c, cw := ansi.FirstGraphemeCluster(s[i:], ansi.GraphemeWidth)
		if c == "" {
			c, cw = s[i:i+1], 0
		}
		ends, widths = append(ends, i), append(widths, cw)
		i += len(c)
	}
	start, used := len(s), 0
	for k := len(ends) - 1; k >= 0 && used+widths[k] <= w; k-- {
		used += widths[k]
		start = ends[k]
	}
	return s[start:]
}

// Width is the cell width of s: the one width function of the module. It
// is x/ansi's grapheme-cluster width, the one lipgloss measures with, so
// a layout computed with it matches what a lipgloss style renders (emoji
// ZWJ sequences, keycaps and flags are one 2-cell cluster, CJK is 2 cells
// a character, combining marks add nothing).
func Width(s string) int { return ansi.StringWidth(s) }

// Wrap breaks plain one-line text s into lines of at most w cells as
// [Width] measures them: at spaces, and inside a word only when the word
// alone is wider than a line (between grapheme clusters). Spaces at a
// break are dropped. It returns at least one line; w below 1 counts as 1.
func Wrap(s string, w int) []string {
	w = max(w, 1)
	if Width(s) <= w {
		return []string{s}
	}
	var lines []string
	line, lineW := "", 0
	flush := func() {
		lines = append(lines, strings.TrimRight(line, " "))
		line, lineW = "", 0
	}
	for _, word := range strings.Split(s, " ") {
		ww := Width(word)
		switch {
		case lineW > 0 && lineW+1+ww <= w:
			line, lineW = line+" "+word, lineW+1+ww
			continue
		case lineW > 0:
			flush()
		}
		for ww > w { // a word wider than a line: cut it between clusters
			head := Truncate(word, w, "")
			if head == "" { // one cluster wider than w: a line of its own
				c, _ := ansi.FirstGraphemeCluster(word, ansi.GraphemeWidth)
				head = word[:max(len(c), 1)]
			}
			lines = append(lines, head)
			word = word[len(head):]
			ww = Width(word)
		}
		line, lineW = word, ww
	}
	if line != "" || len(lines) == 0 {
		flush()
	}
	return lines
}

// HardWrap splits one line of styled text into lines of at most w cells
// as [Width] measures them, between grapheme clusters wherever the width
// runs out (not at spaces: for text already laid out, such as rendered
// Markdown); escape sequences take no room and stay where they were. A
// cluster wider than w gets a line of its own. w below 1 counts as 1.
func HardWrap(s string, w int) []string {
	w = max(w, 1)
	if Width(s) <= w {
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
		cw := Width(piece)
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

// CutUTF8 returns the longest prefix of s of at most n bytes that ends on
// a rune boundary.
func CutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
