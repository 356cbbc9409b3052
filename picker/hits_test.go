package picker

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/internal/golden"
	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/sessionref"
)

// hitCorpus holds sessions found by their messages. The third is also a
// candidate of "parser" (corpus[0]), so the picker leaves it out.
var hitCorpus = []Hit{
	{Candidate: cand("d15c0011-0000-4000-8000-000000000011", "Backoff tuning", ptr("/home/dev/src/mentions"), 5*time.Hour, sessionref.RankSameCwd),
		Snippet: "we fixed the retry bug in the parser backoff loop"},
	{Candidate: cand("d15c0012-0000-4000-8000-000000000012", "重试 design notes", ptr("/srv/app"), 48*time.Hour, sessionref.RankOtherCwd),
		Snippet: "讨论 parser 重试 strategy 🎉 with a very long tail of text that goes on and on past any popup width at all"},
	{Candidate: corpus[0], Snippet: "the parser retry path"},
	{Candidate: cand("d15c0013-0000-4000-8000-000000000013", "\x1b[2Jsneaky", nil, 9*24*time.Hour, sessionref.RankNoCwd),
		Snippet: "\x1b]0;pwned\x07 parser\x00 ctrl \u202e"},
}

// fakeHits finds hitCorpus entries whose snippet holds the query, with
// the ranges of every occurrence, and records each call's context.
type fakeHits struct {
	mu    sync.Mutex
	calls []call
	err   error
}

func (f *fakeHits) search(ctx context.Context, q string) ([]Hit, error) {
	f.mu.Lock()
	f.calls = append(f.calls, call{q, ctx})
	err := f.err
	f.mu.Unlock()
	if err != nil {
		return nil, err
	}
	var out []Hit
	for _, h := range hitCorpus {
		low := strings.ToLower(h.Snippet)
		if !strings.Contains(low, strings.ToLower(q)) {
			continue
		}
		h.Match = nil
		for at := 0; ; {
			i := strings.Index(low[at:], strings.ToLower(q))
			if i < 0 {
				break
			}
			h.Match = append(h.Match, [2]int{at + i, at + i + len(q)})
			at += i + len(q)
		}
		out = append(out, h)
	}
	return out, nil
}

func newHitsPicker(hs *fakeHits, opts ...Option) Model {
	return newTestPicker(&fakeSource{}, append([]Option{WithHitSource(hs.search)}, opts...)...)
}

// openBoth opens m on query and applies both answers.
func openBoth(t *testing.T, m Model, query string) Model {
	t.Helper()
	cmd := m.Open(query)
	m, _ = settle(m, cmd)
	if !m.SectionFresh(SessionsID) || !m.SectionFresh(MessagesID) {
		t.Fatalf("answers not applied: fresh=%v hits fresh=%v", m.SectionFresh(SessionsID), m.SectionFresh(MessagesID))
	}
	return m
}

func ids(hs []Hit) []string {
	var out []string
	for _, h := range hs {
		out = append(out, h.SessionID)
	}
	return out
}

// Hits follow the candidates; a session already among the candidates is
// not repeated.
func TestHitsSectionUnderCandidates(t *testing.T) {
	m := openBoth(t, newHitsPicker(&fakeHits{}), "parser")
	if len(m.Answer(SessionsID).Candidates) != 2 {
		t.Fatalf("items %d", len(m.Answer(SessionsID).Candidates))
	}
	got := ids(m.Answer(MessagesID).Hits)
	want := []string{hitCorpus[0].SessionID, hitCorpus[1].SessionID, hitCorpus[3].SessionID}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("hits %v, want %v", got, want)
	}
	v := ansi.Strip(m.View())
	if strings.Index(v, "in messages") < strings.Index(v, "重构日志模块") || !strings.Contains(v, "we fixed the retry bug") {
		t.Fatalf("no hits section under the candidates:\n%s", v)
	}
	checkBox(t, m)
}

