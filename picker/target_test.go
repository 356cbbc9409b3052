package picker

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/sessionref"
)

// targetSource answers with one candidate named after the target in the
// fetch's context, and counts its calls.
type targetSource struct {
	mu    sync.Mutex
	calls []string
}

func (s *targetSource) Candidates(ctx context.Context, q string) ([]sessionref.Candidate, error) {
	t, _ := TargetFromContext(ctx)
	s.mu.Lock()
	s.calls = append(s.calls, t.ID+":"+q)
	s.mu.Unlock()
	return []sessionref.Candidate{{SessionID: "for-" + t.ID, Label: "for " + t.ID}}, nil
}

func labels(cs []sessionref.Candidate) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Label)
	}
	return out
}

// An answer to a query asked for the old target is never shown, even
// when it arrives after the switch and answers the same query text.
func TestSetTargetDropsTheOldTargetsAnswer(t *testing.T) {
	src := &targetSource{}
	m := newTestPicker(src, withTarget(sessionref.Target{ID: "a"}))
	openCmd := m.Open("x")
	old := fetchedMsg(m, "x", []sessionref.Candidate{{SessionID: "old", Label: "old"}}, nil)
	cmd := m.SetTarget(sessionref.Target{ID: "b"})
	if cmd == nil || len(m.Answer(SessionsID).Candidates) != 0 || m.SectionFresh(SessionsID) {
		t.Fatalf("after the switch: cmd %v, rows %v, fresh %v", cmd != nil, labels(m.Answer(SessionsID).Candidates), m.SectionFresh(SessionsID))
	}
	if got, ok := m.Target(); !ok || got.ID != "b" {
		t.Fatalf("Target() = %+v, %v", got, ok)
	}
	m, _ = m.Update(old)
	if len(m.Answer(SessionsID).Candidates) != 0 {
		t.Fatalf("the old target's answer was shown: %v", labels(m.Answer(SessionsID).Candidates))
	}
	// The fetch started for the old target comes back late, too.
	m, _ = settle(m, openCmd)
	if len(m.Answer(SessionsID).Candidates) != 0 || m.SectionFresh(SessionsID) {
		t.Fatalf("the old target's fetch was applied: %v", labels(m.Answer(SessionsID).Candidates))
	}
	m, _ = settle(m, cmd)
	if got := labels(m.Answer(SessionsID).Candidates); !slices.Equal(got, []string{"for b"}) || !m.SectionFresh(SessionsID) {
		t.Fatalf("after the new answer: %v fresh %v", got, m.SectionFresh(SessionsID))
	}
	if _, ok := m.Highlighted(); !ok {
		t.Fatal("nothing highlighted after the new answer")
	}
}

// The cache is keyed by target: a query answered for a is not answered
// from the cache for b, and switching back to a answers from it at once.
func TestCacheIsKeyedByTarget(t *testing.T) {
	src := &targetSource{}
	m := newTestPicker(src, withTarget(sessionref.Target{ID: "a"}))
	cmd := m.Open("x")
	m, _ = settle(m, cmd)
	cmd = m.SetTarget(sessionref.Target{ID: "b"})
	if len(m.Answer(SessionsID).Candidates) != 0 {
		t.Fatalf("b answered from a's cache: %v", labels(m.Answer(SessionsID).Candidates))
	}
	m, _ = settle(m, cmd)
	cmd = m.SetTarget(sessionref.Target{ID: "a"})
	if cmd != nil || !slices.Equal(labels(m.Answer(SessionsID).Candidates), []string{"for a"}) || !m.SectionFresh(SessionsID) {
		t.Fatalf("back to a: cmd %v, rows %v", cmd != nil, labels(m.Answer(SessionsID).Candidates))
	}
	if want := []string{"a:x", "b:x"}; !slices.Equal(src.calls, want) {
		t.Fatalf("calls %v, want %v", src.calls, want)
	}
	// The same target again is no switch: nothing is fetched.
	if cmd := m.SetTarget(sessionref.Target{ID: "a"}); cmd != nil {
		t.Fatal("setting the same target fetched again")
	}
}

