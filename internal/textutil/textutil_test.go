package textutil

import (
	"strings"
	"testing"
)

func TestInline(t *testing.T) {
	for in, want := range map[string]string{
		"plain 界 🙂":          "plain 界 🙂",
		"a\nb\tc":            "a b c",
		"\x1b[31mred\x1b[0m": `\x1B[31mred\x1B[0m`,
		"bell\a":             `bell\x07`,
		"c1\u009b2J":         `c1\x9B2J`,
		"bad\xffutf":         "bad\uFFFDutf",
		"line\u2028sep":      "line sep",
	} {
		if got := Inline(in); got != want {
			t.Errorf("Inline(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzInline(f *testing.F) {
	f.Add("\x1b]8;;http://x\x07link\x1b]8;;\x07")
	f.Add("a\r\nb\x00")
	f.Fuzz(func(t *testing.T, s string) {
		out := Inline(s)
		for _, r := range out {
			if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == '\u2028' || r == '\u2029' {
				t.Fatalf("control %U escaped into %q", r, out)
			}
		}
		if strings.Contains(Block(s), "\r") {
			t.Fatal("CR in block")
		}
	})
}

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
