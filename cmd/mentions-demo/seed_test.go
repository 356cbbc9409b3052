package main

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/dshkit/mentions/fakestore"
)

// TestSeedInBatches: the corpus grows in batches with progress after
// each, ends with exactly the sessions asked for, and a small one is
// exactly Seed's.
func TestSeedInBatches(t *testing.T) {
	store := fakestore.New()
	var got [][2]int
	o := fakestore.SeedOptions{Count: 2*seedBatch + 500, Seed: 3}
	if err := seed(context.Background(), store, o, func(done, total int) { got = append(got, [2]int{done, total}) }); err != nil {
		t.Fatal(err)
	}
	want := [][2]int{{0, o.Count}, {seedBatch, o.Count}, {2 * seedBatch, o.Count}, {o.Count, o.Count}}
	if !slices.Equal(got, want) {
		t.Fatalf("progress %v, want %v", got, want)
	}
	hs, err := store.ListSessions(context.Background())
	if err != nil || len(hs) != o.Count {
		t.Fatalf("%d sessions, %v", len(hs), err)
	}

	small, direct := fakestore.New(), fakestore.New()
	if err := seed(context.Background(), small, fakestore.SeedOptions{Count: 50, Seed: 9}, func(int, int) {}); err != nil {
		t.Fatal(err)
	}
	ids := direct.Seed(fakestore.SeedOptions{Count: 50, Seed: 9})
	a, _ := small.ListSessions(context.Background())
	if len(a) != len(ids) {
		t.Fatalf("%d sessions, want %d", len(a), len(ids))
	}
	for _, h := range a {
		if !slices.Contains(ids, h.ID) {
			t.Fatalf("session %s is not Seed's", h.ID)
		}
	}
}

func TestSeedStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	store := fakestore.New()
	err := seed(ctx, store, fakestore.SeedOptions{Count: 3 * seedBatch}, func(done, _ int) {
		if done >= seedBatch {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	if hs, _ := store.ListSessions(context.Background()); len(hs) != seedBatch {
		t.Fatalf("%d sessions after a cancel at the first batch", len(hs))
	}
}
