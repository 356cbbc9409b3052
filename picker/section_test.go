package picker

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/internal/golden"
	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/sessionref"
)

var fileCorpus = []Item{
	{Label: "parser.go", Detail: "sessionref/parser.go", Insert: "sessionref/parser.go", Value: 1},
	{Label: "parser_test.go", Detail: "sessionref/parser_test.go", Insert: "sessionref/parser_test.go", Value: 2},
	{Label: "README.md", Detail: "README.md", Insert: "README.md", Value: 3},
}

// fakeFiles is a host's section source over fileCorpus that records each
// call's query and context.
type fakeFiles struct {
	mu    sync.Mutex
	calls []call
	err   error
	items []Item
}

func (f *fakeFiles) list(ctx context.Context, q string) ([]Item, error) {
	f.mu.Lock()
	f.calls = append(f.calls, call{q, ctx})
	err, items := f.err, f.items
	f.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if items == nil {
		items = fileCorpus
	}
	var out []Item
	for _, it := range items {
		if strings.Contains(strings.ToLower(it.Label), strings.ToLower(q)) {
			out = append(out, it)
		}
	}
	return out, nil
}

func (f *fakeFiles) queries() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, c := range f.calls {
		out = append(out, c.query)
	}
	return out
}

func filesSection(f *fakeFiles) Section {
	return Section{ID: "files", Title: "files", Source: f.list}
}

func itemLabels(its []Item) []string {
	var out []string
	for _, it := range its {
		out = append(out, it.Label)
	}
	return out
}

// openAll opens m on query and applies every section's answer.
func openAll(t *testing.T, m Model, query string) Model {
	t.Helper()
	cmd := m.Open(query)
	m, _ = settle(m, cmd)
	if !m.Settled() {
		t.Fatalf("answers not applied for %q", query)
	}
	return m
}

// rowTexts is the popup's lines, frame and styles stripped.
func rowTexts(m Model) []string {
	var out []string
	for _, l := range strings.Split(ansi.Strip(m.View()), "\n") {
		out = append(out, strings.TrimSpace(strings.Trim(l, "│╭╮╰╯─")))
	}
	return out
}

// By default a host's section comes after the sessions and before "in
// messages" (what matches by name before what matches by what was said);
// WithOrder puts it first, the sessions get a heading of their own, and
// the entries are numbered in the order drawn.
func TestSectionOrder(t *testing.T) {
	m := newHitsPicker(&fakeHits{}, WithSection(filesSection(&fakeFiles{})))
	if got := m.Sections(); !slices.Equal(got, []string{SessionsID, "files", MessagesID}) {
		t.Fatalf("default order %v", got)
	}
	m = openAll(t, m, "parser")
	rows := rowTexts(m)
	if !strings.HasPrefix(rows[1], "› Fix the session parser") || !slices.Contains(rows, "in messages") {
		t.Fatalf("default: sessions first, then in messages:\n%s", strings.Join(rows, "\n"))
	}
	// Every entry, hits and files included, is reached by the cursor.
	if n := m.Len(); n != len(m.Answer(SessionsID).Candidates)+len(m.Answer(MessagesID).Hits)+2 {
		t.Fatalf("Len %d", n)
	}
	m = newHitsPicker(&fakeHits{}, WithSection(filesSection(&fakeFiles{})), WithOrder("files", SessionsID, "nope"), withMaxRows(20))
	m.SetScreenSize(80, 40)
	m.SetAnchor(2, 38)
	if got := m.Sections(); !slices.Equal(got, []string{"files", SessionsID, MessagesID}) {
		t.Fatalf("ordered %v", got)
	}
	m = openAll(t, m, "parser")
	rows = rowTexts(m)
	want := []string{"", "files", "› parser.go", "parser_test.go", "sessions", "Fix the session parser"}
	for i, w := range want {
		if !strings.HasPrefix(rows[i], w) {
			t.Fatalf("line %d is %q, want %q:\n%s", i, rows[i], w, strings.Join(rows, "\n"))
		}
	}
	if it, sec, ok := m.HighlightedItem(); !ok || sec != "files" || it.Label != "parser.go" {
		t.Fatalf("highlighted item %+v %q %v", it, sec, ok)
	}
	if _, ok := m.Highlighted(); ok {
		t.Fatal("Highlighted returned a session while a file is highlighted")
	}
	if !m.Pickable() || m.Status() != "" {
		t.Fatalf("a file is highlighted: pickable %v, status %q", m.Pickable(), m.Status())
	}
}

