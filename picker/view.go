package picker

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/internal/theme"
)

// View renders the popup, or "" when hidden. Its cost is proportional to
// the visible rows, never to the number of candidates. Hosts that compose
// layers can use [Model.Layer] instead.
func (m Model) View() string { return m.view(m.layout()) }

func (m Model) view(g geometry) string {
	if g.rect.Empty() {
		return ""
	}
	st := m.styles
	var lines []string
	if g.previewW > 0 && g.rows == 0 {
		lines = m.previewView(g.previewW, g.lines) // in place of the rows
	} else if text, style, ok := m.status(); ok {
		for _, l := range m.wrapText(text, g.innerW, g.lines) {
			lines = append(lines, m.textLine(l, style, g.innerW))
		}
	} else {
		lines = m.rowLines(g)
	}
	for len(lines) < g.lines {
		lines = append(lines, strings.Repeat(" ", g.innerW))
	}
	if g.previewW > 0 && g.rows > 0 {
		rule := theme.Render(lipgloss.NewStyle().Foreground(st.Frame.GetBorderLeftForeground()), "│")
		for i, p := range m.previewView(g.previewW, g.lines) {
			lines[i] += rule + p
		}
	}
	f := st.Frame
	box := f.Width(g.rect.W - f.GetHorizontalMargins()).Render(strings.Join(lines[:g.lines], "\n"))
	if g.rows > 0 && m.totalLines() > g.rows {
		box = m.withPosition(box, g) // only a list that scrolls needs it
	}
	return box
}

// rowLines draws the visible lines of the entries, then the footer.
func (m Model) rowLines(g geometry) []string {
	st := m.styles
	lines := make([]string, 0, g.lines)
	cols := m.chooseColumns(g)
	now := m.now()
	plain, hi := st.over(st.Row), st.over(st.Highlighted)
	for l := m.offset; l < min(m.totalLines(), m.offset+g.rows); l++ {
		b, e, kind := m.lineAt(l)
		if kind == lineHeading {
			lines = append(lines, m.sectionHeading(b, g.innerW))
			continue
		}
		stale := !m.entryFresh(e)
		highlighted := e == m.cursor && !stale && m.shownHighlighted()
		switch {
		case kind == lineSnippet:
			lines = append(lines, m.renderSnippet(m.secs[b.sec].answer.Hits[e-b.first], highlighted, stale, g.innerW, &plain, &hi))
		case b.kind == kindHost:
			lines = append(lines, m.renderItem(m.secs[b.sec].answer.Items[e-b.first], highlighted, stale, g.innerW, &plain, &hi))
		default:
			lines = append(lines, m.renderRow(m.entry(e), highlighted, stale, cols, g.innerW, now, &plain, &hi))
		}
	}
	for len(lines) < g.rows { // a popup held taller than its rows: the footer stays at the bottom
		lines = append(lines, strings.Repeat(" ", g.innerW))
	}
	if g.footerLines > 0 {
		text, style, _ := m.footer()
		for _, l := range m.wrapText(text, g.innerW, g.footerLines) {
			lines = append(lines, m.textLine(l, style, g.innerW))
		}
	}
	return lines
}

// position is the count and place shown in the frame's bottom border
// while the list scrolls:
// the highlighted entry's number and how many there are ("how many
// sessions" when none is highlighted), and how many of them are in the
// "in messages" section ("3/20 · 5 in messages"); then shorter forms, for
// narrow popups.
func (m Model) position() []string {
	n := m.entries()
	if n == 0 {
		return nil
	}
	at := fmt.Sprintf("%d/%d", min(m.cursor+1, n), n)
	ss := m.sessions()
	hits := len(m.Answer(MessagesID).Hits)
	switch {
	case m.Pickable():
	case n > len(ss.answer.Candidates)+hits:
		at = fmt.Sprintf("%d rows", n) // no row is highlighted
	default:
		at = fmt.Sprintf("%d sessions", n)
	}
	if ss.answer.More && m.fresh(ss) {
		// The source's limit cut the list: typing narrows it.
		if hits > 0 {
			return []string{fmt.Sprintf("%s · %d in messages · type to filter", at, hits), fmt.Sprintf("%s · %d in msgs", at, hits), at}
		}
		return []string{at + fmt.Sprintf(" · first %d · type to filter", len(ss.answer.Candidates)), at + " · type to filter", at}
	}
	if hits == 0 {
		return []string{at}
	}
	return []string{
		fmt.Sprintf("%s · %d in messages", at, hits),
		fmt.Sprintf("%s · %d in msgs", at, hits),
		at,
	}
}

