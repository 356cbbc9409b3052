package picker

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/internal/golden"
	"github.com/dshkit/mentions/sessionref"
)

var altP = tea.KeyPressMsg{Code: 'p', Mod: tea.ModAlt}

// drain runs cmd and feeds its messages, and those of the Cmds they
// return, back into m, in order, until none is left.
func drain(m Model, cmd tea.Cmd) (Model, []tea.Msg) {
	var seen []tea.Msg
	queue := run(cmd)
	for len(queue) > 0 {
		msg := queue[0]
		queue = queue[1:]
		seen = append(seen, msg)
		var next tea.Cmd
		m, next = m.Update(msg)
		queue = append(queue, run(next)...)
	}
	return m, seen
}

// previewStore is a store of three sessions and the current one, in one
// folder: "parser one" with a long conversation, "parser two" with two
// messages, and "broken", which cannot be read.
func previewStore(t testing.TB) (*fakestore.Store, sessionref.Target) {
	t.Helper()
	cwd := "/home/dev/src/mentions"
	s := fakestore.New(fakestore.WithClock(func() time.Time { return testNow }))
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	mk := func(id, title string, age time.Duration) {
		must(s.Create(id, &cwd, testNow.Add(-age)))
		_, err := s.SetTitle(id, title)
		must(err)
	}
	mk("cur00000-0000-4000-8000-000000000000", "current", 0)
	mk("aaaa0001-0000-4000-8000-000000000001", "parser one", time.Hour)
	for i := range 30 {
		_, err := s.AppendUser("aaaa0001-0000-4000-8000-000000000001", fmt.Sprintf("question %d about the lexer", i))
		must(err)
		_, err = s.AppendAssistant("aaaa0001-0000-4000-8000-000000000001", fmt.Sprintf("answer %d: the Retry loop was off by one", i))
		must(err)
	}
	_, err := s.AppendUser("aaaa0001-0000-4000-8000-000000000001", "last words \x1b[31mred\x1b[0m \u202eevil")
	must(err)
	mk("bbbb0002-0000-4000-8000-000000000002", "parser two", 2*time.Hour)
	_, err = s.AppendUser("bbbb0002-0000-4000-8000-000000000002", "fix the tokenizer")
	must(err)
	_, err = s.AppendAssistant("bbbb0002-0000-4000-8000-000000000002", "done, with a test")
	must(err)
	mk("cccc0003-0000-4000-8000-000000000003", "broken", 3*time.Hour)
	s.FailReads("cccc0003-0000-4000-8000-000000000003", errors.New("permission denied"))
	return s, sessionref.Target{ID: "cur00000-0000-4000-8000-000000000000", Cwd: &cwd}
}

func newPreviewPicker(t testing.TB, w, h int, opts ...Option) (Model, *sessionref.Resolver, sessionref.Target) {
	t.Helper()
	return newPreviewPickerCfg(t, sessionref.Config{}, w, h, opts...)
}

func newPreviewPickerCfg(t testing.TB, cfg sessionref.Config, w, h int, opts ...Option) (Model, *sessionref.Resolver, sessionref.Target) {
	t.Helper()
	store, target := previewStore(t)
	r, err := sessionref.NewResolver(store, cfg)
	if err != nil {
		t.Fatal(err)
	}
	m := newTestPicker(ResolverSource(r, 20), append([]Option{withTarget(target), WithPreview(ResolverPreviewer(r))}, opts...)...)
	m.SetScreenSize(w, h)
	m.SetAnchor(2, h-2)
	return m, r, target
}

