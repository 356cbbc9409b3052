package picker

import (
	"context"
	"os"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/sessionref"
)

// Defaults of the picker's layout and timing.
const (
	DefaultMaxRows    = 8
	DefaultSlowAfter  = 100 * time.Millisecond
	DefaultCacheSize  = 32
	defaultPopupWidth = 96
)

// PickedMsg reports that the user picked a candidate.
type PickedMsg struct {
	// Candidate is the picked session.
	Candidate sessionref.Candidate
	// Mention is its canonical mention text, @[label](dsh-session:…).
	Mention string
}

// DismissedMsg reports that the user closed the picker without a pick.
type DismissedMsg struct{}

// FetchedMsg carries a source's answer to one query. Hosts pass it to
// Update like any other message; it is only applied if it answers the
// picker's newest query.
type FetchedMsg struct {
	picker     int64
	seq        uint64
	Query      string
	Candidates []sessionref.Candidate
	Err        error
}

// slowMsg fires when a fetch has been pending for a while.
type slowMsg struct {
	picker int64
	seq    uint64
}

// DisableFunc says whether a candidate may not be picked, and why (for
// example "already mentioned").
type DisableFunc func(sessionref.Candidate) (reason string, disabled bool)

// Rect is a rectangle on the screen, in cells.
type Rect struct{ X, Y, W, H int }

// Contains reports whether the cell (x, y) is inside r.
func (r Rect) Contains(x, y int) bool { return x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H }

var lastID atomic.Int64

// Model is the @-mention picker. It is closed until a host opens it with
// a query; it then fetches candidates asynchronously, shows them in a
// popup placed by its anchor, and reports a pick or a dismissal.
type Model struct {
	id     int64
	source Source
	// KeyMap is the picker's bindings.
	KeyMap KeyMap
	// Styles is how it draws.
	Styles Styles

	maxRows   int
	slowAfter time.Duration
	cacheSize int
	now       func() time.Time
	home      string
	disable   DisableFunc

	open    bool
	query   string
	seq     uint64
	cancel  context.CancelFunc
	pending bool
	slow    bool
	// acceptOnArrival is set when Tab or Enter came before the answer to
	// the current query: the first pickable row of that answer is picked.
	acceptOnArrival bool

	items      []sessionref.Candidate
	itemsQuery string
	err        error
	cursor     int
	offset     int

	cache     map[string][]sessionref.Candidate
	cacheKeys []string

	screenW, screenH int
	anchorX          int
	anchorTop        int // the popup goes above this line…
	anchorBottom     int // …or below this one
	width            int
}

// Option configures a Model.
type Option func(*Model)

// WithMaxRows caps the number of visible rows (default 8).
func WithMaxRows(n int) Option { return func(m *Model) { m.maxRows = max(1, n) } }

// WithSlowAfter sets how long a fetch runs before "searching…" shows.
func WithSlowAfter(d time.Duration) Option { return func(m *Model) { m.slowAfter = d } }

// WithClock sets the clock for ages ("3h ago").
func WithClock(now func() time.Time) Option { return func(m *Model) { m.now = now } }

// WithHome sets the directory shown as ~ (default: the user's home).
func WithHome(dir string) Option { return func(m *Model) { m.home = dir } }

// WithDisable sets which candidates are shown but cannot be picked.
func WithDisable(f DisableFunc) Option { return func(m *Model) { m.disable = f } }

// WithWidth sets the popup's width in cells (default: up to 96, never
// wider than the screen).
func WithWidth(w int) Option { return func(m *Model) { m.width = w } }

// WithStyles sets the styles.
func WithStyles(s Styles) Option { return func(m *Model) { m.Styles = s } }

// New returns a closed picker over src.
func New(src Source, opts ...Option) Model {
	home, _ := os.UserHomeDir()
	m := Model{
		id:        lastID.Add(1),
		source:    src,
		KeyMap:    DefaultKeyMap(),
		Styles:    DefaultStyles(true),
		maxRows:   DefaultMaxRows,
		slowAfter: DefaultSlowAfter,
		cacheSize: DefaultCacheSize,
		now:       time.Now,
		home:      home,
		screenW:   80,
		screenH:   24,
	}
	for _, o := range opts {
		o(&m)
	}
	return m
}

// SetDisable replaces the disable rule; hosts call it when what makes a
// row unpickable changes (a mention was added to the draft).
func (m *Model) SetDisable(f DisableFunc) { m.disable = f }

// IsOpen reports whether the picker is showing.
func (m Model) IsOpen() bool { return m.open }

// Query returns the current query.
func (m Model) Query() string { return m.query }

// Items returns the rows shown, which answer Query only when Fresh.
func (m Model) Items() []sessionref.Candidate { return m.items }

// Fresh reports whether the rows answer the current query.
func (m Model) Fresh() bool { return !m.pending && m.itemsQuery == m.query }

// Err returns the source's error for the current query, if any.
func (m Model) Err() error { return m.err }

