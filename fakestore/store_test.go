package fakestore

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/dshkit/mentions/sessionref"
)

func ptr[T any](v T) *T { return &v }

func texts(s sessionref.Surface) []string {
	var out []string
	for _, e := range s.Events {
		out = append(out, e.Content[0].Text)
	}
	return out
}

func TestSurfaceFoldAndCapturedSeq(t *testing.T) {
	s := New()
	ctx := context.Background()
	if err := s.Create("a", ptr("/src/a"), time.UnixMilli(5)); err != nil {
		t.Fatal(err)
	}
	if err := s.Create("a", nil, time.UnixMilli(5)); !errors.Is(err, ErrExists) {
		t.Fatalf("duplicate: %v", err)
	}
	u0, _ := s.AppendUser("a", "first")                   // 0
	a1, _ := s.AppendAssistant("a", "reply")              // 1
	s.AppendLog("a", "turn/end")                          // 2
	u3, _ := s.AppendUser("a", "second")                  // 3
	cp, err := s.Compact("a", u0, a1, "summary of first") // 4 replaces 0..1
	if err != nil || cp != 4 || u3 != 3 {
		t.Fatalf("compact %d %v", cp, err)
	}
	s.AppendTool("a", "tool out") // 5
	surf, err := s.ReadSurface(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	var seqs []int64
	for _, e := range surf.Events {
		seqs = append(seqs, *e.Seq)
	}
	if !reflect.DeepEqual(seqs, []int64{4, 3, 5}) || *surf.CapturedThroughSeq != 5 {
		t.Fatalf("surface seqs %v captured %d", seqs, *surf.CapturedThroughSeq)
	}
	if !surf.Events[0].Source.IsCheckpoint() {
		t.Fatal("checkpoint source")
	}
	if _, err := s.Compact("a", u0, u0, "x"); !errors.Is(err, ErrBadRange) {
		t.Fatalf("shadowed seq accepted: %v", err)
	}
	if _, err := s.Compact("a", 5, 3, "x"); !errors.Is(err, ErrBadRange) {
		t.Fatalf("reversed range accepted: %v", err)
	}
	if _, err := s.Append("a", sessionref.Event{Type: "turn/start"}); err == nil {
		t.Fatal("non-surface type accepted by Append")
	}
}

func TestReadSurfaceIsDetached(t *testing.T) {
	s := New()
	s.Create("a", nil, time.UnixMilli(1))
	s.AppendUser("a", "original")
	surf, _ := s.ReadSurface(context.Background(), "a")
	surf.Events[0].Content[0].Text = "changed by reader"
	s.AppendUser("a", "later")
	s.CompactAll("a", "all gone")
	again, _ := s.ReadSurface(context.Background(), "a")
	if got := texts(surf); !reflect.DeepEqual(got, []string{"changed by reader"}) {
		t.Fatalf("snapshot changed: %v", got)
	}
	if len(again.Events) != 1 || !again.Events[0].Source.IsCheckpoint() {
		t.Fatalf("store: %+v", texts(again))
	}
	s.Delete("a")
	if _, err := s.ReadSurface(context.Background(), "a"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deleted: %v", err)
	}
}

func TestListingAndTitles(t *testing.T) {
	s := New()
	s.Create("b", nil, time.UnixMilli(10))
	s.Create("a", nil, time.UnixMilli(10))
	s.Create("c", ptr("/x"), time.UnixMilli(20))
	hs, _ := s.ListSessions(context.Background())
	var ids []string
	for _, h := range hs {
		ids = append(ids, h.ID)
	}
	if !reflect.DeepEqual(ids, []string{"c", "a", "b"}) {
		t.Fatalf("order %v", ids)
	}
	s.SetTitle("a", "First")
	seq, _ := s.SetTitle("a", "Second")
	res, _ := s.ReadTitles(context.Background(), []string{"a", "b", "zz"})
	if res[0].Title == nil || res[0].Title.Text != "Second" || res[0].Title.EventSeq != seq || res[1].Title != nil || res[1].Err != nil || !errors.Is(res[2].Err, ErrNotFound) {
		t.Fatalf("titles %+v", res)
	}
}

func TestLatencyAndFailures(t *testing.T) {
	s := New(WithLatency(time.Hour))
	s.Create("a", nil, time.UnixMilli(1))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := s.ListSessions(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("latency did not honour ctx: %v", err)
	}
	s.SetLatency(0)
	boom := errors.New("disk gone")
	s.FailReads("a", boom)
	if _, err := s.ReadSurface(context.Background(), "a"); !errors.Is(err, boom) {
		t.Fatalf("failure: %v", err)
	}
	s.FailReads("a", nil)
	if _, err := s.ReadSurface(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
}

func TestConcurrentUse(t *testing.T) {
	s := New()
	s.Seed(SeedOptions{Count: 50, Seed: 1})
	r, err := sessionref.NewResolver(s, sessionref.Config{})
	if err != nil {
		t.Fatal(err)
	}
	hs, err := s.ListSessions(context.Background())
	if err != nil || len(hs) < 8 {
		t.Fatalf("%d sessions, %v", len(hs), err)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := hs[i].ID
			for range 50 {
				if _, err := s.AppendUser(id, "more"); err != nil {
					t.Errorf("append to %s: %v", id, err)
					return
				}
				if _, err := r.ListCandidates(context.Background(), sessionref.Target{ID: "t"}, "fix", 10); err != nil {
					t.Errorf("list: %v", err)
					return
				}
				// MaxReferenceBytes is the default, and sessions grow by a few
				// bytes a round: a budget error would be a real failure.
				p, err := r.Prepare(context.Background(), sessionref.Target{ID: "t"}, nil, []sessionref.Reference{{SessionID: id}})
				if err != nil || p.Context == nil {
					t.Errorf("prepare %s: %v", id, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, h := range hs[:8] {
		surf, err := s.ReadSurface(context.Background(), h.ID)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range surf.Events {
			if len(e.Content) > 0 && e.Content[0].Text == "more" {
				n++
			}
		}
		if n != 50 {
			t.Errorf("%s holds %d of the 50 appended messages", h.ID, n)
		}
	}
}

func TestSeedIsDeterministicAndRealistic(t *testing.T) {
	a, b := New(), New()
	idsA := a.Seed(SeedOptions{Count: 400, Seed: 7})
	idsB := b.Seed(SeedOptions{Count: 400, Seed: 7})
	if !reflect.DeepEqual(idsA, idsB) {
		t.Fatal("same seed, different ids")
	}
	ctx := context.Background()
	sa, errA := a.ReadSurface(ctx, idsA[123])
	sb, errB := b.ReadSurface(ctx, idsB[123])
	if errA != nil || errB != nil || len(sa.Events) == 0 {
		t.Fatalf("read: %v, %v, %d events", errA, errB, len(sa.Events))
	}
	if !reflect.DeepEqual(sa, sb) {
		t.Fatal("same seed, different sessions")
	}
	if other := New().Seed(SeedOptions{Count: 400, Seed: 8}); reflect.DeepEqual(other, idsA) {
		t.Fatal("different seeds, same ids")
	}
	var noCwd, noTitle, compacted, long, cjk, tools, plugins int
	cwds := map[string]bool{}
	titles, err := a.ReadTitles(ctx, idsA)
	if err != nil || len(titles) != len(idsA) {
		t.Fatalf("%d titles, %v", len(titles), err)
	}
	for i, id := range idsA {
		s, err := a.ReadSurface(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if s.Session.Cwd == nil {
			noCwd++
		} else {
			cwds[*s.Session.Cwd] = true
		}
		if titles[i].Title == nil {
			noTitle++
		}
		for _, e := range s.Events {
			txt := e.Content[0].Text
			switch {
			case e.Source.IsCheckpoint():
				compacted++
			case e.Type == sessionref.EventToolResult:
				tools++
			case e.Source.Kind == sessionref.SourcePlugin:
				plugins++
			}
			if len(txt) > 50000 {
				long++
			}
			for _, r := range txt {
				if r >= 0x4e00 && r <= 0x9fff {
					cjk++
					break
				}
			}
		}
	}
	for name, n := range map[string]int{"no cwd": noCwd, "no title": noTitle, "compacted": compacted, "long": long, "cjk": cjk, "tools": tools, "plugins": plugins} {
		if n == 0 {
			t.Errorf("corpus has no %s session", name)
		}
	}
	if len(cwds) < 8 {
		t.Errorf("only %d working directories", len(cwds))
	}
}

func BenchmarkSeed100k(b *testing.B) {
	for b.Loop() {
		New().Seed(SeedOptions{Count: 100000, Seed: 1})
	}
}

// plainQuery hides the TitleLister fast path.
type plainQuery struct{ sessionref.SessionQuery }

func TestTitleListerMatchesPlainPath(t *testing.T) {
	s := New()
	s.Seed(SeedOptions{Count: 3000, Seed: 3})
	fast, _ := sessionref.NewResolver(s, sessionref.Config{})
	slow, _ := sessionref.NewResolver(plainQuery{s}, sessionref.Config{})
	cwd := Cwds("")[1]
	target := sessionref.Target{ID: "x", Cwd: &cwd}
	for _, q := range []string{"fix", "重构", "PARSER", "src/api", "e1", "zzzz", "🎉"} {
		a, err1 := fast.ListCandidates(context.Background(), target, q, 40)
		b, err2 := slow.ListCandidates(context.Background(), target, q, 40)
		if err1 != nil || err2 != nil || !reflect.DeepEqual(a, b) {
			t.Fatalf("query %q: fast and plain paths differ (%v %v)", q, err1, err2)
		}
	}
	// A new title is seen by the fast path at once.
	hs, _ := s.ListSessions(context.Background())
	s.SetTitle(hs[5].ID, "Brand new unmistakable title")
	got, _ := fast.ListCandidates(context.Background(), target, "unmistakable", 5)
	if len(got) != 1 || got[0].SessionID != hs[5].ID {
		t.Fatalf("fresh title not found: %+v", got)
	}
}

// BenchmarkListCandidates100k: a non-empty query over 100,000 generated
// sessions, titles served by the store's index.
func BenchmarkListCandidates100k(b *testing.B) {
	s := New()
	s.Seed(SeedOptions{Count: 100000, Seed: 1})
	r, _ := sessionref.NewResolver(s, sessionref.Config{})
	cwd := Cwds("")[0]
	target := sessionref.Target{ID: "x", Cwd: &cwd}
	r.ListCandidates(context.Background(), target, "warm", 50)
	b.ResetTimer()
	for b.Loop() {
		if _, err := r.ListCandidates(context.Background(), target, "pars", 50); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNoMatch100k: a filtered query that matches nothing over
// 100,000 generated sessions, so every session is read and scanned: the
// worst keystroke. Through the store's TitleLister and through a plain
// SessionQuery (one title lookup per session), each with the resolver
// alone, with a Lister that keeps the folded text between keystrokes, and
// with a Lister inside its MaxAge (a burst of typing: no store reads).
func BenchmarkNoMatch100k(b *testing.B) {
	s := New()
	s.Seed(SeedOptions{Count: 100000, Seed: 1})
	cwd := Cwds("")[0]
	target := sessionref.Target{ID: "x", Cwd: &cwd}
	for _, c := range []struct {
		name string
		q    sessionref.SessionQuery
	}{{"titlelister", s}, {"plain", plainQuery{s}}} {
		r, _ := sessionref.NewResolver(c.q, sessionref.Config{})
		l := sessionref.NewLister(r, 0)
		burst := sessionref.NewLister(r, 0)
		burst.SetMaxAge(time.Hour) // every keystroke inside one burst of typing
		list := map[string]func(context.Context, sessionref.Target, string, int) ([]sessionref.Candidate, error){
			"resolver": r.ListCandidates, "lister": l.ListCandidates, "lister-burst": burst.ListCandidates,
		}
		for _, how := range []string{"resolver", "lister", "lister-burst"} {
			b.Run(c.name+"/"+how, func(b *testing.B) {
				list[how](context.Background(), target, "warm", 50)
				for b.Loop() {
					if got, err := list[how](context.Background(), target, "zzzzq", 50); err != nil || len(got) != 0 {
						b.Fatal(got, err)
					}
				}
			})
		}
	}
}

// TestSeedSurfacesReachSnapshots: every generated surface is set up so
// that its user turns, checkpoints and replies reach a snapshot.
func TestSeedSurfacesReachSnapshots(t *testing.T) {
	s := New()
	s.Seed(SeedOptions{Count: 200, Seed: 5})
	hs, err := s.ListSessions(context.Background())
	if err != nil || len(hs) != 200 {
		t.Fatalf("%d sessions, %v", len(hs), err)
	}
	for _, h := range hs {
		surf, err := s.ReadSurface(context.Background(), h.ID)
		if err != nil {
			t.Fatal(err)
		}
		if err := sessionref.CheckSurface(surf); err != nil {
			t.Fatalf("session %s: %v", h.ID, err)
		}
	}
}
