package dshlog

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/dshkit/mentions/sessionref"
)

// turnEvents builds a run of turn, step and tool events from fuzz bytes,
// over a few call ids so calls open, close and reopen.
func turnEvents(ops []byte) []event {
	var evs []event
	for i, op := range ops {
		e := event{seq: int64(i)}
		id := fmt.Sprintf("c%d", op>>4&3)
		switch op & 7 {
		case 0:
			e.typ = "turn/start"
		case 1:
			e.typ = "turn/end"
		case 2:
			e.typ = "step/start"
		case 3:
			e.typ = "step/end"
		case 4:
			e.typ, e.x = sessionref.EventAssistantMessage, &eventExtra{toolCalls: []string{id, fmt.Sprintf("c%d", op>>6)}}
		case 5:
			e.typ, e.x = "tool/call", &eventExtra{callID: id}
		case 6:
			e.typ, e.x = sessionref.EventToolResult, &eventExtra{callID: id}
		default:
			e.typ = sessionref.EventUserMessage
		}
		evs = append(evs, e)
	}
	return evs
}

// FuzzTurnStateClone: events cut anywhere, the state so far cloned and
// the rest applied to the clone (as a torn frame's lines go to a fork),
// give the closers of the events applied in one run; the original stays
// as it was.
func FuzzTurnStateClone(f *testing.F) {
	f.Add([]byte{0, 2, 4, 5, 20, 21, 6, 3, 2, 4}, uint8(4))
	f.Add([]byte{0, 2, 4, 52, 1, 0, 4, 5}, uint8(2))
	f.Add([]byte{0, 4, 20, 36, 6, 22}, uint8(3))
	f.Fuzz(func(t *testing.T, ops []byte, cut uint8) {
		evs := turnEvents(ops)
		k := int(cut) % (len(evs) + 1)
		var whole turnState
		for i := range evs {
			whole.apply(&evs[i])
		}
		want := whole.closers(int64(len(evs)) - 1)

		var first turnState
		for i := range evs[:k] {
			first.apply(&evs[i])
		}
		before := first.clone()
		fork := first.clone()
		for i := k; i < len(evs); i++ {
			fork.apply(&evs[i])
		}
		if got := fork.closers(int64(len(evs)) - 1); !reflect.DeepEqual(got, want) {
			t.Fatalf("cut at %d: %+v, in one run %+v", k, got, want)
		}
		if !reflect.DeepEqual(first, before) {
			t.Fatal("applying events to a clone changed the original")
		}
	})
}