// Keys move one cursor through every section, in order, and wrap.
func TestCursorAcrossSectionsByKeys(t *testing.T) {
	m := newHitsPicker(&fakeHits{}, WithSection(filesSection(&fakeFiles{})), WithOrder("files", SessionsID, MessagesID), withMaxRows(3))
	m = openAll(t, m, "parser")
	n := m.Len()
	var seen []string
	for i := range n + 1 {
		if it, sec, ok := m.HighlightedItem(); ok {
			seen = append(seen, sec+":"+it.Label)
		} else if c, ok := m.Highlighted(); ok {
			seen = append(seen, "s:"+c.SessionID)
		}
		if m.Cursor() != i%n {
			t.Fatalf("after %d downs the cursor is %d", i, m.Cursor())
		}
		// The highlighted row is on screen, however far down it is.
		if !strings.Contains(ansi.Strip(m.View()), "›") {
			t.Fatalf("cursor %d is off screen:\n%s", m.Cursor(), ansi.Strip(m.View()))
		}
		m, _ = m.Update(press("down"))
	}
	if len(seen) != n+1 || seen[0] != "files:parser.go" || seen[1] != "files:parser_test.go" || seen[n] != seen[0] {
		t.Fatalf("order of the cursor: %v", seen)
	}
	m, _ = m.Update(press("home"))
	m, _ = m.Update(press("up"))
	if it, _, ok := m.HighlightedItem(); ok || m.Cursor() != n-1 {
		t.Fatalf("up from the first wraps to the last hit: %d %+v", m.Cursor(), it)
	}
	m, _ = m.Update(press("home"))
	if m.Cursor() != 0 {
		t.Fatalf("home: %d", m.Cursor())
	}
}

// Hover highlights a host's row, a click picks it and hands the host its
// own value; the wheel scrolls across section boundaries.
func TestMouseAcrossSections(t *testing.T) {
	m := newTestPicker(&fakeSource{}, WithSection(filesSection(&fakeFiles{})), withMaxRows(3))
	m = openAll(t, m, "parser")
	g := m.layout()
	// Lines: 0 and 1 are sessions, 2 the files' heading, 3 and 4 files.
	var fileLine = -1
	for l := range g.rows {
		if row, ok := m.RowAt(g.left+3, g.top+l); ok && row == len(m.Answer(SessionsID).Candidates) {
			fileLine = l
		}
	}
	if fileLine < 0 {
		// Not in view yet: scroll down until it is.
		for range 5 {
			m, _ = m.Update(tea.MouseWheelMsg{X: g.left + 3, Y: g.top, Button: tea.MouseWheelDown})
		}
		g = m.layout()
		for l := range g.rows {
			if row, ok := m.RowAt(g.left+3, g.top+l); ok && row == len(m.Answer(SessionsID).Candidates) {
				fileLine = l
			}
		}
	}
	if fileLine < 0 {
		t.Fatalf("no file row on screen:\n%s", ansi.Strip(m.View()))
	}
	if _, ok := m.RowAt(g.left+3, g.top+fileLine-1); ok {
		t.Fatal("the files' heading is an entry")
	}
	m, _ = m.Update(tea.MouseMotionMsg{X: g.left + 3, Y: g.top + fileLine})
	if it, sec, ok := m.HighlightedItem(); !ok || sec != "files" || it.Label != "parser.go" {
		t.Fatalf("hover: %+v %q %v", it, sec, ok)
	}
	m, cmd := m.Update(tea.MouseClickMsg{X: g.left + 3, Y: g.top + fileLine, Button: tea.MouseLeft})
	p, ok := m.TakePick()
	if !ok || p.Item == nil || p.Item.Value != 1 || p.Section != "files" || p.Mention != "" || p.Candidate.SessionID != "" {
		t.Fatalf("click: %+v %v", p, ok)
	}
	if m.IsOpen() {
		t.Fatal("the picker stayed open after the pick")
	}
	if msgs := run(cmd); len(msgs) != 1 || msgs[0].(PickedMsg).Item.Value != 1 {
		t.Fatalf("the PickedMsg Cmd: %v", msgs)
	}
}