// One cursor goes down from the candidates into the hits, wraps, and
// comes back up.
func TestCursorCrossesSections(t *testing.T) {
	m := openBoth(t, newHitsPicker(&fakeHits{}, withMaxRows(2)), "parser")
	steps := []struct {
		key  string
		want string
	}{
		{"down", corpus[1].SessionID},
		{"down", hitCorpus[0].SessionID},
		{"down", hitCorpus[1].SessionID},
		{"up", hitCorpus[0].SessionID},
		{"up", corpus[1].SessionID},
		{"end", hitCorpus[3].SessionID},
		{"down", corpus[0].SessionID},
		{"up", hitCorpus[3].SessionID},
		{"home", corpus[0].SessionID},
	}
	for i, s := range steps {
		m, _ = m.Update(press(s.key))
		c, ok := m.Highlighted()
		if !ok || c.SessionID != s.want {
			t.Fatalf("step %d (%s): highlighted %q %v, want %q", i, s.key, c.SessionID, ok, s.want)
		}
		// The highlighted entry is on screen, marker included.
		v := ansi.Strip(m.View())
		if !strings.Contains(v, "› ") {
			t.Fatalf("step %d (%s): the cursor is scrolled away:\n%s", i, s.key, v)
		}
		checkBox(t, m)
	}
}

// A click on a hit's row or on its snippet picks that hit; a click on
// the section's heading does nothing.
func TestClickMapsToEntries(t *testing.T) {
	base := openBoth(t, newHitsPicker(&fakeHits{}), "parser")
	g := base.layout()
	// Lines: 0,1 candidates; 2 heading; 3,4 hit 0; 5,6 hit 1; 7,8 hit 2.
	for line, want := range map[int]string{
		0: corpus[0].SessionID, 1: corpus[1].SessionID,
		3: hitCorpus[0].SessionID, 4: hitCorpus[0].SessionID,
		5: hitCorpus[1].SessionID, 6: hitCorpus[1].SessionID,
		7: hitCorpus[3].SessionID, 8: hitCorpus[3].SessionID,
	} {
		m, cmd := base.Update(tea.MouseClickMsg{X: g.left + 6, Y: g.top + line, Button: tea.MouseLeft})
		p, ok := m.TakePick()
		if !ok || p.Candidate.SessionID != want {
			t.Fatalf("click on line %d picked %q (%v), want %q", line, p.Candidate.SessionID, ok, want)
		}
		if got := picked(t, run(cmd)); got.Mention != p.Mention || m.IsOpen() {
			t.Fatalf("line %d: cmd sent %+v, open=%v", line, got, m.IsOpen())
		}
	}
	m, cmd := base.Update(tea.MouseClickMsg{X: g.left + 6, Y: g.top + 2, Button: tea.MouseLeft})
	noPick(t, m, cmd)
	if !m.IsOpen() {
		t.Fatal("a click on the heading closed the picker")
	}
	// Motion over a snippet moves the cursor to its hit.
	m, _ = base.Update(tea.MouseMotionMsg{X: g.left + 6, Y: g.top + 6})
	if c, _ := m.Highlighted(); c.SessionID != hitCorpus[1].SessionID {
		t.Fatalf("motion highlighted %q", c.SessionID)
	}
}

// A pick from the hits section is the same mention token as any pick.
func TestPickFromHits(t *testing.T) {
	m := openBoth(t, newHitsPicker(&fakeHits{}), "parser")
	for range 3 {
		m, _ = m.Update(press("down"))
	}
	m, cmd := m.Update(press("enter"))
	p, ok := m.TakePick()
	h := hitCorpus[1]
	want, _ := sessionref.FormatMention(sessionref.Reference{SessionID: h.SessionID, Label: &h.Label})
	if !ok || p.Candidate != h.Candidate || p.Mention != want || m.IsOpen() {
		t.Fatalf("picked %+v ok=%v open=%v, want %q", p, ok, m.IsOpen(), want)
	}
	if got := picked(t, run(cmd)); got != p {
		t.Fatalf("sent %+v, took %+v", got, p)
	}
}

