package demo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/internal/golden"
	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/sessionref"
)

var (
	ctrlC = tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	ctrlT = tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl}
	f1    = tea.KeyPressMsg{Code: tea.KeyF1}
	esc   = tea.KeyPressMsg{Code: tea.KeyEscape}
	enter = tea.KeyPressMsg{Code: tea.KeyEnter}
	tab   = tea.KeyPressMsg{Code: tea.KeyTab}
	pgDn  = tea.KeyPressMsg{Code: tea.KeyPgDown}
)

// scenario brings a started demo to a screen worth checking.
type scenario struct {
	name  string
	cfg   sessionref.Config
	steps func(Model) Model
}

// sendWithReference sends a message that references a session.
func sendWithReference(m Model) Model {
	m = typeIn(m, "compare @pars")
	m = drive(m, tab)
	m = typeIn(m, "with the retry fix")
	return drive(m, enter)
}

var scenarios = []scenario{
	{"picker", sessionref.Config{}, func(m Model) Model { return typeIn(m, "see @") }},
	{"error", sessionref.Config{MaxReferenceBytes: 40}, func(m Model) Model {
		m = typeIn(m, "use @pars")
		m = drive(m, tab)
		m = typeIn(m, "now")
		return drive(m, enter)
	}},
	{"help", sessionref.Config{}, func(m Model) Model { return drive(m, f1) }},
	{"inspector", sessionref.Config{}, func(m Model) Model { return drive(sendWithReference(m), ctrlT) }},
}

var goldenSizes = [][2]int{{40, 12}, {80, 24}, {120, 40}}

// moreScenarios are screens checked for fit and styling besides those
// kept as goldens.
var moreScenarios = []scenario{
	{"empty", sessionref.Config{}, func(m Model) Model { return m }},
	{"sent", sessionref.Config{}, func(m Model) Model { return drive(sendWithReference(m), ctrlO) }},
	{"confirm-quit", sessionref.Config{}, func(m Model) Model { return drive(typeIn(m, "draft"), ctrlC) }},
	{"load-error", sessionref.Config{}, func(m Model) Model { return drive(m, transcriptMsg{err: errors.New("disk on fire")}) }},
	// A disabled row: the picker with a session already mentioned.
	{"disabled", sessionref.Config{}, func(m Model) Model { return typeIn(drive(typeIn(m, "a @pars"), tab), "@") }},
}

// allScenarios is every screen the screen tests check.
var allScenarios = append(append([]scenario(nil), scenarios...), moreScenarios...)

func at(t *testing.T, sc scenario, w, h int, change func(*Options)) Model {
	t.Helper()
	m, _ := startWith(t, w, h, func(o *Options) {
		o.Config = sc.cfg
		if change != nil {
			change(o)
		}
	})
	return sc.steps(m)
}

type screenKey struct {
	name   string
	w, h   int
	colour bool
}

// screens holds each scenario's view, rendered once for all the tests
// that check it.
var screens = struct {
	sync.Mutex
	views map[screenKey]string
}{views: map[screenKey]string{}}

// shot returns the view of sc at w×h (with its styling), plain or in
// colour.
func shot(t *testing.T, sc scenario, w, h int, colour bool) string {
	t.Helper()
	screens.Lock()
	defer screens.Unlock()
	k := screenKey{sc.name, w, h, colour}
	if v, ok := screens.views[k]; ok {
		return v
	}
	var change func(*Options)
	if colour {
		change = func(o *Options) { o.Plain = false }
	}
	v := at(t, sc, w, h, change).View().Content
	screens.views[k] = v
	return v
}

// TestGoldenScreens keeps the screens a newcomer meets, at three sizes:
// the picker open, an error shown, F1 open, the inspector open. The
// clock, the store and the home are fixed; -update regenerates them.
func TestGoldenScreens(t *testing.T) {
	t.Parallel()
	for _, sc := range scenarios {
		for _, sz := range goldenSizes {
			t.Run(fmt.Sprintf("%s_%dx%d", sc.name, sz[0], sz[1]), func(t *testing.T) {
				golden.RequireEqual(t, trimRight(ansi.Strip(shot(t, sc, sz[0], sz[1], false))))
			})
		}
	}
}

