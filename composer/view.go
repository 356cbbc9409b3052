package composer

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/internal/theme"
)

// promptW is the width of the "› " prompt before each line.
const promptW = 2

// textWidth keeps one cell free at the end of each line for the cursor.
func (m Model) textWidth() int { return max(m.width-promptW-1, 1) }

func (m Model) lines() []line {
	if m.layout == nil {
		return wrap(m.atoms, m.textWidth())
	}
	return m.layout
}

func (m Model) visibleLines(n int) int { return min(max(n, 1), m.maxLines) }

// scrollToCursor keeps the cursor's line inside the visible window.
func (m *Model) scrollToCursor() {
	lines := m.lines()
	l := lineOf(lines, m.cursor)
	h := m.visibleLines(len(lines))
	if l < m.top {
		m.top = l
	}
	if l >= m.top+h {
		m.top = l - h + 1
	}
	m.top = min(max(m.top, 0), max(len(lines)-h, 0))
}

// Height is the number of lines View returns: the visible lines of the
// draft and the footer, which grows to show a long error whole.
func (m Model) Height() int { return m.visibleLines(len(m.lines())) + len(m.footer()) }

// Cursor returns the terminal cursor for a host that shows the real
// cursor (see [Model.SetVirtualCursor]), or nil while the virtual cursor
// is drawn, the composer is blurred or a submit is preparing. Its
// position is relative to the top-left cell of View; add the composer's
// origin before putting it in a tea.View:
//
//	v := tea.NewView(screen)
//	if c := m.input.Cursor(); c != nil {
//		c.X += originX
//		c.Y += originY
//		v.Cursor = c
//	}
func (m Model) Cursor() *tea.Cursor {
	if m.virtual || !m.focused || m.preparing {
		return nil
	}
	lines := m.lines()
	l := lineOf(lines, m.cursor)
	return tea.NewCursor(promptW+cells(m.atoms[lines[l].start:m.cursor], m.textWidth()), l-m.top)
}

// View renders the visible lines of the draft and the footer. No line is
// wider than the composer's width, and every character of the draft is
// shown through the same sanitiser as the rest of the UI.
func (m Model) View() string {
	st := m.styles
	lines := m.lines()
	h := m.visibleLines(len(lines))
	tw := m.textWidth()
	cursorLine := lineOf(lines, m.cursor)
	footer := m.footer()
	out := make([]string, 0, h+len(footer))
	for i := m.top; i < m.top+h && i < len(lines); i++ {
		prompt := "  "
		if i == 0 {
			prompt = st.Prompt.Render("›") + " "
		}
		var body string
		if len(m.atoms) == 0 {
			body = m.renderPlaceholder(tw)
		} else {
			cur := -1
			if m.virtual && m.focused && !m.preparing && i == cursorLine {
				cur = m.cursor
			}
			body = m.renderLine(lines[i], cur, tw)
		}
		out = append(out, prompt+body)
	}
	return strings.Join(append(out, footer...), "\n")
}

func (m Model) renderPlaceholder(tw int) string {
	st := m.styles
	ph := fit(textutil.Inline(m.placeholder), tw)
	if !m.virtual || !m.focused || ph == "" {
		return st.Placeholder.Render(ph)
	}
	first, rest := splitFirstCell(ph)
	return st.Cursor.Render(first) + st.Placeholder.Render(rest)
}

// renderLine draws atoms of one line, the cursor as a reversed cell.
// Plain text is styled a run at a time, not a grapheme at a time.
func (m Model) renderLine(l line, cur, tw int) string {
	st := m.styles
	var b, run strings.Builder
	flush := func() {
		if run.Len() > 0 {
			b.WriteString(st.Text.Render(run.String()))
			run.Reset()
		}
	}
	w := 0
	for i := l.start; i < l.end; i++ {
		a := m.atoms[i]
		text := shown(a, m.text(i))
		style := st.Text
		if a.isToken() {
			style = st.Token
		}
		if int(a.w) > tw {
			text = fit(text, tw) // alone on its line (see wrap)
		}
		w += min(int(a.w), tw)
		switch {
		case i == cur:
			flush()
			first, rest := splitFirstCell(text)
			b.WriteString(theme.Render(st.Cursor, first) + theme.Render(style, rest))
		case a.isToken():
			flush()
			b.WriteString(theme.Render(style, text))
		default:
			run.WriteString(text)
		}
	}
	flush()
	if cur == l.end {
		b.WriteString(st.Cursor.Render(" "))
		w++
	}
	if w < tw {
		b.WriteString(strings.Repeat(" ", tw-w))
	}
	return b.String()
}

