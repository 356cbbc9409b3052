package textutil_test

import (
	"testing"

	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/internal/textutil/texttest"
)

// The routines of this package, each at the width a popup or a card
// gives it: what the benchmarks time and the linearity property counts.
var routines = []struct {
	name string
	f    func(s string)
}{
	{"Width", func(s string) { textutil.Width(s) }},
	{"Wrap", func(s string) { textutil.Wrap(s, 80) }},
	{"HardWrap", func(s string) { textutil.HardWrap(s, 80) }},
	{"WrapProse", func(s string) { textutil.WrapProse(s, 80) }},
	{"Truncate", func(s string) { textutil.Truncate(s, 80, "…") }},
	{"TruncateHalf", func(s string) { textutil.Truncate(s, len(s)/2, "…") }},
	{"Fit", func(s string) { textutil.Fit(s, 80) }},
	{"Middle", func(s string) { textutil.Middle(s, 80) }},
	{"LastCells", func(s string) { textutil.LastCells(s, 80) }},
	{"Inline", func(s string) { textutil.Inline(s) }},
	{"Block", func(s string) { textutil.Block(s) }},
	{"ShortIDs", func(s string) { textutil.ShortIDs([]string{s, s + "x"}, textutil.ShortIDWidth) }},
}

// BenchmarkText times every routine over the three hostile shapes at
// 64 KiB and 1 MiB; scripts/bench-text prints the ratios (about 16 when
// linear).
func BenchmarkText(b *testing.B) {
	for _, r := range routines {
		b.Run(r.name, func(b *testing.B) { texttest.Bench(b, r.f) })
	}
}

// FuzzTextWorkLinear: every routine's work grows linearly with its input,
// whatever the text is made of: 16 times the text, at most 24 times the
// bytes measured, counted with textutil.Measured (a count of work, not a
// timing). A routine that measured the rest of a word after each cut (as
// Wrap did) measures about 256 times as much.
func FuzzTextWorkLinear(f *testing.F) {
	for _, s := range []string{"a", "ab ", "界", "\u0301", "e\u0301", "1\uFE0F\u20E3", "👩\u200D💻", "\x1b[1mx", "(x)/", "\u200B", " "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 64 {
			return
		}
		for _, r := range routines {
			texttest.CheckLinear(t, r.name, s, r.f)
		}
	})
}

// The property catches the shape it is written for: re-measuring the
// rest of a word after each cut.
func TestExcessWorkCatchesQuadratic(t *testing.T) {
	quadratic := func(s string) {
		for i := 0; i < len(s); i += 80 {
			textutil.Width(s[i:])
		}
	}
	if texttest.ExcessWork("a", quadratic) == nil {
		t.Fatal("a routine that measures the rest of its input after each cut passed")
	}
	if err := texttest.ExcessWork("a", func(s string) { textutil.Width(s) }); err != nil {
		t.Fatal(err)
	}
}
