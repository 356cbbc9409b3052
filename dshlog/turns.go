package dshlog

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/dshkit/mentions/sessionref"
)

// turnState is what the crash-repair closers need of a segment's events,
// kept as the events are added so that the events themselves need not
// be: whether a turn and a step are open, the calls pending in the order
// they opened, and the seq each call was logged at. It is linear in the
// events: pending calls are kept in order with an index by id, and a
// result only marks its call closed.
type turnState struct {
	turnOpen, stepOpen bool
	order              []string         // pending call ids in the order they opened ("" once closed)
	pending            map[string]int   // id → its index in order, while pending
	callSeq            map[string]int64 // id → the seq of its tool/call
}

// apply takes the next event in seq order.
func (t *turnState) apply(e *event) {
	switch e.typ {
	case "turn/start":
		t.turnOpen = true
	case "turn/end":
		t.turnOpen, t.stepOpen = false, false
		t.reset()
	case "step/start":
		t.stepOpen = true
	case "step/end":
		t.stepOpen = false
		t.reset()
	case sessionref.EventAssistantMessage:
		for _, id := range e.extra().toolCalls {
			if _, ok := t.pending[id]; !ok {
				if t.pending == nil {
					t.pending = map[string]int{}
				}
				t.pending[id] = len(t.order)
				t.order = append(t.order, id)
			}
		}
	case "tool/call":
		if t.callSeq == nil {
			t.callSeq = map[string]int64{}
		}
		t.callSeq[e.extra().callID] = e.seq
	case sessionref.EventToolResult:
		if at, ok := t.pending[e.extra().callID]; ok {
			t.order[at] = "" // closed; a later call with this id opens anew
			delete(t.pending, e.extra().callID)
		}
	}
}

func (t *turnState) reset() {
	t.order = t.order[:0]
	clear(t.pending)
	clear(t.callSeq)
}

// clone is a copy sharing nothing that apply changes.
func (t turnState) clone() turnState {
	t.order = slices.Clone(t.order)
	t.pending = maps.Clone(t.pending)
	t.callSeq = maps.Clone(t.callSeq)
	return t
}

// closers returns the events the reference appends, in memory only, to a
// log whose last turn is still open: a tool result for every pending
// call, then step/end if a step is open, then turn/end (interrupted),
// from seq lastSeq+1. They are marked Synthetic: a log
// open on disk usually belongs to a live session.
func (t *turnState) closers(lastSeq int64) []event {
	if !t.turnOpen || lastSeq < 0 {
		return nil
	}
	next := lastSeq + 1
	var out []event
	for i, id := range t.order {
		if idx, ok := t.pending[id]; !ok || idx != i {
			continue // closed
		}
		c := &notStarted
		var sources []int64
		if s, ok := t.callSeq[id]; ok {
			c, sources = &outcomeUnknown, []int64{s}
		}
		out = append(out, event{seq: next, typ: sessionref.EventToolResult, x: &eventExtra{sources: sources, callID: id, closer: c}})
		next++
	}
	if t.stepOpen {
		out = append(out, event{seq: next, typ: "step/end"})
		next++
	}
	return append(out, event{seq: next, typ: "turn/end"})
}

// closerMessage is the synthetic tool result of e, a closer, built when
// it is read: a log with a hundred thousand pending calls keeps their ids,
// not a hundred thousand messages.
func closerMessage(e *event) sessionref.Event {
	x := e.extra()
	seq := e.seq
	idJSON, _ := json.Marshal(x.callID)
	return sessionref.Event{Seq: &seq, Type: sessionref.EventToolResult, Synthetic: true,
		Source: sessionref.Source{Kind: sessionref.SourceTool, Fields: map[string]json.RawMessage{"callId": idJSON}},
		Content: []sessionref.Block{{Type: "tool-result", Fields: map[string]json.RawMessage{
			"toolCallId": idJSON, "content": x.closer.content, "isError": json.RawMessage("true"), "error": x.closer.err}}}}
}
