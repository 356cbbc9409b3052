// Command drawcheck reports whether the bubbletea and lipgloss versions it
// is built with draw a combining mark and wide text as a terminal shows
// them: a Bubble Tea program's output and a lipgloss compositor's, both
// ANSI stripped, must hold the text whole. It exits 1 when either does
// not. scripts/check-deps builds it against the versions the README names.
package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// text is a decomposed accent (e + U+0301), a precomposed one, CJK, a
// flag and a ZWJ sequence, each followed by a letter that must stay in
// its place.
const text = "cafe\u0301 x café x 界面 x 🇯🇵 x 👩‍💻 x"

type model struct{}

func (model) Init() tea.Cmd                         { return tea.Quit }
func (m model) Update(tea.Msg) (tea.Model, tea.Cmd) { return m, nil }
func (model) View() tea.View                        { return tea.NewView(text) }

func main() {
	comp := ansi.Strip(lipgloss.NewCompositor(lipgloss.NewLayer(text)).Render())
	var out bytes.Buffer
	p := tea.NewProgram(model{}, tea.WithOutput(&out), tea.WithInput(nil), tea.WithWindowSize(60, 3),
		tea.WithEnvironment([]string{"TERM=xterm-256color"}))
	if _, err := p.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "drawcheck:", err)
		os.Exit(2)
	}
	drawn := ansi.Strip(out.String())
	ok := true
	for _, c := range []struct{ what, got string }{{"lipgloss compositor", comp}, {"bubbletea program", drawn}} {
		right := strings.Contains(c.got, text)
		ok = ok && right
		fmt.Printf("%s: right=%v %q\n", c.what, right, c.got)
	}
	if !ok {
		os.Exit(1)
	}
}
