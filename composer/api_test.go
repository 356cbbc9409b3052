package composer

import (
	"context"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

func footerOf(m Model) string {
	lines := strings.Split(ansi.Strip(m.View()), "\n")
	return strings.Join(lines[m.visibleLines(len(m.lines())):], "\n")
}

// TestFooterFollowsTheKeyMap: every hint comes from the bindings, so a
// host that sends with ctrl+s sees "ctrl+s send", and Enter neither sends
// nor shows.
func TestFooterFollowsTheKeyMap(t *testing.T) {
	e := newEnv(t)
	k := DefaultKeyMap()
	k.Submit = key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "send"))
	k.Cancel = key.NewBinding(key.WithKeys("ctrl+g"), key.WithHelp("ctrl+g", "stop"))
	m := e.composer(withKeyMap(k))
	m = typeText(m, "hello")
	f := footerOf(m)
	if !strings.Contains(f, "ctrl+s send") || strings.Contains(f, "enter send") {
		t.Fatalf("footer %q", f)
	}
	m, out := press(m, enter)
	if len(out) != 0 || m.Preparing() || m.Canonical() != "hello" {
		t.Fatalf("enter did something: %v %q", out, m.Canonical())
	}
	block := make(chan struct{})
	defer close(block)
	m.prepare = func(ctx context.Context, _ string) (sessionref.PreparedText, error) {
		<-block
		return sessionref.PreparedText{}, ctx.Err()
	}
	m, _ = m.Update(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	if !m.Preparing() {
		t.Fatal("ctrl+s did not send")
	}
	if f := footerOf(m); !strings.Contains(f, "ctrl+g stop") || strings.Contains(f, "esc") {
		t.Fatalf("preparing footer %q", f)
	}
	// With the picker open the hints are its own pick and close keys.
	m2 := typeText(e.composer(), "@pars")
	if f := footerOf(m2); !strings.Contains(f, "tab mention") || !strings.Contains(f, "esc close") || strings.Contains(f, "enter send") {
		t.Fatalf("picker open: %q", f)
	}
	// Unbound (no keys): no hint at all.
	k.InsertNewline = key.NewBinding()
	m = e.composer(withKeyMap(k))
	if f := footerOf(m); strings.Contains(f, "newline") {
		t.Fatalf("unbound newline shown: %q", f)
	}
	m.SetKeyMap(DefaultKeyMap())
	if f := footerOf(m); !strings.Contains(f, "enter send") || !strings.Contains(f, "shift+enter newline") {
		t.Fatalf("SetKeyMap: %q", f)
	}
}

// TestKeyMapEnabledByState: KeyMap reports the bindings that act now.
func TestKeyMapEnabledByState(t *testing.T) {
	e := newEnv(t)
	m := e.composer(withMaxLines(2))
	k := m.KeyMap()
	if !k.Submit.Enabled() || k.Cancel.Enabled() || k.PageDown.Enabled() {
		t.Fatalf("idle: submit %v cancel %v pgdn %v", k.Submit.Enabled(), k.Cancel.Enabled(), k.PageDown.Enabled())
	}
	m.SetValue("one\ntwo\nthree")
	if !m.KeyMap().PageUp.Enabled() {
		t.Fatal("a tall draft has no page keys")
	}
	m = typeText(m, " @")
	if !m.Picker().IsOpen() || m.KeyMap().Submit.Enabled() {
		t.Fatal("submit enabled while the picker is open")
	}
	m.Blur()
	for _, b := range m.KeyMap().FullHelp() {
		for _, b := range b {
			if b.Enabled() {
				t.Fatalf("blurred composer has %v enabled", b.Keys())
			}
		}
	}
}

