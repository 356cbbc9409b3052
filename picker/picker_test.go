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
	"github.com/dshkit/mentions/sessionref"
)

var testNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func ptr[T any](v T) *T { return &v }

func cand(id, label string, cwd *string, age time.Duration, rank sessionref.Rank) sessionref.Candidate {
	return sessionref.Candidate{SessionID: id, Label: label, Cwd: cwd, CreatedAt: testNow.Add(-age).UnixMilli(), Rank: rank}
}

var corpus = []sessionref.Candidate{
	cand("3f2a9c1e-0000-4000-8000-000000000001", "Fix the session parser", ptr("/home/dev/src/mentions"), 3*time.Hour, sessionref.RankSameCwd),
	cand("b7d4e2a0-0000-4000-8000-000000000002", "重构日志模块 and parser tests", ptr("/home/dev/src/mentions"), 26*time.Hour, sessionref.RankSameCwd),
	cand("scratch", "scratch", nil, 5*time.Minute, sessionref.RankNoCwd),
	cand("9a1b2c3d-0000-4000-8000-000000000004", "Emoji picker 🎉 polish", ptr("/home/dev/work/clients/acme corp/portal"), 12*24*time.Hour, sessionref.RankOtherCwd),
	cand("c0ffee00-0000-4000-8000-000000000005", "Café menu (cafe\u0301) prices", ptr("/srv/deploy/production"), 70*24*time.Hour, sessionref.RankOtherCwd),
	cand("e1e2e3e4-0000-4000-8000-000000000006", "\x1b[31mevil\x1b[0m title\nsecond line", ptr("/tmp/scratch"), 400*24*time.Hour, sessionref.RankOtherCwd),
}

// fakeSource filters corpus by a case-insensitive substring, and records
// every call's context.
type fakeSource struct {
	mu    sync.Mutex
	calls []call
	err   error
	items []sessionref.Candidate
}

type call struct {
	query string
	ctx   context.Context
}

func (f *fakeSource) Candidates(ctx context.Context, q string) ([]sessionref.Candidate, error) {
	f.mu.Lock()
	f.calls = append(f.calls, call{q, ctx})
	err, items := f.err, f.items
	f.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if items == nil {
		items = corpus
	}
	var out []sessionref.Candidate
	for _, c := range items {
		if strings.Contains(strings.ToLower(c.Label+c.SessionID), strings.ToLower(q)) {
			out = append(out, c)
		}
	}
	return out, nil
}

func newTestPicker(src Source, opts ...Option) Model {
	opts = append([]Option{WithClock(func() time.Time { return testNow }), WithHome("/home/dev"), WithTick(atOnce)}, opts...)
	m := New(src, opts...)
	m.SetScreenSize(80, 24)
	m.SetAnchor(2, 20)
	return m
}

// atOnce is the picker's timer in tests: the "searching…" delay is over
// as soon as its Cmd runs, without waiting on the clock.
func atOnce(_ time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
	return func() tea.Msg { return fn(testNow) }
}

