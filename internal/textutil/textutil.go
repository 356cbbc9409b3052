// Package textutil holds the small text helpers the UI packages share:
// making untrusted text safe to print on one line, and cell-aware cuts.
package textutil

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Inline makes untrusted text (a title, a label, a working directory)
// safe to print inside one terminal line: line breaks and tabs become
// spaces, and every other control character, ESC included, is shown as a
// visible \xNN escape so no text can move the cursor, change colours or
// hide itself. Invalid UTF-8 shows as U+FFFD.
func Inline(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i, r := range s {
		switch {
		case r == utf8.RuneError:
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				b.WriteRune('\uFFFD')
				continue
			}
			b.WriteRune(r)
		case r == '\n' || r == '\r' || r == '\t' || r == '\u2028' || r == '\u2029':
			b.WriteByte(' ')
		case unicode.IsControl(r):
			if r < 0x100 {
				fmt.Fprintf(&b, `\x%02X`, r)
			} else {
				fmt.Fprintf(&b, `\u%04X`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Block makes untrusted multi-line text safe to print: like Inline, but
// line breaks are kept (CR LF and lone CR become LF) and tabs become
// spaces.
func Block(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	lines := strings.Split(strings.ReplaceAll(s, "\r", "\n"), "\n")
	for i, l := range lines {
		lines[i] = Inline(strings.ReplaceAll(l, "\t", "    "))
	}
	return strings.Join(lines, "\n")
}

// Fit cuts s to at most w cells, ending in "…" when cut, and pads it with
// spaces to exactly w cells. It is grapheme aware and keeps ANSI styling.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) > w {
		s = ansi.Truncate(s, w, "…")
	}
	if pad := w - ansi.StringWidth(s); pad > 0 {
		s += strings.Repeat(" ", pad)
	}
	return s
}

// Middle cuts plain text s to at most w cells by replacing its middle
// with "…", which keeps both ends of a path readable.
func Middle(s string, w int) string {
	sw := ansi.StringWidth(s)
	if sw <= w {
		return s
	}
	if w <= 1 {
		return ansi.Truncate(s, w, "")
	}
	head := (w - 1) / 2
	tail := w - 1 - head
	return ansi.Truncate(s, head, "") + "…" + ansi.TruncateLeft(s, sw-tail, "")
}

// Width is the cell width of s.
func Width(s string) int { return ansi.StringWidth(s) }
