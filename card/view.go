package card

import (
	"fmt"
	"slices"
	"strings"

	gansi "charm.land/glamour/v2/ansi"

	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/mention"
	"github.com/dshkit/mentions/sessionref"
)

// minWidth is the narrowest a card is laid out.
const minWidth = 10

// inner is the width inside the frame.
func (m Model) inner() int {
	return max(m.width-m.styles.Frame.GetHorizontalFrameSize(), 1)
}

// Height is the number of lines View returns: 1 for a card that could
// not be read, 2 collapsed, and expanded at most [Model.MaxHeight].
func (m Model) Height() int {
	switch {
	case m.malformed != nil:
		return 1 + m.styles.Frame.GetVerticalFrameSize()
	case !m.expanded:
		return 2 + m.styles.Frame.GetVerticalFrameSize()
	}
	h := 1 + m.vp.Height()
	if m.Scrollable() {
		h++
	}
	return h + m.styles.Frame.GetVerticalFrameSize()
}

// View renders the card: collapsed, a header and a capture summary;
// expanded, the header and the conversations, scrollable within the
// card's height. No line is wider than the card's width.
func (m Model) View() string {
	st := m.styles
	inner := m.inner()
	if m.malformed != nil {
		return st.Frame.Render(textutil.Fit(st.Warning.Render("⚠ referenced-session context that could not be read"), inner))
	}
	lines := []string{textutil.Fit(m.header(), inner)}
	if !m.expanded {
		lines = append(lines, textutil.Fit(m.summary(), inner))
		return st.Frame.Render(strings.Join(lines, "\n"))
	}
	lines = append(lines, m.vp.View())
	if m.Scrollable() {
		lines = append(lines, textutil.Fit(st.Meta.Render(m.scrollHint()), inner))
	}
	return st.Frame.Render(strings.Join(lines, "\n"))
}

// scrollHint is the scroll line of an expanded card, with the keys the
// KeyMap says.
func (m Model) scrollHint() string {
	s := fmt.Sprintf("── %d%% · ", int(m.vp.ScrollPercent()*100))
	up, down := m.keys.ScrollUp.Help().Key, m.keys.ScrollDown.Help().Key
	switch {
	case up != "" && down != "":
		s += up + "/" + down + " or "
	case up+down != "":
		s += up + down + " or "
	}
	return s + "wheel to scroll"
}

func (m Model) header() string {
	st := m.styles
	n := len(m.record.References)
	glyph := "▸"
	if m.expanded {
		glyph = "▾"
	}
	noun := "sessions"
	if n == 1 {
		noun = "session"
	}
	labels := make([]string, 0, n)
	for _, r := range m.record.References {
		labels = append(labels, m.labelOf(r.SessionID, r.Label))
	}
	return st.Title.Render(fmt.Sprintf("%s Referenced %d %s:", glyph, n, noun)) + " " + strings.Join(labels, st.Meta.Render(" · "))
}

// labelOf renders "@label" and, when the host told the card the
// session's current title and the label the message used is not that
// title made a label ([mention.Label]: made safe and cut), the title
// beside it.
func (m Model) labelOf(id, label string) string {
	st := m.styles
	// A label that is a title starting with '@' is shown with one '@'.
	out := st.Label.Render("@" + strings.TrimPrefix(textutil.Inline(label), "@"))
	if m.titles == nil {
		return out
	}
	if title, ok := m.titles(id); ok && title != label && mention.Label(title) != label {
		out += st.Meta.Render(" (title: ") + textutil.Inline(title) + st.Meta.Render(")")
	}
	return out
}

// summary is the per-source capture line: id, kept of total, omitted
// messages and bytes, and the flags. An id other than a UUID is whole
// when the line fits, else in a short form that still tells the ids
// apart.
func (m Model) summary() string {
	ids := make([]string, len(m.record.References))
	for i, r := range m.record.References {
		ids[i] = textutil.Inline(r.SessionID)
		if textutil.IDWidth(r.SessionID) < textutil.Width(ids[i]) {
			ids[i] = textutil.ShortID(r.SessionID) // a UUID: its first 8, as git shortens
		}
	}
	if s := m.summaryWith(ids); textutil.Width(s) <= m.inner() {
		return s
	}
	short, _ := textutil.ShortIDs(m.SessionIDs(), textutil.ShortIDWidth)
	return m.summaryWith(short)
}

func (m Model) summaryWith(ids []string) string {
	st := m.styles
	parts := make([]string, 0, len(m.record.References))
	for i, r := range m.record.References {
		s := ids[i] + " " + fmt.Sprintf("%d/%d kept", r.RetainedMessages, r.OriginalMessages)
		if r.OmittedMessages > 0 || r.OmittedBytes > 0 {
			s += fmt.Sprintf(", %d omitted (%s)", r.OmittedMessages, textutil.Bytes(r.OmittedBytes))
		}
		flags := flagsOf(r)
		out := st.Meta.Render(s)
		if len(flags) > 0 {
			out += st.Meta.Render(", ") + st.Flag.Render(strings.Join(flags, ", "))
		}
		parts = append(parts, out)
	}
	return "  " + strings.Join(parts, st.Meta.Render(" │ "))
}

