package picker

import (
	"context"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/sessionref"
)

// Preview is what the model would receive of one session if the draft
// referenced it now: its capture record (messages kept of total, omitted
// messages and bytes, compacted, truncated) and its snapshot.
type Preview struct {
	// Record says what was captured, as a card's collapsed line says it.
	Record sessionref.ReferenceRecord
	// Snapshot is the session as the prompt would carry it, its
	// conversation oldest first.
	Snapshot sessionref.Snapshot
	// Bytes is the size of the snapshot in the prompt, or of Text; the
	// picker's preview cache counts it against its budget.
	Bytes int
	// Text is the preview of a host's item (see [Section].Preview); ""
	// for a session.
	Text string
}

// Previewer reads the preview of one session. Like [Source] it is called
// from a tea.Cmd, never from Update, and must honour ctx: the picker
// cancels a read as soon as the highlight moves on.
type Previewer interface {
	Preview(ctx context.Context, c sessionref.Candidate) (Preview, error)
}

// PreviewerFunc adapts a function to [Previewer].
type PreviewerFunc func(ctx context.Context, c sessionref.Candidate) (Preview, error)

// Preview calls f.
func (f PreviewerFunc) Preview(ctx context.Context, c sessionref.Candidate) (Preview, error) {
	return f(ctx, c)
}

// ResolverPreviewer previews a session through r's own Prepare, exactly
// as a send would capture it: a message written in the picker's target
// (see [Model.SetTarget], carried in ctx) that mentions just that
// session, with the label a pick would give it (see [MentionLabel]).
// There is one projection and one budget, so the preview says what a
// send would say, failures included: a session that cannot be read, or
// cannot fit r's budget, gives the *sessionref.Error a send would give,
// which the picker shows in the words of [sessionref.Describe] under r's
// Config. Without a target it prepares as a message of no session.
func ResolverPreviewer(r *sessionref.Resolver) Previewer {
	return resolverPreviewer{r}
}

type resolverPreviewer struct {
	r *sessionref.Resolver
}

// Config is the resolver's configuration, for the words of an error.
func (p resolverPreviewer) Config() sessionref.Config { return p.r.Config() }

func (p resolverPreviewer) Preview(ctx context.Context, c sessionref.Candidate) (Preview, error) {
	t, _ := TargetFromContext(ctx)
	label := pickLabel(c)
	out, err := p.r.Prepare(ctx, t, nil, []sessionref.Reference{{SessionID: c.SessionID, Label: &label}})
	if err != nil {
		return Preview{}, err
	}
	if out.Context == nil || len(out.Context.Source.References) != 1 {
		return Preview{}, errors.New("the resolver captured nothing")
	}
	snaps, err := sessionref.ParsePrompt(out.Context.Prompt())
	if err != nil || len(snaps) != 1 {
		return Preview{}, fmt.Errorf("the resolver's prompt cannot be read back: %v", err)
	}
	prompt := out.Context.Prompt()
	return Preview{
		Record:   out.Context.Source.References[0],
		Snapshot: snaps[0],
		Bytes:    len(prompt),
	}, nil
}

// pickLabel is the label a pick of c gives its mention.
func pickLabel(c sessionref.Candidate) string {
	if l := MentionLabel(c.Label); l != "" {
		return l
	}
	return MentionLabel(c.SessionID)
}

// configurer is a Previewer that knows the limits its errors name.
type configurer interface{ Config() sessionref.Config }

// DefaultPreviewCacheBytes is the byte budget of the preview cache (see
// [WithPreviewCache]): sixty-four snapshots of the default 64 KiB.
const DefaultPreviewCacheBytes = 4 << 20

// PreviewMinWidth is the width, in cells, of the popup's pane from which
// the preview stands beside the rows. Below it the preview takes the
// place of the rows while the Preview key has it shown.
const PreviewMinWidth = 100

