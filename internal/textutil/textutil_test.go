package textutil

import (
	"charm.land/lipgloss/v2"
	"strings"
	"testing"
)

func TestFitAndMiddle(t *testing.T) {
	if got := Fit("界界界", 5); got != "界界…" && Width(got) != 5 {
		t.Errorf("Fit = %q (%d)", got, Width(got))
	}
	if got := Fit("ab", 4); got != "ab  " {
		t.Errorf("Fit pad = %q", got)
	}
	got := Middle("~/work/clients/acme corp/portal", 15)
	if Width(got) > 15 || !strings.HasPrefix(got, "~/work") || !strings.HasSuffix(got, "portal") || !strings.Contains(got, "…") {
		t.Errorf("Middle = %q", got)
	}
	if got := Middle("short", 15); got != "short" {
		t.Errorf("Middle short = %q", got)
	}
}

// TestWidth pins the cells Width gives the shapes that once disagreed
// between width functions: one grapheme cluster is one unit.
func TestWidth(t *testing.T) {
	for _, c := range []struct {
		s string
		w int
	}{
		{"abc", 3},
		{"界", 2},
		{"日本語のテキスト", 16},
		{"e\u0301", 1},             // combining acute
		{"a\u0301\u0302\u0303", 1}, // stacked marks
		{"กั", 1},                  // Thai vowel sign
		{"1\uFE0F\u20E3", 2},       // keycap 1️⃣
		{"#\uFE0F\u20E3", 2},       // keycap #️⃣
		{"1\uFE0F\u20E3" + "2\uFE0F\u20E3" + "3\uFE0F\u20E3", 6},
		{"👩\u200D💻", 2},               // ZWJ sequence
		{"👨\u200D👩\u200D👧\u200D👦", 2}, // family
		{"👩🏽\u200D🚀", 2},              // with a skin tone
		{"🏳\uFE0F\u200D🌈", 2},         // rainbow flag
		{"🇯🇵", 2},                     // regional-indicator flag
		{"🇯🇵🇫🇷", 4},                   // two flags
		{"🏴\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F", 2}, // tag sequence
		{"❤\uFE0F", 2},
		{"🙂", 2},
		{"\x1b[31mred\x1b[0m", 3}, // styling takes no cell
	} {
		if got := Width(c.s); got != c.w {
			t.Errorf("Width(%+q) = %d, want %d", c.s, got, c.w)
		}
		if got := lipgloss.Width(c.s); got != Width(c.s) {
			t.Errorf("lipgloss.Width(%+q) = %d, Width %d", c.s, got, Width(c.s))
		}
		for w := 1; w <= 8; w++ {
			if got := Width(Fit(c.s, w)); got != w {
				t.Errorf("Width(Fit(%+q, %d)) = %d", c.s, w, got)
			}
		}
	}
}

func TestMiddleKeepsClusters(t *testing.T) {
	s := "🎉\uFE0F1\u20E3👩\u200D💻界/path/🇯🇵e\u0301end"
	for w := 1; w <= Width(s)+1; w++ {
		got := Middle(s, w)
		if Width(got) > w {
			t.Errorf("Middle(%+q, %d) = %+q is %d cells", s, w, got, Width(got))
		}
		if Inline(got) != got {
			t.Errorf("Middle(%+q, %d) = %+q split a cluster", s, w, got)
		}
	}
}

func FuzzFit(f *testing.F) {
	f.Add("1\uFE0F\u20E3 2\uFE0F\u20E3 界 👩\u200D💻", 5)
	f.Add("\x1b[1mbold\x1b[0m 🇯🇵", 3)
	f.Fuzz(func(t *testing.T, s string, w int) {
		w = w%64 + 1
		if w < 1 {
			w += 64
		}
		s = Inline(s)
		if got := Fit(s, w); Width(got) != w {
			t.Fatalf("Fit(%+q, %d) = %+q is %d cells", s, w, got, Width(got))
		}
		if got := Middle(s, w); Width(got) > w || Width(s) <= w && got != s {
			t.Fatalf("Middle(%+q, %d) = %+q is %d cells", s, w, got, Width(got))
		}
	})
}

func TestWrap(t *testing.T) {
	for _, c := range []struct {
		s    string
		w    int
		want []string
	}{
		{"short", 10, []string{"short"}},
		{"nothing to mention: limit 3/3 reached", 20, []string{"nothing to mention:", "limit 3/3 reached"}},
		{"a verylongwordindeed b", 8, []string{"a", "verylong", "wordinde", "ed b"}},
		{"会话会话会话 x", 5, []string{"会话", "会话", "会话", "x"}},
		{"two  spaces", 4, []string{"two", "spac", "es"}},
		{"", 4, []string{""}},
	} {
		got := Wrap(c.s, c.w)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("Wrap(%q, %d) = %q, want %q", c.s, c.w, got, c.want)
		}
		for _, l := range got {
			if Width(l) > c.w {
				t.Errorf("Wrap(%q, %d): %q is %d cells", c.s, c.w, l, Width(l))
			}
		}
	}
}

// HardWrap cuts between clusters wherever the width runs out, keeps every
// byte (escape sequences included) in order, and never makes a line wider
// than w unless one cluster is.
func TestHardWrap(t *testing.T) {
	for _, s := range []string{
		"\x1b[1mbold\x1b[0m and plain text that runs on",
		strings.Repeat("1️⃣", 12),
		strings.Repeat("重构日志", 6),
		"e\u0301" + strings.Repeat("x", 30),
	} {
		for w := 0; w <= 12; w++ {
			lines := HardWrap(s, w)
			if strings.Join(lines, "") != s {
				t.Fatalf("HardWrap(%q, %d) lost bytes: %q", s, w, lines)
			}
			for _, l := range lines {
				if lw := Width(l); lw > max(w, 2) {
					t.Fatalf("HardWrap(%q, %d): a %d-cell line %q", s, w, lw, l)
				}
			}
		}
	}
	if got := HardWrap("abcdef", 4); len(got) != 2 || got[0] != "abcd" || got[1] != "ef" {
		t.Fatalf("HardWrap(abcdef, 4) = %q", got)
	}
}

func TestCutUTF8(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"héllo", 2, "h"}, {"héllo", 3, "hé"}, {"abc", 5, "abc"}, {"日本", 4, "日"}, {"日", 0, ""},
	} {
		if got := CutUTF8(c.s, c.n); got != c.want {
			t.Errorf("CutUTF8(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}

// TestTruncateKeycaps: whatever x/ansi's Truncate answers for keycaps (it
// measures them narrower than StringWidth does), Truncate never returns
// more than w cells, and keeps as many whole keycaps as fit.
func TestTruncateKeycaps(t *testing.T) {
	s := "1\uFE0F\u20E31\uFE0F\u20E3x"
	for w, want := range map[int]string{0: "", 1: "", 2: "1\uFE0F\u20E3", 3: "1\uFE0F\u20E3", 4: "1\uFE0F\u20E31\uFE0F\u20E3", 5: s} {
		if got := Truncate(s, w, ""); got != want || Width(got) > w {
			t.Errorf("Truncate(%q, %d) = %q (%d cells), want %q", s, w, got, Width(got), want)
		}
	}
}
