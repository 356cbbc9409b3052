package picker

import (
	"context"
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/sessionref"
)

// BenchmarkKeystrokeToRows: one keystroke changes the query, the fetch
// runs against 100,000 fakestore sessions through the resolver, and the
// reply is applied and drawn. Compare with a 16 ms frame.
func BenchmarkKeystrokeToRows(b *testing.B) {
	store := fakestore.New()
	store.Seed(fakestore.SeedOptions{Count: 100000, Seed: 1})
	r, _ := sessionref.NewResolver(store, sessionref.Config{})
	cwd := fakestore.Cwds("")[0]
	m := newTestPicker(ResolverSource(r, 50), withTarget(sessionref.Target{ID: "self", Cwd: &cwd}))
	_ = m.Open("")
	queries := []string{"p", "pa", "par", "pars", "parse", "parser"}
	b.ResetTimer()
	i := 0
	for b.Loop() {
		q := queries[i%len(queries)]
		i++
		m.cache = nil // measure the fetch, not the cache
		m.query = ""
		next := m
		c := next.SetQuery(q)
		// The batch is (fetch, slow tick); run the fetch only: the tick
		// just waits and is not part of the work.
		fetch := c().(tea.BatchMsg)[0]
		next, _ = next.Update(fetch())
		_ = next.View()
		m = next
	}
}

// BenchmarkUpdateKeystroke: what Update itself costs for a keystroke (the
// fetch runs later, in a Cmd).
func BenchmarkUpdateKeystroke(b *testing.B) {
	m := newTestPicker(SourceFunc(func(context.Context, string) ([]sessionref.Candidate, error) { return nil, nil }))
	_ = m.Open("")
	i := 0
	for b.Loop() {
		_ = m.SetQuery(fmt.Sprint(i))
		i++
	}
}

// BenchmarkView50k: View with 50,000 candidates loaded.
func BenchmarkView50k(b *testing.B) {
	items := make([]sessionref.Candidate, 50000)
	for i := range items {
		c := corpus[i%len(corpus)]
		c.SessionID = fmt.Sprintf("%s-%d", c.SessionID, i)
		items[i] = c
	}
	m := newTestPicker(&fakeSource{items: items})
	cmd := m.Open("")
	m, _ = settle(m, cmd)
	if len(m.Answer(SessionsID).Candidates) != 50000 {
		b.Fatal(len(m.Answer(SessionsID).Candidates))
	}
	m.cursor, m.offset = 25000, 24996
	b.ResetTimer()
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkViewByListLength: a View's cost against the length of the list
// it draws a window of (20, 2000 and 50,000 candidates), in the worst
// shape for it: every row in one folder with one rank, so deciding that
// the folder column says nothing looks at every row.
func BenchmarkViewByListLength(b *testing.B) {
	for _, n := range []int{20, 2000, 50000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			items := make([]sessionref.Candidate, n)
			for i := range items {
				c := corpus[i%len(corpus)]
				c.SessionID = fmt.Sprintf("%s-%d", c.SessionID, i)
				c.Cwd, c.Rank = nil, sessionref.RankNoCwd
				items[i] = c
			}
			m := newTestPicker(&fakeSource{items: items})
			cmd := m.Open("")
			m, _ = settle(m, cmd)
			b.ResetTimer()
			for b.Loop() {
				_ = m.View()
			}
		})
	}
}
