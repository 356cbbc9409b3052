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
