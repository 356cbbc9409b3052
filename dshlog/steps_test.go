package dshlog

import (
	"errors"
	"testing"
)

// The steps of decodeLines, each on its own: when a record breaks the
// sequence, and what a line that ends the valid prefix comes to.
func TestDecodeSteps(t *testing.T) {
	if seqGap(record{typ: "turn/start", seq: 5}, 5) || !seqGap(record{typ: "turn/start", seq: 6}, 5) {
		t.Fatal("seqGap of an event")
	}
	if seqGap(record{typ: "text-chunks", seq0: 5}, 5) || !seqGap(record{typ: "text-chunks", seq0: 4}, 5) {
		t.Fatal("seqGap of a packed row")
	}
	const head = `{"type":"session","version":0,"id":"x","createdAt":1}`
	const ok = `{"type":"turn/start","seq":0,"time":1,"data":{}}`
	const gap = `{"type":"step/start","seq":5,"time":1,"data":{}}`
	const gapEnd = `{"type":"turn/end","seq":5,"time":1,"data":{"reason":{"kind":"completed"}}}`
	const turnEnd = `{"type":"turn/end","seq":1,"time":1,"data":{"reason":{"kind":"completed"}}}`
	const other = `{"type":"step/start","seq":1,"time":1,"data":{}}`
	const invalid = `{"type":"turn/start","time":1,"data":{}}`
	cases := []struct {
		name    string
		path    string
		torn    bool
		lines   []string
		corrupt bool
	}{
		{"unreadable line, nothing after: a torn tail", "x.jsonl", false, []string{"{bad", other}, false},
		{"unreadable line before a turn/end: corrupt", "x.jsonl", false, []string{"{bad", turnEnd}, true},
		{"a gap before a turn/end: corrupt", "x.jsonl", false, []string{gap, turnEnd}, true},
		{"a gap that is a turn/end: corrupt", "x.jsonl", false, []string{gapEnd}, true},
		{"a record that reads but is invalid: corrupt", "x.jsonl", false, []string{invalid}, true},
		{"inside a complete zstd frame: corrupt", "x.jsonl.zstd", false, []string{"{bad"}, true},
		{"in a torn zstd frame: a torn tail", "x.jsonl.zstd", true, []string{"{bad", turnEnd}, false},
	}
	for _, c := range cases {
		ix := newIndex(c.path)
		ix.Line(1, 0, []byte(head))
		ix.Line(2, 0, []byte(ok))
		if c.torn {
			ix = ix.Fork()
		}
		for i, l := range c.lines {
			ix.Line(3+i, 0, []byte(l))
		}
		corrupt := ix.err != nil && errors.Is(ix.err, ErrCorrupt)
		if corrupt != c.corrupt || !c.corrupt && !ix.stopped && !ix.tornDone {
			t.Errorf("%s: err %v, stopped %v", c.name, ix.err, ix.stopped)
		}
	}
}