// WithPreview shows a preview of the highlighted session (a candidate or
// an "in messages" hit): what the model would receive if the draft
// referenced it now. It is read through p in a tea.Cmd, one read at a
// time (a read still running when the highlight moves is cancelled, and
// only the last highlighted session is read next), and kept in a cache
// by session, with the capture seq it was read at, within
// [DefaultPreviewCacheBytes]; a cached preview shows at once and is read
// again once per opening of the popup, in case the session moved on.
//
// In a pane at least [PreviewMinWidth] cells wide the preview stands
// beside the rows; in a narrower one the Preview key (alt+p or F2) shows
// it in place of the rows and back. The highlight still moves (↑/↓) and
// Tab or Enter still picks while it shows; pgup and pgdn then page the
// preview. The wheel over the preview scrolls it.
//
// Off by default: a preview reads a whole session for every highlight,
// which a host over a slow or remote store may not want to pay for.
// With nil, the preview is off.
func WithPreview(p Previewer) Option {
	return func(m *Model) {
		m.previewer = p
		m.previewCfg = sessionref.Config{}
		if c, ok := p.(configurer); ok {
			m.previewCfg = c.Config()
		}
	}
}

// WithPreviewCache sets the byte budget of the preview cache (default
// [DefaultPreviewCacheBytes]); the least recently shown previews go
// first. A preview larger than the budget is kept alone, until the next.
func WithPreviewCache(bytes int) Option {
	return func(m *Model) { m.previewBudget = max(bytes, 0) }
}

// previewMsg carries a previewer's answer to one read.
type previewMsg struct {
	picker  int64
	seq     uint64
	key     previewKey
	preview Preview
	err     error
}

// previewKey is what a preview answers: a session (section "") or a
// host's item of a section, for a target.
type previewKey struct{ target, section, id string }

// previewState is the picker's part for the preview.
type previewState struct {
	// shown: in a narrow pane, the preview is in place of the rows.
	shown bool
	// want is the session to show; wantC its candidate, wantHit its hit
	// (the terms to find and underline), hasHit whether it is one.
	want    previewKey
	wantC   sessionref.Candidate
	wantHit Hit
	hasHit  bool
	// wantItem is the host's item to show, when want.section is set.
	wantItem Item
	// reading is the session being read, when a read runs; readSeq tags
	// its answer, cancel stops it.
	reading previewKey
	busy    bool
	readSeq uint64
	cancel  context.CancelFunc
	// gen counts the openings of the popup: a cached preview of an older
	// opening shows at once and is read again.
	gen uint64
	// top is the first line shown, once the user scrolled (follow is
	// then false); until then the preview follows its end, or a hit's
	// match.
	top    int
	follow bool
	// reads counts the reads started, for tests.
	reads int
	cache *previewCache
}

// PreviewShown reports whether a preview is drawn now: beside the rows,
// or in their place.
func (m Model) PreviewShown() bool {
	return m.open && m.hasPreviews() && (m.layout().previewW > 0)
}

// PreviewFor returns the preview on screen for the highlighted row (a
// session, or a host's item whose section previews), and whether it has
// arrived; err is the previewer's error, for a session that cannot be
// referenced.
func (m Model) PreviewFor() (p Preview, ok bool, err error) {
	e := m.previewEntry()
	if e == nil {
		return Preview{}, false, nil
	}
	return e.preview, true, e.err
}

// previewEntry is the cached preview of the session to show, if any.
func (m Model) previewEntry() *previewEntry {
	if m.pv.cache == nil || m.pv.want.id == "" {
		return nil
	}
	return m.pv.cache.peek(m.pv.want)
}

// previewing reports whether the preview is wanted now: the picker is
// open with a previewer, and the preview is beside the rows or toggled
// into their place.
func (m Model) previewing() bool {
	if !m.open || !m.hasPreviews() || !(m.previewWide() || m.pv.shown) {
		return false
	}
	return m.cursorHasPreview()
}

// cursorHasPreview reports whether the row under the cursor has a
// preview: a session's, with a previewer, or a host's item's, with its
// section's Preview.
func (m Model) cursorHasPreview() bool {
	if !m.open || m.cursor < 0 || m.cursor >= m.entries() {
		return false
	}
	b, j := m.locate(m.cursor)
	switch {
	case j < 0:
		return false
	case b.kind == kindHost:
		return m.secs[b.sec].host.Preview != nil
	}
	return m.previewer != nil
}

// hasPreviews reports whether any row may have a preview: with a
// previewer of sessions, or a host's section that previews its items.
func (m Model) hasPreviews() bool {
	if m.previewer != nil {
		return true
	}
	for i := range m.secs {
		if m.secs[i].host.Preview != nil {
			return true
		}
	}
	return false
}

// previewInPlace reports whether the preview is drawn in place of the
// rows.
func (m Model) previewInPlace() bool { return m.previewing() && !m.previewWide() }

