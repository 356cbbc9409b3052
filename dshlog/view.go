package dshlog

import (
	"cmp"
	"context"
	"slices"

	"github.com/dshkit/mentions/jsonlog"
	"github.com/dshkit/mentions/sessionref"
)

// view is what a read of a session takes of its index while it holds
// it: the surface's order and where its messages are. The places are the
// index's own slices, which lines appended later only extend (no element
// is ever written again), so the messages are read back after the index
// is let go: another read of the session does not wait for them. A view
// holds 4 bytes a message beside the index.
type view struct {
	head     header
	closers  []event
	captured *int64
	ranks    []int32 // the messages' ranks, in surface order
	at       []int64 // by rank, as in the index
	n, tlen  []int32
	kinds    []uint8
	rd       *reader
}

// view takes the surface of ix (only the messages a snapshot keeps, with
// projected) as a read of snap sees it.
func (ix *index) view(snap jsonlog.Snapshot, projected bool) *view {
	v := &view{head: ix.head, closers: ix.closers(), rd: newReader(ix, snap)}
	v.captured = ix.captured(v.closers)
	c := int(ix.count)
	v.at, v.n, v.tlen, v.kinds = ix.at[:c:c], ix.n[:c:c], ix.tlen[:c:c], ix.kinds[:c:c]
	count := 0
	ix.runs.each(func(seq int64) bool {
		if !projected || ix.tlen[ix.rank(seq)] >= 0 {
			count++
		}
		return true
	})
	v.ranks = make([]int32, 0, count)
	ix.runs.each(func(seq int64) bool {
		if r := ix.rank(seq); !projected || ix.tlen[r] >= 0 {
			v.ranks = append(v.ranks, r)
		}
		return true
	})
	return v
}

// viewOf takes the view of session id's log.
func (s *Store) viewOf(ctx context.Context, id string, projected bool) (*view, error) {
	var v *view
	err := s.use(ctx, id, func(ix *index, snap jsonlog.Snapshot) error {
		v = ix.view(snap, projected)
		return nil
	})
	return v, err
}

// len is how many messages the surface holds, closers included.
func (v *view) len() int {
	n := len(v.ranks)
	for k := range v.closers {
		if v.closers[k].isMessage() {
			n++
		}
	}
	return n
}

// message is the surface's i-th message (of ranks), read back.
func (v *view) message(ctx context.Context, i int) (sessionref.Event, error) {
	r := v.ranks[i]
	return v.rd.message(ctx, v.at[r], v.n[r], v.tlen[r], v.kinds[r])
}

// each passes the surface to fn in order, each message read back from
// its line and the closers built, until fn returns false.
func (v *view) each(ctx context.Context, fn func(m sessionref.Event) bool) error {
	defer v.rd.close()
	for i := range v.ranks {
		if i&1023 == 1023 && ctx.Err() != nil {
			return ctx.Err()
		}
		m, err := v.message(ctx, i)
		if err != nil {
			return err
		}
		if !fn(m) {
			return nil
		}
	}
	for k := range v.closers {
		if e := &v.closers[k]; e.isMessage() {
			m, _ := e.message()
			if !fn(m) {
				return nil
			}
		}
	}
	return nil
}

// all reads the whole surface into out (v.len() long), its messages in
// the order of their lines in the file (a replace puts surface order out
// of file order, and a frame too big to keep is read on from where its
// last line was, not again from its start), then the closers.
func (v *view) all(ctx context.Context, out []sessionref.Event) error {
	defer v.rd.close()
	order := make([]int32, len(v.ranks)) // indexes in ranks, by their lines' places
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return cmp.Compare(v.at[v.ranks[a]], v.at[v.ranks[b]]) })
	for k, i := range order {
		if k&1023 == 1023 && ctx.Err() != nil {
			return ctx.Err()
		}
		m, err := v.message(ctx, int(i))
		if err != nil {
			return err
		}
		out[i] = m
	}
	k := len(v.ranks)
	for c := range v.closers {
		if e := &v.closers[c]; e.isMessage() {
			out[k], _ = e.message()
			k++
		}
	}
	return nil
}

// read runs fn over a view of session id's log, again while the log
// changes under fn's reads (whileChanged).
func (s *Store) read(ctx context.Context, id string, projected bool, fn func(v *view) error) error {
	return whileChanged(ctx, func() (string, error) {
		v, err := s.viewOf(ctx, id, projected)
		if err != nil {
			return "", err
		}
		path := v.rd.probe.path
		if err := fn(v); err != nil {
			return path, errorOf(path, err)
		}
		return path, nil
	})
}
