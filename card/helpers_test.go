package card

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/sessionref"
)

// messageOf builds a context message straight from snapshots, as Prepare
// would write it, so tests can put any text in a session.
func messageOf(snaps ...sessionref.Snapshot) *sessionref.Message {
	rec := sessionref.SourceRecord{Kind: sessionref.SourceSessionReference, Form: sessionref.SourceFormRecall, Version: sessionref.SourceRecordVersion}
	for i, s := range snaps {
		rec.References = append(rec.References, sessionref.ReferenceRecord{
			SessionID: s.SessionID, Label: s.Label, OriginalMessages: len(s.Conversation),
			RetainedMessages: len(s.Conversation), InputIndex: i,
		})
	}
	raw, err := json.Marshal(snaps)
	if err != nil {
		panic(err)
	}
	prompt := sessionref.PromptPrefix + string(raw) + sessionref.PromptSuffix
	return &sessionref.Message{Source: rec, Content: []sessionref.Block{sessionref.TextBlock(prompt)}, Role: sessionref.RoleUser}
}

// snapshot is one session whose conversation is the given turns,
// alternating user and assistant.
func snapshot(id, label string, turns ...string) sessionref.Snapshot {
	s := sessionref.Snapshot{SessionID: id, Label: label}
	for i, t := range turns {
		role := sessionref.RoleUser
		if i%2 == 1 {
			role = sessionref.RoleAssistant
		}
		s.Conversation = append(s.Conversation, sessionref.Turn{Role: role, Text: t})
	}
	return s
}

// terminalSafe returns why out could do more to a terminal than print
// styled text: an escape sequence other than SGR, or a control character
// other than '\n'. Empty means safe.
func terminalSafe(out string) string {
	var state byte
	for s := out; len(s) > 0; {
		seq, _, n, next := ansi.DecodeSequence(s, state, nil)
		if n <= 0 {
			return "decoder stalled"
		}
		state, s = next, s[n:]
		switch {
		case isSGR(seq), seq == "\n":
		case seq[0] == ansi.ESC:
			return "escape sequence " + quote(seq)
		default:
			for _, r := range seq {
				if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
					return "control character " + quote(string(r))
				}
			}
		}
	}
	if !utf8.ValidString(out) {
		return "invalid UTF-8 (a lone byte could act as a C1 control)"
	}
	for i := 0; i < len(out); i++ {
		if c := out[i]; c < 0x20 && c != '\n' && c != ansi.ESC || c == 0x7f {
			return "control byte " + quote(string(c))
		}
	}
	return ""
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }

// widest returns the widest line of a view, in cells.
func widest(view string) (int, string) {
	w, at := 0, ""
	for _, l := range strings.Split(view, "\n") {
		if lw := textutil.Width(l); lw > w {
			w, at = lw, l
		}
	}
	return w, at
}

// requireFits fails when a line of view is wider than w cells or view has
// other than want lines.
func requireFits(t *testing.T, view string, w, lines int) {
	t.Helper()
	if got, line := widest(view); got > w {
		t.Fatalf("a line is %d cells, wider than %d: %q", got, w, ansi.Strip(line))
	}
	if n := strings.Count(view, "\n") + 1; n != lines {
		t.Fatalf("view has %d lines, Height says %d", n, lines)
	}
}

// settle runs cmd as the runtime would, batches expanded, hands every
// RenderedMsg back to c's Update and returns the ToggledMsgs it sent.
func settle(c Model, cmd tea.Cmd) (Model, []ToggledMsg) {
	var toggled []ToggledMsg
	if cmd == nil {
		return c, nil
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, sub := range msg {
			var more []ToggledMsg
			c, more = settle(c, sub)
			toggled = append(toggled, more...)
		}
	case ToggledMsg:
		toggled = append(toggled, msg)
	case RenderedMsg:
		c, _ = c.Update(msg)
	}
	return c, toggled
}
