package dshlog

import (
	"strings"

	"github.com/dshkit/mentions/sessionref"
)

// knownTypes are the event types this reader understands or may skip;
// anything else must be marked ignorable. The values are the interned
// type strings.
var knownTypes = map[string]string{}

func init() {
	for _, t := range strings.Fields(`user/message assistant/message tool/result assistant/chunk tool/call
		turn/start turn/end step/start step/end session/title session/title-llm-request session/end-seed
		request/header request/context agent/inbox/spliced compaction/start compaction/summary compaction/end
		compaction/prune todo/write approval/asked approval/decided approval/policy hook/invoked hook/result
		command/run command/done goal/change plan/mode llm/retry llm/retry-started tool/code-dispatch
		tool/code-dispatch-start tool-workflow/run-start tool-workflow/run-end tool-workflow/agent-start
		tool-workflow/agent-end subagent/descriptor team/message team/created agent-preset/selected
		permission/preset sandbox/mode steering/message`) {
		knownTypes[t] = t
	}
	for _, t := range []string{"text-chunks", "reasoning-chunks", "tool-call-chunks"} {
		knownTypes[t] = t // interned too, though not event types
	}
}

func isSurface(t string) bool {
	return t == sessionref.EventUserMessage || t == sessionref.EventAssistantMessage || t == sessionref.EventToolResult
}

// event is one decoded log event, as small as what the fold, the
// crash-repair closers and the index need. An index keeps no event: a
// message becomes its line's place and how a snapshot sees it (setLazy:
// tlen, kind). A message read back from its line is decoded with its
// text: of the common shape (one text block, a source with only its
// kind) as its kind and text (short), any other whole (msg).
type event struct {
	seq  int64
	typ  string // "" for an ignorable event of an unknown type
	line int32
	// tlen is, for a short message, its text's length; for a lazy one
	// that is not short, the length of its projected text
	// (sessionref.OutlineMessage.Bytes), -1 when a snapshot leaves it out.
	tlen        int32
	at          int64 // of a lazy message: its line's place (jsonlog)
	n           int32 // of a lazy message: its line's length, without "\n"
	short       bool  // a message of the common shape, as kind and text (or its place)
	lazy        bool  // a message an index keeps: its place, not its text
	interrupted bool  // of a short message
	// kind is, for a short message, an index in shortKinds; for a lazy
	// one that is not short, 1 when it is a compaction checkpoint.
	kind uint8
	msg  *sessionref.Event // a decoded message of an uncommon shape
	text string            // of a short message that is not lazy
	x    *eventExtra       // nil when it has none of these
}

// eventExtra is what few events carry: a replace op, sources, tool call
// ids.
type eventExtra struct {
	replace   *[2]int64 // a replace op's start and end; nil = append
	sources   []int64
	callID    string      // tool/call and tool/result
	toolCalls []string    // tool-call block ids of an assistant message
	closer    *closerKind // of a crash-repair closer: its message is built when read
}

var noExtra eventExtra

// extra returns the event's extra fields, read-only (empty when none).
func (e *event) extra() *eventExtra {
	if e.x == nil {
		return &noExtra
	}
	return e.x
}

// setExtra returns the event's extra fields to write, made if needed.
func (e *event) setExtra() *eventExtra {
	if e.x == nil {
		e.x = &eventExtra{}
	}
	return e.x
}

// shortKinds are the source kinds a short message may have.
var shortKinds = [...]string{sessionref.SourceUser, sessionref.SourceModel, sessionref.SourceTool}

// isMessage reports whether the event is a surface message.
func (e *event) isMessage() bool {
	return e.short || e.lazy || e.msg != nil || e.x != nil && e.x.closer != nil
}

// setLazy keeps a message as the place of its line, at and n:
// its text, or its decoded content, is read back when asked for (see
// reader); what a snapshot needs to know of it stays.
func (e *event) setLazy(at int64, n int) {
	if !e.short {
		o, ok := sessionref.OutlineOf(e.msg)
		e.tlen, e.kind = -1, 0
		if ok {
			e.tlen = int32(o.Bytes)
		}
		if o.Checkpoint {
			e.kind = 1
		}
		e.msg = nil
	}
	e.lazy, e.at, e.n, e.text = true, at, int32(n), ""
}

// shorten keeps a decoded message of the common shape as its text and
// source kind alone.
func (e *event) shorten() {
	m := e.msg
	if m == nil || len(m.Content) != 1 || m.Content[0].Type != sessionref.BlockText || m.Content[0].Fields != nil ||
		m.Source.Plugin != "" || m.Source.Fields != nil || m.Synthetic {
		return
	}
	for k, name := range shortKinds {
		if m.Source.Kind == name {
			e.short, e.kind, e.interrupted, e.text, e.msg = true, uint8(k), m.Interrupted, m.Content[0].Text, nil
			e.tlen = int32(len(e.text))
			return
		}
	}
}

