package plain

// extpict.go holds the Extended_Pictographic table; it is generated from
// the grapheme properties of the uniseg version go.mod requires.
//go:generate go run gen_extpict.go

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxClusterRunes is the most code points a character keeps with its
// combining marks: a base and at most MaxClusterRunes-1 marks (variation
// selectors among them), or MaxClusterRunes marks with no base. The rest
// of a longer run (a base under thousands of marks) is dropped, so what
// one cell costs to draw and to put in a label is bounded. Real clusters
// are far shorter: the longest emoji sequences have about ten code
// points; terminals keep fewer marks a cell.
const MaxClusterRunes = 32

// Line makes untrusted text (a title, a label, a working directory, an
// error, a message) safe to show inside one line of a terminal or any
// other display. It is the module's one display rule: the core's
// sessionref.SafeLine is Line, and the components' textutil.Inline is
// Line followed by a terminal's width rules (see there). The rule, in
// order:
//
//   - invalid UTF-8 shows as U+FFFD, one per bad byte;
//   - line feed, carriage return and tab become one space each;
//   - everything else that a terminal would act on or draw invisibly is
//     shown as a visible escape (see [Hidden]): C0 and C1 controls and
//     DEL (ESC, CSI U+009B, OSC U+009D, ST U+009C, NEL U+0085 …), every
//     format character (Unicode category Cf: bidi embeddings, overrides
//     and isolates U+202A–U+202E and U+2066–U+2069, marks U+200E/U+200F/
//     U+061C, zero-width space, joiners U+200C/U+200D, word joiner,
//     U+FEFF, soft hyphen, tag characters …), the other
//     default-ignorable code points (U+034F, Hangul fillers, U+FFF0–
//     U+FFF8 …), noncharacters, the line and paragraph separators U+2028/
//     U+2029, and a combining mark with nothing to sit on (at the start,
//     or after a character shown as an escape or a space);
//   - the escape is \xNN below U+0100, \uNNNN in the BMP and \UNNNNNNNN
//     above, upper-case hex: "\u202E" is what an RTL override shows as;
//   - a run of combining marks keeps its first ones (see
//     [MaxClusterRunes]).
//
// Three things that only exist to make emoji render are kept, and only
// where they do that: a zero-width joiner between two pictographs (an
// emoji ZWJ sequence such as 👩‍💻; marks, modifiers and variation
// selectors may sit between), a variation selector after a character
// shown as it is (or after another such selector), and the tag characters
// of an emoji tag sequence (the flag of England: U+1F3F4, tags, cancel
// tag). A lone or unpaired joiner, selector or tag is escaped like any
// other invisible character. Joiners in other scripts (Persian ZWNJ,
// Indic half forms) are escaped too: an invisible joiner is one way to
// make two titles look alike.
//
// A backslash in the input is not escaped: an escape can be typed, but it
// is always visible, so nothing is hidden by it. Line is idempotent,
// returns s itself when nothing needed changing, and reads s once.
func Line(s string) string {
	if printableASCII(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	WriteLine(&b, s)
	if b.Len() == len(s) && b.String() == s {
		return s
	}
	return b.String()
}

// printableASCII reports whether s is printable ASCII only (space
// included), which needs no work.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7F {
			return false
		}
	}
	return true
}

const (
	zwj       = '\u200D'
	blackFlag = '\U0001F3F4'
	cancelTag = '\U000E007F'
)

// What the rune before was, for the runes whose fate depends on it.
const (
	prevNone     = iota // the start, or a rune shown as an escape or a space
	prevShown           // a character shown as it is (a base or a mark)
	prevSelector        // a variation selector kept
	prevJoin            // a joiner or a tag kept
)

// lineState is what [WriteLine] remembers between runes.
type lineState struct {
	prev      int
	afterPict bool // since the last pictograph: only marks, selectors, modifiers
	marks     int  // combining marks (and selectors) in the current run
	base      bool // the run of marks sits on a character shown as it is
	tagsEnd   int  // byte offset up to which tags are an emoji tag sequence's
}

// WriteLine writes [Line] of s to b.
func WriteLine(b *strings.Builder, s string) {
	var st lineState
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		at := i
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
			st.shown(r)
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
			st.escaped()
		case r == zwj:
			next, _ := utf8.DecodeRuneInString(s[i:])
			st.join(b, r, st.afterPict && unicode.Is(ExtendedPictographic, next))
		case r >= 0xE0020 && r <= cancelTag:
			st.join(b, r, at < st.tagsEnd)
		case unicode.Is(unicode.Variation_Selector, r):
			st.selector(b, r)
		case Hidden(r):
			WriteEscape(b, r)
			st.escaped()
		case unicode.In(r, unicode.Mn, unicode.Me):
			st.mark(b, r)
		default:
			b.WriteRune(r)
			st.shown(r)
			if r == blackFlag {
				st.tagsEnd = i + tagSequence(s[i:])
			}
		}
	}
}

// shown records a character written as it is.
func (st *lineState) shown(r rune) {
	st.prev, st.marks, st.base = prevShown, 0, true
	switch {
	case unicode.Is(ExtendedPictographic, r):
		st.afterPict = true
	case r < 0x1F3FB || r > 0x1F3FF: // not a skin-tone modifier
		st.afterPict = false
	}
}

// escaped records a rune written as an escape or a space.
func (st *lineState) escaped() {
	st.prev, st.marks, st.base, st.afterPict = prevNone, 0, false, false
}

// join writes a joiner or a tag as it is when keep, else as an escape.
func (st *lineState) join(b *strings.Builder, r rune, keep bool) {
	if !keep {
		WriteEscape(b, r)
		st.escaped()
		return
	}
	b.WriteRune(r)
	st.prev, st.marks, st.afterPict = prevJoin, 0, false
}

// full reports whether the current run of marks has all the runes it may
// keep: what comes next of it is dropped.
func (st *lineState) full() bool {
	limit := MaxClusterRunes
	if st.base {
		limit--
	}
	return st.marks >= limit
}

// selector writes a variation selector: as it is after a character shown
// as it is (or after another selector kept), else as an escape.
func (st *lineState) selector(b *strings.Builder, r rune) {
	switch {
	case st.prev != prevShown && st.prev != prevSelector:
		WriteEscape(b, r)
		st.escaped()
	case st.full():
	default:
		b.WriteRune(r)
		st.prev = prevSelector
		st.marks++
	}
}

// mark writes a combining mark: as it is on a character, as an escape
// with nothing under it.
func (st *lineState) mark(b *strings.Builder, r rune) {
	switch {
	case st.full():
		return
	case st.prev == prevNone:
		WriteEscape(b, r)
	default:
		b.WriteRune(r)
		st.prev = prevShown
	}
	st.marks++
}

// tagSequence is the length in bytes of the tags at the start of s when
// they complete an emoji tag sequence (one or more tag characters, then
// the cancel tag), else 0.
func tagSequence(s string) int {
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == cancelTag && n > 0:
			return i
		case r >= 0xE0020 && r < cancelTag:
			n++
		default:
			return 0
		}
	}
	return 0
}
