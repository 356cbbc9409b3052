package composer

import (
	"context"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/internal/textutil"
	rules "github.com/dshkit/mentions/mention"
	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

// submit starts preparing the draft in a Cmd.
func (m Model) submit() (Model, tea.Cmd) {
	draft := m.Canonical()
	if m.prepare == nil || len(m.atoms) == 0 {
		return m, nil
	}
	if m.blank() {
		// Spaces and line breaks alone: nothing is sent, and the user is
		// told why Enter did nothing.
		m.setErr(nil, "Nothing to send: the draft holds only spaces.")
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
		m.setErr(msg.err, m.describe(msg.err))
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
	m.top, m.goalCol = 0, -1
	m.setErr(nil, "")
	m.draft.Reset()
	cmd := m.sync()
	return m, tea.Batch(cmd, func() tea.Msg { return out })
}

// describe says what went wrong in words a person understands, on one
// line with every untrusted part (an error's text, a label, an id)
// escaped: [sessionref.Describe] with the composer's limits and its
// tokens' chips, drawn through the components' sanitiser. Any error is
// accepted: a *sessionref.Error may lack its message, cause or session,
// or be nil.
func (m Model) describe(err error) string {
	cfg := sessionref.Config{MaxReferences: m.maxRefs, MaxReferenceBytes: m.budget}
	return textutil.Inline(sessionref.Describe(err, cfg, m.labelOf))
}

// labelOf names a referenced session as the draft shows it.
func (m Model) labelOf(id string) string {
	for _, t := range m.draft.Tokens() {
		if t.Reference.SessionID == id {
			return rules.Chip(t.Reference)
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
