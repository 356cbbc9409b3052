package card

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/glamour/v2"
	"charm.land/lipgloss/v2"

	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/sessionref"
)

// KeyMap is the card's bindings. It implements help.KeyMap.
type KeyMap struct {
	Toggle     key.Binding
	ScrollUp   key.Binding
	ScrollDown key.Binding
}

// DefaultKeyMap returns the default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Toggle:     key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "expand/collapse reference")),
		ScrollUp:   key.NewBinding(key.WithKeys("shift+up"), key.WithHelp("shift+↑", "scroll reference")),
		ScrollDown: key.NewBinding(key.WithKeys("shift+down"), key.WithHelp("shift+↓", "scroll reference")),
	}
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Toggle} }

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Toggle, k.ScrollUp, k.ScrollDown}}
}

// Styles is how a card draws. Glyphs and words carry the meaning; colour
// only adds to it, so [PlainStyles] loses nothing.
type Styles struct {
	Frame    lipgloss.Style
	Title    lipgloss.Style
	Label    lipgloss.Style
	Meta     lipgloss.Style
	Flag     lipgloss.Style
	Role     lipgloss.Style
	Warning  lipgloss.Style
	Markdown string // a glamour standard style: "dark", "light", "notty"
}

// DefaultStyles returns styles for a dark or light terminal background.
func DefaultStyles(isDark bool) Styles {
	ld := lipgloss.LightDark(isDark)
	accent := ld(lipgloss.Color("#5A3FC0"), lipgloss.Color("#A28CFF"))
	dim := ld(lipgloss.Color("#6B6B6B"), lipgloss.Color("#8A8A8A"))
	md := "light"
	if isDark {
		md = "dark"
	}
	return Styles{
		Frame:    lipgloss.NewStyle().Border(lipgloss.NormalBorder(), false, false, false, true).BorderForeground(accent).PaddingLeft(1),
		Title:    lipgloss.NewStyle().Foreground(accent).Bold(true),
		Label:    lipgloss.NewStyle().Bold(true),
		Meta:     lipgloss.NewStyle().Foreground(dim),
		Flag:     lipgloss.NewStyle().Foreground(ld(lipgloss.Color("#8A5A00"), lipgloss.Color("#E5B567"))),
		Role:     lipgloss.NewStyle().Foreground(accent).Bold(true),
		Warning:  lipgloss.NewStyle().Foreground(ld(lipgloss.Color("#B00020"), lipgloss.Color("#FF6B6B"))),
		Markdown: md,
	}
}

// PlainStyles returns styles without colour, for NO_COLOR terminals and
// screen readers: the same glyphs and words, no colour at all.
func PlainStyles() Styles {
	return Styles{
		Frame:    lipgloss.NewStyle().Border(lipgloss.NormalBorder(), false, false, false, true).PaddingLeft(1),
		Title:    lipgloss.NewStyle().Bold(true),
		Label:    lipgloss.NewStyle().Bold(true),
		Meta:     lipgloss.NewStyle(),
		Flag:     lipgloss.NewStyle(),
		Role:     lipgloss.NewStyle().Bold(true),
		Warning:  lipgloss.NewStyle(),
		Markdown: "notty",
	}
}

// ToggledMsg is sent when a card is expanded or collapsed.
type ToggledMsg struct{ Expanded bool }

// DefaultMaxHeight is the most lines an expanded card shows at once.
const DefaultMaxHeight = 16

// Model is the reference card of one context message. It holds only what
// the durable message holds: its source record and its prompt. Nothing is
// ever read from the source sessions again, so later changes to them
// cannot change the card.
type Model struct {
	// KeyMap is the card's bindings.
	KeyMap KeyMap
	// Styles is how it draws.
	Styles Styles

	record    sessionref.SourceRecord
	snaps     []sessionref.Snapshot
	malformed error

	expanded  bool
	width     int
	maxHeight int
	vp        viewport.Model
	bodyW     int // the width the body was rendered for
}

// Option configures a Model.
type Option func(*Model)

// WithStyles sets the styles.
func WithStyles(s Styles) Option { return func(m *Model) { m.Styles = s } }

// WithMaxHeight caps the expanded card's height.
func WithMaxHeight(n int) Option { return func(m *Model) { m.maxHeight = max(n, 3) } }

