package sessionref

import (
	"strings"
	"unicode/utf8"
)

// validOrReplaced returns s with every ill-formed sequence replaced by
// U+FFFD the way a WHATWG UTF-8 decoder (JavaScript's TextDecoder) does it:
// one replacement per maximal subpart. Text read from disk by the
// reference went through such a decoder, so this is the string it saw.
func validOrReplaced(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			b.WriteByte(c)
			i++
			continue
		}
		need, lo, hi := 0, byte(0x80), byte(0xBF)
		switch {
		case c >= 0xC2 && c <= 0xDF:
			need = 1
		case c >= 0xE0 && c <= 0xEF:
			need = 2
			if c == 0xE0 {
				lo = 0xA0
			} else if c == 0xED {
				hi = 0x9F
			}
		case c >= 0xF0 && c <= 0xF4:
			need = 3
			if c == 0xF0 {
				lo = 0x90
			} else if c == 0xF4 {
				hi = 0x8F
			}
		}
		j := i + 1
		for k := 0; k < need && j < len(s) && s[j] >= lo && s[j] <= hi; k++ {
			j++
			lo, hi = 0x80, 0xBF
		}
		if need > 0 && j-i == need+1 {
			b.WriteString(s[i:j])
		} else {
			b.WriteString("\uFFFD")
		}
		i = j
	}
	return b.String()
}
