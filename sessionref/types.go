package sessionref

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"unicode/utf8"
)

// SessionQuery is what a host provides over its session storage. The
// resolver only reads through it; implementations must be safe for
// concurrent use.
//
// For its events to reach a snapshot a store must set, on each event of a
// surface: Type "user/message" with Source.Kind exactly "user" for what a
// person typed (an empty or other Kind is left out, as the reference
// leaves out plugins and instructions), Source.Kind "plugin" with Plugin
// "compact" for a compaction checkpoint (always kept), and Type
// "assistant/message" with the reply in "text" blocks (reasoning blocks
// are not kept). [CheckSurface] finds the common mistakes.
//
// Seqs are optional. A store without them leaves Event.Seq nil,
// Surface.CapturedThroughSeq nil (the snapshot then says null) and
// Title.EventSeq 0; nothing in this package orders by them, and a
// [Lister] compares a title's text as well as its EventSeq, so a title
// that changes with EventSeq 0 is still seen.
type SessionQuery interface {
	// ListSessions returns every session's header, newest first.
	ListSessions(ctx context.Context) ([]SessionHeader, error)
	// ReadTitles returns one result per id, in the order given. A failure
	// for one id belongs in its TitleResult; an error return fails the
	// whole call (cancellation, say).
	ReadTitles(ctx context.Context, ids []string) ([]TitleResult, error)
	// ReadSurface returns a detached snapshot of a session's current
	// surface. A missing session is an error.
	ReadSurface(ctx context.Context, id string) (Surface, error)
}

// TitleLister is an optional fast path a SessionQuery may offer: every
// session's header and latest title in one call, aligned by index, with
// the same meaning as ListSessions followed by ReadTitles of every id.
// A store that keeps titles beside its headers answers a filtered
// candidate query without one lookup per session. The slices may be
// shared with the store: callers only read them.
type TitleLister interface {
	ListSessionsWithTitles(ctx context.Context) ([]SessionHeader, []TitleResult, error)
}

// SessionHeader is what listing knows of a session without reading it.
type SessionHeader struct {
	// ID is the session id.
	ID string `json:"id"`
	// Cwd is the session's working directory; nil when it has none.
	Cwd *string `json:"cwd"`
	// CreatedAt is the creation time in Unix milliseconds: use [Millis]
	// to set it from a time.Time, and [CheckStore] in the store's tests
	// to catch seconds written here by mistake.
	CreatedAt int64 `json:"createdAt,omitempty"`
	// UpdatedAt is the session's last activity in Unix milliseconds, for
	// a store that knows it (and may list by it, newest first); 0 when
	// unknown. It is copied to [Candidate.UpdatedAt], so a picker can show
	// how long ago a session was last used instead of when it was made.
	UpdatedAt int64 `json:"updatedAt,omitempty"`
}

// TitleResult is one session's title lookup.
type TitleResult struct {
	// Title is the latest title event; nil when the session has none.
	Title *Title
	// Err is set when this one lookup failed.
	Err error
}

// Title is a session's latest title event.
type Title struct {
	// Text is the title, verbatim.
	Text string `json:"title"`
	// EventSeq is the seq of the title event in the session's log; 0 for
	// a store without seqs. It tells a renamed session apart: a store
	// that has seqs gives every new title a new EventSeq.
	EventSeq int64 `json:"eventSeq"`
	// UpdatedAt is the event's time in Unix milliseconds.
	UpdatedAt int64 `json:"updatedAt"`
}

// Target is the session a message is being written in.
type Target struct {
	// ID is the target session's id; it is never offered nor accepted.
	ID string
	// Cwd is its working directory, used for ranking; nil for none.
	Cwd *string
}

// Key is a comparable form of t: equal for two targets of the same ID
// and working directory, for a component that must tell an answer for
// the session it asked about from one for the session now current.
func (t Target) Key() string {
	if t.Cwd == nil {
		return t.ID + "\x00"
	}
	return t.ID + "\x01" + *t.Cwd
}

// Candidate is one session offered for a mention.
type Candidate struct {
	// SessionID is the candidate's id.
	SessionID string `json:"sessionId"`
	// Label is its latest title, or its id when it has none.
	Label string `json:"label"`
	// Cwd is its working directory, omitted when it has none.
	Cwd *string `json:"cwd,omitempty"`
	// CreatedAt is its creation time in Unix milliseconds.
	CreatedAt int64 `json:"createdAt"`
	// UpdatedAt is its last activity in Unix milliseconds, from
	// [SessionHeader.UpdatedAt]; 0 (and absent from the JSON) when the
	// store does not say. Not part of the reference's wire form, which
	// it leaves unchanged.
	UpdatedAt int64 `json:"updatedAt,omitempty"`
	// Mention is the canonical mention text; only set by
	// [Resolver.ListMentionCandidates].
	Mention string `json:"mention,omitempty"`
	// Rank is why it sorts where it does (not part of the wire form).
	Rank Rank `json:"-"`
}

