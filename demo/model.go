package demo

import (
	"context"
	"fmt"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/card"
	"github.com/dshkit/mentions/composer"
	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

// screen is what fills the window besides the header.
type screen int

const (
	chatScreen    screen = iota // transcript, composer, hint line
	inspectScreen               // what the model receives
	helpScreen                  // every key
)

// transcriptMsg carries the current session's surface, read in a Cmd,
// and the current titles of the sessions its messages referenced (a
// card shows a title beside a label that differs from it).
type transcriptMsg struct {
	surface sessionref.Surface
	titles  map[string]string
	err     error
	// sent says the load follows a send: the transcript then scrolls to
	// its newest message, wherever the user had scrolled it.
	sent bool
}

// resizeSettle is how long the size must stay before expanded cards are
// rendered for it.
const resizeSettle = 150 * time.Millisecond

// resizedMsg says the size has stayed since the n-th WindowSizeMsg.
type resizedMsg struct{ n int }

// Model is the demo: a transcript of the current session rebuilt from the
// store, a reference card above each message that referenced sessions,
// the composer with its picker, an inspector and help.
type Model struct {
	opts     Options
	keys     KeyMap
	cardKeys card.KeyMap
	st       styles
	comps    componentStyles
	store    Store
	query    sessionref.SessionQuery // the store and Options.Others as one
	resolver *sessionref.Resolver
	comp     composer.Model
	help     help.Model
	vp       viewport.Model // the transcript
	inspVP   viewport.Model // the inspector
	helpVP   viewport.Model // the F1 screen
	// inspAt and helpAt are how far down the inspector and F1 were last
	// read, as a share of their length: a resize through a size where
	// everything fits keeps them (see keepShare).
	inspAt, helpAt float64

	w, h        int
	resizes     int // WindowSizeMsgs so far: a render waits for the last
	areaH       int // rows for the transcript and its scroll line
	screen      screen
	helpFrom    screen // where F1 was pressed: Esc or F1 goes back there
	events      []sessionref.Event
	cards       map[int64]card.Model // by the context event's seq
	cardSpans   []cardSpan           // where cards are in the transcript
	loadErr     error
	titles      map[string]string // referenced sessions' current titles, by id
	confirmQuit bool              // ctrl+c was pressed once with a draft
	noticeGone  bool              // a key or click hid Options.Notice (F1 keeps it)
	quitting    bool              // the last frame: inline, it ends on an empty line
	build       buildState
	sentCount   int
	follow      bool  // keep the transcript scrolled to the bottom
	expanding   int64 // the card the user expanded, waiting for its render (-1: none)
	laidOut     layoutKey
	index       indexState // the full-text index (discover.go)
}

// New builds the demo over its options.
func New(o Options) (Model, error) {
	if o.Store == nil {
		return Model{}, fmt.Errorf("demo: a store is required")
	}
	o = o.withDefaults()
	var q sessionref.SessionQuery = o.Store
	if o.Others != nil {
		q = union{local: o.Store, refs: o.Others}
	}
	r, err := sessionref.NewResolver(q, o.Config)
	if err != nil {
		return Model{}, err
	}
	comps := stylesFor(o.Plain, true)
	pickOpts := []picker.Option{picker.WithClock(o.Now), picker.WithTick(o.tick)}
	if o.Home != "" {
		pickOpts = append(pickOpts, picker.WithHome(o.Home))
	}
	ix, hitOpts, err := openIndex(o, q)
	if err != nil {
		// The index is a cache: without it the picker still finds
		// sessions by title, id and folder. Say why, once.
		o.Notice = joinNotice(o.Notice, searchOffNotice(err))
	}
	pickOpts = append(pickOpts, hitOpts...)
	if o.Preview {
		pickOpts = append(pickOpts, picker.WithPreview(picker.ResolverPreviewer(r)))
	}
	p := picker.New(picker.ResolverSource(r, sessionref.DefaultCandidateLimit), pickOpts...)
	p.SetStyles(comps.picker)
	p.SetTarget(o.Current)
	comp := composer.New(p, composer.ResolverPreparer(r))
	comp.SetBudget(r.Config().MaxReferenceBytes)
	comp.SetMaxReferences(r.Config().MaxReferences)
	comp.SetStyles(comps.composer)
	comp.SetVirtualCursor(false) // View places the terminal's own cursor
	m := Model{
		opts:      o,
		keys:      DefaultKeyMap(),
		cardKeys:  card.DefaultKeyMap(),
		st:        newStyles(palette(o.Plain, true)),
		comps:     comps,
		store:     o.Store,
		query:     q,
		resolver:  r,
		comp:      comp,
		help:      help.New(),
		vp:        viewport.New(),
		inspVP:    viewport.New(),
		helpVP:    viewport.New(),
		cards:     map[int64]card.Model{},
		w:         80,
		h:         24,
		follow:    true,
		expanding: -1,
		index:     indexState{ix: ix, running: ix != nil, notice: noticeOf(ix)},
	}
	m.help.Styles = m.st.help
	m.vp.KeyMap = viewport.KeyMap{} // the demo pages it; arrows belong to the composer
	m.vp.MouseWheelEnabled = false
	m.build.total = -1
	if o.Build != nil {
		m.build.running = true
	}
	m.layout()
	return m, nil
}

// Init loads the transcript, starts the background build if any, and
// asks the terminal for its background, to pick dark or light styles.
func (m Model) Init() tea.Cmd {
	cmds := []tea.Cmd{m.load(nil), m.startBuild()}
	if m.opts.Build == nil {
		cmds = append(cmds, syncIndex(m.index.ix)) // else after the build
	}
	if !m.opts.Plain {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	return tea.Batch(cmds...)
}

// load appends evs to the current session (if any) and reads its surface
// back with the referenced sessions' titles, in a Cmd: the store may be
// slow, and Update never waits for it.
func (m Model) load(evs []sessionref.Event) tea.Cmd {
	store, query, id := m.store, m.query, m.opts.Current.ID
	sent := len(evs) > 0
	return func() tea.Msg {
		ctx := context.Background()
		for _, ev := range evs {
			if _, err := store.Append(id, ev); err != nil {
				return transcriptMsg{err: err, sent: sent}
			}
		}
		s, err := store.ReadSurface(ctx, id)
		if err != nil {
			return transcriptMsg{err: err, sent: sent}
		}
		return transcriptMsg{surface: s, titles: referencedTitles(ctx, query, s.Events), sent: sent}
	}
}

// referencedTitles looks up the current title of every session the
// events' context messages referenced. A failed lookup leaves a session
// out: its card then shows the label alone.
func referencedTitles(ctx context.Context, q sessionref.SessionQuery, evs []sessionref.Event) map[string]string {
	var ids []string
	seen := map[string]bool{}
	for _, ev := range evs {
		if ev.Source.Kind != sessionref.SourceSessionReference {
			continue
		}
		rec, err := sessionref.RecordOf(ev.Source)
		if err != nil {
			continue
		}
		for _, r := range rec.References {
			if !seen[r.SessionID] {
				seen[r.SessionID] = true
				ids = append(ids, r.SessionID)
			}
		}
	}
	if len(ids) == 0 {
		return nil
	}
	res, err := q.ReadTitles(ctx, ids)
	if err != nil {
		return nil
	}
	titles := make(map[string]string, len(ids))
	for i, r := range res {
		if i < len(ids) && r.Err == nil && r.Title != nil {
			titles[ids[i]] = r.Title.Text
		}
	}
	return titles
}

// Update routes messages: the demo's own first (sizes, its async
// answers, its keys and clicks), then the composer gets the rest.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if cmd, ok := m.own(msg); ok {
		return m, cmd
	}
	var cmd tea.Cmd
	m.comp, cmd = m.comp.Update(msg)
	m.layout()
	return m, cmd
}

