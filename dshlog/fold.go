package dshlog

import (
	"encoding/json"

	"github.com/dshkit/mentions/sessionref"
)

// Error codes of the synthetic tool results the crash-repair closers add.
const (
	CodeToolOutcomeUnknown = "TOOL_OUTCOME_UNKNOWN"
	CodeToolNotStarted     = "TOOL_NOT_STARTED"
)

// closerKind is the fixed part of a synthetic tool result.
type closerKind struct{ content, err json.RawMessage }

func newCloserKind(code, text string) closerKind {
	content, _ := json.Marshal([]map[string]string{{"type": "text", "text": text}})
	return closerKind{content, json.RawMessage(`{"name":"ToolError","code":"` + code + `"}`)}
}

var (
	notStarted     = newCloserKind(CodeToolNotStarted, "The tool never started: the session stopped first.")
	outcomeUnknown = newCloserKind(CodeToolOutcomeUnknown, "The tool's outcome is unknown: the session stopped before it reported.")
)

// view is a log's events in seq order, in segments (committed events,
// the torn frame's, the closers) so a read does not copy them into one
// list.
type view []segment

// at returns the kept event with seq, or nil.
func (v view) at(seq int64) *event {
	for _, seg := range v {
		if e := seg.find(seq); e != nil {
			return e
		}
	}
	return nil
}

// lastSeq is the seq of the view's last event, -1 when it has none.
func (v view) lastSeq() int64 {
	last := int64(-1)
	for _, seg := range v {
		last = max(last, seg.next-1)
	}
	return last
}

// fold computes the current surface (docs/dsh-logs.md: append pushes; replace splices
// out a current range and puts the new event where it began), checking
// the fold's structure as it goes. It returns the surface as seqs, in
// surface order. Its cost is linear in the events and their sources: the
// surface is a linked list with an index by seq, so a replace finds its
// range at once and walks only the nodes it removes (a range named the
// wrong way round walks to the end once, and is an error).
func fold(path string, v view) ([]int64, error) {
	l := newNodeList(v)
	f := folder{path: path, l: l, toolResult: func(seq int64) bool { return v.at(seq).typ == sessionref.EventToolResult }}
	for _, seg := range v {
		for _, part := range seg.chunks {
			for i := range part {
				if err := f.take(&part[i]); err != nil {
					return nil, err
				}
			}
		}
	}
	return l.seqs(), nil
}

// surfaceList is the surface as a fold builds it: the current messages'
// seqs in surface order, each at a node.
type surfaceList interface {
	push(seq int64)
	// find returns the node of seq, if seq is current.
	find(seq int64) (node int64, ok bool)
	// after returns the node after n, if n is not the last.
	after(n int64) (int64, bool)
	seqAt(n int64) int64
	// replace swaps the nodes first..last (in order) for one of seq.
	replace(first, last int64, seq int64)
}

// folder applies a log's surface events, in seq order, to a surface.
type folder struct {
	path       string
	l          surfaceList
	seen       map[int64]bool
	toolResult func(seq int64) bool // the message of a current seq is a tool result
}

// take applies one event: a message is appended or replaces a range;
// any other event is not on the surface.
func (f *folder) take(e *event) error {
	if !e.isMessage() {
		return nil
	}
	x := e.extra()
	if err := f.cite(e, x.sources); err != nil {
		return err
	}
	if x.replace == nil {
		f.l.push(e.seq)
		return nil
	}
	first, okS := f.l.find(x.replace[0])
	last, okE := f.l.find(x.replace[1])
	if !okS || !okE {
		return f.badRange(e, x.replace)
	}
	count, err := f.walkRange(e, x, first, last)
	if err != nil {
		return err
	}
	if e.typ == sessionref.EventToolResult && (count != 1 || !f.toolResult(f.l.seqAt(first))) {
		return logErr(f.path, int(e.line), ErrCorrupt, "a tool/result replace must shadow exactly one tool/result")
	}
	f.l.replace(first, last, e.seq)
	return nil
}

// cite remembers the seqs a message cites (sourceEventSeqs), which must
// be unique and earlier than its own.
func (f *folder) cite(e *event, sources []int64) error {
	if len(sources) == 0 {
		return nil
	}
	if len(f.seen) > 64 || f.seen == nil {
		f.seen = make(map[int64]bool, len(sources)) // clearing a big map costs its size
	} else {
		clear(f.seen)
	}
	for _, s := range sources {
		if s < 0 || s >= e.seq || f.seen[s] {
			return logErr(f.path, int(e.line), ErrCorrupt, "sourceEventSeqs of seq %d must be unique, earlier seqs", e.seq)
		}
		f.seen[s] = true
	}
	return nil
}

// badRange is the error of a replace that names no current range.
func (f *folder) badRange(e *event, r *[2]int64) error {
	return logErr(f.path, int(e.line), ErrCorrupt, "replace %d..%d does not name a current range", r[0], r[1])
}

