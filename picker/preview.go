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
	// Bytes is the size of the snapshot in the prompt; the picker's
	// preview cache counts it against its budget.
	Bytes int
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
// as a send would capture it: a message written in target that mentions
// just that session, with the label a pick would give it (see
// [MentionLabel]). There is one projection and one budget, so the
// preview says what a send would say, failures included: a session that
// cannot be read, or cannot fit r's budget, gives the *sessionref.Error a
// send would give, which the picker shows in the words of
// [sessionref.Describe] under r's Config.
//
// After [Model.SetTarget] the picker's reads carry the new target in
// their context (see [TargetFromContext]), which is used instead of
// target.
func ResolverPreviewer(r *sessionref.Resolver, target sessionref.Target) Previewer {
	return resolverPreviewer{r, target}
}

type resolverPreviewer struct {
	r      *sessionref.Resolver
	target sessionref.Target
}

// Config is the resolver's configuration, for the words of an error.
func (p resolverPreviewer) Config() sessionref.Config { return p.r.Config() }

func (p resolverPreviewer) Preview(ctx context.Context, c sessionref.Candidate) (Preview, error) {
	t := p.target
	if ct, ok := TargetFromContext(ctx); ok {
		t = ct
	}
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

// previewKey is what a preview answers: a session, for a target.
type previewKey struct{ target, id string }

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
	return m.open && m.previewer != nil && (m.layout().previewW > 0)
}

// PreviewFor returns the preview on screen for the highlighted session,
// and whether it has arrived; err is the previewer's error, for a session
// that cannot be referenced.
func (m Model) PreviewFor() (p Preview, err error, ok bool) {
	e := m.previewEntry()
	if e == nil {
		return Preview{}, nil, false
	}
	return e.preview, e.err, true
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
	return m.open && m.previewer != nil && (m.previewWide() || m.pv.shown)
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

// highlightedSession is the highlighted session (candidate or hit) the
// preview follows, and its hit when it is one. A row of an older answer
// is previewed too: the user sees it highlighted.
func (m Model) highlightedSession() (sessionref.Candidate, Hit, bool, bool) {
	if !m.open || m.cursor < 0 || m.cursor >= m.entries() {
		return sessionref.Candidate{}, Hit{}, false, false
	}
	b, j := m.locate(m.cursor)
	switch {
	case j < 0 || b.kind == kindHost:
		return sessionref.Candidate{}, Hit{}, false, false
	case b.kind == kindHits:
		return m.hits[j].Candidate, m.hits[j], true, true
	}
	return m.items[j], Hit{}, false, true
}

// followPreview starts or cancels the preview's read after anything that
// may have moved the highlight: at most one read runs, and the one that
// runs is for the session highlighted last. A cached preview of this
// opening needs no read.
func (m Model) followPreview(cmd tea.Cmd) (Model, tea.Cmd) {
	if m.previewer == nil {
		return m, cmd
	}
	if !m.open {
		m.stopPreview()
		return m, cmd
	}
	c, hit, isHit, ok := m.highlightedSession()
	if !ok || !m.previewing() {
		if m.pv.busy {
			m.pv.cancel() // its answer comes back cancelled and frees the slot
		}
		// Nothing is wanted while nothing shows: when the preview shows
		// again (a key, a wider pane) it reads what is highlighted then.
		m.pv.want = previewKey{}
		return m, cmd
	}
	k := previewKey{m.targetKey, c.SessionID}
	if k != m.pv.want || isHit != m.pv.hasHit || isHit && !sameHit(hit, m.pv.wantHit) {
		m.pv.want, m.pv.wantC, m.pv.wantHit, m.pv.hasHit = k, c, hit, isHit
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
	read := previewCmd(m.previewer, ctx, m.id, m.pv.readSeq, k, c)
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

func previewCmd(p Previewer, ctx context.Context, id int64, seq uint64, k previewKey, c sessionref.Candidate) tea.Cmd {
	return func() tea.Msg {
		pv, err := p.Preview(ctx, c)
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
