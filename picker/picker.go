package picker

import (
	"maps"
	"os"
	"slices"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/sessionref"
)

// Defaults of the picker's layout and timing.
const (
	DefaultMaxRows   = 8
	DefaultSlowAfter = 100 * time.Millisecond
	DefaultCacheSize = 32
)

// PickedMsg reports that the user picked an entry: a session (a
// candidate or a hit), or a host's item (see [Section]).
type PickedMsg struct {
	// Candidate is the picked session; zero for a host's item.
	Candidate sessionref.Candidate
	// Mention is its canonical mention text, @[label](dsh-session:…);
	// "" for a host's item.
	Mention string
	// Section is the ID of the section picked from: [SessionsID],
	// [MessagesID] or a host's.
	Section string
	// Item is the picked host's item, as its source gave it; nil for a
	// session.
	Item *Item
}

// DismissedMsg reports that the user closed the picker without a pick:
// Esc, or a click outside the popup.
type DismissedMsg struct{}

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

// Empty reports whether r has no cells.
func (r Rect) Empty() bool { return r.W <= 0 || r.H <= 0 }

var lastID atomic.Int64

// Model is the @-mention picker. It is closed until a host opens it with
// a query; it then fetches candidates asynchronously, shows them in a
// popup placed by its anchor, and reports a pick or a dismissal.
//
// Model is a value: methods that change it return the new Model (or take
// a pointer, for setters), as bubbles components do.
//
// A copy is safe to keep, draw and change. It shares with the model it
// was copied from only the running fetches (candidates, hits, host
// sections): a copy's Close, Open or SetQuery cancels them, and the model it was copied from, which still
// waits for their answers, asks its sources again when a cancelled answer
// reaches its Update, so it shows the answer and never the cancellation.
// The cache of answers is copied on write.
type Model struct {
	id     int64
	source Source
	keys   KeyMap
	styles Styles

	maxRows   int
	slowAfter time.Duration
	tick      func(time.Duration, func(time.Time) tea.Msg) tea.Cmd
	cacheSize int
	now       func() time.Time
	home      string
	disable   DisableFunc
	age       func(sessionref.Candidate) time.Time // see WithAge; nil: CreatedAt

	open  bool
	query string
	seq   uint64
	// acceptOnArrival is set when Tab or Enter came before the answer to
	// the current query: the first row that Tab would pick by itself is
	// picked once the sections before it have answered.
	acceptOnArrival bool
	// chose is set when the user moved the cursor (a key, the mouse)
	// since the query changed: answers then leave the highlight on the
	// row chosen (see placeCursor).
	chose bool
	// notice explains the last pick that could not be made; nudged says
	// the user just asked for one, so the reason shows as a warning.
	notice string
	nudged bool
	// pick is the pick made by the last Update, for TakePick.
	pick *PickedMsg

	cursor int
	offset int

	// secs are the popup's sections in their order, each with its answer
	// to the last query (see sectionState); hosts are the host's
	// sections as the options gave them, order the order WithOrder gave,
	// and noSessionsOnEmpty whether an empty '@' lists no sessions.
	secs              []sectionState
	hosts             []Section
	order             []string
	noSessionsOnEmpty bool
	hitSource         HitSource

	// cache holds recent answers of the sessions section, keyed by
	// target and query; moreOf those the source's limit cut.
	cache     map[cacheKey][]sessionref.Candidate
	cacheKeys []cacheKey
	moreOf    map[cacheKey]bool

	// target is the session the candidates are listed for, once set
	// (see SetTarget); targetKey is its comparable form.
	target    sessionref.Target
	hasTarget bool
	targetKey string

	held int // the content lines shown, kept while an answer is awaited
	// The preview of the highlighted row (see WithPreview).
	previewer     Previewer
	previewCfg    sessionref.Config
	previewBudget int
	pv            previewState

	screenW, screenH int
	bounds           Rect
	anchorX          int
	anchorTop        int // the popup goes above this line…
	anchorBottom     int // …or below this one
	width            int
}

// Option configures what a Model keeps for its life: its sections and
// their order, its previewer, clock, tick and home directory. What a
// host may change while the picker runs (styles, key map, width, rows,
// bounds, screen size, anchor, target, the disable rule) has a setter
// instead, and no option.
type Option func(*Model)

// WithSlowAfter sets how long a fetch runs before "searching…" shows.
func WithSlowAfter(d time.Duration) Option { return func(m *Model) { m.slowAfter = d } }

// WithTick sets how the picker waits before showing "searching…": a
// function with tea.Tick's signature (the default). A test gives one
// that answers at once, or never, so that no keystroke waits on the
// wall clock.
func WithTick(tick func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd) Option {
	return func(m *Model) { m.tick = tick }
}

// WithClock sets the clock for ages ("3h ago").
func WithClock(now func() time.Time) Option { return func(m *Model) { m.now = now } }

