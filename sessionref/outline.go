package sessionref

import (
	"context"
	"fmt"
	"strings"
)

// OutlineReader is an optional interface a [SessionQuery] may offer so
// that Prepare holds no more of a referenced session than its snapshot
// keeps. Without it Prepare reads the whole surface (every message's
// text); with it Prepare reads the session's outline — each projected
// message's role and size — and then the text of only the messages the
// byte budget keeps: the newest, the checkpoints and the suffix that
// fits, at most about Config.MaxReferenceBytes of text plus the newest
// message and the checkpoints, whatever the session's length. The
// snapshot is the same, byte for byte, as the one built from
// ReadSurface.
type OutlineReader interface {
	// ReadOutline returns the outline of the session's current surface,
	// as ReadSurface would return it now. A missing session is an error.
	ReadOutline(ctx context.Context, id string) (Outline, error)
}

// Outline is a surface without its text: what Prepare needs to decide
// which messages a snapshot keeps, and a way to read those messages'
// text.
type Outline struct {
	// Session is the session's header, as in [Surface].
	Session SessionHeader
	// CapturedThroughSeq is as in [Surface].
	CapturedThroughSeq *int64
	// Messages are the surface's events that [Project] keeps, in surface
	// order, each described by [OutlineOf] (or [OutlineOfText]).
	Messages []OutlineMessage
	// Text returns the text of Messages[i]: its event's text blocks
	// joined with "\n", exactly Bytes long, not yet made valid UTF-8
	// (Prepare does that, as it does for a surface). It is called only
	// for the messages a snapshot keeps, at most once each, from one
	// goroutine; an error fails the Prepare with CodeReadFailed.
	Text func(ctx context.Context, i int) (string, error)
}

// OutlineMessage describes one projected message of an [Outline].
type OutlineMessage struct {
	// Assistant is true for a model's reply, false for a person's
	// message or a checkpoint (both are user turns).
	Assistant bool
	// Checkpoint marks a compaction checkpoint, which a snapshot always
	// keeps.
	Checkpoint bool
	// Bytes is the length of the message's text: its text blocks joined
	// with "\n". For a person's message in the single-message form it is
	// the whole text, envelope included, which is what the message counts
	// when the budget drops it; a kept one shows only its direct message
	// (see [Project]).
	Bytes int
}

// OutlineOf says how Prepare sees e: ok is false for an event a snapshot
// leaves out (see [Project]); otherwise m is its entry in an [Outline].
func OutlineOf(e *Event) (m OutlineMessage, ok bool) {
	ok, assistant, checkpoint, n := classify(e)
	return OutlineMessage{Assistant: assistant, Checkpoint: checkpoint, Bytes: n}, ok
}

// OutlineOfText is [OutlineOf] for an event of type typ from source src
// whose content is a single text block of n bytes, for a store that keeps
// such messages without their text.
func OutlineOfText(typ string, src Source, n int) (OutlineMessage, bool) {
	e := Event{Type: typ, Source: src, Content: []Block{{Type: BlockText, Text: "x"}}}
	m, ok := OutlineOf(&e)
	m.Bytes = n
	return m, ok && n > 0 // one empty text block is left out
}

// SurfaceOutline is the outline of a surface already read: for a store
// that offers outlines for some sessions and holds others whole (a
// store that joins two stores, say), so that every session can be
// answered by ReadOutline.
func SurfaceOutline(s Surface) Outline {
	out := Outline{Session: s.Session, CapturedThroughSeq: s.CapturedThroughSeq}
	var at []int
	for i := range s.Events {
		if m, ok := OutlineOf(&s.Events[i]); ok {
			out.Messages = append(out.Messages, m)
			at = append(at, i)
		}
	}
	out.Text = func(ctx context.Context, i int) (string, error) {
		if i < 0 || i >= len(at) {
			return "", fmt.Errorf("outline message %d of %d", i, len(at))
		}
		return joinedText(&s.Events[at[i]]), nil
	}
	return out
}

// messages is what retention reads: a surface's events, or an outline.
type messages interface {
	// len is the number of entries.
	len() int
	// class classifies entry i (see classify).
	class(i int) (ok, assistant, checkpoint bool, rawLen int)
	// text is entry i's joined text, not yet made valid UTF-8; of a
	// person's message in the single-message form, its direct text
	// (class's rawLen stays the whole text's).
	text(ctx context.Context, i int) (string, error)
}

// eventList is a surface's events as retention reads them, with the
// direct text of each person's message in the single-message form (see
// [directText]), found once.
type eventList struct {
	ev     []Event
	direct map[int]string
}

func newEventList(ev []Event) *eventList {
	l := &eventList{ev: ev}
	for i := range ev {
		if d, ok := envelopedText(&ev[i]); ok {
			if l.direct == nil {
				l.direct = make(map[int]string)
			}
			l.direct[i] = d
		}
	}
	return l
}

func (l *eventList) len() int { return len(l.ev) }
func (l *eventList) class(i int) (ok, assistant, checkpoint bool, rawLen int) {
	return classify(&l.ev[i])
}
func (l *eventList) text(_ context.Context, i int) (string, error) {
	if d, ok := l.direct[i]; ok {
		return d, nil
	}
	return joinedText(&l.ev[i]), nil
}

// minSingleLen is the length of the shortest text in the single-message
// form that carries a snapshot: a shorter message cannot hold one.
const minSingleLen = len(PromptPrefix) + len(PromptSuffix) + len(singleAfterPrompt) + len(singleAfterRecord)

// directText is what a snapshot takes of a person's message whose text is
// t: when t is in the single-message form ([ParseSingleMessage]), only its
// direct message, so that a snapshot never carries an earlier snapshot;
// otherwise t.
func directText(t string) string {
	if len(t) < minSingleLen || !strings.HasPrefix(t, PromptPrefix) {
		return t
	}
	return ParseSingleMessage(t).Text
}

// envelopedText returns the direct text of e when e is a person's message
// (not a checkpoint) in the single-message form.
func envelopedText(e *Event) (string, bool) {
	ok, assistant, checkpoint, n := classify(e)
	if !ok || assistant || checkpoint || n < minSingleLen {
		return "", false
	}
	t := joinedText(e)
	d := directText(t)
	return d, len(d) != len(t)
}

// joinedText is the newline-joined text of e's text blocks.
func joinedText(e *Event) string {
	var parts []string
	for _, b := range e.Content {
		if b.Type == BlockText {
			parts = append(parts, b.Text)
		}
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts, "\n")
}

// outlineList is an outline as retention reads it.
type outlineList Outline

func (o *outlineList) len() int { return len(o.Messages) }
func (o *outlineList) class(i int) (ok, assistant, checkpoint bool, rawLen int) {
	m := &o.Messages[i]
	return true, m.Assistant, m.Checkpoint, m.Bytes
}
func (o *outlineList) text(ctx context.Context, i int) (string, error) {
	t, err := o.Text(ctx, i)
	if err != nil {
		return "", err
	}
	m := &o.Messages[i]
	if len(t) != m.Bytes {
		return "", fmt.Errorf("outline message %d: the text read is %d bytes, the outline says %d", i, len(t), m.Bytes)
	}
	if !m.Assistant && !m.Checkpoint {
		t = directText(t)
	}
	return t, nil
}
