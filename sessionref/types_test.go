package sessionref

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
)

const surfaceFixture = `{"session":{"id":"source","cwd":null},"capturedThroughSeq":13,"events":[
 {"seq":2,"type":"user/message","source":{"kind":"plugin","plugin":"compact","compactionId":"c1"},"content":[{"type":"text","text":"<compacted-summary>checkpoint</compacted-summary>"}]},
 {"type":"user/message","source":{"kind":"user","rpcId":"r-1","clientTimeZone":"Europe/Paris"},"content":[{"type":"text","text":"recent user"},{"type":"image","attachment":{"id":"img-1","mime":"image/png"}}]},
 {"seq":8,"type":"assistant/message","source":{"kind":"model","provider":"deepseek","model":"v4"},"content":[{"type":"reasoning","text":"hmm"},{"type":"tool-call","id":"t1","name":"read","arguments":"{\"path\":\"a\"}"},{"type":"text","text":"visible answer"}]}
]}`

func TestSurfaceNeutralJSON(t *testing.T) {
	var s Surface
	if err := json.Unmarshal([]byte(surfaceFixture), &s); err != nil {
		t.Fatal(err)
	}
	if s.Session.ID != "source" || s.Session.Cwd != nil || *s.CapturedThroughSeq != 13 || len(s.Events) != 3 || s.Events[1].Seq != nil {
		t.Fatalf("decoded %+v", s)
	}
	if !s.Events[0].Source.IsCheckpoint() || string(s.Events[0].Source.Fields["compactionId"]) != `"c1"` {
		t.Fatalf("source fields lost: %+v", s.Events[0].Source)
	}
	img := s.Events[1].Content[1]
	if img.Type != "image" || string(img.Fields["attachment"]) != `{"id":"img-1","mime":"image/png"}` {
		t.Fatalf("unknown block lost: %+v", img)
	}
	// Marshalling keeps every field, and decodes back to the same value.
	out, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var again Surface
	if err := json.Unmarshal(out, &again); err != nil || !reflect.DeepEqual(again, s) {
		t.Fatalf("round trip differs:\n%s", out)
	}
	var want, got any
	json.Unmarshal([]byte(surfaceFixture), &want)
	json.Unmarshal(out, &got)
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("neutral form changed:\n%s", out)
	}
	// A fixture is a surface the resolver can use as it is.
	m := newMemStore()
	m.surfaces["source"] = s
	m.headers = []SessionHeader{s.Session}
	r, _ := NewResolver(m, Config{})
	p, err := r.Prepare(context.Background(), Target{ID: "t"}, nil, []Reference{{SessionID: "source"}})
	if err != nil || p.Context.Source.References[0].OriginalMessages != 3 || !p.Context.Source.References[0].Compacted {
		t.Fatalf("prepare over a fixture: %+v %v", p.Context, err)
	}
}

func FuzzBlockJSON(f *testing.F) {
	for _, s := range []string{`{"type":"text","text":"a\"b"}`, `{"type":"text","text":"x","extra":1}`, `{"type":"reasoning","text":"\\"}`, `{"type":"text","text":"a"} `, `{"type":"image","attachment":{}}`, `{"type":"text","text":"a","text":"b"}`,
		`{"type":"text","text":"l1\nl2\t\/\b\f\r"}`, `{"type":"text","text":"\u0041\ud83d\ude00\ud800"}`, "{\"type\":\"text\",\"text\":\"bad\xff\"}", `{"type":"text","text":"\x"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var fast, slow Block
		errFast := json.Unmarshal([]byte(s), &fast)
		var all map[string]json.RawMessage
		if json.Unmarshal([]byte(s), &all) != nil {
			return
		}
		if errFast != nil {
			t.Fatalf("an object failed to decode as a block: %v", errFast)
		}
		// The general path is the oracle: it keeps every field.
		var typ, text string
		fields, _ := unmarshalOpenObject([]byte(s), map[string]*string{"type": &typ, "text": &text})
		slow = Block{Type: typ, Text: text, Fields: fields}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("fast %+v, general %+v for %s", fast, slow, s)
		}
	})
}
