package picker

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/sessionref"
)

// The IDs of the picker's own sections, for [WithOrder], [AnswerMsg] and
// [PickedMsg].Section.
const (
	// SessionsID is the sessions section: sessions by title, folder or
	// id, from the picker's [Source].
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
	// Manual marks an item that Tab or Enter picks only when the user
	// highlighted it (a key, the mouse): a row that is always there,
	// such as "Browse files…", is never highlighted by itself, so it
	// does not win every query that matches nothing else.
	Manual bool
}

// ItemSource answers a section's query. Like [Source] it is called from a
// tea.Cmd, never from Update, and must honour ctx: the picker cancels it
// as soon as the query changes. ctx carries the picker's target, if one
// was set (see [TargetFromContext]). It is called for an empty or blank
// query only when the section's OnEmpty is set.
type ItemSource func(ctx context.Context, query string) ([]Item, error)

// ItemPreviewer reads the preview of a host's item: plain text (the
// start of a file, say), drawn sanitised and wrapped like a session's
// conversation. Like [Previewer] it is called from a tea.Cmd, one read at
// a time, and must honour ctx.
type ItemPreviewer func(ctx context.Context, it Item) (string, error)

// Section is a host's section of the popup, under a heading of its own.
// Its rows are fetched like every section's: once per query, tagged with
// it, cancelled when the query changes, a stale answer dropped, and
// "searching…" shown in its heading when the answer is slow.
type Section struct {
	// ID names the section in [WithOrder], [AnswerMsg] and [PickedMsg];
	// it must not be empty, [SessionsID] or [MessagesID].
	ID string
	// Title is the heading drawn above its rows.
	Title string
	// Source answers its queries.
	Source ItemSource
	// OnEmpty makes the section answer an empty '@' too (a blank query);
	// otherwise it shows nothing until something is typed.
	OnEmpty bool
	// Preview, when set, previews the highlighted item beside the rows
	// (or in their place, in a narrow pane), as [WithPreview] does for
	// sessions. Without it an item has no preview: while one is
	// highlighted the rows take the popup's whole width.
	Preview ItemPreviewer
}

// WithSection adds a host's section to the popup, or replaces the
// section of the same ID. A section without a Source or with an empty or
// reserved ID is ignored. Sections show in the order of [WithOrder]; see
// there for the default. A section whose rows depend on the current
// session reads it from its context ([TargetFromContext]).
func WithSection(s Section) Option {
	return func(m *Model) {
		if s.ID == "" || s.ID == SessionsID || s.ID == MessagesID || s.Source == nil {
			return
		}
		for i := range m.hosts {
			if m.hosts[i].ID == s.ID {
				m.hosts[i] = s
				return
			}
		}
		m.hosts = append(m.hosts, s)
	}
}

// WithOrder sets the order of the popup's sections by ID ([SessionsID],
// [MessagesID] and the IDs of the host's sections). Sections it does not
// name follow in the default order, so none is lost; unknown IDs are
// ignored. The default order is the sessions, the host's sections in the
// order they were added, then "in messages": what matches by name comes
// before what matches by what was said. One cursor moves through all
// sections in this order, the entries are numbered in it (see
// [Model.RowAt]), and the highlight rule (see the package doc) follows it.
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

// Answer is a section's answer to one query: the rows of its kind, and
// the source's error.
type Answer struct {
	// Candidates are the rows of the sessions section ([SessionsID]), in
	// the source's order.
	Candidates []sessionref.Candidate
	// More says the source matched more sessions than it listed (its
	// limit); the popup then says that typing filters.
	More bool
	// Hits are the rows of the "in messages" section ([MessagesID]).
	// Read back with [Model.Answer], they leave out the sessions the
	// sessions section lists.
	Hits []Hit
	// Items are the rows of a host's section, in its source's order.
	Items []Item
	// Err is the source's error; the section's heading, or the status
	// while nothing shows, says it.
	Err error
}

// AnswerMsg carries one section's answer to one query. Hosts pass it to
// Update like any other message; it is applied only if it answers the
// picker's newest query for its current target and that section is still
// waiting for it.
type AnswerMsg struct {
	picker int64
	seq    uint64
	target string
	// Section is the ID of the section answered.
	Section string
	// Query is the query answered.
	Query string
	Answer
	// cancelled says the fetch's context had ended when it returned.
	cancelled bool
}

// NewAnswerMsg builds section's answer to p's newest query, for tests
// and hosts that fake a source: passed to p's Update it is applied as if
// the section's source had returned a. It is dropped when query is not
// p's current query or that section's answer came already.
func NewAnswerMsg(p Model, section, query string, a Answer) AnswerMsg {
	return AnswerMsg{picker: p.id, seq: p.seq, target: p.targetKey, Section: section, Query: query, Answer: a}
}

// sectionKind is what a section holds.
type sectionKind uint8

const (
	kindSessions sectionKind = iota // the candidates
	kindHits                        // the "in messages" hits
	kindHost                        // a host's items
)

