package card

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/glamour/v2"
	gansi "charm.land/glamour/v2/ansi"

	"github.com/dshkit/mentions/sessionref"
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
	b.Run("card-render", func(b *testing.B) {
		b.SetBytes(int64(len(benchTurn)))
		for b.Loop() {
			c := New(msg)
			c.SetStyles(st)
			c.SetWidth(80)
			c.Toggle()
			c.Render()
		}
	})
}

// bigSnapshots is three snapshots of one 64 KiB turn each.
func bigSnapshots() []sessionref.Snapshot {
	return []sessionref.Snapshot{
		snapshot("0f8e2c4a-1b2c-4d3e-8f90-123456789ab1", "one", benchTurn),
		snapshot("0f8e2c4a-1b2c-4d3e-8f90-123456789ab2", "two", benchTurn),
		snapshot("0f8e2c4a-1b2c-4d3e-8f90-123456789ab3", "three", benchTurn),
	}
}

// BenchmarkExpandThree: the Update that expands a card of three 64 KiB
// snapshots ("update", target < 2 ms: it renders nothing), and the time
// until the rendered card shows ("until-rendered": the Update, the
// render its Cmd runs, and the Update that takes the RenderedMsg),
// beside glamour rendering the same three texts ("baseline=glamour").
func BenchmarkExpandThree(b *testing.B) {
	msg := messageOf(bigSnapshots()...)
	st := DefaultStyles(true)
	toggle := tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl}
	b.Run("update", func(b *testing.B) {
		collapsed := New(msg) // a value: Update leaves it collapsed
		collapsed.SetStyles(st)
		collapsed.SetWidth(80)
		for b.Loop() {
			if c, _ := collapsed.Update(toggle); !c.Rendering() {
				b.Fatal("not expanded")
			}
		}
	})
	b.Run("until-rendered", func(b *testing.B) {
		b.SetBytes(3 * int64(len(benchTurn)))
		for b.Loop() {
			c := New(msg)
			c.SetStyles(st)
			c.SetWidth(80)
			c, _ = c.Update(toggle)
			c, _ = c.Update(c.RenderCmd()())
			if c.Rendering() {
				b.Fatal("not rendered")
			}
		}
	})
	plain := st.Markdown
	plain.CodeBlock.Chroma, plain.CodeBlock.Theme = nil, ""
	b.Run("baseline=glamour", func(b *testing.B) {
		b.SetBytes(3 * int64(len(benchTurn)))
		for b.Loop() {
			r, err := glamour.NewTermRenderer(glamour.WithStyles(plain), glamour.WithWordWrap(76))
			if err != nil {
				b.Fatal(err)
			}
			for range 3 {
				if _, err := r.Render(benchTurn); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
