// Command textarea is a chat host that owns a plain bubbles textarea, as
// most Go terminal clients do, and adds session mentions to it with the
// mention package: one "@" popup for the host's own files and for
// sessions, mentions shown as "@label" in the textarea, one user message
// per turn in the single-message form, and the card of every sent message
// rebuilt from the stored text alone.
//
//	go run ./examples/textarea
//
// Keys: @ to mention a session or a file, Tab or Enter to pick, Enter to
// send, shift+enter (or ctrl+j) for a newline, ctrl+n for a new session,
// ctrl+c to quit. The mentions glue is in mentions.go; this file is the
// host as it would be without it, plus the calls marked "// mentions".
package main

import (
	"fmt"
	"os"
	"strings"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

type chat struct {
	store   *fakestore.Store
	cwd     string
	current string
	input   textarea.Model
	refs    refs     // mentions
	history []string // the current session's stored user texts
	turns   []string // history as drawn, at width; redrawn when it changes
	status  string
	width   int
	height  int
	made    int
}

// sentMsg is a stored turn: the text that went to the model, or why not
// (and the draft, to give back).
type sentMsg struct {
	text  string
	err   error
	draft string
}

func newChat(store *fakestore.Store, cwd string, more ...picker.Option) (chat, error) {
	ta := textarea.New()
	ta.Placeholder = "Message… (@ mentions a session or a file)"
	ta.ShowLineNumbers = false
	ta.SetHeight(3)
	ta.SetVirtualCursor(false)                               // the terminal's own cursor, placed in View
	ta.KeyMap.InsertNewline.SetKeys("shift+enter", "ctrl+j") // Enter sends
	c := chat{store: store, cwd: cwd, input: ta, width: 80, height: 24}
	c.current = c.newSession()
	var err error
	c.refs, err = newRefs(store, c.target(), cwd, more...) // mentions
	c.input.Focus()
	return c, err
}

func (c *chat) newSession() string {
	c.made++
	id := fmt.Sprintf("host-session-%d", c.made)
	cwd := c.cwd
	c.store.Create(id, &cwd, fakestore.DefaultNow)
	c.store.SetTitle(id, fmt.Sprintf("Chat %d", c.made))
	return id
}

func (c chat) target() sessionref.Target {
	cwd := c.cwd
	return sessionref.Target{ID: c.current, Cwd: &cwd}
}

func (c chat) Init() tea.Cmd { return nil }

func (c chat) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		c.width, c.height = msg.Width, msg.Height
		c.input.SetWidth(msg.Width - 2)
		c.turns = c.turns[:0:0]
		for _, text := range c.history {
			c.turns = append(c.turns, c.refs.turn(text, c.width)) // mentions
		}
	case tea.KeyPressMsg:
		if c.refs.wants(c.input, msg) { // mentions: the picker's keys, a mention's edges
			return c, c.refs.update(&c.input, msg)
		}
		switch msg.String() {
		case "ctrl+c":
			return c, tea.Quit
		case "ctrl+n":
			c.current, c.history, c.turns, c.status = c.newSession(), nil, nil, "new session"
			return c, c.refs.follow(c.target()) // mentions
		case "enter":
			if strings.TrimSpace(c.input.Value()) == "" {
				c.status = "nothing to send"
				return c, nil
			}
			c.status = "sending…"
			return c, c.refs.send(&c.input, c.target()) // mentions
		}
	case sentMsg:
		if msg.err != nil {
			c.status = sessionref.Describe(msg.err, sessionref.Config{}, nil) // one safe line
			c.refs.restore(&c.input, msg.draft)                               // mentions
			return c, nil
		}
		c.store.AppendUser(c.current, msg.text)
		c.history = append(c.history, msg.text)
		c.turns = append(c.turns, c.refs.turn(msg.text, c.width)) // mentions
		c.status = ""
		return c, nil
	}
	c.refs.place(0, c.height-c.input.Height()) // mentions
	return c, c.refs.update(&c.input, msg)     // mentions
}

func (c chat) View() tea.View {
	header := lipgloss.NewStyle().Bold(true).Render(c.current) + "  " + c.status
	// The newest lines that fit, bottom-aligned: each turn is drawn
	// (wrapped) once, when stored, so a frame only picks lines.
	historyH := max(c.height-c.input.Height()-1, 0)
	lines := strings.Split(strings.Join(c.turns, "\n"), "\n")
	lines = lines[max(len(lines)-historyH, 0):]
	history := lipgloss.NewStyle().Height(historyH).AlignVertical(lipgloss.Bottom).Render(strings.Join(lines, "\n"))
	screen := lipgloss.JoinVertical(lipgloss.Left, header, history, c.input.View())
	layers := []*lipgloss.Layer{lipgloss.NewLayer(screen)}
	if popup := c.refs.popup(); popup != nil { // mentions
		layers = append(layers, popup)
	}
	v := tea.NewView(lipgloss.NewCompositor(layers...).Render())
	if cur := c.input.Cursor(); cur != nil {
		cur.Y += c.height - c.input.Height()
		v.Cursor = cur
	}
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	return v
}

func main() {
	store := fakestore.New()
	store.Seed(fakestore.SeedOptions{Count: 60, Seed: 1})
	cwd, _ := os.Getwd()
	c, err := newChat(store, cwd)
	if err == nil {
		_, err = tea.NewProgram(c).Run()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "textarea example:", err)
		os.Exit(1)
	}
}
