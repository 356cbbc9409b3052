// Package plain holds the text helpers that need nothing but the standard
// library, so the core (sessionref) and the UI's textutil share one copy
// without the core importing terminal code.
package plain

import (
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Bytes renders a byte count in binary units, the one way the module
// prints sizes: whole units when exact ("64 KiB", "2 MiB"), one decimal
// otherwise ("6.1 KiB"), plain bytes under 1 KiB ("512 B").
func Bytes(n int) string {
	unit, div := "", 1
	switch {
	case n >= 1<<30 || n <= -1<<30:
		unit, div = "GiB", 1<<30
	case n >= 1<<20 || n <= -1<<20:
		unit, div = "MiB", 1<<20
	case n >= 1<<10 || n <= -1<<10:
		unit, div = "KiB", 1<<10
	default:
		return strconv.Itoa(n) + " B"
	}
	if n%div == 0 {
		return strconv.Itoa(n/div) + " " + unit
	}
	return strconv.FormatFloat(float64(n)/float64(div), 'f', 1, 64) + " " + unit
}

// IsUUID reports whether s is a UUID in its 36-character text form.
func IsUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// The times believed of a session, in Unix milliseconds.
const (
	// EarliestMillis is 2000-01-01T00:00:00Z: no session is older; an
	// earlier time (a fixture's 2 ms after the epoch, a clock never set,
	// seconds written as milliseconds) is not a session's.
	EarliestMillis = 946_684_800_000
	// ClockSlack is how far ahead of now a time may lie and still be
	// believed (the clocks of two machines differ).
	ClockSlack = 24 * time.Hour
)

// PlausibleMillis reports whether v reads as a session's time in Unix
// milliseconds: not before 2000, not more than a day ahead of now.
func PlausibleMillis(v int64, now time.Time) bool {
	return v >= EarliestMillis && v <= now.Add(ClockSlack).UnixMilli()
}

// WriteEscape writes r as a Go-style escape (\x1B, \u202E, \U000E0001),
// the way every sanitiser of the module shows a character it will not
// draw.
func WriteEscape(b *strings.Builder, r rune) {
	var buf [10]byte
	hex := strconv.AppendUint(buf[:0], uint64(r), 16)
	width := 8
	switch {
	case r < 0x100:
		b.WriteString(`\x`)
		width = 2
	case r <= 0xFFFF:
		b.WriteString(`\u`)
		width = 4
	default:
		b.WriteString(`\U`)
	}
	for n := len(hex); n < width; n++ {
		b.WriteByte('0')
	}
	b.WriteString(strings.ToUpper(string(hex)))
}

// Hidden reports whether r is drawn invisibly or acted on by a terminal:
// a control, a format character, another default-ignorable code point, a
// variation selector, a line or paragraph separator or a noncharacter.
func Hidden(r rune) bool {
	return unicode.IsControl(r) ||
		unicode.Is(unicode.Cf, r) ||
		unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
		unicode.Is(unicode.Variation_Selector, r) ||
		r == '\u2028' || r == '\u2029' ||
		unicode.Is(unicode.Noncharacter_Code_Point, r)
}
