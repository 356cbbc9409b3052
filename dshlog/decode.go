package dshlog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/dshkit/mentions/sessionref"
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
// the envelope is read here; data stays checked text that the event's
// type decides how much of to read.
type record struct {
	typ             string
	seq, time       int64
	hasSeq, hasTime bool
	data            jv // nil: none
	surfaceOp       jv // nil: none, or null
	sources         jv // the sourceEventSeqs array, checked
	nSources        int
	hasSources      bool
	ignorable       bool
	seq0, time0     int64
	hasSeq0         bool
	hasTime0        bool
	values, depth   int   // of the whole record (scanner)
	span            int64 // of a packed row: the sum of its time gaps
}

// errSyntax marks a line that is not JSON at all (garbage, cut short,
// empty), as opposed to a JSON record of the wrong shape.
type errSyntax struct{ err error }

func (e errSyntax) Error() string { return e.err.Error() }

func unreadable(err error) bool {
	var s errSyntax
	return errors.As(err, &s)
}

// errOverCap is a record over one of the caps on what a read builds
// (maxValues, maxDepth, maxChunks).
type errOverCap struct {
	what     string
	n, limit int
}

func (e errOverCap) Error() string {
	return fmt.Sprintf("%s %d, over the cap of %d", e.what, e.n, e.limit)
}

// isPacked reports a packed chunk row's tag (no '/').
func isPacked(typ string) bool {
	return typ == "text-chunks" || typ == "reasoning-chunks" || typ == "tool-call-chunks"
}

// keyName is an object key decoded; it copies only a key with escapes.
func keyName(k []byte) []byte {
	if bytes.IndexByte(k, '\\') < 0 {
		return k
	}
	return unescape(nil, k)
}

// decodeRecord reads one line strictly: only the envelope's keys, and a
// packed row's exact shape. It returns how many events the record holds.
// Nothing of the line is built: the record's values are parts of line,
// valid while line is.
func decodeRecord(line []byte) (record, int, error) {
	var r record
	if len(line) == 0 {
		return r, 0, errSyntax{errors.New("empty line")}
	}
	var sc scanner
	v, err := sc.scanJSON(line)
	if err != nil {
		return r, 0, errSyntax{err}
	}
	r.values, r.depth = sc.values, sc.depth
	if !v.isObject() {
		return r, 0, errors.New("record is not a JSON object")
	}
	var bad error
	take := func(k []byte, v jv) bool {
		name := keyName(k)
		if ok := r.member(string(name), v); !ok {
			bad = fmt.Errorf("%s has the wrong type", name)
		} else if !envelopeKey(string(name)) {
			bad = fmt.Errorf("unknown top-level key %q", name) // the format allows no other
		}
		return bad == nil
	}
	if sc.many {
		v.members(take)
	} else {
		for _, m := range sc.top[:sc.ntop] {
			if !take(m.key, m.val) {
				break
			}
		}
	}
	if bad != nil {
		return r, 0, bad
	}
	n, err := r.check()
	return r, n, err
}

// check validates a record's envelope as a packed row or an event and
// returns how many events it holds.
func (r *record) check() (int, error) {
	if isPacked(r.typ) {
		if r.hasSeq || r.hasTime || r.surfaceOp != nil || r.hasSources || r.ignorable {
			return 0, errors.New("packed row has event keys")
		}
		if !r.hasSeq0 || !r.hasTime0 {
			return 0, errors.New("packed row lacks seq0 or time0")
		}
		n, span, err := packedCount(r.typ, r.data)
		r.span = span
		return n, err
	}
	if r.hasSeq0 || r.hasTime0 {
		return 0, errors.New("event has packed-row keys")
	}
	if r.typ == "" || !strings.Contains(r.typ, "/") || !r.hasSeq || !r.hasTime || r.data == nil {
		return 0, errors.New("event lacks type, seq, time or data")
	}
	return 1, nil
}

func envelopeKey(k string) bool {
	switch k {
	case "type", "seq", "time", "data", "surfaceOp", "sourceEventSeqs", "ignorable", "seq0", "time0":
		return true
	}
	return false
}