// TestEnterAndTabNeverSendWhileThePickerIsOpen: with nothing to pick,
// Enter and Tab leave the draft alone and the footer says why, from the
// picker's own status.
func TestEnterAndTabNeverSendWhileThePickerIsOpen(t *testing.T) {
	e := newEnv(t)
	m := typeText(e.composer(), "see @zzzq")
	if !m.Picker().IsOpen() || m.Picker().Pickable() {
		t.Fatal("setup")
	}
	for _, k := range []tea.KeyPressMsg{enter, tab} {
		var out []tea.Msg
		m, out = press(m, k)
		if len(out) != 0 || m.Preparing() || m.Canonical() != "see @zzzq" {
			t.Fatalf("%v: out %v, draft %q", k, out, m.Canonical())
		}
	}
	if f := footerOf(m); !strings.Contains(f, m.Picker().Status()) || !strings.Contains(f, "zzzq") {
		t.Fatalf("footer does not say why: %q (status %q)", f, m.Picker().Status())
	}
	// 3/3 sessions: every row is disabled, and the footer says so.
	m = e.composer()
	m.SetValue(mention(t, "s-parser", "P") + " " + mention(t, "s-logs", "L") + " " + mention(t, "s-cafe", "C") + " ")
	m = typeText(m, "@")
	m, out := press(m, enter)
	if len(out) != 0 || m.Preparing() {
		t.Fatalf("enter sent at 3/3: %v", out)
	}
	if f := footerOf(m); !strings.Contains(f, "3/3") {
		t.Fatalf("footer: %q", f)
	}
}

// TestOverTheLimitSaidAtOnce: a fourth session is flagged as soon as it
// is in the draft, in words (and in the warning style), not on send.
func TestOverTheLimitSaidAtOnce(t *testing.T) {
	e := newEnv(t)
	m := e.composer()
	three := mention(t, "s-parser", "P") + " " + mention(t, "s-logs", "L") + " " + mention(t, "s-cafe", "C") + " "
	m.SetValue(three)
	if m.OverLimit() || strings.Contains(footerOf(m), "over the limit") {
		t.Fatal("3/3 flagged")
	}
	m, _ = step(m, tea.PasteMsg{Content: mention(t, "s-emoji", "E")})
	f := footerOf(m)
	if !m.OverLimit() || !strings.Contains(f, "4/3 sessions: over the limit, remove 1 to send") {
		t.Fatalf("footer %q", f)
	}
	if !strings.Contains(m.View(), m.Styles().Warning.Render("✗ @ 4/3")[:10]) {
		t.Fatal("not in the warning style")
	}
}

// TestMouseRespectsFocusAndThePopup: a blurred composer takes no mouse
// message (no pick, no focus), and with the picker open a click outside
// it closes it and goes no further.
func TestMouseRespectsFocusAndThePopup(t *testing.T) {
	e := newEnv(t)
	m := typeText(e.composer(), "x @")
	r := m.Picker().Rect()
	click := tea.MouseClickMsg{X: r.X + 4, Y: r.Y + 1, Button: tea.MouseLeft}
	blurred := m
	blurred.Blur()
	if blurred.Picker().IsOpen() || blurred.WantsMouse(click) {
		t.Fatal("a blurred composer keeps its picker or wants the mouse")
	}
	blurred, _ = step(blurred, click)
	blurred, _ = step(blurred, tea.MouseClickMsg{X: 3, Y: 20, Button: tea.MouseLeft})
	if blurred.Focused() || len(blurred.Tokens()) != 0 || blurred.cursor != 3 {
		t.Fatalf("blurred: focused %v tokens %d cursor %d", blurred.Focused(), len(blurred.Tokens()), blurred.cursor)
	}
	if cmd := blurred.Focus(); cmd != nil || !blurred.Focused() {
		t.Fatal("Focus")
	}

	outside := tea.MouseClickMsg{X: 60, Y: 2, Button: tea.MouseLeft}
	if !m.WantsMouse(outside) {
		t.Fatal("a click outside the open popup is not the composer's")
	}
	m, _ = step(m, outside)
	if m.Picker().IsOpen() || m.cursor != 3 || m.Canonical() != "x @" {
		t.Fatalf("outside click: open %v cursor %d", m.Picker().IsOpen(), m.cursor)
	}
	if m.WantsMouse(outside) {
		t.Fatal("with the popup closed a click far from the draft is not the composer's")
	}
}

