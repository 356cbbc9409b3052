package textutil

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/internal/plain"
)

// Inline makes untrusted text (a title, a label, a working directory, a
// query, an error message) safe to print inside one terminal line. It is
// the one display rule of the module, [plain.Line] (which the core's
// sessionref.SafeLine is too), followed by the widths of a terminal, so
// that every grapheme cluster left takes the cells [Width] says it does:
//
//   - a grapheme cluster keeps its first [MaxClusterRunes] code points; a
//     joiner or tags that the cut, or the terminal's segmentation, leaves
//     outside their emoji are escaped;
//   - a cluster that [Width] measures as 0 cells (a lone Hangul vowel, a
//     mark with nothing to sit on …) is shown as escapes, so every
//     cluster left takes a cell;
//   - the emoji presentation selector U+FE0F is kept only in a cluster
//     whose first character is wide already (🎉️), right after it: after
//     a narrow one (a️, ❤️, the keycap 1️⃣) it is dropped, since terminals
//     disagree on whether it widens the character to two cells (x/ansi
//     and kitty do, tmux does not), and a width the terminal does not
//     share moves every border after it; the text presentation selector
//     U+FE0E is dropped for the same reason, and another selector right
//     after a selector is escaped.
//
// So Inline(s) is Inline(plain.Line(s)), and plain.Line(Inline(s)) is
// Inline(s): the two entry points never disagree on what is hidden. Inline
// is idempotent, returns s itself when nothing needed changing, and reads
// s once.
func Inline(s string) string {
	if isPlainASCII(s) {
		return s
	}
	var b strings.Builder
	sanitizeLine(&b, s)
	if b.Len() == len(s) && b.String() == s {
		return s
	}
	return b.String()
}

// MaxClusterRunes is the most code points a grapheme cluster keeps: the
// rest of a longer one (a base with thousands of combining marks) is
// dropped, so one cluster costs a bounded number of bytes to draw and to
// put in a label.
const MaxClusterRunes = plain.MaxClusterRunes

// Block makes untrusted multi-line text safe to print: like Inline, but
// line breaks are kept (CR LF and a lone CR become LF) and a tab becomes
// four spaces. U+2028 and U+2029 are escaped, not taken as line breaks:
// terminals do not break lines on them.
func Block(s string) string {
	if isPlainASCII(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for len(s) > 0 {
		end := strings.IndexAny(s, "\r\n")
		line := s
		if end >= 0 {
			line = s[:end]
		}
		sanitizeLine(&b, strings.ReplaceAll(line, "\t", "    "))
		if end < 0 {
			break
		}
		b.WriteByte('\n')
		if s[end] == '\r' && end+1 < len(s) && s[end+1] == '\n' {
			end++
		}
		s = s[end+1:]
	}
	return b.String()
}

// isPlainASCII reports whether s is printable ASCII only (space included),
// which needs no work.
func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7F {
			return false
		}
	}
	return true
}

// sanitizeLine writes Inline(s) to b: plain.Line, then one grapheme
// cluster at a time with the segmentation and widths x/ansi (and so
// [Width] and lipgloss) use.
func sanitizeLine(b *strings.Builder, s string) {
	s = plain.Line(s)
	b.Grow(len(s) + 8)
	clusters(s, func(at, n, w int) bool {
		c := s[at : at+n]
		// A joiner or tags cut from their emoji, by the cap or by a
		// segmentation that does not join what the table does, are
		// escaped: the rule again, on the cluster alone.
		if capped := capCluster(c); len(capped) < len(c) || strings.ContainsRune(c, '\u200D') || strings.Contains(c, "\xF3\xA0") {
			c = plain.Line(capped)
		}
		if w == 0 {
			for _, r := range c {
				plain.WriteEscape(b, r)
			}
			return true
		}
		writeCluster(b, c)
		return true
	})
}

// capCluster returns c cut after its first MaxClusterRunes code points.
func capCluster(c string) string {
	if len(c) <= MaxClusterRunes {
		return c
	}
	n := 0
	for i := range c {
		if n == MaxClusterRunes {
			return c[:i]
		}
		n++
	}
	return c
}

// writeCluster writes one grapheme cluster of plain.Line's output that
// takes at least one cell, with the presentation selectors a terminal
// would draw at another width dropped.
func writeCluster(b *strings.Builder, c string) {
	if len(c) == 1 || !strings.ContainsRune(c, vs15) && !strings.ContainsRune(c, vs16) && !hasSelectorRun(c) {
		b.WriteString(c)
		return
	}
	first, _ := utf8.DecodeRuneInString(c)
	wide := ansi.StringWidth(string(first)) == 2
	prev := rune(-1)
	for _, r := range c {
		selAfterSel := unicode.Is(unicode.Variation_Selector, prev)
		switch {
		case r == vs15:
		case r == vs16:
			// Emoji presentation widens a narrow character to two cells
			// for x/ansi and some terminals, not for others (tmux draws
			// a️, ❤️ and 1️⃣ in one cell): it is dropped after a narrow
			// first character, so every terminal agrees with [Width]. A
			// wide one (🎉) stays wide either way.
			if wide && !selAfterSel && prev >= 0 {
				b.WriteRune(r)
			}
		case unicode.Is(unicode.Variation_Selector, r) && selAfterSel:
			plain.WriteEscape(b, r)
		default:
			b.WriteRune(r)
		}
		prev = r
	}
}

// hasSelectorRun reports whether c holds two variation selectors in a
// row.
func hasSelectorRun(c string) bool {
	prevSel := false
	for _, r := range c {
		sel := unicode.Is(unicode.Variation_Selector, r)
		if sel && prevSel {
			return true
		}
		prevSel = sel
	}
	return false
}

const (
	vs15 = '\uFE0E'
	vs16 = '\uFE0F'
)