// member reads one envelope key's value into r; ok=false when it has the
// wrong type. An unknown key is left to the caller.
func (r *record) member(k string, v jv) (ok bool) {
	ok = true
	switch k {
	case "type":
		ok = v.isString()
		if ok {
			r.typ = internType(keyName(v[1 : len(v)-1]))
		} else {
			r.typ = ""
		}
	case "seq":
		r.seq, ok = v.int64Of()
		r.hasSeq = ok
	case "time":
		r.time, ok = v.int64Of()
		r.hasTime = ok
	case "data":
		r.data = v
	case "surfaceOp":
		if !v.isNull() {
			r.surfaceOp = v
		}
	case "sourceEventSeqs":
		if v.isNull() {
			break
		}
		if ok = v.isArray(); ok {
			r.hasSources, r.sources, r.nSources = true, v, 0
			v.elems(func(x jv) bool {
				r.nSources++
				_, ok = x.int64Of()
				return ok
			})
		}
	case "ignorable":
		if !v.isNull() {
			r.ignorable = v.isTrue()
			ok = r.ignorable || string(v) == "false"
		}
	case "seq0":
		r.seq0, ok = v.int64Of()
		r.hasSeq0 = ok
	case "time0":
		r.time0, ok = v.int64Of()
		r.hasTime0 = ok
	}
	return ok
}

// sourceSeqs is the record's sourceEventSeqs (checked integers).
func (r record) sourceSeqs() []int64 {
	out := make([]int64, 0, r.nSources)
	r.sources.elems(func(x jv) bool {
		n, _ := x.int64Of()
		out = append(out, n)
		return true
	})
	return out
}

// internType returns the shared string of a known type, so the events of
// a big log do not each hold a copy of their type.
func internType(b []byte) string {
	if t, ok := knownTypes[string(b)]; ok { // no allocation for the lookup
		return t
	}
	return string(b)
}

// packedCount validates a packed row's data and returns its member count
// and the sum of its time gaps.
func packedCount(typ string, data jv) (int, int64, error) {
	if data == nil {
		return 0, 0, errors.New("packed row has no data")
	}
	if !data.isObject() {
		return 0, 0, errors.New("packed row data is not an object")
	}
	want := []string{"turn", "step", "index", "dt", "texts"}
	payload := "texts"
	if typ == "tool-call-chunks" {
		want = []string{"turn", "step", "index", "id", "dt", "args"}
		payload = "args"
	}
	seen := 0
	var present uint8  // bit i: want[i] is there
	var found [2][2]jv // payload, dt: the first written as the key, the first spelled with escapes
	var bad error
	data.members(func(k []byte, v jv) bool {
		name := string(keyName(k))
		i := slices.Index(want, name)
		switch {
		case i >= 0:
			seen++
			present |= 1 << i
			f, escaped := -1, 0
			if bytes.IndexByte(k, '\\') >= 0 {
				escaped = 1
			}
			switch name {
			case payload:
				f = 0
			case "dt":
				f = 1
			}
			if f >= 0 && found[f][escaped] == nil {
				found[f][escaped] = v
			}
		case typ == "tool-call-chunks" && name == "name":
		default:
			bad = fmt.Errorf("packed row has unexpected key %q", name)
			return false
		}
		return true
	})
	if bad != nil {
		return 0, 0, bad
	}
	if seen != len(want) {
		for i, k := range want {
			if present&(1<<i) == 0 {
				return 0, 0, fmt.Errorf("packed row lacks %q", k)
			}
		}
		return 0, 0, errors.New("packed row repeats a key")
	}
	first := func(f [2]jv) jv { // as get finds it
		if f[0] != nil {
			return f[0]
		}
		return f[1]
	}
	return chunkArrays(payload, first(found[0]), first(found[1]))
}

// chunkArrays checks a packed row's payload (strings) and time gaps
// (one integer fewer) and returns the count and the gaps' sum.
func chunkArrays(payload string, items, dt jv) (int, int64, error) {
	if !items.isArray() {
		return 0, 0, fmt.Errorf("packed row %s is not an array", payload)
	}
	n, allStrings := 0, true
	items.elems(func(it jv) bool {
		n++
		allStrings = it.isString()
		return allStrings
	})
	if !allStrings {
		return 0, 0, fmt.Errorf("packed row %s holds a non-string", payload)
	}
	if n > maxChunks {
		return 0, 0, errOverCap{"a chunk row of entries:", n, maxChunks}
	}
	if !dt.isArray() {
		return 0, 0, errors.New("packed row dt is not an array")
	}
	gaps, ints := 0, true
	var span int64
	dt.elems(func(d jv) bool {
		gaps++
		var g int64
		g, ints = d.int64Of()
		span += g
		return ints
	})
	if !ints {
		return 0, 0, errors.New("packed row dt holds a non-integer")
	}
	if n == 0 || gaps != n-1 {
		return 0, 0, fmt.Errorf("packed row has %d gaps for %d chunks", gaps, n)
	}
	return n, span, nil
}

