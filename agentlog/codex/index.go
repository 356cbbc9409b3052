package codex

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"

	"github.com/dshkit/mentions/agentlog"
	"github.com/dshkit/mentions/sessionref"
)

// line is a rollout line: {"timestamp", "type", "payload"}. A rollout of
// the first format has no envelope: its first line is the session's
// header ({"id", "timestamp", "instructions"}) and the others are the
// items themselves, or {"record_type": "state"}.
type line struct {
	Timestamp  string          `json:"timestamp"`
	Type       string          `json:"type"`
	Payload    json.RawMessage `json:"payload"`
	RecordType string          `json:"record_type"`
	ID         string          `json:"id"`
}

// item is the union of the payload fields the rules read.
type item struct {
	Type               string          `json:"type"`
	Role               string          `json:"role"`
	Content            json.RawMessage `json:"content"`
	ID                 string          `json:"id"`
	Cwd                string          `json:"cwd"`
	Timestamp          string          `json:"timestamp"`
	Message            string          `json:"message"`
	ReplacementHistory json.RawMessage `json:"replacement_history"`
	NumTurns           int             `json:"num_turns"`
	ThreadName         *string         `json:"thread_name"`
}

// kind is what a rollout line is to the rules.
type kind uint8

const (
	kBad     kind = iota // not a JSON object
	kUnknown             // a type these rules do not know
	kIgnored             // known, not conversation (reasoning, tool calls, mirrors, context)
	kMeta                // the session's header
	kMessage             // a response item that is a message
	kCompacted
	kRolledBack
	kTitle
)

// parse reads one line into its kind and item.
func parse(b []byte) (kind, item, string) {
	b = bytes.TrimSpace(b)
	var l line
	if len(b) == 0 || b[0] != '{' || json.Unmarshal(b, &l) != nil {
		return kBad, item{}, ""
	}
	var it item
	switch {
	case l.Payload != nil:
		if json.Unmarshal(l.Payload, &it) != nil {
			return kBad, item{}, l.Timestamp
		}
	case l.RecordType != "":
		return kIgnored, item{}, ""
	case l.Type == "" && l.ID != "":
		// The first format's header line.
		if json.Unmarshal(b, &it) != nil {
			return kBad, item{}, ""
		}
		return kMeta, it, it.Timestamp
	default:
		// The first format's bare item.
		if json.Unmarshal(b, &it) != nil {
			return kBad, item{}, ""
		}
		return itemKind(it), it, l.Timestamp
	}
	switch l.Type {
	case "session_meta":
		return kMeta, it, l.Timestamp
	case "response_item":
		return itemKind(it), it, l.Timestamp
	case "compacted":
		return kCompacted, it, l.Timestamp
	case "event_msg":
		switch it.Type {
		case "thread_rolled_back":
			return kRolledBack, it, l.Timestamp
		case "thread_name_updated":
			return kTitle, it, l.Timestamp
		}
		return kIgnored, it, l.Timestamp // display mirrors and progress: never counted
	case "turn_context":
		return kIgnored, it, l.Timestamp
	}
	return kUnknown, it, l.Timestamp
}

// knownItems are the response item types that are not messages.
var knownItems = map[string]bool{
	"reasoning": true, "function_call": true, "function_call_output": true,
	"custom_tool_call": true, "custom_tool_call_output": true, "local_shell_call": true,
	"web_search_call": true, "image_generation_call": true, "tool_search_call": true,
	"compaction": true, "context_compaction": true, "ghost_snapshot": true, "other": true,
}

func itemKind(it item) kind {
	switch {
	case it.Type == "message":
		return kMessage
	case knownItems[it.Type]:
		return kIgnored
	}
	return kUnknown
}

// part is one content item of a message.
type part struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// messageText is the projected text of a message item and its kind: a
// person's input text, unless the message is scaffolding the client
// wrote (any of its parts opens with a context marker); the model's
// output text. Images and their tag text are not text; developer and
// system messages keep none.
func messageText(it *item) (string, uint8) {
	var parts []part
	if json.Unmarshal(it.Content, &parts) != nil {
		return "", 0
	}
	var k uint8
	switch it.Role {
	case "user":
		k = agentlog.KindUser
	case "assistant":
		k = agentlog.KindAssistant
	default:
		return "", 0
	}
	var texts []string
	for _, p := range parts {
		switch {
		case p.Type != "input_text" && p.Type != "output_text" && p.Type != "text":
		case k == agentlog.KindUser && scaffolding(p.Text):
			return "", 0
		case k == agentlog.KindUser && imageTag(p.Text):
		case p.Text != "":
			texts = append(texts, p.Text)
		}
	}
	t := strings.Join(texts, "\n")
	if t == "" {
		return "", 0
	}
	return t, k
}

// contextMarkers open the user-role text the client writes: the
// environment, instructions (AGENTS.md, user and skill instructions),
// aborted-turn notes, shell command echoes, subagent notifications and
// hook prompts.
var contextMarkers = []string{
	"<environment_context", "<user_instructions", "# agents.md instructions", "<instructions>",
	"<turn_aborted", "<context_update", "<user_shell_command", "<skill", "<subagent_notification",
	"<hook_prompt", "<codex_internal_context", "<recommended_plugins", "<external_",
	"<permissions instructions", "<collaboration_mode", "<model_switch", "<personality_spec",
}

func scaffolding(s string) bool {
	s = strings.TrimLeft(s, " \t\r\n")
	for _, m := range contextMarkers {
		if len(s) >= len(m) && strings.EqualFold(s[:len(m)], m) {
			return true
		}
	}
	return false
}