// sectionState is one section of the popup, whichever its kind, and its
// answer to the last query asked: the one state every section keeps.
type sectionState struct {
	id   string
	kind sectionKind
	host Section // a host's section; its Title, Source, OnEmpty, Preview
	// answer is what the section shows; it answers query.
	answer Answer
	query  string
	// hitsAll is the "in messages" answer whole; answer.Hits leaves out
	// the sessions the sessions section lists.
	hitsAll []Hit
	pending bool // asked, not answered yet
	slow    bool // asked long enough ago to say so
	cancel  context.CancelFunc
}

// rows is how many entries s shows.
func (s *sectionState) rows() int {
	switch s.kind {
	case kindSessions:
		return len(s.answer.Candidates)
	case kindHits:
		return len(s.answer.Hits)
	}
	return len(s.answer.Items)
}

// title is s's heading.
func (s *sectionState) title() string {
	switch {
	case s.kind != kindHost:
		return s.id
	case s.host.Title != "":
		return s.host.Title
	}
	return s.id
}

// stop cancels s's fetch, if one runs.
func (s *sectionState) stop() {
	if s.cancel != nil {
		s.cancel()
		s.cancel = nil
	}
	s.pending, s.slow = false, false
}

// clear forgets s's rows.
func (s *sectionState) clear() {
	s.answer, s.hitsAll, s.query = Answer{}, nil, ""
}

// arrange builds the sections, in their order, once the options are in.
func (m *Model) arrange() {
	all := []sectionState{{id: SessionsID, kind: kindSessions}}
	for _, h := range m.hosts {
		all = append(all, sectionState{id: h.ID, kind: kindHost, host: h})
	}
	if m.hitSource != nil {
		all = append(all, sectionState{id: MessagesID, kind: kindHits})
	}
	m.secs = make([]sectionState, 0, len(all))
	for _, id := range m.order {
		if i := slices.IndexFunc(all, func(s sectionState) bool { return s.id == id }); i >= 0 {
			m.secs = append(m.secs, all[i])
			all = slices.Delete(all, i, i+1)
		}
	}
	m.secs = append(m.secs, all...)
}

// own gives m its own copy of the sections' state before it changes, so
// that a copy of the model is unaffected (see Model).
func (m *Model) own() { m.secs = slices.Clone(m.secs) }

// secIndex is the index of section id in m.secs, or -1.
func (m Model) secIndex(id string) int {
	for i := range m.secs {
		if m.secs[i].id == id {
			return i
		}
	}
	return -1
}

// sec is section id, or nil. Change it only after m.own.
func (m *Model) sec(id string) *sectionState {
	if i := m.secIndex(id); i >= 0 {
		return &m.secs[i]
	}
	return nil
}

// sessions is the sessions section, which every picker has.
func (m *Model) sessions() *sectionState { return &m.secs[m.secIndex(SessionsID)] }

// Answer returns what section id shows: its rows and its source's error
// for the query it answers, which is the current query only when
// [Model.SectionFresh] says so. The hits leave out the sessions the
// sessions section lists. It is the zero Answer for an unknown id.
func (m Model) Answer(id string) Answer {
	if i := m.secIndex(id); i >= 0 {
		return m.secs[i].answer
	}
	return Answer{}
}

// SectionFresh reports whether section id has answered the current
// query; an unknown id has nothing to wait for.
func (m Model) SectionFresh(id string) bool {
	if i := m.secIndex(id); i >= 0 {
		return m.fresh(&m.secs[i])
	}
	return true
}

// fresh reports whether s's rows answer the current query.
func (m Model) fresh(s *sectionState) bool { return !s.pending && s.query == m.query }

// Err returns the errors of the sections' sources for the current query,
// joined in section order; nil when none failed.
func (m Model) Err() error {
	var errs []error
	for i := range m.secs {
		if s := &m.secs[i]; s.answer.Err != nil && s.query == m.query {
			errs = append(errs, s.answer.Err)
		}
	}
	return errors.Join(errs...)
}

// Settled reports whether every section has answered the current query:
// nothing is being fetched.
func (m Model) Settled() bool {
	for i := range m.secs {
		if !m.fresh(&m.secs[i]) {
			return false
		}
	}
	return true
}

// Len returns the number of entries shown, in every section.
func (m Model) Len() int { return m.entries() }

// Sections returns the IDs of the popup's sections in their order.
func (m Model) Sections() []string {
	out := make([]string, len(m.secs))
	for i := range m.secs {
		out[i] = m.secs[i].id
	}
	return out
}

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
	s := &m.secs[b.sec]
	return s.answer.Items[j], s.id, true
}

// asks reports whether s is asked query: a blank query only when the
// section answers an empty '@' (the sessions unless
// WithSessionsOnEmpty(false), a host's with OnEmpty, never the hits).
func (m Model) asks(s *sectionState, query string) bool {
	if strings.TrimSpace(query) != "" {
		return true
	}
	switch s.kind {
	case kindSessions:
		return !m.noSessionsOnEmpty
	case kindHost:
		return s.host.OnEmpty
	}
	return false
}

