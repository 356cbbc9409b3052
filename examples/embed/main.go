// Command embed is the smallest chat client that embeds the mention
// picker, the composer and the reference card; the README shows it.
package main

import (
	"fmt"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dshkit/mentions/card"
	"github.com/dshkit/mentions/composer"
	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

// BEGIN README
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
	p := picker.New(picker.ResolverSource(resolver, current, 20))
	c := composer.New(p, composer.ResolverPreparer(resolver, current))
	return chat{input: c, width: 80, height: 24}, nil
}

func (m chat) Init() tea.Cmd { return nil }

func (m chat) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.input.SetWidth(msg.Width)
	case tea.KeyPressMsg:
		if msg.String() == "ctrl+c" {
			return m, tea.Quit
		}
	case composer.SubmittedMsg:
		// Send msg.Context (the untrusted snapshot), then msg.Content.
		if msg.Context != nil {
			m.sent = append(m.sent, card.New(msg.Context, card.WithWidth(m.width)).View())
		}
		m.sent = append(m.sent, "You: "+msg.Text)
		return m, nil
	}
	m.input.SetOrigin(0, m.height-m.input.Height())
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return m, cmd
}

func (m chat) View() tea.View {
	history := lipgloss.PlaceVertical(m.height-m.input.Height(), lipgloss.Bottom, strings.Join(m.sent, "\n"))
	layers := []*lipgloss.Layer{lipgloss.NewLayer(history + "\n" + m.input.View())}
	if p := m.input.Picker(); p.IsOpen() {
		r := p.Rect()
		layers = append(layers, lipgloss.NewLayer(p.View()).X(r.X).Y(r.Y).Z(1))
	}
	v := tea.NewView(lipgloss.NewCompositor(layers...).Render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
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
