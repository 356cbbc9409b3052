package sessionref

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

func rankingStore() *memStore {
	m := newMemStore()
	// Newest first, as a store lists them.
	m.headers = []SessionHeader{
		{ID: "other", Cwd: ptr("/else"), CreatedAt: 40},
		{ID: "none", CreatedAt: 30},
		{ID: "same-later", Cwd: ptr("/same"), CreatedAt: 25},
		{ID: "same", Cwd: ptr("/same"), CreatedAt: 20},
		{ID: "target", Cwd: ptr("/same"), CreatedAt: 10},
	}
	m.titles["same-later"] = TitleResult{Title: &Title{Text: "Latest title", EventSeq: 3, UpdatedAt: 26}}
	return m
}

// Ranking, filtering by id, cwd and title, limits and cancellation
// (docs/candidates.md, its example included).
func TestListCandidatesRanking(t *testing.T) {
	r, _ := NewResolver(rankingStore(), Config{})
	target := Target{ID: "target", Cwd: ptr("/same")}
	got, err := r.ListCandidates(context.Background(), target, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []Candidate{
		{SessionID: "same-later", Label: "Latest title", Cwd: ptr("/same"), CreatedAt: 25, Rank: RankSameCwd},
		{SessionID: "same", Label: "same", Cwd: ptr("/same"), CreatedAt: 20, Rank: RankSameCwd},
		{SessionID: "none", Label: "none", CreatedAt: 30, Rank: RankNoCwd},
		{SessionID: "other", Label: "other", Cwd: ptr("/else"), CreatedAt: 40, Rank: RankOtherCwd},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v", got)
	}
	if got, _ := r.ListCandidates(context.Background(), target, "els", 1); len(got) != 1 || got[0].SessionID != "other" {
		t.Fatalf("els: %+v", got)
	}
	if got, _ := r.ListCandidates(context.Background(), target, "LATEST", 1); len(got) != 1 || got[0].SessionID != "same-later" {
		t.Fatalf("LATEST: %+v", got)
	}
	if _, err := r.ListCandidates(context.Background(), target, "", 0); CodeOf(err) != CodeInvalidReference {
		t.Fatalf("limit 0: %v", err)
	}
	// A target without a cwd ranks cwd-less sessions first.
	got, _ = r.ListCandidates(context.Background(), Target{ID: "target"}, "", 10)
	if got[0].SessionID != "none" {
		t.Fatalf("no-cwd target: %+v", got)
	}
}

func TestListCandidatesNoCwdKeyInJSON(t *testing.T) {
	r, _ := NewResolver(rankingStore(), Config{})
	got, _ := r.ListCandidates(context.Background(), Target{ID: "target"}, "none", 5)
	b, _ := jsonMarshal(got[0])
	if string(b) != `{"sessionId":"none","label":"none","createdAt":30}` {
		t.Fatalf("json %s", b)
	}
}

func TestListCandidatesCancelledWhileListing(t *testing.T) {
	m := rankingStore()
	m.listHook = func(ctx context.Context) ([]SessionHeader, error) { select {} }
	r, _ := NewResolver(m, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(10*time.Millisecond, cancel)
	_, err := r.ListCandidates(ctx, Target{ID: "target"}, "", 5)
	if CodeOf(err) != CodeCancelled || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if _, err := r.ListCandidates(ctx, Target{ID: "target"}, "", 5); CodeOf(err) != CodeCancelled {
		t.Fatalf("pre-cancelled: %v", err)
	}
}

func TestListCandidatesStoreErrorUnwrapped(t *testing.T) {
	m := rankingStore()
	m.listHook = func(ctx context.Context) ([]SessionHeader, error) { return nil, errBoom }
	r, _ := NewResolver(m, Config{})
	_, err := r.ListCandidates(context.Background(), Target{ID: "target"}, "", 5)
	if err != errBoom || CodeOf(err) != "" {
		t.Fatalf("err = %v", err)
	}
}

// ListMentionCandidates uses the configured limit and gives each candidate
// its mention (docs/candidates.md).
func TestListMentionCandidates(t *testing.T) {
	m := newMemStore()
	m.headers = []SessionHeader{{ID: "source]", CreatedAt: 20}, {ID: "target", CreatedAt: 10}}
	r, _ := NewResolver(m, Config{CandidateLimit: 5})
	got, err := r.ListMentionCandidates(context.Background(), Target{ID: "target"}, "")
	if err != nil || len(got) != 1 {
		t.Fatalf("%+v %v", got, err)
	}
	want, _ := FormatMention(Reference{SessionID: "source]", Label: ptr("source]")})
	if got[0].CreatedAt != 20 || got[0].Mention != want {
		t.Fatalf("%+v", got[0])
	}
	b, _ := jsonMarshal(got[0])
	if string(b) != `{"sessionId":"source]","label":"source]","createdAt":20,"mention":"@[source\\]](dsh-session:InNvdXJjZV0i)"}` {
		t.Fatalf("json %s", b)
	}
}

// Titles: a title that cannot be read labels by id, and a hung title read
// gives way to cancellation (docs/candidates.md, step 5).
func TestCandidateTitles(t *testing.T) {
	m := newMemStore()
	m.headers = []SessionHeader{{ID: "a", CreatedAt: 2}, {ID: "b", CreatedAt: 1}}
	m.titles["a"] = TitleResult{Err: errBoom}
	m.titles["b"] = TitleResult{Title: &Title{Text: ""}}
	r, _ := NewResolver(m, Config{})
	got, err := r.ListCandidates(context.Background(), Target{ID: "t"}, "", 5)
	if err != nil || got[0].Label != "a" || got[0].Cwd != nil || got[1].Label != "" {
		t.Fatalf("%+v %v", got, err)
	}

	// The batch hangs until the caller aborts, which it does once the
	// batch is running (not on a timer, which a slow machine can beat).
	gotCtx := make(chan context.Context, 1)
	ctx, cancel := context.WithCancel(context.Background())
	m.titlesHook = func(ctx context.Context, ids []string) ([]TitleResult, error) {
		gotCtx <- ctx
		go cancel()
		<-ctx.Done()
		return nil, ctx.Err()
	}
	_, err = r.ListCandidates(ctx, Target{ID: "t"}, "x", 5)
	if CodeOf(err) != CodeCancelled {
		t.Fatalf("err = %v", err)
	}
	if c := <-gotCtx; c.Err() == nil {
		t.Fatal("the title batch did not get the caller's context")
	}
}

func TestLowerJSFullCasing(t *testing.T) {
	for in, want := range map[string]string{"ABC": "abc", "İ": "i\u0307", "ΟΔΟΣ": "οδος", "ΣΑ": "σα", "Straße": "straße"} {
		if got := lowerJS(in); got != want {
			t.Errorf("lowerJS(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzContainsLower(f *testing.F) {
	f.Add("Refactor PARSER", "pars")
	f.Add("İstanbul", "i̇s")
	f.Add("ΟΔΟΣ", "ος")
	f.Fuzz(func(t *testing.T, s, q string) {
		needle := lowerJS(q)
		if got, want := containsLower(s, needle), strings.Contains(lowerJS(s), needle); got != want {
			t.Fatalf("containsLower(%q, %q) = %v, want %v", s, needle, got, want)
		}
	})
}
