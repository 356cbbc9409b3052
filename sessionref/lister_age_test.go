package sessionref

import (
	"context"
	"testing"
	"time"
)

// countingStore counts the store reads a listing makes.
type countingStore struct {
	*memStore
	lists, titleReads int
}

func (c *countingStore) ListSessions(ctx context.Context) ([]SessionHeader, error) {
	c.lists++
	return c.memStore.ListSessions(ctx)
}

func (c *countingStore) ReadTitles(ctx context.Context, ids []string) ([]TitleResult, error) {
	c.titleReads++
	return c.memStore.ReadTitles(ctx, ids)
}

// With a MaxAge, the keystrokes of one burst reuse the last read of the
// store and give the answers a fresh read would; past MaxAge, or for
// the empty query, the store is read again and changes show.
func TestListerMaxAgeReusesARecentRead(t *testing.T) {
	m := newMemStore()
	for i, title := range []string{"Fix the parser", "Parse logs", "Deploy", "parser again"} {
		id := string(rune('a' + i))
		m.headers = append(m.headers, SessionHeader{ID: id, CreatedAt: int64(100 - i)})
		m.titles[id] = TitleResult{Title: &Title{Text: title}}
	}
	cs := &countingStore{memStore: m}
	r, err := NewResolver(cs, Config{})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1000, 0)
	l := NewLister(r, 0)
	l.now = func() time.Time { return now }
	l.SetMaxAge(2 * time.Second)
	ctx := context.Background()
	target := Target{ID: "a"}
	for _, q := range []string{"p", "pa", "par", "pars"} {
		got, err := l.ListCandidates(ctx, target, q, 10)
		if err != nil {
			t.Fatal(err)
		}
		want, err := r.ListCandidates(ctx, target, q, 10)
		if err != nil || len(want) == 0 {
			t.Fatalf("%q: the resolver gives %d candidates, %v: the check proves nothing", q, len(want), err)
		}
		if len(got) != len(want) {
			t.Fatalf("%q: %d candidates, the resolver gives %d", q, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%q: candidate %d is %+v, the resolver gives %+v", q, i, got[i], want[i])
			}
		}
		now = now.Add(300 * time.Millisecond)
	}
	// 4 keystrokes through the Lister and 4 through the resolver: the
	// Lister read the store once.
	if cs.lists != 5 || cs.titleReads != 5 {
		t.Fatalf("store read %d listings and %d title batches, want 5 and 5", cs.lists, cs.titleReads)
	}
	m.titles["c"] = TitleResult{Title: &Title{Text: "parser deploy"}}
	if got, _ := l.ListCandidates(ctx, target, "pars", 10); len(got) != 2 {
		t.Fatalf("within MaxAge the rename shows already: %+v", got)
	}
	l.Forget()
	if got, _ := l.ListCandidates(ctx, target, "pars", 10); len(got) != 3 {
		t.Fatalf("after Forget the renamed session is missing: %+v", got)
	}
	m.titles["c"] = TitleResult{Title: &Title{Text: "Deploy"}}
	now = now.Add(2 * time.Second)
	if got, _ := l.ListCandidates(ctx, target, "pars", 10); len(got) != 2 {
		t.Fatalf("past MaxAge the renamed-back session is still listed: %+v", got)
	}
	l.SetMaxAge(0)
	before := cs.lists
	l.ListCandidates(ctx, target, "pars", 10)
	l.ListCandidates(ctx, target, "pars", 10)
	if cs.lists != before+2 {
		t.Fatal("with MaxAge 0 the store is not read every time")
	}
}

// A read made for one target is not reused for another (the target's own
// title is not read), and a read begun before Forget is not remembered.
func TestListerMaxAgeTargetAndForget(t *testing.T) {
	m := newMemStore()
	for i, title := range []string{"Fix the parser", "Parse logs"} {
		id := string(rune('a' + i))
		m.headers = append(m.headers, SessionHeader{ID: id, CreatedAt: int64(100 - i)})
		m.titles[id] = TitleResult{Title: &Title{Text: title}}
	}
	r, err := NewResolver(m, Config{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	l := NewLister(r, 0)
	l.SetMaxAge(time.Hour)
	l.ListCandidates(ctx, Target{ID: "a"}, "pars", 10)
	got, _ := l.ListCandidates(ctx, Target{ID: "b"}, "pars", 10)
	if len(got) != 1 || got[0].SessionID != "a" || got[0].Label != "Fix the parser" {
		t.Fatalf("another target reused a read without its title: %+v", got)
	}
	// A read begun before Forget, remembered after it, is dropped.
	_, _, began, gen := l.recent("a")
	l.Forget()
	l.remember("a", began, gen, m.headers, []TitleResult{{}, {}}, false, nil)
	if h, _, _, _ := l.recent("a"); h != nil {
		t.Fatal("a read begun before Forget was remembered")
	}
}