// A closed picker only remembers the target; the next Open asks for it.
func TestSetTargetWhileClosed(t *testing.T) {
	src := &targetSource{}
	m := newTestPicker(src)
	if _, ok := m.Target(); ok {
		t.Fatal("a target without one set")
	}
	cmd := m.SetTarget(sessionref.Target{ID: "c"})
	if cmd != nil || m.IsOpen() {
		t.Fatal("a closed picker fetched or opened")
	}
	cmd = m.Open("")
	m, _ = settle(m, cmd)
	if got := labels(m.Answer(SessionsID).Candidates); !slices.Equal(got, []string{"for c"}) {
		t.Fatalf("rows %v", got)
	}
}

// A switch drops a pick that was waiting for the old target's answer.
func TestSetTargetDropsAWaitingPick(t *testing.T) {
	m := newTestPicker(&targetSource{}, withTarget(sessionref.Target{ID: "a"}))
	_ = m.Open("x")
	m, _ = m.Update(press("tab"))
	if !m.Accepting() {
		t.Fatal("tab before the answer did not wait for it")
	}
	cmd := m.SetTarget(sessionref.Target{ID: "b"})
	if m.Accepting() {
		t.Fatal("the pick still waits after the switch")
	}
	m, _ = settle(m, cmd)
	if _, ok := m.TakePick(); ok || !m.IsOpen() {
		t.Fatal("the new target's answer was picked without asking")
	}
}

// ResolverSource ranks for the target of the fetch's context: the session
// the message is written in is never offered, so after a switch the old
// one is offered and the new one is not.
func TestResolverSourceFollowsTheTarget(t *testing.T) {
	store := fakestore.New()
	for i, id := range []string{"one", "two", "three"} {
		if err := store.Create(id, nil, time.Unix(int64(100+i), 0)); err != nil {
			t.Fatal(err)
		}
		store.SetTitle(id, "session "+id)
	}
	r, err := sessionref.NewResolver(store, sessionref.Config{})
	if err != nil {
		t.Fatal(err)
	}
	ids := func(m Model) []string {
		var out []string
		for _, c := range m.Answer(SessionsID).Candidates {
			out = append(out, c.SessionID)
		}
		slices.Sort(out)
		return out
	}
	m := newTestPicker(ResolverSource(r, 0), withTarget(sessionref.Target{ID: "one"}))
	cmd := m.Open("")
	m, _ = settle(m, cmd)
	if got := ids(m); !slices.Equal(got, []string{"three", "two"}) {
		t.Fatalf("for one: %v", got)
	}
	cmd = m.SetTarget(sessionref.Target{ID: "two"})
	m, _ = settle(m, cmd)
	if got := ids(m); !slices.Equal(got, []string{"one", "three"}) {
		t.Fatalf("for two: %v", got)
	}
}

// A host's section is asked again for the new target, its rows for the
// old one cleared, and its old answer dropped.
func TestSetTargetAsksTheSectionsAgain(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	files := func(ctx context.Context, q string) ([]Item, error) {
		tg, _ := TargetFromContext(ctx)
		mu.Lock()
		seen = append(seen, tg.ID)
		mu.Unlock()
		return []Item{{Label: "file of " + tg.ID}}, nil
	}
	m := newTestPicker(&targetSource{}, withTarget(sessionref.Target{ID: "a"}),
		WithSection(Section{ID: "files", Title: "files", Source: files}))
	cmd := m.Open("f")
	m, _ = settle(m, cmd)
	old := itemsMsg(m, "files", "f", []Item{{Label: "late for a"}}, nil)
	cmd = m.SetTarget(sessionref.Target{ID: "b"})
	if len(m.Answer("files").Items) != 0 || m.SectionFresh("files") {
		t.Fatalf("the old session's files stayed: %v", itemLabels(m.Answer("files").Items))
	}
	m, _ = m.Update(old)
	if len(m.Answer("files").Items) != 0 {
		t.Fatal("the old target's answer was shown")
	}
	m, _ = settle(m, cmd)
	if got := itemLabels(m.Answer("files").Items); !slices.Equal(got, []string{"file of b"}) || !slices.Equal(seen, []string{"a", "b"}) {
		t.Fatalf("files %v, asked for %v", got, seen)
	}
}