// WithHome sets the directory shown as ~ (default: the user's home).
func WithHome(dir string) Option { return func(m *Model) { m.home = dir } }

// New returns a closed picker over src, the source of its sessions
// section. Set its styles, key map, target and the rest with the
// setters after New.
func New(src Source, opts ...Option) Model {
	home, _ := os.UserHomeDir()
	m := Model{
		id:        lastID.Add(1),
		source:    src,
		keys:      DefaultKeyMap(),
		styles:    DefaultStyles(true),
		maxRows:   DefaultMaxRows,
		slowAfter: DefaultSlowAfter,
		tick:      tea.Tick,
		cacheSize: DefaultCacheSize,
		now:       time.Now,
		home:      home,
		screenW:   80,
		screenH:   24,
	}
	for _, o := range opts {
		o(&m)
	}
	m.arrange()
	return m
}

// SetStyles replaces the styles (default DefaultStyles(true)).
func (m *Model) SetStyles(s Styles) { m.styles = s }

// Styles returns the styles.
func (m Model) Styles() Styles { return m.styles }

// SetKeyMap replaces the key bindings (default DefaultKeyMap()). Their
// Enabled state is managed by the picker (see [KeyMap]).
func (m *Model) SetKeyMap(k KeyMap) { m.keys = k }

// KeyMap returns the key bindings, enabled by the picker's state, for
// help: a closed picker's bindings are all disabled, the moves need rows,
// and Accept and AcceptEnter are enabled only while a row can be picked
// or a search is running (a pick then waits for its first match).
// Preview is enabled while it does something (see [KeyMap]), says "rows"
// while the preview stands in their place, and has no keys at all
// without a preview, so no help lists it.
func (m Model) KeyMap() KeyMap {
	k := m.keys.withState(m.open, m.entries() > 0, m.Pickable() || m.anyPending()).forItem(m)
	k.Preview.SetEnabled(m.previewKey() && m.entries() > 0)
	if m.open && m.pv.shown { // the key now brings the rows back, as the popup's heading says
		k.Preview.SetHelp(k.Preview.Help().Key, "rows")
	}
	if !m.hasPreviews() {
		k.Preview = key.Binding{} // nothing to preview: not listed, even by a help of every key
	}
	return k
}

// SetMaxRows caps the number of visible rows (default [DefaultMaxRows];
// at least 1).
func (m *Model) SetMaxRows(n int) {
	m.maxRows = max(1, n)
	m.refit()
}

// MaxRows returns the cap on visible rows.
func (m Model) MaxRows() int { return m.maxRows }

// SetWidth sets the popup's width in cells; 0 (the default) makes it the
// width of the bounds, at most [DefaultMaxWidth], twice that with a
// preview beside the rows. It is never wider than the bounds.
func (m *Model) SetWidth(w int) {
	m.width = max(w, 0)
	m.refit()
}

// Width returns the width set with [Model.SetWidth]; 0 for the default.
func (m Model) Width() int { return m.width }

// SetDisable replaces the rule that says which sessions are shown but
// cannot be picked (none by default); hosts call it when what makes a
// row unpickable changes (a mention was added to the draft).
func (m *Model) SetDisable(f DisableFunc) { m.disable = f }

// Disable returns the rule set with [Model.SetDisable].
func (m Model) Disable() DisableFunc { return m.disable }

// IsOpen reports whether the picker is showing.
func (m Model) IsOpen() bool { return m.open }

// Query returns the current query.
func (m Model) Query() string { return m.query }

// Cursor returns the index of the highlighted row.
func (m Model) Cursor() int { return m.cursor }

// Accepting reports whether a pick was asked for before the current
// query was answered: the first match is picked when the answer arrives
// (see [Model.Update]). A host that wants typing to land after the
// picked token holds further keys while this is true.
func (m Model) Accepting() bool { return m.open && m.acceptOnArrival }

// Highlighted returns the highlighted session, of the sessions or the
// hits, when it answers the current query and can be picked. A
// highlighted host's item is no session: see [Model.HighlightedItem].
func (m Model) Highlighted() (sessionref.Candidate, bool) {
	i, ok := m.highlightedEntry()
	if !ok {
		return sessionref.Candidate{}, false
	}
	if _, isItem := m.item(i); isItem {
		return sessionref.Candidate{}, false
	}
	return m.entry(i), true
}

// highlightedEntry is the highlighted entry, of any section, when it
// answers the current query and can be picked.
func (m Model) highlightedEntry() (int, bool) {
	if !m.open || m.cursor < 0 || m.cursor >= m.entries() || !m.entryFresh(m.cursor) {
		return 0, false
	}
	if _, off := m.entryDisabled(m.cursor); off {
		return 0, false
	}
	if it, ok := m.item(m.cursor); ok && it.Manual && !m.chose {
		return 0, false // picked only once the user highlighted it
	}
	return m.cursor, true
}

