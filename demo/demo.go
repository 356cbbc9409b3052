package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dshkit/mentions/card"
	"github.com/dshkit/mentions/composer"
	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

// Options configure the demo.
type Options struct {
	// Store holds the current session; the demo appends to it.
	Store Store
	// Others, when set, holds the sessions that can be referenced besides
	// those of Store (real DeepSeek Harness logs, say).
	Others sessionref.SessionQuery
	// Current is the session being written in.
	Current sessionref.Target
	// Title is shown in the header.
	Title string
	// StoreName says where sessions come from, for the header.
	StoreName string
	// Config is the resolver's configuration (budget, limits).
	Config sessionref.Config
	// NoMouse turns mouse reporting off; Inline keeps the normal screen.
	NoMouse, Inline bool
	// Now and Home make ages and ~ paths reproducible in tests.
	Now  func() time.Time
	Home string
	// Plain draws without colour.
	Plain bool
}

// KeyMap is the demo's own keys; the composer and picker have theirs.
type KeyMap struct {
	Quit        key.Binding
	ToggleCard  key.Binding
	Inspect     key.Binding
	ScrollUp    key.Binding
	ScrollDown  key.Binding
	Help        key.Binding
	InspectBack key.Binding
}

// DefaultKeyMap returns the demo's default keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Quit:        key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
		ToggleCard:  key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "expand card")),
		Inspect:     key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "what the model gets")),
		ScrollUp:    key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup/pgdn", "scroll")),
		ScrollDown:  key.NewBinding(key.WithKeys("pgdown")),
		Help:        key.NewBinding(key.WithKeys("f1"), key.WithHelp("f1", "more keys")),
		InspectBack: key.NewBinding(key.WithKeys("esc", "ctrl+t"), key.WithHelp("esc", "back")),
	}
}

// transcriptMsg carries the current session's surface, read in a Cmd.
type transcriptMsg struct {
	surface sessionref.Surface
	err     error
}

// Model is the demo: a transcript of the current session rebuilt from the
// store, a reference card above each message that referenced sessions,
// the composer with its picker, an inspector and a help bar.
type Model struct {
	opts     Options
	keys     KeyMap
	store    Store
	resolver *sessionref.Resolver
	comp     composer.Model
	help     help.Model
	vp       viewport.Model
	inspVP   viewport.Model

	w, h      int
	events    []sessionref.Event
	cards     map[int64]card.Model // by the context event's seq
	cardSpans []cardSpan           // where cards are in the transcript
	loadErr   error
	inspect   bool
	fullHelp  bool
	sentCount int
	follow    bool  // keep the transcript scrolled to the bottom
	dark      *bool // the terminal's background, once it has said
	laidOut   layoutKey
}

// layoutKey is what the layout depends on.
type layoutKey struct {
	w, h, composerH int
	fullHelp        bool
}

type cardSpan struct {
	seq        int64
	start, end int // transcript lines [start, end)
}

