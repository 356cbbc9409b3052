package agentlog

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/dshkit/mentions/jsonlog"
	"github.com/dshkit/mentions/sessionref"
)

// ErrNotFound is returned for an id no log of the store has.
var ErrNotFound = errors.New("session not found")

// Store is a read-only [sessionref.SessionQuery] over one agent's logs
// under a root, read through the engine ([jsonlog]) by a [Format]'s
// rules. Besides the core interface it offers the optional ones the core
// and discovery use: [sessionref.TitleLister], [sessionref.OutlineReader],
// WalkSurface, CapturedSeqs and SessionVersions. It is safe for
// concurrent use and never writes.
type Store struct {
	f    Format
	root string
	log  *jsonlog.Log[Index]

	mu   sync.Mutex
	byID map[string]string // id (with prefix) → path, from the last listing
	// unread holds, from the last listing, why the log of each id that
	// was found and could not be read was not listed.
	unread map[string]error
	stats  Stats
}

// Stats is what the last listing found, for a host to show.
type Stats struct {
	// Agent is the format's name, Root the directory read.
	Agent, Root string
	// Sessions is how many sessions were listed.
	Sessions int
	// Skipped counts the files not listed, by reason.
	Skipped map[string]int
	// Lines counts, over the listed logs, lines skipped as not JSON or
	// too long (Bad) and of a type the reader does not know (Unknown).
	Bad, Unknown int
}

// Option configures a Store.
type Option func(*jsonlog.Limits)

// WithMaxLogBytes caps the size of a log read (jsonlog.DefaultMaxLogBytes
// by default); a bigger one is skipped as too large.
func WithMaxLogBytes(n int64) Option { return func(l *jsonlog.Limits) { l.MaxLogBytes = n } }

// WithCacheBytes bounds the indexes kept between reads
// (jsonlog.DefaultCacheBytes by default).
func WithCacheBytes(n int64) Option { return func(l *jsonlog.Limits) { l.CacheBytes = n } }

// WithMaxLineBytes caps a line's length (jsonlog.DefaultMaxLineBytes by
// default); a longer one is skipped and counted.
func WithMaxLineBytes(n int) Option { return func(l *jsonlog.Limits) { l.MaxLineBytes = n } }

// NewStore returns a store over f's logs under root. The root itself may
// be a symbolic link; nothing below it is followed. A root that is not a
// directory is an error.
func NewStore(f Format, root string, opts ...Option) (*Store, error) {
	var lim jsonlog.Limits
	for _, o := range opts {
		o(&lim)
	}
	resolved, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(resolved)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: root, Err: errors.New("not a directory")}
	}
	s := &Store{f: f, root: resolved, byID: map[string]string{}}
	s.log = jsonlog.New(lim, func(string) Index { return f.NewIndex() })
	s.stats = Stats{Agent: f.Name(), Root: resolved}
	return s, nil
}

// Format returns the store's format.
func (s *Store) Format() Format { return s.f }

// Root returns the directory the store reads.
func (s *Store) Root() string { return s.root }

// Stats returns what the last listing found.
func (s *Store) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.stats
	st.Skipped = make(map[string]int, len(s.stats.Skipped))
	for k, v := range s.stats.Skipped {
		st.Skipped[k] = v
	}
	return st
}

// Owns reports whether id has the store's prefix.
func (s *Store) Owns(id string) bool { return strings.HasPrefix(id, s.f.Prefix()) }

// listed is one log's header and title.
type listed struct {
	h    sessionref.SessionHeader
	t    sessionref.TitleResult
	sum  Summary
	path string
	err  error
}

// ListSessions returns every session's header, newest first.
func (s *Store) ListSessions(ctx context.Context) ([]sessionref.SessionHeader, error) {
	h, _, err := s.ListSessionsWithTitles(ctx)
	return h, err
}

