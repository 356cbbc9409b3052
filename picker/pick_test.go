package picker

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/sessionref"
)

// answer applies src's answer to m's current query, as the fetch would,
// without running the slow tick.
func answer(m Model, src Source) (Model, tea.Cmd) {
	cands, err := src.Candidates(context.Background(), m.Query())
	return m.Update(fetchedMsg(m, m.Query(), cands, err))
}

func noPick(t *testing.T, m Model, cmd tea.Cmd) {
	t.Helper()
	if p, ok := m.TakePick(); ok {
		t.Fatalf("picked %+v", p)
	}
	for _, msg := range run(cmd) {
		if p, ok := msg.(PickedMsg); ok {
			t.Fatalf("sent a pick %+v", p)
		}
	}
}

// TakePick hands over the pick of the Update that made it, once.
func TestTakePick(t *testing.T) {
	m := openWith(t, newTestPicker(&fakeSource{}), "pars")
	if _, ok := m.TakePick(); ok {
		t.Fatal("a pick before any key")
	}
	m, cmd := m.Update(press("enter"))
	p, ok := m.TakePick()
	if !ok || p.Candidate.SessionID != corpus[0].SessionID || m.IsOpen() {
		t.Fatalf("TakePick = %+v, %v (open %v)", p, ok, m.IsOpen())
	}
	if sent := picked(t, run(cmd)); sent != p {
		t.Fatalf("the Cmd sent %+v, TakePick gave %+v", sent, p)
	}
	if _, ok := m.TakePick(); ok {
		t.Fatal("the pick was handed over twice")
	}
	// An unclaimed pick does not outlive the next Update.
	m = openWith(t, m, "pars")
	m, _ = m.Update(press("tab"))
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if _, ok := m.TakePick(); ok {
		t.Fatal("a pick of an earlier Update was handed over")
	}
}

// Issue 13 item 2: while the picker is open Enter and Tab never leave it,
// and with nothing to pick the popup says why, visibly.
func TestNothingPickableConsumesEnterAndSaysWhy(t *testing.T) {
	all := func(sessionref.Candidate) (string, bool) { return "limit 3/3 reached", true }
	cases := []struct {
		name, query string
		src         Source
		opts        []Option
		status      string
	}{
		{"no match", "zzzq", &fakeSource{}, nil, "no sessions match “zzzq”"},
		{"all disabled", "pars", &fakeSource{}, []Option{withDisable(all)}, "limit 3/3 reached"},
		{"source error", "x", &fakeSource{err: context.DeadlineExceeded}, nil, "couldn't list sessions: context deadline exceeded"},
		{"no sessions", "", &fakeSource{items: []sessionref.Candidate{}}, nil, "no other sessions yet"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, cmd := opened(newTestPicker(tc.src, tc.opts...), tc.query)
			m, _ = settle(m, cmd)
			if m.Pickable() || m.Status() != tc.status {
				t.Fatalf("Pickable %v, Status %q, want %q", m.Pickable(), m.Status(), tc.status)
			}
			before := ansi.Strip(m.View())
			if !strings.Contains(before, tc.status) {
				t.Fatalf("the popup does not say %q:\n%s", tc.status, before)
			}
			for _, k := range []string{"enter", "tab"} {
				if !m.WantsKey(press(k)) {
					t.Fatalf("%s would leave the open picker (and send)", k)
				}
				next, cmd := m.Update(press(k))
				noPick(t, next, cmd)
				after := ansi.Strip(next.View())
				if !next.IsOpen() || after == before || !strings.Contains(after, "⚠ nothing to mention") {
					t.Fatalf("%s changed nothing visible:\n%s", k, after)
				}
			}
			if m.KeyMap().Accept.Enabled() || m.KeyMap().AcceptEnter.Enabled() || !m.KeyMap().Dismiss.Enabled() {
				t.Fatal("help offers a pick that cannot happen, or no way out")
			}
		})
	}
}