// run executes cmd and returns the messages it produces, batches expanded.
func run(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, run(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

// settle feeds every message of cmd back into m.
func settle(m Model, cmd tea.Cmd) (Model, []tea.Msg) {
	var out []tea.Msg
	for _, msg := range run(cmd) {
		var next tea.Cmd
		m, next = m.Update(msg)
		out = append(out, msg)
		_, more := settle(m, next)
		out = append(out, more...)
	}
	return m, out
}

func press(s string) tea.KeyPressMsg {
	switch s {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "ctrl+n":
		return tea.KeyPressMsg{Code: 'n', Mod: tea.ModCtrl}
	case "ctrl+p":
		return tea.KeyPressMsg{Code: 'p', Mod: tea.ModCtrl}
	}
	panic(s)
}

func picked(t *testing.T, msgs []tea.Msg) PickedMsg {
	t.Helper()
	for _, m := range msgs {
		if p, ok := m.(PickedMsg); ok {
			return p
		}
	}
	t.Fatalf("no PickedMsg in %v", msgs)
	return PickedMsg{}
}

func TestOpenFetchAndPick(t *testing.T) {
	src := &fakeSource{}
	m, cmd := opened(newTestPicker(src), "pars")
	if !m.IsOpen() || m.SectionFresh(SessionsID) {
		t.Fatal("should be open and pending")
	}
	m, _ = settle(m, cmd)
	if !m.SectionFresh(SessionsID) || len(m.Answer(SessionsID).Candidates) != 2 {
		t.Fatalf("items %d", len(m.Answer(SessionsID).Candidates))
	}
	m, _ = m.Update(press("down"))
	if !m.WantsKey(press("enter")) {
		t.Fatal("enter should belong to the picker with a highlighted row")
	}
	m, cmd = m.Update(press("tab"))
	p := picked(t, run(cmd))
	want, _ := sessionref.FormatMention(sessionref.Reference{SessionID: corpus[1].SessionID, Label: &corpus[1].Label})
	if p.Candidate.SessionID != corpus[1].SessionID || p.Mention != want || m.IsOpen() {
		t.Fatalf("picked %+v open=%v", p, m.IsOpen())
	}
}

func TestNavigationWrapsAndPages(t *testing.T) {
	m, cmd := opened(newTestPicker(&fakeSource{}, withMaxRows(3)), "")
	m, _ = settle(m, cmd)
	m, _ = m.Update(press("up"))
	if m.Cursor() != len(corpus)-1 {
		t.Fatalf("up from the top should wrap, cursor %d", m.Cursor())
	}
	m, _ = m.Update(press("ctrl+n"))
	if m.Cursor() != 0 {
		t.Fatalf("ctrl+n from the bottom should wrap, cursor %d", m.Cursor())
	}
	m, _ = m.Update(press("pgdown"))
	if m.Cursor() != 3 || m.offset != 1 {
		t.Fatalf("pgdown: cursor %d offset %d", m.Cursor(), m.offset)
	}
	m, _ = m.Update(press("end"))
	m, _ = m.Update(press("home"))
	m, _ = m.Update(press("ctrl+p"))
	if m.Cursor() != len(corpus)-1 {
		t.Fatalf("ctrl+p: %d", m.Cursor())
	}
}

func TestStaleRepliesAreDropped(t *testing.T) {
	src := &fakeSource{}
	m, cmdA := opened(newTestPicker(src), "p")
	cmdB := m.SetQuery("pars")
	msgsA, msgsB := run(cmdA), run(cmdB)
	feed := func(m Model, msgs []tea.Msg) (Model, []tea.Msg) {
		var out []tea.Msg
		for _, msg := range msgs {
			var cmd tea.Cmd
			m, cmd = m.Update(msg)
			out = append(out, run(cmd)...)
		}
		return m, out
	}
	// The newer reply lands first, then the older one.
	m, _ = feed(m, msgsB)
	m, _ = feed(m, msgsA)
	if m.Query() != "pars" || len(m.Answer(SessionsID).Candidates) != 2 {
		t.Fatalf("older reply overwrote newer: %d items for %q", len(m.Answer(SessionsID).Candidates), m.Query())
	}
	// A fast Enter while the newest query is pending never picks a row of
	// an older query.
	cmdC := m.SetQuery("parser")
	if _, ok := m.Highlighted(); ok {
		t.Fatal("a row of an older query is highlighted")
	}
	if !m.WantsKey(press("enter")) {
		t.Fatal("enter while pending should be swallowed, not submit")
	}
	m, cmd := m.Update(press("enter"))
	if len(run(cmd)) != 0 {
		t.Fatal("enter while pending produced a message")
	}
	// An older reply landing now must not be picked from.
	m, out := feed(m, msgsB)
	if len(out) != 0 {
		t.Fatalf("picked from an older query's reply: %v", out)
	}
	// The answer to the newest query is picked from as soon as it comes.
	m, out = feed(m, run(cmdC))
	if p := picked(t, out); p.Candidate.SessionID != corpus[0].SessionID || m.IsOpen() {
		t.Fatalf("after the reply: %+v open=%v", p, m.IsOpen())
	}
}

func TestQueryChangeCancelsPreviousFetch(t *testing.T) {
	src := &fakeSource{}
	m, cmd1 := opened(newTestPicker(src), "a")
	run(cmd1)
	_ = m.SetQuery("ab")
	src.mu.Lock()
	first := src.calls[0]
	src.mu.Unlock()
	if first.ctx.Err() == nil {
		t.Fatal("the previous fetch's context was not cancelled")
	}
	m.Close()
	if m.IsOpen() {
		t.Fatal("still open")
	}
}

func TestCacheMakesBackspaceInstant(t *testing.T) {
	src := &fakeSource{}
	m, cmd := opened(newTestPicker(src), "par")
	m, _ = settle(m, cmd)
	cmd = m.SetQuery("pars")
	m, _ = settle(m, cmd)
	calls := len(src.calls)
	cmd = m.SetQuery("par")
	if cmd != nil || !m.SectionFresh(SessionsID) || len(src.calls) != calls {
		t.Fatal("a cached query fetched again")
	}
}

func TestErrorAndEmptyRows(t *testing.T) {
	src := &fakeSource{err: errors.New("store offline")}
	m, cmd := opened(newTestPicker(src), "x")
	m, _ = settle(m, cmd)
	if v := ansi.Strip(m.View()); !strings.Contains(v, "couldn't list sessions: store offline") {
		t.Fatalf("error row missing:\n%s", v)
	}
	if !m.WantsKey(press("enter")) || m.Pickable() {
		t.Fatal("enter with an error row must stay with the picker, which has nothing to pick")
	}
	src.err = nil
	cmd = m.SetQuery("zzzz")
	m, _ = settle(m, cmd)
	if v := ansi.Strip(m.View()); !strings.Contains(v, "no sessions match “zzzz”") {
		t.Fatalf("empty row missing:\n%s", v)
	}
}

// slowSource blocks until released, to see the searching state.
type slowSource struct{ release chan struct{} }

func (s slowSource) Candidates(ctx context.Context, q string) ([]sessionref.Candidate, error) {
	select {
	case <-s.release:
		return corpus[:1], nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func TestSearchingShowsOnlyWhenSlow(t *testing.T) {
	src := slowSource{make(chan struct{})}
	m, _ := opened(newTestPicker(src), "x")
	if m.View() != "" {
		t.Fatalf("a fresh fetch should not flash a popup:\n%s", m.View())
	}
	m, _ = m.Update(slowMsg{picker: m.id, seq: m.seq})
	if v := ansi.Strip(m.View()); !strings.Contains(v, "searching “x”…") {
		t.Fatalf("no searching row:\n%s", v)
	}
	close(src.release)
}

func TestDisabledRows(t *testing.T) {
	disable := func(c sessionref.Candidate) (string, bool) {
		if c.SessionID == corpus[0].SessionID {
			return "already mentioned", true
		}
		return "", false
	}
	m, cmd := opened(newTestPicker(&fakeSource{}, withDisable(disable)), "")
	m, _ = settle(m, cmd)
	if m.Cursor() != 1 {
		t.Fatalf("cursor should skip the disabled first row, got %d", m.Cursor())
	}
	m, _ = m.Update(press("up"))
	if m.Cursor() != len(corpus)-1 {
		t.Fatalf("up should skip the disabled row and wrap, got %d", m.Cursor())
	}
	r := m.Rect()
	_, cmd = m.Update(tea.MouseClickMsg{X: r.X + 3, Y: r.Y + 1, Button: tea.MouseLeft})
	if len(run(cmd)) != 0 {
		t.Fatal("a click picked a disabled row")
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "already mentioned") {
		t.Fatalf("reason not shown:\n%s", v)
	}
	// Every row disabled: nothing can be picked.
	all := func(sessionref.Candidate) (string, bool) { return "limit 3/3 reached", true }
	m.SetDisable(all)
	if _, ok := m.Highlighted(); ok {
		t.Fatal("highlighted a disabled row")
	}
}

func TestMouse(t *testing.T) {
	m, cmd := opened(newTestPicker(&fakeSource{}, withMaxRows(3), withWidth(60)), "")
	m, _ = settle(m, cmd)
	r := m.Rect()
	if r.H != 5 || r.Y != 20-5 || r.X != 2 || r.W != 60 {
		t.Fatalf("rect %+v", r)
	}
	// Wheel scrolls the window.
	m, _ = m.Update(tea.MouseWheelMsg{X: r.X + 5, Y: r.Y + 2, Button: tea.MouseWheelDown})
	if m.offset != 1 || m.Cursor() != 1 {
		t.Fatalf("wheel: offset %d cursor %d", m.offset, m.Cursor())
	}
	// Hover highlights: the third visible row is item 3 after the scroll.
	m, _ = m.Update(tea.MouseMotionMsg{X: r.X + 5, Y: r.Y + 3})
	if m.Cursor() != 3 {
		t.Fatalf("hover: cursor %d", m.Cursor())
	}
	// Clicks on the border do nothing; on a row they pick it.
	for _, pt := range [][2]int{{r.X, r.Y + 1}, {r.X + 5, r.Y}, {r.X + 5, r.Y + r.H - 1}} {
		if _, cmd := m.Update(tea.MouseClickMsg{X: pt[0], Y: pt[1], Button: tea.MouseLeft}); len(run(cmd)) != 0 {
			t.Fatalf("click at %v picked something", pt)
		}
	}
	_, cmd = m.Update(tea.MouseClickMsg{X: r.X + 5, Y: r.Y + 3, Button: tea.MouseLeft})
	if p := picked(t, run(cmd)); p.Candidate.SessionID != corpus[3].SessionID {
		t.Fatalf("clicked %s", p.Candidate.SessionID)
	}
}

func TestPlacementStaysOnScreen(t *testing.T) {
	for _, tc := range []struct{ w, h, ax, ay int }{{80, 24, 2, 20}, {80, 24, 70, 1}, {40, 12, 39, 6}, {40, 12, 0, 0}, {20, 4, 10, 2}, {100, 30, 50, 29}} {
		m := newTestPicker(&fakeSource{})
		m.SetScreenSize(tc.w, tc.h)
		m.SetAnchor(tc.ax, tc.ay)
		cmd := m.Open("")
		m, _ = settle(m, cmd)
		r := m.Rect()
		if r.X < 0 || r.Y < 0 || r.X+r.W > tc.w || r.Y+r.H > tc.h || r.W == 0 {
			t.Errorf("%+v: rect %+v is off screen", tc, r)
		}
		roomy := tc.ay >= 3 || tc.h-tc.ay-1 >= 3
		if roomy && r.Y <= tc.ay && r.Y+r.H > tc.ay {
			t.Errorf("%+v: rect %+v covers the anchor line", tc, r)
		}
		v := m.View()
		if lipW, lipH := ansi.StringWidth(strings.Split(v, "\n")[0]), strings.Count(v, "\n")+1; lipW != r.W || lipH != r.H {
			t.Errorf("%+v: view %dx%d, rect %+v", tc, lipW, lipH, r)
		}
	}
}

func TestEscDismisses(t *testing.T) {
	m, cmd := opened(newTestPicker(&fakeSource{}), "")
	m, _ = settle(m, cmd)
	m, cmd = m.Update(press("esc"))
	if m.IsOpen() {
		t.Fatal("still open")
	}
	if _, ok := run(cmd)[0].(DismissedMsg); !ok {
		t.Fatal("no DismissedMsg")
	}
}

func TestGoldenViews(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		for _, q := range []string{"", "pars"} {
			t.Run(fmt.Sprintf("w%d_q%s", w, q), func(t *testing.T) {
				m := newTestPicker(&fakeSource{}, withDisable(func(c sessionref.Candidate) (string, bool) {
					return "already mentioned", c.SessionID == "scratch"
				}))
				m.SetScreenSize(w, 24)
				cmd := m.Open(q)
				m, _ = settle(m, cmd)
				golden.RequireEqual(t, []byte(ansi.Strip(m.View())))
			})
		}
	}
}

func TestAge(t *testing.T) {
	for d, want := range map[time.Duration]string{time.Second: "just now", 5 * time.Minute: "5m ago", 3 * time.Hour: "3h ago", 50 * time.Hour: "2d ago", 70 * 24 * time.Hour: "2mo ago", 800 * 24 * time.Hour: "2y ago"} {
		if got := Age(testNow, testNow.Add(-d).UnixMilli()); got != want {
			t.Errorf("Age(%v) = %q, want %q", d, got, want)
		}
	}
}

// A creation time that is no plausible time (2 or 12 ms after the Unix
// epoch, as test fixtures and unset clocks write, or days ahead) reads
// "—" in the rows and in the hits section, as an unknown one does.
func TestImplausibleAgesAreUnknown(t *testing.T) {
	items := []sessionref.Candidate{
		{SessionID: "fixture-two-ms", Label: "parser two", CreatedAt: 2},
		{SessionID: "fixture-twelve", Label: "parser twelve", CreatedAt: 12},
		{SessionID: "fixture-ahead", Label: "parser ahead", CreatedAt: testNow.Add(72 * time.Hour).UnixMilli()},
		cand("fixture-real", "parser real", nil, 3*time.Hour, sessionref.RankOtherCwd),
	}
	hits := []Hit{{Candidate: sessionref.Candidate{SessionID: "hit-epoch", Label: "hit epoch", CreatedAt: 2}, Snippet: "the parser"}}
	for _, w := range []int{40, 80, 200} {
		m := newTestPicker(&fakeSource{items: items}, WithHitSource(func(context.Context, string) ([]Hit, error) { return hits, nil }))
		m.SetScreenSize(w, 24)
		cmd := m.Open("parser")
		m, _ = settle(m, cmd)
		view := ansi.Strip(m.View())
		if strings.Contains(view, "y ago") {
			t.Errorf("width %d: an implausible time shows as years ago:\n%s", w, view)
		}
		if n := strings.Count(view, "—"); n != 4 {
			t.Errorf("width %d: %d rows read \"—\", want 4:\n%s", w, n, view)
		}
		if !strings.Contains(view, "3h ago") {
			t.Errorf("width %d: a real age is lost:\n%s", w, view)
		}
	}
}

func TestMatchRange(t *testing.T) {
	a, z, ok := matchRange("Fix the Session parser", "session")
	if !ok || a != 8 || z != 15 {
		t.Fatalf("%d %d %v", a, z, ok)
	}
	if _, _, ok := matchRange("重构日志", "日志"); !ok {
		t.Fatal("CJK match")
	}
}

// TestResizeKeepsTheHighlightInView: a popup scrolled to its last row
// and then shrunk shows that row at once; grown again, it leaves no rows
// it could show empty (scrolled down while small, it shows from the top
// once it is big).
func TestResizeKeepsTheHighlightInView(t *testing.T) {
	var many []sessionref.Candidate
	for i := range 40 {
		many = append(many, sessionref.Candidate{SessionID: fmt.Sprintf("s-%02d", i), Label: fmt.Sprintf("session %02d", i)})
	}
	m := newTestPicker(&fakeSource{items: many})
	m.SetScreenSize(200, 60)
	m.SetAnchor(0, 59)
	_ = m.Open("")
	m, _ = m.Update(fetchedMsg(m, "", many, nil))
	m, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyEnd})
	visible := func() bool {
		first, h := m.lineOf(m.cursor)
		return first >= m.offset && first+h <= m.offset+m.visibleRows()
	}
	m, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyHome}) // at the top, then shrunk and moved down
	m.SetScreenSize(40, 6)
	m.SetAnchor(0, 5)
	for range 3 {
		m, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	}
	m.SetScreenSize(200, 60)
	m.SetAnchor(0, 59)
	m, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyEnd})
	m.SetScreenSize(40, 6)
	m.SetAnchor(0, 5)
	if !visible() {
		t.Fatalf("shrunk: cursor %d not in view (offset %d, rows %d)", m.cursor, m.offset, m.visibleRows())
	}
	m.SetScreenSize(200, 60)
	m.SetAnchor(0, 59)
	if want := max(m.totalLines()-m.visibleRows(), 0); m.offset != want || !visible() {
		t.Fatalf("grown: offset %d, want %d", m.offset, want)
	}
}

// opened is m opened on query, for a test that builds a picker in one
// expression.
func opened(m Model, query string) (Model, tea.Cmd) {
	cmd := m.Open(query)
	return m, cmd
}

// queried is m with its query set to query.
func queried(m Model, query string) (Model, tea.Cmd) {
	cmd := m.SetQuery(query)
	return m, cmd
}
