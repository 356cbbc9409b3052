package textutil

import (
	"github.com/dshkit/mentions/internal/plain"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

func TestInline(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain 界 🙂", "plain 界 🙂"},
		{"a\nb\tc\rd", "a b c d"},
		{"\x1b[31mred\x1b[0m", `\x1B[31mred\x1B[0m`},
		{"bell\a nul\x00 del\x7f", `bell\x07 nul\x00 del\x7F`},
		{"bad\xffutf\xc3", "bad\uFFFDutf\uFFFD"},
		// C1 controls: CSI, OSC, ST, NEL.
		{"c1\u009b2J \u009d8;;x\u009c nel\u0085", `c1\x9B2J \x9D8;;x\x9C nel\x85`},
		// Bidi overrides and isolates: a title that would read "exe.txt".
		{"invoice\u202Etxt.exe", `invoice\u202Etxt.exe`},
		{"\u202Aa\u202Bb\u202Cc\u202Dd", `\u202Aa\u202Bb\u202Cc\u202Dd`},
		{"\u2066x\u2067y\u2068z\u2069", `\u2066x\u2067y\u2068z\u2069`},
		{"lrm\u200E rlm\u200F alm\u061C", `lrm\u200E rlm\u200F alm\u061C`},
		// Invisible and format characters.
		{"zero\u200Bwidth", `zero\u200Bwidth`},
		{"ad\u00ADmin", `ad\xADmin`},
		{"word\u2060joiner\uFEFF", `word\u2060joiner\uFEFF`},
		{"fn\u2061\u2062\u2063\u2064", `fn\u2061\u2062\u2063\u2064`},
		{"cgj a\u034Fb", `cgj a\u034Fb`},
		{"hangul\u3164filler", `hangul\u3164filler`},
		{"line\u2028sep\u2029para", `line\u2028sep\u2029para`},
		{"nonchar\uFFFF", `nonchar\uFFFF`},
		{"tag\U000E0041\U000E0042", `tag\U000E0041\U000E0042`},
		// A combining mark with nothing under it takes no cell.
		{"\u0301start", `\u0301start`},
		{"e\u0301 is fine", "e\u0301 is fine"},
		// Emoji keep what they need, and only that. Emoji presentation
		// after a narrow first character is dropped: terminals disagree
		// on its width (tmux draws ❤️ in one cell, x/ansi counts two).
		{"1\uFE0F\u20E3 keycap", "1\u20E3 keycap"},
		{"❤\uFE0F", "❤"},
		{"a\uFE0F b\uFE0E", "a b"},
		{"🎉\uFE0F", "🎉\uFE0F"},
		{"🎉\uFE0E", "🎉"},
		{"\uFE0Flone", `\uFE0Flone`},
		{"1\uFE0F\uFE0F", "1"},
		{"🎉\uFE0F\uFE0F", "🎉\uFE0F"},
		{"👩\u200D💻 coder", "👩\u200D💻 coder"},
		{"👨\u200D👩\u200D👧\u200D👦", "👨\u200D👩\u200D👧\u200D👦"},
		{"👩🏽\u200D🚀", "👩🏽\u200D🚀"},
		{"🏳\uFE0F\u200D🌈", "🏳\u200D🌈"},
		{"a\u200Db", `a\u200Db`},
		{"😀\u200D", `😀\u200D`},
		{"\u200D😀", `\u200D😀`},
		{"😀\u200D\u200D😀", `😀\u200D\u200D😀`},
		{"می\u200Cخواهم", `می\u200Cخواهم`},
		{"🇯🇵 flag", "🇯🇵 flag"},
		{"🏴\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F", "🏴\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F"},
		{"🏴\U000E0067", `🏴\U000E0067`},
		{"x\U000E007F", `x\U000E007F`},
	} {
		got := Inline(c.in)
		if got != c.want {
			t.Errorf("Inline(%+q) = %+q, want %+q", c.in, got, c.want)
		}
		checkSanitized(t, c.in, got)
	}
}

func TestInlineReturnsCleanInputAsIs(t *testing.T) {
	for _, s := range []string{"", "plain ascii", "界 🙂 é 1\u20E3 🎉\uFE0F 👩\u200D💻"} {
		if got := Inline(s); got != s {
			t.Errorf("Inline(%+q) = %+q", s, got)
		}
		if got := Inline(s); len(s) > 0 && got != s {
			t.Errorf("changed")
		}
	}
	if n := testing.AllocsPerRun(100, func() { Inline("plain ascii title") }); n != 0 {
		t.Errorf("plain ASCII allocates %v times", n)
	}
}

func TestBlock(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a\r\nb\rc\nd", "a\nb\nc\nd"},
		{"\tindent", "    indent"},
		{"x\u2028y", `x\u2028y`},
		{"\x1b]52;c;SGVsbG8=\x07\n\u202Eevil", `\x1B]52;c;SGVsbG8=\x07` + "\n" + `\u202Eevil`},
		{"ok\n", "ok\n"},
	} {
		if got := Block(c.in); got != c.want {
			t.Errorf("Block(%+q) = %+q, want %+q", c.in, got, c.want)
		}
	}
}

