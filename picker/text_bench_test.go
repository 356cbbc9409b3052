package picker

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/internal/textutil/texttest"
	"github.com/dshkit/mentions/sessionref"
)

// The picker's text layout, each over one text: a preview's
// conversation (wrapped, its terms found), a hit's snippet line, and the
// terms taken from a snippet.
var textRoutines = []struct {
	name string
	f    func(s string)
}{
	{"renderPreview", func(s string) {
		p := Preview{Snapshot: sessionref.Snapshot{Conversation: []sessionref.Turn{{Role: sessionref.RoleUser, Text: s}}}}
		renderPreview(p, 80, s[:min(len(s), 160)], []string{"abc", "话界"})
	}},
	{"renderSnippet", func(s string) {
		h := Hit{Snippet: s, Match: [][2]int{{0, 3}, {len(s) - 3, len(s)}}}
		fitSegs(showFirstMatch(snippetSegs(h.Snippet, h.Match, false), 76), 76)
	}},
	{"hitTerms", func(s string) { hitTerms(Hit{Snippet: s, Match: [][2]int{{0, len(s)}}}) }},
}

// BenchmarkText times the picker's text layout over the three hostile
// shapes at 64 KiB and 1 MiB (scripts/bench-text prints the ratios).
func BenchmarkText(b *testing.B) {
	for _, r := range textRoutines {
		b.Run(r.name, func(b *testing.B) { texttest.Bench(b, r.f) })
	}
}

// FuzzTextWorkLinear: the picker's text layout measures each byte of
// its input a bounded number of times, whatever the text.
func FuzzTextWorkLinear(f *testing.F) {
	for _, s := range []string{"a", "abc ", "界", "e\u0301", "👩\u200D💻", "\x1b[1m", "abc\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 64 {
			return
		}
		for _, r := range textRoutines {
			texttest.CheckLinear(t, r.name, s, r.f)
		}
	})
}

// longWordPicker is a picker over a session whose two messages are one
// 100 KB word ("word") or 100 KB of ordinary text ("normal"), found by
// the hit source for "pars" and "parse" (each its own terms), its
// preview on: what the demo showed while that session was highlighted.
func longWordPicker(tb testing.TB, kind string) Model {
	s := fakestore.New(fakestore.WithClock(func() time.Time { return testNow }))
	cwd := "/home/dev/src/mentions"
	id := "aaaa0001-0000-4000-8000-000000000001"
	must := func(err error) {
		if err != nil {
			tb.Fatal(err)
		}
	}
	must(s.Create("current", &cwd, testNow))
	must(s.Create(id, &cwd, testNow.Add(-time.Hour)))
	_, err := s.SetTitle(id, "the session")
	must(err)
	text := "pars" + strings.Repeat("e", 100_000)
	if kind == "normal" {
		text = strings.Repeat("the parser dropped a token; ", 100_000/28)
	}
	_, err = s.AppendUser(id, text)
	must(err)
	_, err = s.AppendAssistant(id, text)
	must(err)
	target := sessionref.Target{ID: "current", Cwd: &cwd}
	r, err := sessionref.NewResolver(s, sessionref.Config{})
	must(err)
	snippet := text[:160] + "…"
	hits := func(_ context.Context, q string) ([]Hit, error) {
		c := cand(id, "the session", &cwd, time.Hour, sessionref.RankSameCwd)
		return []Hit{{Candidate: c, Snippet: snippet, Match: [][2]int{{0, min(len(q), 5)}}}}, nil
	}
	m := newTestPicker(&fakeSource{items: []sessionref.Candidate{}}, WithHitSource(hits), WithPreview(ResolverPreviewer(r)))
	m.SetTarget(target)
	m.SetScreenSize(200, 60)
	m.SetAnchor(2, 58)
	cmd := m.Open("pars")
	m, _ = drain(m, cmd)
	if v := m.View(); !strings.Contains(v, "kept") {
		tb.Fatalf("no preview drawn:\n%s", v)
	}
	return m
}

// BenchmarkPreviewLongWord is a key typed while the highlighted hit is a
// session of one 100 KB word (its "in messages" row and its preview,
// drawn again for the new query's terms), against one of ordinary text
// of the same size: the query changes, the answers arrive, the View is
// drawn. The word once cost 2.7–2.9 s a key in the demo.
func BenchmarkPreviewLongWord(b *testing.B) {
	for _, kind := range []string{"normal", "word"} {
		b.Run(kind, func(b *testing.B) {
			m := longWordPicker(b, kind)
			queries := []string{"parse", "pars"}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				mm, c := queried(m, queries[i%2])
				mm, _ = drain(mm, c)
				_ = mm.View()
				m = mm
			}
		})
	}
}

// Showing a session of one 100 KB word, and typing two keys while it is
// highlighted, does the work ordinary text of that size does, counted
// (bytes measured by the text layout, not time): the word is laid out
// once, as ordinary text is, never once a line, and a key that changes
// only the terms does not lay it out again.
func TestLongWordKeyWork(t *testing.T) {
	work := map[string]int64{}
	for _, kind := range []string{"normal", "word"} {
		work[kind] = texttest.Work(func() {
			m := longWordPicker(t, kind) // the preview laid out for the first query
			for _, q := range []string{"parse", "pars"} {
				cmd := m.SetQuery(q)
				m, _ = drain(m, cmd)
				_ = m.View()
			}
		})
	}
	t.Logf("bytes measured: word %d, ordinary text %d", work["word"], work["normal"])
	if work["normal"] == 0 || work["word"] > 2*work["normal"] {
		t.Fatalf("the 100 KB word measured %d bytes, ordinary text %d", work["word"], work["normal"])
	}
}
