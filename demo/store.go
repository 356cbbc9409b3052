package demo

import (
	"cmp"
	"context"
	"slices"

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
