package sessionref

import (
	"errors"
	"fmt"
	"strings"
)

// SurfaceIssue is one event of a surface that a snapshot would leave out
// although it looks like conversation, as [CheckSurface] finds it.
type SurfaceIssue struct {
	// Index is the event's position in Surface.Events.
	Index int
	// Problem says what is wrong and what the snapshot does with it.
	Problem string
}

func (e *SurfaceIssue) Error() string {
	return fmt.Sprintf("event %d: %s", e.Index, e.Problem)
}

// CheckSurface reports the events of s that a snapshot would silently
// leave out because a store set them up in a way the projection does not
// read: a user/message whose Source.Kind is empty, or "user" spelled
// another way, and an event type that is a case or spelling variant of a
// known one. Prepare keeps the reference's behaviour and drops such
// events without an error; a store calls CheckSurface in its own tests so
// the loss is not silent. It returns nil for a surface with none, else
// the issues joined (each a *SurfaceIssue).
func CheckSurface(s Surface) error {
	var errs []error
	for i := range s.Events {
		e := &s.Events[i]
		switch {
		case e.Type == EventUserMessage && e.Source.Kind == "":
			errs = append(errs, &SurfaceIssue{i, `user/message with an empty Source.Kind is left out of snapshots; a person's message needs Kind "user"`})
		case e.Type == EventUserMessage && e.Source.Kind != SourceUser && strings.EqualFold(strings.TrimSpace(e.Source.Kind), SourceUser):
			errs = append(errs, &SurfaceIssue{i, fmt.Sprintf("Source.Kind %q is not exactly %q and is left out of snapshots", e.Source.Kind, SourceUser)})
		case e.Type == EventUserMessage && e.Source.Plugin == PluginCompact && e.Source.Kind != SourcePlugin:
			errs = append(errs, &SurfaceIssue{i, fmt.Sprintf("a checkpoint needs Kind %q with Plugin %q; Kind %q is left out", SourcePlugin, PluginCompact, e.Source.Kind)})
		case e.Type != EventUserMessage && e.Type != EventAssistantMessage && e.Type != EventToolResult && isKnownTypeVariant(e.Type):
			errs = append(errs, &SurfaceIssue{i, fmt.Sprintf("event type %q is not one this package reads and is left out", e.Type)})
		}
	}
	return errors.Join(errs...)
}

// isKnownTypeVariant reports whether t is a known event type written
// another way ("User/Message", "assistant_message", " user/message").
func isKnownTypeVariant(t string) bool {
	norm := strings.NewReplacer("_", "/", "-", "/", ".", "/").Replace(strings.ToLower(strings.TrimSpace(t)))
	return norm == EventUserMessage || norm == EventAssistantMessage || norm == EventToolResult
}