// Rank orders candidates: same working directory first, then sessions
// without one, then the rest.
type Rank int

// The three ranks, best first.
const (
	RankSameCwd Rank = iota
	RankNoCwd
	RankOtherCwd
)

// RankOf returns the rank of a session with working directory cwd for a
// message written in t.
func RankOf(t Target, cwd *string) Rank {
	switch {
	case cwd != nil && t.Cwd != nil && *cwd == *t.Cwd:
		return RankSameCwd
	case cwd == nil:
		return RankNoCwd
	}
	return RankOtherCwd
}

// Surface is a detached snapshot of a session's current surface: the
// messages a model would see, in surface order.
type Surface struct {
	// Session is the session's header.
	Session SessionHeader `json:"session"`
	// CapturedThroughSeq is the seq of the last event of any type in the
	// log the snapshot was taken from; nil for an empty log, and nil for
	// a store without seqs (the snapshot and its record then say null).
	CapturedThroughSeq *int64 `json:"capturedThroughSeq"`
	// Events is the current surface, in surface order (not seq order).
	Events []Event `json:"events"`
}

// The surface event types.
const (
	EventUserMessage      = "user/message"
	EventAssistantMessage = "assistant/message"
	EventToolResult       = "tool/result"
)

// Event is one message on a surface.
type Event struct {
	// Seq is the event's seq in its log, when known.
	Seq *int64 `json:"seq,omitempty"`
	// Type is one of the Event* constants.
	Type string `json:"type"`
	// Source says who wrote the message.
	Source Source `json:"source"`
	// Content is the message's blocks.
	Content []Block `json:"content"`
	// Interrupted marks the partial text of a cancelled stream.
	Interrupted bool `json:"interrupted,omitempty"`
	// Synthetic marks an event a store made up rather than read, such as
	// the closer of a turn that was still open on disk.
	Synthetic bool `json:"synthetic,omitempty"`
}

// Source kinds and plugins this package looks at.
const (
	SourceUser             = "user"
	SourcePlugin           = "plugin"
	SourceModel            = "model"
	SourceTool             = "tool"
	SourceSessionReference = "session-reference"
	PluginCompact          = "compact"
)

// Source is a message's source. Kind and Plugin are parsed; every other
// field is kept verbatim in Fields so nothing a store wrote is lost.
type Source struct {
	// Kind is "user", "plugin", "model", "tool", "session-reference", …
	Kind string
	// Plugin names the plugin of a "plugin" source.
	Plugin string
	// Fields holds the other fields as raw JSON.
	Fields map[string]json.RawMessage
}

// IsCheckpoint reports whether s marks a compaction checkpoint.
func (s Source) IsCheckpoint() bool { return s.Kind == SourcePlugin && s.Plugin == PluginCompact }

// Clone returns a copy that shares no map with s.
func (s Source) Clone() Source {
	s.Fields = cloneFields(s.Fields)
	return s
}

// cloneFields deep-copies raw extra fields.
func cloneFields(f map[string]json.RawMessage) map[string]json.RawMessage {
	if f == nil {
		return nil
	}
	m := make(map[string]json.RawMessage, len(f))
	for k, v := range f {
		m[k] = slices.Clone(v)
	}
	return m
}

// MarshalJSON writes kind, plugin, then the other fields by name.
func (s Source) MarshalJSON() ([]byte, error) {
	return marshalOpenObject([]knownField{{"kind", s.Kind, false}, {"plugin", s.Plugin, false}}, s.Fields)
}

// UnmarshalJSON reads any JSON object.
func (s *Source) UnmarshalJSON(b []byte) error {
	var kind, plugin string
	fields, err := unmarshalOpenObject(b, map[string]*string{"kind": &kind, "plugin": &plugin})
	if err != nil {
		return err
	}
	*s = Source{Kind: kind, Plugin: plugin, Fields: fields}
	return nil
}

// The content block types this package looks at.
const (
	BlockText      = "text"
	BlockReasoning = "reasoning"
)

// Block is one content block. Type and Text are parsed; other fields of
// unknown block kinds (images, tool calls) are kept verbatim in Fields.
type Block struct {
	// Type is "text", "reasoning", "image", …
	Type string
	// Text is the text of a text or reasoning block.
	Text string
	// Fields holds the other fields as raw JSON.
	Fields map[string]json.RawMessage
}

// TextBlock returns a text block.
func TextBlock(text string) Block { return Block{Type: BlockText, Text: text} }

