package card

import (
	"testing"

	"github.com/dshkit/mentions/internal/textutil/texttest"
	"github.com/dshkit/mentions/sessionref"
)

// The card's text layout over one text: a turn rendered as Markdown and
// fitted to the card (what an expanded card shows), the line naming a
// session whose label and folder are the text, the capture lines broken
// into phrases, and the last filter of what a renderer made.
var textRoutines = []struct {
	name string
	f    func(s string)
}{
	{"renderTurns", func(s string) {
		snaps := []sessionref.Snapshot{{Conversation: []sessionref.Turn{{Role: sessionref.RoleUser, Text: s}}}}
		renderTurns(snaps, DefaultStyles(true).Markdown, 80)
	}},
	{"fitLines", func(s string) { fitLines(s, 80) }},
	{"sessionLine", func(s string) {
		m := Model{styles: PlainStyles()}
		m.sessionLine(sessionref.Snapshot{SessionID: s, Label: s, Cwd: &s}, 80)
	}},
	{"phrases", func(s string) { phrases([]string{s, "0 omitted (1 KiB)", s}, " · ", 77) }},
	{"styleOnly", func(s string) { styleOnly(s) }},
}

// BenchmarkText times the card's text layout over the three hostile
// shapes at 64 KiB and 1 MiB (scripts/bench-text prints the ratios).
func BenchmarkText(b *testing.B) {
	for _, r := range textRoutines {
		b.Run(r.name, func(b *testing.B) { texttest.Bench(b, r.f) })
	}
}

// FuzzTextWorkLinear: the card's layout measures each byte of its input
// a bounded number of times, whatever the text.
func FuzzTextWorkLinear(f *testing.F) {
	for _, s := range []string{"a", "abc ", "界", "e\u0301", "👩\u200D💻", "**a** ", "- x\n", "`a`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 64 {
			return
		}
		for _, r := range textRoutines {
			if r.name == "renderTurns" { // glamour's own measuring is not counted
				continue
			}
			texttest.CheckLinear(t, r.name, s, r.f)
		}
	})
}
