package sessionref

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// whatwgDecode is the WHATWG UTF-8 decoder's steps written out (the
// hand-written repair this package used before x/text's decoder): one
// U+FFFD per maximal subpart of an ill-formed sequence, BOM kept.
func whatwgDecode(s string) string {
	var b strings.Builder
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

func TestValidOrReplaced(t *testing.T) {
	for in, want := range map[string]string{
		"ok 界":             "ok 界",
		"\xff":             "\uFFFD",
		"\xe2\x82":         "\uFFFD", // one maximal subpart
		"\xe2\x82A":        "\uFFFDA",
		"\xf0\x9f\x98":     "\uFFFD",
		"\xed\xa0\x80":     "\uFFFD\uFFFD\uFFFD", // a surrogate: three
		"\xc0\xaf":         "\uFFFD\uFFFD",       // overlong
		"\xf4\x90\x80\x80": "\uFFFD\uFFFD\uFFFD\uFFFD",
		"\ufeffbom\x80":    "\ufeffbom\uFFFD", // the BOM stays
		"a\xe0\x80\xbfz":   "a\uFFFD\uFFFD\uFFFDz",
		"\xf0\x90\x80\xf0": "\uFFFD\uFFFD",
	} {
		if got := validOrReplaced(in); got != want {
			t.Errorf("validOrReplaced(%+q) = %+q, want %+q", in, got, want)
		}
	}
}

// TestValidOrReplacedLong: ill-formed sequences across the decoder's
// internal buffer boundaries (a few KiB) are still replaced as one.
func TestValidOrReplacedLong(t *testing.T) {
	pieces := []string{"a", "界", "\xe2\x82", "\xf0\x9f\x98", "\xff", "\xed\xa0", "🙂", "\xc3"}
	var b strings.Builder
	for i := 0; b.Len() < 1<<17; i++ {
		b.WriteString(pieces[(i*7+i/3)%len(pieces)])
	}
	s := b.String()
	for cut := 0; cut < 8; cut++ {
		if got, want := validOrReplaced(s[cut:]), whatwgDecode(s[cut:]); got != want {
			t.Fatalf("long input cut at %d differs", cut)
		}
	}
}

// FuzzValidOrReplaced: x/text's decoder gives exactly the WHATWG steps'
// output, byte for byte.
func FuzzValidOrReplaced(f *testing.F) {
	for _, s := range []string{"\xe2\x82A", "\xed\xa0\x80", "\xf0\x9f\x98", "\ufeff\xff", "\xf4\x90", "ok"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := validOrReplaced(s), whatwgDecode(s); got != want {
			t.Fatalf("validOrReplaced(%+q) = %+q, WHATWG %+q", s, got, want)
		}
	})
}