// The search of an older query is cancelled, and its answer, arriving
// late, is never applied; the hits shown meanwhile are greyed and cannot
// be picked by key.
func TestStaleHitsAreDropped(t *testing.T) {
	hs := &fakeHits{}
	m := openBoth(t, newHitsPicker(hs), "parser")
	old := hitsMsg(m, "parser", hitCorpus[:1], nil)
	cmd := m.SetQuery("retry")
	if ctx := hs.calls[len(hs.calls)-1].ctx; ctx.Err() == nil {
		t.Fatal("the older search was not cancelled")
	}
	if m.SectionFresh(MessagesID) {
		t.Fatal("hits of “parser” taken as the answer to “retry”")
	}
	m, _ = m.Update(old)
	if m.SectionFresh(MessagesID) || len(m.Answer(MessagesID).Hits) != 3 {
		t.Fatalf("a stale answer was applied: %v", ids(m.Answer(MessagesID).Hits))
	}
	// An older picker's answer, or one for the right query but an older
	// search, is dropped too.
	m2 := newHitsPicker(hs)
	_ = m2.Open("retry")
	m, _ = m.Update(hitsMsg(m2, "retry", hitCorpus[:1], nil))
	if m.SectionFresh(MessagesID) {
		t.Fatal("another picker's answer was applied")
	}
	m, _ = answer(m, m.source)
	// Candidates answered (none match “retry”), hits stale: Enter waits.
	for m.cursor < len(m.Answer(SessionsID).Candidates) {
		m, _ = m.Update(press("down"))
	}
	if _, ok := m.Highlighted(); ok {
		t.Fatal("a stale hit can be picked by key")
	}
	m, _ = settle(m, cmd)
	if !m.SectionFresh(MessagesID) || fmt.Sprint(ids(m.Answer(MessagesID).Hits)) != fmt.Sprint([]string{hitCorpus[0].SessionID, corpus[0].SessionID}) {
		t.Fatalf("the answer to “retry” was not applied: %v", ids(m.Answer(MessagesID).Hits))
	}
}

// Tab before any answer waits for the hits when the candidates have
// none, and picks the first hit.
func TestPickWaitsForHits(t *testing.T) {
	m := newHitsPicker(&fakeHits{})
	cmd := m.Open("backoff")
	msgs := run(cmd)
	m, _ = m.Update(press("tab"))
	if !m.Accepting() {
		t.Fatal("tab before the answers should wait")
	}
	var hits AnswerMsg
	for _, msg := range msgs {
		switch a, _ := msg.(AnswerMsg); a.Section {
		case SessionsID:
			m, _ = m.Update(msg)
		case MessagesID:
			hits = a
		}
	}
	if !m.Accepting() || !strings.Contains(ansi.Strip(m.View()), "picking the first match") {
		t.Fatalf("no title matches, the hits are due: still waiting, visibly:\n%s", ansi.Strip(m.View()))
	}
	m, _ = m.Update(hits)
	p, ok := m.TakePick()
	if !ok || p.Candidate.SessionID != hitCorpus[0].SessionID {
		t.Fatalf("picked %+v %v", p, ok)
	}
}

// An empty or blank query searches nothing and shows no hits.
func TestBlankQueryDoesNotSearch(t *testing.T) {
	hs := &fakeHits{}
	m := openBoth(t, newHitsPicker(hs), "parser")
	n := len(hs.calls)
	for _, q := range []string{"", "   "} {
		cmd := m.SetQuery(q)
		m, _ = settle(m, cmd)
		if len(hs.calls) != n || len(m.Answer(MessagesID).Hits) != 0 || strings.Contains(ansi.Strip(m.View()), "in messages") {
			t.Fatalf("query %q: %d searches, hits %v", q, len(hs.calls)-n, ids(m.Answer(MessagesID).Hits))
		}
	}
}

// A failed search says so under the candidates, or in the status line
// when there are none; the candidates stay pickable.
func TestHitSourceError(t *testing.T) {
	hs := &fakeHits{err: errors.New("index: disk I/O error\x1b[2J")}
	m := openBoth(t, newHitsPicker(hs), "parser")
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "in messages · couldn't search: index: disk I/O error") || strings.Contains(m.View(), "\x1b[2J") {
		t.Fatalf("error not shown safely:\n%s", v)
	}
	if _, ok := m.Highlighted(); !ok {
		t.Fatal("the candidates are not pickable")
	}
	m = openBoth(t, m, "zzzq")
	if v := ansi.Strip(m.View()); !strings.Contains(v, "couldn't search messages") {
		t.Fatalf("no status:\n%s", v)
	}
}