// The preview beside the rows is what a send would capture: the same
// record as PrepareText's, the newest message at the bottom, sanitised.
func TestPreviewIsWhatASendCaptures(t *testing.T) {
	m, r, target := newPreviewPickerCfg(t, sessionref.Config{MaxReferenceBytes: 1500}, 120, 40)
	cmd := m.Open("")
	m, _ = drain(m, cmd)
	c, ok := m.Highlighted()
	if !ok || c.Label != "parser one" {
		t.Fatalf("highlighted %+v %v", c, ok)
	}
	if !m.PreviewShown() {
		t.Fatal("a 120-column pane shows the preview beside the rows")
	}
	p, ok, err := m.PreviewFor()
	if !ok || err != nil {
		t.Fatalf("preview not arrived: %v %v", ok, err)
	}
	mention, _ := sessionref.FormatMention(sessionref.Reference{SessionID: c.SessionID, Label: &c.Label})
	out, err := r.PrepareText(context.Background(), target, mention)
	if err != nil {
		t.Fatal(err)
	}
	want := out.Context.Source.References[0]
	got := p.Record
	if got.CapturedThroughSeq == nil || want.CapturedThroughSeq == nil || *got.CapturedThroughSeq != *want.CapturedThroughSeq {
		t.Fatalf("capture seq %v, send's %v", got.CapturedThroughSeq, want.CapturedThroughSeq)
	}
	got.CapturedThroughSeq, want.CapturedThroughSeq = nil, nil
	if got != want {
		t.Fatalf("preview record %+v, send's %+v", got, want)
	}
	snaps, err := sessionref.ParsePrompt(out.Context.Prompt())
	if err != nil || !reflect.DeepEqual(p.Snapshot, snaps[0]) || p.Bytes != len(out.Context.Prompt()) {
		t.Fatalf("preview snapshot differs from the send's (%v)", err)
	}
	if want.RetainedMessages == want.OriginalMessages || want.OriginalMessages < 2 {
		t.Fatalf("the store should make a snapshot that leaves messages out: %+v", want)
	}
	view := m.View()
	lines := checkBox(t, m)
	plain := ansi.Strip(view)
	if !strings.Contains(plain, "@parser one") || !strings.Contains(plain, summaryLine(want)) || !strings.Contains(summaryLine(want), "omitted (") || !strings.HasSuffix(summaryLine(want), ", truncated") {
		t.Fatalf("no heading or counts:\n%s", plain)
	}
	// Newest last: the last message is on the last content line.
	last := ansi.Strip(lines[len(lines)-2])
	if !strings.Contains(last, "last words") {
		t.Fatalf("last line %q:\n%s", last, plain)
	}
	if strings.Contains(view, "\x1b[31m") || strings.ContainsRune(view, '\u202e') {
		t.Fatal("untrusted text reached the terminal")
	}
}

// A session that cannot be referenced says so before it is picked, in
// the words a send would use.
func TestPreviewSaysWhyASessionCannotBeSent(t *testing.T) {
	m, r, target := newPreviewPicker(t, 120, 40)
	cmd := m.Open("broken")
	m, _ = drain(m, cmd)
	_, ok, err := m.PreviewFor()
	if !ok || err == nil {
		t.Fatalf("want the read's error, got %v %v", ok, err)
	}
	label := "broken"
	mention, _ := sessionref.FormatMention(sessionref.Reference{SessionID: "cccc0003-0000-4000-8000-000000000003", Label: &label})
	_, sendErr := r.PrepareText(context.Background(), target, mention)
	want := sessionref.Describe(sendErr, sessionref.Config{}, nil)
	if !strings.Contains(want, "permission denied") {
		t.Fatalf("send error %q", want)
	}
	plain := strings.Join(strings.Fields(ansi.Strip(m.View())), " ")
	if !strings.Contains(strings.ReplaceAll(plain, "│", " "), "Couldn't read @broken:") {
		t.Fatalf("view does not say %q:\n%s", want, ansi.Strip(m.View()))
	}
}

// countingPreviewer records its reads and how many ran at once; each
// read waits for its release or its cancellation.
type countingPreviewer struct {
	mu      sync.Mutex
	calls   []string
	ctxs    []context.Context
	running int
	most    int
}

func (p *countingPreviewer) Preview(ctx context.Context, c sessionref.Candidate) (Preview, error) {
	p.mu.Lock()
	p.calls = append(p.calls, c.SessionID)
	p.ctxs = append(p.ctxs, ctx)
	p.running++
	p.most = max(p.most, p.running)
	p.mu.Unlock()
	defer func() { p.mu.Lock(); p.running--; p.mu.Unlock() }()
	if err := ctx.Err(); err != nil {
		return Preview{}, err
	}
	return Preview{
		Record:   sessionref.ReferenceRecord{SessionID: c.SessionID, OriginalMessages: 1, RetainedMessages: 1},
		Snapshot: sessionref.Snapshot{SessionID: c.SessionID, Conversation: []sessionref.Turn{{Role: "user", Text: "text of " + c.Label}}},
		Bytes:    1000,
	}, nil
}