// message returns the event's message as a new value the caller may
// keep: a short one rebuilt, a decoded one as it is (shared: the caller
// clones it when the parse is shared). A lazy message is read back from
// the file instead (reader.message).
func (e *event) message() (m sessionref.Event, shared bool) {
	if e.msg == nil && e.x != nil && e.x.closer != nil {
		return closerMessage(e), false
	}
	if !e.short {
		return *e.msg, true
	}
	seq := e.seq
	return sessionref.Event{Seq: &seq, Type: e.typ, Source: sessionref.Source{Kind: shortKinds[e.kind]},
		Content: []sessionref.Block{{Type: sessionref.BlockText, Text: e.text}}, Interrupted: e.interrupted}, false
}

// outline is how a snapshot sees the message (sessionref.OutlineOf).
func (e *event) outline() (sessionref.OutlineMessage, bool) {
	switch {
	case e.typ == sessionref.EventToolResult: // never in a snapshot (a closer has no msg to ask)
		return sessionref.OutlineMessage{}, false
	case e.short:
		return sessionref.OutlineOfText(e.typ, sessionref.Source{Kind: shortKinds[e.kind]}, int(e.tlen))
	case e.lazy:
		if e.tlen < 0 {
			return sessionref.OutlineMessage{}, false
		}
		return sessionref.OutlineMessage{Assistant: e.typ == sessionref.EventAssistantMessage, Checkpoint: e.kind == 1, Bytes: int(e.tlen)}, true
	}
	return sessionref.OutlineOf(e.msg)
}

// seqGap reports whether record r does not go on at seq next.
func seqGap(r record, next int64) bool {
	if isPacked(r.typ) {
		return r.seq0 != next
	}
	return r.seq != next
}

// typeOf is the type of a line's record, "" when it has none.
func typeOf(line []byte) string {
	var sc scanner
	v, err := sc.scanJSON(line)
	if err != nil {
		return ""
	}
	t, _ := v.get("type").str()
	return t
}

// decodeEvent turns a record into an event, upgrading legacy shapes. An
// ignorable event of an unknown type keeps its seq and has type "". A
// short message's text is kept only with keepText.
func (ix *index) decodeEvent(r record, line int, keepText bool) (event, error) {
	ev := event{seq: r.seq, typ: r.typ, line: int32(line)}
	op := r.surfaceOp
	switch r.typ {
	case "steering/message":
		ev.typ = sessionref.EventUserMessage // legacy rows migrate to user/message
		if op == nil {
			op = jv(`"append"`)
		}
	case "request/header-delta", "mode/set":
		return ev, logErr(ix.path, line, ErrCorrupt, "retired event type %q", r.typ)
	case "request/header":
		if r.data.get("reason").strIs("fallback") {
			return ev, logErr(ix.path, line, ErrCorrupt, "retired request/header reason \"fallback\"")
		}
	}
	if _, known := knownTypes[r.typ]; !known || isPacked(r.typ) {
		if r.ignorable {
			ev.typ = ""
			return ev, nil
		}
		return ev, logErr(ix.path, line, ErrUnknownEvent, "%q is not a known event type and is not marked ignorable (a newer DeepSeek Harness wrote it)", r.typ)
	}
	if !isSurface(ev.typ) {
		if r.surfaceOp != nil || r.hasSources {
			return ev, logErr(ix.path, line, ErrCorrupt, "%s carries surfaceOp or sourceEventSeqs", r.typ)
		}
		return ev, ix.decodeLogOnly(&ev, r.data)
	}
	// A message is built: within the caps on what that costs.
	switch {
	case r.values > maxValues:
		return ev, ix.overCap(line, r, errOverCap{"a message of JSON values:", r.values, maxValues})
	case r.depth > maxDepth:
		return ev, ix.overCap(line, r, errOverCap{"a message nested deep:", r.depth, maxDepth})
	}
	if r.nSources > 0 {
		ev.setExtra().sources = r.sourceSeqs()
	}
	if op == nil {
		return ev, logErr(ix.path, line, ErrCorrupt, "%s has no surfaceOp", ev.typ)
	}
	if err := decodeOp(&ev, op); err != nil {
		return ev, logErr(ix.path, line, ErrCorrupt, "%v", err)
	}
	if decodeShort(&ev, r.data, keepText) {
		return ev, nil
	}
	if err := decodeMessage(&ev, r.data); err != nil {
		return ev, logErr(ix.path, line, ErrCorrupt, "%s: %v", ev.typ, err)
	}
	ev.shorten()
	return ev, nil
}

// decodeLogOnly reads the one field of a log-only event's data the
// closers or the titles need; the rest of data is not read.
func (ix *index) decodeLogOnly(ev *event, data jv) error {
	switch ev.typ {
	case "session/title":
		if !data.get("title").isString() {
			return logErr(ix.path, int(ev.line), ErrCorrupt, "session/title without a title")
		}
	case "tool/call":
		if id, _ := data.get("callId").str(); id != "" {
			ev.setExtra().callID = id
		}
	case "turn/end":
		if !data.isObject() || data.get("reason") == nil {
			return logErr(ix.path, int(ev.line), ErrCorrupt, "turn/end without a reason")
		}
	}
	return nil
}