// New builds the demo over its options.
func New(o Options) (Model, error) {
	if o.Store == nil {
		return Model{}, fmt.Errorf("demo: a store is required")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	var q sessionref.SessionQuery = o.Store
	if o.Others != nil {
		q = union{local: o.Store, refs: o.Others}
	}
	r, err := sessionref.NewResolver(q, o.Config)
	if err != nil {
		return Model{}, err
	}
	pickOpts := []picker.Option{picker.WithClock(o.Now)}
	if o.Home != "" {
		pickOpts = append(pickOpts, picker.WithHome(o.Home))
	}
	compOpts := []composer.Option{composer.WithBudget(r.Config().MaxReferenceBytes), composer.WithMaxReferences(r.Config().MaxReferences)}
	if o.Plain {
		pickOpts = append(pickOpts, picker.WithStyles(plainPickerStyles()))
		compOpts = append(compOpts, composer.WithStyles(plainComposerStyles()))
	}
	p := picker.New(picker.ResolverSource(r, o.Current, sessionref.DefaultCandidateLimit), pickOpts...)
	m := Model{
		opts:     o,
		keys:     DefaultKeyMap(),
		store:    o.Store,
		resolver: r,
		comp:     composer.New(p, composer.ResolverPreparer(r, o.Current), compOpts...),
		help:     help.New(),
		vp:       viewport.New(),
		inspVP:   viewport.New(),
		cards:    map[int64]card.Model{},
		w:        80,
		h:        24,
		follow:   true,
	}
	m.vp.KeyMap = viewport.KeyMap{}
	m.inspVP.KeyMap = viewport.KeyMap{}
	m.vp.MouseWheelEnabled = false
	m.layout()
	return m, nil
}

// Init loads the transcript and asks the terminal for its background, to
// pick dark or light styles.
func (m Model) Init() tea.Cmd { return tea.Batch(m.load(nil), tea.RequestBackgroundColor) }

// load appends evs to the current session (if any) and reads its surface
// back, in a Cmd: the store may be slow, and Update never waits for it.
func (m Model) load(evs []sessionref.Event) tea.Cmd {
	store, id := m.store, m.opts.Current.ID
	return func() tea.Msg {
		for _, ev := range evs {
			if _, err := store.Append(id, ev); err != nil {
				return transcriptMsg{err: err}
			}
		}
		s, err := store.ReadSurface(context.Background(), id)
		return transcriptMsg{surface: s, err: err}
	}
}

// Update routes messages: the demo's keys first, then the composer.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.layout()
		m.rebuild()
		if m.inspect {
			m.renderInspector()
		}
		var cmd tea.Cmd
		m.comp, cmd = m.comp.Update(msg)
		return m, cmd
	case tea.BackgroundColorMsg:
		if !m.opts.Plain {
			dark := msg.IsDark()
			m.dark = &dark
			m.comp.SetStyles(composer.DefaultStyles(dark))
			m.comp.SetPickerStyles(picker.DefaultStyles(dark))
			m.cards = map[int64]card.Model{} // re-made with the new styles, expansion aside
			m.rebuild()
		}
		return m, nil
	case transcriptMsg:
		m.loadErr = msg.err
		if msg.err == nil {
			m.events = msg.surface.Events
		}
		m.rebuild()
		return m, nil
	case composer.SubmittedMsg:
		m.sentCount++
		return m, m.load(m.messagesFor(msg))
	case tea.KeyPressMsg:
		if cmd, ok := m.handleKey(msg); ok {
			return m, cmd
		}
	case tea.MouseMsg:
		if cmd, ok := m.handleMouse(msg); ok {
			return m, cmd
		}
	}
	var cmd tea.Cmd
	m.comp, cmd = m.comp.Update(msg)
	m.layout()
	return m, cmd
}

// messagesFor is what a send appends: the context (the untrusted
// snapshot), the direct message, and the demo's stand-in reply.
func (m Model) messagesFor(s composer.SubmittedMsg) []sessionref.Event {
	var evs []sessionref.Event
	if s.Context != nil {
		if ev, err := s.Context.Event(); err == nil {
			evs = append(evs, ev)
		}
	}
	evs = append(evs, sessionref.Event{Type: sessionref.EventUserMessage, Source: sessionref.Source{Kind: sessionref.SourceUser}, Content: s.Content})
	return append(evs, sessionref.Event{Type: sessionref.EventAssistantMessage, Source: sessionref.Source{Kind: sessionref.SourceModel, Plugin: ""},
		Content: []sessionref.Block{sessionref.TextBlock(standIn(s))}})
}

// standIn is the demo's reply: no model runs here, and it says so.
func standIn(s composer.SubmittedMsg) string {
	if s.Context == nil {
		return "[demo stand-in, no model] Message received. Type @ to reference another session."
	}
	var parts []string
	for _, r := range s.Context.Source.References {
		p := fmt.Sprintf("@%s (%d of %d messages", r.Label, r.RetainedMessages, r.OriginalMessages)
		if r.Truncated {
			p += ", truncated"
		}
		parts = append(parts, p+")")
	}
	return "[demo stand-in, no model] A model would now answer with the snapshot of " + strings.Join(parts, ", ") +
		" as untrusted background. Press ctrl+t to see exactly what it would receive."
}

