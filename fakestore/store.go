package fakestore

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/dshkit/mentions/sessionref"
)

// Errors of the store's mutations and reads.
var (
	// ErrNotFound: no session has that id.
	ErrNotFound = errors.New("fakestore: session not found")
	// ErrExists: Create was given an id that is taken.
	ErrExists = errors.New("fakestore: session already exists")
	// ErrBadRange: Compact was given seqs that are not a current range.
	ErrBadRange = errors.New("fakestore: not a range of the current surface")
)

// Store is an in-memory session store that behaves like a session log:
// each session is an append-only list of events with contiguous seqs, a
// surface folded from append and replace operations, and title events of
// which the latest wins. It implements [sessionref.SessionQuery] and is
// safe for concurrent use.
type Store struct {
	mu       sync.RWMutex
	sessions map[string]*session
	sorted   []sessionref.SessionHeader // newest first; nil when stale
	titles   []sessionref.TitleResult   // aligned with sorted; rebuilt with it
	latency  time.Duration
	failures map[string]error
	now      func() time.Time
	cwds     map[string]*string // interned: sessions in one directory share it
}

type session struct {
	header sessionref.SessionHeader
	events []logEvent // index = seq
	nodes  []int64    // the current surface, as seqs in surface order
	title  *sessionref.Title
}

type logEvent struct {
	typ  string
	time int64
	ev   *sessionref.Event // the message, for surface types
}

// Option configures a Store.
type Option func(*Store)

// WithLatency delays every read by d (honouring cancellation), to show
// an asynchronous UI at work.
func WithLatency(d time.Duration) Option { return func(s *Store) { s.latency = d } }

// WithClock sets the clock used to time events (time.Now by default).
func WithClock(now func() time.Time) Option { return func(s *Store) { s.now = now } }

// New returns an empty store.
func New(opts ...Option) *Store {
	s := &Store{sessions: map[string]*session{}, failures: map[string]error{}, now: time.Now}
	for _, o := range opts {
		o(s)
	}
	return s
}

// SetLatency changes the read latency.
func (s *Store) SetLatency(d time.Duration) {
	s.mu.Lock()
	s.latency = d
	s.mu.Unlock()
}

// FailReads makes ReadSurface of id fail with err; a nil err clears it.
func (s *Store) FailReads(id string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err == nil {
		delete(s.failures, id)
		return
	}
	s.failures[id] = err
}

// Create adds an empty session. A nil cwd means the session has none.
func (s *Store) Create(id string, cwd *string, createdAt time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.sessions[id]; ok {
		return fmt.Errorf("%w: %q", ErrExists, id)
	}
	cwd = s.intern(cwd)
	s.sessions[id] = &session{header: sessionref.SessionHeader{ID: id, Cwd: cwd, CreatedAt: createdAt.UnixMilli()}}
	s.sorted = nil
	return nil
}

// Delete removes a session.
func (s *Store) Delete(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.sessions[id]; !ok {
		return fmt.Errorf("%w: %q", ErrNotFound, id)
	}
	delete(s.sessions, id)
	s.sorted = nil
	return nil
}

// Len returns the number of sessions.
func (s *Store) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.sessions)
}

// Append appends a surface event (user/message, assistant/message or
// tool/result) and returns its seq. The event is copied.
func (s *Store) Append(id string, ev sessionref.Event) (int64, error) {
	switch ev.Type {
	case sessionref.EventUserMessage, sessionref.EventAssistantMessage, sessionref.EventToolResult:
	default:
		return 0, fmt.Errorf("fakestore: %q is not a surface event type", ev.Type)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, err := s.get(id)
	if err != nil {
		return 0, err
	}
	seq := ss.push(ev.Type, s.now(), &ev)
	ss.nodes = append(ss.nodes, seq)
	return seq, nil
}

// AppendUser appends a human prompt.
func (s *Store) AppendUser(id, text string) (int64, error) {
	return s.Append(id, message(sessionref.EventUserMessage, sessionref.Source{Kind: sessionref.SourceUser}, text))
}

// AppendAssistant appends an assistant message.
func (s *Store) AppendAssistant(id, text string) (int64, error) {
	return s.Append(id, message(sessionref.EventAssistantMessage, sessionref.Source{Kind: sessionref.SourceModel}, text))
}

// AppendTool appends a tool result.
func (s *Store) AppendTool(id, text string) (int64, error) {
	ev := message(sessionref.EventToolResult, sessionref.Source{Kind: sessionref.SourceTool}, "")
	ev.Content = []sessionref.Block{{Type: "tool-result", Text: text}}
	return s.Append(id, ev)
}

// AppendPlugin appends a message written by a plugin.
func (s *Store) AppendPlugin(id, plugin, text string) (int64, error) {
	return s.Append(id, message(sessionref.EventUserMessage, sessionref.Source{Kind: sessionref.SourcePlugin, Plugin: plugin}, text))
}

// AppendLog appends a log-only event (turn/start, assistant/chunk, …),
// which moves capturedThroughSeq but not the surface.
func (s *Store) AppendLog(id, typ string) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, err := s.get(id)
	if err != nil {
		return 0, err
	}
	return ss.push(typ, s.now(), nil), nil
}

