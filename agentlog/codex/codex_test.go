package codex_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dshkit/mentions/agentlog"
	"github.com/dshkit/mentions/agentlog/codex"
	"github.com/dshkit/mentions/agentlog/internal/logtest"
	"github.com/dshkit/mentions/sessionref"
)

const (
	uid  = "0199a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b"
	name = "sessions/2026/03/02/rollout-2026-03-02T09-00-00-" + uid + ".jsonl"
)

func fixture(t testing.TB, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func firstLines(t *testing.T, n int) []byte {
	return logtest.FirstLines(fixture(t, "rollout.jsonl"), n)
}

func home(t *testing.T, files map[string][]byte) string { return logtest.Tree(t, files) }

func open(t *testing.T, dir string, opts ...agentlog.Option) *agentlog.Store {
	t.Helper()
	s, err := codex.Open(dir, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type turn struct {
	seq  int64
	kind string
	text string
}

func turns(t *testing.T, s *agentlog.Store, id string) ([]turn, sessionref.Surface) {
	t.Helper()
	sf, err := s.ReadSurface(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return logtest.Turns(t, sf, func(seq int64, kind, text string) turn { return turn{seq, kind, text} }), sf
}

// Before the compaction: the person's words and the replies, once each
// (the event_msg mirrors are not counted), without the instructions, the
// environment, the developer message, reasoning, tool calls and their
// output, the image and its tags, the turn the rollback dropped and the
// aborted-turn note.
func TestProjection(t *testing.T) {
	dir := home(t, map[string][]byte{name: firstLines(t, 21)})
	s := open(t, dir)
	got, sf := turns(t, s, codex.Prefix+uid)
	want := []turn{
		{6, "user", "Why does the health check flap?"},
		{11, "assistant", "The probe times out after 1s, and the handler sometimes takes longer."},
		{14, "user", "Here is the latency graph"},
		{15, "assistant", "The spikes match GC pauses."},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("surface\n got %v\nwant %v", got, want)
	}
	if sf.Session.Cwd == nil || *sf.Session.Cwd != "/home/ann/svc" || sf.Session.CreatedAt != 1772442000000 {
		t.Fatalf("header %+v", sf.Session)
	}
	_, titles, err := s.ListSessionsWithTitles(context.Background())
	if err != nil || titles[0].Title == nil || titles[0].Title.Text != "Why does the health check flap?" {
		t.Fatalf("title %+v %v", titles, err)
	}
	st := s.Stats()
	if st.Sessions != 1 || st.Bad != 1 || st.Unknown != 1 {
		t.Fatalf("stats %+v", st)
	}
}

// A compacted item is the checkpoint: what came before it goes. The
// rename is the title; the session index, when it names the session,
// wins.
func TestCompactedAndTitles(t *testing.T) {
	dir := home(t, map[string][]byte{name: fixture(t, "rollout.jsonl")})
	s := open(t, dir)
	id := codex.Prefix + uid
	got, sf := turns(t, s, id)
	want := []turn{
		{22, "checkpoint", "Summary: the health check flapped because GC pauses outlast the 1s probe timeout."},
		{23, "user", "Make the timeout configurable"},
		{24, "assistant", "Done: HEALTH_TIMEOUT sets it."},
	}
	if !slices.Equal(got, want) || *sf.CapturedThroughSeq != 25 {
		t.Fatalf("surface\n got %v (captured %d)\nwant %v", got, *sf.CapturedThroughSeq, want)
	}
	tr, err := s.ReadTitles(context.Background(), []string{id})
	if err != nil || tr[0].Title == nil || tr[0].Title.Text != "Health check flapping" {
		t.Fatalf("title %+v %v", tr, err)
	}
	idx := `{"id":"` + strings.ToUpper(uid) + `","thread_name":"old name","updated_at":"2026-03-02T10:00:00Z"}` + "\n" +
		`{"id":"` + uid + `","thread_name":"Flapping probe","updated_at":"2026-03-02T11:00:00Z"}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "session_index.jsonl"), []byte(idx), 0o644); err != nil {
		t.Fatal(err)
	}
	tr, err = s.ReadTitles(context.Background(), []string{id})
	if err != nil || tr[0].Title == nil || tr[0].Title.Text != "Flapping probe" || tr[0].Title.EventSeq != 2 {
		t.Fatalf("title from the index %+v %v", tr[0].Title, err)
	}
}

// The first rollout format (no envelope, a bare header line) is read.
func TestLegacy(t *testing.T) {
	dir := home(t, map[string][]byte{"sessions/2025/04/20/rollout-2025-04-20-5973b6c0-94b8-487b-a530-2aeb6098ae0e.jsonl": fixture(t, "legacy.jsonl")})
	s := open(t, dir)
	got, sf := turns(t, s, "codex:5973b6c0-94b8-487b-a530-2aeb6098ae0e")
	want := []turn{{4, "user", "List the files"}, {6, "assistant", "There are two: a.go and b.go."}}
	if !slices.Equal(got, want) || sf.Session.CreatedAt != 1745150400000 {
		t.Fatalf("got %v, header %+v", got, sf.Session)
	}
}

// Archived rollouts are listed; a session in both trees once, from
// sessions; links, FIFOs and badly named files are skipped and counted.
func TestFind(t *testing.T) {
	other := "11111111-2222-4333-8444-555555555555"
	dir := home(t, map[string][]byte{
		name: fixture(t, "rollout.jsonl"),
		"archived_sessions/rollout-2026-03-02T09-00-00-" + uid + ".jsonl":   fixture(t, "rollout.jsonl"),
		"archived_sessions/rollout-2026-01-01T00-00-00-" + other + ".jsonl": fixture(t, "legacy.jsonl"),
		"sessions/2026/03/02/rollout-nothing.jsonl":                         fixture(t, "legacy.jsonl"),
		"sessions/2026/03/02/notes.txt":                                     []byte("x"),
		"sessions/a/b/c/d/rollout-2026-01-01T00-00-00-" + other + ".jsonl":  fixture(t, "legacy.jsonl"),
	})
	if err := os.Symlink(filepath.Join(dir, name), filepath.Join(dir, "sessions", "2026", "rollout-2026-03-02T09-00-00-22222222-2222-4333-8444-555555555555.jsonl")); err != nil {
		t.Fatal(err)
	}
	s := open(t, dir)
	h, err := s.ListSessions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, x := range h {
		ids = append(ids, x.ID)
	}
	if want := []string{codex.Prefix + uid, codex.Prefix + other}; !slices.Equal(ids, want) {
		t.Fatalf("ids %v, want %v", ids, want)
	}
	st := s.Stats()
	for reason, n := range map[string]int{
		"a symbolic link (not followed)":                     1,
		"a rollout whose name ends in no session id":         1,
		"the same session id found twice (archived and not)": 1,
		"a folder deeper than the dated layout":              1,
	} {
		if st.Skipped[reason] != n {
			t.Errorf("skipped %q: %d, want %d (all %v)", reason, st.Skipped[reason], n, st.Skipped)
		}
	}
	if err := sessionref.CheckStore(context.Background(), s); err != nil {
		t.Fatal(err)
	}
}

// A Codex home with no rollout folders is an error that says what was
// looked for.
func TestNoSessions(t *testing.T) {
	s := open(t, t.TempDir())
	_, err := s.ListSessions(context.Background())
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "sessions") {
		t.Fatalf("got %v", err)
	}
}

// FuzzRollout: any bytes as a rollout list or are skipped, never panic;
// the outline agrees with the surface.
func FuzzRollout(f *testing.F) {
	b := fixture(f, "rollout.jsonl")
	f.Add(b)
	f.Add(fixture(f, "legacy.jsonl"))
	for _, l := range bytes.SplitAfter(b, []byte("\n")) {
		f.Add(l)
	}
	f.Add([]byte(`{"type":"compacted","payload":{"message":"","replacement_history":[{"type":"message","role":"user","content":[{"type":"input_text","text":"kept"}]}]}}` + "\n"))
	f.Add([]byte(`{"type":"event_msg","payload":{"type":"thread_rolled_back","num_turns":-3}}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		s := open(t, dir)
		ctx := context.Background()
		h, err := s.ListSessions(ctx)
		if err != nil || len(h) == 0 {
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
		if !slices.Equal(o.Messages, sessionref.SurfaceOutline(sf).Messages) {
			t.Fatalf("outline %+v, surface %+v", o.Messages, sf.Events)
		}
		for i, e := range sf.Events {
			if text, err := o.Text(ctx, i); err != nil || text != e.Content[0].Text {
				t.Fatalf("text %d: %q %v", i, text, err)
			}
		}
		if err := sessionref.CheckSurface(sf); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzSessionIndex: any bytes as the session index give titles or none,
// never a panic, and a listed session keeps its id whatever the index
// says.
func FuzzSessionIndex(f *testing.F) {
	f.Add([]byte(`{"id":"` + uid + `","thread_name":"A name","updated_at":"2026-03-02T11:00:00Z"}` + "\n"))
	f.Add([]byte(`{"id":"` + uid + `","thread_name":""}` + "\n" + `not json` + "\n" + `{"id":7}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, fixture(t, "rollout.jsonl"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "session_index.jsonl"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		s := open(t, dir)
		h, titles, err := s.ListSessionsWithTitles(context.Background())
		if err != nil || len(h) != 1 || h[0].ID != codex.Prefix+uid || titles[0].Title == nil || titles[0].Title.Text == "" {
			t.Fatalf("%+v %+v %v", h, titles, err)
		}
	})
}
