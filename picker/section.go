package picker

import (
	"context"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// The IDs of the picker's own sections, for [WithOrder] and
// [PickedMsg].Section.
const (
	// SessionsID is the candidates' section: sessions by title, folder
	// or id, from the picker's [Source].
	SessionsID = "sessions"
	// MessagesID is the "in messages" section of [WithHitSource].
	MessagesID = "in messages"
)

// Item is a host's entry in a section of its own (see [Section]): a
// file, a command, an agent. The picker draws Label and Detail through
// the same sanitiser as a session's title, so they may hold anything.
type Item struct {
	// Label is the row's text; the query's match in it is underlined.
	Label string
	// Detail is shown dimmed at the right of the row (a path, a
	// description); it gives way to the label when the row is narrow.
	Detail string
	// Insert is the text the composer writes in place of "@query" when
	// the item is picked, followed by a space; "" writes nothing (the
	// "@query" goes, and the host attaches Value itself).
	Insert string
	// Value is the host's own, handed back with the pick.
	Value any
}

// ItemSource answers a section's query. Like [Source] it is called from a
// tea.Cmd, never from Update, and must honour ctx: the picker cancels it
// as soon as the query changes. ctx carries the picker's target, if one
// was set (see [TargetFromContext]). It is called for an empty or blank
// query only when the section's OnEmpty is set.
type ItemSource func(ctx context.Context, query string) ([]Item, error)

// Section is a host's section of the popup, under a heading of its own.
// Its rows are fetched like the candidates: once per query, tagged with
// it, cancelled when the query changes, a stale answer dropped, and
// "searching…" shown in its heading when the answer is slow.
type Section struct {
	// ID names the section in [WithOrder], [ItemsMsg] and [PickedMsg];
	// it must not be empty, [SessionsID] or [MessagesID].
	ID string
	// Title is the heading drawn above its rows.
	Title string
	// Source answers its queries.
	Source ItemSource
	// OnEmpty makes the section answer an empty '@' too (a blank query);
	// otherwise it shows nothing until something is typed.
	OnEmpty bool
}

// WithSection adds a host's section to the popup, or replaces the
// section of the same ID. A section without a Source or with an empty or
// reserved ID is ignored. Sections show in the order of [WithOrder], by
// default after the picker's own: sessions, "in messages", then the
// host's in the order they were added.
func WithSection(s Section) Option {
	return func(m *Model) { m.SetSection(s) }
}

// WithOrder sets the order of the popup's sections by ID ([SessionsID],
// [MessagesID] and the IDs of the host's sections). Sections it does not
// name follow in the default order, so none is lost; unknown IDs are
// ignored. One cursor moves through all sections in this order, and the
// entries are numbered in it (see [Model.RowAt]).
func WithOrder(ids ...string) Option {
	return func(m *Model) { m.order = slices.Clone(ids) }
}

// WithSessionsOnEmpty sets whether an empty '@' lists sessions (the
// default, recent sessions first). A host whose empty '@' should offer
// only its own sections (those with OnEmpty) turns it off; the sessions
// show as soon as something is typed.
func WithSessionsOnEmpty(on bool) Option {
	return func(m *Model) { m.noSessionsOnEmpty = !on }
}

// SetSection adds a host's section, or replaces the one of the same ID
// (a new source after the host switched sessions, say); see
// [WithSection]. The change shows from the next query on.
func (m *Model) SetSection(s Section) {
	if s.ID == "" || s.ID == SessionsID || s.ID == MessagesID || s.Source == nil {
		return
	}
	m.sections = slices.Clone(m.sections)
	for i := range m.sections {
		if m.sections[i].ID == s.ID {
			m.sections[i].Section = s
			return
		}
	}
	m.sections = append(m.sections, hostSection{Section: s})
}

// ItemsMsg carries a host section's answer to one query. Like
// [FetchedMsg] it is applied only if it answers the picker's newest
// query for its current target and that section is still waiting for it.
type ItemsMsg struct {
	picker int64
	seq    uint64
	target string
	// Section is the ID of the section answered.
	Section string
	// Query is the query answered.
	Query string
	// Items are the section's rows, in the source's order.
	Items []Item
	// Err is the source's error; the section's heading shows it.
	Err error
	// cancelled says the fetch's context had ended when it returned.
	cancelled bool
}

// NewItemsMsg builds the answer of p's section to p's newest query, for
// tests and hosts that fake a source. It is dropped when query is not p's
// current query or that section's answer came already.
func NewItemsMsg(p Model, section, query string, items []Item, err error) ItemsMsg {
	return ItemsMsg{picker: p.id, seq: p.seq, target: p.targetKey, Section: section, Query: query, Items: items, Err: err}
}

// hostSection is a host's section and its answer to the last query.
type hostSection struct {
	Section
	items   []Item
	query   string // the query items answer
	err     error
	pending bool
	slow    bool
	cancel  context.CancelFunc
}

// SectionItems returns the rows of the host's section id, which answer
// Query only when SectionFresh; nil for an unknown id.
func (m Model) SectionItems(id string) []Item {
	if i := m.sectionIndex(id); i >= 0 {
		return m.sections[i].items
	}
	return nil
}

// SectionErr returns the error of the host's section id for the current
// query, if any.
func (m Model) SectionErr(id string) error {
	if i := m.sectionIndex(id); i >= 0 {
		return m.sections[i].err
	}
	return nil
}

// SectionFresh reports whether the section id (the host's, [SessionsID]
// or [MessagesID]) has answered the current query; an unknown id has
// nothing to wait for.
func (m Model) SectionFresh(id string) bool {
	switch id {
	case SessionsID:
		return m.Fresh()
	case MessagesID:
		return m.HitsFresh()
	}
	if i := m.sectionIndex(id); i >= 0 {
		s := m.sections[i]
		return !s.pending && s.query == m.query
	}
	return true
}

// Settled reports whether every section has answered the current query:
// nothing is being fetched.
func (m Model) Settled() bool {
	for _, id := range m.sectionOrder() {
		if !m.SectionFresh(id) {
			return false
		}
	}
	return true
}

// Len returns the number of entries shown, in every section.
func (m Model) Len() int { return m.entries() }

// Sections returns the IDs of the popup's sections in their order.
func (m Model) Sections() []string { return m.sectionOrder() }

// HighlightedItem returns the highlighted host item and the ID of its
// section, when a host item is highlighted, answers the current query and
// can be picked. [Model.Highlighted] returns sessions only.
func (m Model) HighlightedItem() (Item, string, bool) {
	i, ok := m.highlightedEntry()
	if !ok {
		return Item{}, "", false
	}
	b, j := m.locate(i)
	if b.kind != kindHost {
		return Item{}, "", false
	}
	s := m.sections[b.host]
	return s.items[j], s.ID, true
}

func (m Model) sectionIndex(id string) int {
	for i := range m.sections {
		if m.sections[i].ID == id {
			return i
		}
	}
	return -1
}

// sectionOrder is the IDs of all sections in the order drawn.
func (m Model) sectionOrder() []string {
	all := make([]string, 0, 2+len(m.sections))
	all = append(all, SessionsID)
	if m.hitSource != nil {
		all = append(all, MessagesID)
	}
	for _, s := range m.sections {
		all = append(all, s.ID)
	}
	out := make([]string, 0, len(all))
	for _, id := range m.order {
		if slices.Contains(all, id) && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	for _, id := range all {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// sessionsAnswer reports whether the sessions section is asked query.
func (m Model) sessionsAnswer(query string) bool {
	return !m.noSessionsOnEmpty || strings.TrimSpace(query) != ""
}

// hostPending reports whether a host section is waiting for its answer;
// hostSlow whether one has waited long enough to say so.
func (m Model) hostPending() (pending, slow bool) {
	for _, s := range m.sections {
		pending = pending || s.pending
		slow = slow || s.pending && s.slow
	}
	return pending, slow
}

// anyPending reports whether any section waits for its answer.
func (m Model) anyPending() bool {
	p, _ := m.hostPending()
	return m.pending || m.hitsPending || p
}

// startSections asks every host section the current query, cancelling
// what each was asked before. The rows on screen stay, greyed, until the
// answers come; a section not asked (a blank query without OnEmpty) is
// emptied.
func (m *Model) startSections() tea.Cmd {
	if len(m.sections) == 0 {
		return nil
	}
	m.sections = slices.Clone(m.sections)
	blank := strings.TrimSpace(m.query) == ""
	var cmds []tea.Cmd
	for i := range m.sections {
		s := &m.sections[i]
		if s.cancel != nil {
			s.cancel()
			s.cancel = nil
		}
		s.slow = false
		if blank && !s.OnEmpty {
			s.items, s.err, s.query, s.pending = nil, nil, m.query, false
			continue
		}
		s.pending = true
		cmds = append(cmds, m.sectionCmd(s))
	}
	m.clampCursor()
	return tea.Batch(cmds...)
}

// sectionCmd asks s's source the current query, in a new context.
func (m Model) sectionCmd(s *hostSection) tea.Cmd {
	ctx, cancel := m.fetchContext()
	s.cancel = cancel
	src, id, seq, target, sec, query := s.Source, m.id, m.seq, m.targetKey, s.ID, m.query
	return func() tea.Msg {
		items, err := src(ctx, query)
		return ItemsMsg{picker: id, seq: seq, target: target, Section: sec, Query: query, Items: items, Err: err, cancelled: ctx.Err() != nil}
	}
}

// stopSections cancels every host section's fetch.
func (m *Model) stopSections() {
	if len(m.sections) == 0 {
		return
	}
	m.sections = slices.Clone(m.sections)
	for i := range m.sections {
		s := &m.sections[i]
		if s.cancel != nil {
			s.cancel()
			s.cancel = nil
		}
		s.pending, s.slow = false, false
	}
}

// clearSections forgets every host section's rows.
func (m *Model) clearSections() {
	if len(m.sections) == 0 {
		return
	}
	m.sections = slices.Clone(m.sections)
	for i := range m.sections {
		s := &m.sections[i]
		s.items, s.err, s.query = nil, nil, ""
	}
}

// slowSections marks the host sections still waiting as slow.
func (m *Model) slowSections() {
	if p, _ := m.hostPending(); !p {
		return
	}
	m.sections = slices.Clone(m.sections)
	for i := range m.sections {
		if m.sections[i].pending {
			m.sections[i].slow = true
		}
	}
}

// slowTick is the timer after which a fetch still running says so.
func (m Model) slowTick() tea.Cmd {
	id, seq := m.id, m.seq
	return m.tick(m.slowAfter, func(time.Time) tea.Msg { return slowMsg{id, seq} })
}

// slowTickIfPending is slowTick while a host section waits.
func (m Model) slowTickIfPending() tea.Cmd {
	if p, _ := m.hostPending(); p {
		return m.slowTick()
	}
	return nil
}

// applyItems takes a host section's answer, unless it is stale. The
// cursor goes to the first entry, unless the user moved it to a row of
// another section: that row stays highlighted, wherever the answer's rows
// come.
func (m Model) applyItems(msg ItemsMsg) (Model, tea.Cmd) {
	i := m.sectionIndex(msg.Section)
	if i < 0 || msg.picker != m.id || msg.seq != m.seq || msg.target != m.targetKey ||
		msg.Query != m.query || !m.open || !m.sections[i].pending {
		return m, nil // stale: it answers an older query, or another target
	}
	if msg.cancelled { // a copy cancelled it (see Model): ask again
		m.sections = slices.Clone(m.sections)
		return m, m.sectionCmd(&m.sections[i])
	}
	keepID, keepAt, keep := m.cursorRef()
	m.sections = slices.Clone(m.sections)
	s := &m.sections[i]
	if s.cancel != nil {
		s.cancel()
		s.cancel = nil
	}
	s.pending, s.slow = false, false
	s.items, s.err, s.query = msg.Items, msg.Err, msg.Query
	if msg.Err != nil {
		s.items = nil
	}
	if !keep || !m.chose || keepID == msg.Section || !m.restoreCursor(keepID, keepAt) {
		m.cursor = 0
		m.skipDisabled(1)
	}
	m.clampCursor()
	if m.acceptOnArrival {
		return m.pickFirst()
	}
	return m, nil
}

// cursorRef is the highlighted entry as a section and a place in it.
func (m Model) cursorRef() (id string, at int, ok bool) {
	if m.cursor < 0 || m.cursor >= m.entries() {
		return "", 0, false
	}
	b, j := m.locate(m.cursor)
	return m.blockID(b), j, true
}

// hostChoice is the host's item the user moved the cursor to since the
// query changed, if any: the sessions' or the hits' answer arriving
// leaves it highlighted.
func (m Model) hostChoice() (id string, at int, ok bool) {
	if !m.chose {
		return "", 0, false
	}
	id, at, ok = m.cursorRef()
	if id == SessionsID || id == MessagesID {
		return "", 0, false
	}
	return id, at, ok
}

// restoreCursor puts the cursor back on entry at of section id.
func (m *Model) restoreCursor(id string, at int) bool {
	for _, b := range m.blocks() {
		if m.blockID(b) == id && at < b.n {
			m.cursor = b.first + at
			return true
		}
	}
	return false
}

// pickHelp is what Accept and AcceptEnter say while a host's item is
// highlighted: it is picked, not mentioned.
const pickHelp = "pick"

// forItem makes the help of Accept and AcceptEnter true while a host's
// item is highlighted: the default "mention" becomes "pick". A host's own
// description is left as it is.
func (k KeyMap) forItem(m Model) KeyMap {
	if _, _, ok := m.HighlightedItem(); !ok {
		return k
	}
	def := DefaultKeyMap()
	for _, b := range []struct{ b, d *key.Binding }{{&k.Accept, &def.Accept}, {&k.AcceptEnter, &def.AcceptEnter}} {
		if h := b.b.Help(); h.Desc == b.d.Help().Desc {
			b.b.SetHelp(h.Key, pickHelp)
		}
	}
	return k
}
