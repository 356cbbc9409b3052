package fakestore

import (
	"context"
	"testing"

	"github.com/dshkit/mentions/sessionref"
)

// TestCheckStore: the generated corpus is what the core expects of a
// store: Unix milliseconds, newest first, one title result per id, and
// surfaces the projection reads whole.
func TestCheckStore(t *testing.T) {
	s := New()
	s.Seed(SeedOptions{Count: 300, Seed: 1})
	ctx := context.Background()
	if err := sessionref.CheckStore(ctx, s); err != nil {
		t.Fatal(err)
	}
	hs, _ := s.ListSessions(ctx)
	for _, h := range hs[:20] {
		surface, err := s.ReadSurface(ctx, h.ID)
		if err != nil {
			t.Fatal(err)
		}
		if err := sessionref.CheckSurface(surface); err != nil {
			t.Fatalf("%s: %v", h.ID, err)
		}
	}
}