func (m *Model) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Quit):
		return tea.Quit, true
	case m.inspect:
		switch {
		case key.Matches(msg, k.InspectBack):
			m.inspect = false
		case key.Matches(msg, k.ScrollUp):
			m.inspVP.PageUp()
		case key.Matches(msg, k.ScrollDown):
			m.inspVP.PageDown()
		case msg.Code == tea.KeyUp:
			m.inspVP.ScrollUp(1)
		case msg.Code == tea.KeyDown:
			m.inspVP.ScrollDown(1)
		}
		return nil, true
	case key.Matches(msg, k.Inspect):
		m.inspect = true
		m.renderInspector()
		return nil, true
	case key.Matches(msg, k.ToggleCard):
		if seq, ok := m.lastCard(); ok {
			m.toggleCard(seq)
		}
		return nil, true
	case key.Matches(msg, k.Help):
		m.fullHelp = !m.fullHelp
		m.layout()
		return nil, true
	case key.Matches(msg, k.ScrollUp) && !m.comp.Picker().IsOpen():
		m.vp.PageUp()
		m.follow = m.vp.AtBottom()
		return nil, true
	case key.Matches(msg, k.ScrollDown) && !m.comp.Picker().IsOpen():
		m.vp.PageDown()
		m.follow = m.vp.AtBottom()
		return nil, true
	}
	return nil, false
}

func (m *Model) handleMouse(msg tea.MouseMsg) (tea.Cmd, bool) {
	mouse := msg.Mouse()
	if m.inspect {
		if w, ok := msg.(tea.MouseWheelMsg); ok {
			if w.Button == tea.MouseWheelUp {
				m.inspVP.ScrollUp(3)
			} else if w.Button == tea.MouseWheelDown {
				m.inspVP.ScrollDown(3)
			}
		}
		return nil, true
	}
	if p := m.comp.Picker(); p.IsOpen() && p.Rect().Contains(mouse.X, mouse.Y) {
		return nil, false // the composer passes it to the picker
	}
	top := headerH
	if mouse.Y < top || mouse.Y >= top+m.vp.Height() {
		return nil, false
	}
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		if msg.Button == tea.MouseWheelUp {
			m.vp.ScrollUp(3)
		} else if msg.Button == tea.MouseWheelDown {
			m.vp.ScrollDown(3)
		}
		m.follow = m.vp.AtBottom()
		return nil, true
	case tea.MouseClickMsg:
		line := mouse.Y - top + m.vp.YOffset()
		for _, s := range m.cardSpans {
			if line >= s.start && line < s.end {
				m.toggleCard(s.seq)
				return nil, true
			}
		}
		return nil, true
	}
	return nil, true
}

// toggleCard expands or collapses a card and scrolls its top into view.
func (m *Model) toggleCard(seq int64) {
	c := m.cards[seq]
	c.Toggle()
	m.cards[seq] = c
	m.follow = false
	m.rebuild()
	for _, s := range m.cardSpans {
		if s.seq == seq {
			if s.start < m.vp.YOffset() || s.end > m.vp.YOffset()+m.vp.Height() {
				m.vp.SetYOffset(s.start)
			}
			break
		}
	}
	m.follow = m.vp.AtBottom()
}

func (m Model) lastCard() (int64, bool) {
	if len(m.cardSpans) == 0 {
		return 0, false
	}
	return m.cardSpans[len(m.cardSpans)-1].seq, true
}

const headerH = 1

// layout sizes the transcript to what the composer and help leave. It
// runs after every message (a mouse motion included), so it does nothing
// unless a size it depends on changed.
func (m *Model) layout() {
	key := layoutKey{m.w, m.h, m.comp.Height(), m.fullHelp}
	if key == m.laidOut {
		return
	}
	m.laidOut = key
	m.comp.SetWidth(m.w)
	m.help.SetWidth(m.w)
	helpH := 1 // the short help is one line
	if m.fullHelp {
		helpH = lipgloss.Height(m.helpView())
	}
	vpH := max(m.h-headerH-m.comp.Height()-helpH, 1)
	m.vp.SetWidth(m.w)
	m.vp.SetHeight(vpH)
	m.comp.SetOrigin(0, headerH+vpH)
	m.inspVP.SetWidth(m.w)
	m.inspVP.SetHeight(max(m.h-2, 1))
	if m.follow {
		m.vp.GotoBottom()
	}
}