// ListSessionsWithTitles lists every session with its title, newest
// first (by creation, then id), reading each log once while it is
// unchanged: an index is kept by the file's identity and version and
// extended when the file grew.
func (s *Store) ListSessionsWithTitles(ctx context.Context) ([]sessionref.SessionHeader, []sessionref.TitleResult, error) {
	files, skips, err := s.f.Find(ctx, s.root)
	if err != nil {
		return nil, nil, err
	}
	var ext map[string]sessionref.Title
	if ts, ok := s.f.(TitleSource); ok {
		ext = ts.Titles(ctx, s.root)
	}
	out := make([]listed, len(files))
	work := make(chan int)
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), 4)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				out[i] = s.summarize(ctx, files[i], ext)
			}
		}()
	}
	for i := range files {
		work <- i
	}
	close(work)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	st := Stats{Agent: s.f.Name(), Root: s.root, Skipped: map[string]int{}}
	for _, k := range skips {
		st.Skipped[k.Reason]++
	}
	byID := make(map[string]string, len(files))
	unread := map[string]error{}
	kept := out[:0]
	for i, l := range out {
		switch {
		case l.err != nil:
			st.Skipped[reasonOf(l.err)]++
			unread[s.f.Prefix()+files[i].ID] = l.err
			continue
		case l.sum.Empty:
			st.Skipped["no conversation in it"]++
			continue
		}
		st.Bad += l.sum.Bad
		st.Unknown += l.sum.Unknown
		byID[l.h.ID] = l.path
		kept = append(kept, l)
	}
	slices.SortStableFunc(kept, func(a, b listed) int { return NewestFirst(a.h, b.h) })
	headers := make([]sessionref.SessionHeader, len(kept))
	titles := make([]sessionref.TitleResult, len(kept))
	for i, l := range kept {
		headers[i], titles[i] = l.h, l.t
	}
	st.Sessions = len(kept)
	s.mu.Lock()
	s.byID, s.unread, s.stats = byID, unread, st
	s.mu.Unlock()
	return headers, titles, nil
}

// NewestFirst is the stores' listing order: newest creation first, then
// id.
func NewestFirst(a, b sessionref.SessionHeader) int {
	return cmp.Or(cmp.Compare(b.CreatedAt, a.CreatedAt), cmp.Compare(a.ID, b.ID))
}

// reasonOf is the phrase a log that cannot be read is counted under.
func reasonOf(err error) string {
	switch {
	case errors.Is(err, jsonlog.ErrNotRegular):
		return SkipNotRegular
	case errors.Is(err, jsonlog.ErrTooLarge):
		return SkipTooLarge
	case errors.Is(err, fs.ErrPermission):
		return SkipPermission
	case errors.Is(err, fs.ErrNotExist):
		return SkipGone
	}
	return SkipUnreadable
}

// summarize reads one log's summary through its index.
func (s *Store) summarize(ctx context.Context, f File, ext map[string]sessionref.Title) listed {
	l := listed{path: f.Path}
	err := s.log.Use(ctx, f.Path, func(ix Index, _ jsonlog.Snapshot) error {
		l.sum = ix.Summary()
		return nil
	})
	if err != nil {
		l.err = err
		return l
	}
	l.h = s.header(f.ID, l.sum)
	if t, ok := ext[f.ID]; ok {
		l.t.Title = &t
	} else if l.sum.Title != nil {
		t := *l.sum.Title
		l.t.Title = &t
	}
	return l
}

func (s *Store) header(id string, sum Summary) sessionref.SessionHeader {
	h := sessionref.SessionHeader{ID: s.f.Prefix() + id, CreatedAt: sum.Created, UpdatedAt: sum.Updated}
	if sum.HasCwd {
		cwd := sum.Cwd
		h.Cwd = &cwd
	}
	return h
}

