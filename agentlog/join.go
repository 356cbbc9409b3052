package agentlog

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/dshkit/mentions/sessionref"
)

// The optional read paths a joined store passes through when the store
// that serves an id offers them (discover declares the same methods).
type (
	walker interface {
		WalkSurface(ctx context.Context, id string, fn func(e *sessionref.Event) bool) (*int64, error)
	}
	seqLister interface {
		CapturedSeqs(ctx context.Context, ids []string) ([]*int64, error)
	}
	versionLister interface {
		SessionVersions(ctx context.Context, ids []string) ([]string, error)
	}
)

// Joined reads several stores as one corpus: a host's own store (a
// DeepSeek Harness sessions root, say) and agent stores whose ids carry
// their prefix. An id is served by the agent store whose prefix it has,
// else by the host's store; ids are never rewritten, so a DeepSeek
// Harness id stays byte-identical. Listing is every store's, merged
// newest first by creation then id (the order dshlog and the agent
// stores list in), so a resolver ranks the joined candidates as it
// would rank each store's. A title of an agent's session is shown with
// the agent's badge before it ("claude · Fix the retry"), so a picker
// row and a card say where the session came from in text, which plain
// output keeps; an agent's session without a title is labelled by its
// id, which starts with the prefix. An agent store that cannot be listed is left
// out of the listing (its Stats say why) rather than failing the rest.
//
// Joined implements sessionref.SessionQuery, sessionref.TitleLister and
// sessionref.OutlineReader, and passes through WalkSurface,
// CapturedSeqs and SessionVersions (discovery's fast paths) when every
// store it needs offers them. It is safe for concurrent use.
type Joined struct {
	host      sessionref.SessionQuery
	hostBadge string
	agents    []*Store
}

// BadgeSep is what separates an agent's badge from a title.
const BadgeSep = " · "

// Join returns the stores as one. host may be nil (only agents' logs).
func Join(host sessionref.SessionQuery, agents ...*Store) *Joined {
	return JoinBadged(host, "", agents...)
}

// JoinBadged is Join with a badge for the host's sessions too ("dsh"),
// so that in a corpus mixing agents every row says where it came from: a
// host session without a title is titled by its id after the badge ("dsh
// · 4111…"). "" gives the host's sessions no badge, as Join does.
func JoinBadged(host sessionref.SessionQuery, hostBadge string, agents ...*Store) *Joined {
	return &Joined{host: host, hostBadge: hostBadge, agents: slices.DeleteFunc(slices.Clone(agents), func(s *Store) bool { return s == nil })}
}

// Agents returns the agent stores.
func (j *Joined) Agents() []*Store { return slices.Clone(j.agents) }

// BadgeOf is the badge of the agent whose store serves id, "" for the
// host's.
func (j *Joined) BadgeOf(id string) string {
	if s := j.agentOf(id); s != nil {
		return s.f.Badge()
	}
	return j.hostBadge
}

func (j *Joined) agentOf(id string) *Store {
	for _, s := range j.agents {
		if s.Owns(id) {
			return s
		}
	}
	return nil
}

// part is one store's share of a call's ids.
type part struct {
	q   sessionref.SessionQuery
	ids []string
	at  []int
}

// split parts ids by the store that serves them.
func (j *Joined) split(ids []string) []*part {
	by := map[int]*part{} // by agent store, -1 for the host
	var out []*part
	for i, id := range ids {
		k := slices.IndexFunc(j.agents, func(s *Store) bool { return s.Owns(id) })
		p := by[k]
		if p == nil {
			p = &part{q: j.serve(id)}
			by[k] = p
			out = append(out, p)
		}
		p.ids, p.at = append(p.ids, id), append(p.at, i)
	}
	return out
}

// ListSessions lists every store's sessions, merged.
func (j *Joined) ListSessions(ctx context.Context) ([]sessionref.SessionHeader, error) {
	h, _, err := j.ListSessionsWithTitles(ctx)
	return h, err
}

// ListSessionsWithTitles lists every store's sessions with their titles
// (agents' badged), merged newest first.
func (j *Joined) ListSessionsWithTitles(ctx context.Context) ([]sessionref.SessionHeader, []sessionref.TitleResult, error) {
	type row struct {
		h sessionref.SessionHeader
		t sessionref.TitleResult
	}
	var rows []row
	if j.host != nil {
		h, t, err := listWithTitles(ctx, j.host)
		if err != nil {
			return nil, nil, err
		}
		for i := range h {
			rows = append(rows, row{h[i], badged(j.hostBadge, h[i].ID, t[i])})
		}
	}
	for _, s := range j.agents {
		h, t, err := s.ListSessionsWithTitles(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			continue
		}
		for i := range h {
			rows = append(rows, row{h[i], badged(s.f.Badge(), "", t[i])})
		}
	}
	slices.SortStableFunc(rows, func(a, b row) int { return NewestFirst(a.h, b.h) })
	headers := make([]sessionref.SessionHeader, len(rows))
	titles := make([]sessionref.TitleResult, len(rows))
	for i, r := range rows {
		headers[i], titles[i] = r.h, r.t
	}
	return headers, titles, nil
}

