package demo

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/internal/cmdrun"
	"github.com/dshkit/mentions/internal/teatest"
	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

var now = fakestore.DefaultNow

func newDemo(t testing.TB, cfg sessionref.Config) (Model, *fakestore.Store) {
	t.Helper()
	return newDemoWith(t, func(o *Options) { o.Config = cfg })
}

// newDemoWith builds a demo over a small fixed store, with a fixed clock
// and home; change adjusts the options (it starts plain).
func newDemoWith(t testing.TB, change func(*Options)) (Model, *fakestore.Store) {
	t.Helper()
	s := fakestore.New(fakestore.WithClock(func() time.Time { return now }))
	cwd := "/home/dev/src/mentions"
	other := "/home/dev/src/api"
	for i, x := range []struct{ id, title, cwd string }{
		{"s-parser", "Fix the session parser", cwd},
		{"s-logs", "重构日志模块", cwd},
		{"s-api", "API rate limits", other},
	} {
		c := x.cwd
		s.Create(x.id, &c, now.Add(-time.Duration(i+1)*time.Hour))
		s.SetTitle(x.id, x.title)
		s.AppendUser(x.id, "What about "+x.title+"?")
		s.AppendAssistant(x.id, "Here is what I found about **"+x.title+"**.")
	}
	s.Create("current", &cwd, now)
	o := Options{Store: s, Current: sessionref.Target{ID: "current", Cwd: &cwd}, Title: "Demo", StoreName: "fakestore",
		Now: func() time.Time { return now }, Home: "/home/dev", Plain: true, tick: neverTick}
	if change != nil {
		change(&o)
	}
	m, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return m, s
}

// neverTick is the demo's timer in tests: a tick never fires, so no
// keystroke waits for the picker's "searching…" delay and no Resync runs
// unless a test asks for one (a teatest program that needs real time
// sets tea.Tick).
func neverTick(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }

// cmdWait is how long run waits for the Cmds of one update. Every Cmd of
// a test answers at once (the store is in memory, ticks never fire), so
// this only bounds a hang; a Cmd that takes longer fails loudly.
const cmdWait = 10 * time.Second

// drive applies msg and every message its Cmds produce, in order.
func drive(m Model, msg tea.Msg) Model {
	next, cmd := m.Update(msg)
	m = next.(Model)
	for _, out := range run(cmd) {
		m = drive(m, out)
	}
	return m
}

// run returns the messages of cmd; it panics, failing the test, when a
// Cmd is still running after cmdWait rather than dropping its message.
func run(cmd tea.Cmd) []tea.Msg {
	msgs, abandoned := cmdrun.Collect(cmd, cmdWait)
	if abandoned > 0 {
		panic(fmt.Sprintf("%d Cmds did not answer within %v", abandoned, cmdWait))
	}
	return msgs
}

