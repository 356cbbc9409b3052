package sessionref

import (
	"encoding/json"
	"errors"
	"strings"
)

// Snapshot is one referenced session as the prompt carries it.
type Snapshot struct {
	// SessionID, Label, Cwd and CapturedThroughSeq identify the capture.
	SessionID          string  `json:"sessionId"`
	Label              string  `json:"label"`
	Cwd                *string `json:"cwd"`
	CapturedThroughSeq *int64  `json:"capturedThroughSeq"`
	// Conversation is what was kept, oldest first.
	Conversation []Turn `json:"conversation"`
}

// Turn is one message of a snapshot conversation.
type Turn struct {
	// Role is "user" or "assistant".
	Role string `json:"role"`
	// Text is the message text, possibly cut around an omission notice.
	Text string `json:"text"`
}

// ErrNotContext is returned when a message or prompt is not a
// session-reference context.
var ErrNotContext = errors.New("not a session-reference context")

// ParsePrompt reads the snapshots back out of a context prompt. Hosts use
// it to show what was captured from the durable message alone, without
// reading the source sessions again.
func ParsePrompt(prompt string) ([]Snapshot, error) {
	rest, ok := strings.CutPrefix(prompt, ContextHeading+"\n")
	if !ok {
		return nil, ErrNotContext
	}
	_, body, ok := strings.Cut(rest, "\n"+ContextOpenTag+"\n")
	if !ok {
		return nil, ErrNotContext
	}
	body, ok = strings.CutSuffix(body, PromptSuffix)
	if !ok {
		return nil, ErrNotContext
	}
	var snaps []Snapshot
	if err := json.Unmarshal([]byte(body), &snaps); err != nil {
		return nil, errors.Join(ErrNotContext, err)
	}
	return snaps, nil
}

// Event returns the context message as a surface event, ready to append
// to the target session: a user/message whose source is the record.
func (m *Message) Event() (Event, error) {
	raw, err := json.Marshal(m.Source)
	if err != nil {
		return Event{}, err
	}
	var src Source
	if err := json.Unmarshal(raw, &src); err != nil {
		return Event{}, err
	}
	return Event{Type: EventUserMessage, Source: src, Content: CloneBlocks(m.Content)}, nil
}

// RecordOf returns the session-reference record of a source, or
// ErrNotContext when the source is something else. It is the inverse of
// [Message.Event] for the source.
func RecordOf(s Source) (SourceRecord, error) {
	if s.Kind != SourceSessionReference {
		return SourceRecord{}, ErrNotContext
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return SourceRecord{}, errors.Join(ErrNotContext, err)
	}
	var rec SourceRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return SourceRecord{}, errors.Join(ErrNotContext, err)
	}
	return rec, nil
}
