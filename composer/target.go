package composer

import (
	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/sessionref"
)

// SetTarget tells the composer that the host switched to another
// session, without building a new composer: the embedded picker lists
// candidates for t from now on (see [picker.Model.SetTarget]; an open
// popup is asked again and shows nothing of the old session), and every
// submit carries t in its context, which a [ResolverPreparer] prepares
// for. A submit still preparing for the old session is cancelled: it ends
// in a [SubmitFailedMsg] that says so, whatever its preparer returns, and
// the draft stays. Run the returned Cmd; it fetches for an open popup.
// Setting the same target again does nothing.
func (m *Model) SetTarget(t sessionref.Target) tea.Cmd {
	key := t.Key()
	if m.hasTarget && key == m.targetKey {
		m.target = t
		return nil
	}
	m.target, m.hasTarget, m.targetKey = t, true, key
	if m.preparing && m.cancel != nil {
		m.cancel()
	}
	return m.picker.SetTarget(t)
}

// Target returns the session set with [Model.SetTarget], if any.
func (m Model) Target() (sessionref.Target, bool) { return m.target, m.hasTarget }

// retargeted is the error a submit ends with when the host switched
// sessions while it was preparing.
func retargeted() error {
	return &sessionref.Error{Code: sessionref.CodeCancelled, Msg: "the session was switched while sending"}
}
