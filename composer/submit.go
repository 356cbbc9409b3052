package composer

import (
	"context"
	"errors"
	"fmt"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

// submit starts preparing the draft in a Cmd.
func (m Model) submit() (Model, tea.Cmd) {
	draft := m.Value()
	if m.prepare == nil || m.blank() {
		return m, nil
	}
	m.closePicker()
	m.preparing = true
	m.refused, m.refusedKeys = "", 0
	m.seq++
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel = cancel
	if m.hasTarget {
		ctx = picker.ContextWithTarget(ctx, m.target)
	}
	id, seq, target, prepare := m.id, m.seq, m.targetKey, m.prepare
	return m, func() tea.Msg {
		res, err := prepare(ctx, draft)
		return prepareDoneMsg{composer: id, seq: seq, target: target, res: res, err: err}
	}
}

func (m Model) finishSubmit(msg prepareDoneMsg) (Model, tea.Cmd) {
	if msg.composer != m.id || msg.seq != m.seq || !m.preparing {
		return m, nil
	}
	m.preparing = false
	m.refused, m.refusedKeys = "", 0
	if m.cancel != nil {
		m.cancel()
		m.cancel = nil
	}
	if msg.target != m.targetKey && msg.err == nil {
		msg.err = retargeted() // prepared for the session the host left
	}
	if msg.err != nil {
		m.errLine = m.describe(msg.err)
		failed := SubmitFailedMsg{Err: msg.err, Message: m.errLine}
		return m, func() tea.Msg { return failed }
	}
	out := SubmittedMsg{
		Text:       msg.res.Parsed.Text,
		Canonical:  msg.res.Canonical,
		Content:    msg.res.Content,
		Context:    msg.res.Context,
		References: msg.res.Parsed.References,
	}
	m.atoms, m.cursor, m.top, m.errLine, m.goalCol = nil, 0, 0, "", -1
	m.relayout()
	m.afterEdit()
	return m, func() tea.Msg { return out }
}

// describe says what went wrong in words a person understands, on one
// line with every untrusted part (an error's text, a label, an id)
// escaped. Any error is accepted: a *sessionref.Error may lack its
// message, cause or session, or be nil.
func (m Model) describe(err error) string {
	return textutil.Inline(m.describeRaw(err))
}

func (m Model) describeRaw(err error) string {
	var e *sessionref.Error
	if !errors.As(err, &e) || e == nil {
		return "Couldn't send: " + errText(err) + "."
	}
	who := m.labelOf(e.SessionID)
	why := e.Msg
	if e.Cause != nil {
		why = errText(e.Cause)
	}
	if why == "" {
		why = "no reason given"
	}
	switch e.Code {
	case sessionref.CodeInvalidReference:
		return "A mention in the message is malformed; fix or remove it (" + why + ")."
	case sessionref.CodeSelfReference:
		return "A session can't reference itself; remove " + who + "."
	case sessionref.CodeTooMany:
		return fmt.Sprintf("A message can reference at most %d sessions; remove one.", m.maxRefs)
	case sessionref.CodeReadFailed:
		return "Couldn't read " + who + ": " + why + "."
	case sessionref.CodeBudgetExceeded:
		// Messages are left out to fit: only the snapshot's own frame
		// (ids, labels, folder) can be too large, so a smaller session
		// would not help.
		return who + " is too large to fit the " + textutil.Bytes(m.budget) + " snapshot budget even with every message left out; remove it, or raise the budget."
	case sessionref.CodeCancelled:
		return "Sending cancelled; your draft is kept."
	}
	return "Couldn't send: " + errText(e) + "."
}

// errText is err's text, even for an error whose Error method is not
// safe on its zero value.
func errText(err error) (s string) {
	if err == nil {
		return "unknown error"
	}
	defer func() {
		if recover() != nil {
			s = fmt.Sprintf("%T", err)
		}
	}()
	if s = err.Error(); s == "" {
		s = fmt.Sprintf("%T", err)
	}
	return s
}

// labelOf names a referenced session as the draft shows it.
func (m Model) labelOf(id string) string {
	for _, a := range m.atoms {
		if a.tok != nil && a.tok.Reference.SessionID == id {
			return a.tok.chip()
		}
	}
	if id == "" {
		return "a session"
	}
	return "session " + textutil.ShortID(id)
}

// maxRefused is how many bytes of refused text the busy line keeps: the
// last ones, which are the ones a person is looking at.
const maxRefused = 64

// refuse notes a key or paste not taken while preparing; text is what it
// would have typed ("" for a key that types nothing).
func (m *Model) refuse(text string) {
	m.refusedKeys++
	if text == "" {
		return
	}
	m.refused += text
	if len(m.refused) > maxRefused {
		cut := len(m.refused) - maxRefused
		for cut < len(m.refused) && !utf8.RuneStart(m.refused[cut]) {
			cut++
		}
		m.refused = m.refused[cut:]
	}
}