// Pickable reports whether Tab or Enter would pick a row now: the picker
// is open and a row on screen, of any section, answers the current query
// and is enabled.
func (m Model) Pickable() bool {
	_, ok := m.highlightedEntry()
	return ok
}

// Status says why nothing can be picked now, in words a person reads:
// `searching “par”…`, `no sessions match “zzzq”`, `limit 3/3 reached`,
// the source's error. It is "" when the picker is closed or a row can be
// picked. The popup shows the same reason.
func (m Model) Status() string {
	if !m.open || m.Pickable() {
		return ""
	}
	return m.why()
}

func (m Model) disabled(c sessionref.Candidate) (string, bool) {
	if m.disable == nil {
		return "", false
	}
	return m.disable(c)
}

// TakePick returns the pick made by the last Update, if any, and forgets
// it. A host that embeds the picker uses it to take
// the pick in the same Update as the key or click that made it; the
// [PickedMsg] the picker also sends as a Cmd is for other listeners.
func (m *Model) TakePick() (PickedMsg, bool) {
	if m.pick == nil {
		return PickedMsg{}, false
	}
	p := *m.pick
	m.pick = nil
	return p, true
}

// Open shows the picker for query; the cache starts empty so a reopened
// picker shows current sessions. The query may hold any text, spaces
// included: where a query ends is the host's decision.
func (m *Model) Open(query string) tea.Cmd {
	m.open, m.held = true, 0
	m.cache, m.moreOf = nil, nil
	m.cacheKeys = nil
	m.clearAll()
	m.cursor, m.offset = 0, 0
	m.pv.gen++ // cached previews show, and are read again
	var cmd tea.Cmd
	*m, cmd = m.runQuery(query)
	*m, cmd = m.followPreview(cmd)
	return cmd
}

// Close hides the picker and cancels its fetches.
func (m *Model) Close() {
	m.open = false
	m.acceptOnArrival = false
	m.notice, m.nudged = "", false
	m.stopAll()
	m.stopPreview()
}

// Refresh asks the sources again for the current query, for a host whose
// sessions changed while the picker is open (a store finished loading, an
// index finished a sync): the cache is dropped and every section is
// fetched anew. The rows on screen stay until the answers arrive, a row
// the user moved to stays highlighted, and a pick waiting for the first
// match still waits for it.
func (m *Model) Refresh() tea.Cmd {
	if !m.open {
		return nil
	}
	m.cache, m.cacheKeys, m.moreOf = nil, nil, nil
	if f, ok := m.source.(forgetter); ok {
		f.Forget()
	}
	accept, chose, seen := m.acceptOnArrival, m.chose, m.cursorRef()
	m.pv.gen++
	var cmd tea.Cmd
	*m, cmd = m.runQuery(m.query)
	m.acceptOnArrival, m.chose = accept, chose
	m.placeCursor(seen)
	*m, cmd = m.followPreview(cmd)
	return cmd
}

// SetQuery changes the query. A cached answer shows at once; otherwise
// each section's fetch starts, with its own context, and the previous
// one is cancelled.
func (m *Model) SetQuery(query string) tea.Cmd {
	if !m.open || query == m.query {
		return nil
	}
	var cmd tea.Cmd
	*m, cmd = m.runQuery(query)
	*m, cmd = m.followPreview(cmd)
	return cmd
}

// runQuery makes query current and asks every section, and puts the
// highlight on the first row in section order.
func (m Model) runQuery(query string) (Model, tea.Cmd) {
	m.query = query
	m.chose = false
	m.acceptOnArrival = false
	m.notice, m.nudged = "", false
	m.seq++
	cmd := m.askAll()
	m.placeCursor(rowRef{})
	return m, cmd
}

// cacheKey is what a cached answer answers: a query asked for a target.
type cacheKey struct{ target, query string }

// remember caches an answer. The map and the key list are copied first,
// so that a copy of the model never sees this model's answers (nor the
// other way round); they hold at most cacheSize entries.
func (m *Model) remember(query string, cands []sessionref.Candidate) {
	m.cache = maps.Clone(m.cache)
	if m.cache == nil {
		m.cache = make(map[cacheKey][]sessionref.Candidate)
	}
	m.cacheKeys = slices.Clone(m.cacheKeys)
	k := cacheKey{m.targetKey, query}
	if _, ok := m.cache[k]; !ok {
		m.cacheKeys = append(m.cacheKeys, k)
	}
	m.cache[k] = cands
	for len(m.cacheKeys) > m.cacheSize {
		delete(m.cache, m.cacheKeys[0])
		if m.moreOf[m.cacheKeys[0]] {
			m.moreOf = maps.Clone(m.moreOf)
			delete(m.moreOf, m.cacheKeys[0])
		}
		m.cacheKeys = m.cacheKeys[1:]
	}
}
