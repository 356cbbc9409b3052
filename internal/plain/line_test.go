package plain

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain 界 🙂", "plain 界 🙂"},
		{"a\nb\tc\rd", "a b c d"},
		{"\x1b[31mred\x1b[0m", `\x1B[31mred\x1B[0m`},
		{"bad\xffutf\xc3", "bad\uFFFDutf\uFFFD"},
		{"c1\u009b2J \u009d8;;x\u009c", `c1\x9B2J \x9D8;;x\x9C`},
		{"invoice\u202Etxt.exe", `invoice\u202Etxt.exe`},
		{"zero\u200Bwidth", `zero\u200Bwidth`},
		{"\u0301start", `\u0301start`},
		{"x\u200B\u0301", `x\u200B\u0301`},
		{"e\u0301 is fine", "e\u0301 is fine"},
		{"1\uFE0F\u20E3 keycap", "1\uFE0F\u20E3 keycap"},
		{"❤\uFE0F", "❤\uFE0F"},
		{"\uFE0Flone", `\uFE0Flone`},
		{"👩\u200D💻 coder", "👩\u200D💻 coder"},
		{"👩🏽\u200D🚀", "👩🏽\u200D🚀"},
		{"a\u200Db", `a\u200Db`},
		{"😀\u200D", `😀\u200D`},
		{"می\u200Cخواهم", `می\u200Cخواهم`},
		{"🏴\U000E0067\U000E0062\U000E007F", "🏴\U000E0067\U000E0062\U000E007F"},
		{"🏴\U000E0067", `🏴\U000E0067`},
		{"🏴\U000E007F", `🏴\U000E007F`},
		{"x\U000E0067\U000E007F", `x\U000E0067\U000E007F`},
		{"x" + strings.Repeat("\u0301", 40), "x" + strings.Repeat("\u0301", MaxClusterRunes-1)},
		{strings.Repeat("\u0301", 40), strings.Repeat(`\u0301`, MaxClusterRunes)},
	} {
		if got := Line(c.in); got != c.want {
			t.Errorf("Line(%+q) = %+q, want %+q", c.in, got, c.want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { Line("plain ascii title") }); n != 0 {
		t.Errorf("plain ASCII allocates %v times", n)
	}
}

// checkLine fails when out, Line's answer for in, holds anything a
// terminal acts on or draws invisibly but the joiners, selectors and
// tags of emoji, or is not valid UTF-8.
func checkLine(t *testing.T, in, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("Line(%+q) = %+q is not valid UTF-8", in, out)
	}
	rs := []rune(out)
	for i, r := range rs {
		switch {
		case r == zwj:
			if i == 0 || i+1 == len(rs) || !unicode.Is(ExtendedPictographic, rs[i+1]) {
				t.Fatalf("Line(%+q) = %+q: a joiner at rune %d joins no pictographs", in, out, i)
			}
		case r >= 0xE0020 && r <= cancelTag:
			j := i
			for j > 0 && rs[j-1] >= 0xE0020 && rs[j-1] < cancelTag {
				j--
			}
			if j == 0 || rs[j-1] != blackFlag {
				t.Fatalf("Line(%+q) = %+q: a tag at rune %d outside an emoji tag sequence", in, out, i)
			}
		case unicode.Is(unicode.Variation_Selector, r):
			if i == 0 || Hidden(rs[i-1]) && !unicode.Is(unicode.Variation_Selector, rs[i-1]) {
				t.Fatalf("Line(%+q) = %+q: a variation selector at rune %d on nothing", in, out, i)
			}
		case Hidden(r), unicode.Is(unicode.Bidi_Control, r), r == 0x1B:
			t.Fatalf("Line(%+q) = %+q: %U left in", in, out, r)
		}
	}
	for i := 0; i < len(out); i++ {
		if c := out[i]; c < 0x20 || c == 0x7F {
			t.Fatalf("Line(%+q) = %+q: control byte %#x", in, out, c)
		}
	}
}

// FuzzLine: no control byte, escape, bidi control or other invisible
// character survives Line but where it makes an emoji; Line is
// idempotent; a run of marks costs a bounded number of bytes a
// character.
func FuzzLine(f *testing.F) {
	for _, s := range []string{
		"\x1b]8;;http://x\x07link\x1b]8;;\x07", "a\r\nb\x00", "\u202Eevil\u2066", "👩\u200D💻\u200D",
		"1\uFE0F\u20E3", "🏴\U000E0067\U000E0062\U000E007F", "\u0301\u0301", "\u1160\u11A8", "\xff\xfe",
		"\u00AD\u200B\uFEFF", "😀\u200D\U000E0020😀", "\u2028\u2029\u0085\u009b", "a\uFE00\uFE00\uFE0F",
		"Zalgo x" + strings.Repeat("\u0334", 500), strings.Repeat("👩\u200D", 40) + "💻",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Line(s)
		checkLine(t, s, out)
		if again := Line(out); again != out {
			t.Fatalf("Line is not idempotent on %+q: %+q then %+q", s, out, again)
		}
		if len(out) > 10*len(s) {
			t.Fatalf("Line(%+q) is %d bytes", s, len(out))
		}
	})
}