// WithWidth sets the width in cells.
func WithWidth(w int) Option { return func(m *Model) { m.width = w } }

// New returns a collapsed card for a context message.
func New(msg *sessionref.Message, opts ...Option) Model {
	if msg == nil {
		return newCard(sessionref.SourceRecord{}, "", errors.New("no context message"), opts)
	}
	return newCard(msg.Source, msg.Prompt(), nil, opts)
}

// FromEvent returns a collapsed card for a stored context message (a
// user/message whose source kind is session-reference). A malformed one
// gives a card that says so rather than an error.
func FromEvent(ev sessionref.Event, opts ...Option) Model {
	rec, err := sessionref.RecordOf(ev.Source)
	prompt := ""
	if len(ev.Content) > 0 {
		prompt = ev.Content[0].Text
	}
	return newCard(rec, prompt, err, opts)
}

func newCard(rec sessionref.SourceRecord, prompt string, err error, opts []Option) Model {
	m := Model{KeyMap: DefaultKeyMap(), Styles: DefaultStyles(true), record: rec, width: 80, maxHeight: DefaultMaxHeight}
	if err == nil {
		m.snaps, err = sessionref.ParsePrompt(prompt)
	}
	if err == nil && len(m.snaps) != len(rec.References) {
		err = fmt.Errorf("%d snapshots for %d references", len(m.snaps), len(rec.References))
	}
	m.malformed = err
	for _, o := range opts {
		o(&m)
	}
	m.vp = viewport.New()
	m.vp.KeyMap = viewport.KeyMap{} // the host's keys scroll it, not the viewport's
	return m
}

// Record returns the source record the card shows.
func (m Model) Record() sessionref.SourceRecord { return m.record }

// Snapshots returns the captured conversations.
func (m Model) Snapshots() []sessionref.Snapshot { return m.snaps }

// Expanded reports whether the card shows the conversations.
func (m Model) Expanded() bool { return m.expanded }

// SetWidth sets the width in cells; an expanded card re-renders its body.
func (m *Model) SetWidth(w int) {
	if max(w, 10) == m.width {
		return
	}
	m.width = max(w, 10)
	if m.expanded {
		m.renderBody()
	}
}

// Toggle expands or collapses the card.
func (m *Model) Toggle() {
	m.expanded = !m.expanded
	if m.expanded {
		m.renderBody()
	}
}

// Update handles the toggle and scroll keys and the mouse wheel; the host
// sends them to the card it has focused or that is under the pointer.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, m.KeyMap.Toggle):
			m.Toggle()
			exp := m.expanded
			return m, func() tea.Msg { return ToggledMsg{Expanded: exp} }
		case m.expanded && key.Matches(msg, m.KeyMap.ScrollUp):
			m.vp.ScrollUp(1)
		case m.expanded && key.Matches(msg, m.KeyMap.ScrollDown):
			m.vp.ScrollDown(1)
		}
	case tea.MouseWheelMsg:
		if m.expanded {
			switch msg.Button {
			case tea.MouseWheelUp:
				m.vp.ScrollUp(2)
			case tea.MouseWheelDown:
				m.vp.ScrollDown(2)
			}
		}
	case tea.MouseClickMsg:
		if msg.Button == tea.MouseLeft {
			m.Toggle()
			exp := m.expanded
			return m, func() tea.Msg { return ToggledMsg{Expanded: exp} }
		}
	}
	return m, nil
}

// Height is the number of lines View returns.
func (m Model) Height() int { return lipgloss.Height(m.View()) }

// View renders the card: collapsed, one or two lines; expanded, the
// conversations too, scrollable within the card's height cap.
func (m Model) View() string {
	st := m.Styles
	inner := max(m.width-2, 8) // the frame's bar and padding
	if m.malformed != nil {
		return st.Frame.Render(textutil.Fit(st.Warning.Render("⚠ referenced-session context that could not be read"), inner))
	}
	lines := []string{textutil.Fit(m.header(), inner), textutil.Fit(m.summary(), inner)}
	if m.expanded {
		lines = lines[:1]
		body := m.vp.View()
		if m.vp.TotalLineCount() > m.vp.Height() {
			body += "\n" + st.Meta.Render(fmt.Sprintf("── %d%% · shift+↑/↓ or wheel to scroll", int(m.vp.ScrollPercent()*100)))
		}
		lines = append(lines, body)
	}
	return st.Frame.Render(strings.Join(lines, "\n"))
}