// Cursor returns the index of the highlighted row.
func (m Model) Cursor() int { return m.cursor }

// Accepting reports whether a pick was asked for before the current
// query was answered; the host should hold further keys until the answer
// (and the pick) arrives, so type-ahead lands after the token.
func (m Model) Accepting() bool { return m.open && m.acceptOnArrival }

// Highlighted returns the highlighted candidate, when there is one that
// answers the current query and can be picked.
func (m Model) Highlighted() (sessionref.Candidate, bool) {
	if !m.open || !m.Fresh() || m.cursor < 0 || m.cursor >= len(m.items) {
		return sessionref.Candidate{}, false
	}
	c := m.items[m.cursor]
	if _, off := m.disabled(c); off {
		return sessionref.Candidate{}, false
	}
	return c, true
}

func (m Model) disabled(c sessionref.Candidate) (string, bool) {
	if m.disable == nil {
		return "", false
	}
	return m.disable(c)
}

// Open shows the picker for query; the cache starts empty so a reopened
// picker shows current sessions.
func (m Model) Open(query string) (Model, tea.Cmd) {
	m.open = true
	m.cache = nil
	m.cacheKeys = nil
	m.items, m.itemsQuery, m.err = nil, "", nil
	m.cursor, m.offset = 0, 0
	return m.runQuery(query)
}

// Close hides the picker and cancels its fetch.
func (m Model) Close() Model {
	m.open = false
	m.acceptOnArrival = false
	m.stopFetch()
	m.pending, m.slow = false, false
	return m
}

// SetQuery changes the query. A cached answer shows at once; otherwise one
// fetch starts, with its own context, and the previous one is cancelled.
func (m Model) SetQuery(query string) (Model, tea.Cmd) {
	if !m.open || query == m.query {
		return m, nil
	}
	return m.runQuery(query)
}

// runQuery makes query current and answers it, from the cache or a fetch.
func (m Model) runQuery(query string) (Model, tea.Cmd) {
	m.query = query
	m.acceptOnArrival = false
	m.stopFetch()
	m.seq++
	if cands, ok := m.cache[query]; ok {
		m.pending, m.slow = false, false
		m.setItems(query, cands, nil)
		return m, nil
	}
	m.pending, m.slow = true, false
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel = cancel
	fetch := fetchCmd(m.source, ctx, m.id, m.seq, query)
	slow := tea.Tick(m.slowAfter, func(time.Time) tea.Msg { return slowMsg{m.id, m.seq} })
	return m, tea.Batch(fetch, slow)
}

func fetchCmd(src Source, ctx context.Context, id int64, seq uint64, query string) tea.Cmd {
	return func() tea.Msg {
		cands, err := src.Candidates(ctx, query)
		return FetchedMsg{picker: id, seq: seq, Query: query, Candidates: cands, Err: err}
	}
}

func (m *Model) stopFetch() {
	if m.cancel != nil {
		m.cancel()
		m.cancel = nil
	}
}

func (m *Model) setItems(query string, cands []sessionref.Candidate, err error) {
	m.items, m.itemsQuery, m.err = cands, query, err
	m.cursor, m.offset = 0, 0
	m.skipDisabled(1)
}

func (m *Model) remember(query string, cands []sessionref.Candidate) {
	if m.cache == nil {
		m.cache = make(map[string][]sessionref.Candidate)
	}
	if _, ok := m.cache[query]; !ok {
		m.cacheKeys = append(m.cacheKeys, query)
	}
	m.cache[query] = cands
	for len(m.cacheKeys) > m.cacheSize {
		delete(m.cache, m.cacheKeys[0])
		m.cacheKeys = m.cacheKeys[1:]
	}
}

// WantsKey reports whether Update would consume the key: every picker key
// while open, except Enter when no row answers the current query and none
// is pending (the editor may then submit).
func (m Model) WantsKey(msg tea.KeyPressMsg) bool {
	if !m.open {
		return false
	}
	k := m.KeyMap
	if key.Matches(msg, k.AcceptEnter) {
		_, ok := m.Highlighted()
		return ok || m.pending
	}
	return key.Matches(msg, k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End, k.Accept, k.Dismiss)
}

// Update handles fetch results, keys and mouse messages.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case FetchedMsg:
		if msg.picker != m.id || msg.seq != m.seq || !m.open {
			return m, nil // stale: it answers an older query
		}
		m.pending, m.slow, m.cancel = false, false, nil
		if msg.Err == nil {
			m.remember(msg.Query, msg.Candidates)
		}
		m.setItems(msg.Query, msg.Candidates, msg.Err)
		if m.acceptOnArrival {
			m.acceptOnArrival = false
			return m.accept()
		}
	case slowMsg:
		if msg.picker == m.id && msg.seq == m.seq && m.pending {
			m.slow = true
		}
	case tea.WindowSizeMsg:
		m.SetScreenSize(msg.Width, msg.Height)
	case tea.KeyPressMsg:
		if m.open {
			return m.handleKey(msg)
		}
	case tea.MouseMsg:
		if m.open {
			return m.handleMouse(msg)
		}
	}
	return m, nil
}