// The KeyMap enables bindings by state.
func TestKeyMapByState(t *testing.T) {
	m := newTestPicker(&fakeSource{})
	k := m.KeyMap()
	if k.Up.Enabled() || k.Accept.Enabled() || k.Dismiss.Enabled() {
		t.Fatal("a closed picker enables its keys")
	}
	m = openWith(t, m, "pars")
	k = m.KeyMap()
	if !k.Up.Enabled() || !k.Accept.Enabled() || !k.AcceptEnter.Enabled() || !k.Dismiss.Enabled() {
		t.Fatal("an open picker with rows disables its keys")
	}
	// While a search runs Tab still does something: it waits for the
	// first match.
	if pending, _ := queried(m, "parser"); !pending.KeyMap().Accept.Enabled() {
		t.Fatal("Accept disabled while a pick would wait for the first match")
	}
	// SetKeyMap rebinds; the rebinding is matched and consumed.
	k = DefaultKeyMap()
	k.Accept.SetKeys("ctrl+y")
	m.SetKeyMap(k)
	if m.WantsKey(press("tab")) || !m.WantsKey(tea.KeyPressMsg{Code: 'y', Mod: tea.ModCtrl}) {
		t.Fatal("the rebinding is not what the picker consumes")
	}
	m, _ = m.Update(tea.KeyPressMsg{Code: 'y', Mod: tea.ModCtrl})
	if _, ok := m.TakePick(); !ok {
		t.Fatal("the rebound key did not pick")
	}
	if got := m.KeyMap().Accept.Keys(); len(got) != 1 || got[0] != "ctrl+y" {
		t.Fatalf("KeyMap() lost the rebinding: %v", got)
	}
}

// Issue 13 item 3: Tab on a stale list never takes a row the user did not
// see. The popup says at once that the first match of what was typed will
// be picked; the stale rows carry no marker; the first match of the
// answer is picked, and with none nothing is.
func TestPickWhileSearchingWaitsVisibly(t *testing.T) {
	src := &fakeSource{}
	m := openWith(t, newTestPicker(src, WithSlowAfter(time.Hour)), "")
	_ = m.SetQuery("emoji")
	if m.SectionFresh(SessionsID) || len(m.Answer(SessionsID).Candidates) != len(corpus) {
		t.Fatal("the old rows should still show while the new query runs")
	}
	if v := ansi.Strip(m.View()); strings.Contains(v, "›") {
		t.Fatalf("a stale row carries the marker, as if Tab would pick it:\n%s", v)
	}
	m, tabCmd := m.Update(press("tab"))
	noPick(t, m, tabCmd)
	if !m.Accepting() {
		t.Fatal("the pick is not waiting for the answer")
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "picking the first match for “emoji”…") {
		t.Fatalf("the wait is not shown:\n%s", v)
	}
	m, cmd := answer(m, src)
	if p := picked(t, run(cmd)); p.Candidate.SessionID != corpus[3].SessionID || m.IsOpen() {
		t.Fatalf("picked %s, want the first match of “emoji”", p.Candidate.SessionID)
	}

	// No match: nothing is picked, and the popup says why.
	m = openWith(t, newTestPicker(src, WithSlowAfter(time.Hour)), "")
	_ = m.SetQuery("zzzq")
	m, _ = m.Update(press("enter"))
	m, cmd = answer(m, src)
	noPick(t, m, cmd)
	if v := ansi.Strip(m.View()); !m.IsOpen() || !strings.Contains(v, "⚠ nothing to mention: no sessions match “zzzq”") {
		t.Fatalf("after an answer with nothing to pick:\n%s", v)
	}

	// Nothing on screen yet (the first fetch is not slow): Tab shows the
	// popup with the wait at once.
	m, _ = opened(newTestPicker(src, WithSlowAfter(time.Hour)), "pars")
	if m.View() != "" {
		t.Fatal("a fresh fetch should not flash a popup")
	}
	m, _ = m.Update(press("tab"))
	if v := ansi.Strip(m.View()); !strings.Contains(v, "picking the first match for “pars”…") {
		t.Fatalf("the wait is not shown:\n%s", v)
	}
	// Moving is a new choice: the waiting pick is dropped.
	m, _ = m.Update(press("down"))
	if m.Accepting() {
		t.Fatal("a move kept the waiting pick")
	}
}

