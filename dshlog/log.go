package dshlog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/dshkit/mentions/sessionref"
)

// knownTypes are the event types this reader understands or may skip;
// anything else must be marked ignorable.
var knownTypes = map[string]bool{}

func init() {
	for _, t := range strings.Fields(`user/message assistant/message tool/result assistant/chunk tool/call
		turn/start turn/end step/start step/end session/title session/title-llm-request session/end-seed
		request/header request/context agent/inbox/spliced compaction/start compaction/summary compaction/end
		compaction/prune todo/write approval/asked approval/decided approval/policy hook/invoked hook/result
		command/run command/done goal/change plan/mode llm/retry llm/retry-started tool/code-dispatch
		tool/code-dispatch-start tool-workflow/run-start tool-workflow/run-end tool-workflow/agent-start
		tool-workflow/agent-end subagent/descriptor team/message team/created agent-preset/selected
		permission/preset sandbox/mode steering/message`) {
		knownTypes[t] = true
	}
}

func isSurface(t string) bool {
	return t == sessionref.EventUserMessage || t == sessionref.EventAssistantMessage || t == sessionref.EventToolResult
}

// event is one decoded log event, kept as small as what the fold, the
// title and the crash-repair closers need.
type event struct {
	seq, time int64
	typ       string
	line      int
	msg       *sessionref.Event // surface types
	replace   *[2]int64         // a replace op's start and end; nil = append
	sources   []int64
	title     *string
	callID    string   // tool/call and tool/result
	toolCalls []string // tool-call block ids of an assistant message
}

// parsed is what a log file holds once decoded.
type parsed struct {
	path     string
	zstd     bool
	head     header
	warnings []string
	events   []event // committed events, index == seq
	// committed is the input offset after the last committed byte: a whole
	// line (raw) or a whole frame (zstd). Appended bytes start there.
	committed int
	// tail holds the lines of a torn last zstd frame: readable now, but
	// not committed, since the writer may still be finishing the frame.
	tail []event
	// stopped: a bad line ended the valid prefix; growth means a full
	// re-read, since a later turn/end would make the log corrupt.
	stopped bool
	err     error // the log cannot be read (corrupt, unknown event, version)
	line    int   // lines consumed so far (the header is line 1)
}

// feed decodes chunk, the file's bytes from offset base on (base is
// p.committed when resuming, 0 for a new parse).
func (p *parsed) feed(chunk []byte, base int) {
	var text, tail []byte
	var end int
	if p.zstd {
		var err error
		text, end, tail, err = decodeZstd(chunk)
		if err != nil {
			p.err = logErr(p.path, 0, ErrCorrupt, "%v", err)
			return
		}
	} else {
		i := bytes.LastIndexByte(chunk, '\n')
		text, end = chunk[:i+1], i+1 // a final line without "\n" is not written yet
	}
	p.committed = base + end
	lines := splitLines(text)
	if p.line == 0 {
		if len(lines) == 0 && len(tail) > 0 {
			lines, tail = splitLines(tail), nil
		}
		if len(lines) == 0 {
			p.err = logErr(p.path, 0, ErrHeader, "empty log")
			return
		}
		h, warn, err := parseHeader(p.path, lines[0])
		if err != nil {
			p.err = err
			return
		}
		p.head, p.warnings, p.line = h, warn, 1
		lines = lines[1:]
	}
	p.events = p.decodeLines(lines, p.events, 0, false)
	p.tail = nil
	if p.err == nil && !p.stopped && len(tail) > 0 {
		// The torn frame's lines are read but not committed: whatever they
		// hold (a defect included) may still change as the writer goes on.
		err, stopped, line := p.err, p.stopped, p.line
		p.tail = p.decodeLines(splitLines(tail), nil, int64(len(p.events)), true)
		p.err, p.stopped, p.line = err, stopped, line
	}
}

func splitLines(text []byte) [][]byte {
	if len(text) == 0 {
		return nil
	}
	return bytes.Split(text[:len(text)-1], []byte{'\n'})
}

