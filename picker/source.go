package picker

import (
	"context"
	"time"

	"github.com/dshkit/mentions/sessionref"
)

// Source supplies ranked candidates for a query. It is called from a
// tea.Cmd, never from Update, and must honour ctx: the picker cancels the
// fetch of a query as soon as the user types on.
type Source interface {
	Candidates(ctx context.Context, query string) ([]sessionref.Candidate, error)
}

// SourceFunc adapts a function to [Source].
type SourceFunc func(ctx context.Context, query string) ([]sessionref.Candidate, error)

// Candidates calls f.
func (f SourceFunc) Candidates(ctx context.Context, query string) ([]sessionref.Candidate, error) {
	return f(ctx, query)
}

// ResolverSource lists candidates for a message written in the picker's
// target, up to limit (sessionref.DefaultCandidateLimit when limit < 1).
// The target is the one set with [Model.SetTarget], which every fetch
// carries in its context ([TargetFromContext]); without one the source
// lists for a message of no session (every session, ranked without a
// folder). The order is the core's ranking; the picker never reorders
// it. The source keeps a sessionref.Lister: each session's folded id,
// cwd and title are kept between keystrokes, and the store's listing and
// titles are reused for [ResolverMaxAge] after a read, so the keystrokes
// of one burst of typing are one substring scan each even over a store
// without sessionref.TitleLister. [Model.Refresh] makes it read the store
// again, and so does the first query after the target changes.
func ResolverSource(r *sessionref.Resolver, limit int) Source {
	if limit < 1 {
		limit = sessionref.DefaultCandidateLimit
	}
	l := sessionref.NewLister(r, 0)
	l.SetMaxAge(ResolverMaxAge)
	return resolverSource{l, limit}
}

// ResolverMaxAge is how long a [ResolverSource] reuses its last read of
// the store for the next keystrokes.
const ResolverMaxAge = time.Second

type resolverSource struct {
	l     *sessionref.Lister
	limit int
}

func (s resolverSource) Candidates(ctx context.Context, query string) ([]sessionref.Candidate, error) {
	t, _ := TargetFromContext(ctx)
	return s.l.ListCandidates(ctx, t, query, s.limit)
}

// CandidatesMore lists one more than the limit to learn whether the
// limit cut the list.
func (s resolverSource) CandidatesMore(ctx context.Context, query string) ([]sessionref.Candidate, bool, error) {
	t, _ := TargetFromContext(ctx)
	cs, err := s.l.ListCandidates(ctx, t, query, s.limit+1)
	if err != nil || len(cs) <= s.limit {
		return cs, false, err
	}
	return cs[:s.limit], true, nil
}

// MoreSource is a [Source] that also says whether it listed fewer
// candidates than match (its limit cut the list); the popup then says
// that typing filters. [ResolverSource] is one.
type MoreSource interface {
	Source
	CandidatesMore(ctx context.Context, query string) (cands []sessionref.Candidate, more bool, err error)
}

// Forget makes the next query read the store again.
func (s resolverSource) Forget() { s.l.Forget() }

// forgetter is a Source that keeps reads of its store between queries
// and can be told to drop them.
type forgetter interface{ Forget() }

// WithAge sets the time each row's age column counts from: [Created] (the
// default) or [LastActive], for a host whose store lists sessions by
// their last activity, or the host's own. A zero time shows as unknown.
func WithAge(f func(sessionref.Candidate) time.Time) Option {
	return func(m *Model) { m.age = f }
}

// Created is a candidate's creation time, what the age column shows by
// default.
func Created(c sessionref.Candidate) time.Time { return time.UnixMilli(c.CreatedAt) }

// LastActive is a candidate's last activity ([sessionref.Candidate.UpdatedAt])
// when its store gives one, else its creation time.
func LastActive(c sessionref.Candidate) time.Time {
	if c.UpdatedAt != 0 {
		return time.UnixMilli(c.UpdatedAt)
	}
	return Created(c)
}
