package demo

import (
	"fmt"
	"strings"

	"github.com/dshkit/mentions/composer"
	"github.com/dshkit/mentions/sessionref"
)

// messagesFor is what a send appends: the context (the untrusted
// snapshot), the direct message, and the demo's stand-in reply.
func messagesFor(s composer.SubmittedMsg) []sessionref.Event {
	var evs []sessionref.Event
	if s.Context != nil {
		if ev, err := s.Context.Event(); err == nil {
			evs = append(evs, ev)
		}
	}
	evs = append(evs, sessionref.Event{Type: sessionref.EventUserMessage, Source: sessionref.Source{Kind: sessionref.SourceUser}, Content: s.Content})
	return append(evs, sessionref.Event{Type: sessionref.EventAssistantMessage, Source: sessionref.Source{Kind: sessionref.SourceModel},
		Content: []sessionref.Block{sessionref.TextBlock(standIn(s))}})
}

// standIn is the demo's reply: no model runs here, and it says so.
func standIn(s composer.SubmittedMsg) string {
	if s.Context == nil {
		return "[demo stand-in, no model] Message received. Type @ to reference another session."
	}
	var parts []string
	for _, r := range s.Context.Source.References {
		p := fmt.Sprintf("@%s (%d of %d messages", r.Label, r.RetainedMessages, r.OriginalMessages)
		if r.Truncated {
			p += ", truncated"
		}
		parts = append(parts, p+")")
	}
	return "[demo stand-in, no model] A model would now answer with the snapshot of " + strings.Join(parts, ", ") +
		" as untrusted background. Press ctrl+t to see exactly what it would receive."
}
