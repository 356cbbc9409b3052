// Command textarea is a chat host that owns a plain bubbles textarea, as
// most Go terminal clients do, and adds session mentions to it with the
// mention package: one "@" popup for the host's own files and for
// sessions, mentions shown as "@label" in the textarea, one user message
// per turn in the single-message form, the card of every sent message
// rebuilt from the stored text alone, and the rest of a message's life
// with its mentions kept: recall, editing a past message, the session's
// title.
//
//	go run ./examples/textarea
//
// Keys: @ to mention a session or a file, Tab or Enter to pick, Enter to
// send, shift+enter (or ctrl+j) for a newline, up (in an empty draft) to
// recall the messages sent, older with each press and down back, ctrl+e to
// edit the message recalled (or the last one), esc to stop editing,
// ctrl+n for a new session, ctrl+c to quit.
//
// Editing a past message works as in most model clients: sending the new
// version continues the conversation from it, in a new session that holds
// the messages before it and then the new version; the messages after the
// edited one are not in it. The session edited stays as it was (a store
// appends, and a message that referenced it keeps what it captured).
//
// The mentions glue is in mentions.go; this file is the host as it would
// be without it, plus the calls marked "// mentions".
package main

import (
	"fmt"
	"os"
	"strings"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

// titleWidth is the most cells of a title made from a first message.
const titleWidth = 40

type chat struct {
	store   *fakestore.Store
	cwd     string
	current string
	title   string
	input   textarea.Model
	refs    refs     // mentions
	history []string // the current session's stored user texts
	turns   []string // history as drawn, at width; redrawn when it changes
	status  string
	width   int
	height  int
	made    int
	// recall is the index in history of the message the draft was
	// recalled from, and recalled the draft as it was then: while the
	// draft is unchanged, up and down move through history.
	recall   int
	recalled string
	// editing is the index in history of the message the draft edits,
	// or -1.
	editing int
}

// sentMsg is a stored turn: the text that went to the model, or why not
// (and the draft, to give back). session is the session it was written
// in, and edit the index of the message it is the new version of, or -1.
type sentMsg struct {
	text    string
	err     error
	draft   string
	session string
	edit    int
}

func newChat(store *fakestore.Store, cwd string, more ...picker.Option) (chat, error) {
	ta := textarea.New()
	ta.Placeholder = "Message… (@ mentions a session or a file)"
	ta.ShowLineNumbers = false
	ta.SetHeight(3)
	ta.SetVirtualCursor(false)                               // the terminal's own cursor, placed in View
	ta.KeyMap.InsertNewline.SetKeys("shift+enter", "ctrl+j") // Enter sends
	c := chat{store: store, cwd: cwd, input: ta, width: 80, height: 24, editing: -1}
	c.newSession()
	var err error                                          // mentions
	c.refs, err = newRefs(store, c.target(), cwd, more...) // mentions
	c.input.Focus()
	return c, err
}

// newSession makes an empty session current, titled "Chat N" until its
// first message names it.
func (c *chat) newSession() {
	c.made++
	c.current = fmt.Sprintf("host-session-%d", c.made)
	cwd := c.cwd
	c.store.Create(c.current, &cwd, fakestore.DefaultNow)
	c.setTitle(fmt.Sprintf("Chat %d", c.made))
	c.history, c.turns, c.editing = nil, nil, -1
	c.recall, c.recalled = 0, ""
}

func (c *chat) setTitle(title string) {
	c.title = title
	c.store.SetTitle(c.current, title)
}

// keep appends a sent message to the current session; the first one
// gives the session its title, cut to one short line.
func (c *chat) keep(stored string) {
	c.store.AppendUser(c.current, stored)
	c.history = append(c.history, stored)
	c.turns = append(c.turns, c.turn(stored))
	if len(c.history) == 1 {
		title := sessionref.SafeLine(sessionref.Readable(stored)) // mentions: what the person wrote, no snapshot
		c.setTitle(ansi.Truncate(strings.TrimSpace(title), titleWidth, "…"))
	}
}

// turn draws one stored message in the host's own message frame, a
// coloured bar down its left (not the textarea's thick one).
func (c chat) turn(stored string) string {
	frame := lipgloss.NewStyle().Border(lipgloss.NormalBorder(), false, false, false, true).
		BorderForeground(lipgloss.Color("6")).PaddingLeft(1)
	return frame.Render(c.refs.turn(stored, max(c.width-frame.GetHorizontalFrameSize(), 1))) // mentions
}

func (c chat) target() sessionref.Target {
	cwd := c.cwd
	return sessionref.Target{ID: c.current, Cwd: &cwd}
}

func (c chat) Init() tea.Cmd { return nil }

// BEGIN README

func (c chat) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		c.width, c.height = msg.Width, msg.Height
		c.input.SetWidth(msg.Width - 2)
		c.turns = c.turns[:0:0]
		for _, text := range c.history {
			c.turns = append(c.turns, c.turn(text))
		}
	case tea.KeyPressMsg:
		if c.refs.ed.WantsKey(c.input, msg) { // mentions: the picker's keys, Backspace/Delete at a mention's edge
			return c, c.refs.ed.Update(&c.input, msg) // mentions
		}
		// The host's own keys: the adapter has had what it must see.
		switch msg.String() {
		case "ctrl+c":
			return c, tea.Quit
		case "ctrl+n":
			c.newSession()
			c.status = "new session"
			return c, c.refs.ed.SetTarget(c.target()) // mentions
		case "up", "down":
			if c.browse(msg.String() == "up") {
				return c, nil
			}
		case "ctrl+e":
			c.edit()
			return c, nil
		case "esc":
			if c.editing >= 0 {
				c.stopEditing()
				return c, nil
			}
		case "enter":
			return c.send()
		}
	case sentMsg:
		return c.sent(msg)
	}
	c.refs.ed.SetOrigin(0, c.height-c.input.Height()) // mentions: where the popup hangs from
	return c, c.refs.ed.Update(&c.input, msg)         // mentions: in place of c.input.Update
}