// decodeOp reads a surface event's surfaceOp: "append", or a replace of
// the current range start..end.
func decodeOp(ev *event, v jv) error {
	if v.isString() {
		if s, _ := v.str(); s != "append" {
			return fmt.Errorf("unknown surfaceOp %q", s)
		}
		return nil
	}
	if !v.isObject() || v.count() != 3 {
		return errors.New("surfaceOp must be \"append\" or {op, start, end}")
	}
	start, okS := v.get("start").int64Of()
	end, okE := v.get("end").int64Of()
	if !v.get("op").strIs("replace") || !okS || !okE || start < 0 || end < 0 {
		return fmt.Errorf("bad replace surfaceOp %s", v.compact())
	}
	ev.setExtra().replace = &[2]int64{start, end}
	return nil
}

// raw is a value's JSON text, compacted and detached from the line.
func raw(v jv) json.RawMessage { return v.compact() }

// openObject splits a JSON object into the string fields named in known
// (a null or string value) and the rest, kept verbatim, as the sessionref
// open objects read them.
func openObject(v jv, known map[string]*string) (map[string]json.RawMessage, error) {
	if !v.isObject() {
		return nil, errors.New("not an object")
	}
	var fields map[string]json.RawMessage
	v.members(func(k []byte, v jv) bool {
		name := string(keyName(k))
		if dst, ok := known[name]; ok {
			switch {
			case v.isString():
				*dst, _ = v.str()
				return true
			case v.isNull():
				return true
			}
		}
		if fields == nil {
			fields = map[string]json.RawMessage{}
		}
		fields[name] = raw(v)
		return true
	})
	return fields, nil
}

// decodeBlock reads one content block: type and text decoded, other
// fields verbatim.
func decodeBlock(v jv) (sessionref.Block, error) {
	var b sessionref.Block
	// One pass: the common shape, {"type":"text"|"reasoning","text":S},
	// comes out with no fields.
	fields, err := openObject(v, map[string]*string{"type": &b.Type, "text": &b.Text})
	if err != nil {
		return b, fmt.Errorf("content block is %s", err)
	}
	b.Fields = fields
	return b, nil
}

