package agentlog_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dshkit/mentions/agentlog"
	"github.com/dshkit/mentions/agentlog/claudecode"
	"github.com/dshkit/mentions/agentlog/codex"
	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/sessionref"
)

const (
	claudeID = "claude:0a1b2c3d-0000-4000-8000-000000000001"
	codexID  = "codex:0199a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b"
)

func place(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// joined is a host store with two sessions and the Claude Code and
// Codex fixtures.
func joined(t *testing.T) (*agentlog.Joined, *fakestore.Store) {
	t.Helper()
	dir := t.TempDir()
	place(t, "claudecode/testdata/session.jsonl", filepath.Join(dir, "claude", "-home-ann-proj", "0a1b2c3d-0000-4000-8000-000000000001.jsonl"))
	place(t, "codex/testdata/rollout.jsonl", filepath.Join(dir, "codex", "sessions", "2026", "03", "02", "rollout-2026-03-02T09-00-00-0199a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b.jsonl"))
	cc, err := claudecode.Open(filepath.Join(dir, "claude"))
	if err != nil {
		t.Fatal(err)
	}
	cx, err := codex.Open(filepath.Join(dir, "codex"))
	if err != nil {
		t.Fatal(err)
	}
	host := fakestore.New()
	proj, other := "/home/ann/proj", "/elsewhere"
	for _, s := range []struct {
		id, title string
		cwd       *string
		at        time.Time
	}{
		{"dsh-new", "Newest host session", &other, time.Date(2026, 3, 5, 0, 0, 0, 0, time.UTC)},
		{"dsh-proj", "Host session in proj", &proj, time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)},
	} {
		if err := host.Create(s.id, s.cwd, s.at); err != nil {
			t.Fatal(err)
		}
		host.SetTitle(s.id, s.title)
		host.AppendUser(s.id, "hello from "+s.id)
	}
	return agentlog.Join(host, cc, cx), host
}

// Joined candidates rank as one store's would (same folder first, then
// newest), agents' titles carry their badge, host ids are untouched, and
// every id is read from its own store.
func TestJoin(t *testing.T) {
	j, _ := joined(t)
	ctx := context.Background()
	r, err := sessionref.NewResolver(j, sessionref.Config{})
	if err != nil {
		t.Fatal(err)
	}
	proj := "/home/ann/proj"
	cs, err := r.ListCandidates(ctx, sessionref.Target{ID: "me", Cwd: &proj}, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cs {
		got = append(got, c.SessionID+" | "+c.Label)
	}
	want := []string{
		claudeID + " | claude · Retry work", // this folder, created 2026-03-01
		"dsh-proj | Host session in proj",   // this folder, created 2026-02-01
		"dsh-new | Newest host session",     // other folders, newest first
		codexID + " | codex · Health check flapping",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("candidates\n got %q\nwant %q", got, want)
	}
	// A filtered query goes through the titles: "claude" finds the badge.
	cs, err = r.ListCandidates(ctx, sessionref.Target{ID: "me"}, "codex ·", 10)
	if err != nil || len(cs) != 1 || cs[0].SessionID != codexID {
		t.Fatalf("filtered: %v %v", cs, err)
	}
	for _, id := range []string{claudeID, codexID, "dsh-new"} {
		sf, err := j.ReadSurface(ctx, id)
		if err != nil || sf.Session.ID != id || len(sf.Events) == 0 {
			t.Fatalf("%s: %+v %v", id, sf.Session, err)
		}
		uri, _ := sessionref.EncodeURI(id)
		if back, err := sessionref.DecodeURI(uri); err != nil || back != id {
			t.Fatalf("%s does not round-trip: %q %v", id, back, err)
		}
	}
	if j.BadgeOf(claudeID) != "claude" || j.BadgeOf(codexID) != "codex" || j.BadgeOf("dsh-new") != "" {
		t.Fatal("badges")
	}
	tr, err := j.ReadTitles(ctx, []string{"dsh-new", codexID, "claude:missing"})
	if err != nil || tr[0].Title.Text != "Newest host session" || tr[1].Title.Text != "codex · Health check flapping" || tr[2].Err == nil {
		t.Fatalf("titles %+v %v", tr, err)
	}
	seqs, err := j.CapturedSeqs(ctx, []string{codexID, "dsh-new", claudeID})
	if err != nil || len(seqs) != 3 || *seqs[0] != 25 || *seqs[2] != 23 || seqs[1] == nil {
		t.Fatalf("seqs %v %v", seqs, err)
	}
	vs, err := j.SessionVersions(ctx, []string{codexID, "dsh-new"})
	if err != nil || vs[0] == "" || vs[1] != "" {
		t.Fatalf("versions %q %v", vs, err)
	}
	// Prepare over the join: the envelope names the agent's session.
	label := "codex · Health check flapping"
	p, err := r.Prepare(ctx, sessionref.Target{ID: "me"}, []sessionref.Block{sessionref.TextBlock("look")}, []sessionref.Reference{{SessionID: codexID, Label: &label}})
	if err != nil || !strings.Contains(p.Context.Prompt(), "HEALTH_TIMEOUT") {
		t.Fatalf("prepare: %v", err)
	}
}

// With a host badge, the host's titled sessions carry it too.
func TestJoinBadged(t *testing.T) {
	j, host := joined(t)
	b := agentlog.JoinBadged(host, "dsh", j.Agents()...)
	_, titles, err := b.ListSessionsWithTitles(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range titles {
		got = append(got, r.Title.Text)
	}
	want := []string{"dsh · Newest host session", "codex · Health check flapping", "claude · Retry work", "dsh · Host session in proj"}
	if !slices.Equal(got, want) {
		t.Fatalf("titles %q, want %q", got, want)
	}
	tr, err := b.ReadTitles(context.Background(), []string{"dsh-proj"})
	if err != nil || tr[0].Title.Text != "dsh · Host session in proj" || b.BadgeOf("dsh-proj") != "dsh" {
		t.Fatalf("%+v %v", tr, err)
	}
	// A host session without a title is titled by its id after the
	// badge (its id does not say where it came from); an agent's keeps
	// its id, which does.
	if err := host.Create("untitled", nil, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	tr, err = b.ReadTitles(context.Background(), []string{"untitled"})
	if err != nil || tr[0].Title == nil || tr[0].Title.Text != "dsh · untitled" {
		t.Fatalf("an untitled host session: %+v %v", tr, err)
	}
	if _, titles, _ = b.ListSessionsWithTitles(context.Background()); titles[len(titles)-1].Title.Text != "dsh · untitled" {
		t.Fatalf("listed as %+v", titles[len(titles)-1])
	}
	if tr, _ = j.ReadTitles(context.Background(), []string{"untitled"}); tr[0].Title != nil {
		t.Fatalf("without a host badge: %+v", tr[0])
	}
}
