package dshlog

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/dshkit/mentions/sessionref"
	"github.com/valyala/fastjson"
)

// header is the first line of a log.
type header struct {
	Type            string          `json:"type"`
	Version         *int            `json:"version"`
	ID              *string         `json:"id"`
	CreatedAt       *int64          `json:"createdAt"`
	DelegationDepth *int            `json:"delegationDepth"`
	Cwd             *string         `json:"cwd"`
	ParentSession   *string         `json:"parentSession"`
	SeedLength      *int            `json:"seedLength"`
	Origin          *string         `json:"origin"`
	AgentPreset     *string         `json:"agentPreset"`
	SandboxMode     json.RawMessage `json:"sandboxMode"`
	ApprovalPolicy  json.RawMessage `json:"approvalPolicy"`
}

// parseHeader checks a header line. Gaps docs/dsh-logs.md lets a reader forgive
// (no version, no delegationDepth) come back as warnings.
func parseHeader(path string, line []byte) (header, []string, error) {
	var h header
	if err := json.Unmarshal(line, &h); err != nil {
		return h, nil, logErr(path, 1, ErrHeader, "not JSON: %v", err)
	}
	if h.Type != "session" {
		return h, nil, logErr(path, 1, ErrHeader, "first record has type %q, not \"session\"", h.Type)
	}
	var warn []string
	if h.Version == nil {
		warn = append(warn, "header has no version; read as version 0")
	} else if *h.Version != 0 {
		dir := "a newer"
		if *h.Version < 0 {
			dir = "an unknown"
		}
		return h, nil, logErr(path, 1, ErrVersion, "format version %d was written by %s DeepSeek Harness; this reader knows version 0 only (upgrade mentions to read it)", *h.Version, dir)
	}
	if h.ID == nil {
		return h, nil, logErr(path, 1, ErrHeader, "no session id")
	}
	if h.CreatedAt == nil || *h.CreatedAt < 0 {
		return h, nil, logErr(path, 1, ErrHeader, "createdAt must be a non-negative integer")
	}
	if h.DelegationDepth == nil {
		warn = append(warn, "header has no delegationDepth; read as 0")
	}
	if len(h.SandboxMode) > 0 || len(h.ApprovalPolicy) > 0 {
		return h, nil, logErr(path, 1, ErrHeader, "retired header fields sandboxMode/approvalPolicy")
	}
	return h, warn, nil
}

// record is one storage record: an event, or a packed chunk row. Only
// the envelope is read here; data stays a parsed value that the event's
// type decides how much of to look at.
type record struct {
	typ             string
	seq, time       int64
	hasSeq, hasTime bool
	data            *fastjson.Value
	surfaceOp       *fastjson.Value
	sources         []int64
	hasSources      bool
	ignorable       bool
	seq0, time0     int64
	hasSeq0         bool
	hasTime0        bool
}

// errSyntax marks a line that is not JSON at all (garbage, cut short,
// empty), as opposed to a JSON record of the wrong shape.
type errSyntax struct{ err error }

func (e errSyntax) Error() string { return e.err.Error() }

func unreadable(err error) bool {
	var s errSyntax
	return errors.As(err, &s)
}

// isPacked reports a packed chunk row's tag (no '/').
func isPacked(typ string) bool {
	return typ == "text-chunks" || typ == "reasoning-chunks" || typ == "tool-call-chunks"
}

// intOf reads a JSON integer.
func intOf(v *fastjson.Value) (int64, bool) {
	n, err := v.Int64()
	return n, err == nil
}