// Compact replaces the current surface range from start to end (both
// seqs of current nodes, start not after end) by a compaction checkpoint
// with the summary, as a replace operation does, and returns its seq.
func (s *Store) Compact(id string, start, end int64, summary string) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, err := s.get(id)
	if err != nil {
		return 0, err
	}
	i, j := slices.Index(ss.nodes, start), slices.Index(ss.nodes, end)
	if i < 0 || j < 0 || i > j {
		return 0, fmt.Errorf("%w: %d..%d", ErrBadRange, start, end)
	}
	return ss.compact(i, j, summary, s.now()), nil
}

// CompactAll compacts the whole current surface, if it has any node.
func (s *Store) CompactAll(id, summary string) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, err := s.get(id)
	if err != nil {
		return 0, err
	}
	if len(ss.nodes) == 0 {
		return 0, fmt.Errorf("%w: the surface is empty", ErrBadRange)
	}
	return ss.compact(0, len(ss.nodes)-1, summary, s.now()), nil
}

// compact replaces nodes[i..j] by a checkpoint holding summary.
func (ss *session) compact(i, j int, summary string, at time.Time) int64 {
	ev := message(sessionref.EventUserMessage, sessionref.Source{Kind: sessionref.SourcePlugin, Plugin: sessionref.PluginCompact},
		"The conversation so far was compacted.\n<compacted-summary>\n"+summary+"\n</compacted-summary>")
	seq := ss.pushOwned(ev.Type, at, &ev)
	ss.nodes = slices.Replace(ss.nodes, i, j+1, seq)
	return seq
}

// SetTitle appends a title event; the latest one wins.
func (s *Store) SetTitle(id, title string) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, err := s.get(id)
	if err != nil {
		return 0, err
	}
	now := s.now()
	seq := ss.push("session/title", now, nil)
	ss.title = &sessionref.Title{Text: title, EventSeq: seq, UpdatedAt: now.UnixMilli()}
	s.sorted = nil
	return seq, nil
}

// ListSessions returns every header, newest first; equal creation times
// are ordered by id (byte order).
func (s *Store) ListSessions(ctx context.Context) ([]sessionref.SessionHeader, error) {
	if err := s.wait(ctx); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.index()
	return slices.Clone(s.sorted), nil // a copy: callers may sort or filter it
}

// ListSessionsWithTitles implements [sessionref.TitleLister]: the headers
// of ListSessions and their titles, from one sorted index, so a filtered
// candidate query does no lookup per session.
func (s *Store) ListSessionsWithTitles(ctx context.Context) ([]sessionref.SessionHeader, []sessionref.TitleResult, error) {
	if err := s.wait(ctx); err != nil {
		return nil, nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.index()
	// The index is never changed in place, only replaced, so it can be
	// shared with readers without a copy.
	return s.sorted, s.titles, nil
}

// index rebuilds the sorted header and title index if it is stale. The
// caller holds the write lock.
func (s *Store) index() {
	if s.sorted != nil {
		return
	}
	sorted := make([]sessionref.SessionHeader, 0, len(s.sessions))
	for _, ss := range s.sessions {
		sorted = append(sorted, ss.header)
	}
	slices.SortFunc(sorted, func(a, b sessionref.SessionHeader) int {
		return cmp.Or(cmp.Compare(b.CreatedAt, a.CreatedAt), cmp.Compare(a.ID, b.ID))
	})
	slab := make([]sessionref.Title, len(sorted))
	s.titles = make([]sessionref.TitleResult, len(sorted))
	for i, h := range sorted {
		if t := s.sessions[h.ID].title; t != nil {
			slab[i] = *t
			s.titles[i].Title = &slab[i]
		}
	}
	s.sorted = sorted
}

// ReadTitles returns each id's latest title; an unknown id gets an error
// result of its own.
func (s *Store) ReadTitles(ctx context.Context, ids []string) ([]sessionref.TitleResult, error) {
	if err := s.wait(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]sessionref.TitleResult, len(ids))
	slab := make([]sessionref.Title, len(ids)) // one allocation for every copy
	for i, id := range ids {
		ss, ok := s.sessions[id]
		switch {
		case !ok:
			out[i].Err = fmt.Errorf("%w: %q", ErrNotFound, id)
		case ss.title != nil:
			slab[i] = *ss.title
			out[i].Title = &slab[i]
		}
	}
	return out, nil
}