func typeIn(m Model, s string) Model {
	for _, r := range s {
		m = drive(m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return m
}

func text(m Model) string { return ansi.Strip(m.View().Content) }

func start(t testing.TB, cfg sessionref.Config) (Model, *fakestore.Store) {
	return startWith(t, 100, 30, func(o *Options) { o.Config = cfg })
}

// startWith is newDemoWith at a w×h window, initialised.
func startWith(t testing.TB, w, h int, change func(*Options)) (Model, *fakestore.Store) {
	m, s := newDemoWith(t, change)
	m = drive(m, tea.WindowSizeMsg{Width: w, Height: h})
	for _, msg := range run(m.Init()) {
		m = drive(m, msg)
	}
	return m, s
}

func TestPickByClickSendAndExpandByClick(t *testing.T) {
	m, store := start(t, sessionref.Config{})
	m = typeIn(m, "compare @")
	p := m.comp.Picker()
	if !p.IsOpen() || len(p.Answer(picker.SessionsID).Candidates) != 3 {
		t.Fatalf("picker: open=%v items=%d", p.IsOpen(), len(p.Answer(picker.SessionsID).Candidates))
	}
	if !strings.Contains(text(m), "this dir") {
		t.Fatalf("no rank badge on screen:\n%s", text(m))
	}
	r := p.Rect()
	second := p.Answer(picker.SessionsID).Candidates[1]
	m = drive(m, tea.MouseClickMsg{X: r.X + 5, Y: r.Y + 2, Button: tea.MouseLeft})
	if toks := m.comp.Tokens(); len(toks) != 1 || toks[0].Reference.SessionID != second.SessionID {
		t.Fatalf("click picked %+v, want %s", toks, second.SessionID)
	}
	m = drive(m, tea.KeyPressMsg{Code: tea.KeyEnter})
	sc := text(m)
	if !strings.Contains(sc, "▸ Referenced 1 session: @重构日志模块") || !strings.Contains(sc, "demo stand-in") {
		t.Fatalf("no card or reply:\n%s", sc)
	}
	// The transcript is rebuilt from the store: context, message, reply.
	surf, _ := store.ReadSurface(context.Background(), "current")
	if len(surf.Events) != 3 || surf.Events[0].Source.Kind != sessionref.SourceSessionReference || surf.Events[1].Content[0].Text != "compare @重构日志模块 " {
		t.Fatalf("store holds %+v", surf.Events)
	}
	// Click the card to expand it; it shows the captured conversation.
	span := m.cardSpans[0]
	m = drive(m, tea.MouseClickMsg{X: 3, Y: headerH + span.Top - m.vp.YOffset(), Button: tea.MouseLeft})
	if sc := text(m); !strings.Contains(sc, "▾ Referenced") || !strings.Contains(sc, "What about 重构日志模块?") {
		t.Fatalf("card did not expand:\n%s", sc)
	}
	// Changing the source afterwards changes nothing shown.
	store.AppendUser("s-logs", "LATER EDIT")
	store.CompactAll("s-logs", "gone")
	m = drive(m, transcriptMsg{surface: surf})
	if strings.Contains(text(m), "LATER") {
		t.Fatal("the card re-read its source")
	}
}

func TestInspectorShowsBothUserMessages(t *testing.T) {
	m, _ := start(t, sessionref.Config{})
	m = typeIn(m, "see @pars")
	m = drive(m, tea.KeyPressMsg{Code: tea.KeyTab})
	m = drive(m, tea.KeyPressMsg{Code: tea.KeyEnter})
	m = drive(m, tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl})
	sc := text(m)
	for _, want := range []string{"message 1 of 2 · role user · source session-reference", "## Referenced sessions", sessionref.UntrustedPhrase,
		"@Fix the session parser · s-parser · ", "Budget: 64\u00a0KiB per referenced session", "message 2 of 2 · role user · the direct message", "see @Fix the session parser"} {
		if !strings.Contains(sc, want) {
			t.Errorf("inspector lacks %q", want)
		}
	}
	m = drive(m, tea.KeyPressMsg{Code: tea.KeyEscape})
	if strings.Contains(text(m), "Inspector") {
		t.Fatal("esc did not leave the inspector")
	}
}

func TestBudgetErrorKeepsDraft(t *testing.T) {
	m, _ := start(t, sessionref.Config{MaxReferenceBytes: 40})
	m = typeIn(m, "use @pars")
	m = drive(m, tea.KeyPressMsg{Code: tea.KeyTab})
	m = typeIn(m, "now")
	before := m.comp.Canonical()
	m = drive(m, tea.KeyPressMsg{Code: tea.KeyEnter})
	if m.comp.Canonical() != before || len(m.comp.Tokens()) != 1 {
		t.Fatalf("draft changed: %q", m.comp.Canonical())
	}
	if sc := text(m); !strings.Contains(sc, "✗ @Fix the session parser is too large to fit the 40 B snapshot budget") {
		t.Fatalf("no budget error:\n%s", sc)
	}
}

func TestSmallScreens(t *testing.T) {
	m, _ := start(t, sessionref.Config{})
	m = typeIn(m, "@")
	for _, sz := range [][2]int{{40, 12}, {20, 6}, {120, 40}, {40, 12}} {
		m = drive(m, tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		lines := strings.Split(text(m), "\n")
		if len(lines) > sz[1] {
			t.Errorf("%v: %d lines", sz, len(lines))
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > sz[0] {
				t.Errorf("%v: a line is %d cells: %q", sz, w, l)
			}
		}
		if r := m.comp.Picker().Rect(); r.X+r.W > sz[0] || r.Y+r.H > sz[1] || r.Y < 0 {
			t.Errorf("%v: picker %+v off screen", sz, r)
		}
	}
}

// waitFor waits until the program's output, ANSI stripped, holds want.
// The renderer sends only changed cells, so want should be text that
// appears whole when the screen changes (a new line, a new token).
func waitFor(t *testing.T, tm *teatest.TestModel, want string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return strings.Contains(ansi.Strip(string(b)), want)
	}, teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
}

// TestEndToEndKeyboard runs the real program: @, filter, pick by key,
// send, see the card, expand it by key.
func TestEndToEndKeyboard(t *testing.T) {
	t.Parallel()
	m, _ := newDemo(t, sessionref.Config{})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	waitFor(t, tm, "No messages yet")
	tm.Type("compare @api")
	waitFor(t, tm, "API rate limits")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyTab})
	tm.Type("please")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitFor(t, tm, "Referenced 1 session")
	tm.Send(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	waitFor(t, tm, "What about API rate limits?")
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(Model)
	if final.sentCount != 1 || len(final.events) != 3 || textOf(final.events[1]) != "compare @API rate limits please" {
		t.Fatalf("final: sent %d, events %d", final.sentCount, len(final.events))
	}
}

