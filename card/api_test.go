package card

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/sessionref"
)

var _ help.KeyMap = KeyMap{}

func longCard() Model {
	var turns []string
	for i := range 30 {
		turns = append(turns, strings.Repeat("word ", 10+i))
	}
	c := New(messageOf(snapshot("0f8e2c4a-1b2c-4d3e-8f90-123456789abc", "long", turns...)))
	c.SetStyles(PlainStyles())
	return c
}

func TestKeysEnabledByState(t *testing.T) {
	c := longCard()
	c.SetMaxHeight(10)
	k := c.KeyMap()
	if !k.Toggle.Enabled() || k.ScrollUp.Enabled() || k.ScrollDown.Enabled() {
		t.Fatal("collapsed: only Toggle should be enabled")
	}
	c.Toggle()
	c.Render()
	if k := c.KeyMap(); !k.ScrollUp.Enabled() || !k.ScrollDown.Enabled() {
		t.Fatal("expanded and taller than its height: scrolling should be enabled")
	}
	c.SetMaxHeight(1000)
	if k := c.KeyMap(); k.ScrollUp.Enabled() || k.ScrollDown.Enabled() || c.Scrollable() {
		t.Fatal("expanded but fits: scrolling should be disabled")
	}
	bad := FromEvent(sessionref.Event{Type: sessionref.EventUserMessage, Source: sessionref.Source{Kind: sessionref.SourceSessionReference}})
	if bad.KeyMap().Toggle.Enabled() {
		t.Fatal("a card that could not be read cannot expand")
	}
	bad, _ = bad.Update(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	if bad.Expanded() {
		t.Fatal("malformed card expanded")
	}
	// Help shows only what is enabled.
	h := help.New()
	c.SetMaxHeight(10)
	if v := h.ShortHelpView(c.KeyMap().ShortHelp()); !strings.Contains(v, "shift+↓") {
		t.Fatalf("help while scrollable: %q", v)
	}
	c.Toggle()
	c.Render()
	if v := h.ShortHelpView(c.KeyMap().ShortHelp()); strings.Contains(v, "shift+↓") || !strings.Contains(v, "ctrl+o") {
		t.Fatalf("help while collapsed: %q", v)
	}
}

func TestUpdateHandlesItsKeys(t *testing.T) {
	keys := DefaultKeyMap()
	keys.Toggle = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open"))
	keys.ScrollDown = key.NewBinding(key.WithKeys("j"), key.WithHelp("j", "down"))
	keys.ScrollUp = key.NewBinding(key.WithKeys("k"), key.WithHelp("k", "up"))
	c := longCard()
	c.SetMaxHeight(8)
	c.SetKeyMap(keys)
	c, _ = c.Update(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	if c.Expanded() {
		t.Fatal("the default toggle still works after SetKeyMap")
	}
	c, cmd := c.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	c, toggled := settle(c, cmd)
	if !c.Expanded() || len(toggled) != 1 || !toggled[0].Expanded {
		t.Fatal("rebound toggle did not expand")
	}
	if v := ansi.Strip(c.View()); !strings.Contains(v, "k/j or wheel to scroll") {
		t.Fatalf("scroll hint does not follow the KeyMap:\n%s", v)
	}
	top := c.vp.YOffset()
	c, _ = c.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
	if c.vp.YOffset() != top+1 {
		t.Fatal("j did not scroll down")
	}
	c, _ = c.Update(tea.KeyPressMsg{Code: 'k', Text: "k"})
	if c.vp.YOffset() != top {
		t.Fatal("k did not scroll up")
	}
}

// TestSetMaxHeight: an expanded card never takes more lines than its
// height cap, header and scroll line included; MaxHeight reports the cap
// (at least 3) and Height says what View draws.
func TestSetMaxHeight(t *testing.T) {
	c := longCard()
	if c.MaxHeight() != DefaultMaxHeight {
		t.Fatalf("default cap %d, want %d", c.MaxHeight(), DefaultMaxHeight)
	}
	c.SetWidth(60)
	c.Toggle()
	c.Render()
	for _, h := range []int{1, 3, 5, 12, 40, 1000} {
		c.SetMaxHeight(h)
		if c.MaxHeight() != max(h, minHeight) {
			t.Fatalf("SetMaxHeight(%d): MaxHeight %d", h, c.MaxHeight())
		}
		v := c.View()
		requireFits(t, v, 60, c.Height())
		if c.Height() > max(h, minHeight) {
			t.Fatalf("SetMaxHeight(%d): %d lines", h, c.Height())
		}
	}
	c.Toggle()
	c.Render()
	if c.Height() != 2 {
		t.Fatalf("collapsed: %d lines", c.Height())
	}
}

func TestHitTest(t *testing.T) {
	// Three cards in a transcript: lines 2-3, 10-17, 30-31.
	spans := []Span{{Top: 2, Height: 2}, {Top: 10, Height: 8}, {Top: 30, Height: 2}}
	for _, c := range []struct {
		top, offset, y int
		index, line    int
		ok             bool
	}{
		{top: 1, offset: 0, y: 3, index: 0, line: 0, ok: true},  // row 2
		{top: 1, offset: 0, y: 4, index: 0, line: 1, ok: true},  // row 3
		{top: 1, offset: 0, y: 5, ok: false},                    // row 4: between cards
		{top: 1, offset: 9, y: 1, ok: false},                    // row 9
		{top: 1, offset: 9, y: 2, index: 1, line: 0, ok: true},  // row 10
		{top: 1, offset: 9, y: 9, index: 1, line: 7, ok: true},  // row 17
		{top: 1, offset: 9, y: 10, ok: false},                   // row 18
		{top: 1, offset: 25, y: 7, index: 2, line: 1, ok: true}, // row 31
		{top: 1, offset: 25, y: 8, ok: false},                   // past the end
		{top: 5, offset: 0, y: 4, ok: false},                    // above the transcript
	} {
		i, line, ok := HitTest(spans, c.top, c.offset, c.y)
		if ok != c.ok || ok && (i != c.index || line != c.line) {
			t.Errorf("HitTest(top %d, offset %d, y %d) = %d, %d, %v; want %d, %d, %v", c.top, c.offset, c.y, i, line, ok, c.index, c.line, c.ok)
		}
	}
	if _, _, ok := HitTest(nil, 0, 0, 0); ok {
		t.Fatal("hit with no cards")
	}
}

// TestTitlesBesideLabels is the regression for a pasted mention's label
// replacing the session's real title: the card shows both when they
// differ, collapsed and expanded, and only the label when they agree or
// the title is unknown.
func TestTitlesBesideLabels(t *testing.T) {
	msg := messageOf(snapshot("s1", "my pasted label", "hi"), snapshot("s2", "Same title", "hi"), snapshot("s3", "gone", "hi"))
	titles := map[string]string{"s1": "The real title", "s2": "Same title"}
	c := New(msg)
	c.SetStyles(PlainStyles())
	c.SetWidth(160)
	c.SetMaxHeight(100)
	if v := ansi.Strip(c.View()); strings.Contains(v, "The real title") {
		t.Fatal("a title with no TitleFunc")
	}
	if got := c.SessionIDs(); strings.Join(got, ",") != "s1,s2,s3" {
		t.Fatalf("SessionIDs = %v", got)
	}
	c.SetTitles(func(id string) (string, bool) { t, ok := titles[id]; return t, ok })
	v := ansi.Strip(c.View())
	if !strings.Contains(v, "@my pasted label (title: The real title)") {
		t.Fatalf("collapsed card hides the real title:\n%s", v)
	}
	if strings.Contains(v, "(title: Same title)") || strings.Contains(v, "@gone (") {
		t.Fatalf("title shown where it says nothing new:\n%s", v)
	}
	c.Toggle()
	c.Render()
	v = ansi.Strip(c.View())
	if strings.Count(v, "(title: The real title)") != 2 {
		t.Fatalf("expanded card should show the title in the header and above the conversation:\n%s", v)
	}
	// A title the label was made from (made safe, cut) says nothing new.
	titles["s2"] = "Same \x1b[5mtitle"
	c.SetTitles(func(id string) (string, bool) { t, ok := titles[id]; return t, ok })
	if v := ansi.Strip(c.View()); strings.Contains(v, "Same \\x1B") {
		t.Fatalf("a title shown beside the label made from it:\n%s", v)
	}
	// A title that changes later reaches an expanded card.
	titles["s1"] = "Renamed \x1b[2J"
	c.SetTitles(func(id string) (string, bool) { t, ok := titles[id]; return t, ok })
	v = c.View()
	if why := terminalSafe(v); why != "" {
		t.Fatal(why)
	}
	if strings.Count(ansi.Strip(v), `(title: Renamed \x1B[2J)`) != 2 {
		t.Fatalf("renamed title not shown:\n%s", ansi.Strip(v))
	}
}

// TestSetTitlesKeepsRenderAndScroll: titles arriving (or changing) after
// the card was expanded and scrolled neither re-render the Markdown nor
// move the scroll position.
func TestSetTitlesKeepsRenderAndScroll(t *testing.T) {
	c := longCard()
	c.SetMaxHeight(10)
	c.Toggle()
	c.Render()
	c, _ = c.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	off, first := c.vp.YOffset(), &c.turns[0]
	if off == 0 {
		t.Fatal("wheel did not scroll")
	}
	c.SetTitles(func(string) (string, bool) { return "A new title", true })
	if c.vp.YOffset() != off {
		t.Fatalf("scroll moved from %d to %d", off, c.vp.YOffset())
	}
	if &c.turns[0] != first {
		t.Fatal("Markdown rendered again for a title")
	}
	if !strings.Contains(ansi.Strip(c.View()), "(title: A new title)") {
		t.Fatal("new title not shown")
	}
	c.SetWidth(50)
	c.Render()
	if &c.turns[0] == first {
		t.Fatal("Markdown not rendered again for a new width")
	}
}

// TestGettersReportSetters: every setter's value reads back through its
// getter, and a new card starts from the documented defaults.
func TestGettersReportSetters(t *testing.T) {
	c := New(messageOf(snapshot("s-1", "Fix", "hi")))
	if c.Width() != 80 || c.Titles() != nil || c.Styles().Frame.GetHorizontalFrameSize() != DefaultStyles(true).Frame.GetHorizontalFrameSize() {
		t.Fatalf("defaults: width %d, titles set %v", c.Width(), c.Titles() != nil)
	}
	c.SetWidth(3)
	if c.Width() != minWidth {
		t.Fatalf("SetWidth(3): Width %d, want %d", c.Width(), minWidth)
	}
	c.SetStyles(PlainStyles().Unframed())
	if c.Styles().Frame.GetHorizontalFrameSize() != 0 {
		t.Fatal("Styles does not report the unframed styles just set")
	}
	c.SetTitles(func(id string) (string, bool) { return "title of " + id, true })
	if got, ok := c.Titles()("s-1"); !ok || got != "title of s-1" {
		t.Fatalf("Titles()(s-1) = %q, %v", got, ok)
	}
	c.SetTitles(nil)
	if c.Titles() != nil {
		t.Fatal("SetTitles(nil) left a TitleFunc")
	}
	keys := DefaultKeyMap()
	keys.Toggle.SetKeys("x")
	c.SetKeyMap(keys)
	if got := c.KeyMap().Toggle.Keys(); len(got) != 1 || got[0] != "x" {
		t.Fatalf("KeyMap().Toggle keys %v", got)
	}
}