// decodeLines applies the robustness rules of the format: the first bad
// line or seq gap ends the valid prefix, and is corruption if a later
// record holds a turn/end (always, inside a complete zstd frame);
// otherwise the rest is a torn tail and is dropped.
// The events are appended to evs, whose first event has seq first.
func (p *parsed) decodeLines(lines [][]byte, evs []event, first int64, inTornFrame bool) []event {
	for i, line := range lines {
		p.line++
		lineNo := p.line
		if p.stopped || p.err != nil {
			return evs
		}
		r, n, err := decodeRecord(line)
		next := first + int64(len(evs))
		gap := err == nil && ((isPacked(r.Type) && *r.Seq0 != next) || (!isPacked(r.Type) && *r.Seq != next))
		if err != nil || gap {
			isSyntax := err != nil && (unreadable(err) || len(bytes.TrimSpace(line)) == 0)
			if err != nil && !isSyntax {
				p.err = logErr(p.path, lineNo, ErrCorrupt, "%v", err)
				return evs
			}
			if p.zstd && !inTornFrame {
				p.err = logErr(p.path, lineNo, ErrCorrupt, "bad record inside a complete zstd frame")
				return evs
			}
			check := lines[i+1:]
			if gap {
				check = lines[i:] // the out-of-sequence record itself counts
			}
			for _, later := range check {
				var probe struct{ Type string }
				if json.Unmarshal(later, &probe) == nil && probe.Type == "turn/end" {
					what := "unreadable line"
					if gap {
						what = fmt.Sprintf("seq gap (want %d)", next)
					}
					p.err = logErr(p.path, lineNo, ErrCorrupt, "%s before a later turn/end", what)
					return evs
				}
			}
			p.stopped = true
			return evs
		}
		if isPacked(r.Type) {
			t := *r.Time0
			for k := 0; k < n; k++ {
				evs = append(evs, event{seq: *r.Seq0 + int64(k), time: t, typ: "assistant/chunk", line: lineNo})
			}
			continue
		}
		ev, skip, err := p.decodeEvent(r, lineNo)
		if err != nil {
			p.err = err
			return evs
		}
		if skip {
			ev = event{seq: *r.Seq, time: *r.Time, typ: "", line: lineNo} // an ignorable unknown event holds its seq
		}
		evs = append(evs, ev)
	}
	return evs
}

// unreadable reports a line that is not JSON (garbage, cut short, empty),
// as opposed to a JSON record of the wrong shape.
func unreadable(err error) bool {
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		return true
	}
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || strings.Contains(err.Error(), "unexpected end of JSON")
}

// decodeEvent turns a record into an event, upgrading legacy shapes.
func (p *parsed) decodeEvent(r record, line int) (event, bool, error) {
	ev := event{seq: *r.Seq, time: *r.Time, typ: r.Type, line: line, sources: r.SourceEventSeqs}
	switch r.Type {
	case "steering/message":
		ev.typ = sessionref.EventUserMessage // legacy rows migrate to user/message
		if len(r.SurfaceOp) == 0 {
			r.SurfaceOp = json.RawMessage(`"append"`)
		}
	case "request/header-delta", "mode/set":
		return ev, false, logErr(p.path, line, ErrCorrupt, "retired event type %q", r.Type)
	case "request/header":
		var d struct{ Reason string }
		if json.Unmarshal(r.Data, &d) == nil && d.Reason == "fallback" {
			return ev, false, logErr(p.path, line, ErrCorrupt, "retired request/header reason \"fallback\"")
		}
	}
	if !knownTypes[r.Type] {
		if r.Ignorable {
			return ev, true, nil
		}
		return ev, false, logErr(p.path, line, ErrUnknownEvent, "%q is not a known event type and is not marked ignorable (a newer DeepSeek Harness wrote it)", r.Type)
	}
	if !isSurface(ev.typ) {
		if len(r.SurfaceOp) > 0 || r.SourceEventSeqs != nil {
			return ev, false, logErr(p.path, line, ErrCorrupt, "%s carries surfaceOp or sourceEventSeqs", r.Type)
		}
		return ev, false, p.decodeLogOnly(&ev, r.Data)
	}
	if len(r.SurfaceOp) == 0 {
		return ev, false, logErr(p.path, line, ErrCorrupt, "%s has no surfaceOp", ev.typ)
	}
	if err := decodeOp(&ev, r.SurfaceOp); err != nil {
		return ev, false, logErr(p.path, line, ErrCorrupt, "%v", err)
	}
	if err := decodeMessage(&ev, r.Data); err != nil {
		return ev, false, logErr(p.path, line, ErrCorrupt, "%s: %v", ev.typ, err)
	}
	return ev, false, nil
}

