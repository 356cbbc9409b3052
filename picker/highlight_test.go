package picker

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/sessionref"
)

// TestLateAnswersKeepTheHighlight: with a slow store the hits arrive
// before the candidates; the highlight the user sees (the first hit, or
// one they moved to) stays on that session when the candidates arrive,
// also when that session moves from the hits to the candidates, and
// when a refresh answers again. Enter then picks the session the user
// was looking at.
func TestLateAnswersKeepTheHighlight(t *testing.T) {
	for _, tc := range []struct {
		name  string
		moves int // Down presses after the hits arrive
	}{{"first hit", 0}, {"hit that is also a candidate", 2}} {
		hs := &fakeHits{}
		m := newHitsPicker(hs)
		m, _ = m.Open("parser")
		m, _ = m.Update(NewHitsMsg(m, "parser", mustHits(t, hs, "parser"), nil))
		for range tc.moves {
			m, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyDown})
		}
		seen, ok := m.Highlighted()
		if !ok {
			t.Fatalf("%s: nothing highlighted once the hits are in", tc.name)
		}
		m, _ = m.Update(NewFetchedMsg(m, "parser", []sessionref.Candidate{corpus[0], corpus[1]}, nil))
		if got, ok := m.Highlighted(); !ok || got.SessionID != seen.SessionID {
			t.Fatalf("%s: the candidates moved the highlight from %q to %q", tc.name, seen.Label, got.Label)
		}
		// A refresh (the index synced) answers the same query again.
		m, _ = m.Refresh()
		m, _ = m.Update(NewHitsMsg(m, "parser", mustHits(t, hs, "parser"), nil))
		m, _ = m.Update(NewFetchedMsg(m, "parser", []sessionref.Candidate{corpus[0], corpus[1]}, nil))
		if got, ok := m.Highlighted(); !ok || got.SessionID != seen.SessionID {
			t.Fatalf("%s: a refresh moved the highlight from %q to %q", tc.name, seen.Label, got.Label)
		}
		m, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
		if _, p, ok := m.TakePick(); !ok || p.Candidate.SessionID != seen.SessionID {
			t.Fatalf("%s: Enter picked %q, the user saw %q", tc.name, p.Candidate.Label, seen.Label)
		}
	}
	// A new query starts again at its first row.
	hs := &fakeHits{}
	m := newHitsPicker(hs)
	m, _ = m.Open("parser")
	m, _ = m.Update(NewHitsMsg(m, "parser", mustHits(t, hs, "parser"), nil))
	m, _ = m.Update(NewFetchedMsg(m, "parser", []sessionref.Candidate{corpus[0], corpus[1]}, nil))
	m, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	m, _ = m.SetQuery("parse")
	m, _ = m.Update(NewFetchedMsg(m, "parse", []sessionref.Candidate{corpus[0], corpus[1]}, nil))
	if m.Cursor() != 0 {
		t.Fatalf("a new query kept the cursor at %d", m.Cursor())
	}
}

func mustHits(t *testing.T, hs *fakeHits, q string) []Hit {
	t.Helper()
	hits, err := hs.search(t.Context(), q)
	if err != nil || len(hits) < 3 {
		t.Fatalf("setup: %d hits, %v", len(hits), err)
	}
	return hits
}
