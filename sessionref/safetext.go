package sessionref

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dshkit/mentions/internal/plain"
)

// safeLine makes untrusted text (a label, an id, a store's error text)
// safe to show inside one line of a terminal or any other display,
// without the width tables a terminal UI needs:
//
//   - invalid UTF-8 shows as U+FFFD, one per bad byte;
//   - line feed, carriage return and tab become one space each;
//   - every other rune that a terminal acts on or draws invisibly (C0 and
//     C1 controls, DEL, format characters such as bidi overrides and
//     zero-width spaces, other default-ignorable code points, the line
//     and paragraph separators, noncharacters) is shown as a visible
//     escape: \xNN below U+0100, \uNNNN in the BMP, \UNNNNNNNN above,
//     upper-case hex;
//   - a zero-width joiner between two symbols (an emoji ZWJ sequence), a
//     variation selector after a symbol or a keycap base, and the tag
//     characters after a black flag are kept, so emoji stay whole.
//
// The escapes are the ones the components' own sanitiser prints. A
// terminal UI applies its own width rules on top (this module's
// components do: a variation selector after a narrow character, a very
// long run of combining marks).
func safeLine(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7F {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	var prev rune = -1 // the previous rune written verbatim, -1 when escaped
	inFlag := false    // inside a black flag's tag sequence
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
			prev, inFlag = utf8.RuneError, false
			continue
		}
		var keep bool
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
			prev, inFlag = ' ', false
			continue
		case r == '\u200D': // zero-width joiner
			next, _ := utf8.DecodeRuneInString(s[i:])
			keep = prev >= 0 && isSymbol(prev) && isSymbol(next)
		case unicode.Is(unicode.Variation_Selector, r):
			keep = prev >= 0 && (isSymbol(prev) || isKeycapBase(prev))
		case r >= 0xE0020 && r <= 0xE007F: // tag characters
			keep = inFlag
			if r == 0xE007F {
				inFlag = false
			}
			if keep {
				b.WriteRune(r)
				continue // prev stays the flag
			}
		default:
			keep = !plain.Hidden(r)
		}
		if keep {
			b.WriteRune(r)
			if r != '\u200D' && !unicode.Is(unicode.Variation_Selector, r) {
				prev = r
			}
			inFlag = r == '\U0001F3F4'
			continue
		}
		plain.WriteEscape(&b, r)
		prev, inFlag = -1, false
	}
	return b.String()
}

// isSymbol reports whether r is an emoji-like symbol that a joiner or a
// variation selector may follow.
func isSymbol(r rune) bool {
	return unicode.In(r, unicode.So, unicode.Sk) || r >= 0x1F000 && r <= 0x1FAFF
}

func isKeycapBase(r rune) bool { return r >= '0' && r <= '9' || r == '#' || r == '*' }

// shortIDRunes is the most runes shortID keeps of an id that is not a
// UUID.
const shortIDRunes = 12

// shortID returns the form of a session id that people read beside a
// label: the first 8 characters of a UUID, an id of at most shortIDRunes
// runes as it is, else its start and end around "…"; made safe to print.
func shortID(id string) string {
	id = safeLine(id)
	if plain.IsUUID(id) {
		return id[:8]
	}
	rs := []rune(id)
	if len(rs) <= shortIDRunes {
		return id
	}
	head := (shortIDRunes - 1) / 2
	tail := shortIDRunes - 1 - head
	return string(rs[:head]) + "…" + string(rs[len(rs)-tail:])
}

// maxLabelRunes is the most runes of a label an error message repeats.
const maxLabelRunes = 60

// clipRunes cuts s to at most n runes, ending in "…" when cut.
func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	rs := []rune(s)
	return string(rs[:n-1]) + "…"
}

// SafeLine makes untrusted text — a stored message, a title, a store's
// error — safe to print on one line of a terminal: no byte of it can act
// on the terminal (controls, escapes and bidi overrides are shown as
// visible escapes; line breaks and tabs become spaces). It is what
// [Describe] and [Error.Error] use for the untrusted parts they repeat. A
// host draws message text through it, or through its own sanitiser.
func SafeLine(s string) string { return safeLine(s) }