// imageTag reports whether a text part only frames an image.
func imageTag(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasPrefix(s, "<image") && strings.HasSuffix(s, ">") && !strings.Contains(s[1:], "<") ||
		s == "</image>" || strings.HasPrefix(s, "<local_image") || s == "</local_image>"
}

// checkpointText is a compacted item's text: its summary message, or,
// when it has none, the kept text of its replacement history.
func checkpointText(it *item) string {
	if it.Message != "" {
		return it.Message
	}
	var hist []item
	if json.Unmarshal(it.ReplacementHistory, &hist) != nil {
		return ""
	}
	var texts []string
	for i := range hist {
		if hist[i].Type != "message" {
			continue
		}
		if t, k := messageText(&hist[i]); k != 0 {
			texts = append(texts, t)
		}
	}
	return strings.Join(texts, "\n")
}

// project is the text a line keeps and its kind.
func project(b []byte) (string, uint8) {
	k, it, _ := parse(b)
	switch k {
	case kMessage:
		return messageText(&it)
	case kCompacted:
		if t := checkpointText(&it); t != "" {
			return t, agentlog.KindCheckpoint
		}
	}
	return "", 0
}

// index is a rollout's index: per projected message since the latest
// checkpoint an agentlog.Message (24 bytes), and a fixed few hundred
// bytes (the header, the title, the counts).
type index struct {
	msgs        []agentlog.Message
	anyMsg      bool
	id, cwd     string
	hasCwd      bool
	first, last string
	bad, unk    int
	title       *sessionref.Title
	firstPerson *sessionref.Title
}

func newIndex() agentlog.Index { return &index{} }

// Line reads one rollout line.
func (ix *index) Line(n int, off int64, b []byte) {
	k, it, ts := parse(b)
	if ts != "" {
		if ix.first == "" {
			ix.first = ts
		}
		ix.last = ts
	}
	switch k {
	case kBad:
		ix.bad++
	case kUnknown:
		ix.unk++
	case kMeta:
		if ix.id == "" {
			ix.id = it.ID
			if it.Cwd != "" {
				ix.cwd, ix.hasCwd = it.Cwd, true
			}
			if it.Timestamp != "" {
				ix.first = it.Timestamp
			}
		}
	case kMessage:
		ix.anyMsg = true
		if t, kind := messageText(&it); kind != 0 {
			ix.add(n, off, len(b), t, kind)
		}
	case kCompacted:
		ix.anyMsg = true
		if t := checkpointText(&it); t != "" {
			ix.msgs = ix.msgs[:0]
			ix.add(n, off, len(b), t, agentlog.KindCheckpoint)
		}
	case kRolledBack:
		ix.rollBack(it.NumTurns)
	case kTitle:
		if it.ThreadName != nil && *it.ThreadName != "" {
			ix.title = &sessionref.Title{Text: *it.ThreadName, EventSeq: int64(n), UpdatedAt: millis(ts)}
		}
	}
}

func (ix *index) add(n int, off int64, length int, text string, k uint8) {
	ix.msgs = append(ix.msgs, agentlog.Message{Off: off, Len: uint32(length), Line: int32(n), Bytes: uint32(len(text)), Kind: k})
	if k == agentlog.KindUser && ix.firstPerson == nil {
		ix.firstPerson = &sessionref.Title{Text: agentlog.FirstLine(strings.TrimSpace(text), 100), EventSeq: int64(n), UpdatedAt: millis(ix.last)}
	}
}

// rollBack drops the last n turns: everything from the n-th last
// message of the person on (never the checkpoint).
func (ix *index) rollBack(n int) {
	for i := len(ix.msgs) - 1; i >= 0 && n > 0; i-- {
		if ix.msgs[i].Kind == agentlog.KindUser {
			n--
			if n == 0 {
				ix.msgs = ix.msgs[:i]
			}
		}
	}
	if n > 0 {
		// More turns than there are: all of them go.
		keep := 0
		if len(ix.msgs) > 0 && ix.msgs[0].Kind == agentlog.KindCheckpoint {
			keep = 1
		}
		ix.msgs = ix.msgs[:keep]
	}
}

// Long counts a line over the cap.
func (ix *index) Long(int, int64, int64) { ix.bad++ }

// Size is about what the index holds.
func (ix *index) Size() int64 { return int64(cap(ix.msgs))*24 + 512 }

// Conversation is the projected messages since the latest checkpoint.
func (ix *index) Conversation() []agentlog.Message {
	out := make([]agentlog.Message, len(ix.msgs))
	copy(out, ix.msgs)
	return out
}

// Summary is the header, the title and the counts: the title is the
// latest rename the rollout records, else the first line of the
// person's first message (the session index, read by the store, wins
// over both).
func (ix *index) Summary() agentlog.Summary {
	s := agentlog.Summary{Cwd: ix.cwd, HasCwd: ix.hasCwd, Created: millis(ix.first), Updated: millis(ix.last),
		Bad: ix.bad, Unknown: ix.unk, Empty: !ix.anyMsg}
	switch {
	case ix.title != nil:
		t := *ix.title
		s.Title = &t
	case ix.firstPerson != nil && ix.firstPerson.Text != "":
		t := *ix.firstPerson
		s.Title = &t
	}
	return s
}

func millis(ts string) int64 {
	if ts == "" {
		return 0
	}
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return 0
	}
	return sessionref.Millis(t)
}
