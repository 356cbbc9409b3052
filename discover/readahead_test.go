package discover

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/sessionref"
)

// gatedStore counts the ReadSurface calls under way at once, without
// waiting on the clock: every read but the first (which a Sync makes
// alone, to learn a surface's size) waits until a second one runs beside
// it (at most 5 s once, so that a Sync that reads one at a time fails
// the test instead of hanging); with cancelAt set, the read of that number
// cancels the Sync and waits for its context to end. The session
// "broken" cannot be read.
type gatedStore struct {
	*fakestore.Store
	mu           sync.Mutex
	now, most, n int
	calls        int // reads ever made
	cancelAt     int
	cancel       context.CancelFunc
	overlapped   chan struct{} // closed when two reads first run at once, or after 5 s
	once         sync.Once
}

// firstRead is a closed channel for the first read, which does not wait.
func firstRead(first bool) <-chan struct{} {
	if !first {
		return nil
	}
	c := make(chan struct{})
	close(c)
	return c
}

func (s *gatedStore) ReadSurface(ctx context.Context, id string) (sessionref.Surface, error) {
	s.mu.Lock()
	s.now++
	s.n++
	cancelNow := s.cancelAt > 0 && s.n == s.cancelAt
	if s.now >= 2 {
		s.once.Do(func() { close(s.overlapped) })
	}
	first := s.calls == 0
	s.calls++
	s.most = max(s.most, s.now)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.now--
		s.mu.Unlock()
	}()
	if cancelNow {
		s.cancel()
		<-ctx.Done()
		return sessionref.Surface{}, ctx.Err()
	}
	select {
	case <-s.overlapped:
	case <-firstRead(first):
	case <-time.After(5 * time.Second):
		s.once.Do(func() { close(s.overlapped) }) // no read ahead: most stays 1
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
	store := &gatedStore{Store: fs, overlapped: make(chan struct{})}
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
	store.mu.Lock()
	store.n, store.cancelAt, store.cancel = 0, 6, cancel // the sixth read cancels, under way
	store.mu.Unlock()
	if _, err := ix.Sync(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Sync: %v", err)
	}
	store.mu.Lock()
	running := store.now
	store.mu.Unlock()
	if running != 0 {
		t.Fatalf("%d reads still running after Sync returned", running)
	}
	store.mu.Lock()
	store.cancelAt = 0
	store.mu.Unlock()
	if st, err := ix.Sync(context.Background()); err != nil || st.Failed != 1 {
		t.Fatalf("resumed Sync: %+v, %v", st, err)
	}
	if hits, _ := ix.Search(context.Background(), sessionref.Target{}, "later word", 5); len(hits) != 1 {
		t.Fatalf("a change made before the cancelled Sync is missing: %+v", hits)
	}
}

// The read-ahead is bounded by bytes: the first read is alone; reads of
// small surfaces go four at once; after a surface of over half the bound,
// one at a time.
func TestReadAheadBoundedByBytes(t *testing.T) {
	ra := &readAhead{ctx: context.Background(), done: make(chan struct{})}
	if !ra.admit() || ra.fits() {
		t.Fatal("a second read may start before the first one's size is known")
	}
	ra.finish(1 << 20)
	for range 4 {
		if !ra.fits() {
			t.Fatalf("%d small reads in flight: no room for one more", ra.inFlight)
		}
		ra.admit()
	}
	for range 4 {
		ra.finish(1 << 20)
	}
	ra.admit()
	ra.finish(readAheadBytes/2 + 1)
	ra.admit()
	if ra.fits() {
		t.Fatal("two reads of half the bound may run at once")
	}
	ra.finish(10)
	if !ra.fits() || ra.peak != 4 {
		t.Fatalf("fits %v, peak %d", ra.fits(), ra.peak)
	}
}

