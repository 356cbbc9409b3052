package composer

import (
	"fmt"
	"strings"

	"github.com/dshkit/mentions/internal/textutil"
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

// Height is the number of lines View returns.
func (m Model) Height() int { return m.visibleLines(len(m.lines())) + 1 }

// CursorPosition returns the cursor's cell relative to the composer's
// top-left corner, for a host that shows the terminal's own cursor.
func (m Model) CursorPosition() (x, y int) {
	lines := m.lines()
	l := lineOf(lines, m.cursor)
	return promptW + widthOf(m.atoms[lines[l].start:m.cursor]), l - m.top
}

// View renders the visible lines of the draft and the footer line.
func (m Model) View() string {
	st := m.Styles
	lines := m.lines()
	h := m.visibleLines(len(lines))
	tw := m.textWidth()
	cursorLine := lineOf(lines, m.cursor)
	out := make([]string, 0, h+1)
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
			if m.focused && !m.preparing && i == cursorLine {
				cur = m.cursor
			}
			body = m.renderLine(lines[i], cur, tw)
		}
		out = append(out, prompt+body)
	}
	return strings.Join(append(out, m.footer()), "\n")
}

func (m Model) renderPlaceholder(tw int) string {
	st := m.Styles
	ph := textutil.Fit(m.Placeholder, tw)
	if !m.focused || ph == "" {
		return st.Placeholder.Render(ph)
	}
	first, rest := splitFirstCell(ph)
	return st.Cursor.Render(first) + st.Placeholder.Render(rest)
}

// renderLine draws atoms of one line, the cursor as a reversed cell.
// Plain text is styled a run at a time, not a grapheme at a time.
func (m Model) renderLine(l line, cur, tw int) string {
	st := m.Styles
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
		if a.tok != nil {
			flush()
			chip := a.tok.chip()
			if a.w > tw {
				chip = textutil.Fit(chip, tw)
			}
			if i == cur {
				first, rest := splitFirstCell(chip)
				b.WriteString(st.Cursor.Render(first) + st.Token.Render(rest))
			} else {
				b.WriteString(st.Token.Render(chip))
			}
			w += min(a.w, tw)
			continue
		}
		text := a.text
		if a.w > 0 && (text[0] < 0x20 || text[0] == 0x7f) {
			text = textutil.Inline(text)
		}
		if i == cur {
			flush()
			b.WriteString(st.Cursor.Render(text))
		} else {
			run.WriteString(text)
		}
		w += a.w
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

func splitFirstCell(s string) (string, string) {
	for i := range s {
		if i > 0 {
			return s[:i], s[i:]
		}
	}
	return s, ""
}

func (m Model) footer() string {
	st := m.Styles
	switch {
	case m.preparing:
		return textutil.Fit(st.Busy.Render("⋯ preparing the referenced sessions… (esc cancels)"), m.width)
	case m.errLine != "":
		return textutil.Fit(st.Error.Render("✗ "+textutil.Inline(m.errLine)), m.width)
	}
	refs := fmt.Sprintf("@ %d/%d sessions", len(m.refs), m.maxRefs)
	return textutil.Fit(st.Footer.Render(refs+" · enter send · shift+enter newline · @ mention"), m.width)
}
