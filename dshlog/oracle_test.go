package dshlog

// The fastjson decoder this package used before its records were read
// by an allocation-free scanner, kept as the oracle the scanner's
// decoding is compared with (FuzzDecodeLikeFastjson).

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/dshkit/mentions/sessionref"
	"github.com/valyala/fastjson"
)

// refRecord is one storage refRecord: an event, or a packed chunk row. Only
// the envelope is read here; data stays a parsed value that the event's
// type decides how much of to look at.
type refRecord struct {
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

// refErrSyntax marks a line that is not JSON at all (garbage, cut short,
// empty), as opposed to a JSON refRecord of the wrong shape.
type refErrSyntax struct{ err error }

func (e refErrSyntax) Error() string { return e.err.Error() }

func refUnreadable(err error) bool {
	var s refErrSyntax
	return errors.As(err, &s)
}

// refIsPacked reports a packed chunk row's tag (no '/').
func refIsPacked(typ string) bool {
	return typ == "text-chunks" || typ == "reasoning-chunks" || typ == "tool-call-chunks"
}

// refIntOf reads a JSON integer.
func refIntOf(v *fastjson.Value) (int64, bool) {
	n, err := v.Int64()
	return n, err == nil
}

// refDecodeRecord parses one line strictly: only the envelope's keys, and a
// packed row's exact shape. It returns how many events the refRecord holds.
// The refRecord's values live until the parser's next use.
func refDecodeRecord(jp *fastjson.Parser, line []byte) (refRecord, int, error) {
	var r refRecord
	if len(line) == 0 {
		return r, 0, refErrSyntax{errors.New("empty line")}
	}
	v, err := jp.ParseBytes(line)
	if err != nil {
		return r, 0, refErrSyntax{err}
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
			r.typ = refInternType(b)
		case "seq":
			r.seq, ok = refIntOf(v)
			r.hasSeq = ok
		case "time":
			r.time, ok = refIntOf(v)
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
					if r.sources[i], ok = refIntOf(x); !ok {
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
			r.seq0, ok = refIntOf(v)
			r.hasSeq0 = ok
		case "time0":
			r.time0, ok = refIntOf(v)
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
	if refIsPacked(r.typ) {
		if r.hasSeq || r.hasTime || r.surfaceOp != nil || r.hasSources || r.ignorable {
			return r, 0, errors.New("packed row has event keys")
		}
		if !r.hasSeq0 || !r.hasTime0 {
			return r, 0, errors.New("packed row lacks seq0 or time0")
		}
		n, err := refPackedCount(r.typ, r.data)
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

// refInternType returns the shared string of a known type, so the events of
// a big log do not each hold a copy of their type.
func refInternType(b []byte) string {
	if t, ok := knownTypes[string(b)]; ok { // no allocation for the lookup
		return t
	}
	return string(b)
}

// refPackedCount validates a packed row's data and returns its member count.
func refPackedCount(typ string, data *fastjson.Value) (int, error) {
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
		case refContainsStr(want, string(k)):
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
		if _, ok := refIntOf(d); !ok {
			return 0, errors.New("packed row dt holds a non-integer")
		}
	}
	if len(items) == 0 || len(dt) != len(items)-1 {
		return 0, fmt.Errorf("packed row has %d gaps for %d chunks", len(dt), len(items))
	}
	return len(items), nil
}

func refContainsStr(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// refDecodeOp reads a surface event's surfaceOp: "append", or a replace of
// the current range start..end.
func refDecodeOp(ev *event, v *fastjson.Value) error {
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
	kind, _ := refStr(o.Get("op"))
	start, okS := refIntOrNil(o.Get("start"))
	end, okE := refIntOrNil(o.Get("end"))
	if kind != "replace" || !okS || !okE || start < 0 || end < 0 {
		return fmt.Errorf("bad replace surfaceOp %s", v.MarshalTo(nil))
	}
	ev.setExtra().replace = &[2]int64{start, end}
	return nil
}

func refIntOrNil(v *fastjson.Value) (int64, bool) {
	if v == nil {
		return 0, false
	}
	return refIntOf(v)
}

// refStr reads a string value, copied out of the parser's buffer; ok=false
// when v is missing or not a string.
func refStr(v *fastjson.Value) (string, bool) {
	if v == nil || v.Type() != fastjson.TypeString {
		return "", false
	}
	b, _ := v.StringBytes()
	return string(b), true
}

// refRaw is a value's JSON text, detached from the parser.
func refRaw(v *fastjson.Value) json.RawMessage { return v.MarshalTo(nil) }

// refOpenObject splits a JSON object into the string fields named in known
// (a null or string value) and the rest, kept verbatim, as the sessionref
// open objects read them.
func refOpenObject(v *fastjson.Value, known map[string]*string) (map[string]json.RawMessage, error) {
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
		fields[string(k)] = refRaw(v)
	})
	return fields, nil
}

// refDecodeBlock reads one content block: type and text parsed, other
// fields verbatim.
func refDecodeBlock(v *fastjson.Value) (sessionref.Block, error) {
	var b sessionref.Block
	if o, err := v.Object(); err == nil && o.Len() == 2 {
		// The common shape, {"type":"text"|"reasoning","text":S}.
		t, tok := refStr(o.Get("type"))
		x, xok := refStr(o.Get("text"))
		if tok && xok {
			return sessionref.Block{Type: t, Text: x}, nil
		}
	}
	fields, err := refOpenObject(v, map[string]*string{"type": &b.Type, "text": &b.Text})
	if err != nil {
		return b, fmt.Errorf("content block is %s", err)
	}
	b.Fields = fields
	return b, nil
}

// refDecodeSource reads a message source.
func refDecodeSource(v *fastjson.Value) (sessionref.Source, error) {
	var s sessionref.Source
	if v == nil || v.Type() == fastjson.TypeNull {
		return s, nil
	}
	fields, err := refOpenObject(v, map[string]*string{"kind": &s.Kind, "plugin": &s.Plugin})
	if err != nil {
		return s, fmt.Errorf("source is %s", err)
	}
	s.Fields = fields
	return s, nil
}

// refDecodeShort reads a message of the common shape — one {"type":"text",
// "text":S} block, a source with only its kind (or none), in the place
// refDecodeMessage reads it — straight into ev as a short message, without
// building the message: what refDecodeMessage then shorten would give, with
// no garbage. ok=false for any other shape, left to refDecodeMessage. The
// text is copied only with keepText (a lazy message keeps its length).
func refDecodeShort(ev *event, data *fastjson.Value, keepText bool) (ok bool) {
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
	if len(kind) == 0 { // the kind refDecodeMessage gives a message without one
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

// refDecodeMessage reads a surface event's message. A user message is the
// data itself; assistant messages and tool results hold it under
// "message". Older web logs wrote a tool result's callId, content and
// isError directly in data; like the reference, that is read as one
// tool-result block whose content is data.content.
func refDecodeMessage(ev *event, data *fastjson.Value) error {
	if data.Type() != fastjson.TypeObject {
		return errors.New("data is not an object")
	}
	m := data
	if ev.typ != sessionref.EventUserMessage {
		if inner := data.Get("message"); inner != nil && inner.Type() != fastjson.TypeNull {
			m = inner
		} else if ev.typ == sessionref.EventToolResult && data.Get("callId") != nil {
			return refDecodeLegacyToolResult(ev, data)
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
	src, err := refDecodeSource(m.Get("source"))
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
		if content[i], err = refDecodeBlock(it); err != nil {
			return err
		}
		switch content[i].Type {
		case "tool-call":
			id, _ := refStr(it.Get("id"))
			x := ev.setExtra()
			x.toolCalls = append(x.toolCalls, id)
		case "tool-result":
			if ev.extra().callID == "" {
				if id, _ := refStr(it.Get("toolCallId")); id != "" {
					ev.setExtra().callID = id
				}
			}
		}
	}
	if ev.typ == sessionref.EventToolResult {
		if cid, ok := refStr(m.Get("source", "callId")); ok {
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

// refDecodeLegacyToolResult reads {callId, content, isError} in data.
func refDecodeLegacyToolResult(ev *event, data *fastjson.Value) error {
	cid := data.Get("callId")
	id, ok := refStr(cid)
	if !ok {
		return errors.New("tool result callId is not a string")
	}
	cv := data.Get("content")
	if cv == nil || cv.Type() != fastjson.TypeArray {
		return errors.New("message has no content")
	}
	fields := map[string]json.RawMessage{"toolCallId": refRaw(cid), "content": refRaw(cv)}
	if e := data.Get("isError"); e != nil {
		fields["isError"] = refRaw(e)
	}
	ev.setExtra().callID = id
	seq := ev.seq
	ev.msg = &sessionref.Event{Seq: &seq, Type: ev.typ,
		Source:  sessionref.Source{Kind: sessionref.SourceTool, Fields: map[string]json.RawMessage{"callId": refRaw(cid)}},
		Content: []sessionref.Block{{Type: "tool-result", Fields: fields}}}
	return nil
}

// refPackedSpan is the sum of a packed row's time gaps (checked already).
func refPackedSpan(data *fastjson.Value) int64 {
	var sum int64
	for _, d := range data.GetArray("dt") {
		n, _ := d.Int64()
		sum += n
	}
	return sum
}

// refTypeOf is the type of a line's refRecord, "" when it has none.
func refTypeOf(jp *fastjson.Parser, line []byte) string {
	v, err := jp.ParseBytes(line)
	if err != nil {
		return ""
	}
	t, _ := refStr(v.Get("type"))
	return t
}

// decodeEvent turns a refRecord into an event, upgrading legacy shapes. An
// ignorable event of an unknown type keeps its seq and has type "". A
// short message's text is kept only with keepText.
func refDecodeEvent(p *index, r refRecord, line int, keepText bool) (event, error) {
	ev := event{seq: r.seq, typ: r.typ, line: int32(line)}
	if len(r.sources) > 0 {
		ev.setExtra().sources = r.sources
	}
	op := r.surfaceOp
	switch r.typ {
	case "steering/message":
		ev.typ = sessionref.EventUserMessage // legacy rows migrate to user/message
		if op == nil {
			op = fastjson.MustParse(`"append"`)
		}
	case "request/header-delta", "mode/set":
		return ev, logErr(p.path, line, ErrCorrupt, "retired event type %q", r.typ)
	case "request/header":
		if reason, _ := refStr(r.data.Get("reason")); reason == "fallback" {
			return ev, logErr(p.path, line, ErrCorrupt, "retired request/header reason \"fallback\"")
		}
	}
	if _, known := knownTypes[r.typ]; !known || refIsPacked(r.typ) {
		if r.ignorable {
			ev.typ, ev.x = "", nil
			return ev, nil
		}
		return ev, logErr(p.path, line, ErrUnknownEvent, "%q is not a known event type and is not marked ignorable (a newer DeepSeek Harness wrote it)", r.typ)
	}
	if !isSurface(ev.typ) {
		if r.surfaceOp != nil || r.hasSources {
			return ev, logErr(p.path, line, ErrCorrupt, "%s carries surfaceOp or sourceEventSeqs", r.typ)
		}
		return ev, refDecodeLogOnly(p, &ev, r.data)
	}
	if op == nil {
		return ev, logErr(p.path, line, ErrCorrupt, "%s has no surfaceOp", ev.typ)
	}
	if err := refDecodeOp(&ev, op); err != nil {
		return ev, logErr(p.path, line, ErrCorrupt, "%v", err)
	}
	if refDecodeShort(&ev, r.data, keepText) {
		return ev, nil
	}
	if err := refDecodeMessage(&ev, r.data); err != nil {
		return ev, logErr(p.path, line, ErrCorrupt, "%s: %v", ev.typ, err)
	}
	ev.shorten()
	return ev, nil
}

func refDecodeLogOnly(p *index, ev *event, data *fastjson.Value) error {
	switch ev.typ {
	case "session/title":
		if _, ok := refStr(data.Get("title")); !ok {
			return logErr(p.path, int(ev.line), ErrCorrupt, "session/title without a title")
		}
	case "tool/call":
		if id, _ := refStr(data.Get("callId")); id != "" {
			ev.setExtra().callID = id
		}
	case "turn/end":
		if data.Type() != fastjson.TypeObject || data.Get("reason") == nil {
			return logErr(p.path, int(ev.line), ErrCorrupt, "turn/end without a reason")
		}
	}
	return nil
}
