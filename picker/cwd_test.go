package picker

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/dshkit/mentions/internal/golden"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/sessionref"
)

// cwdCorpus: folders under the home, outside it, and one long enough to
// be cut in a narrow popup.
var cwdCorpus = []sessionref.Candidate{
	cand("aaaa0001-0000-4000-8000-000000000001", "Ledger rounding", ptr("/home/dev/src/payments-service"), time.Hour, sessionref.RankOtherCwd),
	cand("aaaa0002-0000-4000-8000-000000000002", "Parser fix", ptr("/home/dev/src/mentions"), 2*time.Hour, sessionref.RankSameCwd),
	cand("aaaa0003-0000-4000-8000-000000000003", "Scratch notes", ptr("/tmp/scratch"), 3*time.Hour, sessionref.RankOtherCwd),
	cand("aaaa0004-0000-4000-8000-000000000004", "Deploy", ptr("/srv/deploy/regions/europe-west/needle/clusters/blue/tail"), 4*time.Hour, sessionref.RankOtherCwd),
	cand("aaaa0005-0000-4000-8000-000000000005", "Notes on ~/src/pay layout", nil, 5*time.Hour, sessionref.RankNoCwd),
}

// coreLike matches as the core does: the query inside the lowered id,
// the whole cwd or the label.
type coreLike struct{ asked []string }

func (s *coreLike) Candidates(_ context.Context, q string) ([]sessionref.Candidate, error) {
	s.asked = append(s.asked, q)
	var out []sessionref.Candidate
	for _, c := range cwdCorpus {
		hay := c.SessionID + "\x00" + c.Label
		if c.Cwd != nil {
			hay += "\x00" + *c.Cwd
		}
		if strings.Contains(strings.ToLower(hay), strings.ToLower(q)) {
			out = append(out, c)
		}
	}
	return out, nil
}

// TestFolderMatchShows: the picker matches the folder as it shows it
// ("~/src/pay" finds ~/src/payments-service, a title holding the text
// itself still found) and, when a row matched on the part of the folder
// the column hides ("home", or the middle of a long path), shows that
// part.
func TestFolderMatchShows(t *testing.T) {
	open := func(t *testing.T, w int, q string) (Model, *coreLike, string) {
		t.Helper()
		src := &coreLike{}
		m := newTestPicker(src, withWidth(w))
		cmd := m.Open(q)
		m, _ = settle(m, cmd)
		return m, src, ansi.Strip(m.View())
	}
	m, src, v := open(t, 80, "~/src/pay")
	if len(src.asked) != 2 || src.asked[0] != "/home/dev/src/pay" || src.asked[1] != "~/src/pay" {
		t.Fatalf("asked %q", src.asked)
	}
	if len(m.Answer(SessionsID).Candidates) != 2 || m.Answer(SessionsID).Candidates[0].Label != "Notes on ~/src/pay layout" || m.Answer(SessionsID).Candidates[1].Label != "Ledger rounding" { // no dir before other dirs
		t.Fatalf("~/src/pay: %v\n%s", m.Answer(SessionsID).Candidates, v)
	}
	if !strings.Contains(v, "~/src/pay…") {
		t.Fatalf("the folder is not shown as typed:\n%s", v)
	}

	_, _, v = open(t, 80, "home")
	for _, want := range []string{"/home/dev/src…", "/home/dev/src/mentions"} {
		if !strings.Contains(v, want) {
			t.Fatalf("@home: %q is not shown, nothing visibly matches:\n%s", want, v)
		}
	}
	if _, _, v = open(t, 80, "src"); strings.Contains(v, "/home/dev") || !strings.Contains(v, "~/src/mentions") {
		t.Fatalf("@src matches what is shown: the home stays ~:\n%s", v)
	}
	// At 40 columns the badge and the age give way before the folder
	// that shows why the row is listed.
	if _, _, v = open(t, 40, "tmp"); !strings.Contains(v, "/tmp/scratch") {
		t.Fatalf("@tmp at 40 columns: the folder is not shown:\n%s", v)
	}
	_, _, v = open(t, 70, "needle")
	if !strings.Contains(v, "needle") {
		t.Fatalf("@needle: the match in the middle of the folder is cut away:\n%s", v)
	}
	for _, l := range strings.Split(v, "\n") {
		if ansi.StringWidth(l) != 70 {
			t.Fatalf("a line of %d cells: %q", ansi.StringWidth(l), l)
		}
	}
}

// TestCutListSaysTypeToFilter: when the source's limit cuts the list
// (an empty query over more sessions than the limit), the popup says
// how many it shows and that typing filters; a list that is whole does
// not; the note survives the cache.
func TestCutListSaysTypeToFilter(t *testing.T) {
	s, err := sessionref.NewResolver(manySessions(300), sessionref.Config{})
	if err != nil {
		t.Fatal(err)
	}
	m := newTestPicker(ResolverSource(s, 50), withTarget(sessionref.Target{ID: "current"}))
	cmd := m.Open("")
	m, _ = settle(m, cmd)
	if v := ansi.Strip(m.View()); len(m.Answer(SessionsID).Candidates) != 50 || !strings.Contains(v, "1/50 · first 50 · type to filter") {
		t.Fatalf("%d items:\n%s", len(m.Answer(SessionsID).Candidates), v)
	}
	cmd = m.SetQuery("session 29")
	m, _ = settle(m, cmd)
	if v := ansi.Strip(m.View()); strings.Contains(v, "type to filter") {
		t.Fatalf("a whole list says to filter:\n%s", v)
	}
	_ = m.SetQuery("") // from the cache
	if v := ansi.Strip(m.View()); !strings.Contains(v, "type to filter") {
		t.Fatalf("the cached answer lost its note:\n%s", v)
	}
}