// previewWide reports whether the pane is wide enough for the preview to
// stand beside the rows.
func (m Model) previewWide() bool {
	a := m.area()
	w := a.W
	if m.width > 0 {
		w = min(m.width, a.W)
	}
	return w >= PreviewMinWidth
}

// previewTarget is what the preview shows: a session (with its hit,
// when it is one) or a host's item, and the read that gets it.
type previewTarget struct {
	key   previewKey
	c     sessionref.Candidate
	hit   Hit
	isHit bool
	item  Item
	read  func(ctx context.Context) (Preview, error)
}

// highlightedPreview is the highlighted row's preview to show, when its
// section has one: a session's, with a previewer, or a host's item's,
// with its section's Preview. A row of an older answer is previewed too:
// the user sees it highlighted.
func (m Model) highlightedPreview() (previewTarget, bool) {
	if !m.open || m.cursor < 0 || m.cursor >= m.entries() {
		return previewTarget{}, false
	}
	b, j := m.locate(m.cursor)
	if j < 0 {
		return previewTarget{}, false
	}
	s := &m.secs[b.sec]
	if b.kind == kindHost {
		pv := s.host.Preview
		if pv == nil {
			return previewTarget{}, false
		}
		it := s.answer.Items[j]
		read := func(ctx context.Context) (Preview, error) {
			text, err := pv(ctx, it)
			return Preview{Text: text, Bytes: len(text)}, err
		}
		return previewTarget{key: previewKey{m.targetKey, s.id, itemKey(it)}, item: it, read: read}, true
	}
	if m.previewer == nil {
		return previewTarget{}, false
	}
	t := previewTarget{c: m.entry(m.cursor)}
	if b.kind == kindHits {
		t.hit, t.isHit = s.answer.Hits[j], true
	}
	t.key = previewKey{target: m.targetKey, id: t.c.SessionID}
	p, c := m.previewer, t.c
	t.read = func(ctx context.Context) (Preview, error) { return p.Preview(ctx, c) }
	return t, true
}

// itemKey tells a host's items apart for the preview cache.
func itemKey(it Item) string { return it.Label + "\x00" + it.Detail + "\x00" + it.Insert }

// followPreview starts or cancels the preview's read after anything that
// may have moved the highlight: at most one read runs, and the one that
// runs is for the row highlighted last. A cached preview of this opening
// needs no read.
func (m Model) followPreview(cmd tea.Cmd) (Model, tea.Cmd) {
	if !m.hasPreviews() {
		return m, cmd
	}
	if !m.open {
		m.stopPreview()
		return m, cmd
	}
	t, ok := m.highlightedPreview()
	if !ok || !m.previewing() {
		if m.pv.busy {
			m.pv.cancel() // its answer comes back cancelled and frees the slot
		}
		// Nothing is wanted while nothing shows: when the preview shows
		// again (a key, a wider pane) it reads what is highlighted then.
		m.pv.want = previewKey{}
		return m, cmd
	}
	k := t.key
	if k != m.pv.want || t.isHit != m.pv.hasHit || t.isHit && !sameHit(t.hit, m.pv.wantHit) {
		m.pv.want, m.pv.wantC, m.pv.wantHit, m.pv.hasHit, m.pv.wantItem = k, t.c, t.hit, t.isHit, t.item
		m.pv.top, m.pv.follow = 0, true
	}
	if m.pv.cache == nil {
		m.pv.cache = newPreviewCache(m.previewBudget)
	}
	if e := m.pv.cache.get(k); e != nil && e.gen == m.pv.gen {
		if m.pv.busy && m.pv.reading != k {
			m.pv.cancel()
		}
		return m, cmd
	}
	if m.pv.busy {
		if m.pv.reading != k {
			m.pv.cancel() // the next read starts when its answer is in
		}
		return m, cmd
	}
	m.pv.busy, m.pv.reading = true, k
	m.pv.readSeq++
	m.pv.reads++
	ctx, cancel := m.fetchContext()
	m.pv.cancel = cancel
	read := previewCmd(t.read, ctx, m.id, m.pv.readSeq, k)
	return m, tea.Batch(cmd, read)
}

func sameHit(a, b Hit) bool {
	if a.Snippet != b.Snippet || len(a.Match) != len(b.Match) {
		return false
	}
	for i := range a.Match {
		if a.Match[i] != b.Match[i] {
			return false
		}
	}
	return true
}