// Tab picks a host's item; a session's pick names its section.
func TestPickItemAndSessionSections(t *testing.T) {
	m := newHitsPicker(&fakeHits{}, WithSection(filesSection(&fakeFiles{})), WithOrder("files"))
	m = openAll(t, m, "parser")
	m2, _ := m.Update(press("tab"))
	if p, ok := m2.TakePick(); !ok || p.Item == nil || p.Item.Insert != "sessionref/parser.go" || p.Section != "files" {
		t.Fatalf("tab on a file: %+v", p)
	}
	m2, _ = m.Update(press("down"))
	m2, _ = m2.Update(press("down"))
	m2, _ = m2.Update(press("enter"))
	if p, ok := m2.TakePick(); !ok || p.Item != nil || p.Section != SessionsID || p.Mention == "" {
		t.Fatalf("enter on a session: %+v", p)
	}
	m2, _ = m.Update(press("end"))
	m2, _ = m2.Update(press("enter"))
	if p, ok := m2.TakePick(); !ok || p.Item != nil || p.Section != MessagesID {
		t.Fatalf("enter on a hit: %+v", p)
	}
}

// Each section's answer is tagged with its query: an answer to an older
// query, a second answer and an answer for a section that does not exist
// are dropped; the fetch of the older query is cancelled.
func TestSectionStaleAnswersAndCancellation(t *testing.T) {
	files := &fakeFiles{}
	m := newTestPicker(&fakeSource{}, WithSection(filesSection(files)))
	first := m.Open("par")
	old := itemsMsg(m, "files", "par", []Item{{Label: "stale.go"}}, nil)
	run(first) // the source is called, and remembers its context
	if q := files.queries(); !slices.Equal(q, []string{"par"}) {
		t.Fatalf("calls %v", q)
	}
	cmd := m.SetQuery("pars")
	if files.calls[0].ctx.Err() == nil {
		t.Fatal("the older query's fetch was not cancelled")
	}
	if m.SectionFresh("files") {
		t.Fatal("fresh before the answer")
	}
	m, _ = m.Update(old)
	if got := itemLabels(m.Answer("files").Items); len(got) != 0 {
		t.Fatalf("the older query's answer was applied: %v", got)
	}
	m, _ = m.Update(itemsMsg(m, "nope", "pars", []Item{{Label: "x"}}, nil))
	m, _ = settle(m, cmd)
	if got := itemLabels(m.Answer("files").Items); !slices.Equal(got, []string{"parser.go", "parser_test.go"}) || !m.SectionFresh("files") {
		t.Fatalf("answer: %v", got)
	}
	m, _ = m.Update(itemsMsg(m, "files", "pars", []Item{{Label: "again"}}, nil))
	if got := itemLabels(m.Answer("files").Items); len(got) != 2 {
		t.Fatalf("a second answer was applied: %v", got)
	}
	// Close cancels a running fetch and drops its answer.
	cmd = m.SetQuery("parse")
	late := run(cmd)
	m.Close()
	if c := files.calls[len(files.calls)-1]; c.query != "parse" || c.ctx.Err() == nil {
		t.Fatal("Close did not cancel the section's fetch")
	}
	for _, msg := range late {
		m, _ = m.Update(msg)
	}
	if got := itemLabels(m.Answer("files").Items); slices.Contains(got, "stale.go") || len(got) != 2 {
		t.Fatalf("after Close: %v", got)
	}
}

// A section's error shows in its heading, while the other sections'
// rows stay pickable; with no rows anywhere, the status says it.
func TestSectionError(t *testing.T) {
	files := &fakeFiles{err: fmt.Errorf("disk \x1b[31mgone\u202e")}
	m := newTestPicker(&fakeSource{}, WithSection(filesSection(files)))
	m = openAll(t, m, "parser")
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "files · couldn't list: disk \\x1B[31mgone\\u202E") || !m.Pickable() {
		t.Fatalf("error heading:\n%s", v)
	}
	m = openAll(t, m, "zzzq")
	if s := m.Status(); !strings.Contains(s, "nothing matches “zzzq”; couldn't list files: disk") {
		t.Fatalf("status %q", s)
	}
}