// A click on a row of a stale list picks that row, as drawn.
func TestClickOnStaleRowPicksIt(t *testing.T) {
	m := openWith(t, newTestPicker(&fakeSource{}, WithSlowAfter(time.Hour)), "")
	_ = m.SetQuery("emoji")
	lines := strings.Split(ansi.Strip(m.View()), "\n")
	r := m.Rect()
	for i, l := range lines {
		if strings.Contains(l, "Café menu") {
			m, _ = m.Update(tea.MouseClickMsg{X: r.X + 5, Y: r.Y + i, Button: tea.MouseLeft})
			if p, ok := m.TakePick(); !ok || p.Candidate.SessionID != corpus[4].SessionID {
				t.Fatalf("click picked %+v, %v", p, ok)
			}
			return
		}
	}
	t.Fatal("row not drawn")
}

// Issue 13 item 12: a click outside the popup closes it, and the picker
// says it wants that click.
func TestClickOutsideCloses(t *testing.T) {
	m := openWith(t, newTestPicker(&fakeSource{}), "pars")
	r := m.Rect()
	out := tea.MouseClickMsg{X: r.X + r.W + 1, Y: 0, Button: tea.MouseLeft}
	inside := tea.MouseWheelMsg{X: r.X + 1, Y: r.Y + 1, Button: tea.MouseWheelDown}
	outsideWheel := tea.MouseWheelMsg{X: 0, Y: 0, Button: tea.MouseWheelDown}
	if !m.WantsMouse(out) || !m.WantsMouse(inside) || m.WantsMouse(outsideWheel) {
		t.Fatal("WantsMouse: a click anywhere and a wheel inside, not a wheel outside")
	}
	m, cmd := m.Update(out)
	if m.IsOpen() {
		t.Fatal("still open")
	}
	if msgs := run(cmd); len(msgs) != 1 || msgs[0] != (DismissedMsg{}) {
		t.Fatalf("messages %v", msgs)
	}
	if m.WantsMouse(out) {
		t.Fatal("a closed picker wants the mouse")
	}
}

// Issue 13 item 9: rows can be told apart at every width: the short id is
// in every row, disabled rows keep their id, folder and age, and an
// unknown creation time reads "—".
func TestRowsAreDistinguishable(t *testing.T) {
	same := []sessionref.Candidate{
		cand("11111111-0000-4000-8000-000000000001", "the session parser refactoring", ptr("/home/dev/src/a"), 22*24*time.Hour, sessionref.RankSameCwd),
		cand("22222222-0000-4000-8000-000000000002", "the session parser refactoring", ptr("/home/dev/src/b"), 22*24*time.Hour, sessionref.RankSameCwd),
		cand("persisted-session-2", "the session parser refactoring", ptr("/home/dev/src/c"), 22*24*time.Hour, sessionref.RankSameCwd),
		{SessionID: "{{session}}", Label: "the session parser refactoring", Rank: sessionref.RankSameCwd},
	}
	taken := func(c sessionref.Candidate) (string, bool) {
		return "already mentioned", c.SessionID == same[1].SessionID
	}
	for _, w := range []int{40, 60, 80, 120, 200} {
		m := newTestPicker(&fakeSource{items: same}, withDisable(taken))
		m.SetScreenSize(w, 24)
		m = openWith(t, m, "")
		lines := strings.Split(ansi.Strip(m.View()), "\n")[1:]
		for i, c := range same {
			if !showsID(lines[i], c.SessionID) {
				t.Errorf("width %d: row %d lacks its id %q: %q", w, i, textutil.ShortID(c.SessionID), lines[i])
			}
		}
		if !strings.Contains(lines[1], "22d ago") || (w >= 80 && !strings.Contains(lines[1], "~/src/b")) {
			t.Errorf("width %d: the disabled row lost its age or folder: %q", w, lines[1])
		}
		if w >= 80 && !strings.Contains(lines[1], "already mentioned") {
			t.Errorf("width %d: the disabled row does not say why: %q", w, lines[1])
		}
		if !strings.Contains(lines[3], "—") || strings.Contains(strings.Join(lines, "\n"), "y ago") {
			t.Errorf("width %d: an unknown creation time is not shown as unknown: %q", w, lines[3])
		}
	}
	if textutil.ShortID("persisted-session-2") == "persiste" {
		t.Fatal("a non-UUID id is cut to an unreadable prefix")
	}
}