func manyRows(n int) []sessionref.Candidate {
	var items []sessionref.Candidate
	for i := range n {
		items = append(items, cand(fmt.Sprintf("row-%02d", i), fmt.Sprintf("row %d", i), nil, time.Hour, sessionref.RankOtherCwd))
	}
	return items
}

// Moving through 20 rows quickly starts one read, cancels it, and when
// its answer is in reads only the last row highlighted: at most one read
// at a time, and only the last one shown.
func TestPreviewFollowsTheHighlightOneReadAtATime(t *testing.T) {
	p := &countingPreviewer{}
	m := newTestPicker(&fakeSource{items: manyRows(20)}, WithPreview(p), withMaxRows(20))
	m.SetScreenSize(120, 40)
	m.SetAnchor(2, 38)
	cmd := m.Open("")
	msgs := run(cmd)
	var first tea.Cmd
	for _, msg := range msgs {
		var c tea.Cmd
		if m, c = m.Update(msg); c != nil {
			first = c // the rows arrive: row 0's read starts
		}
	}
	if first == nil {
		t.Fatal("no read for the first row")
	}
	for range 19 {
		var c tea.Cmd
		m, c = m.Update(press("down"))
		if c != nil {
			t.Fatal("a move started a second read while one runs")
		}
	}
	answer := first() // row 0's read: its context was cancelled
	if len(p.ctxs) != 1 || p.ctxs[0].Err() == nil {
		t.Fatalf("the first read was not cancelled: %v", p.calls)
	}
	m, next := m.Update(answer)
	if _, ok, _ := m.PreviewFor(); ok {
		t.Fatal("a cancelled read was shown")
	}
	m, _ = drain(m, next)
	if got := strings.Join(p.calls, ","); got != "row-00,row-19" {
		t.Fatalf("reads %s, want row-00,row-19", got)
	}
	if p.most != 1 {
		t.Fatalf("%d reads ran at once", p.most)
	}
	if pv, ok, _ := m.PreviewFor(); !ok || pv.Record.SessionID != "row-19" {
		t.Fatalf("shown %+v %v, want row-19", pv.Record, ok)
	}
	if !strings.Contains(ansi.Strip(m.View()), "text of row 19") {
		t.Fatalf("view:\n%s", ansi.Strip(m.View()))
	}

	// Back to a row already read: no read, shown at once.
	m, c := m.Update(press("up"))
	m, c2 := m.Update(press("down"))
	if c != nil {
		m, _ = drain(m, c) // row 18 was never read
	}
	if c2 != nil {
		t.Fatal("a cached preview was read again in the same opening")
	}
	if pv, _, _ := m.PreviewFor(); pv.Record.SessionID != "row-19" {
		t.Fatalf("shown %+v", pv.Record)
	}

	// Reopened, the cached preview shows at once and is read again.
	m.Close()
	n := len(p.calls)
	cmd = m.Open("")
	m, _ = drain(m, cmd)
	if len(p.calls) != n+1 {
		t.Fatalf("reopening read %d previews, want 1", len(p.calls)-n)
	}
}

// The cache keeps previews within its byte budget, the least recently
// shown dropped first.
func TestPreviewCacheBudget(t *testing.T) {
	c := newPreviewCache(2500)
	for i := range 3 {
		c.put(previewKey{id: fmt.Sprint(i)}, &previewEntry{preview: Preview{Bytes: 1000}})
		if i == 1 {
			c.get(previewKey{id: "0"}) // 0 is used again: 1 goes first
		}
	}
	if c.peek(previewKey{id: "1"}) != nil || c.peek(previewKey{id: "0"}) == nil || c.peek(previewKey{id: "2"}) == nil {
		t.Fatalf("kept %v", c.order)
	}
	if c.bytes() != 2000 {
		t.Fatalf("used %d", c.bytes())
	}
	c.put(previewKey{id: "big"}, &previewEntry{preview: Preview{Bytes: 9000}})
	if len(c.entries) != 1 || c.peek(previewKey{id: "big"}) == nil {
		t.Fatalf("a preview over the budget is kept alone: %v", c.order)
	}
}

