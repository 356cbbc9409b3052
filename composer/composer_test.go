package composer

import (
	"context"
	"errors"
	rules "github.com/dshkit/mentions/mention"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/internal/cmdrun"
	"github.com/dshkit/mentions/internal/golden"
	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

var testNow = fakestore.DefaultNow

// env is a store with a few sessions, a resolver and a composer on it.
type env struct {
	store    *fakestore.Store
	resolver *sessionref.Resolver
	target   sessionref.Target
}

func newEnv(t testing.TB) *env {
	s := fakestore.New(fakestore.WithClock(func() time.Time { return testNow }))
	cwd := "/home/dev/src/mentions"
	for i, sess := range []struct{ id, title string }{
		{"s-parser", "Fix the session parser"},
		{"s-logs", "重构日志模块"},
		{"s-emoji", "Emoji picker 🎉 polish"},
		{"s-cafe", "Café menu"},
		{"current", "This very session"},
	} {
		s.Create(sess.id, &cwd, testNow.Add(-time.Duration(i)*time.Hour))
		s.SetTitle(sess.id, sess.title)
		s.AppendUser(sess.id, "question about "+sess.title)
		s.AppendAssistant(sess.id, "answer about "+sess.title)
	}
	r, err := sessionref.NewResolver(s, sessionref.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return &env{store: s, resolver: r, target: sessionref.Target{ID: "current", Cwd: &cwd}}
}

func (e *env) composer(opts ...option) Model {
	p := picker.New(picker.ResolverSource(e.resolver, 20),
		picker.WithClock(func() time.Time { return testNow }), picker.WithHome("/home/dev"), picker.WithTick(neverTick))
	p.SetTarget(e.target)
	m := newWith(p, ResolverPreparer(e.resolver), opts...)
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.SetWidth(80)
	m.SetOrigin(0, 20)
	return m
}

// neverTick is the picker's timer in tests: its "searching…" delay never
// ends, so no keystroke waits on the wall clock.
func neverTick(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }

func run(cmd tea.Cmd) []tea.Msg { return cmdrun.Run(cmd, 2*time.Second) }

// step applies msg and everything its commands produce, returning what
// came out that the composer does not consume itself.
func step(m Model, msg tea.Msg) (Model, []tea.Msg) {
	var cmd tea.Cmd
	m, cmd = m.Update(msg)
	var out []tea.Msg
	for _, next := range run(cmd) {
		switch next.(type) {
		case picker.AnswerMsg, picker.PickedMsg, picker.DismissedMsg, prepareDoneMsg:
			var more []tea.Msg
			m, more = step(m, next)
			out = append(out, more...)
		default:
			out = append(out, next)
		}
	}
	return m, out
}

func typeText(m Model, s string) Model {
	for _, r := range s {
		m, _ = step(m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return m
}

func press(m Model, k tea.KeyPressMsg) (Model, []tea.Msg) { return step(m, k) }

var (
	enter     = tea.KeyPressMsg{Code: tea.KeyEnter}
	tab       = tea.KeyPressMsg{Code: tea.KeyTab}
	esc       = tea.KeyPressMsg{Code: tea.KeyEscape}
	left      = tea.KeyPressMsg{Code: tea.KeyLeft}
	right     = tea.KeyPressMsg{Code: tea.KeyRight}
	backspace = tea.KeyPressMsg{Code: tea.KeyBackspace}
	del       = tea.KeyPressMsg{Code: tea.KeyDelete}
	down      = tea.KeyPressMsg{Code: tea.KeyDown}
	shiftEnt  = tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModShift}
	ctrlJ     = tea.KeyPressMsg{Code: 'j', Mod: tea.ModCtrl}
	ctrlW     = tea.KeyPressMsg{Code: 'w', Mod: tea.ModCtrl}
	altLeft   = tea.KeyPressMsg{Code: tea.KeyLeft, Mod: tea.ModAlt}
)

func mention(t testing.TB, id, label string) string {
	m, err := sessionref.FormatMention(sessionref.Reference{SessionID: id, Label: &label})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestPickInsertsToken(t *testing.T) {
	e := newEnv(t)
	m := typeText(e.composer(), "compare @pars")
	if !m.Picker().IsOpen() || m.Picker().Query() != "pars" {
		t.Fatalf("picker open=%v query=%q", m.Picker().IsOpen(), m.Picker().Query())
	}
	m, _ = press(m, tab)
	if m.Picker().IsOpen() {
		t.Fatal("picker still open after the pick")
	}
	want := "compare " + mention(t, "s-parser", "Fix the session parser") + " "
	if m.Canonical() != want || m.Readable() != "compare @Fix the session parser " {
		t.Fatalf("value %q readable %q", m.Canonical(), m.Readable())
	}
	m = typeText(m, " please") // a space by habit is not doubled
	if !strings.HasSuffix(m.Canonical(), ") please") {
		t.Fatalf("cursor not after the token and space: %q", m.Canonical())
	}
}

func TestEnterPicksWhileRowHighlighted(t *testing.T) {
	e := newEnv(t)
	m := typeText(e.composer(), "@emoji")
	m, out := press(m, enter)
	if len(out) != 0 || len(m.Tokens()) != 1 || m.Tokens()[0].Reference.SessionID != "s-emoji" {
		t.Fatalf("enter did not pick: %v %+v", out, m.Tokens())
	}
}

func TestTriggerRules(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		text string
		open bool
	}{
		{"@", true},
		{"hi @", true},
		{"line\n@", true},
		{"a@", false},
		{"mail me at a@b.c", false},
		{"x @@", true}, // the first @ opens; the second is part of the query
	}
	for _, c := range cases {
		m := e.composer()
		for _, r := range c.text {
			if r == '\n' {
				m, _ = press(m, shiftEnt)
				continue
			}
			m, _ = step(m, tea.KeyPressMsg{Code: r, Text: string(r)})
		}
		if m.Picker().IsOpen() != c.open {
			t.Errorf("%q: open = %v, want %v", c.text, m.Picker().IsOpen(), c.open)
		}
	}
	// A paste that contains '@' never opens the picker.
	m := e.composer()
	m, _ = step(m, tea.PasteMsg{Content: "ping @pars"})
	if m.Picker().IsOpen() || m.Canonical() != "ping @pars" {
		t.Fatalf("paste opened the picker or changed: %q", m.Canonical())
	}
	// A space ends the query; Esc closes and leaves the text.
	m = typeText(e.composer(), "@fix")
	m, _ = press(m, esc)
	if m.Picker().IsOpen() || m.Canonical() != "@fix" {
		t.Fatalf("esc: open=%v value %q", m.Picker().IsOpen(), m.Canonical())
	}
	// A query holds single spaces, as titles do (the rest of the rules
	// are in query_test.go).
	m = typeText(e.composer(), "@fix the")
	if !m.Picker().IsOpen() || m.Picker().Query() != "fix the" {
		t.Fatalf("a space ended the query: open=%v %q", m.Picker().IsOpen(), m.Picker().Query())
	}
	// Moving the cursor before the '@' closes it.
	m = typeText(e.composer(), "go @fi")
	m, _ = press(m, left)
	if !m.Picker().IsOpen() || m.Picker().Query() != "f" {
		t.Fatalf("query after left: %q", m.Picker().Query())
	}
	m, _ = press(m, left)
	m, _ = press(m, left)
	if m.Picker().IsOpen() {
		t.Fatal("cursor before @ should close the picker")
	}
}

func TestTokenIsAtomic(t *testing.T) {
	e := newEnv(t)
	m := e.composer()
	tok := mention(t, "s-logs", "重构日志模块")
	m.SetValue("a " + tok + " b")
	if n := len(m.Tokens()); n != 1 {
		t.Fatalf("%d tokens", n)
	}
	// Cursor at end: "a ", token, " b" = 2 + 1 + 2 atoms.
	m, _ = press(m, left) // before b
	m, _ = press(m, left) // before space
	m, _ = press(m, left) // before token: one step over the whole token
	if m.cursor != 2 {
		t.Fatalf("cursor %d", m.cursor)
	}
	m = typeText(m, "x")
	if m.Canonical() != "a x"+tok+" b" {
		t.Fatalf("typed inside the token? %q", m.Canonical())
	}
	m, _ = press(m, del) // Delete next to the token removes it whole
	if m.Canonical() != "a x b" || len(m.Tokens()) != 0 {
		t.Fatalf("delete: %q", m.Canonical())
	}
	m.SetValue("see " + tok)
	m, _ = press(m, backspace)
	if m.Canonical() != "see " {
		t.Fatalf("backspace: %q", m.Canonical())
	}
	m.SetValue("see " + tok + " now")
	m, _ = press(m, altLeft) // before "now"
	m, _ = press(m, altLeft) // before the token
	if m.cursor != 4 {
		t.Fatalf("word left: %d", m.cursor)
	}
	m, _ = press(m, right)
	m, _ = press(m, ctrlW) // deletes the token as a word
	if m.Canonical() != "see  now" {
		t.Fatalf("ctrl+w: %q", m.Canonical())
	}
}

func TestSetValueAndPasteTokens(t *testing.T) {
	e := newEnv(t)
	m := e.composer()
	uri, _ := sessionref.EncodeURI("s-cafe")
	good := mention(t, "s-parser", "Parser")
	m.SetValue("x " + good + " and " + uri + " and @[bad](dsh-session:nope) and dsh-session:abc")
	toks := m.Tokens()
	if len(toks) != 2 || toks[0].Reference.SessionID != "s-parser" || toks[1].Reference.SessionID != "s-cafe" {
		t.Fatalf("tokens %+v", toks)
	}
	if !strings.Contains(m.Canonical(), "@[bad](dsh-session:nope) and dsh-session:abc") {
		t.Fatalf("malformed text changed: %q", m.Canonical())
	}
	if !strings.Contains(m.Readable(), "@s-cafe") {
		t.Fatalf("bare URI shows its id: %q", m.Readable())
	}
	m.SetValue("")
	m, _ = step(m, tea.PasteMsg{Content: "look " + good})
	if len(m.Tokens()) != 1 || m.Canonical() != "look "+good {
		t.Fatalf("paste: %q", m.Canonical())
	}
}

func TestNewlineKeysAndWrap(t *testing.T) {
	e := newEnv(t)
	m := typeText(e.composer(), "one")
	m, _ = press(m, shiftEnt)
	m = typeText(m, "two")
	m, _ = press(m, ctrlJ)
	m = typeText(m, "three")
	if m.Canonical() != "one\ntwo\nthree" {
		t.Fatalf("%q", m.Canonical())
	}
	m.SetWidth(12)
	m.SetValue("界界界界界 wrapped words here")
	lines := m.lines()
	for _, l := range lines {
		if w := cells(m.atoms[l.start:l.end], m.textWidth()); w > m.textWidth() {
			t.Fatalf("line wider than %d: %d", m.textWidth(), w)
		}
	}
	if len(lines) < 3 {
		t.Fatalf("expected wrapping, got %d lines", len(lines))
	}
	for _, l := range strings.Split(m.View(), "\n") {
		if ansi.StringWidth(l) > 12 {
			t.Fatalf("view line %q is %d cells", ansi.Strip(l), ansi.StringWidth(l))
		}
	}
	// Down moves to the next visual line.
	m.moveCursor(0)
	m, _ = press(m, down)
	if lineOf(m.lines(), m.cursor) != 1 {
		t.Fatalf("down: cursor %d on line %d", m.cursor, lineOf(m.lines(), m.cursor))
	}
}

func TestDisabledRowsInPicker(t *testing.T) {
	e := newEnv(t)
	m := e.composer()
	m.SetValue(mention(t, "s-parser", "P") + " ")
	m = typeText(m, "@")
	p := m.Picker()
	var reasons []string
	for _, c := range p.Answer(picker.SessionsID).Candidates {
		if c.SessionID == "s-parser" {
			if _, ok := p.Highlighted(); ok && p.Answer(picker.SessionsID).Candidates[p.Cursor()].SessionID == "s-parser" {
				t.Fatal("an already mentioned session is highlighted")
			}
		}
	}
	v := ansi.Strip(p.View())
	if !strings.Contains(v, "already mentioned") {
		t.Fatalf("no already-mentioned row:\n%s", v)
	}
	m, _ = press(m, esc)
	m.SetValue(mention(t, "s-parser", "P") + " " + mention(t, "s-logs", "L") + " " + mention(t, "s-cafe", "C") + " ")
	m = typeText(m, "@")
	if _, ok := m.Picker().Highlighted(); ok {
		t.Fatal("a row is pickable with 3/3 references")
	}
	if v := ansi.Strip(m.Picker().View()); !strings.Contains(v, "limit 3/3 reached") {
		t.Fatalf("no limit reason:\n%s", v)
	}
	_ = reasons
}

func TestSubmitSuccess(t *testing.T) {
	e := newEnv(t)
	m := typeText(e.composer(), "compare @pars")
	m, _ = press(m, tab)
	m = typeText(m, "with this")
	canon := m.Canonical()
	m, out := press(m, enter)
	if len(out) != 1 {
		t.Fatalf("out %v", out)
	}
	sub, ok := out[0].(SubmittedMsg)
	if !ok {
		t.Fatalf("got %T", out[0])
	}
	if sub.Text != "compare @Fix the session parser with this" || sub.Canonical != canon || sub.Context == nil ||
		!strings.Contains(sub.Context.Prompt(), sessionref.UntrustedPhrase) || len(sub.References) != 1 {
		t.Fatalf("submitted %+v", sub)
	}
	if m.Canonical() != "" || m.Preparing() {
		t.Fatal("the composer did not clear")
	}
}

func TestSubmitFailuresKeepDraft(t *testing.T) {
	e := newEnv(t)
	big := strings.Repeat("x", 70000)
	e.store.Create("s-huge", nil, testNow)
	e.store.SetTitle("s-huge", "Huge log")
	e.store.AppendUser("s-huge", big)
	e.store.FailReads("s-cafe", errors.New("disk unplugged"))
	cases := []struct {
		name  string
		draft string
		code  sessionref.Code
		words string
		opts  []option
	}{
		{"invalid", "see @[bad](dsh-session:nope)", sessionref.CodeInvalidReference, "malformed", nil},
		{"self", "me " + mention(t, "current", "This very session"), sessionref.CodeSelfReference, "can't reference itself; remove @This very session", nil},
		{"too many", mention(t, "s-parser", "a") + mention(t, "s-logs", "b") + mention(t, "s-emoji", "c") + mention(t, "s-cafe", "d"), sessionref.CodeTooMany, "at most 3 sessions", nil},
		{"read failed", "read " + mention(t, "s-cafe", "Café menu"), sessionref.CodeReadFailed, "Couldn't read @Café menu: disk unplugged", nil},
		{"read failed, label ends in ':'", "read " + mention(t, "s-cafe", "Menu:"), sessionref.CodeReadFailed, "Couldn't read @Menu: (disk unplugged).", nil},
		{"budget", "huge " + mention(t, "s-huge", "Huge log"), sessionref.CodeBudgetExceeded, "@Huge log is too large to fit the 64 KiB snapshot budget", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := e.composer(c.opts...)
			m.SetValue(c.draft)
			before, beforeTokens := m.Canonical(), m.Tokens()
			if c.code == sessionref.CodeBudgetExceeded {
				// The budget error needs a small budget for a 70 KB message.
				m.prepare = func(ctx context.Context, d string) (sessionref.PreparedText, error) {
					r, _ := sessionref.NewResolver(e.store, sessionref.Config{MaxReferenceBytes: 16})
					return r.PrepareText(ctx, e.target, d)
				}
			}
			m, out := press(m, enter)
			if len(out) != 1 {
				t.Fatalf("out %v", out)
			}
			f, ok := out[0].(SubmitFailedMsg)
			if !ok || sessionref.CodeOf(f.Err) != c.code {
				t.Fatalf("got %#v", out[0])
			}
			if m.Canonical() != before || len(m.Tokens()) != len(beforeTokens) {
				t.Fatalf("draft changed: %q", m.Canonical())
			}
			if !strings.Contains(errText(m), c.words) || !strings.Contains(ansi.Strip(m.View()), "✗ ") {
				t.Fatalf("error line %q", errText(m))
			}
		})
	}
}

func TestSubmitCancellation(t *testing.T) {
	e := newEnv(t)
	m := e.composer()
	started := make(chan struct{})
	m.prepare = func(ctx context.Context, d string) (sessionref.PreparedText, error) {
		close(started)
		<-ctx.Done()
		return sessionref.PreparedText{}, &sessionref.Error{Code: sessionref.CodeCancelled, Msg: "session reference preparation was cancelled", Cause: ctx.Err()}
	}
	m.SetValue("slow " + mention(t, "s-parser", "P"))
	before := m.Canonical()
	m, cmd := m.Update(enter)
	if !m.Preparing() || !strings.Contains(ansi.Strip(m.View()), "preparing") {
		t.Fatal("not preparing")
	}
	result := make(chan tea.Msg, 1)
	go func() { result <- cmd() }()
	<-started
	// A second Enter and typing are ignored while preparing.
	m, cmd2 := m.Update(enter)
	if cmd2 != nil {
		t.Fatal("second enter started another submit")
	}
	m = typeText(m, "zzz")
	if m.Canonical() != before {
		t.Fatal("typed while preparing")
	}
	m, _ = m.Update(esc)
	done := <-result
	m, out := step(m, done)
	if f, ok := out[0].(SubmitFailedMsg); !ok || sessionref.CodeOf(f.Err) != sessionref.CodeCancelled {
		t.Fatalf("got %#v", out)
	}
	if m.Canonical() != before || m.Preparing() || !strings.Contains(errText(m), "cancelled") {
		t.Fatalf("after cancel: %q %q", m.Canonical(), errText(m))
	}
}

func TestMouseClickMovesCursorAndPicks(t *testing.T) {
	e := newEnv(t)
	m := typeText(e.composer(), "hello world")
	m, _ = step(m, tea.MouseClickMsg{X: 2 + 3, Y: 20, Button: tea.MouseLeft})
	if m.cursor != 3 {
		t.Fatalf("cursor %d", m.cursor)
	}
	m.SetValue("")
	m = typeText(m, "@")
	r := m.Picker().Rect()
	m, _ = step(m, tea.MouseClickMsg{X: r.X + 4, Y: r.Y + 2, Button: tea.MouseLeft})
	if len(m.Tokens()) != 1 || m.Tokens()[0].Reference.SessionID != m.Picker().Answer(picker.SessionsID).Candidates[1].SessionID {
		t.Fatalf("click did not pick the second row: %+v", m.Tokens())
	}
}

func TestGoldenViews(t *testing.T) {
	e := newEnv(t)
	tok := mention(t, "s-logs", "重构日志模块")
	for _, w := range []int{40, 80} {
		t.Run(map[int]string{40: "w40", 80: "w80"}[w], func(t *testing.T) {
			m := e.composer()
			m.SetWidth(w)
			m.SetValue("compare " + tok + " with the emoji 🎉 work and café e\u0301 notes; then write a summary")
			golden.RequireEqual(t, []byte(ansi.Strip(m.View())))
		})
	}
	t.Run("empty", func(t *testing.T) {
		golden.RequireEqual(t, []byte(ansi.Strip(e.composer().View())))
	})
}

// TestPickerNeverCoversTheDraft: in a multi-line draft the popup sits
// above the editor's first line, not over it.
func TestPickerNeverCoversTheDraft(t *testing.T) {
	e := newEnv(t)
	m := typeText(e.composer(), "line one")
	m, _ = press(m, shiftEnt)
	m = typeText(m, "line two @")
	r := m.Picker().Rect()
	if r.H == 0 || r.Y+r.H > 20 {
		t.Fatalf("popup %+v overlaps the editor at y=20", r)
	}
}

// TestTypingWhilePreparingIsShown: the draft is read-only while a submit
// prepares, and what is typed meanwhile is not lost unseen: the busy line
// says the draft is locked, shows the text not taken and the way out,
// and forgets it once the submit settles.
func TestTypingWhilePreparingIsShown(t *testing.T) {
	e := newEnv(t)
	m := e.composer()
	release := make(chan struct{})
	m.prepare = func(ctx context.Context, d string) (sessionref.PreparedText, error) {
		<-release
		return sessionref.PreparedText{}, &sessionref.Error{Code: sessionref.CodeCancelled, Msg: "cancelled", Cause: context.Canceled}
	}
	m.SetValue("slow " + mention(t, "s-parser", "P"))
	before := m.Canonical()
	m, cmd := m.Update(enter)
	if f := footerOf(m); !strings.Contains(f, "the draft is locked") || !strings.Contains(f, "esc cancel") || strings.Contains(f, "not typed") {
		t.Fatalf("busy line %q", f)
	}
	m = typeText(m, "more")
	m, _ = m.Update(tea.PasteMsg{Content: " and\x1b[31m red"})
	if m.Canonical() != before {
		t.Fatalf("draft changed while preparing: %q", m.Canonical())
	}
	f := footerOf(m)
	if !strings.Contains(f, "not typed “more and") || !strings.Contains(f, "red”") || !strings.Contains(f, "esc cancel") {
		t.Fatalf("busy line after typing %q", f)
	}
	if strings.Contains(m.View(), "\x1b[31m") {
		t.Fatal("a pasted escape reached the screen")
	}
	close(release)
	m, _ = step(m, cmd())
	if m.Canonical() != before || strings.Contains(footerOf(m), "not typed") {
		t.Fatalf("after the submit settled: %q, footer %q", m.Canonical(), footerOf(m))
	}
}

// TestKeysWhilePreparingAreShown: a key that types nothing (Backspace)
// is refused visibly too; a long run keeps its last characters.
func TestKeysWhilePreparingAreShown(t *testing.T) {
	e := newEnv(t)
	m := e.composer()
	block := make(chan struct{})
	defer close(block)
	m.prepare = func(ctx context.Context, _ string) (sessionref.PreparedText, error) {
		<-block
		return sessionref.PreparedText{}, ctx.Err()
	}
	m.SetValue("hello")
	m, _ = m.Update(enter)
	m, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
	if f := footerOf(m); !strings.Contains(f, "keys are not taken") || m.Canonical() != "hello" {
		t.Fatalf("after backspace: %q %q", f, m.Canonical())
	}
	m = typeText(m, strings.Repeat("x", 200)+"END")
	if f := footerOf(m); !strings.Contains(f, "xEND”") || len(m.refused) > maxRefused {
		t.Fatalf("long run: %q (%d bytes kept)", f, len(m.refused))
	}
}

// A resize reaches the embedded picker: a pane widened enough for the
// preview reads the session highlighted now.
func TestResizeReachesThePickersPreview(t *testing.T) {
	e := newEnv(t)
	var read []string
	pv := picker.PreviewerFunc(func(ctx context.Context, c sessionref.Candidate) (picker.Preview, error) {
		read = append(read, c.SessionID)
		return picker.Preview{}, nil
	})
	p := picker.New(picker.ResolverSource(e.resolver, 20), picker.WithTick(neverTick), picker.WithPreview(pv))
	p.SetTarget(e.target)
	m := New(p, ResolverPreparer(e.resolver))
	m, _ = m.Update(tea.WindowSizeMsg{Width: 40, Height: 24})
	m.SetWidth(40)
	m.SetOrigin(0, 20)
	m = typeText(m, "@")
	m, _ = press(m, tea.KeyPressMsg{Code: tea.KeyDown})
	want, ok := m.Picker().Highlighted()
	if !ok {
		t.Fatal("nothing highlighted")
	}
	read = nil
	m, _ = step(m, tea.WindowSizeMsg{Width: 200, Height: 24})
	if len(read) == 0 || read[len(read)-1] != want.SessionID {
		t.Fatalf("after widening, the preview read %q; want %s", read, want.SessionID)
	}
}

// errText is the error line the footer shows, "" for none.
func errText(m Model) string {
	if m.Err() == nil {
		return ""
	}
	return m.errLine
}

// moveCursor puts the cursor before atom i, as a jump does.
func (m *Model) moveCursor(i int) {
	m.draft.Move(m.off(i), rules.Jump)
	m.sync()
}

// option sets a knob on a new composer in a test, through its setter.
type option func(*Model)

func withWidth(w int) option     { return func(m *Model) { m.SetWidth(w) } }
func withMaxLines(n int) option  { return func(m *Model) { m.SetMaxLines(n) } }
func withKeyMap(k KeyMap) option { return func(m *Model) { m.SetKeyMap(k) } }
func withStyles(s Styles) option { return func(m *Model) { m.SetStyles(s) } }

// newWith is New, then opts.
func newWith(p picker.Model, prepare Preparer, opts ...option) Model {
	m := New(p, prepare)
	for _, o := range opts {
		o(&m)
	}
	return m
}