// rebuild renders the transcript from the surface: a context message
// becomes a card above the message that cited it.
func (m *Model) rebuild() {
	st := transcriptStyles(m.opts.Plain)
	var lines []string
	m.cardSpans = m.cardSpans[:0]
	width := max(m.w-2, 10)
	add := func(s string) { lines = append(lines, strings.Split(s, "\n")...) }
	if m.loadErr != nil {
		add(st.err.Render("✗ couldn't read this session: " + textutil.Inline(m.loadErr.Error())))
	}
	if len(m.events) == 0 && m.loadErr == nil {
		add(st.meta.Render(textutil.Fit("No messages yet. Type @ to reference another session, then Enter to send.", m.w)))
	}
	for _, ev := range m.events {
		switch {
		case ev.Type == sessionref.EventUserMessage && ev.Source.Kind == sessionref.SourceSessionReference:
			seq := int64(-1)
			if ev.Seq != nil {
				seq = *ev.Seq
			}
			c, ok := m.cards[seq]
			cardOpts := []card.Option{card.WithHeight(1 << 20)}
			switch {
			case m.opts.Plain:
				cardOpts = append(cardOpts, card.WithStyles(card.PlainStyles()))
			case m.dark != nil:
				cardOpts = append(cardOpts, card.WithStyles(card.DefaultStyles(*m.dark)))
			}
			if !ok {
				c = card.FromEvent(ev, cardOpts...)
			}
			c.SetWidth(m.w)
			m.cards[seq] = c
			lines = append(lines, "")
			start := len(lines)
			add(c.View())
			m.cardSpans = append(m.cardSpans, cardSpan{seq: seq, start: start, end: len(lines)})
		case ev.Type == sessionref.EventUserMessage && ev.Source.Kind == sessionref.SourceUser:
			if len(m.cardSpans) == 0 || m.cardSpans[len(m.cardSpans)-1].end != len(lines) {
				lines = append(lines, "")
			}
			add(st.you.Render("You"))
			add(st.body.Width(width).Render(textutil.Block(textOf(ev))))
		case ev.Type == sessionref.EventAssistantMessage:
			lines = append(lines, "")
			add(st.bot.Render("Assistant") + st.meta.Render(" · demo stand-in"))
			add(st.body.Width(width).Render(textutil.Block(textOf(ev))))
		}
	}
	m.vp.SetContentLines(lines)
	if m.follow {
		m.vp.GotoBottom()
	}
}