// MarshalJSON writes type, text (when set or a text block), then the rest.
func (b Block) MarshalJSON() ([]byte, error) {
	textAlways := b.Type == BlockText || b.Type == BlockReasoning
	return marshalOpenObject([]knownField{{"type", b.Type, false}, {"text", b.Text, textAlways}}, b.Fields)
}

// UnmarshalJSON reads any JSON object. The common text and reasoning
// blocks, which hold nothing else, are read in one pass.
func (b *Block) UnmarshalJSON(data []byte) error {
	if typ, text, ok := plainBlock(data); ok {
		*b = Block{Type: typ, Text: text}
		return nil
	}
	var typ, text string
	fields, err := unmarshalOpenObject(data, map[string]*string{"type": &typ, "text": &text})
	if err != nil {
		return err
	}
	*b = Block{Type: typ, Text: text, Fields: fields}
	return nil
}

// plainBlock reads {"type":"text"|"reasoning","text":S} written exactly
// so (as logs write them), which holds no other field, without building a
// map; anything else returns ok=false and takes the general path.
func plainBlock(data []byte) (typ, text string, ok bool) {
	data = bytes.TrimSpace(data)
	for _, t := range [...]string{BlockText, BlockReasoning} {
		prefix := `{"type":"` + t + `","text":`
		if !bytes.HasPrefix(data, []byte(prefix)) || data[len(data)-1] != '}' {
			continue
		}
		lit := data[len(prefix) : len(data)-1]
		if len(lit) < 2 || lit[0] != '"' {
			return "", "", false
		}
		i := 1
		simple := true // no \u escape, no control byte: unquoted here
		for i < len(lit) && lit[i] != '"' {
			switch c := lit[i]; {
			case c == '\\':
				if i+1 < len(lit) && lit[i+1] == 'u' {
					simple = false
				}
				i++
			case c < 0x20:
				simple = false
			}
			i++
		}
		if i != len(lit)-1 {
			return "", "", false
		}
		if simple && utf8.Valid(lit) {
			if text, ok := unquoteSimple(lit[1 : len(lit)-1]); ok {
				return t, text, true
			}
		}
		if json.Unmarshal(lit, &text) != nil {
			return "", "", false
		}
		return t, text, true
	}
	return "", "", false
}

// unquoteSimple decodes the body of a JSON string that has no \u escape
// and no raw control byte; ok=false on anything else.
func unquoteSimple(b []byte) (string, bool) {
	if bytes.IndexByte(b, '\\') < 0 {
		return string(b), true
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		i++
		if i >= len(b) {
			return "", false
		}
		switch b[i] {
		case '"', '\\', '/':
			out = append(out, b[i])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		default:
			return "", false
		}
	}
	return string(out), true
}

// CloneBlocks deep-copies blocks.
func CloneBlocks(blocks []Block) []Block {
	if blocks == nil {
		return nil
	}
	out := make([]Block, len(blocks))
	for i, b := range blocks {
		b.Fields = cloneFields(b.Fields)
		out[i] = b
	}
	return out
}

// Clone deep-copies an event.
func (e Event) Clone() Event {
	if e.Seq != nil {
		seq := *e.Seq
		e.Seq = &seq
	}
	e.Source = e.Source.Clone()
	e.Content = CloneBlocks(e.Content)
	return e
}

// knownField is a parsed string field of an open object.
type knownField struct {
	key, value string
	always     bool // written even when empty
}

// marshalOpenObject writes the known fields in order (an empty one only
// when always is set) and then the extra fields sorted by name.
func marshalOpenObject(known []knownField, extra map[string]json.RawMessage) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	n := 0
	write := func(k string, v []byte) {
		if n > 0 {
			buf.WriteByte(',')
		}
		n++
		buf.Write(appendJSString(nil, k, false))
		buf.WriteByte(':')
		buf.Write(v)
	}
	for _, f := range known {
		if f.value != "" || f.always {
			write(f.key, appendJSString(nil, validOrReplaced(f.value), false))
		}
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := extra[k]
		if !json.Valid(v) {
			return nil, &json.UnsupportedValueError{Str: "field " + k + " holds invalid JSON"}
		}
		write(k, v)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// unmarshalOpenObject reads a JSON object: the string fields named in
// known are stored through their pointers, everything else is returned.
func unmarshalOpenObject(b []byte, known map[string]*string) (map[string]json.RawMessage, error) {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, err
	}
	for k, dst := range known {
		raw, ok := all[k]
		if !ok {
			continue
		}
		if err := json.Unmarshal(raw, dst); err != nil {
			continue // not a string: keep it verbatim as an extra field
		}
		delete(all, k)
	}
	if len(all) == 0 {
		all = nil
	}
	return all, nil
}