// The wheel scrolls the lines of both sections; the cursor stays on a
// row inside the window.
func TestWheelThroughHits(t *testing.T) {
	m := openBoth(t, newHitsPicker(&fakeHits{}, withMaxRows(1)), "parser")
	r := m.Rect()
	for range 10 {
		m, _ = m.Update(tea.MouseWheelMsg{X: r.X + 1, Y: r.Y + 1, Button: tea.MouseWheelDown})
		checkBox(t, m)
	}
	v := ansi.Strip(m.View())
	if strings.Contains(v, "Fix the session parser") || !strings.Contains(v, "sneaky") {
		t.Fatalf("not scrolled to the bottom:\n%s", v)
	}
	// Lines 3..8 show: the cursor left candidate 0 for the first row in
	// the window, the first hit.
	if c, ok := m.Highlighted(); !ok || c.SessionID != hitCorpus[0].SessionID {
		t.Fatalf("at the bottom the cursor is on %q", c.SessionID)
	}
	for range 10 {
		m, _ = m.Update(tea.MouseWheelMsg{X: r.X + 1, Y: r.Y + 1, Button: tea.MouseWheelUp})
	}
	v = ansi.Strip(m.View())
	if !strings.Contains(v, "Fix the session parser") || strings.Contains(v, "sneaky") {
		t.Fatalf("not scrolled to the top:\n%s", v)
	}
	if c, _ := m.Highlighted(); c.SessionID != hitCorpus[0].SessionID {
		t.Fatalf("the cursor left a row still in the window for %q", c.SessionID)
	}
}

// Snippet match ranges that are wrong (reversed, overlapping, out of
// bounds, inside a character) lose their highlight, nothing else.
func TestSnippetBadRanges(t *testing.T) {
	s := "重试 retry"
	segs := snippetSegs(s, [][2]int{{1, 3}, {7, 12}, {3, 2}, {8, 9}, {20, 30}}, false)
	var text strings.Builder
	var hit []string
	for _, sg := range segs {
		text.WriteString(sg.text)
		if sg.part == partMatch {
			hit = append(hit, sg.text)
		}
	}
	if text.String() != s || fmt.Sprint(hit) != "[retry]" {
		t.Fatalf("text %q, highlighted %q", text.String(), hit)
	}
}

// Goldens of the two-section popup at the widths of a 40, 80 and 120
// column screen: the cursor on a candidate, and on a hit.
func TestGoldenHits(t *testing.T) {
	for _, state := range []struct {
		name  string
		downs int
	}{{"hits", 0}, {"hits_cursor_on_hit", 3}} {
		for _, w := range []int{40, 80, 120} {
			t.Run(fmt.Sprintf("%s_w%d", state.name, w), func(t *testing.T) {
				m := newHitsPicker(&fakeHits{}, withMaxRows(4))
				m.SetScreenSize(w, 24)
				m = openBoth(t, m, "parser")
				for range state.downs {
					m, _ = m.Update(press("down"))
				}
				checkBox(t, m)
				golden.RequireEqual(t, []byte(ansi.Strip(m.View())))
			})
		}
	}
}

// A list that scrolls says where the cursor is and how many sessions the
// "in messages" section holds, in the frame's bottom border, at every
// width down to 40 columns; a list that fits, and a frame without a
// bottom border, show none.
func TestPositionInBottomBorder(t *testing.T) {
	var items []sessionref.Candidate
	for i := range 12 {
		items = append(items, cand(fmt.Sprintf("parser-%02d", i), fmt.Sprintf("parser work %d", i), nil, time.Hour, sessionref.RankOtherCwd))
	}
	var hits []Hit
	for i := range 5 {
		hits = append(hits, Hit{Candidate: cand(fmt.Sprintf("hit-%d", i), fmt.Sprintf("found %d", i), nil, time.Hour, sessionref.RankOtherCwd), Snippet: "the parser"})
	}
	src := func(context.Context, string) ([]Hit, error) { return hits, nil }
	bottom := func(m Model) string {
		lines := checkBox(t, m)
		return ansi.Strip(lines[len(lines)-1])
	}
	for _, w := range []int{40, 80, 200} {
		m := newTestPicker(&fakeSource{items: items}, WithHitSource(src))
		m.SetScreenSize(w, 30)
		cmd := m.Open("parser")
		m, _ = settle(m, cmd)
		if b := bottom(m); !strings.HasSuffix(b, "─ 1/17 · 5 in messages ─╯") {
			t.Errorf("width %d: bottom border %q", w, b)
		}
		m, _ = m.Update(press("down"))
		m, _ = m.Update(press("down"))
		if b := bottom(m); !strings.HasSuffix(b, "─ 3/17 · 5 in messages ─╯") {
			t.Errorf("width %d: after two downs the bottom border is %q", w, b)
		}
		m, _ = m.Update(press("end"))
		if b := bottom(m); !strings.HasSuffix(b, "─ 17/17 · 5 in messages ─╯") {
			t.Errorf("width %d: at the end the bottom border is %q", w, b)
		}
	}
	// Narrower, a shorter form; too narrow for any, the border is whole.
	for w, want := range map[int]string{24: "─ 1/17 · 5 in msgs ─╯", 14: "─ 1/17 ─╯", 8: "╰──────╯"} {
		m := newTestPicker(&fakeSource{items: items}, WithHitSource(src))
		m.SetScreenSize(w, 30)
		cmd := m.Open("parser")
		m, _ = settle(m, cmd)
		if b := bottom(m); !strings.HasSuffix(b, want) {
			t.Errorf("width %d: bottom border %q, want it to end %q", w, b, want)
		}
	}
	// A list that fits shows no position.
	m := newTestPicker(&fakeSource{items: items[:3]})
	m = openWith(t, m, "parser")
	if b := bottom(m); strings.Contains(b, "/") {
		t.Errorf("a list that fits shows a position: %q", b)
	}
	// A frame without a bottom border keeps its shape.
	st := PlainStyles()
	st.Frame = st.Frame.BorderBottom(false)
	m = newTestPicker(&fakeSource{items: items}, withStyles(st))
	m = openWith(t, m, "parser")
	if b := bottom(m); strings.Contains(b, "/") {
		t.Errorf("a frame without a bottom border shows a position: %q", b)
	}
}

