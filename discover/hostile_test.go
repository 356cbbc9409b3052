package discover

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/sessionref"
)

// hostileIndex is 20 sessions of long runs: 16 KiB of one letter, of one
// Han character, and of one short word.
func hostileIndex(tb testing.TB) *Index {
	tb.Helper()
	s := fakestore.New()
	for i := range 20 {
		id := "s" + string(rune('a'+i))
		s.Create(id, nil, time.Unix(int64(i), 0))
		s.AppendUser(id, strings.Repeat("a", 16<<10))
		s.AppendAssistant(id, strings.Repeat("你", 5<<10))
		s.AppendAssistant(id, strings.Repeat("a ", 8<<10)+" retry")
	}
	ix, err := Open("", s)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ix.Close() })
	if _, err := ix.Sync(context.Background()); err != nil {
		tb.Fatal(err)
	}
	return ix
}

// hostileQueries are the worst shapes a query can take against long
// runs: sixteen long terms, long gram runs, long phrases, each sixteen
// times and sixteen different ones.
var hostileQueries = map[string]string{
	"long-words":    strings.TrimSpace(strings.Repeat(strings.Repeat("a", 200)+" ", 16)),
	"gram-runs":     strings.TrimSpace(strings.Repeat(strings.Repeat("你", 80)+" ", 16)),
	"phrases":       strings.TrimSpace(strings.Repeat(`"`+strings.Repeat("a ", 100)+`" `, 16)),
	"distinct-runs": distinctRuns(),
}

func distinctRuns() string {
	var b strings.Builder
	for i := range 16 {
		b.WriteString(`"` + strings.Repeat("a ", 5+i%3) + strings.Repeat("你", 3+i) + `" `)
	}
	return b.String()
}

// The hostile queries are cut to bounded work (see maxPhraseWords and
// maxGramRunes): what reaches MATCH is at most 16 operands of at most 6
// words or 8 characters, whatever was typed.
func TestHostileQueriesAreBounded(t *testing.T) {
	for name, q := range hostileQueries {
		terms := parseQuery(q)
		words, tri := matchExprs(terms)
		if len(terms) > maxTerms || len(words)+len(tri) > maxTerms*(maxPhraseWords*5+maxGramRunes*3+8) {
			t.Fatalf("%s: %d terms, MATCH %q / %q", name, len(terms), words, tri)
		}
	}
	if terms := parseQuery(hostileQueries["long-words"]); len(terms) != 1 {
		t.Fatalf("16 times one word: %d terms", len(terms))
	}
	ix := hostileIndex(t)
	for name, q := range hostileQueries {
		if _, err := ix.Search(context.Background(), sessionref.Target{}, q, 20); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	// A search already cancelled stops before any work.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ix.Search(ctx, sessionref.Target{}, hostileQueries["phrases"], 20); err == nil {
		t.Fatal("a cancelled search succeeded")
	}
}

// BenchmarkSearchHostile runs each hostile query over 20 sessions of
// long runs, and "retry" over the same index as the baseline of the same
// run (ratio = hostile / retry). Before the bounds: 1.6 s (gram runs) and
// 5.5 s (phrases) a search; the target is a few tens of ms.
func BenchmarkSearchHostile(b *testing.B) {
	ix := hostileIndex(b)
	for _, name := range []string{"baseline-retry", "long-words", "gram-runs", "phrases", "distinct-runs"} {
		q := hostileQueries[name]
		if name == "baseline-retry" {
			q = "retry"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := ix.Search(context.Background(), sessionref.Target{}, q, 20); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSearchDeadline runs the costliest hostile query with a
// deadline of 10 ms and reports how long after it the search returned
// (late-ms, the worst of the run): cancellation reaches SQLite and the
// snippets within a few ms.
func BenchmarkSearchDeadline(b *testing.B) {
	ix := hostileIndex(b)
	q := hostileQueries["distinct-runs"]
	const deadline = 10 * time.Millisecond
	var worst time.Duration
	for b.Loop() {
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		start := time.Now()
		ix.Search(ctx, sessionref.Target{}, q, 20)
		worst = max(worst, time.Since(start)-deadline)
		cancel()
	}
	b.ReportMetric(float64(worst)/float64(time.Millisecond), "late-ms")
}
