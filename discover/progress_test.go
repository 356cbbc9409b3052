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
	fs := fakestore.New()
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 5 {
		id := fmt.Sprintf("p%d", i)
		fs.Create(id, nil, at.Add(time.Duration(i)*time.Minute))
		fs.AppendUser(id, "said here")
	}
	ix, err := Open("", fs)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
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
