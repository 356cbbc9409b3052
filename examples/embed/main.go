// Command embed is a small chat client that embeds the mention picker,
// the composer and the reference card the way a host with its own layout
// would: a sidebar beside a chat pane, the popup bounded to the pane, its
// own colours, ctrl+s to send and the terminal's real cursor. The README
// shows it.
package main

import (
	"fmt"
	"os"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dshkit/mentions/card"
	"github.com/dshkit/mentions/composer"
	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

// BEGIN README
const sidebarWidth = 22

// The host's own colours, applied over the components' default styles.
var (
	brand = lipgloss.Color("#D7875F")
	muted = lipgloss.Color("#767676")
)

type chat struct {
	input  composer.Model
	sent   []string // rendered cards and messages
	width  int
	height int
}

func newChat(store sessionref.SessionQuery, current sessionref.Target) (chat, error) {
	resolver, err := sessionref.NewResolver(store, sessionref.Config{})
	if err != nil {
		return chat{}, err
	}
	ps := picker.DefaultStyles(true)
	ps.Frame = ps.Frame.BorderForeground(brand)
	ps.Marker = ps.Marker.Foreground(brand)
	p := picker.New(picker.ResolverSource(resolver, 20),
		picker.WithPreview(picker.ResolverPreviewer(resolver))) // what the model would get
	p.SetStyles(ps)
	p.SetTarget(current) // the session being written in

	keys := composer.DefaultKeyMap()
	keys.Submit = key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "send"))
	keys.InsertNewline = key.NewBinding(key.WithKeys("enter", "shift+enter"), key.WithHelp("enter", "newline"))
	cs := composer.DefaultStyles(true)
	cs.Prompt = cs.Prompt.Foreground(brand)
	c := composer.New(p, composer.ResolverPreparer(resolver))
	c.SetKeyMap(keys)
	c.SetStyles(cs)
	c.SetVirtualCursor(false) // the host places the terminal's cursor
	return chat{input: c, width: 80, height: 24}, nil
}

func (m chat) Init() tea.Cmd { return nil }

// layout tells the composer its pane: where it starts and what bounds the popup.
func (m *chat) layout() {
	paneW := max(m.width-sidebarWidth, 10)
	m.input.SetWidth(paneW)
	m.input.SetOrigin(sidebarWidth, m.height-m.input.Height())
	m.input.Picker().SetBounds(picker.Rect{X: sidebarWidth, Y: 0, W: paneW, H: m.height})
}

func (m chat) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.KeyPressMsg:
		if msg.String() == "ctrl+c" {
			return m, tea.Quit
		}
	case composer.SubmittedMsg:
		// Send msg.Context (the untrusted snapshot) first, then msg.Content.
		if msg.Context != nil {
			c := card.New(msg.Context)
			c.SetWidth(m.width - sidebarWidth)
			m.sent = append(m.sent, c.View())
		}
		m.sent = append(m.sent, "You: "+msg.Text)
		return m, nil
	}
	m.layout()
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	m.layout() // the draft may have grown
	return m, cmd
}

func (m chat) View() tea.View {
	sidebar := lipgloss.NewStyle().Width(sidebarWidth).Height(m.height).Foreground(muted).
		Render("sessions\n\n• current\n\nctrl+s send\nenter newline\n@ mention\nctrl+c quit")
	paneH := m.height - m.input.Height()
	history := lipgloss.NewStyle().Width(m.width - sidebarWidth).Height(paneH).AlignVertical(lipgloss.Bottom).
		MaxHeight(paneH).Render(strings.Join(m.sent, "\n"))
	pane := lipgloss.JoinVertical(lipgloss.Left, history, m.input.View())
	layers := []*lipgloss.Layer{lipgloss.NewLayer(lipgloss.JoinHorizontal(lipgloss.Top, sidebar, pane))}
	if popup := m.input.Picker().Layer(); popup != nil {
		layers = append(layers, popup)
	}
	v := tea.NewView(lipgloss.NewCompositor(layers...).Render())
	if c := m.input.Cursor(); c != nil {
		c.X += sidebarWidth
		c.Y += m.height - m.input.Height()
		v.Cursor = c
	}
	v.AltScreen = true
	v.MouseMode = tea.MouseModeAllMotion // hovering a picker row previews it
	return v
}

// END README

func main() {
	store := fakestore.New()
	store.Seed(fakestore.SeedOptions{Count: 100, Seed: 1})
	m, err := newChat(store, sessionref.Target{ID: "current"})
	if err == nil {
		_, err = tea.NewProgram(m).Run()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
