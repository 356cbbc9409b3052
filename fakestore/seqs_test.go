package fakestore

import (
	"context"
	"testing"
)

func TestCapturedSeqsAgreeWithReadSurface(t *testing.T) {
	s := New()
	s.Seed(SeedOptions{Count: 40, Seed: 3})
	s.Create("empty", nil, DefaultNow)
	ctx := context.Background()
	hs, err := s.ListSessions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{"missing"}
	for _, h := range hs {
		ids = append(ids, h.ID)
	}
	check := func() {
		t.Helper()
		seqs, err := s.CapturedSeqs(ctx, ids)
		if err != nil || len(seqs) != len(ids) {
			t.Fatalf("CapturedSeqs: %v, %d results for %d ids", err, len(seqs), len(ids))
		}
		if seqs[0] != nil {
			t.Fatalf("a missing session has seq %d", *seqs[0])
		}
		for i, id := range ids[1:] {
			sf, err := s.ReadSurface(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			got, want := seqs[i+1], sf.CapturedThroughSeq
			if (got == nil) != (want == nil) || got != nil && *got != *want {
				t.Fatalf("%s: CapturedSeqs %v, ReadSurface %v", id, got, want)
			}
		}
	}
	check()
	s.AppendUser(ids[1], "one more")
	s.AppendUser("empty", "first")
	check()
}