// What an empty '@' shows is the host's to set: the sessions (or not)
// and the sections with OnEmpty; the others are not asked.
func TestEmptyQuery(t *testing.T) {
	files, cmds := &fakeFiles{}, &fakeFiles{items: []Item{{Label: "/help"}, {Label: "/clear"}}}
	src := &fakeSource{}
	m := newTestPicker(src, WithSection(filesSection(files)),
		WithSection(Section{ID: "commands", Title: "commands", Source: cmds.list, OnEmpty: true}),
		WithSessionsOnEmpty(false))
	m = openAll(t, m, "")
	if len(src.calls) != 0 || len(files.calls) != 0 || len(cmds.calls) != 1 {
		t.Fatalf("asked: sessions %d, files %d, commands %d", len(src.calls), len(files.calls), len(cmds.calls))
	}
	if got := itemLabels(m.Answer("commands").Items); !slices.Equal(got, []string{"/help", "/clear"}) || len(m.Answer(SessionsID).Candidates) != 0 {
		t.Fatalf("rows: commands %v, sessions %d", got, len(m.Answer(SessionsID).Candidates))
	}
	rows := rowTexts(m)
	if rows[1] != "commands" || !strings.HasPrefix(rows[2], "› /help") {
		t.Fatalf("a host's section has its heading, even first:\n%s", strings.Join(rows, "\n"))
	}
	// Typing asks every section.
	cmd := m.SetQuery("p")
	m, _ = settle(m, cmd)
	if len(src.calls) != 1 || len(files.calls) != 1 || len(m.Answer(SessionsID).Candidates) == 0 {
		t.Fatalf("after typing: sessions %d, files %d", len(src.calls), len(files.calls))
	}
	// By default an empty '@' lists sessions, and no section without
	// OnEmpty; with nothing at all, the status says so.
	none := newTestPicker(&fakeSource{items: []sessionref.Candidate{}}, WithSection(filesSection(&fakeFiles{})), WithSessionsOnEmpty(false))
	none = openAll(t, none, "")
	if s := none.Status(); s != "nothing to show yet · type to search" {
		t.Fatalf("status %q", s)
	}
}

// A Tab before the answers picks the first match in the order of the
// sections: it waits for a section drawn first even when a later one
// answered already.
func TestPickFirstFollowsTheOrder(t *testing.T) {
	m := newTestPicker(&fakeSource{}, WithSection(filesSection(&fakeFiles{})), WithOrder("files"))
	_ = m.Open("parser")
	m, _ = m.Update(press("tab"))
	if !m.Accepting() {
		t.Fatal("not waiting")
	}
	m, _ = m.Update(fetchedMsg(m, "parser", corpus[:1], nil))
	if _, ok := m.TakePick(); ok || !m.Accepting() {
		t.Fatal("picked a session while the files, drawn first, were on their way")
	}
	m, _ = m.Update(itemsMsg(m, "files", "parser", fileCorpus[:1], nil))
	if p, ok := m.TakePick(); !ok || p.Item == nil || p.Item.Label != "parser.go" {
		t.Fatalf("pick %+v %v", p, ok)
	}
	// With no file matching, the first session is picked.
	m = newTestPicker(&fakeSource{}, WithSection(filesSection(&fakeFiles{})), WithOrder("files"))
	_ = m.Open("parser")
	m, _ = m.Update(press("enter"))
	m, _ = m.Update(itemsMsg(m, "files", "parser", nil, nil))
	m, _ = m.Update(fetchedMsg(m, "parser", corpus[:1], nil))
	if p, ok := m.TakePick(); !ok || p.Item != nil || p.Candidate.SessionID != corpus[0].SessionID {
		t.Fatalf("pick %+v %v", p, ok)
	}
}