// own handles the messages that are the demo's, and reports whether it
// took msg; the composer gets the others.
func (m *Model) own(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		return m.onSize(msg), true
	case resizedMsg:
		if msg.n != m.resizes {
			return nil, true // another size came since
		}
		return m.renderCards(), true
	case tea.BackgroundColorMsg:
		if !m.opts.Plain {
			m.restyle(msg.IsDark())
		}
		return m.renderCards(), true
	case card.RenderedMsg:
		m.onRendered(msg)
		return nil, true
	case transcriptMsg:
		m.onTranscript(msg)
		return nil, true
	case buildMsg:
		cmd := m.onBuild(msg)
		if msg.finished {
			cmd = tea.Batch(cmd, syncIndex(m.index.ix))
		}
		return cmd, true
	case indexMsg:
		return m.onIndex(msg), true
	case resyncMsg:
		return m.onResync(), true
	case composer.SubmittedMsg:
		m.sentCount++
		m.confirmQuit = false // the draft it asked about is sent
		m.follow = true
		m.layout()
		return m.load(messagesFor(msg)), true
	case card.ToggledMsg:
		return nil, true // the card's Expanded said it already, in the Update that toggled it
	case tea.KeyPressMsg:
		m.noticeGone = true // it was read; F1 keeps it
		cmd, ok := m.handleKey(msg)
		if ok {
			m.layout()
		}
		return cmd, ok
	case tea.MouseMsg:
		if m.opts.NoMouse {
			return nil, true // reporting is off (inline: its rows would be wrong)
		}
		if _, ok := msg.(tea.MouseClickMsg); ok {
			m.noticeGone = true
		}
		return m.handleMouse(msg)
	}
	return nil, false
}