// manySessions is a store of n sessions titled "session <i>".
func manySessions(n int) *fakestore.Store {
	st := fakestore.New()
	for i := range n {
		id := fmt.Sprintf("s-%04d", i)
		st.Create(id, nil, testNow.Add(-time.Duration(i)*time.Minute))
		st.SetTitle(id, fmt.Sprintf("session %d", i))
	}
	return st
}

// TestPopupHeightHolds: with a hit source, the popup does not grow when
// the hits arrive (their room is kept while they are searched), and a
// keystroke does not change its height until the answers to the new
// query are in: then it fits them, once.
func TestPopupHeightHolds(t *testing.T) {
	src := &fakeSource{items: manyCands(30)}
	hs := &fakeHits{}
	m := newTestPicker(src, WithHitSource(hs.search))
	m.SetScreenSize(100, 40)
	m.SetAnchor(2, 38)
	answers := func(cmd tea.Cmd) (cands, hits []tea.Msg) {
		for _, msg := range run(cmd) {
			switch a, _ := msg.(AnswerMsg); a.Section {
			case MessagesID:
				hits = append(hits, msg)
			case SessionsID:
				cands = append(cands, msg)
			}
		}
		return cands, hits
	}
	cmd := m.Open("r")
	cands, hits := answers(cmd)
	m, _ = m.Update(cands[0]) // the candidates first; the hits still searched
	before := m.Rect().H
	m, _ = m.Update(hits[0]) // the hits arrive
	if len(m.Answer(MessagesID).Hits) < 2 {
		t.Fatalf("setup: %d hits", len(m.Answer(MessagesID).Hits))
	}
	if h := m.Rect().H; h != before {
		t.Fatalf("the popup went from %d to %d lines when the hits arrived", before, h)
	}
	// A keystroke: nothing answered yet, the height stays.
	cmd = m.SetQuery("session 1 r")
	if h := m.Rect().H; h != before {
		t.Fatalf("typing took the popup from %d to %d lines before any answer", before, h)
	}
	cands, hits = answers(cmd)
	m, _ = m.Update(cands[0])
	if h := m.Rect().H; h != before {
		t.Fatalf("with the hits still searched the popup went from %d to %d lines", before, h)
	}
	m, _ = m.Update(hits[0])
	if h, want := m.Rect().H, m.totalLines()+m.styles.Frame.GetVerticalFrameSize(); h != want || h >= before {
		t.Fatalf("both answers in: %d lines, want %d (fitted, below %d):\n%s", h, want, before, ansi.Strip(m.View()))
	}
}

func manyCands(n int) []sessionref.Candidate {
	out := make([]sessionref.Candidate, n)
	for i := range out {
		out[i] = cand(fmt.Sprintf("c0ffee%02d-0000-4000-8000-000000000000", i), fmt.Sprintf("session %d retry", i), nil, time.Duration(i)*time.Hour, sessionref.RankNoCwd)
	}
	return out
}

// TestGoldenFolderBesidePreview: rows that all share the current folder
// drop the folder column (it would say the same on every row), but not
// when the query matched that folder alone: "@~/src/" keeps the column
// that shows why each row is listed, also with the preview beside the
// rows at 100 columns, where the rows have least room.
func TestGoldenFolderBesidePreview(t *testing.T) {
	here := ptr("/home/dev/src/mentions")
	var items []sessionref.Candidate
	for i, l := range []string{"Refactor the café menu (café)", "Speed up the release notes", "Corriger dark mode colours"} {
		items = append(items, cand(fmt.Sprintf("a742a5b%d-0000-4000-8000-000000000001", i), l, here, time.Duration(i+1)*time.Hour, sessionref.RankSameCwd))
	}
	src := SourceFunc(func(context.Context, string) ([]sessionref.Candidate, error) { return items, nil })
	pv := PreviewerFunc(func(context.Context, sessionref.Candidate) (Preview, error) { return Preview{}, nil })
	for _, w := range []int{80, PreviewMinWidth} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m := newTestPicker(src, WithPreview(pv))
			m.SetScreenSize(w, 30)
			m.SetAnchor(0, 28)
			m = openWith(t, m, "~/src/")
			v := ansi.Strip(m.View())
			if strings.Count(v, "~/src/mentions") != len(items) {
				t.Fatalf("the folder the query matched is hidden:\n%s", v)
			}
			golden.RequireEqual(t, []byte(v))
			// A query the titles match leaves the shared folder out.
			m = openWith(t, m, "e")
			if v := ansi.Strip(m.View()); strings.Contains(v, "~/src/mentions") {
				t.Fatalf("a shared folder shown for a title match:\n%s", v)
			}
		})
	}
}