// shown is how atom a, whose text is text, appears on screen: a token
// as its chip, a plain ASCII character as itself, any other cluster
// through display.
func shown(a atom, text string) string {
	if a.flags&(atomToken|atomASCII) != 0 {
		return text
	}
	return display(text)
}

// splitFirstCell splits s after its first grapheme cluster.
func splitFirstCell(s string) (string, string) {
	c, _ := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
	return c, s[len(c):]
}

// footer is the line (or lines) under the draft: what is going on, what
// is wrong, or the count of references and the keys that act now. What
// matters (an error, a limit passed) wraps over as many lines as it
// needs; key hints that do not fit are left out, never cut.
func (m Model) footer() []string {
	st := m.styles
	switch {
	case m.preparing:
		msg := "⋯ preparing to send… the draft is locked"
		style := st.Busy
		switch {
		case m.refused != "":
			// Typed meanwhile: say so, with the text, so it can be typed
			// again once the draft is back.
			msg += ": not typed “" + textutil.Inline(m.refused) + "”"
			style = st.Warning
		case m.refusedKeys > 0:
			msg += ": keys are not taken"
			style = st.Warning
		}
		if h := hint(m.KeyMap().Cancel); h != "" {
			msg += " · " + h
		}
		return m.wrapped(msg, style)
	case m.errLine != "":
		return m.wrapped("✗ "+textutil.Inline(m.errLine), st.Error)
	case m.pickerAnswered() && m.picker.Status() != "":
		// The answer is in and nothing can be picked: say why, with the
		// way out. (While a search runs the popup says so, after a
		// moment, without the footer flickering on every keystroke.)
		msg := "⚠ " + m.picker.Status()
		if h := hint(m.picker.KeyMap().Dismiss); h != "" {
			msg += " · " + h
		}
		return m.wrapped(msg, st.Warning)
	case m.OverLimit():
		return m.wrapped(fmt.Sprintf("✗ @ %d/%d sessions: over the limit, remove %d to send",
			len(m.refs), m.maxRefs, len(m.refs)-m.maxRefs), st.Warning)
	}
	line := fmt.Sprintf("@ %d/%d sessions", len(m.refs), m.maxRefs)
	bindings := m.KeyMap().ShortHelp()
	if m.picker.IsOpen() {
		pk := m.picker.KeyMap()
		bindings = append([]key.Binding{pk.Accept, pk.Dismiss, pk.Preview}, bindings...)
	}
	for _, b := range bindings {
		if h := hint(b); h != "" && textutil.Width(line+" · "+h) <= m.width {
			line += " · " + h
		}
	}
	return []string{st.Footer.Render(fit(line, m.width))}
}

// hint is "key description" for an enabled binding with keys, "" for
// one that does nothing now.
func hint(b key.Binding) string {
	if !b.Enabled() || len(b.Keys()) == 0 {
		return ""
	}
	h := b.Help()
	k := h.Key
	if k == "" {
		k = b.Keys()[0]
	}
	return textutil.Inline(strings.TrimSpace(k + " " + h.Desc))
}

// wrapped styles plain text s over as many lines of the composer's width
// as it needs, laid out as the draft is (breaking at spaces, inside a
// word only when it is wider than a line), continuation lines indented
// under the first one's text.
func (m Model) wrapped(s string, style lipgloss.Style) []string {
	const indent = "  "
	w := max(m.width-len(indent), 1)
	atoms := textAtoms(s)
	offs := make([]int, len(atoms)+1)
	for k, a := range atoms {
		offs[k+1] = offs[k] + int(a.n)
	}
	var out []string
	for i, l := range wrap(atoms, w) {
		var b strings.Builder
		if i > 0 {
			b.WriteString(indent)
		}
		for k := l.start; k < l.end; k++ {
			if i > 0 && l.start > 0 && b.Len() == len(indent) && atoms[k].isSpace() {
				continue // no space at the start of a continuation line
			}
			b.WriteString(shown(atoms[k], s[offs[k]:offs[k+1]]))
		}
		out = append(out, style.Render(fit(b.String(), m.width)))
	}
	return out
}

// fit cuts plain text s to at most w cells, ending in "…" when cut, and
// pads it with spaces to w cells. Cells are counted by grapheme cluster
// with textutil.Width, so the result measures as lipgloss measures it.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	n := textutil.Width(s)
	if n > w {
		var b strings.Builder
		used := 0
		for rest := s; rest != ""; {
			c, _ := ansi.FirstGraphemeCluster(rest, ansi.GraphemeWidth)
			if c == "" {
				break
			}
			cw := textutil.Width(c)
			if used+cw > w-1 {
				break
			}
			b.WriteString(c)
			used += cw
			rest = rest[len(c):]
		}
		b.WriteString("…")
		s, n = b.String(), used+1
	}
	return s + strings.Repeat(" ", max(w-n, 0))
}