// With a store that walks its surfaces, Sync indexes the same text as
// from whole surfaces, and stops a walk once a session's text is full.
func TestSyncWalksSurfaces(t *testing.T) {
	c := newCorpus(t)
	long := make([]string, 400)
	for i := range long {
		long[i] = strings.Repeat("walk ", 100)
	}
	c.add(t, "gg", nil, "long", long...)
	w := &walker{SessionQuery: c.store}
	ix, err := Open("", w, WithLimits(1<<10, 8<<10))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	plain, err := Open("", c.store, WithLimits(1<<10, 8<<10))
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	if _, err := plain.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"retry bug", "崩溃", "walk"} {
		if a, b := found(t, ix, c, sessionref.Target{}, q), found(t, plain, c, sessionref.Target{}, q); !slices.Equal(sorted(a), sorted(b)) {
			t.Fatalf("%q: walked %v, read %v", q, a, b)
		}
	}
	var a, b string
	ix.conn().QueryRow(`SELECT body FROM docs JOIN sessions USING (rowid) WHERE id = ?`, c.ids["gg"]).Scan(&a)
	plain.conn().QueryRow(`SELECT body FROM docs JOIN sessions USING (rowid) WHERE id = ?`, c.ids["gg"]).Scan(&b)
	if a != b || len(a) == 0 {
		t.Fatalf("bodies differ: %d and %d bytes", len(a), len(b))
	}
	if w.walked >= 400 || w.walked == 0 {
		t.Fatalf("walked %d events of a session whose first 8 KiB are indexed", w.walked)
	}
}

// walker is a store that offers WalkSurface over ReadSurface, counting
// the events of the long session it passes.
type walker struct {
	sessionref.SessionQuery
	walked int
}

func (w *walker) WalkSurface(ctx context.Context, id string, fn func(e *sessionref.Event) bool) (*int64, error) {
	surf, err := w.ReadSurface(ctx, id)
	if err != nil {
		return nil, err
	}
	for i := range surf.Events {
		if len(surf.Events) > 100 {
			w.walked++
		}
		if !fn(&surf.Events[i]) {
			break
		}
	}
	return surf.CapturedThroughSeq, nil
}

// costly is a store whose reads cost more to decode than their surfaces
// hold (dshlog's ReadCost).
type costly struct {
	*fakestore.Store
	cost int64
}

func (c costly) ReadCost(string) int64 { return c.cost }

// A read counts as what the store says decoding it cost when that is
// more than its surface: after one such read of over half the bound,
// reads go one at a time, whatever their surfaces hold.
func TestReadAheadCountsReadCost(t *testing.T) {
	fs := fakestore.New()
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var headers []sessionref.SessionHeader
	for i := range 3 {
		id := fmt.Sprintf("s%d", i)
		fs.Create(id, nil, at.Add(time.Duration(i)*time.Minute))
		fs.AppendUser(id, "a few words")
		headers = append(headers, sessionref.SessionHeader{ID: id})
	}
	for _, cost := range []int64{0, readAheadBytes/2 + 1} {
		ix, err := Open("", costly{fs, cost})
		if err != nil {
			t.Fatal(err)
		}
		ra := ix.readAhead(context.Background(), headers, []bool{true, true, true})
		for i := range headers {
			if r := ra.next(i); r.err != nil {
				t.Fatal(r.err)
			}
		}
		ra.stop()
		ix.Close()
		ra.mu.Lock()
		biggest, fits := ra.biggest, ra.inFlight == 0 && func() bool { ra.inFlight = 1; defer func() { ra.inFlight = 0 }(); return ra.fits() }()
		ra.mu.Unlock()
		if cost > 0 && (biggest != cost || fits) {
			t.Fatalf("cost %d: the read-ahead counts reads as %d; a second read fits beside one: %v", cost, biggest, fits)
		}
		if cost == 0 && (biggest == 0 || biggest > 1<<20 || !fits) {
			t.Fatalf("small surfaces counted as %d; a second read fits beside one: %v", biggest, fits)
		}
	}
}