// flagsOf is what a card flags of a capture: "compacted" and
// "truncated", in that order, when they apply.
func flagsOf(r sessionref.ReferenceRecord) []string {
	var flags []string
	if r.Compacted {
		flags = append(flags, "compacted")
	}
	if r.Truncated {
		flags = append(flags, "truncated")
	}
	return flags
}

// flagged styles a line of " · "-joined phrases: the flags in the Flag
// style, the rest in Meta.
func (m Model) flagged(line string, flags []string) string {
	st := m.styles
	parts := strings.Split(line, " · ")
	for i, p := range parts {
		if slices.Contains(flags, p) {
			parts[i] = st.Flag.Render(p)
		} else {
			parts[i] = st.Meta.Render(p)
		}
	}
	return strings.Join(parts, st.Meta.Render(" · "))
}

// renderBody puts the conversations into the viewport: the Markdown of
// every turn is rendered once per width and styles, and the lines naming
// each session are added around it, so new titles cost no rendering. The
// scroll position is kept where it still exists.
func (m *Model) renderBody() {
	if m.bodyOK {
		return
	}
	m.bodyOK = true
	inner := m.inner()
	if m.turnsW != inner {
		m.turns, m.turnsW = nil, 0
		if t, ok := m.cachedTurns(inner); ok {
			m.turns, m.turnsW = t, inner
		}
	}
	st := m.styles
	var lines []string
	add := func(s string) { lines = append(lines, fitLines(s, inner)...) }
	t := 0
	for i, s := range m.snaps {
		rec := m.record.References[i]
		add(m.sessionLine(s, inner))
		kept := []string{
			fmt.Sprintf("%d of %d messages kept", rec.RetainedMessages, rec.OriginalMessages),
			fmt.Sprintf("%d omitted (%s)", rec.OmittedMessages, textutil.Bytes(rec.OmittedBytes)),
		}
		flags := flagsOf(rec)
		for _, l := range phrases(append(kept, flags...), " · ", inner-3) {
			add(st.Meta.Render("   ") + m.flagged(l, flags))
		}
		if m.turns == nil {
			if len(s.Conversation) > 0 {
				add(st.Meta.Render("   rendering the conversation…"))
			}
			continue
		}
		for _, turn := range s.Conversation {
			role := "You"
			if turn.Role == sessionref.RoleAssistant {
				role = "Assistant"
			}
			add(st.Role.Render(role + ":"))
			lines = append(lines, m.turns[t]...)
			t++
		}
	}
	off := m.vp.YOffset()
	m.vp.SetWidth(inner)
	m.vp.SetContentLines(lines)
	m.vp.SetYOffset(off)
}

// renderTurns renders every turn's Markdown at inner width, as lines no
// wider than that. It reads only its arguments: it runs in a Cmd.
func renderTurns(snaps []sessionref.Snapshot, style gansi.StyleConfig, inner int) [][]string {
	md := newMarkdownRenderer(style, max(inner-2, 1))
	turns := [][]string{}
	for _, s := range snaps {
		for _, turn := range s.Conversation {
			turns = append(turns, fitLines(md.render(turn.Text), inner))
		}
	}
	return turns
}

// fitLines splits s into lines and hard-wraps any line wider than w
// cells, so the viewport never has to wrap (which would make the card
// taller than it says).
func fitLines(s string, w int) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		out = append(out, textutil.HardWrap(l, w)...)
	}
	return out
}

// sessionLine is the line that names a session above its conversation:
// its label, its id and its folder (under the home as "~/…", as the
// picker shows it). When the line is too wide the id gives way to its
// short form first, then the middle of the folder, then the end.
func (m Model) sessionLine(s sessionref.Snapshot, inner int) string {
	st := m.styles
	cwd := "(no cwd)"
	if s.Cwd != nil {
		cwd = textutil.ShortenHome(textutil.Inline(*s.Cwd), m.home)
	}
	head := st.Meta.Render("── ") + m.labelOf(s.SessionID, s.Label)
	id := textutil.Inline(s.SessionID)
	line := func() string { return head + st.Meta.Render(" · "+id+" · "+cwd) }
	if textutil.Width(line()) > inner {
		id = textutil.ShortID(s.SessionID)
	}
	if over := textutil.Width(line()) - inner; over > 0 {
		cwd = textutil.Middle(cwd, max(textutil.Width(cwd)-over, 12))
	}
	return textutil.Fit(line(), inner)
}

// phrases lays out parts joined by sep in lines of at most w cells,
// breaking only between parts (a part wider than a line is wrapped at
// its spaces), so "0 omitted (113.6 KiB)" is never split inside.
func phrases(parts []string, sep string, w int) []string {
	w = max(w, 1)
	var lines []string
	cur := ""
	for _, p := range parts {
		switch {
		case cur == "":
			cur = p
		case textutil.Width(cur+sep+p) <= w:
			cur += sep + p
		default:
			lines = append(lines, cur)
			cur = p
		}
		if textutil.Width(cur) > w {
			wrapped := textutil.Wrap(cur, w)
			lines = append(lines, wrapped[:len(wrapped)-1]...)
			cur = wrapped[len(wrapped)-1]
		}
	}
	return append(lines, cur)
}
