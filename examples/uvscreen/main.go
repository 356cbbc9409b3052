// Command uvscreen is a host that draws its own screen on an ultraviolet
// screen (github.com/charmbracelet/ultraviolet), as some Bubble Tea v2
// clients do instead of joining strings, and shows where the mention
// popup goes on it.
//
//	go run ./examples/uvscreen
//
// Keys: @ to mention a session, Tab or Enter to pick, Enter to show the
// canonical text, ctrl+c to quit.
//
// The popup is drawn at picker.Model.Rect. A lipgloss.Layer carries an X
// and a Y, but Layer.Draw draws its content at the area it is given and
// ignores them: picker.Model.Layer().Draw(scr, scr.Bounds()) puts the
// popup in the top-left corner. Either draw the layer (or View) into the
// popup's Rect, as drawPopup does, or hand the layers to
// lipgloss.NewCompositor, whose Draw places each at its X and Y.
package main

import (
	"fmt"
	"os"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/mentiontextarea"
	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

type host struct {
	input  textarea.Model
	ed     mentiontextarea.Model
	status string
	width  int
	height int
}

func newHost(store sessionref.SessionQuery, more ...picker.Option) (host, error) {
	r, err := sessionref.NewResolver(store, sessionref.Config{})
	if err != nil {
		return host{}, err
	}
	p := picker.New(picker.ResolverSource(r, 20), more...)
	p.SetTarget(sessionref.Target{ID: "uvscreen"})
	ta := textarea.New()
	ta.Placeholder = "@ mentions a session"
	ta.ShowLineNumbers = false
	ta.SetHeight(2)
	ta.SetVirtualCursor(false) // the terminal's own cursor, placed in View
	ta.Focus()
	return host{input: ta, ed: mentiontextarea.New(p), width: 80, height: 24}, nil
}

func (h host) Init() tea.Cmd { return nil }

func (h host) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		h.width, h.height = msg.Width, msg.Height
		h.input.SetWidth(msg.Width)
	case tea.KeyPressMsg:
		if h.ed.WantsKey(h.input, msg) {
			return h, h.ed.Update(&h.input, msg)
		}
		switch msg.String() {
		case "ctrl+c":
			return h, tea.Quit
		case "enter":
			h.status = sessionref.SafeLine(h.ed.Canonical(h.input))
			return h, nil
		}
	}
	h.ed.SetOrigin(0, h.inputTop())
	return h, h.ed.Update(&h.input, msg)
}

// inputTop is the textarea's first row: the bottom of the screen.
func (h host) inputTop() int { return max(h.height-h.input.Height(), 0) }

// draw draws the whole screen on scr: the host's own parts, then the
// popup over them.
func (h host) draw(scr uv.Screen) {
	header := lipgloss.NewStyle().Bold(true).Render("uvscreen") + "  " + h.status
	uv.NewStyledString(ansi.Truncate(header, h.width, "…")).Draw(scr, uv.Rect(0, 0, h.width, 1))
	uv.NewStyledString(h.input.View()).Draw(scr, uv.Rect(0, h.inputTop(), h.width, h.input.Height()))
	drawPopup(scr, h.ed.Picker())
}

// drawPopup draws the picker's popup on scr where it belongs, over what is
// there. Not p.Layer().Draw(scr, scr.Bounds()): that draws at the
// top-left corner.
func drawPopup(scr uv.Screen, p *picker.Model) {
	l := p.Layer()
	if l == nil {
		return
	}
	r := p.Rect()
	l.Draw(scr, uv.Rect(r.X, r.Y, r.W, r.H))
}

func (h host) View() tea.View {
	scr := uv.NewScreenBuffer(h.width, h.height)
	scr.Method = ansi.GraphemeWidth // as lipgloss measures
	h.draw(scr)
	v := tea.NewView(scr.Render())
	if cur := h.input.Cursor(); cur != nil {
		cur.Y += h.inputTop()
		v.Cursor = cur
	}
	v.AltScreen = true
	return v
}

func main() {
	store := fakestore.New()
	store.Seed(fakestore.SeedOptions{Count: 60, Seed: 1})
	h, err := newHost(store)
	if err == nil {
		_, err = tea.NewProgram(h).Run()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "uvscreen example:", err)
		os.Exit(1)
	}
}