// The status line never touches the frame.
func TestStatusKeepsOffTheBorder(t *testing.T) {
	m := openWith(t, newTestPicker(&fakeSource{}), "zzzq")
	lines := strings.Split(ansi.Strip(m.View()), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], "│ ") || !strings.HasSuffix(lines[1], " │") {
		t.Fatalf("status line touches the border:\n%s", strings.Join(lines, "\n"))
	}
	m = openWith(t, newTestPicker(&fakeSource{}, withDisable(func(sessionref.Candidate) (string, bool) { return "limit 3/3 reached", true })), "")
	lines = strings.Split(ansi.Strip(m.View()), "\n")
	footer := lines[len(lines)-2]
	if !strings.HasPrefix(footer, "│ ") || !strings.Contains(footer, "nothing to mention: limit 3/3 reached") {
		t.Fatalf("footer %q", footer)
	}
}

// Highlighting lowercases as the core's matcher does (JavaScript's root
// locale), so İ and a final sigma highlight what the core matched.
func TestMatchLowersLikeTheCore(t *testing.T) {
	for _, tc := range []struct{ label, query, want string }{
		{"İstanbul trip", "i\u0307st", "İst"}, // İ lowers to i + U+0307
		{"İstanbul trip", "i\u0307", "İ"},     // the whole İ, not half of it
		{"İstanbul trip", "ist", ""},          // the dot stays between i and s
		{"ΟΔΟΣ", "οδο\u03c3", ""},             // a final Σ lowers to ς, not σ…
		{"ΟΔΟΣ", "οδο\u03c2", "ΟΔΟΣ"},         // …and matches ς
		{"ΣΟΦΙΑ", "\u03c3οφ", "ΣΟΦ"},          // a Σ that does not end a word is σ
		{"ΟΔΟΣ map", "\u03a3 map", ""},        // a lone Σ is σ, which a final ς is not
		{"Fix the Session parser", "SESSION", "Session"},
		{"重构日志", "日志", "日志"},
		{"KELVIN \u212a sign", "k sign", "\u212a sign"},
	} {
		a, z, ok := matchRange(tc.label, tc.query)
		got := ""
		if ok {
			got = tc.label[a:z]
		}
		if got != tc.want {
			t.Errorf("matchRange(%q, %q) = %q, want %q", tc.label, tc.query, got, tc.want)
		}
	}
}

// The highlight agrees with the core: for titles with special casing, a
// title the resolver matches (on its title alone) is highlighted, and one
// it does not match is not.
func TestHighlightAgreesWithResolver(t *testing.T) {
	store := fakestore.New()
	titles := []string{"İstanbul trip", "ΟΔΟΣ map", "ΣΟΦΙΑ notes", "Straße plan", "ǅemal", "ﬁle fix"}
	for i, title := range titles {
		id := string(rune('a' + i))
		store.Create(id, nil, fakestore.DefaultNow)
		store.SetTitle(id, title)
	}
	r, err := sessionref.NewResolver(store, sessionref.Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"i\u0307", "is", "i\u0307st", "οδο\u03c2", "οδο\u03c3", "οδο\u03c2 map", "ΟΔΟΣ", "\u03c3οφ", "ΣΟΦ", "straß", "ǆ", "ǆemal", "ﬁle", "file"} {
		got, err := r.ListCandidates(context.Background(), sessionref.Target{ID: "self"}, q, 50)
		if err != nil {
			t.Fatal(err)
		}
		matched := map[string]bool{}
		for _, c := range got {
			matched[c.Label] = true
		}
		for _, title := range titles {
			if _, _, ok := matchRange(title, q); ok != matched[title] {
				t.Errorf("query %q, title %q: highlight %v, resolver matched %v", q, title, ok, matched[title])
			}
		}
	}
}

