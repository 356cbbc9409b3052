package discover

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/dshkit/mentions/fakestore"
)

// SyncReporting reports one Sync's progress to that call's function only:
// every session counted, the last report at the total, and a later Sync
// reports nothing to it.
func TestSyncReportingIsPerCall(t *testing.T) {
	fs, ix := smallIndex(t, "p", 5)
	var got []Progress
	if _, err := ix.SyncReporting(context.Background(), func(p Progress) { got = append(got, p) }); err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || got[len(got)-1] != (Progress{Done: 5, Total: 5}) {
		t.Fatalf("reports %+v", got)
	}
	n := len(got)
	fs.AppendUser("p0", "more")
	if _, err := ix.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(got) != n {
		t.Fatalf("a later Sync reported to an earlier call's function: %+v", got[n:])
	}
}

// plan marks for reading only the sessions whose seq, title or version
// changed since the index took them, and never a session whose title
// could not be read; removeGone removes what the store no longer lists.
func TestPlanAndRemoveGone(t *testing.T) {
	fs, ix := smallIndex(t, "q", 4)
	if _, err := ix.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	fs.AppendUser("q2", "more")
	fs.SetTitle("q0", "renamed")
	ctx := context.Background()
	headers, titles, err := list(ctx, fs)
	if err != nil {
		t.Fatal(err)
	}
	known, err := ix.knownStates(ctx, ix.conn())
	if err != nil {
		t.Fatal(err)
	}
	p, err := ix.plan(ctx, headers, titles, known)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"q0": true, "q1": false, "q2": true, "q3": false}
	for i, h := range headers {
		if p.needs[i] != want[h.ID] {
			t.Errorf("%s: needs %v, want %v", h.ID, p.needs[i], want[h.ID])
		}
	}
	w := &writer{ix: ix, db: ix.conn()}
	defer w.rollback()
	n, err := removeGone(ctx, w, headers[:2], known)
	if err != nil || n != 2 {
		t.Fatalf("removeGone: %d, %v; want the 2 sessions left out of the listing", n, err)
	}
}

// smallIndex is an in-memory index over n sessions named prefix0…, not
// synced yet.
func smallIndex(t *testing.T, prefix string, n int) (*fakestore.Store, *Index) {
	t.Helper()
	fs := fakestore.New()
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		id := fmt.Sprintf("%s%d", prefix, i)
		fs.Create(id, nil, at.Add(time.Duration(i)*time.Minute))
		fs.AppendUser(id, "said here")
	}
	ix, err := Open("", fs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return fs, ix
}
