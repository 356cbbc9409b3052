package demo

import (
	"cmp"
	"context"
	"slices"

	"github.com/dshkit/mentions/discover"
	"github.com/dshkit/mentions/sessionref"
)

// Store is where the demo's current session lives: it reads like any
// session store and takes the messages the demo sends.
type Store interface {
	sessionref.SessionQuery
	Append(id string, ev sessionref.Event) (int64, error)
}

// union reads the local store's sessions and another source's as one
// corpus; an id found in local is served by local.
type union struct {
	local Store
	refs  sessionref.SessionQuery
}

func (u union) ListSessions(ctx context.Context) ([]sessionref.SessionHeader, error) {
	a, err := u.local.ListSessions(ctx)
	if err != nil {
		return nil, err
	}
	b, err := u.refs.ListSessions(ctx)
	if err != nil {
		return nil, err
	}
	seen := make(map[string]bool, len(a))
	for _, h := range a {
		seen[h.ID] = true
	}
	out := slices.Clone(a)
	for _, h := range b {
		if !seen[h.ID] {
			out = append(out, h)
		}
	}
	slices.SortStableFunc(out, func(x, y sessionref.SessionHeader) int {
		return cmp.Or(cmp.Compare(y.CreatedAt, x.CreatedAt), cmp.Compare(x.ID, y.ID))
	})
	return out, nil
}

func (u union) ReadTitles(ctx context.Context, ids []string) ([]sessionref.TitleResult, error) {
	local, err := u.local.ReadTitles(ctx, ids)
	if err != nil {
		return nil, err
	}
	var missing []string
	var at []int
	for i, r := range local {
		if r.Err != nil {
			missing = append(missing, ids[i])
			at = append(at, i)
		}
	}
	if len(missing) == 0 {
		return local, nil
	}
	other, err := u.refs.ReadTitles(ctx, missing)
	if err != nil {
		return nil, err
	}
	for k, i := range at {
		if k < len(other) {
			local[i] = other[k]
		}
	}
	return local, nil
}

func (u union) ReadSurface(ctx context.Context, id string) (sessionref.Surface, error) {
	s, err := u.local.ReadSurface(ctx, id)
	if err == nil {
		return s, nil
	}
	return u.refs.ReadSurface(ctx, id)
}

// ReadOutline passes the sessions root's outlines through
// (sessionref.OutlineReader), so Prepare and the preview hold of a huge
// log only what its snapshot keeps; the embedded store's sessions are
// outlined from their surface.
func (u union) ReadOutline(ctx context.Context, id string) (sessionref.Outline, error) {
	if s, err := u.local.ReadSurface(ctx, id); err == nil {
		return sessionref.SurfaceOutline(s), nil
	}
	if o, ok := u.refs.(sessionref.OutlineReader); ok {
		return o.ReadOutline(ctx, id)
	}
	s, err := u.refs.ReadSurface(ctx, id)
	if err != nil {
		return sessionref.Outline{}, err
	}
	return sessionref.SurfaceOutline(s), nil
}

// SessionVersions is discover's check for logs rewritten with the same
// seqs (discover.VersionLister): each id of the sessions root gets its
// store's token; the embedded store's sessions, whose seqs change with
// every edit, get none.
func (u union) SessionVersions(ctx context.Context, ids []string) ([]string, error) {
	out := make([]string, len(ids))
	vl, ok := u.refs.(discover.VersionLister)
	if !ok {
		return out, nil
	}
	_, theirs, err := u.split(ctx, ids)
	if err != nil || len(theirs.ids) == 0 {
		return out, err
	}
	vs, err := vl.SessionVersions(ctx, theirs.ids)
	if err != nil || len(vs) != len(theirs.ids) {
		return out, err
	}
	for k, i := range theirs.at {
		out[i] = vs[k]
	}
	return out, nil
}

// idsAt is some of a call's ids and their places in it.
type idsAt struct {
	ids []string
	at  []int
}

// split parts ids by the store that serves them: local when it lists
// them, else the sessions root.
func (u union) split(ctx context.Context, ids []string) (mine, theirs idsAt, err error) {
	local, err := u.local.ListSessions(ctx)
	if err != nil {
		return idsAt{}, idsAt{}, err
	}
	isLocal := make(map[string]bool, len(local))
	for _, h := range local {
		isLocal[h.ID] = true
	}
	for i, id := range ids {
		part := &theirs
		if isLocal[id] {
			part = &mine
		}
		part.ids, part.at = append(part.ids, id), append(part.at, i)
	}
	return mine, theirs, nil
}

// WalkSurface is discover's bounded read (discover.SurfaceWalker): a
// session of the sessions root is walked by its store, which builds no
// surface, so indexing a huge log holds only its parse.
func (u union) WalkSurface(ctx context.Context, id string, fn func(e *sessionref.Event) bool) (*int64, error) {
	s, err := u.local.ReadSurface(ctx, id)
	if err != nil {
		if w, ok := u.refs.(discover.SurfaceWalker); ok {
			return w.WalkSurface(ctx, id, fn)
		}
		if s, err = u.refs.ReadSurface(ctx, id); err != nil {
			return nil, err
		}
	}
	for i := range s.Events {
		if !fn(&s.Events[i]) {
			break
		}
	}
	return s.CapturedThroughSeq, nil
}

// CapturedSeqs is discover's fast path over both stores, when both offer
// it: each id is asked of the store that serves it (local when it lists
// it), so a Sync that follows changes reads only changed surfaces.
func (u union) CapturedSeqs(ctx context.Context, ids []string) ([]*int64, error) {
	ls, ok1 := u.local.(discover.SeqLister)
	rs, ok2 := u.refs.(discover.SeqLister)
	if !ok1 || !ok2 {
		return nil, nil // discover reads every surface instead
	}
	mine, theirs, err := u.split(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]*int64, len(ids))
	for _, part := range []struct {
		q discover.SeqLister
		idsAt
	}{{ls, mine}, {rs, theirs}} {
		if len(part.ids) == 0 {
			continue
		}
		seqs, err := part.q.CapturedSeqs(ctx, part.ids)
		if err != nil {
			return nil, err
		}
		if len(seqs) != len(part.ids) {
			return nil, nil
		}
		for k, i := range part.at {
			out[i] = seqs[k]
		}
	}
	return out, nil
}