// onSize lays everything out for a new screen size.
func (m *Model) onSize(msg tea.WindowSizeMsg) tea.Cmd {
	m.w, m.h = msg.Width, msg.Height
	m.inspAt, m.helpAt = keepShare(m.inspVP, m.inspAt), keepShare(m.helpVP, m.helpAt)
	m.layout()
	m.rebuild()
	m.renderOverlays()
	// The open screen stays where it was read, as a share of its
	// length: the lines wrap differently at the new width.
	rescroll(&m.inspVP, m.inspAt)
	rescroll(&m.helpVP, m.helpAt)
	var cmd tea.Cmd
	m.comp, cmd = m.comp.Update(msg)
	m.layout()
	// Expanded cards are rendered for the new width once the size
	// settles: dragging a window's edge sends many sizes, and each
	// would start a Markdown render of every expanded card.
	m.resizes++
	n := m.resizes
	settled := m.opts.tick(resizeSettle, func(time.Time) tea.Msg { return resizedMsg{n} })
	return tea.Batch(cmd, settled)
}

// onTranscript takes a load of the current session's transcript.
func (m *Model) onTranscript(msg transcriptMsg) {
	if msg.sent {
		m.follow = true // the message and its reply come into view
	}
	m.loadErr = msg.err
	if msg.err == nil {
		m.events = msg.surface.Events
		m.titles = msg.titles
		for seq, c := range m.cards {
			c.SetTitles(titleFunc(m.titles))
			m.cards[seq] = c
		}
	}
	m.rebuild()
}

// titleFunc is a card's TitleFunc over what a load found: no IO.
func titleFunc(titles map[string]string) card.TitleFunc {
	return func(id string) (string, bool) {
		t, ok := titles[id]
		return t, ok
	}
}

// restyle switches every part to the dark or light palette.
func (m *Model) restyle(dark bool) {
	m.comps = stylesFor(false, dark)
	m.st = newStyles(palette(false, dark))
	m.help.Styles = m.st.help
	m.comp.SetStyles(m.comps.composer)
	m.comp.Picker().SetStyles(m.comps.picker)
	for seq, c := range m.cards {
		c.SetStyles(m.comps.card)
		m.cards[seq] = c
	}
	m.rebuild()
	m.renderOverlays()
}