// decodeRecord parses one line strictly: only the envelope's keys, and a
// packed row's exact shape. It returns how many events the record holds.
// The record's values live until the parser's next use.
func decodeRecord(jp *fastjson.Parser, line []byte) (record, int, error) {
	var r record
	if len(line) == 0 {
		return r, 0, errSyntax{errors.New("empty line")}
	}
	v, err := jp.ParseBytes(line)
	if err != nil {
		return r, 0, errSyntax{err}
	}
	o, err := v.Object()
	if err != nil {
		return r, 0, errors.New("record is not a JSON object")
	}
	var bad error
	o.Visit(func(k []byte, v *fastjson.Value) {
		if bad != nil {
			return
		}
		ok := true
		switch string(k) {
		case "type":
			var b []byte
			b, err := v.StringBytes()
			ok = err == nil
			r.typ = internType(b)
		case "seq":
			r.seq, ok = intOf(v)
			r.hasSeq = ok
		case "time":
			r.time, ok = intOf(v)
			r.hasTime = ok
		case "data":
			r.data = v
		case "surfaceOp":
			if v.Type() != fastjson.TypeNull {
				r.surfaceOp = v
			}
		case "sourceEventSeqs":
			if v.Type() == fastjson.TypeNull {
				break
			}
			a, err := v.Array()
			if ok = err == nil; ok {
				r.hasSources = true
				r.sources = make([]int64, len(a))
				for i, x := range a {
					if r.sources[i], ok = intOf(x); !ok {
						break
					}
				}
			}
		case "ignorable":
			if v.Type() != fastjson.TypeNull {
				r.ignorable, err = v.Bool()
				ok = err == nil
			}
		case "seq0":
			r.seq0, ok = intOf(v)
			r.hasSeq0 = ok
		case "time0":
			r.time0, ok = intOf(v)
			r.hasTime0 = ok
		default:
			bad = fmt.Errorf("unknown top-level key %q", k) // the format allows no other
			return
		}
		if !ok {
			bad = fmt.Errorf("%s has the wrong type", k)
		}
	})
	if bad != nil {
		return r, 0, bad
	}
	if isPacked(r.typ) {
		if r.hasSeq || r.hasTime || r.surfaceOp != nil || r.hasSources || r.ignorable {
			return r, 0, errors.New("packed row has event keys")
		}
		if !r.hasSeq0 || !r.hasTime0 {
			return r, 0, errors.New("packed row lacks seq0 or time0")
		}
		n, err := packedCount(r.typ, r.data)
		return r, n, err
	}
	if r.hasSeq0 || r.hasTime0 {
		return r, 0, errors.New("event has packed-row keys")
	}
	if r.typ == "" || !strings.Contains(r.typ, "/") || !r.hasSeq || !r.hasTime || r.data == nil {
		return r, 0, errors.New("event lacks type, seq, time or data")
	}
	return r, 1, nil
}

// internType returns the shared string of a known type, so the events of
// a big log do not each hold a copy of their type.
func internType(b []byte) string {
	if t, ok := knownTypes[string(b)]; ok { // no allocation for the lookup
		return t
	}
	return string(b)
}

// packedCount validates a packed row's data and returns its member count.
func packedCount(typ string, data *fastjson.Value) (int, error) {
	if data == nil {
		return 0, errors.New("packed row has no data")
	}
	o, err := data.Object()
	if err != nil {
		return 0, errors.New("packed row data is not an object")
	}
	want := []string{"turn", "step", "index", "dt", "texts"}
	payload := "texts"
	if typ == "tool-call-chunks" {
		want = []string{"turn", "step", "index", "id", "dt", "args"}
		payload = "args"
	}
	seen := 0
	var bad error
	o.Visit(func(k []byte, _ *fastjson.Value) {
		switch {
		case containsStr(want, string(k)):
			seen++
		case typ == "tool-call-chunks" && string(k) == "name":
		default:
			if bad == nil {
				bad = fmt.Errorf("packed row has unexpected key %q", k)
			}
		}
	})
	if bad != nil {
		return 0, bad
	}
	if seen != len(want) {
		for _, k := range want {
			if o.Get(k) == nil {
				return 0, fmt.Errorf("packed row lacks %q", k)
			}
		}
		return 0, errors.New("packed row repeats a key")
	}
	items, err := o.Get(payload).Array()
	if err != nil {
		return 0, fmt.Errorf("packed row %s is not an array", payload)
	}
	for _, it := range items {
		if it.Type() != fastjson.TypeString {
			return 0, fmt.Errorf("packed row %s holds a non-string", payload)
		}
	}
	dt, err := o.Get("dt").Array()
	if err != nil {
		return 0, errors.New("packed row dt is not an array")
	}
	for _, d := range dt {
		if _, ok := intOf(d); !ok {
			return 0, errors.New("packed row dt holds a non-integer")
		}
	}
	if len(items) == 0 || len(dt) != len(items)-1 {
		return 0, fmt.Errorf("packed row has %d gaps for %d chunks", len(dt), len(items))
	}
	return len(items), nil
}

