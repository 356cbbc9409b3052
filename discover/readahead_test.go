package discover

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/sessionref"
)

// slowStore answers ReadSurface after a delay and counts the reads under
// way at once; the session "broken" cannot be read.
type slowStore struct {
	*fakestore.Store
	delay        time.Duration
	mu           sync.Mutex
	now, most, n int
}

func (s *slowStore) ReadSurface(ctx context.Context, id string) (sessionref.Surface, error) {
	s.mu.Lock()
	s.now++
	s.n++
	s.most = max(s.most, s.now)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.now--
		s.mu.Unlock()
	}()
	select {
	case <-time.After(s.delay):
	case <-ctx.Done():
		return sessionref.Surface{}, ctx.Err()
	}
	if id == "broken" {
		return sessionref.Surface{}, errors.New("cannot read broken")
	}
	return s.Store.ReadSurface(ctx, id)
}

// A Sync over a slow store reads a few surfaces at once, never more than
// readAheadMax, and indexes exactly what one read at a time would: every
// session in its place, a failed read counted, the rest searchable.
func TestSyncReadsAhead(t *testing.T) {
	fs := fakestore.New()
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 24 {
		id := fmt.Sprintf("s%02d", i)
		fs.Create(id, nil, at.Add(time.Duration(i)*time.Minute))
		fs.AppendUser(id, fmt.Sprintf("word%02d is said here", i))
	}
	fs.Create("broken", nil, at)
	store := &slowStore{Store: fs, delay: 20 * time.Millisecond}
	ix, err := Open("", store)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	st, err := ix.Sync(context.Background())
	if err != nil || st.Indexed != 24 || st.Failed != 1 {
		t.Fatalf("Sync: %+v, %v", st, err)
	}
	if store.most < 2 || store.most > readAheadMax {
		t.Fatalf("%d reads at once, want 2 to %d", store.most, readAheadMax)
	}
	for i := range 24 {
		hits, err := ix.Search(context.Background(), sessionref.Target{}, fmt.Sprintf("word%02d", i), 5)
		if err != nil || len(hits) != 1 || hits[0].SessionID != fmt.Sprintf("s%02d", i) {
			t.Fatalf("word%02d: %+v, %v", i, hits, err)
		}
	}
	// Cancelled while reads are under way: Sync returns, no read is left
	// running, and the next Sync completes the index.
	fs.AppendUser("s03", "a later word")
	for i := range 24 {
		fs.AppendUser(fmt.Sprintf("s%02d", i), "more")
	}
	ctx, cancel := context.WithCancel(context.Background())
	ix.opts.progress = func(p Progress) {
		if p.Done == 5 {
			cancel()
		}
	}
	if _, err := ix.Sync(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Sync: %v", err)
	}
	store.mu.Lock()
	running := store.now
	store.mu.Unlock()
	if running != 0 {
		t.Fatalf("%d reads still running after Sync returned", running)
	}
	ix.opts.progress = nil
	if st, err := ix.Sync(context.Background()); err != nil || st.Failed != 1 {
		t.Fatalf("resumed Sync: %+v, %v", st, err)
	}
	if hits, _ := ix.Search(context.Background(), sessionref.Target{}, "later word", 5); len(hits) != 1 {
		t.Fatalf("a change made before the cancelled Sync is missing: %+v", hits)
	}
}