// END README

// browse moves through the messages sent, as a shell's history does: up
// in an empty draft recalls the newest; in a draft still as recalled, up
// on its first line goes older and down on its last goes newer (past the
// newest it empties the draft, unless editing). Anywhere else they are the
// textarea's own (the cursor moves).
func (c *chat) browse(older bool) bool {
	unchanged := c.recalled != "" && c.input.Value() == c.recalled
	switch {
	case older && c.input.Value() == "" && len(c.history) > 0:
		c.recallAt(len(c.history) - 1)
	case older && unchanged && c.input.Line() == 0 && c.recall > 0:
		c.recallAt(c.recall - 1)
	case !older && unchanged && c.input.Line() == c.input.LineCount()-1:
		if c.recall+1 < len(c.history) {
			c.recallAt(c.recall + 1)
		} else if c.editing < 0 {
			c.input.Reset()
			c.recalled = ""
		}
	default:
		return false
	}
	return true
}

// recallAt puts message i back in the draft with its mentions; an edit
// in progress moves to it.
func (c *chat) recallAt(i int) {
	c.refs.recall(&c.input, c.history[i]) // mentions: Canonical, then SetValue
	c.recall, c.recalled = i, c.input.Value()
	if c.editing >= 0 {
		c.editing = i
	}
	c.status = fmt.Sprintf("recalled %d/%d · ctrl+e edits", i+1, len(c.history))
	if c.editing >= 0 {
		c.status = fmt.Sprintf("edit %d/%d: enter sends, esc stops", i+1, len(c.history))
	}
}

