package picker

import (
	"context"

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

// ResolverSource lists candidates for a message written in target, up to
// limit (sessionref.DefaultCandidateLimit when limit < 1). The order is
// the core's ranking; the picker never reorders it. The source keeps a
// sessionref.Lister, so each session's folded id, cwd and title are kept
// between keystrokes and a keystroke over a plain SessionQuery is one
// substring scan.
func ResolverSource(r *sessionref.Resolver, target sessionref.Target, limit int) Source {
	if limit < 1 {
		limit = sessionref.DefaultCandidateLimit
	}
	l := sessionref.NewLister(r, 0)
	return SourceFunc(func(ctx context.Context, query string) ([]sessionref.Candidate, error) {
		return l.ListCandidates(ctx, target, query, limit)
	})
}
