package sessionref

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dshkit/mentions/internal/readme"
)

func memMessages(rows []SessionRow, msgs map[string][]MessageRow) MessageStore {
	return MessageStore{
		Sessions: func(context.Context) ([]SessionRow, error) { return rows, nil },
		Messages: func(_ context.Context, id string) ([]MessageRow, error) {
			m, ok := msgs[id]
			if !ok {
				return nil, errors.New("no messages")
			}
			return m, nil
		},
	}
}

func TestMessageStore(t *testing.T) {
	ctx := context.Background()
	day := func(d int) time.Time { return time.Date(2026, 11, d, 0, 0, 0, 0, time.UTC) }
	rows := []SessionRow{
		{ID: "old", Title: "old one", CreatedAt: day(1)},
		{ID: "", Title: "no id"},
		{ID: "busy", Cwd: "/w", CreatedAt: day(2), UpdatedAt: day(9)},
		{ID: "new", Title: "new one", CreatedAt: day(5)},
	}
	msgs := map[string][]MessageRow{
		"old":  {{RoleUser, "first"}, {"system", "be brief"}, {RoleAssistant, "reply"}, {RoleSummary, "what came before"}, {RoleUser, envelopeHead() + "look at @a"}},
		"busy": {},
	}
	q := memMessages(rows, msgs)
	if err := CheckStore(ctx, q); err != nil {
		t.Fatalf("CheckStore: %v", err)
	}
	hs, ts, err := q.ListSessionsWithTitles(ctx)
	if err != nil || len(hs) != 3 || hs[0].ID != "new" || hs[1].ID != "busy" || hs[2].ID != "old" {
		t.Fatalf("listing %+v %v: want new, busy, old (newest made first); no row without an id", hs, err)
	}
	if hs[1].Cwd == nil || *hs[1].Cwd != "/w" || hs[0].Cwd != nil || hs[1].UpdatedAt != Millis(day(9)) || hs[2].CreatedAt != Millis(day(1)) {
		t.Fatalf("headers %+v", hs)
	}
	if ts[1].Title != nil || ts[0].Title == nil || ts[0].Title.Text != "new one" || ts[0].Title.UpdatedAt != Millis(day(5)) {
		t.Fatalf("titles %+v", ts)
	}
	got, err := q.ReadTitles(ctx, []string{"old", "gone"})
	if err != nil || got[0].Title == nil || got[0].Title.Text != "old one" || !errors.Is(got[1].Err, ErrNoSession) {
		t.Fatalf("ReadTitles %+v %v", got, err)
	}

	s, err := q.ReadSurface(ctx, "old")
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckSurface(s); err != nil {
		t.Fatalf("CheckSurface: %v", err)
	}
	if len(s.Events) != 4 || *s.CapturedThroughSeq != 5 || *s.Events[3].Seq != 5 || !s.Events[2].Source.IsCheckpoint() || s.Events[1].Type != EventAssistantMessage {
		t.Fatalf("surface %+v", s)
	}
	turns := Project(s.Events)
	if len(turns) != 4 || turns[3].Text != "look at @a" || turns[2].Text != "what came before" {
		t.Fatalf("projection %+v", turns)
	}
	if s, err := q.ReadSurface(ctx, "busy"); err != nil || s.CapturedThroughSeq != nil || len(s.Events) != 0 {
		t.Fatalf("an empty session: %+v %v", s, err)
	}
	if _, err := q.ReadSurface(ctx, "gone"); !errors.Is(err, ErrNoSession) {
		t.Fatalf("a missing session: %v", err)
	}

	r, err := NewResolver(q, Config{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.PrepareText(ctx, Target{ID: "new"}, "see "+mentionOf(t, "old", "old one"))
	if err != nil {
		t.Fatal(err)
	}
	prompt := p.Context.Prompt()
	if strings.Contains(prompt, innerWords) || strings.Contains(prompt, "be brief") || !strings.Contains(prompt, `"compacted"`) && !p.Context.Source.References[0].Compacted {
		t.Fatalf("snapshot %s\n%+v", prompt, p.Context.Source.References[0])
	}
}

// TestMessageStoreSessionRow: with a Session function a read asks it for
// the one row, not for every session.
func TestMessageStoreSessionRow(t *testing.T) {
	ctx := context.Background()
	q := memMessages(nil, map[string][]MessageRow{"x": {{RoleUser, "hi"}}})
	q.Sessions = func(context.Context) ([]SessionRow, error) { return nil, errors.New("listed") }
	q.Session = func(_ context.Context, id string) (SessionRow, error) { return SessionRow{Cwd: "/c"}, nil }
	s, err := q.ReadSurface(ctx, "x")
	if err != nil || s.Session.ID != "x" || *s.Session.Cwd != "/c" || len(s.Events) != 1 {
		t.Fatalf("%+v %v", s, err)
	}
	var none MessageStore
	if _, err := none.ListSessions(ctx); err == nil {
		t.Fatal("a MessageStore without functions listed sessions")
	}
	none.Session = q.Session
	if _, err := none.ReadSurface(ctx, "x"); err == nil {
		t.Fatal("a MessageStore without Messages read a surface")
	}
}

// TestMessageStoreInReadme: the README shows the example's adapter.
func TestMessageStoreInReadme(t *testing.T) {
	if err := readme.Check("example_messagestore_test.go", "../README.md"); err != nil {
		t.Fatal(err)
	}
}
