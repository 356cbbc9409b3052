package sessionref

import (
	"context"
	"fmt"
	"time"
)

// Resolver lists candidates and prepares referenced-session context over
// a host's [SessionQuery]. It holds no state beyond its configuration and
// is safe for concurrent use.
type Resolver struct {
	q   SessionQuery
	cfg Config
}

// NewResolver returns a resolver over q. Zero Config fields take their
// defaults; a negative value or MaxReferences above 3 is
// [CodeInvalidConfig].
func NewResolver(q SessionQuery, cfg Config) (*Resolver, error) {
	if q == nil {
		return nil, configError("a SessionQuery is required")
	}
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	return &Resolver{q: q, cfg: c}, nil
}

// Config returns the effective configuration, defaults filled in.
func (r *Resolver) Config() Config { return r.cfg }

// ListCandidates returns up to limit sessions that t may reference and
// that match query, best first. An empty query lists every session; any
// other matches case-insensitively against the id, the working directory
// and the latest title. Ranking puts sessions in t's working directory
// first, then those without one, then the rest; within a rank the store's
// newest-first order is kept.
//
// A store error from listing or titles is returned as it is, without a
// code; cancellation is [CodeCancelled]; limit < 1 is
// [CodeInvalidReference].
//
// Every call reads the titles of the whole corpus for a non-empty query
// (through [TitleLister] when the store offers it) and lowers them; a
// picker that queries once a keystroke should use a [Lister], which keeps
// the lowered text between calls.
func (r *Resolver) ListCandidates(ctx context.Context, t Target, query string, limit int) ([]Candidate, error) {
	return r.listCandidates(ctx, t, query, limit, nil)
}

// listCandidates is ListCandidates, matching through l's kept haystacks
// when l is not nil.
func (r *Resolver) listCandidates(ctx context.Context, t Target, query string, limit int, l *Lister) ([]Candidate, error) {
	if limit < 1 || limit > maxSafeInteger {
		return nil, newError(CodeInvalidReference, "candidate limit must be a positive safe integer", nil)
	}
	needle := lowerJS(query)
	if err := ctx.Err(); err != nil {
		return nil, cancelled(context.Cause(ctx))
	}
	var headers []SessionHeader
	var allTitles []TitleResult // aligned with headers, from a TitleLister or a Lister's recent read
	reused := false
	var began time.Time
	var gen uint64
	if l != nil && needle != "" {
		headers, allTitles, began, gen = l.recent(t.ID)
		reused = headers != nil
	}
	tl, isTL := r.q.(TitleLister)
	switch {
	case reused: // a Lister's read of the store, younger than its MaxAge
	case isTL && needle != "":
		type both struct {
			h []SessionHeader
			t []TitleResult
		}
		res, err := callCancellable(ctx, func(ctx context.Context) (both, error) {
			h, t, err := tl.ListSessionsWithTitles(ctx)
			return both{h, t}, err
		})
		if err != nil {
			return nil, err
		}
		headers, allTitles = res.h, res.t
	default:
		var err error
		if headers, err = callCancellable(ctx, r.q.ListSessions); err != nil {
			return nil, err
		}
	}
	// A stable sort on (rank, index) as a counting sort of positions.
	var counts [3]int
	ranks := make([]Rank, len(headers))
	for i := range headers {
		if headers[i].ID == t.ID {
			ranks[i] = -1
			continue
		}
		ranks[i] = RankOf(t, headers[i].Cwd)
		counts[ranks[i]]++
	}
	starts := [3]int{0, counts[0], counts[0] + counts[1]}
	order := make([]int32, counts[0]+counts[1]+counts[2])
	for i, rk := range ranks {
		if rk >= 0 {
			order[starts[rk]] = int32(i)
			starts[rk]++
		}
	}
	if needle == "" && len(order) > limit {
		order = order[:limit]
	}
	// titles is aligned with headers (from a TitleLister) or, when read
	// here for the ids of order, with order.
	titles, byOrder := allTitles, allTitles == nil
	if byOrder {
		ids := make([]string, len(order))
		for i, h := range order {
			ids[i] = headers[h].ID
		}
		var err error
		if titles, err = callCancellable(ctx, func(ctx context.Context) ([]TitleResult, error) { return r.q.ReadTitles(ctx, ids) }); err != nil {
			return nil, err
		}
	}
	if l != nil && needle != "" && !reused {
		l.remember(t.ID, began, gen, headers, titles, byOrder, order)
	}
	var sc *scan
	if l != nil && needle != "" {
		sc = l.begin(needle, len(order))
	}
	out := make([]Candidate, 0, min(limit, len(order)))
	visitedAll := true
	for i, hi := range order {
		h := &headers[hi]
		label, k := h.ID, int(hi)
		if byOrder {
			k = i
		}
		var title *Title
		if k < len(titles) && titles[k].Err == nil && titles[k].Title != nil {
			title = titles[k].Title
			label = title.Text
		}
		if needle != "" {
			if sc != nil && !sc.matches(i, h, title, label) || sc == nil && !matches(needle, h, label) {
				continue
			}
		}
		out = append(out, Candidate{SessionID: h.ID, Label: label, Cwd: h.Cwd, CreatedAt: h.CreatedAt, UpdatedAt: h.UpdatedAt, Rank: ranks[hi]})
		if len(out) == limit {
			visitedAll = i == len(order)-1
			break
		}
	}
	if sc != nil {
		sc.end(visitedAll)
	}
	return out, nil
}

// ListMentionCandidates is the reference's remote listing: the configured
// CandidateLimit, each candidate carrying its canonical mention.
func (r *Resolver) ListMentionCandidates(ctx context.Context, t Target, query string) ([]Candidate, error) {
	cs, err := r.ListCandidates(ctx, t, query, r.cfg.CandidateLimit)
	if err != nil {
		return nil, err
	}
	for i := range cs {
		m, err := FormatMention(Reference{SessionID: cs[i].SessionID, Label: &cs[i].Label})
		if err != nil {
			return nil, err
		}
		cs[i].Mention = m
	}
	return cs, nil
}

func matches(needle string, h *SessionHeader, label string) bool {
	return containsLower(h.ID, needle) || h.Cwd != nil && containsLower(*h.Cwd, needle) || containsLower(label, needle)
}

// callCancellable calls f and returns its result, or CANCELLED as soon as
// ctx ends, even if f never returns. Errors of f pass through unwrapped
// unless ctx has ended meanwhile. A panic in f becomes an error.
func callCancellable[T any](ctx context.Context, f func(context.Context) (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	ch := make(chan result, 1) // buffered: an abandoned call never blocks
	go func() {
		var res result
		defer func() {
			if p := recover(); p != nil {
				res.err = fmt.Errorf("session store panicked: %v", p)
			}
			ch <- res
		}()
		res.v, res.err = f(ctx)
	}()
	var zero T
	select {
	case <-ctx.Done():
		return zero, cancelled(context.Cause(ctx))
	case res := <-ch:
		if res.err != nil && ctx.Err() != nil {
			return zero, cancelled(context.Cause(ctx))
		}
		return res.v, res.err
	}
}
