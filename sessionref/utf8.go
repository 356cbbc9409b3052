package sessionref

import (
	"unicode/utf8"

	"golang.org/x/text/encoding/unicode"
)

// validOrReplaced returns s with every ill-formed sequence replaced by
// U+FFFD the way a WHATWG UTF-8 decoder (JavaScript's TextDecoder) does it:
// one replacement per maximal subpart, a BOM kept as text. Text read from
// disk by the reference went through such a decoder, so this is the
// string it saw. x/text's UTF-8 decoder follows those steps.
func validOrReplaced(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	out, err := unicode.UTF8.NewDecoder().String(s)
	if err != nil { // the decoder replaces, it does not fail; keep Go's repair as a floor
		return string([]rune(s))
	}
	return out
}