func containsStr(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// decodeOp reads a surface event's surfaceOp: "append", or a replace of
// the current range start..end.
func decodeOp(ev *event, v *fastjson.Value) error {
	if v.Type() == fastjson.TypeString {
		if s, _ := v.StringBytes(); string(s) != "append" {
			return fmt.Errorf("unknown surfaceOp %q", s)
		}
		return nil
	}
	o, err := v.Object()
	if err != nil || o.Len() != 3 {
		return errors.New("surfaceOp must be \"append\" or {op, start, end}")
	}
	kind, _ := str(o.Get("op"))
	start, okS := intOrNil(o.Get("start"))
	end, okE := intOrNil(o.Get("end"))
	if kind != "replace" || !okS || !okE || start < 0 || end < 0 {
		return fmt.Errorf("bad replace surfaceOp %s", v.MarshalTo(nil))
	}
	ev.setExtra().replace = &[2]int64{start, end}
	return nil
}

func intOrNil(v *fastjson.Value) (int64, bool) {
	if v == nil {
		return 0, false
	}
	return intOf(v)
}

// str reads a string value, copied out of the parser's buffer; ok=false
// when v is missing or not a string.
func str(v *fastjson.Value) (string, bool) {
	if v == nil || v.Type() != fastjson.TypeString {
		return "", false
	}
	b, _ := v.StringBytes()
	return string(b), true
}

// raw is a value's JSON text, detached from the parser.
func raw(v *fastjson.Value) json.RawMessage { return v.MarshalTo(nil) }

// openObject splits a JSON object into the string fields named in known
// (a null or string value) and the rest, kept verbatim, as the sessionref
// open objects read them.
func openObject(v *fastjson.Value, known map[string]*string) (map[string]json.RawMessage, error) {
	o, err := v.Object()
	if err != nil {
		return nil, errors.New("not an object")
	}
	var fields map[string]json.RawMessage
	o.Visit(func(k []byte, v *fastjson.Value) {
		if dst, ok := known[string(k)]; ok {
			switch v.Type() {
			case fastjson.TypeString:
				b, _ := v.StringBytes()
				*dst = string(b)
				return
			case fastjson.TypeNull:
				return
			}
		}
		if fields == nil {
			fields = map[string]json.RawMessage{}
		}
		fields[string(k)] = raw(v)
	})
	return fields, nil
}

// decodeBlock reads one content block: type and text parsed, other
// fields verbatim.
func decodeBlock(v *fastjson.Value) (sessionref.Block, error) {
	var b sessionref.Block
	if o, err := v.Object(); err == nil && o.Len() == 2 {
		// The common shape, {"type":"text"|"reasoning","text":S}.
		t, tok := str(o.Get("type"))
		x, xok := str(o.Get("text"))
		if tok && xok {
			return sessionref.Block{Type: t, Text: x}, nil
		}
	}
	fields, err := openObject(v, map[string]*string{"type": &b.Type, "text": &b.Text})
	if err != nil {
		return b, fmt.Errorf("content block is %s", err)
	}
	b.Fields = fields
	return b, nil
}

// decodeSource reads a message source.
func decodeSource(v *fastjson.Value) (sessionref.Source, error) {
	var s sessionref.Source
	if v == nil || v.Type() == fastjson.TypeNull {
		return s, nil
	}
	fields, err := openObject(v, map[string]*string{"kind": &s.Kind, "plugin": &s.Plugin})
	if err != nil {
		return s, fmt.Errorf("source is %s", err)
	}
	s.Fields = fields
	return s, nil
}

// decodeShort reads a message of the common shape — one {"type":"text",
// "text":S} block, a source with only its kind (or none), in the place
// decodeMessage reads it — straight into ev as a short message, without
// building the message: what decodeMessage then shorten would give, with
// no garbage. ok=false for any other shape, left to decodeMessage. The
// text is copied only with keepText (a lazy message keeps its length).
func decodeShort(ev *event, data *fastjson.Value, keepText bool) (ok bool) {
	if data.Type() != fastjson.TypeObject {
		return false
	}
	m := data
	if ev.typ != sessionref.EventUserMessage {
		if m = data.Get("message"); m == nil || m.Type() != fastjson.TypeObject {
			return false
		}
	}
	cv := m.Get("content")
	if cv == nil || cv.Type() != fastjson.TypeArray {
		return false
	}
	items, _ := cv.Array()
	if len(items) != 1 {
		return false
	}
	block, err := items[0].Object()
	if err != nil || block.Len() != 2 {
		return false
	}
	t, x := block.Get("type"), block.Get("text")
	if t == nil || x == nil || t.Type() != fastjson.TypeString || x.Type() != fastjson.TypeString {
		return false
	}
	if tb, _ := t.StringBytes(); string(tb) != sessionref.BlockText {
		return false
	}
	var kind []byte
	if sv := m.Get("source"); sv != nil && sv.Type() != fastjson.TypeNull {
		src, err := sv.Object()
		if err != nil || src.Len() != 1 {
			return false
		}
		kv := src.Get("kind")
		if kv == nil || kv.Type() != fastjson.TypeString {
			return false
		}
		kind, _ = kv.StringBytes()
	}
	if len(kind) == 0 { // the kind decodeMessage gives a message without one
		switch ev.typ {
		case sessionref.EventUserMessage:
			kind = []byte(sessionref.SourceUser)
		case sessionref.EventAssistantMessage:
			kind = []byte(sessionref.SourceModel)
		default:
			kind = []byte(sessionref.SourceTool)
		}
	}
	k := slices.IndexFunc(shortKinds[:], func(name string) bool { return name == string(kind) })
	if k < 0 {
		return false
	}
	text, _ := x.StringBytes()
	ev.short, ev.kind, ev.tlen = true, uint8(k), int32(len(text))
	if iv := data.Get("interrupted"); iv != nil && iv.Type() == fastjson.TypeTrue {
		ev.interrupted = true
	}
	if keepText {
		ev.text = string(text)
	}
	return true
}

// decodeMessage reads a surface event's message. A user message is the
// data itself; assistant messages and tool results hold it under
// "message". Older web logs wrote a tool result's callId, content and
// isError directly in data; like the reference, that is read as one
// tool-result block whose content is data.content.
func decodeMessage(ev *event, data *fastjson.Value) error {
	if data.Type() != fastjson.TypeObject {
		return errors.New("data is not an object")
	}
	m := data
	if ev.typ != sessionref.EventUserMessage {
		if inner := data.Get("message"); inner != nil && inner.Type() != fastjson.TypeNull {
			m = inner
		} else if ev.typ == sessionref.EventToolResult && data.Get("callId") != nil {
			return decodeLegacyToolResult(ev, data)
		}
	}
	if m.Type() != fastjson.TypeObject {
		return errors.New("message is not an object")
	}
	cv := m.Get("content")
	if cv == nil || cv.Type() == fastjson.TypeNull {
		return errors.New("message has no content")
	}
	items, err := cv.Array()
	if err != nil {
		return errors.New("message content is not an array")
	}
	src, err := decodeSource(m.Get("source"))
	if err != nil {
		return err
	}
	switch {
	case src.Kind != "":
	case ev.typ == sessionref.EventUserMessage:
		src.Kind = sessionref.SourceUser // legacy steering rows
	case ev.typ == sessionref.EventAssistantMessage:
		src.Kind = sessionref.SourceModel
	default:
		src.Kind = sessionref.SourceTool
	}
	content := make([]sessionref.Block, len(items))
	for i, it := range items {
		if content[i], err = decodeBlock(it); err != nil {
			return err
		}
		switch content[i].Type {
		case "tool-call":
			id, _ := str(it.Get("id"))
			x := ev.setExtra()
			x.toolCalls = append(x.toolCalls, id)
		case "tool-result":
			if ev.extra().callID == "" {
				if id, _ := str(it.Get("toolCallId")); id != "" {
					ev.setExtra().callID = id
				}
			}
		}
	}
	if ev.typ == sessionref.EventToolResult {
		if cid, ok := str(m.Get("source", "callId")); ok {
			ev.setExtra().callID = cid
		}
	}
	interrupted := false
	if iv := data.Get("interrupted"); iv != nil && iv.Type() == fastjson.TypeTrue {
		interrupted = true
	}
	seq := ev.seq
	ev.msg = &sessionref.Event{Seq: &seq, Type: ev.typ, Source: src, Content: content, Interrupted: interrupted}
	return nil
}

// decodeLegacyToolResult reads {callId, content, isError} in data.
func decodeLegacyToolResult(ev *event, data *fastjson.Value) error {
	cid := data.Get("callId")
	id, ok := str(cid)
	if !ok {
		return errors.New("tool result callId is not a string")
	}
	cv := data.Get("content")
	if cv == nil || cv.Type() != fastjson.TypeArray {
		return errors.New("message has no content")
	}
	fields := map[string]json.RawMessage{"toolCallId": raw(cid), "content": raw(cv)}
	if e := data.Get("isError"); e != nil {
		fields["isError"] = raw(e)
	}
	ev.setExtra().callID = id
	seq := ev.seq
	ev.msg = &sessionref.Event{Seq: &seq, Type: ev.typ,
		Source:  sessionref.Source{Kind: sessionref.SourceTool, Fields: map[string]json.RawMessage{"callId": raw(cid)}},
		Content: []sessionref.Block{{Type: "tool-result", Fields: fields}}}
	return nil
}
