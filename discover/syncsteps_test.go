package discover

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/sessionref"
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

// failingLister is a store whose listing fails with text that reads like
// a damaged database.
type failingLister struct {
	*fakestore.Store
	fail bool
}

var errMalformed = errors.New("read /home/dev/malformed-logs/x: database disk image is malformed")

func (f *failingLister) ListSessions(ctx context.Context) ([]sessionref.SessionHeader, error) {
	if f.fail {
		return nil, errMalformed
	}
	return f.Store.ListSessions(ctx)
}

func (f *failingLister) ListSessionsWithTitles(ctx context.Context) ([]sessionref.SessionHeader, []sessionref.TitleResult, error) {
	if f.fail {
		return nil, nil, errMalformed
	}
	return f.Store.ListSessionsWithTitles(ctx)
}

// A store's error never makes Sync rebuild the index, whatever its text:
// the sessions indexed before stay searchable.
func TestStoreErrorIsNotDamage(t *testing.T) {
	fs, _ := smallIndex(t, "s", 3)
	st := &failingLister{Store: fs}
	ix, err := Open("", st)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	st.fail = true
	if _, err := ix.Sync(context.Background()); err == nil || isCorrupt(err) {
		t.Fatalf("Sync over a failing store: %v (corrupt %v)", err, isCorrupt(err))
	}
	for _, n := range ix.Notices() {
		t.Fatalf("a store error rebuilt the index: %+v", n)
	}
	hits, err := ix.Search(context.Background(), sessionref.Target{}, "said here", 5)
	if err != nil || len(hits) != 3 {
		t.Fatalf("after the failing Sync: %d hits, %v", len(hits), err)
	}
}