// trimRight drops the spaces that end each line: what a screen looks like
// does not depend on them, and lipgloss versions differ in whether a
// composed screen pads its lines.
func trimRight(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// TestScreensFit: no line is wider than the window, and no screen
// taller, from 40×12 to 200×60.
func TestScreensFit(t *testing.T) {
	t.Parallel()
	for _, sc := range allScenarios {
		for _, sz := range append(goldenSizes, [2]int{200, 60}) {
			lines := strings.Split(ansi.Strip(shot(t, sc, sz[0], sz[1], false)), "\n")
			if len(lines) > sz[1] {
				t.Errorf("%s %v: %d lines", sc.name, sz, len(lines))
			}
			for _, l := range lines {
				if w := textutil.Width(l); w > sz[0] {
					t.Errorf("%s %v: a line is %d cells: %q", sc.name, sz, w, l)
				}
			}
		}
	}
}

var sgr = regexp.MustCompile("\x1b\\[([0-9;:]*)m")

// colourParams returns the SGR parameters in s that set a colour:
// 30–39, 40–49 (38 and 48 with their extended forms), 90–97, 100–107.
func colourParams(s string) []string {
	var found []string
	for _, m := range sgr.FindAllStringSubmatch(s, -1) {
		for _, p := range strings.FieldsFunc(m[1], func(r rune) bool { return r == ';' || r == ':' }) {
			n, err := strconv.Atoi(p)
			if err != nil {
				continue
			}
			if n >= 30 && n <= 49 || n >= 90 && n <= 97 || n >= 100 && n <= 107 {
				found = append(found, m[0])
				break
			}
		}
	}
	return found
}

// plainSizes are the sizes the styling tests check every screen at.
var plainSizes = [][2]int{{40, 12}, {80, 24}}

// TestPlainHasNoColour renders every screen with Plain and finds no SGR
// colour parameter; the same screens in colour do have some, so the
// check can fail.
func TestPlainHasNoColour(t *testing.T) {
	t.Parallel()
	for _, sc := range allScenarios {
		for _, sz := range plainSizes {
			if c := colourParams(shot(t, sc, sz[0], sz[1], false)); len(c) > 0 {
				t.Errorf("%s %v with --plain: colour %q", sc.name, sz, c[:min(len(c), 5)])
			}
			if len(colourParams(shot(t, sc, sz[0], sz[1], true))) == 0 {
				t.Errorf("%s %v in colour: no colour at all, the check proves nothing", sc.name, sz)
			}
		}
	}
}

// plainAttrs are the SGR parameters --plain may use, as docs/demo.md's
// --plain row names them: reset, bold, faint, italic, underline,
// reverse, strikethrough, and their own resets.
var plainAttrs = map[int]string{0: "reset", 1: "bold", 2: "faint", 3: "italic", 4: "underline", 7: "reverse", 9: "strikethrough",
	22: "reset", 23: "reset", 24: "reset", 27: "reset", 29: "reset"}

// TestPlainAttributesAsDocumented: every SGR parameter a --plain screen
// uses is one docs/demo.md's --plain row names, and that row names
// faint, italic and strikethrough, which the screens do use (a disabled
// row: the picker with a session already mentioned).
func TestPlainAttributesAsDocumented(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../docs/demo.md")
	if err != nil {
		t.Fatal(err)
	}
	var row string
	for _, l := range strings.Split(string(readme), "\n") {
		if strings.HasPrefix(l, "| `--plain` |") {
			row = l
		}
	}
	used := map[string]bool{}
	for _, sc := range allScenarios {
		for _, sz := range plainSizes {
			for _, s := range sgr.FindAllStringSubmatch(shot(t, sc, sz[0], sz[1], false), -1) {
				for _, p := range strings.FieldsFunc(s[1], func(r rune) bool { return r == ';' || r == ':' }) {
					n, _ := strconv.Atoi(p)
					name, ok := plainAttrs[n]
					if !ok {
						t.Fatalf("%s %v: --plain uses SGR %d (%q), which docs/demo.md does not name", sc.name, sz, n, s[0])
					}
					used[name] = true
				}
			}
		}
	}
	for _, name := range []string{"bold", "faint", "italic", "underline", "strikethrough", "reverse"} {
		if !strings.Contains(row, name) {
			t.Errorf("docs/demo.md's --plain row does not name %s: %q", name, row)
		}
	}
	for _, name := range []string{"faint", "reverse", "strikethrough"} {
		if !used[name] {
			t.Errorf("no --plain screen uses %s: the check proves less than it says", name)
		}
	}
}

// TestHintLineKeepsTheWayOut: at 80 and 40 columns the hint line keeps
// "f1 more keys" and "ctrl+c quit", and no key is named twice on screen.
func TestHintLineKeepsTheWayOut(t *testing.T) {
	for _, sc := range []scenario{
		{"empty", sessionref.Config{}, func(m Model) Model { return m }},
		{"picker", sessionref.Config{}, func(m Model) Model { return typeIn(m, "see @") }},
		{"sent", sessionref.Config{}, sendWithReference},
	} {
		for _, w := range []int{40, 80, 100} {
			m := at(t, sc, w, 24, nil)
			lines := strings.Split(text(m), "\n")
			hintLine := lines[len(lines)-1]
			for _, want := range []string{"f1 more keys", "ctrl+c quit"} {
				if !strings.Contains(hintLine, want) {
					t.Errorf("%s at %d: hint line %q lacks %q", sc.name, w, hintLine, want)
				}
			}
			if sc.name == "sent" && w >= 80 && !strings.Contains(hintLine, "ctrl+o") {
				t.Errorf("sent at %d: the card key is not on the hint line %q", w, hintLine)
			}
			// Below the transcript: the draft, its footer and the hints.
			below := strings.Join(lines[headerH+m.vp.Height():], "\n")
			for _, k := range []string{"enter send", "tab mention", "esc close", "ctrl+t", "f1", "ctrl+c", "ctrl+o"} {
				if n := strings.Count(below, k); n > 1 {
					t.Errorf("%s at %d: %q shown %d times:\n%s", sc.name, w, k, n, below)
				}
			}
		}
	}
}

// TestHelpScreen: F1 lists every component's keys laid out to the width
// (nothing cut at 40 columns: the keys are all in the scrollable list),
// says how to leave, and Esc or F1 leaves.
func TestHelpScreen(t *testing.T) {
	m := at(t, scenario{"sent", sessionref.Config{}, sendWithReference}, 40, 12, nil)
	m = drive(m, f1)
	sc := text(m)
	if !strings.Contains(sc, "Keys · esc back") || !strings.Contains(sc, "esc back") {
		t.Fatalf("no title or way out:\n%s", sc)
	}
	var seen strings.Builder
	for range 20 {
		seen.WriteString(text(m) + "\n")
		m = drive(m, pgDn)
	}
	all := seen.String()
	for _, want := range []string{"enter", "send", "shift+enter", "tab", "mention", "ctrl+p", "esc", "close", "ctrl+o", "ctrl+t", "what the model gets", "ctrl+c", "quit", "f1", "pgup"} {
		if !strings.Contains(all, want) {
			t.Errorf("F1 at 40 columns never shows %q", want)
		}
	}
	if strings.Contains(all, "…") {
		t.Errorf("F1 cut something:\n%s", all)
	}
	if strings.Contains(all, "shift+↑") {
		t.Errorf("F1 lists the card's scroll keys, which are off in the demo")
	}
	if m = drive(m, esc); strings.Contains(text(m), "Keys · esc back") {
		t.Fatal("esc did not close F1")
	}
	m = drive(drive(m, f1), f1)
	if strings.Contains(text(m), "Keys · esc back") {
		t.Fatal("f1 did not close F1")
	}
}

// TestInspectorTitleAndScroll: the title says it shows the last message
// with references, the bottom line where the view is, and the last line
// is reachable at 80×24.
func TestInspectorTitleAndScroll(t *testing.T) {
	m := at(t, scenarios[3], 80, 24, nil)
	sc := text(m)
	if !strings.Contains(sc, "the last message with references") {
		t.Fatalf("title:\n%s", sc)
	}
	if !regexp.MustCompile(`lines 1–22 of \d+ \(\d+%\)`).MatchString(sc) {
		t.Fatalf("no scroll position:\n%s", sc)
	}
	if strings.Contains(sc, "compare @Fix the session parser with the retry fix") {
		t.Fatal("the direct message fits on the first screen: the test proves nothing")
	}
	for range 5 {
		m = drive(m, pgDn)
	}
	sc = text(m)
	if !strings.Contains(sc, "compare @Fix the session parser with the retry fix") || !strings.Contains(sc, "(100%)") {
		t.Fatalf("the last line is not reachable:\n%s", sc)
	}
	// Sending a message without references afterwards: the inspector
	// still shows the last one with references, as its title says.
	m = drive(drive(m, esc), tea.KeyPressMsg{Code: 'x', Text: "x"})
	m = drive(drive(m, enter), ctrlT)
	if sc := text(m); !strings.Contains(sc, "message 1 of 2 · role user · source session-reference") {
		t.Fatalf("inspector after a plain message:\n%s", sc)
	}
}

func isQuit(cmd tea.Cmd) bool {
	for _, msg := range run(cmd) {
		if _, ok := msg.(tea.QuitMsg); ok {
			return true
		}
	}
	return false
}

// TestCtrlCWithDraftAsks: with a draft, the first ctrl+c asks and a
// second quits; any other key keeps writing; with no draft it quits.
func TestCtrlCWithDraftAsks(t *testing.T) {
	m, _ := start(t, sessionref.Config{})
	if _, cmd := m.Update(ctrlC); !isQuit(cmd) {
		t.Fatal("ctrl+c with no draft did not quit")
	}
	m = typeIn(m, "half a thought")
	next, cmd := m.Update(ctrlC)
	m = next.(Model)
	if isQuit(cmd) {
		t.Fatal("ctrl+c with a draft quit at once")
	}
	if !strings.Contains(text(m), "press ctrl+c again to quit") {
		t.Fatalf("no question:\n%s", text(m))
	}
	m = typeIn(m, "!")
	if m.comp.Canonical() != "half a thought!" || strings.Contains(text(m), "press ctrl+c again") {
		t.Fatalf("another key: draft %q\n%s", m.comp.Canonical(), text(m))
	}
	next, _ = m.Update(ctrlC)
	if _, cmd := next.(Model).Update(ctrlC); !isQuit(cmd) {
		t.Fatal("a second ctrl+c did not quit")
	}
}

// TestCtrlCWithPickerOpenAsksVisibly: with the picker open over the
// status line, the first ctrl+c closes it so the question is on screen,
// keeps the draft, and never quits; at 40×12 and 80×24.
func TestCtrlCWithPickerOpenAsksVisibly(t *testing.T) {
	for _, sz := range [][2]int{{40, 12}, {80, 24}} {
		m, _ := startWith(t, sz[0], sz[1], nil)
		m = typeIn(m, "hi @pars")
		if !m.comp.Picker().IsOpen() {
			t.Fatalf("%v: setup: the picker is not open", sz)
		}
		next, cmd := m.Update(ctrlC)
		m = next.(Model)
		if isQuit(cmd) {
			t.Fatalf("%v: one ctrl+c quit with a draft", sz)
		}
		flat := strings.Join(strings.Fields(text(m)), " ")
		if !strings.Contains(flat, "Your draft is not sent: press ctrl+c again to quit and lose it") {
			t.Fatalf("%v: the question is not on screen:\n%s", sz, text(m))
		}
		if m.comp.Picker().IsOpen() || m.comp.Readable() != "hi @pars" {
			t.Fatalf("%v: picker open %v, draft %q", sz, m.comp.Picker().IsOpen(), m.comp.Readable())
		}
	}
}

// TestClickOutsidePickerKeepsCard: with the picker open, a click on the
// card underneath closes the picker and does not toggle the card.
func TestClickOutsidePickerKeepsCard(t *testing.T) {
	m, _ := start(t, sessionref.Config{})
	m = sendWithReference(m)
	span := m.cardSpans[0]
	y := headerH + span.Top - m.vp.YOffset()
	m = typeIn(m, "@")
	p := m.comp.Picker()
	if !p.IsOpen() || p.Rect().Contains(3, y) {
		t.Fatalf("setup: picker open %v rect %+v covers the card row %d", p.IsOpen(), p.Rect(), y)
	}
	m = drive(m, tea.MouseClickMsg{X: 3, Y: y, Button: tea.MouseLeft})
	m = drive(m, tea.MouseReleaseMsg{X: 3, Y: y, Button: tea.MouseLeft})
	if m.comp.Picker().IsOpen() {
		t.Fatal("the click outside did not close the picker")
	}
	if m.cards[span.seq].Expanded() {
		t.Fatal("the click outside the picker toggled the card underneath")
	}
	// With the picker closed, the same click toggles the card.
	m = drive(m, tea.MouseClickMsg{X: 3, Y: y, Button: tea.MouseLeft})
	if !m.cards[span.seq].Expanded() {
		t.Fatal("a click on the card did not expand it")
	}
}

// TestClickOutsideIsEsc: closing the picker by a click outside it (on
// the header, or on the transcript beside it) leaves the demo exactly
// as Esc does, and so does typing on afterwards: the same draft, the
// picker open or not alike, with the same query.
func TestClickOutsideIsEsc(t *testing.T) {
	type state struct {
		open        bool
		query, text string
	}
	of := func(m Model) state {
		p := m.comp.Picker()
		return state{p.IsOpen(), p.Query(), m.comp.Readable()}
	}
	for _, sz := range [][2]int{{40, 12}, {80, 24}} {
		base, _ := startWith(t, sz[0], sz[1], nil)
		base = typeIn(base, "hi @pars")
		r := base.comp.Picker().Rect()
		if !base.comp.Picker().IsOpen() || r.Contains(0, 0) {
			t.Fatalf("%v: setup: picker open %v at %+v", sz, base.comp.Picker().IsOpen(), r)
		}
		byEsc := drive(base, esc)
		for _, at := range [][2]int{{0, 0}, {sz[0] - 1, r.Y + r.H}} {
			if r.Contains(at[0], at[1]) {
				continue
			}
			byClick := drive(base, tea.MouseClickMsg{X: at[0], Y: at[1], Button: tea.MouseLeft})
			byClick = drive(byClick, tea.MouseReleaseMsg{X: at[0], Y: at[1], Button: tea.MouseLeft})
			if got, want := of(byClick), of(byEsc); got != want || got.open {
				t.Fatalf("%v: a click at %v left %+v, Esc %+v", sz, at, got, want)
			}
			if got, want := of(typeIn(byClick, "e")), of(typeIn(byEsc, "e")); got != want {
				t.Fatalf("%v: typing after a click at %v: %+v, after Esc: %+v", sz, at, got, want)
			}
		}
	}
}

// TestInlineKeepsToItsHeight: inline, the demo draws at most
// InlineHeight lines on the normal screen; the hint line is its last.
func TestInlineKeepsToItsHeight(t *testing.T) {
	m, _ := startWith(t, 80, 40, func(o *Options) { o.Inline = true })
	v := m.View()
	lines := strings.Split(ansi.Strip(v.Content), "\n")
	if v.AltScreen || len(lines) > DefaultInlineHeight {
		t.Fatalf("alt screen %v, %d lines", v.AltScreen, len(lines))
	}
	if !strings.Contains(lines[len(lines)-1], "ctrl+c quit") {
		t.Fatalf("last line %q", lines[len(lines)-1])
	}
	// The last frame ends on an empty line, which the shell's prompt
	// takes, so the hint line stays on the terminal after exit.
	next, cmd := m.Update(ctrlC)
	if last := next.(Model).View().Content; !isQuit(cmd) || !strings.HasSuffix(last, "\n") || !strings.Contains(trimRight(ansi.Strip(last)), "ctrl+c quit\n") {
		t.Fatalf("last frame %q", ansi.Strip(last))
	}
	m = typeIn(m, "@")
	if r := m.comp.Picker().Rect(); r.Y < 0 || r.Y+r.H > DefaultInlineHeight {
		t.Fatalf("picker %+v outside the inline screen", r)
	}
}

// TestInlineIsKeyboardOnly: inline, the terminal's mouse rows are not
// the demo's (the shell's lines are above it), so mouse reporting is off
// and a click that reaches the demo anyway picks nothing; F1 says the
// mouse is off. On the alternate screen the same click does pick.
func TestInlineIsKeyboardOnly(t *testing.T) {
	click := func(m Model) Model {
		r := m.comp.Picker().Rect()
		return drive(m, tea.MouseClickMsg{X: r.X + 5, Y: r.Y + 2, Button: tea.MouseLeft})
	}
	full, _ := startWith(t, 80, 24, nil)
	if full.View().MouseMode == tea.MouseModeNone {
		t.Fatal("setup: no mouse on the alternate screen")
	}
	if full = click(typeIn(full, "see @")); len(full.comp.Tokens()) != 1 {
		t.Fatal("setup: the click on the alternate screen picked nothing")
	}
	m, _ := startWith(t, 80, 24, func(o *Options) { o.Inline = true })
	if mode := m.View().MouseMode; mode != tea.MouseModeNone {
		t.Fatalf("inline mouse mode %v", mode)
	}
	m = click(typeIn(m, "see @"))
	if len(m.comp.Tokens()) != 0 || !m.comp.Picker().IsOpen() {
		t.Fatalf("inline: a click picked %+v (picker open %v)", m.comp.Tokens(), m.comp.Picker().IsOpen())
	}
	m = drive(drive(m, esc), f1)
	var seen strings.Builder
	for range 10 {
		seen.WriteString(text(m))
		m = drive(m, pgDn)
	}
	if all := seen.String(); !strings.Contains(all, "off inline: keyboard only") || strings.Contains(all, "pick a session in the picker") {
		t.Fatalf("F1 inline does not say the mouse is off:\n%s", all)
	}
}

// TestBackgroundBuild: the screen is there before the store is filled;
// a progress line says how far the build got, and goes when it is done.
func TestBackgroundBuild(t *testing.T) {
	release := make(chan struct{})
	m, _ := newDemoWith(t, func(o *Options) {
		o.Build = func(ctx context.Context, progress func(done, total int)) error {
			progress(0, 100000)
			<-release
			progress(100000, 100000)
			return nil
		}
	})
	m = drive(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	cmd := m.Init()
	msgs := run(cmd) // the build is blocked: Init's Cmds answer anyway
	var buildNews *buildMsg
	for _, msg := range msgs {
		if b, ok := msg.(buildMsg); ok {
			buildNews = &b
			continue
		}
		m = drive(m, msg)
	}
	if buildNews == nil {
		t.Fatal("no progress while the build runs")
	}
	next, wait := m.Update(*buildNews)
	m = next.(Model)
	if sc := text(m); !strings.Contains(sc, "0 of 100000 sessions") || !strings.Contains(sc, "No messages yet") {
		t.Fatalf("screen while building:\n%s", sc)
	}
	close(release)
	for i := 0; wait != nil && i < 5; i++ {
		out := run(wait)
		wait = nil
		for _, msg := range out {
			next, c := m.Update(msg)
			m, wait = next.(Model), c
		}
	}
	if sc := text(m); strings.Contains(sc, "Building") || m.build.running {
		t.Fatalf("the progress line stayed:\n%s", sc)
	}
}

// TestErrorsWrapNotCut: a long error is shown whole at 40 columns, in
// the transcript (an unreadable session) and under the draft (the
// composer's), and the draft stays.
func TestErrorsWrapNotCut(t *testing.T) {
	long := "open /home/dev/.dsh/sessions/2026/11/30/a-very-long-session-file-name.jsonl: permission denied"
	m, _ := startWith(t, 40, 12, nil)
	m = drive(m, transcriptMsg{err: errors.New(long)})
	flat := strings.Join(strings.Fields(text(m)), "")
	if !strings.Contains(flat, strings.Join(strings.Fields("couldn't read this session: "+long), "")) {
		t.Fatalf("the load error was cut:\n%s", text(m))
	}
	m = at(t, scenarios[1], 40, 12, nil)
	flat = strings.Join(strings.Fields(text(m)), "")
	if !strings.Contains(flat, "tofitthe40Bsnapshotbudget") || strings.Contains(text(m), "budge…") {
		t.Fatalf("the budget error was cut:\n%s", text(m))
	}
	if !strings.HasSuffix(m.comp.Canonical(), " now") {
		t.Fatalf("draft %q", m.comp.Canonical())
	}
}

// TestHeaderShortensHomeByElement: ~ stands for the home directory only
// as a whole path element.
func TestHeaderShortensHomeByElement(t *testing.T) {
	for cwd, want := range map[string]string{"/home/dev/src/x": "~/src/x", "/home/dev2/x": "/home/dev2/x", "/home/dev": "~"} {
		m, _ := startWith(t, 100, 20, func(o *Options) { c := cwd; o.Current.Cwd = &c })
		if h := ansi.Strip(m.header()); !strings.Contains(h, " · "+want+" · ") {
			t.Errorf("cwd %s: header %q, want %q", cwd, h, want)
		}
	}
}

// TestCardShowsCurrentTitle: a pasted mention's label is not the
// session's title; the card shows the label the message used and the
// current title beside it.
func TestCardShowsCurrentTitle(t *testing.T) {
	m, _ := start(t, sessionref.Config{})
	uri, err := sessionref.EncodeURI("s-api")
	if err != nil {
		t.Fatal(err)
	}
	m.comp.SetValue("see @[my old name](" + uri + ") now")
	m = drive(m, enter)
	sc := text(m)
	if !strings.Contains(sc, "my old name") || !strings.Contains(sc, "API rate limits") {
		t.Fatalf("card lacks the label or the current title:\n%s", sc)
	}
}

// TestCtrlCWhileSending: ctrl+c while a send is being prepared asks
// about the send, not the draft; when the send completes the question
// goes with the draft; a second ctrl+c while it is in flight quits.
func TestCtrlCWhileSending(t *testing.T) {
	for _, sz := range [][2]int{{40, 12}, {80, 24}} {
		m, _ := startWith(t, sz[0], sz[1], nil)
		m = typeIn(m, "half a thought")
		next, send := m.Update(enter) // the send's Cmd is held: it is in flight
		m = next.(Model)
		if !m.comp.Preparing() {
			t.Fatalf("%v: setup: not preparing", sz)
		}
		next, cmd := m.Update(ctrlC)
		m = next.(Model)
		flat := strings.Join(strings.Fields(text(m)), " ")
		if isQuit(cmd) || !strings.Contains(flat, "Your message is being sent: press ctrl+c again to stop the send and quit") {
			t.Fatalf("%v: the question does not name the send:\n%s", sz, text(m))
		}
		if _, cmd := m.Update(ctrlC); !isQuit(cmd) {
			t.Fatalf("%v: a second ctrl+c while sending did not quit", sz)
		}
		for _, msg := range run(send) { // the send completes
			m = drive(m, msg)
		}
		if m.comp.Canonical() != "" || strings.Contains(text(m), "ctrl+c again") {
			t.Fatalf("%v: the send completed, draft %q, and the question stays:\n%s", sz, m.comp.Canonical(), text(m))
		}
		if !strings.Contains(text(m), "half a thought") {
			t.Fatalf("%v: the message is not in the transcript:\n%s", sz, text(m))
		}
		if _, cmd := m.Update(ctrlC); !isQuit(cmd) {
			t.Fatalf("%v: with no draft left, ctrl+c did not quit", sz)
		}
	}
}
