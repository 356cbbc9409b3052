package picker

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/sessionref"
)

// targetCtxKey is the context key of the session a query is asked for.
type targetCtxKey struct{}

// ContextWithTarget returns a copy of ctx that carries t, the session the
// message being written belongs to. The picker gives every fetch it
// starts such a context once a target was set (see [Model.SetTarget]);
// the composer does the same for a submit. Sources read it back with
// [TargetFromContext].
func ContextWithTarget(ctx context.Context, t sessionref.Target) context.Context {
	return context.WithValue(ctx, targetCtxKey{}, t)
}

// TargetFromContext returns the target a fetch or a submit was started
// for, when its context carries one (see [ContextWithTarget]). A host's
// [ItemSource] that depends on the current session (its folder's files,
// say) reads it here rather than from state shared with Update.
func TargetFromContext(ctx context.Context) (sessionref.Target, bool) {
	t, ok := ctx.Value(targetCtxKey{}).(sessionref.Target)
	return t, ok
}

// Target returns the session the picker lists candidates for, when one
// was set with [Model.SetTarget].
func (m Model) Target() (sessionref.Target, bool) { return m.target, m.hasTarget }

// SetTarget sets the session the message being written belongs to: the
// one place a picker is told its target. From then on every fetch and
// preview read carries t in its context ([TargetFromContext]), which
// [ResolverSource] ranks for and [ResolverPreviewer] prepares for, and the
// cache, which is keyed by target, answers only queries asked for t. An
// answer to a query asked for the old target is dropped when it arrives.
// When the picker is open its rows are cleared (they ranked for the old
// session, and the session itself may be among them) and every section
// is asked again; a pick waiting for its first match is dropped. Run the
// returned Cmd; it fetches for an open popup. Setting the same target
// again does nothing.
func (m *Model) SetTarget(t sessionref.Target) tea.Cmd {
	key := t.Key()
	if m.hasTarget && key == m.targetKey {
		m.target = t
		return nil
	}
	m.target, m.hasTarget, m.targetKey = t, true, key
	if !m.open {
		return nil
	}
	m.clearAll() // a host's section may depend on the session too
	m.cursor, m.offset = 0, 0
	next, cmd := m.runQuery(m.query)
	next, cmd = next.followPreview(cmd)
	*m = next
	return cmd
}

// fetchContext is a new context for one fetch, carrying the target.
func (m Model) fetchContext() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	if m.hasTarget {
		ctx = ContextWithTarget(ctx, m.target)
	}
	return ctx, cancel
}