func (m Model) handleKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.KeyMap
	switch {
	case key.Matches(msg, k.Dismiss):
		m = m.Close()
		return m, func() tea.Msg { return DismissedMsg{} }
	case key.Matches(msg, k.Accept, k.AcceptEnter):
		return m.accept()
	case key.Matches(msg, k.Up):
		m.move(-1, true)
	case key.Matches(msg, k.Down):
		m.move(1, true)
	case key.Matches(msg, k.PageUp):
		m.move(-m.visibleRows(), false)
	case key.Matches(msg, k.PageDown):
		m.move(m.visibleRows(), false)
	case key.Matches(msg, k.Home):
		m.cursor = 0
		m.skipDisabled(1)
		m.scrollToCursor()
	case key.Matches(msg, k.End):
		m.cursor = len(m.items) - 1
		m.skipDisabled(-1)
		m.scrollToCursor()
	}
	return m, nil
}

func (m Model) accept() (Model, tea.Cmd) {
	c, ok := m.Highlighted()
	if !ok {
		// Typed faster than the store answers: pick from the answer to
		// this query when it comes, never from an older one.
		m.acceptOnArrival = m.pending
		return m, nil
	}
	mention, err := sessionref.FormatMention(sessionref.Reference{SessionID: c.SessionID, Label: &c.Label})
	if err != nil {
		m.err = err
		return m, nil
	}
	m = m.Close()
	return m, func() tea.Msg { return PickedMsg{Candidate: c, Mention: mention} }
}

// move moves the cursor by delta rows, wrapping at the ends when wrap is
// set and clamping otherwise, and skips disabled rows.
func (m *Model) move(delta int, wrap bool) {
	n := len(m.items)
	if n == 0 {
		return
	}
	c := m.cursor + delta
	if wrap {
		c = ((c % n) + n) % n
	} else {
		c = min(max(c, 0), n-1)
	}
	m.cursor = c
	dir := 1
	if delta < 0 {
		dir = -1
	}
	m.skipDisabled(dir)
	m.scrollToCursor()
}

// skipDisabled moves the cursor in dir to the nearest pickable row, if
// any; with none, it stays where it is.
func (m *Model) skipDisabled(dir int) {
	n := len(m.items)
	for i := 0; i < n; i++ {
		c := ((m.cursor+dir*i)%n + n) % n
		if _, off := m.disabled(m.items[c]); !off {
			m.cursor = c
			m.scrollToCursor()
			return
		}
	}
}

func (m *Model) scrollToCursor() {
	rows := m.visibleRows()
	if m.cursor < m.offset {
		m.offset = m.cursor
	}
	if m.cursor >= m.offset+rows {
		m.offset = m.cursor - rows + 1
	}
	m.offset = min(max(m.offset, 0), max(len(m.items)-rows, 0))
}

func (m Model) handleMouse(msg tea.MouseMsg) (Model, tea.Cmd) {
	mouse := msg.Mouse()
	r := m.Rect()
	switch msg.(type) {
	case tea.MouseWheelMsg:
		if !r.Contains(mouse.X, mouse.Y) {
			return m, nil
		}
		switch mouse.Button {
		case tea.MouseWheelUp:
			m.scroll(-1)
		case tea.MouseWheelDown:
			m.scroll(1)
		}
	case tea.MouseMotionMsg:
		if row, ok := m.RowAt(mouse.X, mouse.Y); ok {
			if _, off := m.disabled(m.items[row]); !off {
				m.cursor = row
			}
		}
	case tea.MouseClickMsg:
		if mouse.Button != tea.MouseLeft {
			return m, nil
		}
		row, ok := m.RowAt(mouse.X, mouse.Y)
		if !ok {
			return m, nil
		}
		if _, off := m.disabled(m.items[row]); off {
			return m, nil
		}
		m.cursor = row
		return m.accept()
	}
	return m, nil
}

// scroll moves the window of visible rows, keeping the cursor inside it.
func (m *Model) scroll(delta int) {
	rows := m.visibleRows()
	m.offset = min(max(m.offset+delta, 0), max(len(m.items)-rows, 0))
	if m.cursor < m.offset {
		m.cursor = m.offset
	}
	if m.cursor >= m.offset+rows {
		m.cursor = m.offset + rows - 1
	}
}

// RowAt maps a screen cell to the index of the candidate drawn there.
func (m Model) RowAt(x, y int) (int, bool) {
	if !m.open || !m.Fresh() {
		return 0, false
	}
	r := m.Rect()
	if !r.Contains(x, y) || x == r.X || x == r.X+r.W-1 {
		return 0, false
	}
	row := y - r.Y - 1 + m.offset
	if y == r.Y || y == r.Y+r.H-1 || row < m.offset || row >= min(len(m.items), m.offset+m.visibleRows()) {
		return 0, false
	}
	return row, true
}
