package picker

import (
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/sessionref"
)

// TestLateAnswersKeepTheHighlight: with a slow store the hits arrive
// before the candidates. Before the user moves, the candidates' answer
// puts the highlight on the first row in section order (the first
// candidate); once the user moved to a row, it stays on that session
// when the candidates arrive, also when that session moves from the hits
// to the candidates, and when a refresh answers again. Enter then picks
// the session the user was looking at.
func TestLateAnswersKeepTheHighlight(t *testing.T) {
	for _, tc := range []struct {
		name  string
		moves int // Down presses after the hits arrive
		want  string
	}{{"no move", 0, corpus[0].SessionID}, {"hit that is also a candidate", 2, corpus[0].SessionID}, {"a hit", 1, hitCorpus[1].SessionID}} {
		hs := &fakeHits{}
		m := newHitsPicker(hs)
		_ = m.Open("parser")
		m, _ = m.Update(hitsMsg(m, "parser", mustHits(t, hs, "parser"), nil))
		for range tc.moves {
			m, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyDown})
		}
		m, _ = m.Update(fetchedMsg(m, "parser", []sessionref.Candidate{corpus[0], corpus[1]}, nil))
		if got, ok := m.Highlighted(); !ok || got.SessionID != tc.want {
			t.Fatalf("%s: after the candidates %q is highlighted, want %q", tc.name, got.SessionID, tc.want)
		}
		// A refresh (the index synced) answers the same query again.
		_ = m.Refresh()
		m, _ = m.Update(hitsMsg(m, "parser", mustHits(t, hs, "parser"), nil))
		m, _ = m.Update(fetchedMsg(m, "parser", []sessionref.Candidate{corpus[0], corpus[1]}, nil))
		if got, ok := m.Highlighted(); !ok || got.SessionID != tc.want {
			t.Fatalf("%s: after a refresh %q is highlighted, want %q", tc.name, got.SessionID, tc.want)
		}
		m, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
		if p, ok := m.TakePick(); !ok || p.Candidate.SessionID != tc.want {
			t.Fatalf("%s: Enter picked %q, want %q", tc.name, p.Candidate.Label, tc.want)
		}
	}
	// A new query starts again at its first row.
	hs := &fakeHits{}
	m := newHitsPicker(hs)
	_ = m.Open("parser")
	m, _ = m.Update(hitsMsg(m, "parser", mustHits(t, hs, "parser"), nil))
	m, _ = m.Update(fetchedMsg(m, "parser", []sessionref.Candidate{corpus[0], corpus[1]}, nil))
	m, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	_ = m.SetQuery("parse")
	m, _ = m.Update(fetchedMsg(m, "parse", []sessionref.Candidate{corpus[0], corpus[1]}, nil))
	if m.Cursor() != 0 {
		t.Fatalf("a new query kept the cursor at %d", m.Cursor())
	}
}

// burst opens m with '@' and types query in one go, as a paste or a
// fast typist does: no answer arrives between the keystrokes. It returns
// the answers to the last query.
func burst(t *testing.T, m Model, query string) (Model, map[string]AnswerMsg) {
	t.Helper()
	cmd := m.Open("")
	m, _ = settle(m, cmd) // the empty '@' lists sessions
	for i := 1; i <= len(query); i++ {
		cmd = m.SetQuery(query[:i])
	}
	answers := map[string]AnswerMsg{}
	for _, msg := range run(cmd) {
		if a, ok := msg.(AnswerMsg); ok {
			answers[a.Section] = a
		}
	}
	return m, answers
}

// A query typed in a burst whose answers arrive hits first (a slow
// store, a fast index) still has its highlight on the first row in
// section order — the sessions section's first — and Tab picks that row.
// The hits' answer never leaves it on a session of the hits.
func TestBurstHitsFirstHighlightsTheFirstRow(t *testing.T) {
	m, answers := burst(t, newHitsPicker(&fakeHits{}), "pars")
	m, _ = m.Update(answers[MessagesID])
	if len(m.Answer(MessagesID).Hits) == 0 {
		t.Fatal("setup: no hits")
	}
	m, _ = m.Update(answers[SessionsID])
	first := m.Answer(SessionsID).Candidates[0]
	if got, ok := m.Highlighted(); !ok || got.SessionID != first.SessionID || m.Cursor() != 0 {
		t.Fatalf("highlight on %q (cursor %d), want the first session %q", got.Label, m.Cursor(), first.Label)
	}
	m, _ = m.Update(press("tab"))
	if p, ok := m.TakePick(); !ok || p.Candidate.SessionID != first.SessionID || p.Section != SessionsID {
		t.Fatalf("tab picked %+v %v, want %q", p, ok, first.Label)
	}

	// Tab pressed before any answer waits, and picks the same row once
	// the sessions have answered, whatever came first.
	m, answers = burst(t, newHitsPicker(&fakeHits{}), "pars")
	m, _ = m.Update(press("tab"))
	m, _ = m.Update(answers[MessagesID])
	if p, ok := m.TakePick(); ok {
		t.Fatalf("picked %q before the sessions answered", p.Candidate.Label)
	}
	m, _ = m.Update(answers[SessionsID])
	if p, ok := m.TakePick(); !ok || p.Candidate.SessionID != first.SessionID {
		t.Fatalf("early tab picked %+v %v, want %q", p, ok, first.Label)
	}
}

// In every order the three sections' answers can arrive, the highlight
// ends on the first row in section order; after the user moved, on the
// row they moved to.
func TestHighlightRuleInEveryArrivalOrder(t *testing.T) {
	orders := [][]string{
		{SessionsID, MessagesID, "files"}, {SessionsID, "files", MessagesID},
		{MessagesID, SessionsID, "files"}, {MessagesID, "files", SessionsID},
		{"files", SessionsID, MessagesID}, {"files", MessagesID, SessionsID},
	}
	for _, order := range orders {
		m, answers := burst(t, newHitsPicker(&fakeHits{}, WithSection(filesSection(&fakeFiles{}))), "pars")
		var chosen sessionref.Candidate
		for i, id := range order {
			m, _ = m.Update(answers[id])
			if i == 0 && id == MessagesID {
				// The user moves down as soon as the hits show: to the
				// second row on screen, a session of the older answer
				// that the new one lists too.
				m, _ = m.Update(press("down"))
				chosen = m.entry(m.Cursor())
			}
		}
		want := m.Answer(SessionsID).Candidates[0].SessionID
		if chosen.SessionID != "" {
			want = chosen.SessionID
		}
		if got, ok := m.Highlighted(); !ok || got.SessionID != want {
			t.Errorf("arrivals %v: %q highlighted, want %q", order, got.SessionID, want)
		}
		if !slices.Equal(m.Sections(), []string{SessionsID, "files", MessagesID}) {
			t.Fatalf("sections %v", m.Sections())
		}
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