// A section's answer that arrives above the row the user moved to
// leaves the highlight on it; before any move, the first row is
// highlighted.
func TestLateSectionKeepsTheHighlight(t *testing.T) {
	m := newTestPicker(&fakeSource{}, WithSection(filesSection(&fakeFiles{})), WithOrder("files"))
	_ = m.Open("e")
	m, _ = m.Update(fetchedMsg(m, "e", corpus[:3], nil))
	m, _ = m.Update(press("down"))
	before, _ := m.Highlighted()
	fresh, _ := opened(m, "e")
	fresh, _ = fresh.Update(fetchedMsg(fresh, "e", corpus[:3], nil))
	fresh, _ = fresh.Update(itemsMsg(fresh, "files", "e", fileCorpus, nil))
	if fresh.Cursor() != 0 {
		t.Fatalf("before any move the cursor is %d", fresh.Cursor())
	}
	m, _ = m.Update(itemsMsg(m, "files", "e", fileCorpus, nil))
	after, ok := m.Highlighted()
	if !ok || after.SessionID != before.SessionID || m.Cursor() != len(fileCorpus)+1 {
		t.Fatalf("highlight moved from %s to %s (cursor %d)", before.SessionID, after.SessionID, m.Cursor())
	}
}

// A section that answers slowly says so in its heading once the slow
// timer fires, and in the status while nothing else shows.
func TestSectionSlow(t *testing.T) {
	m := newTestPicker(&fakeSource{}, WithSection(filesSection(&fakeFiles{})))
	_ = m.Open("parser")
	m, _ = m.Update(fetchedMsg(m, "parser", corpus[:1], nil))
	m, _ = m.Update(itemsMsg(m, "files", "parser", fileCorpus[:1], nil))
	_ = m.SetQuery("parse")
	m, _ = m.Update(fetchedMsg(m, "parse", corpus[:1], nil))
	if v := ansi.Strip(m.View()); strings.Contains(v, "searching") {
		t.Fatalf("searching before the timer:\n%s", v)
	}
	m, _ = m.Update(slowMsg{m.id, m.seq})
	if v := ansi.Strip(m.View()); !strings.Contains(v, "files · searching…") {
		t.Fatalf("no searching in the heading:\n%s", v)
	}
	// Nothing else to show: the status says it.
	m = newTestPicker(&fakeSource{}, WithSection(filesSection(&fakeFiles{})))
	_ = m.Open("zzz")
	m, _ = m.Update(fetchedMsg(m, "zzz", nil, nil))
	if s := m.Status(); s != "" && strings.Contains(s, "searching") && m.View() != "" {
		t.Fatalf("searching shown before the timer: %q", s)
	}
	m, _ = m.Update(slowMsg{m.id, m.seq})
	if s := m.Status(); s != `searching “zzz”…` || !strings.Contains(ansi.Strip(m.View()), "searching") {
		t.Fatalf("status %q", s)
	}
}

// Hostile labels, details and titles stay inside the popup and reach
// the terminal escaped.
func TestHostileItems(t *testing.T) {
	bomb := "a" + strings.Repeat("\u0301", 5000)
	hostile := []Item{
		{Label: "\x1b]0;pwned\x07evil\x1b[2J", Detail: "\u202eexe.txt"},
		{Label: strings.Repeat("很长的名字", 20000), Detail: strings.Repeat("/x", 50000)},
		{Label: bomb + " zalgo", Detail: bomb},
		{Label: "line\nbreak\ttab\rret", Detail: "\x00\x7f\u0085"},
	}
	for _, w := range []int{40, 80, 200} {
		m := newTestPicker(&fakeSource{items: corpus[:1]}, WithSection(Section{ID: "f", Title: "\x1b[31mred\u202e", Source: func(context.Context, string) ([]Item, error) { return hostile, nil }, OnEmpty: true}))
		m.SetScreenSize(w, 24)
		m = openAll(t, m, "")
		for range 3 {
			lines := checkBox(t, m)
			for _, l := range lines {
				s := ansi.Strip(l)
				if strings.ContainsAny(s, "\x1b\x07\x00\x7f\u202e\u0085\n\r\t") {
					t.Fatalf("width %d: raw control in %q", w, s)
				}
				if strings.Count(s, "\u0301") > 4*2 {
					t.Fatalf("width %d: combining-mark bomb drawn: %d marks", w, strings.Count(s, "\u0301"))
				}
			}
			m, _ = m.Update(press("down"))
		}
		if v := ansi.Strip(m.View()); !strings.Contains(v, `\x1B[31mred\u202E`) {
			t.Fatalf("width %d: the title is not escaped:\n%s", w, v)
		}
	}
	if got := itemText("a" + strings.Repeat("\u0301", 100)); textutil.Width(got) != 1 || strings.Count(got, "\u0301") != maxMarks {
		t.Fatalf("itemText(bomb) = %q", got)
	}
}