// A snippet too wide for its line keeps its first matched term in sight:
// its start gives way to "…" rather than the term being cut off.
func TestSnippetShowsItsFirstMatch(t *testing.T) {
	for _, c := range []struct {
		snippet, term string
	}{
		{"we fixed the retry bug in the parser backoff loop yesterday", "parser"},
		{"J'ai lu main.tf : la boucle dépassait d'un élément. C'est corrigé, avec un test de régression.", "régression"},
		{"讨论了很多关于日志模块的问题，最后决定把解析器的重试策略改掉", "重试策略"},
		{"short then a term that is itself far wider than any line: supercalifragilisticexpialidocious", "supercalifragilisticexpialidocious"},
	} {
		a := strings.Index(c.snippet, c.term)
		for _, w := range []int{16, 24, 40} {
			segs := fitSegs(showFirstMatch(snippetSegs(c.snippet, [][2]int{{a, a + len(c.term)}}, false), w), w)
			line, shown := "", ""
			for i, s := range segs {
				line += s.text
				if s.part == partMatch && i <= 2 {
					shown += s.text
				}
			}
			if textutil.Width(line) > w {
				t.Fatalf("%q at %d: %q is %d cells", c.term, w, line, textutil.Width(line))
			}
			if textutil.Width(c.term) <= w-2 && shown != c.term {
				t.Errorf("%q at %d: the term shows as %q in %q", c.term, w, shown, line)
			}
			if shown == "" {
				t.Errorf("%q at %d: no part of the term shows in %q", c.term, w, line)
			}
		}
	}
}

// A search that fails while titles match says so in the footer, which
// stays in sight when the candidates push the hits' heading out of the
// popup.
func TestHitErrorInFooter(t *testing.T) {
	hs := &fakeHits{err: errors.New("the index is damaged\x1b]52;c;x\a")}
	m := openBoth(t, newHitsPicker(hs, withMaxRows(1)), "parser")
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "search in messages unavailable: the index is damaged") || strings.Contains(m.View(), "\x1b]52") {
		t.Fatalf("no footer:\n%s", v)
	}
	if _, ok := m.Highlighted(); !ok {
		t.Fatal("the candidates are not pickable")
	}
	checkBox(t, m)
}

// A title of one huge grapheme cluster (a base with 200,000 combining
// marks) gives a label of a bounded size that can be mentioned.
func TestZalgoTitleLabel(t *testing.T) {
	title := "Zalgo x" + strings.Repeat("\u0334", 200000)
	label := MentionLabel(title)
	if len(label) > 7+4*32 || !strings.HasPrefix(label, "Zalgo x") {
		t.Fatalf("label of %d bytes: %.40q", len(label), label)
	}
	m, err := sessionref.FormatMention(sessionref.Reference{SessionID: "d15c0011-0000-4000-8000-000000000011", Label: &label})
	if err != nil {
		t.Fatal(err)
	}
	if p, err := sessionref.ParseText("see " + m); err != nil || len(p.References) != 1 || *p.References[0].Label != label {
		t.Fatalf("mention %.60q parses as %+v, %v", m, p.References, err)
	}
}
