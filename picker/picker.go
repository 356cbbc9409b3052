package picker

import (
	"context"
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

// FetchedMsg carries a source's answer to one query. Hosts pass it to
// Update like any other message; it is only applied if it answers the
// picker's newest query and that query is still waiting for an answer.
type FetchedMsg struct {
	picker     int64
	seq        uint64
	target     string
	Query      string
	Candidates []sessionref.Candidate
	// More says the source matched more sessions than it listed (its
	// limit); the popup then says that typing filters.
	More bool
	Err  error
	// cancelled says the fetch's context had ended when it returned.
	cancelled bool
}

// NewFetchedMsg builds the answer to p's newest query, for tests and for
// hosts that fake a source: passed to p's Update it is applied as if the
// source had returned cands and err. It is dropped when query is not p's
// current query, or when that query is answered already.
func NewFetchedMsg(p Model, query string, cands []sessionref.Candidate, err error) FetchedMsg {
	return FetchedMsg{picker: p.id, seq: p.seq, target: p.targetKey, Query: query, Candidates: cands, Err: err}
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

	open    bool
	query   string
	seq     uint64
	cancel  context.CancelFunc
	pending bool
	slow    bool
	// acceptOnArrival is set when Tab or Enter came before the answer to
	// the current query: the first enabled row of that answer is picked.
	acceptOnArrival bool
	// chose is set when the user moved the cursor (a key, the mouse)
	// since the query changed: a section's late answer then leaves the
	// highlight on the row chosen.
	chose bool
	// notice explains the last pick that could not be made; nudged says
	// the user just asked for one, so the reason shows as a warning.
	notice string
	nudged bool
	// pick is the pick made by the last Update, for TakePick.
	pick *PickedMsg

	items      []sessionref.Candidate
	itemsQuery string
	err        error
	cursor     int
	offset     int

	// The host's sections (see Section), the order of all sections by
	// ID (see WithOrder), and whether an empty '@' lists no sessions.
	sections          []hostSection
	order             []string
	noSessionsOnEmpty bool

	// cache holds recent answers, keyed by target and query; moreOf
	// those the source's limit cut, and more whether the rows shown are
	// such an answer.
	cache     map[cacheKey][]sessionref.Candidate
	cacheKeys []cacheKey
	moreOf    map[cacheKey]bool
	more      bool

	// target is the session the candidates are listed for, once set
	// (see SetTarget); targetKey is its comparable form.
	target    sessionref.Target
	hasTarget bool
	targetKey string

	// The "in messages" section: hitsAll is the hit source's answer to
	// hitsQuery, hits the part of it shown (sessions not among items).
	hitSource   HitSource
	hitsAll     []Hit
	hits        []Hit
	hitsQuery   string
	hitErr      error
	hitsPending bool
	hitCancel   context.CancelFunc

	held int // the content lines shown, kept while an answer is awaited
	// The preview of the highlighted session (see WithPreview).
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

// Option configures a Model.
type Option func(*Model)

// WithMaxRows caps the number of visible rows (default 8).
func WithMaxRows(n int) Option { return func(m *Model) { m.maxRows = max(1, n) } }

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

// WithDisable sets which candidates are shown but cannot be picked.
func WithDisable(f DisableFunc) Option { return func(m *Model) { m.disable = f } }

// WithWidth sets the popup's width in cells (default: the width of the
// bounds, at most [DefaultMaxWidth], twice that with a preview beside the
// rows; never wider than the bounds).
func WithWidth(w int) Option { return func(m *Model) { m.width = w } }

// WithStyles sets the styles (default DefaultStyles(true)).
func WithStyles(s Styles) Option { return func(m *Model) { m.styles = s } }

// WithKeyMap sets the key bindings (default DefaultKeyMap()).
func WithKeyMap(k KeyMap) Option { return func(m *Model) { m.keys = k } }

// New returns a closed picker over src.
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
	return m
}

// SetStyles replaces the styles.
func (m *Model) SetStyles(s Styles) { m.styles = s }

// Styles returns the styles.
func (m Model) Styles() Styles { return m.styles }

// SetKeyMap replaces the key bindings. Their Enabled state is managed by
// the picker (see [KeyMap]).
func (m *Model) SetKeyMap(k KeyMap) { m.keys = k }

// KeyMap returns the key bindings, enabled by the picker's state, for
// help: a closed picker's bindings are all disabled, the moves need rows,
// and Accept and AcceptEnter are enabled only while a row can be picked
// or a search is running (a pick then waits for its first match).
// Preview is enabled while it does something (see [KeyMap]), and has no
// keys at all without a previewer, so no help lists it.
func (m Model) KeyMap() KeyMap {
	k := m.keys.withState(m.open, m.entries() > 0, m.Pickable() || m.anyPending()).forItem(m)
	k.Preview.SetEnabled(m.previewKey() && m.entries() > 0)
	if m.previewer == nil {
		k.Preview = key.Binding{} // nothing to preview: not listed, even by a help of every key
	}
	return k
}

// SetDisable replaces the disable rule; hosts call it when what makes a
// row unpickable changes (a mention was added to the draft).
func (m *Model) SetDisable(f DisableFunc) { m.disable = f }

// IsOpen reports whether the picker is showing.
func (m Model) IsOpen() bool { return m.open }

// Query returns the current query.
func (m Model) Query() string { return m.query }

// Items returns the candidates shown (the sessions section), which
// answer Query only when Fresh. See [Model.Hits] and
// [Model.SectionItems] for the other sections.
func (m Model) Items() []sessionref.Candidate { return m.items }

// Fresh reports whether the sessions' rows (Items) answer the current
// query. Items, Fresh and Err are the sessions section's; Hits, HitsFresh
// and HitsErr the "in messages" section's; SectionItems, SectionFresh and
// SectionErr answer for any section by its id.
func (m Model) Fresh() bool { return !m.pending && m.itemsQuery == m.query }

// Err returns the sessions source's error for the current query, if any.
func (m Model) Err() error { return m.err }

// Cursor returns the index of the highlighted row.
func (m Model) Cursor() int { return m.cursor }

// Accepting reports whether a pick was asked for before the current
// query was answered: the first match is picked when the answer arrives
// (see [Model.Update]). A host that wants typing to land after the
// picked token holds further keys while this is true.
func (m Model) Accepting() bool { return m.open && m.acceptOnArrival }

// Highlighted returns the highlighted candidate or hit, when there is
// one that answers the current query and can be picked. A highlighted
// host's item is no session: see [Model.HighlightedItem].
func (m Model) Highlighted() (sessionref.Candidate, bool) {
	i, ok := m.highlightedEntry()
	if !ok {
		return sessionref.Candidate{}, false
	}
	if b, _ := m.locate(i); b.kind == kindHost {
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

// TakePick returns the pick made by the last Update, if any, and a Model
// that no longer holds it. A host that embeds the picker uses it to take
// the pick in the same Update as the key or click that made it; the
// [PickedMsg] the picker also sends as a Cmd is for other listeners.
func (m Model) TakePick() (Model, PickedMsg, bool) {
	if m.pick == nil {
		return m, PickedMsg{}, false
	}
	p := *m.pick
	m.pick = nil
	return m, p, true
}

// Open shows the picker for query; the cache starts empty so a reopened
// picker shows current sessions. The query may hold any text, spaces
// included: where a query ends is the host's decision.
func (m Model) Open(query string) (Model, tea.Cmd) {
	m.open, m.held = true, 0
	m.cache, m.moreOf = nil, nil
	m.cacheKeys = nil
	m.items, m.itemsQuery, m.err = nil, "", nil
	m.hitsAll, m.hits, m.hitsQuery, m.hitErr = nil, nil, "", nil
	m.clearSections()
	m.cursor, m.offset = 0, 0
	m.pv.gen++ // cached previews show, and are read again
	m, cmd := m.runQuery(query)
	return m.followPreview(cmd)
}

// Close hides the picker and cancels its fetch.
func (m Model) Close() Model {
	m.open = false
	m.acceptOnArrival = false
	m.notice, m.nudged = "", false
	m.stopFetch()
	m.stopHits()
	m.stopSections()
	m.stopPreview()
	m.pending, m.slow, m.hitsPending = false, false, false
	return m
}

// Refresh asks the sources again for the current query, for a host whose
// sessions changed while the picker is open (a store finished loading, an
// index finished a sync): the cache is dropped and both sections are
// fetched anew. The rows on screen stay until the answers arrive, and a
// pick waiting for the first match still waits for it.
func (m Model) Refresh() (Model, tea.Cmd) {
	if !m.open {
		return m, nil
	}
	m.cache, m.cacheKeys, m.moreOf = nil, nil, nil
	if f, ok := m.source.(forgetter); ok {
		f.Forget()
	}
	accept := m.acceptOnArrival
	m.pv.gen++
	m, cmd := m.runQuery(m.query)
	m.acceptOnArrival = accept
	return m.followPreview(cmd)
}

// SetQuery changes the query. A cached answer shows at once; otherwise one
// fetch starts, with its own context, and the previous one is cancelled.
func (m Model) SetQuery(query string) (Model, tea.Cmd) {
	if !m.open || query == m.query {
		return m, nil
	}
	m, cmd := m.runQuery(query)
	return m.followPreview(cmd)
}

// runQuery makes query current and answers it, from the cache or a fetch.
func (m Model) runQuery(query string) (Model, tea.Cmd) {
	m.query = query
	m.chose = false
	m.acceptOnArrival = false
	m.notice, m.nudged = "", false
	m.stopFetch()
	m.seq++
	hits := m.startHits()
	items := m.startSections()
	if !m.sessionsAnswer(query) {
		m.pending, m.slow = false, false
		m.setItems(query, nil, nil)
		return m, tea.Batch(hits, items, m.slowTickIfPending())
	}
	if cands, ok := m.cache[cacheKey{m.targetKey, query}]; ok {
		m.pending, m.slow = false, false
		m.setItems(query, cands, nil)
		m.more = m.moreOf[cacheKey{m.targetKey, query}]
		return m, tea.Batch(hits, items, m.slowTickIfPending())
	}
	m.pending, m.slow = true, false
	ctx, cancel := m.fetchContext()
	m.cancel = cancel
	fetch := fetchCmd(m.source, ctx, m.id, m.seq, m.targetKey, query, m.sourceQueries(query))
	return m, tea.Batch(fetch, m.slowTick(), hits, items)
}

func fetchCmd(src Source, ctx context.Context, id int64, seq uint64, target, query string, asked []string) tea.Cmd {
	return func() tea.Msg {
		cands, more, err := fetchAll(ctx, src, asked)
		return FetchedMsg{picker: id, seq: seq, target: target, Query: query, Candidates: cands, More: more, Err: err, cancelled: ctx.Err() != nil}
	}
}

func (m *Model) stopFetch() {
	if m.cancel != nil {
		m.cancel()
		m.cancel = nil
	}
}

func (m *Model) setItems(query string, cands []sessionref.Candidate, err error) {
	id, at, chose := m.hostChoice()
	m.items, m.itemsQuery, m.err = cands, query, err
	m.filterHits()
	m.cursor, m.offset = 0, 0
	if chose && m.restoreCursor(id, at) {
		m.scrollToCursor() // the host's item the user moved to stays highlighted
		return
	}
	m.skipDisabled(1)
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