// TestEndToEndCancelSlowPrepare: with a slow store, Esc while preparing
// cancels and keeps the draft.
func TestEndToEndCancelSlowPrepare(t *testing.T) {
	t.Parallel()
	m, store := newDemo(t, sessionref.Config{})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	waitFor(t, tm, "No messages yet")
	tm.Type("see @pars")
	waitFor(t, tm, "Fix the session parser")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyTab})
	waitFor(t, tm, "1/3 sessions") // the pick is made before the store slows
	store.SetLatency(time.Hour)
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitFor(t, tm, "preparing")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	waitFor(t, tm, "Sending cancelled; your draft is kept.")
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	waitFor(t, tm, "press ctrl+c again")
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(Model)
	if !strings.HasPrefix(final.comp.Canonical(), "see @[Fix the session parser](dsh-session:") || final.sentCount != 0 {
		t.Fatalf("draft %q", final.comp.Canonical())
	}
}

// TestEndToEndClickAndBudget runs the real program: pick a candidate by
// clicking it, then send with a budget too small for it and see the error
// with the draft kept. The click lands where the same steps put the row
// in a model driven directly (the layout is deterministic).
func TestEndToEndClickAndBudget(t *testing.T) {
	t.Parallel()
	cfg := sessionref.Config{MaxReferenceBytes: 40}
	probe, _ := start(t, cfg)
	probe = typeIn(probe, "use @")
	p := probe.comp.Picker()
	r, want := p.Rect(), p.Answer(picker.SessionsID).Candidates[1]

	m, _ := newDemo(t, cfg)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	waitFor(t, tm, "No messages yet")
	tm.Type("use @")
	waitFor(t, tm, "this dir")
	tm.Send(tea.MouseClickMsg{X: r.X + 5, Y: r.Y + 2, Button: tea.MouseLeft})
	// The renderer sends only changed cells, so wait for the new token.
	waitFor(t, tm, "@"+want.Label)
	tm.Type("now")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitFor(t, tm, "too large to fit the 40 B snapshot budget")
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	waitFor(t, tm, "press ctrl+c again")
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(Model)
	toks := final.comp.Tokens()
	if len(toks) != 1 || toks[0].Reference.SessionID != want.SessionID || !strings.HasSuffix(final.comp.Canonical(), " now") || final.sentCount != 0 {
		t.Fatalf("draft %q tokens %+v", final.comp.Canonical(), toks)
	}
}