// In a narrow pane the preview is off until the Preview key, then in
// place of the rows; the key brings the rows back. In a wide pane the
// key is not the picker's.
func TestPreviewNarrowToggle(t *testing.T) {
	p := &countingPreviewer{}
	m := newTestPicker(&fakeSource{}, WithPreview(p))
	cmd := m.Open("")
	m, _ = drain(m, cmd)
	if m.PreviewShown() || len(p.calls) != 0 {
		t.Fatalf("narrow: shown %v, reads %v", m.PreviewShown(), p.calls)
	}
	if !m.WantsKey(altP) || !m.WantsKey(tea.KeyPressMsg{Code: tea.KeyF2}) || !m.KeyMap().Preview.Enabled() {
		t.Fatal("the Preview key is the picker's in a narrow pane")
	}
	m, cmd = m.Update(altP)
	m, _ = drain(m, cmd)
	if !m.PreviewShown() || len(p.calls) != 1 {
		t.Fatalf("after alt+p: shown %v, reads %v", m.PreviewShown(), p.calls)
	}
	if h := m.KeyMap().Preview.Help(); h.Desc != "rows" {
		t.Fatalf("the footer's Preview key says %q while the preview stands in the rows' place", h.Desc)
	}
	view := ansi.Strip(m.View())
	if strings.Contains(view, "3h ago") || !strings.Contains(view, "text of Fix the session parser") || !strings.Contains(view, "alt+p/f2 rows") {
		t.Fatalf("preview in place of the rows:\n%s", view)
	}
	r := m.Rect()
	if _, ok := m.RowAt(r.X+3, r.Y+1); ok {
		t.Fatal("no row under the preview")
	}
	// ↓ moves the highlight under the preview, which follows.
	m, cmd = m.Update(press("down"))
	m, _ = drain(m, cmd)
	if !strings.Contains(ansi.Strip(m.View()), "text of 重构日志模块") {
		t.Fatalf("preview did not follow:\n%s", ansi.Strip(m.View()))
	}
	m, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyF2})
	if m.PreviewShown() {
		t.Fatal("F2 brings the rows back")
	}
	if got := ansi.Strip(m.View()); !strings.Contains(got, "3h ago") {
		t.Fatalf("rows:\n%s", got)
	}

	wide := newTestPicker(&fakeSource{}, WithPreview(p))
	wide.SetScreenSize(PreviewMinWidth, 30)
	cmd = wide.Open("")
	wide, _ = drain(wide, cmd)
	if wide.WantsKey(altP) || wide.KeyMap().Preview.Enabled() || !wide.PreviewShown() {
		t.Fatal("at PreviewMinWidth the preview is beside the rows and the key is not the picker's")
	}
	off := newTestPicker(&fakeSource{})
	_ = off.Open("")
	if off.WantsKey(altP) {
		t.Fatal("without a previewer the key is the host's")
	}
}

// A hit's preview is scrolled to the message that matched, its terms
// underlined; a candidate's to the end.
func TestPreviewOfAHitShowsTheMatch(t *testing.T) {
	store, target := previewStore(t)
	r, _ := sessionref.NewResolver(store, sessionref.Config{})
	snippet := "answer 3: the Retry loop was off by one"
	hits := func(context.Context, string) ([]Hit, error) {
		c := cand("aaaa0001-0000-4000-8000-000000000001", "parser one", ptr("/home/dev/src/mentions"), time.Hour, sessionref.RankSameCwd)
		return []Hit{{Candidate: c, Snippet: snippet, Match: [][2]int{{14, 19}}}}, nil
	}
	m := newTestPicker(&fakeSource{items: []sessionref.Candidate{}}, WithHitSource(hits), withTarget(target), WithPreview(ResolverPreviewer(r)), withStyles(PlainStyles()))
	m.SetScreenSize(120, 30)
	m.SetAnchor(2, 28)
	cmd := m.Open("retry")
	m, _ = drain(m, cmd)
	view := m.View()
	plain := ansi.Strip(view)
	if !strings.Contains(plain, "answer 3:") || strings.Contains(plain, "last words") {
		t.Fatalf("not scrolled to the match:\n%s", plain)
	}
	if !strings.Contains(view, "4mRetry\x1b[m loop") {
		t.Fatalf("the term is not underlined:\n%q", view)
	}
	checkBox(t, m)
}

