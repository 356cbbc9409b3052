package claudecode_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dshkit/mentions/agentlog/claudecode"
	"github.com/dshkit/mentions/sessionref"
)

// FuzzTranscript: any bytes as a transcript list or are skipped, never
// panic; a listed session's outline agrees with its surface, every
// event is one of the three kinds a snapshot reads, and no seq is past
// the captured one.
func FuzzTranscript(f *testing.F) {
	for _, name := range []string{"session.jsonl", "queued.jsonl", "queued-old.jsonl"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		for _, l := range bytes.SplitAfter(b, []byte("\n")) {
			f.Add(l)
		}
	}
	f.Add([]byte(`{"type":"user","uuid":"a","parentUuid":"a","message":{"content":"loop"}}` + "\n"))
	f.Add([]byte(`{"type":"user","uuid":"b","parentUuid":"c","message":{"content":"x"}}` + "\n" + `{"type":"assistant","uuid":"c","parentUuid":"b","message":{"content":[{"type":"text","text":"y"}]}}` + "\n"))
	// Queued prompts: one riding before any line, one naming its own uuid
	// as the uuid it was queued under, two under one uuid, odd shapes.
	f.Add([]byte(`{"type":"attachment","attachment":{"type":"queued_command","prompt":"a"}}` + "\n" + `{"type":"user","uuid":"u","message":{"content":"b"}}` + "\n"))
	f.Add([]byte(`{"type":"attachment","uuid":"q","attachment":{"type":"queued_command","prompt":"a","source_uuid":"q"}}` + "\n"))
	f.Add([]byte(`{"type":"user","uuid":"s","message":{"content":"a"}}` + "\n" + `{"type":"attachment","uuid":"q","parentUuid":"s","attachment":{"type":"queued_command","prompt":[{"type":"text","text":"a"}],"source_uuid":"s"}}` + "\n" + `{"type":"attachment","parentUuid":"q","attachment":{"type":"queued_command","prompt":"a","source_uuid":"s"}}` + "\n"))
	f.Add([]byte(`{"type":"attachment","uuid":"q","attachment":{"type":"queued_command","prompt":7,"commandMode":null,"origin":"human","isMeta":"x"}}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "p"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "p", "s.jsonl"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := claudecode.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		h, err := s.ListSessions(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(h) == 0 {
			return
		}
		sf, err := s.ReadSurface(ctx, h[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		o, err := s.ReadOutline(ctx, h[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		want := sessionref.SurfaceOutline(sf)
		if !slices.Equal(o.Messages, want.Messages) || len(o.Messages) != len(sf.Events) {
			t.Fatalf("outline %+v, surface %+v", o.Messages, want.Messages)
		}
		for i, e := range sf.Events {
			if *e.Seq > *sf.CapturedThroughSeq {
				t.Fatalf("event %d: seq %d past %d", i, *e.Seq, *sf.CapturedThroughSeq)
			}
			if text, err := o.Text(ctx, i); err != nil || text != e.Content[0].Text {
				t.Fatalf("text %d: %q %v", i, text, err)
			}
		}
		if err := sessionref.CheckSurface(sf); err != nil {
			t.Fatal(err)
		}
	})
}