// anyPending reports whether any section waits for its answer; anySlow
// whether one has waited long enough to say so.
func (m Model) anyPending() bool {
	for i := range m.secs {
		if m.secs[i].pending {
			return true
		}
	}
	return false
}

// askAll asks every section the current query, cancelling what each was
// asked before. The rows on screen stay, greyed, until the answers come;
// a section not asked (see asks) is emptied, and the sessions' answer
// comes from the cache when it holds one.
func (m *Model) askAll() tea.Cmd {
	m.own()
	var cmds []tea.Cmd
	for i := range m.secs {
		s := &m.secs[i]
		s.stop()
		switch {
		case !m.asks(s, m.query):
			s.answer, s.hitsAll, s.query = Answer{}, nil, m.query
		case s.kind == kindSessions && m.cached(s):
		default:
			s.pending = true
			cmds = append(cmds, m.askCmd(s))
		}
	}
	m.filterHits()
	if len(cmds) == 0 {
		return nil
	}
	return tea.Batch(append(cmds, m.slowTick())...)
}

// cached answers the sessions section from the cache, if it can.
func (m *Model) cached(s *sectionState) bool {
	k := cacheKey{m.targetKey, m.query}
	cands, ok := m.cache[k]
	if ok {
		s.answer, s.query = Answer{Candidates: cands, More: m.moreOf[k]}, m.query
	}
	return ok
}

// askCmd asks s's source the current query, in a new context, and
// answers with an AnswerMsg.
func (m Model) askCmd(s *sectionState) tea.Cmd {
	ctx, cancel := m.fetchContext()
	s.cancel = cancel
	msg := AnswerMsg{picker: m.id, seq: m.seq, target: m.targetKey, Section: s.id, Query: m.query}
	var ask func() Answer
	switch s.kind {
	case kindSessions:
		src, asked := m.source, m.sourceQueries(m.query)
		ask = func() Answer {
			cands, more, err := fetchAll(ctx, src, asked)
			return Answer{Candidates: cands, More: more, Err: err}
		}
	case kindHits:
		src, query := m.hitSource, m.query
		ask = func() Answer {
			hits, err := src(ctx, query)
			return Answer{Hits: hits, Err: err}
		}
	default:
		src, query := s.host.Source, m.query
		ask = func() Answer {
			items, err := src(ctx, query)
			return Answer{Items: items, Err: err}
		}
	}
	return func() tea.Msg {
		msg.Answer = ask()
		msg.cancelled = ctx.Err() != nil
		return msg
	}
}

// stopAll cancels every section's fetch.
func (m *Model) stopAll() {
	m.own()
	for i := range m.secs {
		m.secs[i].stop()
	}
}

// clearAll forgets every section's rows.
func (m *Model) clearAll() {
	m.own()
	for i := range m.secs {
		m.secs[i].clear()
	}
}

// slowTick is the timer after which a fetch still running says so.
func (m Model) slowTick() tea.Cmd {
	id, seq := m.id, m.seq
	return m.tick(m.slowAfter, func(time.Time) tea.Msg { return slowMsg{id, seq} })
}

// markSlow marks the sections still waiting as slow.
func (m *Model) markSlow() {
	if !m.anyPending() {
		return
	}
	m.own()
	for i := range m.secs {
		if m.secs[i].pending {
			m.secs[i].slow = true
		}
	}
}

// apply takes a section's answer, unless it is stale, and places the
// highlight by the one rule (see placeCursor). A pick asked for before
// the answer is made once the sections before its row have answered.
func (m Model) apply(msg AnswerMsg) (Model, tea.Cmd) {
	i := m.secIndex(msg.Section)
	if i < 0 || msg.picker != m.id || msg.seq != m.seq || msg.target != m.targetKey ||
		msg.Query != m.query || !m.open || !m.secs[i].pending {
		return m, nil // stale: it answers an older query, or another target
	}
	m.own()
	s := &m.secs[i]
	if msg.cancelled { // a copy cancelled it (see Model): ask again
		return m, m.askCmd(s)
	}
	seen := m.cursorRef()
	s.stop()
	a := msg.Answer
	if a.Err != nil {
		a = Answer{Err: a.Err}
	}
	switch s.kind {
	case kindSessions:
		a.Hits, a.Items = nil, nil
		if a.Err == nil {
			m.remember(msg.Query, a.Candidates)
			m.rememberMore(msg.Query, a.More)
		}
	case kindHits:
		s.hitsAll, a.Candidates, a.Items, a.More = a.Hits, nil, nil, false
	default:
		a.Candidates, a.Hits, a.More = nil, nil, false
	}
	s.answer, s.query = a, msg.Query
	m.filterHits()
	m.placeCursor(seen)
	if m.acceptOnArrival {
		return m.pickFirst()
	}
	return m, nil
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