// The popup with a host's files, sessions and hits, at 40×12 and 80×24.
func TestGoldenSections(t *testing.T) {
	for _, size := range [][2]int{{40, 12}, {80, 24}} {
		for _, state := range []struct {
			name  string
			downs int
		}{{"top", 0}, {"on_session", 2}} {
			t.Run(fmt.Sprintf("%s_%dx%d", state.name, size[0], size[1]), func(t *testing.T) {
				m := newHitsPicker(&fakeHits{}, WithSection(filesSection(&fakeFiles{})), WithOrder("files", SessionsID, MessagesID))
				m.SetScreenSize(size[0], size[1])
				m.SetAnchor(2, size[1]-2)
				m = openAll(t, m, "parser")
				for range state.downs {
					m, _ = m.Update(press("down"))
				}
				checkBox(t, m)
				golden.RequireEqual(t, []byte(ansi.Strip(m.View())))
			})
		}
	}
}

// KeyMap and Status stay true across sections: Tab says "pick" on a
// host's item and "mention" on a session; a section still searching is
// the reason nothing can be picked yet.
func TestKeyMapAndStatusAcrossSections(t *testing.T) {
	m := newTestPicker(&fakeSource{}, WithSection(filesSection(&fakeFiles{})), WithOrder("files"))
	m = openAll(t, m, "parser")
	if k := m.KeyMap(); k.Accept.Help().Desc != "pick" || !k.Accept.Enabled() || k.AcceptEnter.Help().Desc != "pick" {
		t.Fatalf("on a file: %q", k.Accept.Help().Desc)
	}
	m, _ = m.Update(press("end"))
	if k := m.KeyMap(); k.Accept.Help().Desc != "mention" {
		t.Fatalf("on a session: %q", k.Accept.Help().Desc)
	}
	custom := DefaultKeyMap()
	custom.Accept.SetHelp("tab", "choose")
	m.SetKeyMap(custom)
	m, _ = m.Update(press("home"))
	if k := m.KeyMap(); k.Accept.Help().Desc != "choose" {
		t.Fatalf("a host's own help was replaced: %q", k.Accept.Help().Desc)
	}
	// Only the files are still on their way, and nothing else matches.
	m = newTestPicker(&fakeSource{}, WithSection(filesSection(&fakeFiles{})))
	_ = m.Open("zzz")
	m, _ = m.Update(fetchedMsg(m, "zzz", nil, nil))
	if s := m.Status(); s != `searching “zzz”…` || m.Pickable() || !m.KeyMap().Accept.Enabled() {
		t.Fatalf("status %q, accept enabled %v", s, m.KeyMap().Accept.Enabled())
	}
}

// The sessions' or the hits' answer arriving leaves the highlight on the
// host's item the user moved to.
func TestLateSessionsKeepTheChosenItem(t *testing.T) {
	m := newHitsPicker(&fakeHits{}, WithSection(filesSection(&fakeFiles{})), WithOrder("files"))
	_ = m.Open("parser")
	m, _ = m.Update(itemsMsg(m, "files", "parser", fileCorpus[:2], nil))
	m, _ = m.Update(press("down"))
	m, _ = m.Update(fetchedMsg(m, "parser", corpus[:2], nil))
	if it, _, ok := m.HighlightedItem(); !ok || it.Label != "parser_test.go" {
		t.Fatalf("after the sessions: %+v %v (cursor %d)", it, ok, m.Cursor())
	}
	m, _ = m.Update(hitsMsg(m, "parser", hitCorpus[:2], nil))
	if it, _, ok := m.HighlightedItem(); !ok || it.Label != "parser_test.go" {
		t.Fatalf("after the hits: %+v %v (cursor %d)", it, ok, m.Cursor())
	}
	// Without a move, the sessions' answer highlights the first row.
	_ = m.Open("parser")
	m, _ = m.Update(itemsMsg(m, "files", "parser", fileCorpus[:2], nil))
	m, _ = m.Update(fetchedMsg(m, "parser", corpus[:2], nil))
	if m.Cursor() != 0 {
		t.Fatalf("cursor %d", m.Cursor())
	}
}