// checkSanitized asserts the sanitiser's rule on out = Inline(in): no
// control, format character, bidi control or other invisible character
// is left except the emoji joiners, selectors and tags where they make an
// emoji; every grapheme cluster takes a cell; widths agree; idempotent.
func checkSanitized(t *testing.T, in, out string) {
	t.Helper()
	if len(in) > 200 {
		in = in[:200] + "…"
	}
	if !utf8.ValidString(out) {
		t.Fatalf("Inline(%+q) = %+q is not valid UTF-8", in, out)
	}
	rs := []rune(out)
	for i, r := range rs {
		switch {
		case r == '\u200D':
			if !(i+1 < len(rs) && unicode.Is(plain.ExtendedPictographic, rs[i+1]) && afterPictograph(rs[:i])) {
				t.Fatalf("Inline(%+q) = %+q: joiner at rune %d outside an emoji ZWJ sequence", in, out, i)
			}
		case r >= 0xE0020 && r <= 0xE007F:
			if !inTagSequence(rs, i) {
				t.Fatalf("Inline(%+q) = %+q: tag at rune %d outside an emoji tag sequence", in, out, i)
			}
		case unicode.Is(unicode.Variation_Selector, r):
			if i == 0 || rs[i-1] == '\u200D' || unicode.Is(unicode.Variation_Selector, rs[i-1]) || plain.Hidden(rs[i-1]) {
				t.Fatalf("Inline(%+q) = %+q: variation selector at rune %d has no base", in, out, i)
			}
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), unicode.In(r, unicode.Zl, unicode.Zp),
			unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r), unicode.Is(unicode.Bidi_Control, r),
			unicode.Is(unicode.Noncharacter_Code_Point, r):
			t.Fatalf("Inline(%+q) = %+q: rune %U left in", in, out, r)
		}
	}
	sum := 0
	for rest := out; rest != ""; {
		c, w := ansi.FirstGraphemeCluster(rest, ansi.GraphemeWidth)
		if w < 1 {
			t.Fatalf("Inline(%+q) = %+q: cluster %+q takes no cell", in, out, c)
		}
		if strings.HasSuffix(c, "\u200D") {
			t.Fatalf("Inline(%+q) = %+q: cluster %+q ends in a joiner", in, out, c)
		}
		sum += w
		rest = rest[len(c):]
	}
	if w := Width(out); w != sum || w != lipgloss.Width(out) {
		t.Fatalf("Inline(%+q) = %+q: Width %d, clusters %d, lipgloss %d", in, out, w, sum, lipgloss.Width(out))
	}
	if again := Inline(out); again != out {
		t.Fatalf("Inline is not idempotent on %+q: %+q then %+q", in, out, again)
	}
}

func afterPictograph(rs []rune) bool {
	for j := len(rs) - 1; j >= 0; j-- {
		if unicode.Is(plain.ExtendedPictographic, rs[j]) {
			return true
		}
		if !(unicode.In(rs[j], unicode.Mn, unicode.Me) || rs[j] >= 0x1F3FB && rs[j] <= 0x1F3FF) {
			return false
		}
	}
	return false
}

// inTagSequence: rs[i] lies in U+1F3F4, tag spec characters, cancel tag.
func inTagSequence(rs []rune, i int) bool {
	s := i
	for s > 0 && rs[s-1] >= 0xE0020 && rs[s-1] < 0xE007F {
		s--
	}
	if s == 0 || rs[s-1] != 0x1F3F4 {
		return false
	}
	e := i
	for e < len(rs) && rs[e] >= 0xE0020 && rs[e] < 0xE007F {
		e++
	}
	return e < len(rs) && rs[e] == 0xE007F && e > s && (rs[i] != 0xE007F || i == e)
}

func FuzzInline(f *testing.F) {
	for _, s := range []string{
		"\x1b]8;;http://x\x07link\x1b]8;;\x07", "a\r\nb\x00", "\u202Eevil\u2066", "👩\u200D💻\u200D",
		"1\uFE0F\u20E3", "🏴\U000E0067\U000E0062\U000E007F", "\u0301\u0301", "\u1160\u11A8", "\xff\xfe",
		"\u00AD\u200B\uFEFF", "😀\u200D\U000E0020😀", "\u2028\u2029\u0085\u009b",
		"Zalgo x" + strings.Repeat("\u0334", 5000), "a\uFE0F❤\uFE0F🎉\uFE0E", strings.Repeat("👩\u200D", 100) + "💻",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		in := Inline(s)
		checkSanitized(t, s, in)
		// Every cluster is at most MaxClusterRunes code points: what a
		// cell costs to draw is bounded (an escape is ASCII, 1 byte a cell).
		if w := Width(in); len(in) > 4*MaxClusterRunes*max(w, 1) {
			t.Fatalf("Inline(%.40q) is %d bytes for %d cells", s, len(in), w)
		}
		if again := Inline(in); again != in {
			t.Fatalf("Inline is not idempotent on %+q: %+q then %+q", s, in, again)
		}
		b := Block(s)
		if strings.Contains(b, "\r") {
			t.Fatalf("CR in Block(%+q)", s)
		}
		for _, line := range strings.Split(b, "\n") {
			checkSanitized(t, s, line)
		}
		if again := Block(b); again != b {
			t.Fatalf("Block is not idempotent on %+q: %+q then %+q", s, b, again)
		}
	})
}

// BenchmarkInlineZalgo: a title of one cluster of 200,000 combining
// marks is read once and drawn as at most MaxClusterRunes code points;
// "plain" is a title of the same length in bytes, the baseline.
func BenchmarkInlineZalgo(b *testing.B) {
	zalgo := "Zalgo x" + strings.Repeat("\u0334", 200000)
	plain := strings.Repeat("é", 200000)
	for _, c := range []struct{ name, s string }{{"plain", plain}, {"zalgo", zalgo}} {
		b.Run(c.name, func(b *testing.B) {
			var n int
			for b.Loop() {
				n = len(Inline(c.s))
			}
			b.ReportMetric(float64(n), "out-bytes")
		})
	}
}
