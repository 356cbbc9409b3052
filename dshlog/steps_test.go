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
	turnEnd := []byte(`{"type":"turn/end","seq":9,"time":1,"data":{}}` + "\n")
	other := []byte(`{"type":"step/start","seq":9,"time":1,"data":{}}` + "\n")
	syntax := errSyntax{errors.New("bad json")}
	cases := []struct {
		name    string
		zstd    bool
		torn    bool
		err     error
		gap     bool
		rest    []byte
		corrupt bool
	}{
		{"unreadable line, nothing after: a torn tail", false, false, syntax, false, other, false},
		{"unreadable line before a turn/end: corrupt", false, false, syntax, false, turnEnd, true},
		{"a gap before a turn/end: corrupt", false, false, nil, true, turnEnd, true},
		{"a record that reads but is invalid: corrupt", false, false, errors.New("no seq"), false, nil, true},
		{"inside a complete zstd frame: corrupt", true, false, syntax, false, nil, true},
		{"in a torn zstd frame: a torn tail", true, true, syntax, false, other, false},
	}
	for _, c := range cases {
		p := &parsed{path: "x.jsonl", zstd: c.zstd, line: 3}
		p.endPrefix([]byte(`{"type":`), c.rest, c.err, c.gap, 7, c.torn)
		if got := p.err != nil && errors.Is(p.err, ErrCorrupt); got != c.corrupt || (!c.corrupt && !p.stopped) {
			t.Errorf("%s: err %v, stopped %v", c.name, p.err, p.stopped)
		}
	}
}
