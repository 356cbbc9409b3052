package demo

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"

	"github.com/dshkit/mentions/internal/textutil"
)

// scrollMarks are the transcript's signs that there is more than it
// shows: "↑ 30 more lines · pgup" at the right of its top row when lines
// are above, "↓ 12 more lines · pgdn" at the right of its bottom row
// when lines are below. They cover only their own cells.
func (m Model) scrollMarks() []*lipgloss.Layer {
	total, off, h := m.vp.TotalLineCount(), m.vp.YOffset(), m.vp.Height()
	if total <= h {
		return nil
	}
	var out []*lipgloss.Layer
	mark := func(arrow string, n int, keyName string, y int) {
		s := fmt.Sprintf(" %s %d more %s · %s ", arrow, n, plural(n, "line"), keyName)
		if textutil.Width(s) > m.w {
			s = fmt.Sprintf(" %s %d ", arrow, n)
		}
		s = textutil.Truncate(s, m.w, "")
		out = append(out, lipgloss.NewLayer(m.st.header.Render(s)).X(max(m.w-textutil.Width(s), 0)).Y(y).Z(1))
	}
	if off > 0 && (h > 1 || off+h == total) { // one row: the lines below come first
		mark("↑", off, m.keys.ScrollUp.Help().Key, headerH)
	}
	if below := total - off - h; below > 0 {
		mark("↓", below, m.keys.ScrollDown.Help().Key, headerH+h-1)
	}
	return out
}

// scrollable reports whether the transcript holds more than it shows.
func (m Model) scrollable() bool { return m.vp.TotalLineCount() > m.vp.Height() }

// scrollHint is the hint line's one entry for both paging keys.
func (m Model) scrollHint() key.Binding {
	k := m.keys
	keys := append(k.ScrollUp.Keys(), k.ScrollDown.Keys()...)
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k.ScrollUp.Help().Key+"/"+k.ScrollDown.Help().Key, "scroll"))
}

// mouseHelp is what the mouse does, for F1: it has no KeyMap of its own.
// Inline, F1 says the mouse is off and why there is no way to turn it on.
func (m Model) mouseHelp() [][]key.Binding {
	b := func(k, desc string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, desc)) }
	if m.opts.Inline {
		return [][]key.Binding{{b("mouse", "off inline: keyboard only")}}
	}
	if m.opts.NoMouse {
		return nil
	}
	return [][]key.Binding{{
		b("wheel", "scroll the transcript or screen"),
		b("click", "expand/collapse a card"),
		b("click", "pick a session in the picker"),
	}}
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
