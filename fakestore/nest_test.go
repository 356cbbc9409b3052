package fakestore

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dshkit/mentions/sessionref"
)

// TestSnapshotsNeverNest is the case of a host that stores each user turn
// in the single-message form: a's words reach b's stored message inside
// its snapshot of a, and a message in c that references b must carry b's
// own words, never a's.
func TestSnapshotsNeverNest(t *testing.T) {
	ctx := context.Background()
	s := New()
	for _, id := range []string{"a", "b", "c"} {
		if err := s.Create(id, nil, time.UnixMilli(1)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.AppendUser("a", "words of a"); err != nil {
		t.Fatal(err)
	}
	r, err := sessionref.NewResolver(s, sessionref.Config{})
	if err != nil {
		t.Fatal(err)
	}
	mention := func(id string) string {
		m, err := sessionref.FormatMention(sessionref.Reference{SessionID: id})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	inB, err := r.PrepareText(ctx, sessionref.Target{ID: "b"}, "look at "+mention("a"))
	if err != nil {
		t.Fatal(err)
	}
	stored, err := inB.SingleMessage()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stored, "words of a") {
		t.Fatal("the stored message does not carry a's snapshot: the case is not set up")
	}
	if _, err := s.AppendUser("b", stored); err != nil {
		t.Fatal(err)
	}
	inC, err := r.PrepareText(ctx, sessionref.Target{ID: "c"}, "and "+mention("b"))
	if err != nil {
		t.Fatal(err)
	}
	prompt := inC.Context.Prompt()
	if strings.Contains(prompt, "words of a") {
		t.Fatalf("the snapshot of b nests a's:\n%s", prompt)
	}
	snaps, err := sessionref.ParsePrompt(prompt)
	if err != nil || len(snaps) != 1 || len(snaps[0].Conversation) != 1 || snaps[0].Conversation[0].Text != "look at @a" {
		t.Fatalf("snapshot of b = %+v, %v; want its one message, \"look at @a\"", snaps, err)
	}
}