// TestCursorIsReal: with the virtual cursor off, View draws no reversed
// cell and Cursor says where the terminal's cursor goes, relative to
// View.
func TestCursorIsReal(t *testing.T) {
	e := newEnv(t)
	m := e.composer()
	if m.Cursor() != nil {
		t.Fatal("virtual cursor on: no real cursor")
	}
	m.SetVirtualCursor(false)
	m.SetWidth(12)
	m = typeText(m, "界界界界 ab")
	c := m.Cursor()
	// "› " then the second line "ab" after a wrap: x = 2 + 2, y = 1.
	if c == nil || c.X != 4 || c.Y != 1 {
		t.Fatalf("cursor %+v\n%s", c, ansi.Strip(m.View()))
	}
	if strings.Contains(m.View(), "\x1b[7m") {
		t.Fatal("a reversed cell drawn with the real cursor")
	}
	m.Blur()
	if m.Cursor() != nil {
		t.Fatal("blurred: cursor")
	}
}

// TestPickerReachableAfterNew: the host reaches the embedded picker's
// bounds, keys and styles through the composer, and can close it.
func TestPickerReachableAfterNew(t *testing.T) {
	e := newEnv(t)
	m := e.composer()
	m.Picker().SetBounds(picker.Rect{X: 10, Y: 2, W: 40, H: 18})
	pk := picker.DefaultKeyMap()
	pk.Dismiss = key.NewBinding(key.WithKeys("ctrl+q"), key.WithHelp("ctrl+q", "close"))
	m.Picker().SetKeyMap(pk)
	m.Picker().SetStyles(picker.PlainStyles())
	m = typeText(m, "@")
	r := m.Picker().Rect()
	if r.X < 10 || r.X+r.W > 50 || r.Y < 2 || r.Y+r.H > 20 || r.Empty() {
		t.Fatalf("popup %+v outside its bounds", r)
	}
	if strings.Contains(m.Picker().View(), "\x1b[38") {
		t.Fatal("plain picker styles not applied")
	}
	m, _ = press(m, esc)
	if !m.Picker().IsOpen() {
		t.Fatal("esc still closes after rebinding")
	}
	m, _ = press(m, tea.KeyPressMsg{Code: 'q', Mod: tea.ModCtrl})
	if m.Picker().IsOpen() {
		t.Fatal("the picker's keys were not set")
	}
	m = typeText(m, "x")
	m, _ = press(m, backspace)
	if !m.Picker().IsOpen() {
		t.Fatal("setup: reopen")
	}
	m.ClosePicker()
	if m.Picker().IsOpen() || m.Canonical() != "@" {
		t.Fatal("ClosePicker")
	}
}

// TestPlacesThePopupWithoutAWindowSize: before any tea.WindowSizeMsg the
// popup stays in the composer's columns above it, not in a guessed 80×24
// screen.
func TestPlacesThePopupWithoutAWindowSize(t *testing.T) {
	e := newEnv(t)
	p := picker.New(picker.ResolverSource(e.resolver, 20))
	p.SetTarget(e.target)
	m := newWith(p, nil, withWidth(50))
	m.SetOrigin(30, 40)
	m = typeText(m, "@")
	r := m.Picker().Rect()
	if r.Empty() || r.X < 30 || r.X+r.W > 80 || r.Y+r.H > 40 {
		t.Fatalf("popup %+v", r)
	}
}

// TestStyles: one way in and out, and PlainStyles carry no colour.
func TestStyles(t *testing.T) {
	e := newEnv(t)
	m := e.composer(withStyles(PlainStyles()))
	m.SetValue("see " + mention(t, "s-cafe", "Café"))
	if v := m.View(); strings.Contains(v, "38;") || strings.Contains(v, "48;") {
		t.Fatalf("colour in plain styles: %q", v)
	}
	if _, none := m.Styles().Token.GetForeground().(lipgloss.NoColor); !none {
		t.Fatal("PlainStyles give the token a foreground colour")
	}
	m.SetStyles(DefaultStyles(false))
	// An unset colour is lipgloss.NoColor, never nil.
	if _, none := m.Styles().Token.GetForeground().(lipgloss.NoColor); none || !strings.Contains(m.View(), "38;") {
		t.Fatal("SetStyles")
	}
}