// walkRange walks a replace's range from first: every node must be
// cited, and the walk must reach last. It returns the range's length.
func (f *folder) walkRange(e *event, x *eventExtra, first, last int64) (int, error) {
	count := 0
	for n, more := first, true; ; {
		if !more {
			return 0, f.badRange(e, x.replace)
		}
		s := f.l.seqAt(n)
		if len(x.sources) == 0 || !f.seen[s] {
			if !reaches(f.l, n, last) {
				return 0, f.badRange(e, x.replace)
			}
			return 0, logErr(f.path, int(e.line), ErrCorrupt, "replace at seq %d does not cite shadowed seq %d", e.seq, s)
		}
		count++
		if n == last {
			return count, nil
		}
		n, more = f.l.after(n)
	}
}

// reaches reports whether last comes at or after n.
func reaches(l surfaceList, n, last int64) bool {
	for more := true; more; n, more = l.after(n) {
		if n == last {
			return true
		}
	}
	return false
}

// nodeList is the surface being folded: a doubly linked list of seqs in
// arrays, with each current seq's node.
type nodeList struct {
	seq        []int64
	prev, next []int32
	head, tail int32
	live       int
	// Each current seq's node: by seq in dense (-1 for none) when the
	// log's seqs are not many more than its messages (the usual log),
	// else in sparse (streamed chunks take seqs and are not kept).
	dense  []int32
	sparse map[int64]int32
}

// newNodeList is an empty list sized for v's messages.
func newNodeList(v view) *nodeList {
	msgs, maxSeq := 0, int64(-1)
	for _, seg := range v {
		seg.each(func(e *event) {
			if e.isMessage() {
				msgs++
				maxSeq = max(maxSeq, e.seq)
			}
		})
	}
	l := &nodeList{head: -1, tail: -1, seq: make([]int64, 0, msgs),
		prev: make([]int32, 0, msgs), next: make([]int32, 0, msgs)}
	if seqs := maxSeq + 1; denseSeqs(seqs, int64(msgs)) {
		l.dense = make([]int32, seqs)
		for i := range l.dense {
			l.dense[i] = -1
		}
	} else {
		l.sparse = make(map[int64]int32, msgs)
	}
	return l
}

// denseSeqs decides when a list indexes its nodes by seq in a slice:
// when the log's seqs are at most 8 times its messages (plus 1024), so
// the slice costs at most 32 bytes a message.
var denseSeqs = func(seqs, msgs int64) bool { return seqs <= 8*msgs+1024 }

// node returns seq's node, if seq is current.
func (l *nodeList) node(seq int64) (int32, bool) {
	if l.sparse != nil {
		n, ok := l.sparse[seq]
		return n, ok
	}
	if seq < 0 || seq >= int64(len(l.dense)) || l.dense[seq] < 0 {
		return 0, false
	}
	return l.dense[seq], true
}

// setNode records seq's node; n < 0: seq is no longer current.
func (l *nodeList) setNode(seq int64, n int32) {
	if n >= 0 {
		l.live++
	} else {
		l.live--
	}
	if l.sparse == nil {
		l.dense[seq] = n
	} else if n >= 0 {
		l.sparse[seq] = n
	} else {
		delete(l.sparse, seq)
	}
}

func (l *nodeList) push(seq int64) {
	n := int32(len(l.seq))
	l.seq, l.prev, l.next = append(l.seq, seq), append(l.prev, l.tail), append(l.next, -1)
	if l.tail >= 0 {
		l.next[l.tail] = n
	} else {
		l.head = n
	}
	l.tail = n
	l.setNode(seq, n)
}

func (l *nodeList) find(seq int64) (int64, bool) {
	n, ok := l.node(seq)
	return int64(n), ok
}

func (l *nodeList) after(n int64) (int64, bool) {
	next := l.next[n]
	return int64(next), next >= 0
}

func (l *nodeList) seqAt(n int64) int64 { return l.seq[n] }

func (l *nodeList) replace(first64, last64 int64, seq int64) {
	first, last := int32(first64), int32(last64)
	for n := first; ; n = l.next[n] {
		l.setNode(l.seq[n], -1)
		if n == last {
			break
		}
	}
	n := int32(len(l.seq))
	before, after := l.prev[first], l.next[last]
	l.seq, l.prev, l.next = append(l.seq, seq), append(l.prev, before), append(l.next, after)
	if before >= 0 {
		l.next[before] = n
	} else {
		l.head = n
	}
	if after >= 0 {
		l.prev[after] = n
	} else {
		l.tail = n
	}
	l.setNode(seq, n)
}

// seqs is the list in order.
func (l *nodeList) seqs() []int64 {
	out := make([]int64, 0, l.live)
	for n := l.head; n >= 0; n = l.next[n] {
		out = append(out, l.seq[n])
	}
	return out
}
