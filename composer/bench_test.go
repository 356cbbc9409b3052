package composer

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/dshkit/mentions/picker"
)

// bigDraft is a 10,000-character draft holding 50 tokens.
func bigDraft(b *testing.B) Model {
	var sb strings.Builder
	words := "lorem ipsum dolor sit amet 界面 consectetur 🎉 adipiscing elit "
	for i := 0; i < 50; i++ {
		sb.WriteString(strings.Repeat(words, 3)[:190])
		sb.WriteString(mention(b, fmt.Sprintf("s-%d", i), fmt.Sprintf("Session %d", i)))
		sb.WriteString(" ")
	}
	p := picker.New(picker.SourceFunc(nil))
	m := New(p, nil)
	m.SetWidth(100)
	m.SetValue(sb.String())
	m.moveCursor(len(m.atoms) / 2)
	m.scrollToCursor()
	return m
}

func BenchmarkKeystrokeBigDraft(b *testing.B) {
	m := bigDraft(b)
	if n := len(m.Tokens()); n != 50 {
		b.Fatal(n)
	}
	b.ReportMetric(float64(len([]rune(m.Readable()))), "chars")
	k := tea.KeyPressMsg{Code: 'x', Text: "x"}
	bs := tea.KeyPressMsg{Code: tea.KeyBackspace}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			m, _ = m.Update(k)
		} else {
			m, _ = m.Update(bs)
		}
	}
}

func BenchmarkViewBigDraft(b *testing.B) {
	m := bigDraft(b)
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkKeystrokeLongWord types at the start of the worst shape for
// re-segmenting graphemes: a 100,000-character draft with no space, in
// ASCII and in CJK. Its cost grows with the draft (the layout is redone
// per keystroke, as in BenchmarkKeystrokeBigDraft), not with the word.
func BenchmarkKeystrokeLongWord(b *testing.B) {
	for _, c := range []struct{ name, unit string }{{"ascii", "a"}, {"cjk", "界"}} {
		b.Run(c.name, func(b *testing.B) {
			m := newWith(picker.New(picker.SourceFunc(nil)), nil, withWidth(100))
			m.SetValue(strings.Repeat(c.unit, 100_000))
			m.moveCursor(0)
			k := tea.KeyPressMsg{Code: 'x', Text: "x"}
			bs := tea.KeyPressMsg{Code: tea.KeyBackspace}
			for i := 0; b.Loop(); i++ {
				if i%2 == 0 {
					m, _ = m.Update(k)
				} else {
					m, _ = m.Update(bs)
				}
			}
		})
	}
}

// BenchmarkKeystrokeAfterPaste pastes 1 MB on one line (ASCII, and CJK)
// and then types and erases a character at its start, drawing each
// frame: the draft holds MaxDraftBytes of the paste, so a keystroke stays
// under 5 ms. "small" is the same after a paste of 1 KB, the baseline.
func BenchmarkKeystrokeAfterPaste(b *testing.B) {
	for _, c := range []struct {
		name, unit string
		n          int
	}{{"small", "a", 1 << 10}, {"ascii", "a", 1 << 20}, {"cjk", "界", 1 << 20 / 3}} {
		b.Run(c.name, func(b *testing.B) {
			m := newWith(picker.New(picker.SourceFunc(nil)), nil, withWidth(100))
			m.Focus()
			m, _ = m.Update(tea.PasteMsg{Content: strings.Repeat(c.unit, c.n)})
			m.moveCursor(0)
			k := tea.KeyPressMsg{Code: 'x', Text: "x"}
			del := tea.KeyPressMsg{Code: tea.KeyDelete}
			for i := 0; b.Loop(); i++ {
				if i%2 == 0 {
					m, _ = m.Update(k)
				} else {
					m, _ = m.Update(del)
				}
				_ = m.View()
			}
			b.ReportMetric(float64(len(m.Readable())), "draft-bytes")
		})
	}
}
