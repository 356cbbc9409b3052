package dshlog

import (
	"testing"

	"github.com/dshkit/mentions/sessionref"
)

// FuzzDecodeShort: a message the fast path reads is read the same by the
// full decoder followed by shorten — same kind, text, length and
// interrupted mark — so skipping the full decoder changes nothing.
func FuzzDecodeShort(f *testing.F) {
	for _, seed := range []string{
		`{"content":[{"type":"text","text":"hi"}],"source":{"kind":"user"}}`,
		`{"message":{"content":[{"type":"text","text":"a\u00e9\n"}],"source":{"kind":"model"}},"interrupted":true}`,
		`{"message":{"content":[{"type":"text","text":"x"}]}}`,
		`{"content":[{"type":"text","text":"x"}],"source":{"kind":null}}`,
		`{"content":[{"type":"text","text":"x","type":"text"}],"source":{"kind":"user"}}`,
		`{"content":[{"type":"text","text":"x"}],"source":{"kind":"plugin"}}`,
		`{"message":null,"callId":"c","content":[{"type":"text","text":"x"}]}`,
		`{"content":[{"type":"text","text":""}],"source":{"kind":""}}`,
	} {
		for typ := range 3 {
			f.Add(seed, uint8(typ))
		}
	}
	types := []string{sessionref.EventUserMessage, sessionref.EventAssistantMessage, sessionref.EventToolResult}
	f.Fuzz(func(t *testing.T, data string, typ uint8) {
		var sc scanner
		v, err := sc.scanJSON([]byte(data))
		if err != nil {
			return
		}
		fast := event{typ: types[int(typ)%len(types)], seq: 3}
		if !decodeShort(&fast, v, true) {
			return
		}
		full := event{typ: fast.typ, seq: 3}
		if err := decodeMessage(&full, v); err != nil {
			t.Fatalf("the fast path read %s, the full decoder fails: %v", data, err)
		}
		full.shorten()
		if !full.short || full.kind != fast.kind || full.text != fast.text || full.tlen != fast.tlen ||
			full.interrupted != fast.interrupted || full.x != nil {
			t.Fatalf("%s as %s:\nfast %+v\nfull %+v", data, fast.typ, fast, full)
		}
		lazy := event{typ: fast.typ, seq: 3}
		if !decodeShort(&lazy, v, false) || lazy.text != "" || lazy.tlen != fast.tlen {
			t.Fatalf("without its text: %+v", lazy)
		}
	})
}
