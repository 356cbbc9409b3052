package mentiontextarea

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// BenchmarkTextareaKeystroke: one typed character, a Backspace and one
// message that is not a key (a picker answer, a blink) through the
// adapter, over a textarea holding 32 KiB of text on 400 lines.
func BenchmarkTextareaKeystroke(b *testing.B) {
	a, ta := newPair(b, 80)
	ta.SetValue(strings.Repeat(strings.Repeat("word ", 16)+"\n", 400))
	a.Sync(&ta)
	key := tea.KeyPressMsg{Code: 'x', Text: "x"}
	back := tea.KeyPressMsg{Code: tea.KeyBackspace}
	other := struct{}{}
	b.ResetTimer()
	for b.Loop() {
		a.Update(&ta, key)
		a.Update(&ta, back)
		a.Update(&ta, other)
	}
}