// pathOf finds the log of id, listing the root again when the last
// listing did not have it.
func (s *Store) pathOf(ctx context.Context, id string) (string, error) {
	if !s.Owns(id) {
		return "", fmt.Errorf("%w: %q is not a %s session id", ErrNotFound, id, s.f.Name())
	}
	s.mu.Lock()
	p, ok := s.byID[id]
	s.mu.Unlock()
	if ok {
		return p, nil
	}
	if _, _, err := s.ListSessionsWithTitles(ctx); err != nil {
		return "", err
	}
	s.mu.Lock()
	p, ok = s.byID[id]
	why := s.unread[id]
	s.mu.Unlock()
	switch {
	case ok:
		return p, nil
	case why != nil:
		return "", why // its log is there but cannot be read: say why
	}
	return "", fmt.Errorf("%w: %q", ErrNotFound, id)
}

// ReadTitles returns the title of each id, in order, reading only those
// logs (from their cached index while they are unchanged); an id the
// store does not have gets an ErrNotFound in its result.
func (s *Store) ReadTitles(ctx context.Context, ids []string) ([]sessionref.TitleResult, error) {
	var ext map[string]sessionref.Title
	if ts, ok := s.f.(TitleSource); ok && len(ids) > 0 {
		ext = ts.Titles(ctx, s.root)
	}
	out := make([]sessionref.TitleResult, len(ids))
	for i, id := range ids {
		path, err := s.pathOf(ctx, id)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			out[i].Err = err
			continue
		}
		l := s.summarize(ctx, File{ID: strings.TrimPrefix(id, s.f.Prefix()), Path: path}, ext)
		out[i], out[i].Err = l.t, l.err
	}
	return out, nil
}

// read is a session's conversation as indexed, with what reads it back.
type read struct {
	header sessionref.SessionHeader
	msgs   []Message
	snap   jsonlog.Snapshot
}

func (s *Store) read(ctx context.Context, id string) (read, error) {
	path, err := s.pathOf(ctx, id)
	if err != nil {
		return read{}, err
	}
	var r read
	err = s.log.Use(ctx, path, func(ix Index, snap jsonlog.Snapshot) error {
		r.header = s.header(strings.TrimPrefix(id, s.f.Prefix()), ix.Summary())
		r.msgs = ix.Conversation()
		r.snap = snap
		return nil
	})
	return r, err
}

// captured is the seq of the log's last line; nil for a log with none.
func (r *read) captured() *int64 {
	if r.snap.Lines == 0 {
		return nil
	}
	n := int64(r.snap.Lines)
	return &n
}

// text reads message m back through lines (a reader of r's snapshot)
// and checks it is still the one indexed.
func (s *Store) text(ctx context.Context, r *read, lines *jsonlog.Lines, m Message) (string, error) {
	line, err := lines.Line(ctx, m.Off, int(m.Len))
	if err != nil {
		return "", err
	}
	t, ok := s.f.Text(line, m.Kind)
	if !ok || len(t) != int(m.Bytes) {
		return "", &jsonlog.FileError{Path: r.snap.Path, Err: fmt.Errorf("%w: line %d reads differently", jsonlog.ErrChanged, m.Line)}
	}
	return t, nil
}

// event is message m with its text as a surface event.
func event(m Message, text string) sessionref.Event {
	seq := int64(m.Line)
	e := sessionref.Event{Seq: &seq, Content: []sessionref.Block{sessionref.TextBlock(text)}}
	switch m.Kind {
	case KindAssistant:
		e.Type, e.Source = sessionref.EventAssistantMessage, sessionref.Source{Kind: sessionref.SourceModel}
	case KindCheckpoint:
		e.Type, e.Source = sessionref.EventUserMessage, sessionref.Source{Kind: sessionref.SourcePlugin, Plugin: sessionref.PluginCompact}
	default:
		e.Type, e.Source = sessionref.EventUserMessage, sessionref.Source{Kind: sessionref.SourceUser}
	}
	return e
}

