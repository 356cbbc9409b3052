package discover

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/sessionref"
)

// body is the indexed text of a surface: the messages Prepare would show
// the model ([sessionref.Project]), oldest first, one after another on
// their own lines, each cut to its head of perMessage bytes, the whole
// to perSession bytes.
func body(events []sessionref.Event, perMessage, perSession int) string {
	b := bodyBuilder{perMessage: perMessage, perSession: perSession}
	for i := range events {
		if !b.add(&events[i]) {
			break
		}
	}
	return b.String()
}

// bodyBuilder builds a body one event at a time, projecting each as it
// comes: a long session costs what it puts in the index, not a
// projection of all of it.
type bodyBuilder struct {
	b                      strings.Builder
	perMessage, perSession int
	one                    [1]sessionref.Event
}

// add adds the event's projected text, if any; it reports whether the
// body has room for more.
func (bb *bodyBuilder) add(e *sessionref.Event) bool {
	bb.one[0] = *e
	for _, t := range sessionref.Project(bb.one[:]) {
		room := bb.perSession - bb.b.Len()
		if bb.b.Len() > 0 {
			room--
		}
		if room <= 0 {
			return false
		}
		text := textutil.CutUTF8(t.Text, min(bb.perMessage, room))
		if text == "" {
			continue
		}
		if bb.b.Len() > 0 {
			bb.b.WriteByte('\n')
		}
		bb.b.WriteString(text)
	}
	bb.one[0] = sessionref.Event{}
	return bb.b.Len() < bb.perSession
}

func (bb *bodyBuilder) String() string { return readable(bb.b.String()) }

// readable is clean text as a terminal shows it: its escape sequences
// (colours, OSC strings) removed, so a word stuck to one ("\x1b[1mretry")
// is indexed, and found, as the word it is.
func readable(s string) string {
	s = clean(s)
	if strings.ContainsAny(s, "\x1b\u009b\u009d\u0090\u009e\u009f") {
		s = ansi.Strip(s)
	}
	return s
}

// clean makes text valid UTF-8 without NUL bytes, which SQLite text and
// the tokenizers stop at.
func clean(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if strings.IndexByte(s, 0) >= 0 {
		s = strings.ReplaceAll(s, "\x00", " ")
	}
	return s
}

// withGrams is text followed by the gram tokens of its runs of gram
// characters: what the words table indexes for one column.
func withGrams(text string) string {
	var b strings.Builder
	b.Grow(len(text) * 2)
	b.WriteString(text)
	b.WriteByte('\n')
	appendGrams(&b, text)
	return b.String()
}

// gramRuns is the runs of gram characters of text, one per line: what
// the trigram table indexes for one column.
func gramRuns(text string) string {
	var b strings.Builder
	in := false
	for _, r := range text {
		switch {
		case isGram(r):
			if !in && b.Len() > 0 {
				b.WriteByte('\n')
			}
			in = true
			b.WriteRune(r)
		case ignorable(r):
			if in {
				b.WriteRune(r)
			}
		default:
			in = false
		}
	}
	return b.String()
}

// appendGrams writes, for every run of gram characters in s, the token
// of each character and of each pair of neighbours.
func appendGrams(b *strings.Builder, s string) {
	prev := rune(-1)
	for _, r := range s {
		switch {
		case isGram(r):
			b.WriteString(gramToken(r))
			b.WriteByte(' ')
			if prev >= 0 {
				b.WriteString(gramToken(prev, r))
				b.WriteByte(' ')
			}
			prev = r
		case ignorable(r):
			// A variation selector or joiner inside an emoji or a word.
		default:
			prev = -1
		}
	}
}

// gramToken encodes one or two characters as one ASCII word, which
// unicode61 keeps whole: "x" and six hex digits per character.
func gramToken(rs ...rune) string {
	const hex = "0123456789abcdef"
	out := make([]byte, 1, 1+6*len(rs))
	out[0] = 'x'
	for _, r := range rs {
		for shift := 20; shift >= 0; shift -= 4 {
			out = append(out, hex[(r>>shift)&0xf])
		}
	}
	return string(out)
}

// isGram reports whether r is found by character grams rather than by
// words: characters of scripts written without spaces between words
// (Chinese, Japanese, Thai, …) and symbols such as emoji. Letters of the
// scripts that put spaces between words are words for unicode61.
func isGram(r rune) bool {
	if r < utf8.RuneSelf || unicode.IsSpace(r) || unicode.IsPunct(r) || ignorable(r) || unicode.IsControl(r) || r == utf8.RuneError {
		return false
	}
	if unicode.IsLetter(r) || unicode.IsNumber(r) {
		return !unicode.Is(unicode.Latin, r) && !unicode.In(r, unicode.Greek, unicode.Cyrillic, unicode.Armenian, unicode.Georgian, unicode.Hebrew, unicode.Arabic)
	}
	return unicode.IsSymbol(r)
}

// ignorable is a rune that neither makes nor breaks a gram run: combining
// marks, variation selectors, joiners.
func ignorable(r rune) bool {
	if r < 0xAD { // the first Cf (soft hyphen); marks start at U+0300
		return false
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf)
}
