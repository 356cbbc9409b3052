package demo

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/sessionref"
)

// inspectorTitle says what the inspector shows: not simply the last
// message, but the last one that referenced sessions.
const inspectorTitle = "Inspector · the last message with references"

// lastReference is the newest context message that a direct message
// follows: its index in the events.
func (m Model) lastReference() (int, bool) {
	for i := len(m.events) - 2; i >= 0; i-- {
		if m.events[i].Source.Kind == sessionref.SourceSessionReference {
			return i, true
		}
	}
	return 0, false
}

// renderInspector shows the last message with references exactly as the
// model gets it: the context message (the untrusted snapshot) then the
// direct message. What was kept of each session comes from the card,
// which parsed the context message when it was made.
func (m *Model) renderInspector() {
	st := m.st
	width := max(m.w, 10)
	at, ok := m.lastReference()
	var b strings.Builder
	if !ok {
		b.WriteString("No message with references yet.\n\nMention a session with @ and send: this screen then shows the two user-role messages the model receives for it.")
		m.inspVP.SetContent(lipgloss.NewStyle().Width(width).Render(b.String()))
		return
	}
	ctx, direct := m.events[at], m.events[at+1]
	seq := int64(-1)
	if ctx.Seq != nil {
		seq = *ctx.Seq
	}
	c := m.cards[seq]
	prompt := textOf(ctx)
	rec := c.Record()
	snaps := c.Snapshots()
	budget := m.resolver.Config().MaxReferenceBytes

	fmt.Fprintf(&b, "The last message you sent that referenced sessions, as the model receives it: two consecutive user-role messages, the snapshot first. Budget: %s per referenced session.\n\n",
		nbsp(textutil.Bytes(budget)))
	fmt.Fprintf(&b, "%s\n", st.title.Render(fmt.Sprintf("── message 1 of 2 · role user · source session-reference · %s", nbsp(textutil.Bytes(len(prompt))))))
	for i, r := range rec.References {
		line := fmt.Sprintf("@%s · %s · %d of %d messages kept", textutil.Inline(r.Label), textutil.ShortID(r.SessionID), r.RetainedMessages, r.OriginalMessages)
		if r.OmittedMessages > 0 || r.OmittedBytes > 0 {
			line += fmt.Sprintf(", %d omitted (%s)", r.OmittedMessages, nbsp(textutil.Bytes(r.OmittedBytes)))
		}
		if r.Compacted {
			line += ", compacted"
		}
		if r.Truncated {
			line += ", truncated"
		}
		if i < len(snaps) && snaps[i].CapturedThroughSeq != nil {
			line += fmt.Sprintf(" · captured through seq %d", *snaps[i].CapturedThroughSeq)
		}
		// Indented as a whole, wrapped lines too.
		b.WriteString(lipgloss.NewStyle().PaddingLeft(3).Width(width).Render(line) + "\n")
	}
	b.WriteString("\n" + textutil.Block(prompt) + "\n\n")
	fmt.Fprintf(&b, "%s\n", st.title.Render(fmt.Sprintf("── message 2 of 2 · role user · the direct message · %s", nbsp(textutil.Bytes(len(textOf(direct)))))))
	b.WriteString(textutil.Block(textOf(direct)))
	m.inspVP.SetContent(lipgloss.NewStyle().Width(width).Render(b.String()))
}

// nbsp keeps a size such as "64 KiB" on one line when text wraps.
func nbsp(s string) string { return strings.ReplaceAll(s, " ", "\u00a0") }

// scrollPosition says where a viewport is: "lines 1–20 of 48 (41%)", or
// "all 12 lines" when everything shows.
func scrollPosition(total, offset, height int) string {
	if total <= height {
		return fmt.Sprintf("all %d lines", total)
	}
	last := min(offset+height, total)
	return fmt.Sprintf("lines %d–%d of %d (%d%%)", offset+1, last, total, 100*last/total)
}