func previewCmd(read func(context.Context) (Preview, error), ctx context.Context, id int64, seq uint64, k previewKey) tea.Cmd {
	return func() tea.Msg {
		pv, err := read(ctx)
		if err == nil && ctx.Err() != nil {
			err = ctx.Err()
		}
		return previewMsg{picker: id, seq: seq, key: k, preview: pv, err: err}
	}
}

// stopPreview cancels a running read; its answer will be dropped.
func (m *Model) stopPreview() {
	if m.pv.busy {
		m.pv.cancel()
	}
	m.pv.busy = false
	m.pv.cancel = nil
	m.pv.readSeq++
}

// applyPreview takes a read's answer: it frees the slot for the next
// read, and a preview (or the error a send would give) is kept, unless
// the read was cancelled.
func (m Model) applyPreview(msg previewMsg) Model {
	if msg.picker != m.id || msg.seq != m.pv.readSeq || !m.pv.busy {
		return m // an answer to a read already abandoned
	}
	m.pv.busy = false
	m.pv.cancel()
	m.pv.cancel = nil
	if msg.err != nil && (errors.Is(msg.err, context.Canceled) || sessionref.CodeOf(msg.err) == sessionref.CodeCancelled) {
		return m
	}
	if m.pv.cache == nil {
		m.pv.cache = newPreviewCache(m.previewBudget)
	}
	if old := m.pv.cache.get(msg.key); old != nil && old.err == nil && msg.err == nil &&
		sameSeq(old.preview.Record.CapturedThroughSeq, msg.preview.Record.CapturedThroughSeq) {
		old.gen = m.pv.gen // the session has not moved on: keep what is drawn
		return m
	}
	m.pv.cache.put(msg.key, &previewEntry{preview: msg.preview, err: msg.err, gen: m.pv.gen})
	return m
}

// sameSeq reports whether two capture seqs are the same one; an unknown
// seq is never the same.
func sameSeq(a, b *int64) bool { return a != nil && b != nil && *a == *b }

// previewErrText is the error of a preview in the words a send would
// use, through the one sanitiser every view uses (Describe's own escaping
// is the core's, without the terminal's width rules).
func (m Model) previewErrText(err error) string {
	return textutil.Inline(sessionref.Describe(err, m.previewCfg, nil))
}

// previewCache keeps previews by session within a byte budget, the least
// recently used dropped first. It is shared by the copies of a Model, as
// the candidates' cache is.
type previewCache struct {
	budget  int
	used    int
	entries map[previewKey]*previewEntry
	order   []previewKey // least recently used first
}

// previewEntry is a preview and what is drawn from it.
type previewEntry struct {
	preview Preview
	err     error
	gen     uint64
	// The lines drawn, for the width and hit they were drawn for.
	render *previewRender
}

func newPreviewCache(budget int) *previewCache {
	if budget == 0 {
		budget = DefaultPreviewCacheBytes
	}
	return &previewCache{budget: budget, entries: make(map[previewKey]*previewEntry)}
}

// size is what an entry costs the budget.
func (e *previewEntry) size() int {
	if e.err != nil {
		return 256
	}
	return max(e.preview.Bytes, 256)
}

// peek returns k's entry without marking it used.
func (c *previewCache) peek(k previewKey) *previewEntry { return c.entries[k] }

// get returns k's entry and marks it the most recently used.
func (c *previewCache) get(k previewKey) *previewEntry {
	e := c.entries[k]
	if e != nil {
		c.touch(k)
	}
	return e
}

func (c *previewCache) touch(k previewKey) {
	for i, o := range c.order {
		if o == k {
			copy(c.order[i:], c.order[i+1:])
			c.order[len(c.order)-1] = k
			return
		}
	}
}

// put keeps e under k, dropping the least recently used entries past the
// budget; an entry larger than the budget is kept alone until the next.
func (c *previewCache) put(k previewKey, e *previewEntry) {
	if old := c.entries[k]; old != nil {
		c.used -= old.size()
		c.entries[k] = e
		c.used += e.size()
		c.touch(k)
	} else {
		c.entries[k] = e
		c.used += e.size()
		c.order = append(c.order, k)
	}
	for c.used > c.budget && len(c.order) > 1 {
		drop := c.order[0]
		c.order = c.order[1:]
		c.used -= c.entries[drop].size()
		delete(c.entries, drop)
	}
}

// bytes is what the cache holds, for tests.
func (c *previewCache) bytes() int { return c.used }
