package demo

import (
	"context"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/discover"
	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

// DiscoverHitLimit is how many sessions the picker's "in messages"
// section asks the index for.
const DiscoverHitLimit = 20

// indexState is how far the background Sync of the full-text index got.
type indexState struct {
	ix          *discover.Index
	running     bool // a Sync is due or runs
	quiet       bool // the running Sync follows changes: no progress line
	synced      bool // a Sync finished
	done, total int
	stats       discover.SyncStats
	err         error
	notice      string
}

// indexMsg is the Sync's news: progress, or the end; next is where the
// following news comes from.
type indexMsg struct {
	done, total int
	finished    bool
	stats       discover.SyncStats
	err         error
	next        <-chan indexMsg
}

// openIndex opens the full-text index of q when Options.Discover is set:
// at Options.DiscoverPath, or in memory. It returns the picker option of
// its "in messages" section. Each Sync reports its progress to the Cmd
// that runs it (see syncIndex).
func openIndex(o Options, q sessionref.SessionQuery) (*discover.Index, []picker.Option, error) {
	if !o.Discover {
		return nil, nil, nil
	}
	var opts []discover.Option
	for _, root := range o.DiscoverRefuse {
		opts = append(opts, discover.RefuseInside(root))
	}
	opts = append(opts, o.DiscoverOptions...)
	ix, err := discover.Open(o.DiscoverPath, q, opts...)
	if err != nil {
		return nil, nil, fmt.Errorf("demo: full-text index: %w", err)
	}
	target := o.Current
	hits := func(ctx context.Context, query string) ([]picker.Hit, error) {
		found, err := ix.Search(ctx, target, query, DiscoverHitLimit)
		out := make([]picker.Hit, len(found))
		for i, h := range found {
			out[i] = picker.Hit{Candidate: h.Candidate, Snippet: h.Snippet, Match: h.Match}
		}
		return out, err
	}
	return ix, []picker.Option{picker.WithHitSource(hits)}, nil
}

// searchOffNotice says that full-text search is off, and why.
func searchOffNotice(err error) string {
	return "full-text search is off (titles, ids and folders still match): " + textutil.Inline(err.Error())
}

// joinNotice adds b to the notice a.
func joinNotice(a, b string) string {
	if a == "" {
		return b
	}
	return a + " · " + b
}

// syncIndex runs the index's Sync in its own goroutine and returns its
// first news; each indexMsg's handler waits for the next. Update never
// waits for it, and only Update changes the model: the Sync's progress
// goes to a channel of this Cmd's own, newest only.
func syncIndex(ix *discover.Index) tea.Cmd {
	if ix == nil {
		return nil
	}
	return func() tea.Msg {
		ch := make(chan indexMsg, 1)
		report := func(p discover.Progress) {
			// Keep only the newest progress: drop what the screen has
			// not taken yet.
			select {
			case <-ch:
			default:
			}
			select {
			case ch <- indexMsg{done: p.Done, total: p.Total}:
			default:
			}
		}
		go func() {
			stats, err := ix.SyncReporting(context.Background(), report)
			// Drop a progress the screen has not taken: the end is
			// never dropped.
			select {
			case <-ch:
			default:
			}
			ch <- indexMsg{finished: true, stats: stats, err: err}
		}()
		return waitIndex(ch)()
	}
}

func waitIndex(ch <-chan indexMsg) tea.Cmd {
	return func() tea.Msg {
		msg := <-ch
		msg.next = ch
		return msg
	}
}

// resyncMsg says it is time to sync the index again.
type resyncMsg struct{}

// onIndex records the Sync's news and waits for more; when a Sync ends
// it schedules the next (Options.Resync).
func (m *Model) onIndex(msg indexMsg) tea.Cmd {
	if msg.finished {
		quiet := m.index.quiet
		m.index.running, m.index.quiet, m.index.synced, m.index.stats, m.index.err = false, false, true, msg.stats, msg.err
		m.layout()
		var cmd tea.Cmd
		if !quiet || msg.stats.Indexed+msg.stats.Removed > 0 {
			cmd = m.comp.Picker().Refresh() // an open picker's hits cover the whole index now
		}
		if m.opts.Resync > 0 {
			cmd = tea.Batch(cmd, m.opts.tick(m.opts.Resync, func(time.Time) tea.Msg { return resyncMsg{} }))
		}
		return cmd
	}
	m.index.done, m.index.total = msg.done, msg.total
	m.layout()
	return waitIndex(msg.next)
}

// onResync starts a Sync that follows what changed, without a progress
// line, unless one runs.
func (m *Model) onResync() tea.Cmd {
	if m.index.ix == nil || m.index.running {
		return nil
	}
	m.index.running, m.index.quiet = true, true
	return syncIndex(m.index.ix)
}

// indexStatus is the status line of the index: its progress while a
// Sync runs, what happened to its file, or why it failed.
func (m Model) indexStatus() string {
	s := m.index
	switch {
	case s.running && s.quiet:
		return ""
	case s.running && s.total > 1:
		// The session written in is indexed too, but the header does not
		// count it among the sessions to reference: neither does this.
		total := s.total - 1
		return fmt.Sprintf("%sindexing %d/%d… (titles are searchable meanwhile)", s.notice, min(s.done, total), total)
	case s.running:
		return s.notice + "indexing…"
	case s.err != nil:
		return "✗ indexing failed: " + textutil.Inline(s.err.Error())
	}
	return ""
}

// noticeOf says once what happened to the index file (created, rebuilt).
func noticeOf(ix *discover.Index) string {
	if ix == nil {
		return ""
	}
	s := ""
	for _, n := range ix.Notices() {
		s += textutil.Inline(n.String()) + " · "
	}
	return s
}

// IndexStats returns what the last finished Sync of the full-text index
// did, and whether one finished.
func (m Model) IndexStats() (discover.SyncStats, bool) {
	return m.index.stats, m.index.synced
}

// Close releases the full-text index, if any. Call it after the program
// ends.
func (m Model) Close() error {
	if m.index.ix == nil {
		return nil
	}
	return m.index.ix.Close()
}
