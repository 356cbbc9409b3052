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
// when l is not nil. It reads the store (readListing), puts the sessions
// in candidate order (rankOrder), reads the titles it needs when the
// listing came without them (titlesFor), and keeps the first limit that
// match.
func (r *Resolver) listCandidates(ctx context.Context, t Target, query string, limit int, l *Lister) ([]Candidate, error) {
	if limit < 1 || limit > maxSafeInteger {
		return nil, newError(CodeInvalidReference, "candidate limit must be a positive safe integer", nil)
	}
	needle := lowerJS(query)
	if err := ctx.Err(); err != nil {
		return nil, cancelled(context.Cause(ctx))
	}
	lst, err := r.readListing(ctx, t, needle, l)
	if err != nil {
		return nil, err
	}
	headers := lst.headers
	order, ranks := rankOrder(headers, t)
	if needle == "" && len(order) > limit {
		order = order[:limit]
	}
	// titles is aligned with headers (from the listing) or, when read here
	// for the ids of order, with order.
	titles, byOrder := lst.titles, lst.titles == nil
	if byOrder {
		if titles, err = r.titlesFor(ctx, headers, order); err != nil {
			return nil, err
		}
	}
	if l != nil && needle != "" && !lst.reused {
		l.remember(t.ID, lst.began, lst.gen, headers, titles, byOrder, order)
	}
	var sc *scan
	if l != nil && needle != "" {
		sc = l.begin(needle, len(order))
	}
	out, visitedAll := firstMatches(needle, limit, headers, order, ranks, titles, byOrder, sc)
	if sc != nil {
		sc.end(visitedAll)
	}
	return out, nil
}

// firstMatches keeps, in candidate order, the first limit sessions that
// match needle (all of them for an empty one), through sc's kept
// haystacks when sc is not nil; visitedAll says whether every session
// was looked at. titles is aligned with headers, or with order when
// byOrder.
func firstMatches(needle string, limit int, headers []SessionHeader, order []int32, ranks []Rank, titles []TitleResult, byOrder bool, sc *scan) (out []Candidate, visitedAll bool) {
	out = make([]Candidate, 0, min(limit, len(order)))
	for i, hi := range order {
		h := &headers[hi]
		k := int(hi)
		if byOrder {
			k = i
		}
		label, title := labelOf(h, titles, k)
		if needle != "" {
			if sc != nil && !sc.matches(i, h, title, label) || sc == nil && !matches(needle, h, label) {
				continue
			}
		}
		out = append(out, Candidate{SessionID: h.ID, Label: label, Cwd: h.Cwd, CreatedAt: h.CreatedAt, UpdatedAt: h.UpdatedAt, Rank: ranks[hi]})
		if len(out) == limit {
			return out, i == len(order)-1
		}
	}
	return out, true
}

// listing is one read of the store's sessions for a candidate query.
type listing struct {
	headers []SessionHeader
	// titles is aligned with headers when the read brought them (a
	// TitleLister, a Lister's recent read), else nil.
	titles []TitleResult
	// began and gen date a Lister's new read (see Lister.remember).
	began time.Time
	gen   uint64
	// reused says the read is a Lister's recent one, not a new one.
	reused bool
}

// readListing reads the sessions for a query: a Lister's read younger
// than its MaxAge when there is one (a filtered query only), else the
// sessions with their titles from a TitleLister (a filtered query needs
// every title), else the sessions alone. A store that hangs gives way to
// ctx.
func (r *Resolver) readListing(ctx context.Context, t Target, needle string, l *Lister) (listing, error) {
	var lst listing
	if l != nil && needle != "" {
		lst.headers, lst.titles, lst.began, lst.gen = l.recent(t.ID)
		if lst.reused = lst.headers != nil; lst.reused {
			return lst, nil
		}
	}
	if tl, ok := r.q.(TitleLister); ok && needle != "" {
		type both struct {
			h []SessionHeader
			t []TitleResult
		}
		res, err := callCancellable(ctx, func(ctx context.Context) (both, error) {
			h, t, err := tl.ListSessionsWithTitles(ctx)
			return both{h, t}, err
		})
		lst.headers, lst.titles = res.h, res.t
		return lst, err
	}
	var err error
	lst.headers, err = callCancellable(ctx, r.q.ListSessions)
	return lst, err
}

// rankOrder puts the sessions in candidate order, a stable sort on (rank,
// position) done as a counting sort: order holds positions in headers,
// every session's but t's own; ranks[i] is the rank of headers[i] (-1
// for t itself).
func rankOrder(headers []SessionHeader, t Target) (order []int32, ranks []Rank) {
	var counts [3]int
	ranks = make([]Rank, len(headers))
	for i := range headers {
		if headers[i].ID == t.ID {
			ranks[i] = -1
			continue
		}
		ranks[i] = RankOf(t, headers[i].Cwd)
		counts[ranks[i]]++
	}
	starts := [3]int{0, counts[0], counts[0] + counts[1]}
	order = make([]int32, counts[0]+counts[1]+counts[2])
	for i, rk := range ranks {
		if rk >= 0 {
			order[starts[rk]] = int32(i)
			starts[rk]++
		}
	}
	return order, ranks
}

// titlesFor reads the titles of the sessions at the positions of order,
// one result each, in that order.
func (r *Resolver) titlesFor(ctx context.Context, headers []SessionHeader, order []int32) ([]TitleResult, error) {
	ids := make([]string, len(order))
	for i, h := range order {
		ids[i] = headers[h].ID
	}
	return callCancellable(ctx, func(ctx context.Context) ([]TitleResult, error) { return r.q.ReadTitles(ctx, ids) })
}

// labelOf is the label of session h, whose title result is titles[k]: its
// title, or its id when it has none or it could not be read.
func labelOf(h *SessionHeader, titles []TitleResult, k int) (string, *Title) {
	if k < len(titles) && titles[k].Err == nil && titles[k].Title != nil {
		return titles[k].Title.Text, titles[k].Title
	}
	return h.ID, nil
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
