package card

import (
	"strings"
	"testing"

	"charm.land/glamour/v2"
	gansi "charm.land/glamour/v2/ansi"
)

// benchTurn is a snapshot-budget-sized turn (about 64 KiB) of ordinary
// Markdown with some references and tags sprinkled in.
var benchTurn = strings.Repeat("Some **bold** text with `code`, a [link](http://example.com/x) & a <tag>.\n\n- item one\n- item two\n\n```\nfunc f() { return a < b && c }\n```\n\n", 450)

// BenchmarkExpand times expanding a card holding one 64 KiB turn against
// the baseline of glamour rendering the same text, unprotected, with the
// style and width the card uses (code not highlighted). The ratio is the
// cost of neutralising and sanitising; both grow linearly with the text.
// "glamour-highlighted" is the same render with the style's syntax
// highlighting, which the card leaves off.
func BenchmarkExpand(b *testing.B) {
	msg := messageOf(snapshot("0f8e2c4a-1b2c-4d3e-8f90-123456789abc", "bench", benchTurn))
	st := DefaultStyles(true)
	plain := st.Markdown
	plain.CodeBlock.Chroma, plain.CodeBlock.Theme = nil, ""
	glamourRun := func(style gansi.StyleConfig) func(b *testing.B) {
		return func(b *testing.B) {
			b.SetBytes(int64(len(benchTurn)))
			for b.Loop() {
				r, err := glamour.NewTermRenderer(glamour.WithStyles(style), glamour.WithWordWrap(76))
				if err != nil {
					b.Fatal(err)
				}
				if _, err := r.Render(benchTurn); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.Run("baseline=glamour", glamourRun(plain))
	if !testing.Short() {
		b.Run("glamour-highlighted", glamourRun(st.Markdown))
	}
	b.Run("card", func(b *testing.B) {
		b.SetBytes(int64(len(benchTurn)))
		for b.Loop() {
			c := New(msg, WithStyles(st), WithWidth(80))
			c.Toggle()
		}
	})
}
