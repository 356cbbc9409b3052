package picker

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/sessionref"
)

// viewOf opens a picker over items (and hits) at width w and returns
// its rows as plain text.
func viewOf(t *testing.T, w int, items []sessionref.Candidate, hits []Hit, opts ...Option) string {
	return viewQuery(t, w, "x", items, hits, opts...)
}

func viewQuery(t *testing.T, w int, q string, items []sessionref.Candidate, hits []Hit, opts ...Option) string {
	t.Helper()
	if hits != nil {
		opts = append(opts, WithHitSource(func(context.Context, string) ([]Hit, error) { return hits, nil }))
	}
	m := newTestPicker(&fakeSource{items: items}, opts...)
	m.SetScreenSize(w, 24)
	cmd := m.Open(q)
	m, _ = settle(m, cmd)
	return ansi.Strip(m.View())
}

// TestColumnsThatSayNothingGo: a store without folders, or rows all in
// one folder, does not spend the row on a column that repeats itself,
// and the label gets the room; rows that differ keep both columns.
func TestColumnsThatSayNothingGo(t *testing.T) {
	long := "a rather long title about the session parser rewrite and its tests"
	other := func(id, cwd string) sessionref.Candidate {
		return cand(id, long+" "+id, ptr(cwd), time.Hour, sessionref.RankOtherCwd)
	}
	cases := []struct {
		name       string
		items      []sessionref.Candidate
		hits       []Hit
		cwd, badge bool
		wantInView []string
		notInView  []string
	}{
		{"no folders", []sessionref.Candidate{
			cand("x1", long+" one", nil, time.Hour, sessionref.RankNoCwd),
			cand("x2", long+" two", nil, 2*time.Hour, sessionref.RankNoCwd),
		}, nil, false, false, []string{long + " one"}, []string{"(no cwd)", "no dir"}},
		{"one folder", []sessionref.Candidate{
			cand("x1", "one", ptr("/home/dev/src/mentions"), time.Hour, sessionref.RankSameCwd),
			cand("x2", "two", ptr("/home/dev/src/mentions"), time.Hour, sessionref.RankSameCwd),
		}, nil, false, true, []string{"this dir"}, []string{"~/src/mentions"}},
		{"one row without a folder", []sessionref.Candidate{
			cand("x1", "one", nil, time.Hour, sessionref.RankNoCwd),
		}, nil, false, false, nil, []string{"(no cwd)", "no dir"}},
		{"one row with a folder", []sessionref.Candidate{
			cand("x1", "one", ptr("/home/dev/src/mentions"), time.Hour, sessionref.RankSameCwd),
		}, nil, true, true, []string{"~/src/mentions", "this dir"}, nil},
		{"one other folder", []sessionref.Candidate{other("x1", "/srv/a"), other("x2", "/srv/a")},
			nil, false, false, []string{long + " x1"}, []string{"/srv/a"}},
		{"other folders", []sessionref.Candidate{other("x1", "/srv/a"), other("x2", "/srv/b")},
			nil, true, false, []string{"/srv/a", "/srv/b"}, nil},
		{"mixed", corpus, nil, true, true, []string{"this dir", "no dir", "(no cwd)", "~/src/mentions"}, nil},
		{"a hit elsewhere", []sessionref.Candidate{
			cand("x1", "one", ptr("/home/dev/src/mentions"), time.Hour, sessionref.RankSameCwd),
			cand("x2", "two", ptr("/home/dev/src/mentions"), time.Hour, sessionref.RankSameCwd),
		}, []Hit{{Candidate: cand("h1", "three", nil, time.Hour, sessionref.RankNoCwd), Snippet: "x marks"}},
			true, true, []string{"~/src/mentions", "(no cwd)", "this dir", "no dir"}, nil},
	}
	for _, c := range cases {
		q := "x"
		if c.name == "mixed" {
			q = ""
		}
		var opts []Option
		if c.hits != nil {
			hits := c.hits
			opts = append(opts, WithHitSource(func(context.Context, string) ([]Hit, error) { return hits, nil }))
		}
		m := newTestPicker(&fakeSource{items: c.items}, opts...)
		cmd := m.Open(q)
		m, _ = settle(m, cmd)
		if cwd, badge := m.informative(); cwd != c.cwd || badge != c.badge {
			t.Errorf("%s: folder %v badge %v, want %v %v", c.name, cwd, badge, c.cwd, c.badge)
		}
		view := viewQuery(t, 160, q, c.items, c.hits)
		for _, s := range c.wantInView {
			if !strings.Contains(view, s) {
				t.Errorf("%s: %q missing:\n%s", c.name, s, view)
			}
		}
		for _, s := range c.notInView {
			if strings.Contains(view, s) {
				t.Errorf("%s: %q shown:\n%s", c.name, s, view)
			}
		}
	}
}

// TestAgeUnits: seconds where milliseconds belong read "secs?", not
// "—"; a host that ranks by last activity shows it with LastActive.
func TestAgeUnits(t *testing.T) {
	if got := Age(testNow, testNow.Add(-time.Hour).Unix()); got != "secs?" {
		t.Errorf("seconds: %q", got)
	}
	if got := Age(testNow, 2); got != "—" {
		t.Errorf("2 ms after the epoch: %q", got)
	}
	c := cand("x1", "one", nil, 40*24*time.Hour, sessionref.RankNoCwd)
	c.UpdatedAt = testNow.Add(-5 * time.Minute).UnixMilli()
	secs := cand("x2", "two", nil, 0, sessionref.RankNoCwd)
	secs.CreatedAt = testNow.Add(-time.Hour).Unix()
	items := []sessionref.Candidate{c, secs}
	if view := viewOf(t, 80, items, nil); !strings.Contains(view, "1mo ago") || !strings.Contains(view, "secs?") {
		t.Errorf("created:\n%s", view)
	}
	if view := viewOf(t, 80, items, nil, WithAge(LastActive)); !strings.Contains(view, "5m ago") || !strings.Contains(view, "secs?") {
		t.Errorf("last active:\n%s", view)
	}
	none := WithAge(func(sessionref.Candidate) time.Time { return time.Time{} })
	if view := viewOf(t, 80, items, nil, none); strings.Count(view, "—") != 2 {
		t.Errorf("zero times:\n%s", view)
	}
	if got := LastActive(secs); !got.Equal(Created(secs)) {
		t.Errorf("LastActive without UpdatedAt = %v", got)
	}
}