// ReadSurface returns a detached snapshot of a session's surface: later
// mutation of the store never changes it, and changing it never changes
// the store.
func (s *Store) ReadSurface(ctx context.Context, id string) (sessionref.Surface, error) {
	if err := s.wait(ctx); err != nil {
		return sessionref.Surface{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if err := s.failures[id]; err != nil {
		return sessionref.Surface{}, err
	}
	ss, err := s.get(id)
	if err != nil {
		return sessionref.Surface{}, err
	}
	out := sessionref.Surface{Session: ss.header, Events: make([]sessionref.Event, len(ss.nodes))}
	if ss.header.Cwd != nil {
		c := *ss.header.Cwd
		out.Session.Cwd = &c
	}
	if n := len(ss.events); n > 0 {
		last := int64(n - 1)
		out.CapturedThroughSeq = &last
	}
	for i, seq := range ss.nodes {
		out.Events[i] = ss.events[seq].ev.Clone()
	}
	return out, nil
}

// intern returns the store's one pointer for a working directory, so a
// listing of many sessions in few directories touches few strings. The
// caller holds the write lock; headers never change a cwd in place.
func (s *Store) intern(cwd *string) *string {
	if cwd == nil {
		return nil
	}
	if p, ok := s.cwds[*cwd]; ok {
		return p
	}
	if s.cwds == nil {
		s.cwds = map[string]*string{}
	}
	c := *cwd
	s.cwds[c] = &c
	return &c
}

func (s *Store) get(id string) (*session, error) {
	ss, ok := s.sessions[id]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrNotFound, id)
	}
	return ss, nil
}

// wait applies the configured latency, returning early on cancellation.
func (s *Store) wait(ctx context.Context) error {
	s.mu.RLock()
	d := s.latency
	s.mu.RUnlock()
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// push appends an event with the next seq. A message is stored as a
// private copy carrying its seq.
func (ss *session) push(typ string, at time.Time, ev *sessionref.Event) int64 {
	if ev != nil {
		c := ev.Clone()
		ev = &c
	}
	return ss.pushOwned(typ, at, ev)
}

// pushOwned is push for an event the store already owns.
func (ss *session) pushOwned(typ string, at time.Time, ev *sessionref.Event) int64 {
	seq := int64(len(ss.events))
	if ev != nil {
		ev.Seq = &seq
	}
	ss.events = append(ss.events, logEvent{typ: typ, time: at.UnixMilli(), ev: ev})
	return seq
}

func message(typ string, src sessionref.Source, text string) sessionref.Event {
	return sessionref.Event{Type: typ, Source: src, Content: []sessionref.Block{sessionref.TextBlock(text)}}
}

// CapturedSeqs returns, for each id, the CapturedThroughSeq that
// ReadSurface would report now (nil for a session with no events or one
// that does not exist), without copying any surface. Indexers such as
// discover use it to re-read only the sessions that changed.
func (s *Store) CapturedSeqs(ctx context.Context, ids []string) ([]*int64, error) {
	if err := s.wait(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]*int64, len(ids))
	seqs := make([]int64, len(ids))
	for i, id := range ids {
		if ss, err := s.get(id); err == nil && len(ss.events) > 0 {
			seqs[i] = int64(len(ss.events) - 1)
			out[i] = &seqs[i]
		}
	}
	return out, nil
}
