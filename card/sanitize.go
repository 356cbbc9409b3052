package card

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// styleOnly returns s with every escape sequence removed except SGR
// styling (7-bit CSI with numeric parameters and final 'm'), and every
// control character removed except '\n'; a tab becomes a space and
// invalid UTF-8 becomes U+FFFD. It is the last step for anything a
// renderer made from untrusted text: whatever the renderer let through,
// only colours and attributes reach the terminal.
func styleOnly(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	var state byte
	for len(s) > 0 {
		seq, _, n, next := ansi.DecodeSequence(s, state, nil)
		if n <= 0 {
			n, seq = 1, s[:1]
		}
		state = next
		s = s[n:]
		switch {
		case isSGR(seq):
			b.WriteString(seq)
		case seq == "\n":
			b.WriteByte('\n')
		case seq == "\t":
			b.WriteByte(' ')
		case seq[0] == ansi.ESC:
			// any other escape, CSI, OSC, DCS, APC, PM or SOS sequence
		default:
			writePrintable(&b, seq)
		}
	}
	return b.String()
}

// isSGR reports whether seq is exactly one 7-bit SGR sequence: ESC [,
// digits, ';' or ':', then 'm'.
func isSGR(seq string) bool {
	if len(seq) < 3 || seq[0] != ansi.ESC || seq[1] != '[' || seq[len(seq)-1] != 'm' {
		return false
	}
	for i := 2; i < len(seq)-1; i++ {
		if c := seq[i]; (c < '0' || c > '9') && c != ';' && c != ':' {
			return false
		}
	}
	return true
}

// writePrintable writes the printable runes of seq: control characters
// (C0, DEL, C1, however encoded) are dropped and bytes that are not UTF-8
// become U+FFFD, so a lone 0x9B can never act as an 8-bit CSI.
func writePrintable(b *strings.Builder, seq string) {
	for i, r := range seq {
		switch {
		case r == utf8.RuneError:
			if _, size := utf8.DecodeRuneInString(seq[i:]); size == 1 {
				b.WriteRune(utf8.RuneError)
				continue
			}
			b.WriteRune(r)
		case unicode.IsControl(r):
		default:
			b.WriteRune(r)
		}
	}
}