func decodeOp(ev *event, raw json.RawMessage) error {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s != "append" {
			return fmt.Errorf("unknown surfaceOp %q", s)
		}
		return nil
	}
	var op map[string]json.RawMessage
	if err := json.Unmarshal(raw, &op); err != nil || len(op) != 3 {
		return fmt.Errorf("surfaceOp must be \"append\" or {op, start, end}")
	}
	var kind string
	var start, end int64
	if json.Unmarshal(op["op"], &kind) != nil || kind != "replace" ||
		json.Unmarshal(op["start"], &start) != nil || json.Unmarshal(op["end"], &end) != nil || start < 0 || end < 0 {
		return fmt.Errorf("bad replace surfaceOp %s", raw)
	}
	ev.replace = &[2]int64{start, end}
	return nil
}

// decodeMessage reads a surface event's message in one pass. A user
// message is the data itself; assistant messages and tool results hold it
// under "message" (older web logs put its fields in data directly).
func decodeMessage(ev *event, data json.RawMessage) error {
	type fields struct {
		Source  sessionref.Source   `json:"source"`
		Content *[]sessionref.Block `json:"content"`
	}
	var d struct {
		fields
		Message     *fields `json:"message"`
		Interrupted bool    `json:"interrupted"`
	}
	if err := json.Unmarshal(data, &d); err != nil {
		return err
	}
	m := d.fields
	if ev.typ != sessionref.EventUserMessage && d.Message != nil {
		m = *d.Message
	}
	if m.Content == nil {
		return fmt.Errorf("message has no content")
	}
	switch {
	case m.Source.Kind != "":
	case ev.typ == sessionref.EventUserMessage:
		m.Source.Kind = sessionref.SourceUser // legacy steering rows
	case ev.typ == sessionref.EventAssistantMessage:
		m.Source.Kind = sessionref.SourceModel
	default:
		m.Source.Kind = sessionref.SourceTool
	}
	seq := ev.seq
	ev.msg = &sessionref.Event{Seq: &seq, Type: ev.typ, Source: m.Source, Content: *m.Content, Interrupted: d.Interrupted}
	for _, b := range *m.Content {
		if b.Type == "tool-call" {
			var id string
			json.Unmarshal(b.Fields["id"], &id)
			ev.toolCalls = append(ev.toolCalls, id)
		}
		if b.Type == "tool-result" && ev.callID == "" {
			json.Unmarshal(b.Fields["toolCallId"], &ev.callID)
		}
	}
	if cid, ok := m.Source.Fields["callId"]; ok && ev.typ == sessionref.EventToolResult {
		json.Unmarshal(cid, &ev.callID)
	}
	return nil
}

func (p *parsed) decodeLogOnly(ev *event, data json.RawMessage) error {
	switch ev.typ {
	case "session/title":
		var d struct {
			Title *string `json:"title"`
		}
		if err := json.Unmarshal(data, &d); err != nil || d.Title == nil {
			return logErr(p.path, ev.line, ErrCorrupt, "session/title without a title")
		}
		ev.title = d.Title
	case "tool/call":
		var d struct {
			CallID string `json:"callId"`
		}
		json.Unmarshal(data, &d)
		ev.callID = d.CallID
	case "turn/end":
		var d struct {
			Reason json.RawMessage `json:"reason"`
		}
		if err := json.Unmarshal(data, &d); err != nil || len(d.Reason) == 0 {
			return logErr(p.path, ev.line, ErrCorrupt, "turn/end without a reason")
		}
	}
	return nil
}