// The wheel never leaves the cursor on a disabled row while an enabled
// one is in view (Status would say nothing can be picked).
func TestWheelSkipsDisabledRows(t *testing.T) {
	off := func(c sessionref.Candidate) (string, bool) {
		return "already mentioned", c.SessionID == corpus[3].SessionID || c.SessionID == corpus[4].SessionID
	}
	m := openWith(t, newTestPicker(&fakeSource{}, withDisable(off), withMaxRows(3)), "")
	r := m.Rect()
	for range 3 {
		m, _ = m.Update(tea.MouseWheelMsg{X: r.X + 2, Y: r.Y + 1, Button: tea.MouseWheelDown})
	}
	if !m.Pickable() || m.Status() != "" || m.Cursor() != 5 {
		t.Fatalf("cursor %d on a disabled row: %q", m.Cursor(), m.Status())
	}
}

// showsID reports whether a row shows id: its ShortID, or the id cut in
// the middle to more cells than that, up to the whole id.
func showsID(row, id string) bool {
	if strings.Contains(row, textutil.ShortID(id)) {
		return true
	}
	safe := textutil.Inline(id)
	for w := textutil.ShortIDWidth; w <= textutil.Width(safe); w++ {
		if strings.Contains(row, textutil.Middle(safe, w)) {
			return true
		}
	}
	return false
}

// Long ids that share their ends (as real harness logs have) are
// shortened together so no two rows read the same: the id column grows
// and moves its cut until they differ, and with width to spare shows the
// whole ids. Rows that differ in nothing but the id must still differ.
func TestCollidingIDsStayDistinct(t *testing.T) {
	ids := []string{
		"acpsnap-suite-plain-turn-child1",
		"acpsnap-suite-tools-turn-child1",
		"acp-session-4f1c2a-child1",
		"acp-session-9e2d7b-child1",
		"3f2a9c1e-0000-4000-8000-00000000000c",
	}
	var items []sessionref.Candidate
	for _, id := range ids {
		items = append(items, cand(id, "the session parser refactoring", ptr("/home/dev/src/a"), 3*time.Hour, sessionref.RankSameCwd))
	}
	for _, w := range []int{40, 80, 200} {
		m := newTestPicker(&fakeSource{items: items})
		m.SetScreenSize(w, 24)
		m = openWith(t, m, "")
		checkBox(t, m)
		view := ansi.Strip(m.View())
		rows := strings.Split(view, "\n")[1 : 1+len(ids)]
		seen := map[string]int{}
		for i, r := range rows {
			r = strings.Replace(r, "›", " ", 1) // the highlight is not the id
			if j, dup := seen[r]; dup {
				t.Errorf("width %d: rows %d and %d read the same:\n%s", w, j, i, view)
			}
			seen[r] = i
		}
		if !strings.Contains(rows[4], "3f2a9c1e ") || strings.Contains(view, "3f2a9c1e-") {
			t.Errorf("width %d: a UUID is not shown as its 8 first characters:\n%s", w, view)
		}
		if w == 200 {
			for i, id := range ids[:4] {
				if !strings.Contains(rows[i], id) {
					t.Errorf("width %d: row %d does not show its whole id %q:\n%s", w, i, id, view)
				}
			}
		}
	}
}
