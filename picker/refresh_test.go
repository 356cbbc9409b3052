package picker

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/sessionref"
)

// Refresh fetches the open query again, past the cache, so a picker that
// was open while its store filled shows the sessions that arrived.
func TestRefreshRefetchesTheOpenQuery(t *testing.T) {
	var mu sync.Mutex
	cands := []sessionref.Candidate{{SessionID: "a", Label: "alpha"}}
	src := SourceFunc(func(ctx context.Context, q string) ([]sessionref.Candidate, error) {
		mu.Lock()
		defer mu.Unlock()
		return append([]sessionref.Candidate(nil), cands...), nil
	})
	m := newTestPicker(src)
	cmd := m.Open("al")
	m, _ = settle(m, cmd)
	if len(m.Answer(SessionsID).Candidates) != 1 {
		t.Fatalf("first answer: %d rows", len(m.Answer(SessionsID).Candidates))
	}
	mu.Lock()
	cands = append(cands, sessionref.Candidate{SessionID: "b", Label: "alps"})
	mu.Unlock()
	cmd = m.SetQuery("al") // the same query: answered from the cache, nothing new
	m, _ = settle(m, cmd)
	if len(m.Answer(SessionsID).Candidates) != 1 {
		t.Fatalf("the same query fetched again: %d rows", len(m.Answer(SessionsID).Candidates))
	}
	cmd = m.Refresh()
	if len(m.Answer(SessionsID).Candidates) != 1 {
		t.Fatal("the rows on screen went before the new answer came")
	}
	m, _ = settle(m, cmd)
	if len(m.Answer(SessionsID).Candidates) != 2 || !m.SectionFresh(SessionsID) {
		t.Fatalf("after Refresh: %d rows, fresh %v", len(m.Answer(SessionsID).Candidates), m.SectionFresh(SessionsID))
	}
	m.Close()
	if cmd := m.Refresh(); cmd != nil {
		t.Fatal("a closed picker fetched")
	}
}

// A ResolverSource reuses its last read of the store between the
// keystrokes of a burst; Refresh makes it read the store again, so a
// session created a moment ago shows at once.
func TestRefreshReadsAResolverSourceStoreAgain(t *testing.T) {
	store := fakestore.New()
	if err := store.Create("one", nil, time.Unix(100, 0)); err != nil {
		t.Fatal(err)
	}
	store.SetTitle("one", "retry bug")
	r, err := sessionref.NewResolver(store, sessionref.Config{})
	if err != nil {
		t.Fatal(err)
	}
	src := ResolverSource(r, 0)
	// Reads are reused for ResolverMaxAge; an hour here, so that the
	// keystroke below falls inside it however slow the machine is.
	src.(resolverSource).l.SetMaxAge(time.Hour)
	m := newTestPicker(src, withTarget(sessionref.Target{ID: "host"}))
	cmd := m.Open("re")
	m, _ = settle(m, cmd)
	if len(m.Answer(SessionsID).Candidates) != 1 {
		t.Fatalf("first answer: %d rows", len(m.Answer(SessionsID).Candidates))
	}
	if err := store.Create("two", nil, time.Unix(200, 0)); err != nil {
		t.Fatal(err)
	}
	store.SetTitle("two", "retry again")
	cmd = m.SetQuery("ret") // within the max age: the last read of the store
	m, _ = settle(m, cmd)
	if len(m.Answer(SessionsID).Candidates) != 1 {
		t.Fatalf("a keystroke within ResolverMaxAge read the store again: %d rows", len(m.Answer(SessionsID).Candidates))
	}
	cmd = m.Refresh()
	m, _ = settle(m, cmd)
	if len(m.Answer(SessionsID).Candidates) != 2 {
		t.Fatalf("after Refresh: %d rows, want the new session too", len(m.Answer(SessionsID).Candidates))
	}
}