// Hovering a row previews it; the wheel over the preview scrolls it and
// over the rows scrolls the rows.
func TestPreviewMouse(t *testing.T) {
	m, _, _ := newPreviewPicker(t, 120, 40)
	cmd := m.Open("parser")
	m, _ = drain(m, cmd)
	g := m.layout()
	// Hover the second row.
	m, cmd = m.Update(tea.MouseMotionMsg{X: g.left + 2, Y: g.top + 1})
	m, _ = drain(m, cmd)
	if !strings.Contains(ansi.Strip(m.View()), "done, with a test") {
		t.Fatalf("hover did not preview:\n%s", ansi.Strip(m.View()))
	}
	m, cmd = m.Update(tea.MouseMotionMsg{X: g.left + 2, Y: g.top})
	m, _ = drain(m, cmd)
	before := ansi.Strip(m.View())
	if !strings.Contains(before, "last words") {
		t.Fatalf("scrolled to the end:\n%s", before)
	}
	wheel := func(x int, b tea.MouseButton) {
		m, _ = m.Update(tea.MouseWheelMsg{X: x, Y: g.top + 3, Button: b})
	}
	wheel(g.previewLeft+2, tea.MouseWheelUp)
	after := ansi.Strip(m.View())
	if after == before || strings.Contains(after, "last words") || m.Cursor() != 0 {
		t.Fatalf("the wheel over the preview did not scroll it:\n%s", after)
	}
	wheel(g.previewLeft+2, tea.MouseWheelDown)
	if ansi.Strip(m.View()) != before {
		t.Fatalf("scrolled back down:\n%s", ansi.Strip(m.View()))
	}
}

func TestGoldenPreview(t *testing.T) {
	for _, size := range [][2]int{{40, 12}, {80, 24}, {200, 60}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			m, _, _ := newPreviewPicker(t, w, h)
			cmd := m.Open("par")
			m, _ = drain(m, cmd)
			if !m.PreviewShown() {
				m, cmd = m.Update(altP)
				m, _ = drain(m, cmd)
			}
			checkBox(t, m)
			golden.RequireEqual(t, []byte(ansi.Strip(m.View())))
		})
	}
}

// A cached preview is kept while the session's capture seq is the same,
// and replaced when the session moved on.
func TestPreviewCacheFollowsCaptureSeq(t *testing.T) {
	store, target := previewStore(t)
	r, _ := sessionref.NewResolver(store, sessionref.Config{})
	m := newTestPicker(ResolverSource(r, 20), withTarget(target), WithPreview(ResolverPreviewer(r)))
	m.SetScreenSize(120, 40)
	m.SetAnchor(2, 38)
	cmd := m.Open("parser two")
	m, _ = drain(m, cmd)
	first := m.previewEntry()
	if first == nil || first.preview.Record.OriginalMessages != 2 {
		t.Fatalf("first read: %+v", first)
	}
	m.Close()
	cmd = m.Open("parser two")
	var read tea.Cmd
	for _, msg := range run(cmd) { // the rows arrive; the read waits
		var c tea.Cmd
		if m, c = m.Update(msg); c != nil {
			read = c
		}
	}
	if read == nil || m.previewEntry() != first || !strings.Contains(ansi.Strip(m.View()), "reading…") {
		t.Fatalf("the cached preview shows at once, marked as being read again:\n%s", ansi.Strip(m.View()))
	}
	m, _ = drain(m, read)
	if strings.Contains(ansi.Strip(m.View()), "reading…") {
		t.Fatal("still reading")
	}
	if m.previewEntry() != first {
		t.Fatal("same capture seq: the cached preview is kept")
	}
	if _, err := store.AppendUser("bbbb0002-0000-4000-8000-000000000002", "one more thing"); err != nil {
		t.Fatal(err)
	}
	m.Close()
	cmd = m.Open("parser two")
	m, _ = drain(m, cmd)
	if e := m.previewEntry(); e == first || e.preview.Record.OriginalMessages != 3 || !strings.Contains(ansi.Strip(m.View()), "one more thing") {
		t.Fatalf("the session moved on: %+v", e.preview.Record)
	}
}

// Without a previewer the Preview key has no keys, so no help, not even
// one listing every key, names it.
func TestPreviewKeyOnlyWithAPreviewer(t *testing.T) {
	off := newTestPicker(&fakeSource{})
	if len(off.KeyMap().Preview.Keys()) != 0 {
		t.Fatal("Preview listed without a previewer")
	}
	on := newTestPicker(&fakeSource{}, WithPreview(&countingPreviewer{}))
	if k := on.KeyMap().Preview; len(k.Keys()) == 0 || k.Enabled() {
		t.Fatalf("with a previewer, listed and off while closed: %v %v", k.Keys(), k.Enabled())
	}
}

