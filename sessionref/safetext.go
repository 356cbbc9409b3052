package sessionref

import (
	"unicode/utf8"

	"github.com/dshkit/mentions/internal/plain"
)

// safeLine makes untrusted text (a label, an id, a store's error text)
// safe to show inside one line of a terminal or any other display: the
// module's one display rule, [plain.Line], which the components'
// sanitiser applies too before a terminal's width rules.
func safeLine(s string) string { return plain.Line(s) }

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
	// The rule again: a joiner or tags the cut took their emoji from
	// are escaped.
	return plain.Line(string(rs[:head]) + "…" + string(rs[len(rs)-tail:]))
}

// maxLabelRunes is the most runes of a label an error message repeats.
const maxLabelRunes = 60

// clipRunes cuts s, text made safe, to at most n runes, ending in "…"
// when cut; a joiner or tags the cut took their emoji from are escaped.
func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	rs := []rune(s)
	return plain.Line(string(rs[:n-1]) + "…")
}

// SafeLine makes untrusted text — a stored message, a title, a store's
// error — safe to print on one line of a terminal: no byte of it can act
// on the terminal (controls, escapes, bidi overrides and other invisible
// characters are shown as visible escapes; line breaks and tabs become
// spaces; emoji keep their joiners, selectors and tags). It is what
// [Describe] and [Error.Error] use for the untrusted parts they repeat. It
// is the same rule the module's components draw with (they add a
// terminal's width rules on top: a presentation selector that terminals
// draw at different widths is dropped, a character that takes no cell is
// escaped), so a host that draws message text through it shows nothing
// the components would hide.
func SafeLine(s string) string { return safeLine(s) }
