package dshlog

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/sessionref"
)

// surfaceQuery hides a store's outline, so Prepare reads its surface.
type surfaceQuery struct{ sessionref.SessionQuery }

// TestSnapshotOfSingleMessageForm: a log whose person's message is stored
// in the single-message form (the snapshot of another session, then the
// direct message) gives a snapshot of its direct message only, whether
// the log is read as a surface or as an outline, and
// whether that message is kept or dropped by the budget.
func TestSnapshotOfSingleMessageForm(t *testing.T) {
	ctx := context.Background()
	fs := fakestore.New()
	if err := fs.Create("a", nil, time.UnixMilli(1)); err != nil {
		t.Fatal(err)
	}
	if _, err := fs.AppendUser("a", "words of a"); err != nil {
		t.Fatal(err)
	}
	fr, _ := sessionref.NewResolver(fs, sessionref.Config{})
	mention, _ := sessionref.FormatMention(sessionref.Reference{SessionID: "a"})
	p, err := fr.PrepareText(ctx, sessionref.Target{ID: "b"}, "look at "+mention)
	if err != nil {
		t.Fatal(err)
	}
	single, err := p.SingleMessage()
	if err != nil {
		t.Fatal(err)
	}

	var log strings.Builder
	log.WriteString(`{"type":"session","version":0,"id":"b","createdAt":1,"cwd":"/p","delegationDepth":0}` + "\n")
	seq := 0
	ev := func(typ, data string) {
		fmt.Fprintf(&log, `{"type":%q,"seq":%d,"time":%d,"data":%s,"surfaceOp":"append"}`+"\n", typ, seq, seq, data)
		seq++
	}
	text := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	ev("user/message", `{"content":[{"type":"text","text":`+text(single)+`}],"source":{"kind":"user"}}`)
	ev("assistant/message", `{"message":{"content":[{"type":"text","text":"a reply"}],"source":{"kind":"model"}}}`)
	ev("user/message", `{"content":[{"type":"text","text":`+text("newer, "+strings.Repeat("x", 300))+`}],"source":{"kind":"user"}}`)
	path := filepath.Join(t.TempDir(), "b.jsonl")
	place(t, filepath.Dir(path), []byte(log.String()), RawName)

	{
		for _, budget := range []int{1 << 16, 420} {
			var prompts [2]string
			var records [2]sessionref.ReferenceRecord
			for k, surface := range []bool{false, true} {
				s, err := Open(filepath.Dir(path))
				if err != nil {
					t.Fatal(err)
				}
				var q sessionref.SessionQuery = s
				if surface {
					q = surfaceQuery{s}
				}
				r, _ := sessionref.NewResolver(q, sessionref.Config{MaxReferenceBytes: budget})
				got, err := r.Prepare(ctx, sessionref.Target{ID: "c"}, nil, []sessionref.Reference{{SessionID: "b"}})
				if err != nil {
					t.Fatalf("budget %d, surface %v: %v", budget, surface, err)
				}
				prompts[k], records[k] = got.Context.Prompt(), got.Context.Source.References[0]
				if strings.Contains(prompts[k], "words of a") || strings.Count(prompts[k], sessionref.ContextOpenTag) != 1 {
					t.Fatalf("budget %d, surface %v: the snapshot nests the one it quoted:\n%s", budget, surface, prompts[k])
				}
			}
			if prompts[0] != prompts[1] || !reflect.DeepEqual(records[0], records[1]) {
				t.Fatalf("budget %d: outline and surface differ:\n%s\n%+v\n%s\n%+v", budget, prompts[0], records[0], prompts[1], records[1])
			}
			dropped := records[0].OmittedMessages > 0
			if budget == 1<<16 && (dropped || !strings.Contains(prompts[0], `"text":"look at @a"`)) || budget != 1<<16 && !dropped {
				t.Fatalf("budget %d: %+v\n%s", budget, records[0], prompts[0])
			}
		}
	}
}
