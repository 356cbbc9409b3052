package card

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/sessionref"
)

func ptr[T any](v T) *T { return &v }

// prepared builds two sessions in a fakestore and prepares a message that
// references both, with a budget small enough to truncate one.
func prepared(t *testing.T) (*fakestore.Store, *sessionref.Message) {
	t.Helper()
	s := fakestore.New(fakestore.WithClock(func() time.Time { return fakestore.DefaultNow }))
	cwd := "/home/dev/src/mentions"
	s.Create("3f2a9c1e-parser", &cwd, fakestore.DefaultNow)
	s.SetTitle("3f2a9c1e-parser", "Fix the session parser")
	u, _ := s.AppendUser("3f2a9c1e-parser", "Why does the **parser** fail on empty input?")
	a, _ := s.AppendAssistant("3f2a9c1e-parser", "Because `len(x)-1` underflows. Fixed in `parser.go`:\n\n- guard the empty case\n- add a test")
	s.Compact("3f2a9c1e-parser", u, a, "We fixed the empty-input crash in the parser.")
	s.AppendUser("3f2a9c1e-parser", "And the trailing newline case?")
	s.AppendAssistant("3f2a9c1e-parser", "Also handled; see `TestTrailingNewline`.")
	s.Create("b7d4e2a0-logs", nil, fakestore.DefaultNow)
	s.SetTitle("b7d4e2a0-logs", "重构日志模块")
	for i := range 12 {
		s.AppendUser("b7d4e2a0-logs", fmt.Sprintf("第 %d 步：%s", i, strings.Repeat("日志", 40)))
	}
	r, _ := sessionref.NewResolver(s, sessionref.Config{MaxReferenceBytes: 1200})
	p, err := r.Prepare(context.Background(), sessionref.Target{ID: "current"}, nil,
		[]sessionref.Reference{{SessionID: "3f2a9c1e-parser", Label: ptr("Fix the session parser")}, {SessionID: "b7d4e2a0-logs", Label: ptr("重构日志模块")}})
	if err != nil {
		t.Fatal(err)
	}
	return s, p.Context
}

func TestCardFromDurableMessageOnly(t *testing.T) {
	store, msg := prepared(t)
	ev, err := msg.Event()
	if err != nil {
		t.Fatal(err)
	}
	c := FromEvent(ev)
	c.SetStyles(PlainStyles())
	c.SetWidth(100)
	before := ansi.Strip(c.View())
	c.Toggle()
	c.Render()
	expandedBefore := ansi.Strip(c.View())
	// Mutate, compact and delete the sources: the card cannot change.
	store.AppendUser("3f2a9c1e-parser", "LATER TEXT")
	store.CompactAll("3f2a9c1e-parser", "everything is gone")
	store.Delete("b7d4e2a0-logs")
	again := FromEvent(ev)
	again.SetStyles(PlainStyles())
	again.SetWidth(100)
	if got := ansi.Strip(again.View()); got != before {
		t.Fatalf("collapsed card changed:\n%s\n%s", before, got)
	}
	again.Toggle()
	again.Render()
	if got := ansi.Strip(again.View()); got != expandedBefore || strings.Contains(got, "LATER") {
		t.Fatal("expanded card changed")
	}
}

func TestCollapsedSays(t *testing.T) {
	_, msg := prepared(t)
	c := New(msg)
	c.SetStyles(PlainStyles())
	c.SetWidth(120)
	v := ansi.Strip(c.View())
	// At 120 columns the ids are whole; narrower, short forms.
	for _, want := range []string{"▸ Referenced 2 sessions", "@Fix the session parser", "@重构日志模块", "3f2a9c1e-parser 3/3 kept", "b7d4e2a0-logs 3/12 kept", "compacted", "truncated", "omitted", "KiB"} {
		if !strings.Contains(v, want) {
			t.Errorf("collapsed card lacks %q:\n%s", want, v)
		}
	}
	c.SetWidth(70)
	if v := ansi.Strip(c.View()); !strings.Contains(v, "3f2a9…parser 3/3 kept") || !strings.Contains(v, "b7d4e…0-logs 3/12 kept") {
		t.Errorf("at 70 columns the ids are not short:\n%s", v)
	}
	if c.Height() != 2 {
		t.Fatalf("collapsed height %d", c.Height())
	}
}

func TestToggleByKeyAndClick(t *testing.T) {
	_, msg := prepared(t)
	c := New(msg)
	c.SetStyles(PlainStyles())
	c.SetWidth(80)
	c.SetMaxHeight(10)
	c, cmd := c.Update(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	// Until the render arrives, a placeholder under each session's heading.
	if v := ansi.Strip(c.View()); !c.Rendering() || !strings.Contains(v, "▾ Referenced") || !strings.Contains(v, "rendering the conversation…") || strings.Contains(v, "You:") {
		t.Fatalf("expanded, before the render:\n%s", v)
	}
	c, toggled := settle(c, cmd)
	if !c.Expanded() || len(toggled) != 1 || !toggled[0].Expanded || c.Rendering() {
		t.Fatal("ctrl+o did not expand")
	}
	v := ansi.Strip(c.View())
	if !strings.Contains(v, "▾ Referenced") || !strings.Contains(v, "You:") || !strings.Contains(v, "scroll") {
		t.Fatalf("expanded view:\n%s", v)
	}
	if h := c.Height(); h > 10 {
		t.Fatalf("expanded height %d over the cap", h)
	}
	top := c.vp.YOffset()
	c, _ = c.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if c.vp.YOffset() <= top {
		t.Fatal("wheel did not scroll")
	}
	c, _ = c.Update(tea.MouseClickMsg{Button: tea.MouseLeft})
	if c.Expanded() {
		t.Fatal("click did not collapse")
	}
}

func TestMalformedContext(t *testing.T) {
	ev := sessionref.Event{Type: sessionref.EventUserMessage, Source: sessionref.Source{Kind: sessionref.SourceSessionReference},
		Content: []sessionref.Block{sessionref.TextBlock("not a prompt \x1b[2J")}}
	c := FromEvent(ev)
	c.SetStyles(PlainStyles())
	v := ansi.Strip(c.View())
	if !strings.Contains(v, "could not be read") || strings.Contains(v, "\x1b") {
		t.Fatalf("malformed: %q", v)
	}
}