// ReadSurface returns the session's current conversation: the person's
// own words, the model's reply text and the latest checkpoint with what
// follows it, each message read back from its line.
func (s *Store) ReadSurface(ctx context.Context, id string) (sessionref.Surface, error) {
	r, err := s.read(ctx, id)
	if err != nil {
		return sessionref.Surface{}, err
	}
	sf := sessionref.Surface{Session: r.header, CapturedThroughSeq: r.captured(), Events: make([]sessionref.Event, 0, len(r.msgs))}
	err = s.walk(ctx, &r, func(e *sessionref.Event) bool {
		sf.Events = append(sf.Events, *e)
		return true
	})
	if err != nil {
		return sessionref.Surface{}, err
	}
	return sf, nil
}

// WalkSurface passes the events ReadSurface would return to fn one at a
// time, reading each line back as it goes, until fn returns false.
func (s *Store) WalkSurface(ctx context.Context, id string, fn func(e *sessionref.Event) bool) (*int64, error) {
	r, err := s.read(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := s.walk(ctx, &r, fn); err != nil {
		return nil, err
	}
	return r.captured(), nil
}

// walk reads r's messages back in order, the file opened once.
func (s *Store) walk(ctx context.Context, r *read, fn func(e *sessionref.Event) bool) error {
	if len(r.msgs) == 0 {
		return nil
	}
	lines, err := r.snap.Open()
	if err != nil {
		return err
	}
	defer lines.Close()
	for _, m := range r.msgs {
		if err := ctx.Err(); err != nil {
			return err
		}
		t, err := s.text(ctx, r, lines, m)
		if err != nil {
			return err
		}
		e := event(m, t)
		if !fn(&e) {
			break
		}
	}
	return nil
}

// ReadOutline returns the session's outline: each projected message's
// kind and size from the index, and a Text that reads only the messages
// a snapshot keeps back from their lines.
func (s *Store) ReadOutline(ctx context.Context, id string) (sessionref.Outline, error) {
	r, err := s.read(ctx, id)
	if err != nil {
		return sessionref.Outline{}, err
	}
	o := sessionref.Outline{Session: r.header, CapturedThroughSeq: r.captured(), Messages: make([]sessionref.OutlineMessage, len(r.msgs))}
	for i, m := range r.msgs {
		o.Messages[i] = sessionref.OutlineMessage{Assistant: m.Kind == KindAssistant, Checkpoint: m.Kind == KindCheckpoint, Bytes: int(m.Bytes)}
	}
	var lines *jsonlog.Lines // opened at the first Text, its file closed after each
	o.Text = func(ctx context.Context, i int) (string, error) {
		if i < 0 || i >= len(r.msgs) {
			return "", fmt.Errorf("outline message %d of %d", i, len(r.msgs))
		}
		if err := ctx.Err(); err != nil {
			return "", err
		}
		if lines == nil {
			var err error
			if lines, err = r.snap.Open(); err != nil {
				return "", err
			}
		}
		defer lines.Close() // the file is not held between calls; a frame's text is
		return s.text(ctx, &r, lines, r.msgs[i])
	}
	return o, nil
}

// CapturedSeqs returns, for each id, the seq ReadSurface would report
// now (the number of the log's last complete line), from the cached
// index when the file is unchanged; nil for an id the store lacks.
func (s *Store) CapturedSeqs(ctx context.Context, ids []string) ([]*int64, error) {
	out := make([]*int64, len(ids))
	for i, id := range ids {
		path, err := s.pathOf(ctx, id)
		if err == nil {
			err = s.log.Use(ctx, path, func(_ Index, snap jsonlog.Snapshot) error {
				out[i] = (&read{snap: snap}).captured()
				return nil
			})
		}
		if err != nil && ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	return out, nil
}

// SessionVersions returns, for each id, a token of its log's identity
// and version ("" for an id the store lacks or cannot stat), so a log
// rewritten with as many lines is read again. It costs a stat a log.
func (s *Store) SessionVersions(ctx context.Context, ids []string) ([]string, error) {
	out := make([]string, len(ids))
	for i, id := range ids {
		path, err := s.pathOf(ctx, id)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			continue
		}
		if fi, err := os.Lstat(path); err == nil {
			out[i] = jsonlog.KeyOf(fi).String()
		}
	}
	return out, nil
}