// withPosition writes the position into the bottom border of the framed
// box, right-aligned with a stretch of border on either side, in the
// border's colours; the first form that fits is used. A frame without a
// bottom border shows none, and the box stays as it was.
func (m Model) withPosition(box string, g geometry) string {
	f := m.styles.Frame
	b, _, right, bottom, left := f.GetBorder()
	if !bottom || b.Bottom == "" {
		return box
	}
	lines := strings.Split(box, "\n")
	at := len(lines) - 1 - f.GetMarginBottom()
	if at < 0 {
		return box
	}
	line := lines[at]
	total := textutil.Width(line)
	start := f.GetMarginLeft()
	if left {
		start += textutil.Width(b.BottomLeft)
	}
	end := total - f.GetMarginRight()
	if right {
		end -= textutil.Width(b.BottomRight)
	}
	// An unset border colour is lipgloss.NoColor, which sets nothing.
	style := lipgloss.NewStyle().Foreground(f.GetBorderBottomForeground()).Background(f.GetBorderBottomBackground())
	for _, text := range m.position() {
		text = " " + text + " "
		tw := textutil.Width(text)
		if end-start < tw+2 {
			continue // keep a stretch of border on both sides
		}
		from := end - 1 - tw
		out := ansi.Cut(line, 0, from) + style.Render(text) + ansi.Cut(line, from+tw, total)
		if textutil.Width(out) != total {
			return box // a border the cut measures otherwise: leave it whole
		}
		lines[at] = out
		return strings.Join(lines, "\n")
	}
	return box
}

// textLine is a line of words inside the popup, kept one cell off the
// frame on both sides.
func (m Model) textLine(text string, style lipgloss.Style, w int) string {
	if w < 3 {
		return theme.Render(style, textutil.Fit(text, w))
	}
	return " " + theme.Render(style, textutil.Fit(text, w-2)) + " "
}

// maxTextLines is the most lines the status or the footer wraps over;
// what is longer still is cut, ending in "…".
const maxTextLines = 3

// wrapText breaks a status or footer text into the lines [Model.textLine]
// draws inside a popup innerW cells wide: at most n of them (and at most
// maxTextLines), the last cut when the text needs more.
func (m Model) wrapText(text string, innerW, n int) []string {
	w := innerW
	if w >= 3 {
		w -= 2 // textLine keeps one cell off the frame on both sides
	}
	// A warning's lines stand under its words, not under its sign.
	mark, indent := "", ""
	if rest, ok := strings.CutPrefix(text, warnSign); ok && w > 2*textutil.Width(warnSign) {
		mark, indent, text = warnSign, spaces(textutil.Width(warnSign)), rest
		w -= textutil.Width(warnSign)
	}
	lines := textutil.Wrap(text, w)
	if n = max(min(n, maxTextLines), 1); len(lines) > n {
		lines = append(lines[:n-1], strings.Join(lines[n-1:], " "))
	}
	for i := range lines {
		if i == 0 {
			lines[i] = mark + lines[i]
		} else {
			lines[i] = indent + lines[i]
		}
	}
	return lines
}

// warnSign starts a warning in the status or the footer.
const warnSign = "⚠ "

// status is the text, in its style, shown instead of rows when there are
// none to show (see [Model.statusLine]); after a pick asked for in vain
// it is a warning.
func (m Model) status() (string, lipgloss.Style, bool) {
	text, ok := m.statusLine()
	if !ok {
		return "", lipgloss.Style{}, false
	}
	style := m.styles.Status
	if m.sessions().answer.Err != nil {
		style = m.styles.Error
	}
	if m.nudged {
		text, style = warnSign+"nothing to mention: "+text, m.styles.Error
	}
	return text, style, true
}

