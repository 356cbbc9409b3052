package sessionref

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
)

// RoleSummary is the role of a compaction summary in a [MessageRow]: the
// text that replaced older messages, which a snapshot always keeps.
const RoleSummary = "summary"

// ErrNoSession is what [MessageStore] reports for an id its Sessions do
// not list.
var ErrNoSession = errors.New("no such session")

// MessageStore exposes a host's own session storage — a list of sessions,
// each a list of messages with a role and a text, as most clients keep
// them in their own database — as a [SessionQuery] (and a [TitleLister]).
// It does the rest: the listing newest first, times in milliseconds,
// titles, seqs (a message's position, from 1), the captured seq (the
// number of messages), the events a snapshot keeps, and messages stored
// in the single-message form (see [Project]). An adapter over a SQL
// session table is two queries:
//
//	q := sessionref.MessageStore{
//		Sessions: func(ctx context.Context) ([]sessionref.SessionRow, error) { … SELECT id, title, cwd, created_at … },
//		Messages: func(ctx context.Context, id string) ([]sessionref.MessageRow, error) { … SELECT role, text … ORDER BY position },
//	}
//	r, err := sessionref.NewResolver(q, sessionref.Config{})
//
// Both functions must be safe for concurrent use; the value itself is.
type MessageStore struct {
	// Sessions returns every session, in any order.
	Sessions func(ctx context.Context) ([]SessionRow, error)
	// Messages returns one session's messages as the model sees them now,
	// oldest first (after a compaction: its summary, role [RoleSummary],
	// where the messages it replaced stood). A missing session is an
	// error.
	Messages func(ctx context.Context, id string) ([]MessageRow, error)
	// Session, optional, returns one session's row; without it a read
	// finds the row in Sessions.
	Session func(ctx context.Context, id string) (SessionRow, error)
}

// SessionRow is one session as a host keeps it.
type SessionRow struct {
	// ID is the session's id; a row without one is left out.
	ID string
	// Title is its title; "" for none (the id is shown instead).
	Title string
	// Cwd is its working directory; "" for none.
	Cwd string
	// CreatedAt is when it was made.
	CreatedAt time.Time
	// UpdatedAt is its last activity; the zero time when unknown.
	UpdatedAt time.Time
}

// MessageRow is one message of a session.
type MessageRow struct {
	// Role is [RoleUser] (what a person typed, in either stored form),
	// [RoleAssistant] (a reply) or [RoleSummary]; a message of any other
	// role (system, tool) is left out of a snapshot.
	Role string
	// Text is the message's text.
	Text string
}

// header is the SessionHeader of a row.
func (r SessionRow) header() SessionHeader {
	h := SessionHeader{ID: r.ID, CreatedAt: Millis(r.CreatedAt), UpdatedAt: Millis(r.UpdatedAt)}
	if r.Cwd != "" {
		cwd := r.Cwd
		h.Cwd = &cwd
	}
	return h
}

// title is the TitleResult of a row.
func (r SessionRow) title() TitleResult {
	if r.Title == "" {
		return TitleResult{}
	}
	at := r.UpdatedAt
	if at.IsZero() {
		at = r.CreatedAt
	}
	return TitleResult{Title: &Title{Text: r.Title, UpdatedAt: Millis(at)}}
}

// rows returns the sessions newest first (by creation, as ListSessions
// promises), rows without an id left out.
func (s MessageStore) rows(ctx context.Context) ([]SessionRow, error) {
	if s.Sessions == nil {
		return nil, errors.New("sessionref.MessageStore has no Sessions function")
	}
	rows, err := s.Sessions(ctx)
	if err != nil {
		return nil, err
	}
	rows = slices.DeleteFunc(slices.Clone(rows), func(r SessionRow) bool { return r.ID == "" })
	slices.SortStableFunc(rows, func(a, b SessionRow) int { return b.CreatedAt.Compare(a.CreatedAt) })
	return rows, nil
}

// ListSessions implements [SessionQuery].
func (s MessageStore) ListSessions(ctx context.Context) ([]SessionHeader, error) {
	hs, _, err := s.ListSessionsWithTitles(ctx)
	return hs, err
}

// ListSessionsWithTitles implements [TitleLister].
func (s MessageStore) ListSessionsWithTitles(ctx context.Context) ([]SessionHeader, []TitleResult, error) {
	rows, err := s.rows(ctx)
	if err != nil {
		return nil, nil, err
	}
	hs, ts := make([]SessionHeader, len(rows)), make([]TitleResult, len(rows))
	for i, r := range rows {
		hs[i], ts[i] = r.header(), r.title()
	}
	return hs, ts, nil
}

// ReadTitles implements [SessionQuery]: an id Sessions does not list has
// [ErrNoSession] in its result.
func (s MessageStore) ReadTitles(ctx context.Context, ids []string) ([]TitleResult, error) {
	rows, err := s.rows(ctx)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]SessionRow, len(rows))
	for _, r := range rows {
		byID[r.ID] = r
	}
	out := make([]TitleResult, len(ids))
	for i, id := range ids {
		if r, ok := byID[id]; ok {
			out[i] = r.title()
		} else {
			out[i].Err = fmt.Errorf("%w: %q", ErrNoSession, id)
		}
	}
	return out, nil
}

// ReadSurface implements [SessionQuery]: the session's messages as
// events, each with its position (from 1) as its seq.
func (s MessageStore) ReadSurface(ctx context.Context, id string) (Surface, error) {
	row, err := s.row(ctx, id)
	if err != nil {
		return Surface{}, err
	}
	if s.Messages == nil {
		return Surface{}, errors.New("sessionref.MessageStore has no Messages function")
	}
	msgs, err := s.Messages(ctx, id)
	if err != nil {
		return Surface{}, err
	}
	out := Surface{Session: row.header(), Events: make([]Event, 0, len(msgs))}
	if n := int64(len(msgs)); n > 0 {
		out.CapturedThroughSeq = &n
	}
	for i, m := range msgs {
		seq := int64(i + 1)
		e := Event{Seq: &seq, Content: []Block{TextBlock(m.Text)}}
		switch m.Role {
		case RoleUser:
			e.Type, e.Source = EventUserMessage, Source{Kind: SourceUser}
		case RoleAssistant:
			e.Type, e.Source = EventAssistantMessage, Source{Kind: SourceModel}
		case RoleSummary:
			e.Type, e.Source = EventUserMessage, Source{Kind: SourcePlugin, Plugin: PluginCompact}
		default:
			continue
		}
		out.Events = append(out.Events, e)
	}
	return out, nil
}

// row finds one session's row.
func (s MessageStore) row(ctx context.Context, id string) (SessionRow, error) {
	if s.Session != nil {
		r, err := s.Session(ctx, id)
		if err == nil && r.ID == "" {
			r.ID = id
		}
		return r, err
	}
	rows, err := s.rows(ctx)
	if err != nil {
		return SessionRow{}, err
	}
	for _, r := range rows {
		if r.ID == id {
			return r, nil
		}
	}
	return SessionRow{}, fmt.Errorf("%w: %q", ErrNoSession, id)
}