// listWithTitles lists q with its titles, through its fast path when it
// has one.
func listWithTitles(ctx context.Context, q sessionref.SessionQuery) ([]sessionref.SessionHeader, []sessionref.TitleResult, error) {
	if tl, ok := q.(sessionref.TitleLister); ok {
		h, t, err := tl.ListSessionsWithTitles(ctx)
		if err == nil && len(t) != len(h) {
			err = fmt.Errorf("store listed %d sessions and %d titles", len(h), len(t))
		}
		return h, t, err
	}
	h, err := q.ListSessions(ctx)
	if err != nil {
		return nil, nil, err
	}
	ids := make([]string, len(h))
	for i := range h {
		ids[i] = h[i].ID
	}
	t, err := q.ReadTitles(ctx, ids)
	if err == nil && len(t) != len(h) {
		err = fmt.Errorf("store gave %d titles for %d ids", len(t), len(h))
	}
	return h, t, err
}

// badged is a title result with badge before the title ("" for none).
// A host's session without a title (hostID: its id) is titled by its
// id after the badge: its id, unlike an agent's, does not say where it
// came from.
func badged(badge, hostID string, t sessionref.TitleResult) sessionref.TitleResult {
	switch {
	case badge == "" || t.Err != nil:
		return t
	case t.Title == nil && hostID != "":
		t.Title = &sessionref.Title{Text: badge + BadgeSep + hostID}
		return t
	case t.Title == nil:
		return t
	}
	c := *t.Title
	c.Text = badge + BadgeSep + c.Text
	t.Title = &c
	return t
}

// ReadTitles reads each id's title from the store that serves it.
func (j *Joined) ReadTitles(ctx context.Context, ids []string) ([]sessionref.TitleResult, error) {
	out := make([]sessionref.TitleResult, len(ids))
	for _, p := range j.split(ids) {
		t, err := p.q.ReadTitles(ctx, p.ids)
		if err != nil {
			return nil, err
		}
		if len(t) != len(p.ids) {
			return nil, fmt.Errorf("store gave %d titles for %d ids", len(t), len(p.ids))
		}
		badge, host := j.hostBadge, true
		if s, ok := p.q.(*Store); ok {
			badge, host = s.f.Badge(), false
		}
		for k, i := range p.at {
			hostID := ""
			if host {
				hostID = p.ids[k]
			}
			out[i] = badged(badge, hostID, t[k])
		}
	}
	return out, nil
}

// ReadSurface reads id from the store that serves it.
func (j *Joined) ReadSurface(ctx context.Context, id string) (sessionref.Surface, error) {
	return j.serve(id).ReadSurface(ctx, id)
}

// ReadOutline is the outline of id from its store, or the outline of
// its surface when that store has none.
func (j *Joined) ReadOutline(ctx context.Context, id string) (sessionref.Outline, error) {
	q := j.serve(id)
	if o, ok := q.(sessionref.OutlineReader); ok {
		return o.ReadOutline(ctx, id)
	}
	s, err := q.ReadSurface(ctx, id)
	if err != nil {
		return sessionref.Outline{}, err
	}
	return sessionref.SurfaceOutline(s), nil
}

// WalkSurface walks id's surface through its store's walk, or over its
// surface.
func (j *Joined) WalkSurface(ctx context.Context, id string, fn func(e *sessionref.Event) bool) (*int64, error) {
	q := j.serve(id)
	if w, ok := q.(walker); ok {
		return w.WalkSurface(ctx, id, fn)
	}
	s, err := q.ReadSurface(ctx, id)
	if err != nil {
		return nil, err
	}
	for i := range s.Events {
		if !fn(&s.Events[i]) {
			break
		}
	}
	return s.CapturedThroughSeq, nil
}

// CapturedSeqs asks each store for its ids' seqs; nil (read every
// surface) when a store needed has no such fast path.
func (j *Joined) CapturedSeqs(ctx context.Context, ids []string) ([]*int64, error) {
	out := make([]*int64, len(ids))
	for _, p := range j.split(ids) {
		sl, ok := p.q.(seqLister)
		if !ok {
			return nil, nil
		}
		seqs, err := sl.CapturedSeqs(ctx, p.ids)
		if err != nil || len(seqs) != len(p.ids) {
			return nil, err
		}
		for k, i := range p.at {
			out[i] = seqs[k]
		}
	}
	return out, nil
}

// SessionVersions asks each store for its ids' versions; a store
// without them gives "".
func (j *Joined) SessionVersions(ctx context.Context, ids []string) ([]string, error) {
	out := make([]string, len(ids))
	for _, p := range j.split(ids) {
		vl, ok := p.q.(versionLister)
		if !ok {
			continue
		}
		vs, err := vl.SessionVersions(ctx, p.ids)
		if err != nil {
			return nil, err
		}
		if len(vs) != len(p.ids) {
			continue
		}
		for k, i := range p.at {
			out[i] = vs[k]
		}
	}
	return out, nil
}

func (j *Joined) serve(id string) sessionref.SessionQuery {
	if s := j.agentOf(id); s != nil {
		return s
	}
	if j.host != nil {
		return j.host
	}
	return missing{}
}

// missing serves ids no store of a join has.
type missing struct{}

var errNoStore = errors.New("no store of the join serves this id")

func (missing) ListSessions(context.Context) ([]sessionref.SessionHeader, error) { return nil, nil }
func (missing) ReadTitles(_ context.Context, ids []string) ([]sessionref.TitleResult, error) {
	out := make([]sessionref.TitleResult, len(ids))
	for i, id := range ids {
		out[i].Err = fmt.Errorf("%w: %w: %q", ErrNotFound, errNoStore, id)
	}
	return out, nil
}
func (missing) ReadSurface(_ context.Context, id string) (sessionref.Surface, error) {
	return sessionref.Surface{}, fmt.Errorf("%w: %w: %q", ErrNotFound, errNoStore, id)
}