// In place of the rows, pgup and pgdn page the preview, not the hidden
// rows.
func TestPreviewInPlacePages(t *testing.T) {
	m, _, _ := newPreviewPicker(t, 80, 24)
	cmd := m.Open("par")
	m, _ = drain(m, cmd)
	m, cmd = m.Update(altP)
	m, _ = drain(m, cmd)
	end := ansi.Strip(m.View())
	if !strings.Contains(end, "last words") {
		t.Fatalf("not at the end:\n%s", end)
	}
	m, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyPgUp})
	up := ansi.Strip(m.View())
	if up == end || strings.Contains(up, "last words") || m.Cursor() != 0 {
		t.Fatalf("pgup did not page the preview (cursor %d):\n%s", m.Cursor(), up)
	}
	m, _ = m.Update(press("pgdown"))
	if got := ansi.Strip(m.View()); got != end {
		t.Fatalf("pgdn back to the end:\n%s", got)
	}
}

// Hostile text in a snapshot (escapes, bidi overrides, tabs, CR, wide and
// joined clusters, one long word) is drawn sanitised, every line exactly
// the popup's width, at every width.
func TestPreviewHostileTextFits(t *testing.T) {
	text := "\x1b]52;c;aGk=\x07clip \x1b[2J\u202egnp.exe\ttab\r\nCR 重构日志模块 👩‍👩‍👧 1️⃣ 🇩🇪 e\u0301 " + strings.Repeat("x", 300)
	p := PreviewerFunc(func(ctx context.Context, c sessionref.Candidate) (Preview, error) {
		return Preview{
			Record:   sessionref.ReferenceRecord{OriginalMessages: 2, RetainedMessages: 2},
			Snapshot: sessionref.Snapshot{Conversation: []sessionref.Turn{{Role: "user", Text: text}, {Role: "assistant", Text: text}}},
		}, nil
	})
	for _, w := range []int{40, 80, 100, 200} {
		m := newTestPicker(&fakeSource{}, WithPreview(p))
		m.SetScreenSize(w, 30)
		m.SetAnchor(2, 28)
		cmd := m.Open("")
		m, _ = drain(m, cmd)
		if !m.PreviewShown() {
			m, cmd = m.Update(altP)
			m, _ = drain(m, cmd)
		}
		checkBox(t, m)
		v := m.View()
		for _, bad := range []string{"\x1b]", "\x1b[2J", "\u202e", "\t", "\r", "\x07"} {
			if strings.Contains(v, bad) {
				t.Fatalf("width %d: %q reached the terminal", w, bad)
			}
		}
		if !strings.Contains(ansi.Strip(v), "xxxx") {
			t.Fatalf("width %d: no text:\n%s", w, ansi.Strip(v))
		}
	}
}

// A preview hidden in a narrow pane follows the highlight as soon as the
// pane is wide enough: a resize reads the session highlighted then, not
// the one the preview last showed.
func TestPreviewFollowsAResize(t *testing.T) {
	var read []string
	p := PreviewerFunc(func(ctx context.Context, c sessionref.Candidate) (Preview, error) {
		read = append(read, c.SessionID)
		return Preview{Record: sessionref.ReferenceRecord{OriginalMessages: 1, RetainedMessages: 1}}, nil
	})
	src := &fakeSource{}
	m := newTestPicker(src, WithPreview(p))
	m.SetScreenSize(200, 30)
	m.SetAnchor(2, 28)
	cmd := m.Open("")
	m, _ = drain(m, cmd)
	first, ok := m.Highlighted()
	if !ok || len(m.Answer(SessionsID).Candidates) < 2 {
		t.Fatalf("need two rows, have %d", len(m.Answer(SessionsID).Candidates))
	}
	m, cmd = m.Update(tea.WindowSizeMsg{Width: 40, Height: 30})
	m, _ = drain(m, cmd)
	m, cmd = m.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	m, _ = drain(m, cmd)
	second, _ := m.Highlighted()
	if second.SessionID == first.SessionID {
		t.Fatal("the highlight did not move")
	}
	m, cmd = m.Update(tea.WindowSizeMsg{Width: 200, Height: 30})
	_, _ = drain(m, cmd)
	if len(read) == 0 || read[len(read)-1] != second.SessionID {
		t.Fatalf("after widening, the preview read %q; want %s last", read, second.SessionID)
	}
}
