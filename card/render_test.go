package card

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestRenderOffUpdate: expanding, resizing and restyling an expanded
// card render no Markdown in Update or the setters: a placeholder shows
// until the render's message arrives; a width seen before comes back
// from the card's kept renders at once; a render for another card, or
// for styles the card no longer has, is dropped.
func TestRenderOffUpdate(t *testing.T) {
	c := longCard()
	c.SetMaxHeight(200)
	other := longCard()
	other.SetMaxHeight(200)
	c, cmd := c.Update(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	if !c.Rendering() || c.RenderCmd() == nil {
		t.Fatal("expanded: not waiting for a render")
	}
	other.Toggle()
	c, _ = c.Update(other.RenderCmd()()) // another card's render
	if !c.Rendering() {
		t.Fatal("a card took another card's render")
	}
	c, _ = settle(c, cmd)
	if c.Rendering() || c.RenderCmd() != nil || !strings.Contains(ansi.Strip(c.View()), "You:") {
		t.Fatalf("the render did not show:\n%s", ansi.Strip(c.View()))
	}
	at80 := ansi.Strip(c.View())

	c.SetWidth(50)
	if !c.Rendering() || !strings.Contains(ansi.Strip(c.View()), "rendering the conversation…") {
		t.Fatal("a new width rendered in SetWidth, or shows the old render")
	}
	requireFits(t, c.View(), 50, c.Height())
	c, _ = c.Update(c.RenderCmd()())
	requireFits(t, c.View(), 50, c.Height())
	c.SetWidth(80) // seen before: no render needed
	if c.Rendering() || ansi.Strip(c.View()) != at80 {
		t.Fatal("back at a width seen before, the card waits for a render")
	}

	// A render for the old styles is dropped; the new one shows.
	old := c
	old.SetWidth(60)
	stale := old.RenderCmd()()
	c.SetWidth(60)
	c.SetStyles(DefaultStyles(false))
	c, _ = c.Update(stale)
	if !c.Rendering() {
		t.Fatal("a render of the old styles was shown")
	}
	c, _ = c.Update(c.RenderCmd()())
	if c.Rendering() {
		t.Fatal("the new styles' render was not shown")
	}
}

// TestExpandUpdateRendersNothing: the Update that expands a card of
// three 64 KiB snapshots renders no Markdown (its cost is in
// BenchmarkExpandThree/update); the render is its Cmd's.
func TestExpandUpdateRendersNothing(t *testing.T) {
	c := New(messageOf(bigSnapshots()...))
	c.SetWidth(80)
	c, cmd := c.Update(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	if c.turns != nil || c.renders != nil || !c.Rendering() || cmd == nil {
		t.Fatal("Update rendered the conversations, or asked for no render")
	}
}
