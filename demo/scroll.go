package demo

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"

	"github.com/dshkit/mentions/internal/textutil"
)

// fitTranscript gives the transcript its area's rows, less one for the
// scroll line when it holds more than the area shows (so the line never
// covers text). It runs after the layout and after every rebuild.
func (m *Model) fitTranscript() {
	h := m.areaH
	if m.vp.TotalLineCount() > h && h >= 2 {
		h--
	}
	m.vp.SetHeight(max(h, 1))
	if m.follow {
		m.vp.GotoBottom()
	}
}

// scrollLineH is the scroll line's height: 1 while the transcript holds
// more than it shows (and has a row to spare for it), else 0.
func (m Model) scrollLineH() int { return m.areaH - m.vp.Height() }

// scrollLine is the row under the transcript while it holds more than it
// shows: "↑ 30 more lines · pgup" when lines are above, "↓ 12 more lines
// · pgdn" when lines are below, at the right of a row of their own,
// shorter when the width asks for it.
func (m Model) scrollLine() string {
	if m.scrollLineH() == 0 {
		return ""
	}
	off, h := m.vp.YOffset(), m.vp.Height()
	above, below := off, m.vp.TotalLineCount()-off-h
	up, down := m.keys.ScrollUp.Help().Key, m.keys.ScrollDown.Help().Key
	// words: 2 "more lines", 1 "more", 0 the count alone.
	form := func(words int, keys bool) string {
		var parts []string
		one := func(arrow string, n int, k string) string {
			s := fmt.Sprintf("%s %d", arrow, n)
			switch words {
			case 2:
				s += " more " + plural(n, "line")
			case 1:
				s += " more"
			}
			if keys {
				s += " · " + k
			}
			return s
		}
		if above > 0 {
			parts = append(parts, one("↑", above, up))
		}
		if below > 0 {
			parts = append(parts, one("↓", below, down))
		}
		return " " + strings.Join(parts, "   ") + " "
	}
	s := form(2, true)
	for _, alt := range []string{form(1, true), form(0, true), form(0, false)} {
		if textutil.Width(s) <= m.w {
			break
		}
		s = alt
	}
	s = textutil.Truncate(s, m.w, "")
	return strings.Repeat(" ", max(m.w-textutil.Width(s), 0)) + m.st.header.Render(s)
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
	bs := []key.Binding{
		b("wheel", "scroll the transcript or screen"),
		b("click", "expand/collapse a card"),
		b("click", "pick a session in the picker"),
		b("click", "outside the picker: close it"),
	}
	if m.opts.Preview {
		bs = append(bs, b("hover", "preview a session in the picker"), b("wheel", "over the preview: scroll it"))
	}
	return [][]key.Binding{bs}
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// scrolled is how far down vp is, from 0 (its top) to 1 (its bottom).
func scrolled(vp viewport.Model) float64 {
	room := vp.TotalLineCount() - vp.Height()
	if room <= 0 {
		return 0
	}
	return min(float64(vp.YOffset())/float64(room), 1)
}

// keepShare is scrolled(vp), or was when everything fits in vp: a
// size where nothing scrolls says nothing of where the reader was.
func keepShare(vp viewport.Model, was float64) float64 {
	if vp.TotalLineCount() <= vp.Height() {
		return was
	}
	return scrolled(vp)
}

// rescroll puts vp as far down as at was: its top stays its top, its
// bottom its bottom, and a place between keeps its share.
func rescroll(vp *viewport.Model, at float64) {
	room := vp.TotalLineCount() - vp.Height()
	if room <= 0 {
		return
	}
	vp.SetYOffset(int(at*float64(room) + 0.5))
}