// edit starts editing the message recalled, or the newest one in an empty
// draft; a draft of the person's own is never replaced.
func (c *chat) edit() {
	switch {
	case len(c.history) == 0:
		c.status = "no message to edit"
		return
	case c.recalled != "" && c.input.Value() == c.recalled:
	case c.input.Value() == "":
		c.recall = len(c.history) - 1
	default:
		c.status = "ctrl+e: empty the draft first"
		return
	}
	c.editing = c.recall
	c.recallAt(c.recall)
}

// stopEditing leaves the edit: a draft still as recalled goes, a changed
// one stays as a new message.
func (c *chat) stopEditing() {
	if c.input.Value() == c.recalled {
		c.input.Reset()
		c.recalled = ""
	}
	c.editing, c.status = -1, "not editing"
}

func (c chat) send() (tea.Model, tea.Cmd) {
	if strings.TrimSpace(c.input.Value()) == "" {
		c.status = "nothing to send"
		return c, nil
	}
	c.status = "sending…"
	edit, session := c.editing, c.current
	c.editing, c.recalled = -1, ""
	send := c.refs.send(&c.input, c.target()) // mentions
	return c, func() tea.Msg {
		msg := send().(sentMsg)
		msg.edit, msg.session = edit, session
		return msg
	}
}

func (c chat) sent(msg sentMsg) (tea.Model, tea.Cmd) {
	left := msg.session != c.current // ctrl+n while it was prepared
	switch {
	case msg.err != nil || left && msg.edit >= 0:
		// The draft back, before what was typed since: nothing is lost.
		c.status = "the session changed: the edit is back in the draft"
		if msg.err != nil {
			c.status = sessionref.Describe(msg.err, sessionref.Config{}, nil) // one safe line
		}
		draft := msg.draft
		if c.input.Value() != "" {
			draft += "\n" + c.refs.ed.Canonical(c.input) // mentions
		}
		c.refs.ed.SetValue(&c.input, draft) // mentions: the draft back, mentions and all
		if !left {
			c.editing = msg.edit
		}
		return c, nil
	case left:
		c.store.AppendUser(msg.session, msg.text) // stored where it was written
		return c, nil
	}
	var cmd tea.Cmd
	if msg.edit >= 0 && msg.edit <= len(c.history) {
		// The new version of a past message: the conversation goes on
		// from it in a new session, the messages before it copied.
		before := c.history[:msg.edit]
		c.newSession()
		for _, stored := range before {
			c.keep(stored)
		}
		cmd = c.refs.ed.SetTarget(c.target()) // mentions
	}
	c.keep(msg.text)
	c.status = ""
	if msg.edit >= 0 {
		c.status = fmt.Sprintf("edited %d · went on in a new session", msg.edit+1)
	}
	return c, cmd
}

func (c chat) View() tea.View {
	// The status whole where it fits beside a cell of the title (cut
	// with "…" where it does not), the title in the cells left.
	title := sessionref.SafeLine(c.title)
	status := ansi.Truncate(c.status, max(c.width-2-min(ansi.StringWidth(title), 1), 1), "…")
	title = ansi.Truncate(title, max(c.width-ansi.StringWidth(status)-2, 1), "…")
	header := lipgloss.NewStyle().Bold(true).Render(title) + "  " + status
	// The newest lines that fit, bottom-aligned, a blank line between
	// turns: each turn is drawn (wrapped) once, when stored, so a frame
	// only picks lines.
	historyH := max(c.height-c.input.Height()-1, 0)
	lines := strings.Split(strings.Join(c.turns, "\n\n"), "\n")
	lines = lines[max(len(lines)-historyH, 0):]
	history := lipgloss.NewStyle().Height(historyH).AlignVertical(lipgloss.Bottom).Render(strings.Join(lines, "\n"))
	screen := lipgloss.JoinVertical(lipgloss.Left, header, history, c.input.View())
	layers := []*lipgloss.Layer{lipgloss.NewLayer(screen)}
	if popup := c.refs.ed.Picker().Layer(); popup != nil { // mentions: the popup, hanging from the '@'
		layers = append(layers, popup) // mentions
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