// decodeSource reads a message source.
func decodeSource(v jv) (sessionref.Source, error) {
	var s sessionref.Source
	if v == nil || v.isNull() {
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
func decodeShort(ev *event, data jv, keepText bool) (ok bool) {
	if !data.isObject() {
		return false
	}
	var f [3]jv // content, source, interrupted
	if ev.typ == sessionref.EventUserMessage {
		data.lookup(f[:], "content", "source", "interrupted")
	} else {
		var d [2]jv
		data.lookup(d[:], "message", "interrupted")
		if !d[0].isObject() {
			return false
		}
		d[0].lookup(f[:2], "content", "source")
		f[2] = d[1]
	}
	cv, sv := f[0], f[1]
	if !cv.isArray() {
		return false
	}
	var block jv
	n := 0
	cv.elems(func(it jv) bool { block, n = it, n+1; return n < 2 })
	if n != 1 || !block.isObject() {
		return false
	}
	var tx [2]jv
	if block.lookup(tx[:], "type", "text") != 2 {
		return false
	}
	t, x := tx[0], tx[1]
	if !t.isString() || !x.isString() || !t.strIs(sessionref.BlockText) {
		return false
	}
	k, ok := shortKind(ev.typ, sv)
	if !ok {
		return false
	}
	ev.short, ev.kind = true, k
	if f[2].isTrue() {
		ev.interrupted = true
	}
	if keepText {
		ev.text, _ = x.str()
		ev.tlen = int32(len(ev.text))
	} else {
		ev.tlen = int32(x.strLen())
	}
	return true
}

// shortKind is the index in shortKinds of the kind of source sv, a
// source with only its kind (or none); ok=false for any other.
func shortKind(typ string, sv jv) (uint8, bool) {
	kind := ""
	if sv != nil && !sv.isNull() {
		var kv [1]jv
		if !sv.isObject() || sv.lookup(kv[:], "kind") != 1 || !kv[0].isString() {
			return 0, false
		}
		kind, _ = kv[0].str()
	}
	if kind == "" {
		kind = defaultKind(typ)
	}
	k := slices.Index(shortKinds[:], kind)
	return uint8(max(k, 0)), k >= 0
}

// defaultKind is the source kind of a message without one.
func defaultKind(typ string) string {
	switch typ {
	case sessionref.EventUserMessage:
		return sessionref.SourceUser // legacy steering rows
	case sessionref.EventAssistantMessage:
		return sessionref.SourceModel
	}
	return sessionref.SourceTool
}

// decodeMessage reads a surface event's message. A user message is the
// data itself; assistant messages and tool results hold it under
// "message". Older web logs wrote a tool result's callId, content and
// isError directly in data; like the reference, that is read as one
// tool-result block whose content is data.content.
func decodeMessage(ev *event, data jv) error {
	if !data.isObject() {
		return errors.New("data is not an object")
	}
	var d [5]jv // message, callId, interrupted, content, source
	data.lookup(d[:], "message", "callId", "interrupted", "content", "source")
	m, f := data, d[3:]
	if ev.typ != sessionref.EventUserMessage {
		if inner := d[0]; inner != nil && !inner.isNull() {
			m = inner
			f = make([]jv, 2)
			m.lookup(f, "content", "source")
		} else if ev.typ == sessionref.EventToolResult && d[1] != nil {
			return decodeLegacyToolResult(ev, data)
		}
	}
	if !m.isObject() {
		return errors.New("message is not an object")
	}
	cv := f[0]
	if cv == nil || cv.isNull() {
		return errors.New("message has no content")
	}
	if !cv.isArray() {
		return errors.New("message content is not an array")
	}
	src, err := decodeSource(f[1])
	if err != nil {
		return err
	}
	if src.Kind == "" {
		src.Kind = defaultKind(ev.typ)
	}
	content, err := decodeContent(ev, cv)
	if err != nil {
		return err
	}
	if ev.typ == sessionref.EventToolResult {
		if cid, ok := f[1].get("callId").str(); ok {
			ev.setExtra().callID = cid
		}
	}
	seq := ev.seq
	ev.msg = &sessionref.Event{Seq: &seq, Type: ev.typ, Source: src, Content: content, Interrupted: d[2].isTrue()}
	return nil
}

// decodeContent reads a message's content blocks, noting in ev the ids
// of its tool calls and the call its tool result answers.
func decodeContent(ev *event, cv jv) ([]sessionref.Block, error) {
	var err error
	content := make([]sessionref.Block, 0, 2) // empty content is [], not null
	cv.elems(func(it jv) bool {
		var b sessionref.Block
		if b, err = decodeBlock(it); err != nil {
			return false
		}
		content = append(content, b)
		switch b.Type {
		case "tool-call":
			id, _ := it.get("id").str()
			x := ev.setExtra()
			x.toolCalls = append(x.toolCalls, id)
		case "tool-result":
			if ev.extra().callID == "" {
				if id, _ := it.get("toolCallId").str(); id != "" {
					ev.setExtra().callID = id
				}
			}
		}
		return true
	})
	return content, err
}

// decodeLegacyToolResult reads {callId, content, isError} in data.
func decodeLegacyToolResult(ev *event, data jv) error {
	id, ok := data.get("callId").str()
	if !ok {
		return errors.New("tool result callId is not a string")
	}
	cv := data.get("content")
	if !cv.isArray() {
		return errors.New("message has no content")
	}
	cid := json.RawMessage(quote(nil, id)) // the id as decoded, quoted again
	fields := map[string]json.RawMessage{"toolCallId": cid, "content": raw(cv)}
	if e := data.get("isError"); e != nil {
		fields["isError"] = raw(e)
	}
	ev.setExtra().callID = id
	seq := ev.seq
	ev.msg = &sessionref.Event{Seq: &seq, Type: ev.typ,
		Source:  sessionref.Source{Kind: sessionref.SourceTool, Fields: map[string]json.RawMessage{"callId": slices.Clone(cid)}},
		Content: []sessionref.Block{{Type: "tool-result", Fields: fields}}}
	return nil
}
