package textutil

// extpict.go holds the Extended_Pictographic table; it is generated from
// the grapheme properties of the uniseg version go.mod requires.
//go:generate go run gen_extpict.go

import (
	"github.com/dshkit/mentions/internal/plain"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Inline makes untrusted text (a title, a label, a working directory, a
// query, an error message) safe to print inside one terminal line. It is
// the one sanitiser every view uses; the rules, in order:
//
//   - invalid UTF-8 shows as U+FFFD, one per bad byte;
//   - line feed, carriage return and tab become one space each;
//   - everything else that a terminal would act on or draw invisibly is
//     shown as a visible escape: C0 and C1 controls and DEL (ESC, CSI
//     U+009B, OSC U+009D, ST U+009C, NEL U+0085 …), every format character
//     (Unicode category Cf: bidi embeddings, overrides and isolates
//     U+202A–U+202E and U+2066–U+2069, marks U+200E/U+200F/U+061C,
//     zero-width space, joiners U+200C/U+200D, word joiner, U+FEFF, soft
//     hyphen, tag characters …), the other default-ignorable code points
//     (U+034F, Hangul fillers, U+FFF0–U+FFF8 …), noncharacters, the line
//     and paragraph separators U+2028/U+2029, and any grapheme cluster
//     that [Width] measures as 0 cells (a combining mark with nothing to
//     sit on, a lone Hangul vowel …), so every cluster left takes a cell;
//   - the escape is \xNN below U+0100, \uNNNN in the BMP and \UNNNNNNNN
//     above, upper-case hex: "\u202E" is what an RTL override shows as.
//
// Three things that only exist to make emoji render are kept, and only
// where they do that: a zero-width joiner between two pictographs (an
// emoji ZWJ sequence such as 👩‍💻, modifiers and variation selectors may
// sit between), a variation selector right after a character it can
// select, and the tag characters of an emoji tag sequence (the flag of
// England: U+1F3F4, tags, cancel tag). A lone or unpaired joiner,
// selector or tag is escaped like any other invisible character. The
// emoji presentation selector U+FE0F is kept only in a cluster whose
// first character is wide already (🎉️): after a narrow one (a️, ❤️, the
// keycap 1️⃣) it is dropped, since terminals disagree on whether it
// widens the character to two cells (x/ansi and kitty do, tmux does not),
// and a width the terminal does not share moves every border after it;
// the text presentation selector U+FE0E is dropped for the same reason.
// A grapheme cluster keeps its first [MaxClusterRunes] code points (a
// base with thousands of combining marks is one cluster): what a cell
// costs to draw and to put in a label is bounded. Joiners in other scripts (Persian ZWNJ, Indic half forms)
// are escaped too: terminals do not shape those scripts, and an invisible
// joiner is one way to make two titles look alike.
//
// A backslash in the input is not escaped: an escape can be typed, but it
// is always visible, so nothing is hidden by it. Inline is idempotent,
// and returns s itself when nothing needed changing.
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

// Block makes untrusted multi-line text safe to print: like Inline, but
// line breaks are kept (CR LF and a lone CR become LF) and a tab becomes
// four spaces. U+2028 and U+2029 are escaped, not taken as line breaks:
// terminals do not break lines on them.
func Block(s string) string {
	if isPlainASCII(s) {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	b.Grow(len(s))
	for i, line := range strings.Split(strings.ReplaceAll(s, "\r", "\n"), "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		sanitizeLine(&b, strings.ReplaceAll(line, "\t", "    "))
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

// sanitizeLine writes the sanitised form of s to b, one grapheme cluster
// at a time, with the segmentation and widths x/ansi (and so [Width] and
// lipgloss) use.
func sanitizeLine(b *strings.Builder, s string) {
	b.Grow(len(s) + 8)
	s = validUTF8(s)
	for s != "" {
		cluster, w := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
		if cluster == "" { // cannot happen with valid UTF-8; never loop
			cluster, w = s[:1], 1
		}
		s = s[len(cluster):]
		cluster = capCluster(cluster)
		if w == 0 {
			for _, r := range cluster {
				if r == '\n' || r == '\r' || r == '\t' {
					b.WriteByte(' ')
				} else {
					plain.WriteEscape(b, r)
				}
			}
			continue
		}
		writeCluster(b, cluster)
	}
}

// MaxClusterRunes is the most code points a grapheme cluster keeps: the
// rest of a longer one (a base with thousands of combining marks) is
// dropped, so one cluster costs a bounded number of bytes to draw and to
// put in a label. Real clusters are far shorter: the longest emoji
// sequences have about ten code points; terminals keep fewer marks a cell.
const MaxClusterRunes = 32

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

// writeCluster writes one grapheme cluster that takes at least one cell,
// escaping each rune in it that is not allowed where it stands.
func writeCluster(b *strings.Builder, c string) {
	if len(c) == 1 && c[0] >= 0x20 && c[0] < 0x7F {
		b.WriteByte(c[0])
		return
	}
	// The runes of the cluster and whether each was written as it is.
	var runesBuf [16]rune
	rs := []rune(nil)
	if utf8.RuneCountInString(c) <= len(runesBuf) {
		rs = runesBuf[:0]
	}
	for _, r := range c {
		rs = append(rs, r)
	}
	tagsEnd := emojiTagSequenceEnd(rs)
	prevKept := false // the previous rune was written verbatim
	// afterPict: what was written since the last pictograph is verbatim
	// marks, selectors and modifiers only, so a joiner may follow.
	afterPict := false
	for i, r := range rs {
		keep := false
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
			prevKept, afterPict = false, false
			continue
		case r == zwj:
			keep = afterPict && i+1 < len(rs) && unicode.Is(extendedPictographic, rs[i+1])
		case r == vs16 || r == vs15:
			// Emoji presentation widens a narrow character to two cells
			// for x/ansi and some terminals, not for others (tmux draws
			// a️, ❤️ and 1️⃣ in one cell): it is dropped after a narrow
			// first character, so every terminal agrees with [Width]. A
			// wide one (🎉) stays wide either way; U+FE0E, which would
			// narrow it for some, is dropped.
			if r == vs16 && prevKept && !plain.Hidden(rs[i-1]) && ansi.StringWidth(string(rs[0])) == 2 {
				b.WriteRune(r)
			}
			continue
		case unicode.Is(unicode.Variation_Selector, r):
			keep = prevKept && !plain.Hidden(rs[i-1])
		case isTag(r):
			keep = i > 0 && i < tagsEnd
		default:
			keep = !plain.Hidden(r)
		}
		if keep {
			b.WriteRune(r)
		} else {
			plain.WriteEscape(b, r)
		}
		prevKept = keep
		switch {
		case !keep || r == zwj:
			afterPict = false
		case unicode.Is(extendedPictographic, r):
			afterPict = true
		case !isEmojiExtend(r):
			afterPict = false
		}
	}
}

const (
	vs15      = '\uFE0E'
	vs16      = '\uFE0F'
	zwj       = '\u200D'
	blackFlag = '\U0001F3F4'
	cancelTag = '\U000E007F'
)

// isEmojiExtend reports whether r may sit between a pictograph and the
// joiner that follows it: a mark, a variation selector or a skin-tone
// modifier.
func isEmojiExtend(r rune) bool {
	return r >= 0x1F3FB && r <= 0x1F3FF || unicode.In(r, unicode.Mn, unicode.Me)
}

// isTag reports whether r is a tag character (U+E0020–U+E007F).
func isTag(r rune) bool { return r >= 0xE0020 && r <= cancelTag }

// emojiTagSequenceEnd returns the index after the cancel tag when the
// cluster starts with an emoji tag sequence (a black flag, one or more
// tag characters, a cancel tag), else 0.
func emojiTagSequenceEnd(rs []rune) int {
	if len(rs) < 3 || rs[0] != blackFlag {
		return 0
	}
	for i := 1; i < len(rs); i++ {
		switch r := rs[i]; {
		case r == cancelTag:
			if i == 1 {
				return 0
			}
			return i + 1
		case r >= 0xE0020 && r < cancelTag:
		default:
			return 0
		}
	}
	return 0
}

// validUTF8 returns s with each byte that is not part of a valid UTF-8
// sequence replaced by U+FFFD.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
