package card

import (
	"errors"
	"fmt"
	"os"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/sessionref"
)

// ToggledMsg is sent when a card is expanded or collapsed through
// [Model.Update], for parts of a host other than the one that routed the
// key or click (a status line, a layout that reserves room for expanded
// cards). The host that called Update already knows: [Model.Expanded]
// says the same at once, and a host with nothing else to tell may drop
// the message, as the demo does.
type ToggledMsg struct{ Expanded bool }

// DefaultMaxHeight is the most lines an expanded card takes, header and
// scroll line included, unless [Model.SetMaxHeight] says otherwise.
const DefaultMaxHeight = 18

// minHeight is the least an expanded card can be capped to: its header,
// one line of conversation and the scroll line.
const minHeight = 3

// TitleFunc returns a session's current title, and false when it is not
// known (not looked up yet, no title, or the session is gone). A card
// calls it from View and when it renders its conversations, so it must be
// quick and must not do IO: a host fills it from what it already read,
// for example from [sessionref.SessionQuery.ReadTitles] run in a Cmd.
type TitleFunc func(sessionID string) (title string, ok bool)

// Model is the reference card of one context message. It holds only what
// the durable message holds: its source record and its prompt. Nothing is
// ever read from the source sessions again, so later changes to them
// cannot change what the card says was captured; the one exception the
// host can opt into is the sessions' current titles ([Model.SetTitles]),
// shown beside the labels the message used when they differ.
type Model struct {
	keys   KeyMap
	styles Styles
	titles TitleFunc
	home   string

	record    sessionref.SourceRecord
	snaps     []sessionref.Snapshot
	malformed error

	expanded bool
	width    int
	height   int
	vp       viewport.Model
	bodyOK   bool // the viewport holds the body for the current state

	// turns is each turn's rendered Markdown, all snapshots in order,
	// rendered at inner width turnsW (0 when stale or not rendered yet).
	// renders keeps the last few widths' renders. Copies of a Model share
	// them, so they are replaced, never changed in place.
	turns   [][]string
	turnsW  int
	renders []rendered
	// id tells this card's renders from another's; gen counts style
	// changes, so a render of older styles is dropped.
	id  int64
	gen uint64
}

// Option configures what is fixed for a Model's life. What a host may
// change while the card is shown (width, height cap, styles, key map,
// titles) is set with the Model's setters instead.
type Option func(*Model)

// WithHome sets the directory shown as ~ in the sessions' folders
// (default: the user's home).
func WithHome(dir string) Option { return func(m *Model) { m.home = dir } }

// New returns a collapsed card for a context message: 80 cells wide,
// [DefaultStyles](true), [DefaultKeyMap], capped at [DefaultMaxHeight]
// lines when expanded, and with no titles until the host's setters say
// otherwise.
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

// FromText returns a collapsed card for a message a host stored in the
// single-message form ([sessionref.FormatSingleMessage]): its snapshot
// and record are read from the text alone. A text without context (a
// plain message, or a damaged envelope) gives a card whose [Model.Err] is
// [sessionref.ErrNotContext]; a host that also shows the person's words
// parses once with [sessionref.ParseSingleMessage] and passes its
// Context to [New].
func FromText(text string, opts ...Option) Model {
	m := sessionref.ParseSingleMessage(text)
	if m.Context == nil {
		return newCard(sessionref.SourceRecord{}, "", sessionref.ErrNotContext, opts)
	}
	return newCard(m.Context.Source, m.Context.Prompt(), nil, opts)
}

func newCard(rec sessionref.SourceRecord, prompt string, err error, opts []Option) Model {
	home, _ := os.UserHomeDir()
	m := Model{keys: DefaultKeyMap(), styles: DefaultStyles(true), record: rec, width: 80, height: DefaultMaxHeight, id: lastCardID.Add(1), home: home}
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
	m.vp.KeyMap = viewport.KeyMap{} // the card's own keys scroll it
	return m
}

// Record returns the source record the card shows.
func (m Model) Record() sessionref.SourceRecord { return m.record }

// Snapshots returns the captured conversations.
func (m Model) Snapshots() []sessionref.Snapshot { return m.snaps }

// SessionIDs returns the referenced sessions' ids, in the record's order:
// the ids a host looks up titles for.
func (m Model) SessionIDs() []string {
	ids := make([]string, len(m.record.References))
	for i, r := range m.record.References {
		ids[i] = r.SessionID
	}
	return ids
}

// Err returns why the context message could not be read, or nil.
func (m Model) Err() error { return m.malformed }

// Expanded reports whether the card shows the conversations.
func (m Model) Expanded() bool { return m.expanded }

// Scrollable reports whether the card is expanded and its conversations
// do not fit its height, so the scroll keys and the wheel move them.
func (m Model) Scrollable() bool {
	return m.expanded && m.vp.TotalLineCount() > m.vp.Height()
}

