// Package textutil holds the small text helpers the UI packages share:
// making untrusted text safe to print on one line, and cell-aware cuts.
package textutil

import (
	"strings"
	"unicode/utf8"

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
// tail when cut; it keeps ANSI styling: escape sequences after the cut
// are kept (a colour is still reset), the text between them is not. It
// measures each cluster once, with [Width]'s widths, so its cost is linear
// in s whatever w. (x/ansi's Truncate measures a cluster that starts with
// an ASCII character, such as the keycap 1️⃣, as narrower than StringWidth
// does: with x/ansi v0.11.7 through v0.11.10, ansi.Truncate("1\uFE0F\u20E31\uFE0F\u20E3x",
// 3, "") returns the whole string, which ansi.StringWidth measures as 5
// cells. TestTruncateKeycaps holds this package's answer.)
func Truncate(s string, w int, tail string) string {
	if Width(s) <= w {
		return s
	}
	limit := w - Width(tail)
	if limit < 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(min(len(s), 4*w+len(tail)+16))
	used, cut, pos := 0, false, 0
	pieces(s, func(p piece) bool {
		pos += len(p.text)
		switch {
		case p.esc:
			if !cut || p.text[0] == ansi.ESC {
				b.WriteString(p.text)
			}
		case cut:
		case used+p.width > limit:
			cut = true
			b.WriteString(tail)
			// Past the cut only escape sequences are kept: none, none
			// to look for.
			return strings.IndexByte(s[pos-len(p.text):], ansi.ESC) >= 0
		default:
			used += p.width
			b.WriteString(p.text)
		}
		return true
	})
	if !cut { // cannot happen: s is wider than w
		b.WriteString(tail)
	}
	return b.String()
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
// Clusters are found from the start (they cannot be from the end), each
// once; only the last w+1 cells' starts are kept.
func LastCells(s string, w int) string {
	if w < 0 {
		return ""
	}
	// The clusters of the longest end that fits so far, as a queue: each
	// new cluster joins it, and clusters leave it from the front while it
	// is wider than w (widths are not negative, so its start only moves
	// on).
	type cl struct{ at, w int }
	var q []cl
	head, used, at := 0, 0, 0
	pieces(s, func(p piece) bool {
		q = append(q, cl{at, p.width})
		at += len(p.text)
		for used += p.width; used > w; head++ {
			used -= q[head].w
		}
		if head > 1024 && head > len(q)/2 {
			q, head = append(q[:0], q[head:]...), 0
		}
		return true
	})
	if head == len(q) {
		return ""
	}
	return s[q[head].at:]
}

// Width is the cell width of s: the one width function of the module. It
// is x/ansi's grapheme-cluster width, the one lipgloss measures with, so
// a layout computed with it matches what a lipgloss style renders (emoji
// ZWJ sequences, keycaps and flags are one 2-cell cluster, CJK is 2 cells
// a character, combining marks add nothing).
func Width(s string) int {
	measured.Add(int64(len(s)))
	return ansi.StringWidth(s)
}

// Wrap breaks plain one-line text s into lines of at most w cells as
// [Width] measures them: at spaces, and inside a word only when the word
// alone is wider than a line (between grapheme clusters). Spaces at a
// break are dropped. It returns at least one line; w below 1 counts as 1.
// Each word is measured once and a long word cut in the same pass, so the
// cost is linear in s.
func Wrap(s string, w int) []string {
	w = max(w, 1)
	if Width(s) <= w {
		return []string{s}
	}
	var lines []string
	// The line being filled is s[ls:le], lw cells: words are separated by
	// one space in s, so a line is always a piece of s.
	ls, le, lw := 0, 0, 0
	flush := func() {
		lines = append(lines, strings.TrimRight(s[ls:le], " "))
		ls, lw = le, 0
	}
	for at := 0; at <= len(s); {
		end := strings.IndexByte(s[at:], ' ')
		if end < 0 {
			end = len(s)
		} else {
			end += at
		}
		word := s[at:end]
		ww := Width(word)
		switch {
		case le > ls && lw+1+ww <= w:
			le, lw = end, lw+1+ww
		case ww <= w:
			if le > ls {
				flush()
			}
			ls, le, lw = at, end, ww
		default:
			if le > ls {
				flush()
			}
			ls, le, lw = cutWord(s, at, end, w, &lines)
		}
		at = end + 1
	}
	if le > ls || len(lines) == 0 {
		flush()
	}
	return lines
}

// cutWord breaks the word s[at:end], wider than w cells, between
// clusters: each line as many clusters as fit in w cells (a cluster wider
// than w alone), appended to lines; it returns the rest, which fits, as
// the line being filled (start, end and width). One pass over the word.
func cutWord(s string, at, end, w int, lines *[]string) (int, int, int) {
	start, used := at, 0
	pos := at
	pieces(s[at:end], func(p piece) bool {
		if used+p.width > w && pos > start {
			*lines = append(*lines, s[start:pos])
			start, used = pos, 0
		}
		pos += len(p.text)
		used += p.width
		if used > w { // one cluster wider than a line: a line of its own
			*lines = append(*lines, s[start:pos])
			start, used = pos, 0
		}
		return true
	})
	return start, end, used
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
	start, pos, used := 0, 0, 0
	pieces(s, func(p piece) bool {
		if p.width > 0 && used+p.width > w && used > 0 {
			lines = append(lines, s[start:pos])
			start, used = pos, 0
		}
		pos += len(p.text)
		used += p.width
		return true
	})
	return append(lines, s[start:])
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
