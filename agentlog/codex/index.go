package codex

import (
	"bytes"
	"strings"

	"github.com/valyala/fastjson"

	"github.com/dshkit/mentions/agentlog"
	"github.com/dshkit/mentions/sessionref"
)

// item is the union of the fields the rules read of a rollout line's
// payload. A line is {"timestamp", "type", "payload"}; a rollout of the
// first format has no envelope: its first line is the session's header
// ({"id", "timestamp", "instructions"}) and the others are the items
// themselves, or {"record_type": "state"}.
type item struct {
	Type       string
	Role       string
	ID         string
	Cwd        string
	Timestamp  string
	Message    string
	NumTurns   int
	ThreadName string
	content    *fastjson.Value // valid until the parser's next line
	history    *fastjson.Value // replacement_history
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

// parsers decode lines read back (an index has its own parser).
var parsers fastjson.ParserPool

func itemOf(v *fastjson.Value) item {
	str := func(key string) string { return string(v.GetStringBytes(key)) }
	return item{Type: str("type"), Role: str("role"), ID: str("id"), Cwd: str("cwd"), Timestamp: str("timestamp"),
		Message: str("message"), NumTurns: v.GetInt("num_turns"), ThreadName: str("thread_name"),
		content: v.Get("content"), history: v.Get("replacement_history")}
}

// parse reads one line with p into its kind, item and time.
func parse(p *fastjson.Parser, b []byte) (kind, item, string) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return kBad, item{}, ""
	}
	v, err := p.ParseBytes(b)
	if err != nil || v.Type() != fastjson.TypeObject {
		return kBad, item{}, ""
	}
	typ, ts := string(v.GetStringBytes("type")), string(v.GetStringBytes("timestamp"))
	payload := v.Get("payload")
	switch {
	case payload != nil && payload.Type() == fastjson.TypeObject:
	case payload != nil:
		return kBad, item{}, ts
	case v.Exists("record_type"):
		return kIgnored, item{}, ""
	case typ == "" && v.Exists("id"):
		it := itemOf(v) // the first format's header line
		return kMeta, it, it.Timestamp
	default:
		it := itemOf(v) // the first format's bare item
		return itemKind(it), it, ts
	}
	it := itemOf(payload)
	switch typ {
	case "session_meta":
		return kMeta, it, ts
	case "response_item":
		return itemKind(it), it, ts
	case "compacted":
		return kCompacted, it, ts
	case "event_msg":
		switch it.Type {
		case "thread_rolled_back":
			return kRolledBack, it, ts
		case "thread_name_updated":
			return kTitle, it, ts
		}
		return kIgnored, it, ts // display mirrors and progress: never counted
	case "turn_context":
		return kIgnored, it, ts
	}
	return kUnknown, it, ts
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

// messageText is the projected text of a message item and its kind: a
// person's input text, unless the message is scaffolding the client
// wrote (any of its parts opens with a context marker); the model's
// output text. Images and their tag text are not text; developer and
// system messages keep none.
func messageText(it *item) (string, uint8) {
	var k uint8
	switch it.Role {
	case "user":
		k = agentlog.KindUser
	case "assistant":
		k = agentlog.KindAssistant
	default:
		return "", 0
	}
	if it.content == nil || it.content.Type() != fastjson.TypeArray {
		return "", 0
	}
	var texts []string
	for _, p := range it.content.GetArray() {
		typ := string(p.GetStringBytes("type"))
		if typ != "input_text" && typ != "output_text" && typ != "text" {
			continue
		}
		text := string(p.GetStringBytes("text"))
		switch {
		case k == agentlog.KindUser && scaffolding(text):
			return "", 0
		case k == agentlog.KindUser && imageTag(text):
		case text != "":
			texts = append(texts, text)
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
	if it.history == nil || it.history.Type() != fastjson.TypeArray {
		return ""
	}
	var texts []string
	for _, h := range it.history.GetArray() {
		hi := itemOf(h)
		if hi.Type != "message" {
			continue
		}
		if t, k := messageText(&hi); k != 0 {
			texts = append(texts, t)
		}
	}
	return strings.Join(texts, "\n")
}

// project is the text a line keeps and its kind.
func project(p *fastjson.Parser, b []byte) (string, uint8) {
	k, it, _ := parse(p, b)
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
	p           fastjson.Parser
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
	k, it, ts := parse(&ix.p, b)
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
		if it.ThreadName != "" {
			ix.title = &sessionref.Title{Text: it.ThreadName, EventSeq: int64(n), UpdatedAt: agentlog.Millis(ts)}
		}
	}
}

func (ix *index) add(n int, off int64, length int, text string, k uint8) {
	ix.msgs = append(ix.msgs, agentlog.Message{Off: off, Len: uint32(length), Line: int32(n), Bytes: uint32(len(text)), Kind: k})
	if k == agentlog.KindUser && ix.firstPerson == nil {
		ix.firstPerson = &sessionref.Title{Text: agentlog.FirstLine(strings.TrimSpace(text), 100), EventSeq: int64(n), UpdatedAt: agentlog.Millis(ix.last)}
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
	s := agentlog.Summary{Cwd: ix.cwd, HasCwd: ix.hasCwd, Created: agentlog.Millis(ix.first), Updated: agentlog.Millis(ix.last),
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