func (m Model) header() string {
	st := m.Styles
	n := len(m.record.References)
	glyph := "▸"
	if m.expanded {
		glyph = "▾"
	}
	noun := "sessions"
	if n == 1 {
		noun = "session"
	}
	var labels []string
	for _, r := range m.record.References {
		labels = append(labels, st.Label.Render("@"+textutil.Inline(r.Label)))
	}
	return st.Title.Render(fmt.Sprintf("%s Referenced %d %s:", glyph, n, noun)) + " " + strings.Join(labels, st.Meta.Render(" · "))
}

// summary is the per-source capture line: short id, kept of total,
// omitted messages and bytes, and the flags.
func (m Model) summary() string {
	st := m.Styles
	var parts []string
	for _, r := range m.record.References {
		s := shortID(r.SessionID) + " " + fmt.Sprintf("%d/%d kept", r.RetainedMessages, r.OriginalMessages)
		if r.OmittedMessages > 0 || r.OmittedBytes > 0 {
			s += fmt.Sprintf(", %d omitted (%s)", r.OmittedMessages, HumanBytes(r.OmittedBytes))
		}
		var flags []string
		if r.Compacted {
			flags = append(flags, "compacted")
		}
		if r.Truncated {
			flags = append(flags, "truncated")
		}
		out := st.Meta.Render(s)
		if len(flags) > 0 {
			out += st.Meta.Render(", ") + st.Flag.Render(strings.Join(flags, ", "))
		}
		parts = append(parts, out)
	}
	return "  " + strings.Join(parts, st.Meta.Render(" │ "))
}

// renderBody renders the conversations into the viewport, once per width.
func (m *Model) renderBody() {
	inner := max(m.width-2, 8)
	if m.bodyW == inner && m.vp.TotalLineCount() > 0 {
		return
	}
	m.bodyW = inner
	st := m.Styles
	r, err := glamour.NewTermRenderer(glamour.WithStandardStyle(st.Markdown), glamour.WithWordWrap(max(inner-4, 10)))
	var b strings.Builder
	for i, s := range m.snaps {
		rec := m.record.References[i]
		cwd := "(no cwd)"
		if s.Cwd != nil {
			cwd = textutil.Inline(*s.Cwd)
		}
		b.WriteString(textutil.Fit(st.Label.Render("── @"+textutil.Inline(s.Label))+st.Meta.Render(" · "+textutil.Inline(s.SessionID)+" · "+cwd), inner) + "\n")
		b.WriteString(st.Meta.Render(fmt.Sprintf("   %d of %d messages kept · %d omitted (%s)", rec.RetainedMessages, rec.OriginalMessages, rec.OmittedMessages, HumanBytes(rec.OmittedBytes))) + "\n")
		for _, turn := range s.Conversation {
			role := "You"
			if turn.Role == sessionref.RoleAssistant {
				role = "Assistant"
			}
			b.WriteString(st.Role.Render(role+":") + "\n")
			text := textutil.Block(turn.Text)
			out := text
			// Markdown would swallow "<tag>" as HTML and hide it; the card
			// shows what the model got, so '<' stays a character.
			text = strings.ReplaceAll(text, "<", "&lt;")
			if err == nil {
				if rendered, rerr := r.Render(text); rerr == nil {
					out = strings.Trim(rendered, "\n")
				}
			}
			b.WriteString(out + "\n")
		}
	}
	content := strings.TrimRight(b.String(), "\n")
	m.vp.SetWidth(inner)
	m.vp.SetContent(content)
	m.vp.SetHeight(min(lipgloss.Height(content), m.maxHeight))
	m.vp.GotoTop()
}

func shortID(id string) string {
	id = textutil.Inline(id)
	if r := []rune(id); len(r) > 8 {
		return string(r[:8])
	}
	return id
}

// HumanBytes renders a byte count in binary units: 512 B, 6.1 KiB, 2.0 MiB.
func HumanBytes(n int) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
