package claudecode

import (
	"bytes"
	"strings"

	"github.com/valyala/fastjson"

	"github.com/dshkit/mentions/agentlog"
)

// record is the part of a transcript line the rules read; every other
// field is left undecoded.
type record struct {
	Type             string
	Subtype          string
	UUID             string
	ParentUUID       *string
	IsSidechain      bool
	IsMeta           bool
	IsCompactSummary bool
	TranscriptOnly   bool // isVisibleInTranscriptOnly
	ToolResult       bool // a toolUseResult field that is not null
	Cwd              string
	Timestamp        string
	Summary          string
	LeafUUID         string
	CustomTitle      string
	AITitle          string
	HasMessage       bool
	Queued           bool            // an attachment line holding a queued prompt the person typed
	SourceUUID       string          // a queued prompt's attachment.source_uuid: the uuid it was queued under
	content          *fastjson.Value // message.content, or a queued prompt's text; valid until the parser's next line
}

// parsers decode lines read back (the index has its own parser).
var parsers fastjson.ParserPool

// decode reads one line with p; ok is false for a line that is not a
// JSON object. The record's content lives until p parses again.
func decode(p *fastjson.Parser, line []byte) (r record, ok bool) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		return record{}, false
	}
	v, err := p.ParseBytes(line)
	if err != nil || v.Type() != fastjson.TypeObject {
		return record{}, false
	}
	str := func(key string) string { return string(v.GetStringBytes(key)) }
	r = record{
		Type: str("type"), Subtype: str("subtype"), UUID: str("uuid"), Cwd: str("cwd"), Timestamp: str("timestamp"),
		Summary: str("summary"), LeafUUID: str("leafUuid"), CustomTitle: str("customTitle"), AITitle: str("aiTitle"),
		IsSidechain: v.GetBool("isSidechain"), IsMeta: v.GetBool("isMeta"), IsCompactSummary: v.GetBool("isCompactSummary"),
		TranscriptOnly: v.GetBool("isVisibleInTranscriptOnly"),
	}
	if pv := v.Get("parentUuid"); pv != nil && pv.Type() == fastjson.TypeString {
		s := string(pv.GetStringBytes())
		r.ParentUUID = &s
	}
	if tv := v.Get("toolUseResult"); tv != nil && tv.Type() != fastjson.TypeNull {
		r.ToolResult = true
	}
	if m := v.Get("message"); m != nil && m.Type() == fastjson.TypeObject {
		r.HasMessage, r.content = true, m.Get("content")
	}
	if r.Type == "attachment" {
		if a := v.Get("attachment"); a != nil && typedPrompt(a) {
			r.Queued, r.content = true, a.Get("prompt")
			r.SourceUUID = string(a.GetStringBytes("source_uuid"))
		}
	}
	return r, true
}

// typedPrompt reports whether an attachment is a prompt the person typed
// while the agent was busy, which Claude Code delivers into the running
// turn instead of writing a user line: a queued_command whose mode is
// "prompt" (or unset, as older releases wrote it) and whose origin is the
// person (or unset). Queued task notifications, shell commands, other
// sessions' messages and meta ones are not the person's words.
func typedPrompt(a *fastjson.Value) bool {
	if a.Type() != fastjson.TypeObject || string(a.GetStringBytes("type")) != "queued_command" || a.GetBool("isMeta") {
		return false
	}
	if m := a.Get("commandMode"); m != nil && (m.Type() != fastjson.TypeString || string(m.GetStringBytes()) != "prompt") {
		return false
	}
	o := a.Get("origin")
	if o == nil || o.Type() == fastjson.TypeNull {
		return true
	}
	return string(o.GetStringBytes("kind")) == "human"
}

// project is the text of r that a snapshot keeps and its kind; kind 0
// for a line that keeps none. A person's words are a user line's string
// content or text blocks, or a prompt they queued while the agent worked,
// except scaffolding: meta lines, tool results, lines shown only in the
// transcript, and text the client wrote (reminders, slash-command echoes,
// local command output, interruption notes). A compaction summary is the
// checkpoint. A reply is an assistant line's text blocks; thinking and
// tool calls are not text.
func project(r *record) (string, uint8) {
	if r.IsSidechain {
		return "", 0
	}
	if r.Queued {
		if r.IsMeta {
			return "", 0
		}
		t := joined(r.content, true)
		return t, kindIf(t, agentlog.KindUser)
	}
	if !r.HasMessage {
		return "", 0
	}
	switch r.Type {
	case "user":
		if r.IsCompactSummary {
			t := joined(r.content, false)
			return t, kindIf(t, agentlog.KindCheckpoint)
		}
		if r.IsMeta || r.TranscriptOnly || r.ToolResult {
			return "", 0
		}
		t := joined(r.content, true)
		return t, kindIf(t, agentlog.KindUser)
	case "assistant":
		t := joined(r.content, false)
		return t, kindIf(t, agentlog.KindAssistant)
	}
	return "", 0
}

func kindIf(t string, k uint8) uint8 {
	if t == "" {
		return 0
	}
	return k
}

// joined is the text of a message's content, a string or an array of
// blocks: its text blocks joined by newlines, the scaffolding ones left
// out when person is set.
func joined(content *fastjson.Value, person bool) string {
	if content == nil {
		return ""
	}
	switch content.Type() {
	case fastjson.TypeString:
		s := string(content.GetStringBytes())
		if person && scaffolding(s) {
			return ""
		}
		return s
	case fastjson.TypeArray:
	default:
		return ""
	}
	var parts []string
	for _, b := range content.GetArray() {
		if string(b.GetStringBytes("type")) != "text" {
			continue
		}
		tv := b.Get("text")
		if tv == nil || tv.Type() != fastjson.TypeString {
			continue
		}
		t := string(tv.GetStringBytes())
		if t == "" || person && scaffolding(t) {
			continue
		}
		parts = append(parts, t)
	}
	return strings.Join(parts, "\n")
}

// scaffoldPrefixes start text the client put in a user line, not the
// person: injected reminders, the echo and output of slash and shell
// commands, hook output, what an IDE reports (the open file, the
// selection) and the note left by an interruption.
var scaffoldPrefixes = []string{
	"<system-reminder>",
	"<command-name>",
	"<command-message>",
	"<command-args>",
	"<local-command-stdout>",
	"<local-command-stderr>",
	"<local-command-caveat>",
	"caveat: the messages below were generated by the user while running local commands",
	"<bash-input>",
	"<bash-stdout>",
	"<bash-stderr>",
	"<user-prompt-submit-hook>",
	"<task-notification>",
	"<ide_opened_file>",
	"<ide_selection>",
	"<ide_diagnostics>",
	"[request interrupted by user",
}

// scaffolding reports whether a user text block was written by the
// client: it starts, after white space and ignoring ASCII case, with one
// of scaffoldPrefixes.
func scaffolding(s string) bool {
	s = strings.TrimLeft(s, " \t\r\n")
	for _, p := range scaffoldPrefixes {
		if len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) {
			return true
		}
	}
	return false
}
