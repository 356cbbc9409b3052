package textutil

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// TestWrapProseNoOrphan: a path cut at the width does not leave its
// closing punctuation alone on the next line; ordinary text wraps at
// spaces; nothing is lost.
func TestWrapProseNoOrphan(t *testing.T) {
	for _, c := range []struct {
		s string
		w int
	}{
		{"(expected <root>/<project>/<session>/session.jsonl)", 40},
		{"(see " + strings.Repeat("x", 39) + ").", 40},
		{"a long sentence that wraps at spaces only", 12},
		{"(see " + strings.Repeat("x", 35) + "cafe\u0301).", 40}, // the mark moves with its e
		{"(see " + strings.Repeat("x", 36) + "cafe\u0301).", 40}, // a hard wrap cuts the mark off
	} {
		lines := WrapProse(c.s, c.w)
		if len(lines) < 2 {
			t.Fatalf("%q at %d: did not wrap: %q", c.s, c.w, lines)
		}
		for _, l := range lines {
			if r, _ := utf8.DecodeRuneInString(l); unicode.Is(unicode.Mn, r) {
				t.Errorf("%q at %d: line %q starts with a lone mark", c.s, c.w, l)
			}
			if OnlyPunct(l) || ansi.StringWidth(l) > c.w {
				t.Errorf("%q at %d: line %q in %q", c.s, c.w, l, lines)
			}
		}
		if got := strings.Join(strings.Fields(strings.Join(lines, "")), ""); got != strings.Join(strings.Fields(c.s), "") {
			t.Errorf("%q at %d: wrapped text %q lost something", c.s, c.w, got)
		}
	}
}
