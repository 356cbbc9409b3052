package sessionref

import (
	"context"
	"fmt"
	"reflect"
	"testing"
)

func listerStore(n int) *memStore {
	m := newMemStore()
	words := []string{"Refactor", "parser", "İstanbul", "ΟΔΟΣ", "日志", "Fix", "🙂 emoji", "a\x00b"}
	for i := range n {
		cwd := ptr(fmt.Sprintf("/src/Project-%d", i%7))
		if i%5 == 0 {
			cwd = nil
		}
		id := fmt.Sprintf("S-%04d", i)
		m.headers = append(m.headers, SessionHeader{ID: id, Cwd: cwd, CreatedAt: int64(n - i)})
		if i%9 != 0 {
			m.titles[id] = TitleResult{Title: &Title{Text: words[i%len(words)] + " " + words[(i/3)%len(words)]}}
		}
		if i%13 == 0 {
			m.titles[id] = TitleResult{Err: errBoom}
		}
	}
	return m
}

// TestListerMatchesResolver: a Lister answers every query as the resolver
// does, across renames (with and without a new EventSeq), moves and
// deletions, which it notices from the listing alone.
func TestListerMatchesResolver(t *testing.T) {
	m := listerStore(400)
	r, _ := NewResolver(m, Config{})
	l := NewLister(r, 0)
	ctx := context.Background()
	target := Target{ID: "S-0003", Cwd: ptr("/src/Project-1")}
	queries := []string{"", "s-00", "parser", "PARSER", "i̇stanbul", "οδος", "ς", "日志", "project-3", "b", "a\x00b", "\x00", "zzzz", "🙂", "s-0001"}
	check := func(stage string) {
		t.Helper()
		for _, q := range queries {
			for _, limit := range []int{1, 7, 1000} {
				want, err1 := r.ListCandidates(ctx, target, q, limit)
				got, err2 := l.ListCandidates(ctx, target, q, limit)
				if err1 != nil || err2 != nil || !reflect.DeepEqual(got, want) {
					t.Fatalf("%s, query %q limit %d: lister %v (%v), resolver %v (%v)", stage, q, limit, got, err2, want, err1)
				}
			}
		}
	}
	check("first")
	// A rename that keeps EventSeq 0 (a store without seqs): the text decides.
	m.titles["S-0010"] = TitleResult{Title: &Title{Text: "Brand new zzzz"}}
	m.titles["S-0011"] = TitleResult{Title: &Title{Text: "Other", EventSeq: 42}}
	// A move, and a session that is gone.
	m.headers[12].Cwd = ptr("/elsewhere/zzzz")
	m.headers = append(m.headers[:20], m.headers[21:]...)
	check("after changes")
	// The same sessions listed in another order.
	m.headers[30], m.headers[31] = m.headers[31], m.headers[30]
	m.headers[40].Cwd = nil
	check("after a reorder")
	if got, _ := l.ListCandidates(ctx, target, "zzzz", 10); len(got) != 2 {
		t.Fatalf("renamed and moved sessions not found: %+v", got)
	}
	if l.Len() != len(m.headers)-1 { // the target is never listed
		t.Fatalf("kept %d entries for %d sessions", l.Len(), len(m.headers)-1)
	}
}

func TestListerBound(t *testing.T) {
	m := listerStore(300)
	r, _ := NewResolver(m, Config{})
	l := NewLister(r, 50)
	for _, q := range []string{"x", "parser", "s-02"} {
		want, err := r.ListCandidates(context.Background(), Target{ID: "t"}, q, 500)
		if err != nil || len(want) == 0 {
			t.Fatalf("query %q: the resolver gives %d candidates, %v: the check proves nothing", q, len(want), err)
		}
		got, err := l.ListCandidates(context.Background(), Target{ID: "t"}, q, 500)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("query %q differs past the bound", q)
		}
	}
	if l.Len() != 50 {
		t.Fatalf("kept %d entries, bound 50", l.Len())
	}
}

func TestListerConcurrent(t *testing.T) {
	m := listerStore(200)
	r, _ := NewResolver(m, Config{})
	l := NewLister(r, 0)
	done := make(chan error, 4)
	for g := range 4 {
		go func() {
			for i := range 50 {
				if _, err := l.ListCandidates(context.Background(), Target{ID: "t"}, fmt.Sprint("s-0", g, i%10), 5); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}
