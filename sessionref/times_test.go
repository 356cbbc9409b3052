package sessionref

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

var checkNow = time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)

func TestMillis(t *testing.T) {
	if Millis(time.Time{}) != 0 {
		t.Error("the zero time is not 0")
	}
	if got := Millis(checkNow); got != 1_796_299_200_000 {
		t.Errorf("Millis = %d", got)
	}
	if got := Millis(time.Unix(0, 1_500_000)); got != 1 {
		t.Errorf("Millis rounds: %d", got)
	}
}

func TestLooksLikeSeconds(t *testing.T) {
	for v, want := range map[int64]bool{
		checkNow.Unix():                     true,
		checkNow.Unix() - 86400*365*20:      true,
		946_684_800:                         true,  // 2000-01-01 in seconds
		946_684_799:                         false, // before it
		checkNow.Add(23 * time.Hour).Unix(): true,
		checkNow.Add(25 * time.Hour).Unix(): false,
		checkNow.UnixMilli():                false,
		0:                                   false,
		2:                                   false,
		checkNow.UnixMicro():                false,
	} {
		if got := LooksLikeSeconds(v, checkNow); got != want {
			t.Errorf("LooksLikeSeconds(%d) = %v", v, got)
		}
	}
}

func TestCheckStore(t *testing.T) {
	good := newMemStore()
	good.put("new", nil, checkNow.UnixMilli(), nil)
	good.put("old", nil, checkNow.Add(-time.Hour).UnixMilli(), nil)
	good.put("unknown", nil, 0, nil)
	good.titles["new"] = TitleResult{Title: &Title{Text: "T", UpdatedAt: checkNow.UnixMilli()}}
	if err := checkStore(context.Background(), good, checkNow); err != nil {
		t.Fatalf("a good store: %v", err)
	}

	bad := newMemStore()
	bad.put("secs", nil, checkNow.Unix(), nil)
	bad.put("nanos", nil, checkNow.UnixNano(), nil)
	bad.put("older", nil, checkNow.Add(-2*time.Hour).UnixMilli(), nil)
	bad.put("newer", nil, checkNow.Add(-time.Hour).UnixMilli(), nil)
	bad.put("newer", nil, checkNow.Add(-3*time.Hour).UnixMilli(), nil)
	bad.titles["older"] = TitleResult{Title: &Title{Text: "T", UpdatedAt: checkNow.Unix()}}
	err := checkStore(context.Background(), bad, checkNow)
	var issues []*StoreIssue
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var si *StoreIssue
		if !errors.As(e, &si) {
			t.Fatalf("not a StoreIssue: %v", e)
		}
		issues = append(issues, si)
	}
	want := []struct{ id, has string }{
		{"secs", "CreatedAt 1796299200 is Unix seconds, not milliseconds (it reads as 1970-01-21T"},
		{"nanos", "far in the future"},
		{"newer", "listed more than once"},
		{"newer", "listed after older although its CreatedAt is later"},
		{"older", "the title's UpdatedAt 1796299200 is Unix seconds"},
	}
	if len(issues) != len(want) {
		t.Fatalf("issues: %v", err)
	}
	for i, w := range want {
		if issues[i].SessionID != w.id || !strings.Contains(issues[i].Error(), w.has) {
			t.Errorf("issue %d = %q, want %s: …%s…", i, issues[i].Error(), w.id, w.has)
		}
	}

	// A store that lists by last activity is checked by it.
	active := newMemStore()
	active.headers = []SessionHeader{
		{ID: "a", CreatedAt: checkNow.Add(-9 * time.Hour).UnixMilli(), UpdatedAt: checkNow.UnixMilli()},
		{ID: "b", CreatedAt: checkNow.Add(-time.Hour).UnixMilli(), UpdatedAt: checkNow.Add(-time.Minute).UnixMilli()},
	}
	if err := checkStore(context.Background(), active, checkNow); err != nil {
		t.Fatalf("listing by UpdatedAt: %v", err)
	}
	active.headers[1].UpdatedAt = checkNow.Add(time.Minute).UnixMilli()
	if err := checkStore(context.Background(), active, checkNow); err == nil || !strings.Contains(err.Error(), "UpdatedAt is later") {
		t.Fatalf("out of order by UpdatedAt: %v", err)
	}

	short := newMemStore()
	short.put("x", nil, 0, nil)
	short.titlesHook = func(context.Context, []string) ([]TitleResult, error) { return nil, nil }
	if err := checkStore(context.Background(), short, checkNow); err == nil || !strings.Contains(err.Error(), "ReadTitles answered 0 results for 1 ids") {
		t.Fatalf("short titles: %v", err)
	}
	failing := newMemStore()
	failing.listHook = func(context.Context) ([]SessionHeader, error) { return nil, errors.New("down") }
	if err := CheckStore(context.Background(), failing); err == nil || err.Error() != "down" {
		t.Fatalf("store error: %v", err)
	}
}

// TestCandidateUpdatedAt: the last activity a store lists reaches the
// candidate, and a candidate without it marshals as before.
func TestCandidateUpdatedAt(t *testing.T) {
	m := newMemStore()
	m.headers = []SessionHeader{{ID: "a", CreatedAt: 1_700_000_000_000, UpdatedAt: 1_700_000_500_000}, {ID: "b", CreatedAt: 1_600_000_000_000}}
	r, _ := NewResolver(m, Config{})
	cs, err := r.ListCandidates(context.Background(), Target{ID: "t"}, "", 10)
	if err != nil || len(cs) != 2 || cs[0].UpdatedAt != 1_700_000_500_000 || cs[1].UpdatedAt != 0 {
		t.Fatalf("%+v %v", cs, err)
	}
	raw, _ := jsonMarshal(cs)
	if string(raw) != `[{"sessionId":"a","label":"a","createdAt":1700000000000,"updatedAt":1700000500000},{"sessionId":"b","label":"b","createdAt":1600000000000}]` {
		t.Fatalf("json %s", raw)
	}
}