// statusLine is the line shown instead of rows, when there are none to
// show: the search is slow, a source failed, or nothing matches.
func (m Model) statusLine() (string, bool) {
	ss := m.sessions()
	switch {
	case ss.pending && m.entries() == 0 && m.acceptOnArrival:
		return m.picking(), true
	case ss.pending && m.entries() == 0:
		return m.searching(), ss.slow
	case ss.pending:
		return "", false
	case ss.answer.Err != nil && m.otherEntries() == 0:
		return "couldn't list sessions: " + textutil.Inline(ss.answer.Err.Error()), true
	case m.entries() > 0:
		return "", false
	}
	return m.noRowsLine()
}

// noRowsLine is the status when the sessions have answered and no
// section shows a row.
func (m Model) noRowsLine() (string, bool) {
	hits, hosts, slow := m.Answer(MessagesID), false, false
	hitsPending, hostPending := false, false
	for i := range m.secs {
		switch s := &m.secs[i]; s.kind {
		case kindHits:
			hitsPending = s.pending
		case kindHost:
			hosts = true
			hostPending = hostPending || s.pending
			slow = slow || s.pending && s.slow
		}
	}
	switch {
	case (hitsPending || hostPending) && m.acceptOnArrival:
		return m.picking(), true
	case hitsPending:
		return "no title matches · searching messages for “" + textutil.Inline(m.query) + "”…", true
	case hostPending:
		return m.searching(), slow
	case hosts:
		return m.nothingMatches(), true
	case m.query == "":
		return "no other sessions yet", true
	case hits.Err != nil:
		return "no sessions match “" + textutil.Inline(m.query) + "”; couldn't search messages: " + textutil.Inline(hits.Err.Error()), true
	}
	return "no sessions match “" + textutil.Inline(m.query) + "”", true
}

// footer is the line under the rows that says what a pick will do or why
// it did nothing.
func (m Model) footer() (string, lipgloss.Style, bool) {
	st := m.styles
	warn := func(s string) (string, lipgloss.Style, bool) { return warnSign + s, st.Error, true }
	ss, hits := m.sessions(), m.sec(MessagesID)
	switch {
	case m.entries() == 0:
		return "", st.Status, false
	case m.acceptOnArrival:
		return m.picking(), st.Status, true
	case m.notice != "":
		return warn(m.notice)
	case ss.pending && ss.slow:
		return m.searching(), st.Status, true
	case ss.pending:
		return "", st.Status, false
	case !m.Pickable():
		if m.nudged {
			return warn("nothing to mention: " + m.why())
		}
		return "nothing to mention: " + m.why(), st.Status, true
	case hits != nil && hits.answer.Err != nil && !hits.pending:
		// The hits section's heading says it too, but rows above it may
		// push it out of sight.
		return warn("search in messages unavailable: " + textutil.Inline(hits.answer.Err.Error()))
	}
	return "", st.Status, false
}

func (m Model) picking() string {
	return "picking the first match for “" + textutil.Inline(m.query) + "”…"
}

func (m Model) searching() string {
	if m.query == "" {
		return "searching…"
	}
	return "searching “" + textutil.Inline(m.query) + "”…"
}

// why says why nothing can be picked, in the words of the popup.
func (m Model) why() string {
	if s, ok := m.statusLine(); ok || m.sessions().pending || m.anyPending() && s != "" {
		if m.sessions().pending {
			return m.searching()
		}
		return s
	}
	var reasons []string
	for i := range m.entries() {
		r, off := m.entryDisabled(i)
		if !off {
			continue
		}
		if r = textutil.Inline(r); r == "" {
			r = "unavailable"
		}
		if !slices.Contains(reasons, r) {
			reasons = append(reasons, r)
		}
		if len(reasons) == 3 {
			break
		}
	}
	if len(reasons) == 0 && m.entries() > 0 && m.firstRow() == 0 && !m.autoPickable(0) {
		// Rows that are picked only once highlighted (see Item.Manual).
		return "nothing matches “" + textutil.Inline(m.query) + "”"
	}
	if len(reasons) == 0 {
		return "no row is highlighted"
	}
	return strings.Join(reasons, " · ")
}