func textOf(ev sessionref.Event) string {
	var parts []string
	for _, b := range ev.Content {
		if b.Type == sessionref.BlockText {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// renderInspector shows the last message exactly as the model gets it:
// the context message (untrusted snapshot) then the direct message.
func (m *Model) renderInspector() {
	st := transcriptStyles(m.opts.Plain)
	ctxAt := -1
	for i := len(m.events) - 1; i >= 0; i-- {
		if m.events[i].Source.Kind == sessionref.SourceSessionReference {
			ctxAt = i
			break
		}
	}
	var b strings.Builder
	if ctxAt < 0 || ctxAt+1 >= len(m.events) {
		b.WriteString("No message with referenced sessions yet.\nMention a session with @ and send it; this view then shows the two user-role\nmessages the model receives.")
		m.inspVP.SetContent(b.String())
		return
	}
	ctx, direct := m.events[ctxAt], m.events[ctxAt+1]
	prompt := textOf(ctx)
	budget := m.resolver.Config().MaxReferenceBytes
	fmt.Fprintf(&b, "%s\n\n", st.you.Render("What the model receives for the last message: two consecutive user-role messages"))
	fmt.Fprintf(&b, "%s\n", st.bot.Render(fmt.Sprintf("── message 1 of 2 · role user · source session-reference · %d bytes", len(prompt))))
	rec, _ := sessionref.RecordOf(ctx.Source)
	var objs []json.RawMessage
	if _, body, ok := strings.Cut(prompt, sessionref.ContextOpenTag+"\n"); ok {
		_ = json.Unmarshal([]byte(strings.TrimSuffix(body, sessionref.PromptSuffix)), &objs)
	}
	for i, o := range objs {
		label := ""
		if i < len(rec.References) {
			label = rec.References[i].Label
		}
		fmt.Fprintf(&b, "   @%s: %d of %d bytes (%.1f%% of the budget)\n", textutil.Inline(label), len(o), budget, 100*float64(len(o))/float64(budget))
	}
	b.WriteString("\n" + textutil.Block(prompt) + "\n\n")
	fmt.Fprintf(&b, "%s\n", st.bot.Render(fmt.Sprintf("── message 2 of 2 · role user · the direct message · %d bytes", len(textOf(direct)))))
	b.WriteString(textutil.Block(textOf(direct)))
	m.inspVP.SetContent(lipgloss.NewStyle().Width(max(m.w, 10)).Render(b.String()))
	m.inspVP.GotoTop()
}

// View draws the screen, with the picker popup on top.
func (m Model) View() tea.View {
	var content string
	if m.inspect {
		header := textutil.Fit(transcriptStyles(m.opts.Plain).header.Render(" Inspector · esc back · pgup/pgdn scroll"), m.w)
		content = header + "\n" + m.inspVP.View()
	} else {
		content = m.header() + "\n" + m.vp.View() + "\n" + m.comp.View() + "\n" + m.helpView()
	}
	layers := []*lipgloss.Layer{lipgloss.NewLayer(content)}
	if p := m.comp.Picker(); !m.inspect && p.IsOpen() {
		if r := p.Rect(); r.W > 0 {
			layers = append(layers, lipgloss.NewLayer(p.View()).X(r.X).Y(r.Y).Z(1))
		}
	}
	v := tea.NewView(lipgloss.NewCompositor(layers...).Render())
	v.AltScreen = !m.opts.Inline
	if !m.opts.NoMouse {
		v.MouseMode = tea.MouseModeAllMotion // motion without a button: hover highlights picker rows
	}
	v.WindowTitle = "mentions demo"
	return v
}

func (m Model) header() string {
	st := transcriptStyles(m.opts.Plain)
	cwd := "(no cwd)"
	if c := m.opts.Current.Cwd; c != nil {
		cwd = *c
		if m.opts.Home != "" && strings.HasPrefix(cwd, m.opts.Home) {
			cwd = "~" + strings.TrimPrefix(cwd, m.opts.Home)
		}
	}
	title := m.opts.Title
	if title == "" {
		title = m.opts.Current.ID
	}
	s := fmt.Sprintf(" mentions demo · %s · %s · %s", textutil.Inline(title), textutil.Inline(cwd), m.opts.StoreName)
	return st.header.Render(textutil.Fit(s, m.w))
}

func (m Model) helpView() string {
	var bindings []key.Binding
	switch {
	case m.comp.Preparing():
		bindings = []key.Binding{m.comp.KeyMap().Cancel, m.keys.Quit}
	case m.comp.Picker().IsOpen():
		bindings = m.comp.Picker().KeyMap().ShortHelp()
	default:
		bindings = []key.Binding{m.comp.KeyMap().Submit, m.comp.KeyMap().InsertNewline, m.keys.ToggleCard, m.keys.Inspect, m.keys.ScrollUp, m.keys.Help, m.keys.Quit}
	}
	if m.fullHelp {
		groups := append(m.comp.KeyMap().FullHelp(), m.comp.Picker().KeyMap().FullHelp()...)
		groups = append(groups, []key.Binding{m.keys.ToggleCard, m.keys.Inspect, m.keys.ScrollUp, m.keys.Help, m.keys.Quit})
		return m.help.FullHelpView(groups)
	}
	return m.help.ShortHelpView(bindings)
}