// Styles returns the styles.
func (m Model) Styles() Styles { return m.styles }

// SetStyles sets the styles (default DefaultStyles(true)). An expanded
// card shows a placeholder until its conversations are rendered again
// ([Model.RenderCmd]).
func (m *Model) SetStyles(s Styles) {
	m.styles = s
	m.gen++
	m.turnsW, m.turns, m.renders = 0, nil, nil
	m.invalidate()
}

// KeyMap returns the bindings, each enabled only when it does something
// in the card's current state (and the host has not disabled it).
func (m Model) KeyMap() KeyMap {
	k := m.keys
	k.Toggle.SetEnabled(k.Toggle.Enabled() && m.malformed == nil)
	scroll := m.Scrollable()
	k.ScrollUp.SetEnabled(k.ScrollUp.Enabled() && scroll)
	k.ScrollDown.SetEnabled(k.ScrollDown.Enabled() && scroll)
	return k
}

// SetKeyMap sets the bindings (default [DefaultKeyMap]).
func (m *Model) SetKeyMap(k KeyMap) { m.keys = k }

// Titles returns where the card learns the sessions' current titles, or
// nil when it shows the labels alone.
func (m Model) Titles() TitleFunc { return m.titles }

// SetTitles sets where the card learns the sessions' current titles; nil
// shows the labels alone. Call it when the titles change: the rendered
// conversations are kept, only the lines naming the sessions are redone,
// and the scroll position stays.
func (m *Model) SetTitles(f TitleFunc) {
	m.titles = f
	m.invalidate()
}

// Width returns the width in cells, frame included.
func (m Model) Width() int { return m.width }

// SetWidth sets the width in cells, frame included (default 80). An
// expanded card shows its render for that width if it kept one, else a
// placeholder until [Model.RenderCmd]'s render arrives. Calling it with
// the current width costs nothing.
func (m *Model) SetWidth(w int) {
	if max(w, minWidth) == m.width {
		return
	}
	m.width = max(w, minWidth)
	m.turnsW = 0
	m.invalidate()
}

// MaxHeight returns the most lines an expanded card takes, header and
// scroll line included. [Model.Height] is the lines the card takes now.
func (m Model) MaxHeight() int { return m.height }

// SetMaxHeight caps an expanded card at n lines, header and scroll line
// included (default [DefaultMaxHeight]; at least 3). A collapsed card is
// always two lines.
func (m *Model) SetMaxHeight(n int) {
	m.height = max(n, minHeight)
	m.layout()
}

// Toggle expands or collapses the card. A card that could not be read
// stays collapsed. It renders nothing: an expanded card shows a
// placeholder until its conversations are rendered ([Model.RenderCmd],
// or [Model.Render] outside an event loop).
func (m *Model) Toggle() {
	if m.malformed != nil {
		return
	}
	m.expanded = !m.expanded
	m.layout()
}

// Update handles the card's keys and the mouse: Toggle and a left click
// expand or collapse it (and return a [ToggledMsg]; expanding also
// returns the Cmd that renders the conversations, see [RenderedMsg]); the
// scroll keys and the wheel scroll an expanded card. The host sends it
// the keys meant for the card it has selected, mouse messages for the
// card under the pointer (see [HitTest]), and its RenderedMsg. It does no
// IO and renders no Markdown.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case RenderedMsg:
		m.apply(msg)
	case tea.KeyPressMsg:
		k := m.KeyMap()
		switch {
		case key.Matches(msg, k.Toggle):
			return m.toggled()
		case key.Matches(msg, k.ScrollUp):
			m.vp.ScrollUp(1)
		case key.Matches(msg, k.ScrollDown):
			m.vp.ScrollDown(1)
		}
	case tea.MouseWheelMsg:
		if m.Scrollable() {
			switch msg.Button {
			case tea.MouseWheelUp:
				m.vp.ScrollUp(2)
			case tea.MouseWheelDown:
				m.vp.ScrollDown(2)
			}
		}
	case tea.MouseClickMsg:
		if msg.Button == tea.MouseLeft && m.malformed == nil {
			return m.toggled()
		}
	}
	return m, nil
}

func (m Model) toggled() (Model, tea.Cmd) {
	m.Toggle()
	exp := m.expanded
	return m, tea.Batch(func() tea.Msg { return ToggledMsg{Expanded: exp} }, m.RenderCmd())
}

// invalidate marks the body stale and, for an expanded card, builds it
// again.
func (m *Model) invalidate() {
	m.bodyOK = false
	m.layout()
}

// layout renders the body if an expanded card needs it, sizes the
// viewport within the height cap and updates which keys are enabled.
func (m *Model) layout() {
	if m.expanded {
		m.renderBody()
		total := m.vp.TotalLineCount()
		h := min(total, m.height-1) // below the header
		if total > h {
			h = m.height - 2 // and above the scroll line
		}
		m.vp.SetHeight(max(h, 1))
	}
}
