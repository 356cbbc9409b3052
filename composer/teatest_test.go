package composer

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/internal/teatest"
	"github.com/dshkit/mentions/sessionref"
)

// host is a minimal program around the composer, as an embedding client
// would write it: it draws the picker popup over the screen.
type host struct {
	c    Model
	w, h int
	sent []SubmittedMsg
}

func (h host) Init() tea.Cmd { return nil }

func (h host) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		h.w, h.h = msg.Width, msg.Height
		h.c.SetWidth(msg.Width)
	case SubmittedMsg:
		h.sent = append(h.sent, msg)
		return h, nil
	case tea.KeyPressMsg:
		if msg.String() == "ctrl+c" {
			return h, tea.Quit
		}
	}
	h.c.SetOrigin(0, h.h-h.c.Height())
	var cmd tea.Cmd
	h.c, cmd = h.c.Update(msg)
	return h, cmd
}

func (h host) View() tea.View {
	var lines []string
	for _, s := range h.sent {
		lines = append(lines, "sent: "+s.Text)
	}
	top := strings.Join(lines, "\n")
	body := lipgloss.PlaceVertical(h.h-h.c.Height(), lipgloss.Top, top)
	layers := []*lipgloss.Layer{lipgloss.NewLayer(body + "\n" + h.c.View())}
	if l := h.c.Picker().Layer(); l != nil {
		layers = append(layers, l)
	}
	return tea.NewView(lipgloss.NewCompositor(layers...).Render())
}

// waitScreen waits until the program's output, ANSI stripped, holds
// want. The renderer sends only changed cells, so want should be text
// that appears whole when the screen changes (a new line, a new token).
func waitScreen(t *testing.T, tm *teatest.TestModel, want string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return strings.Contains(ansi.Strip(string(b)), want)
	}, teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
}

// TestComposerWithPickerEndToEnd types into a real program: '@' opens the
// picker over fakestore, typing filters it, Tab picks, Enter sends.
func TestComposerWithPickerEndToEnd(t *testing.T) {
	e := newEnv(t)
	tm := teatest.NewTestModel(t, host{c: e.composer(), w: 80, h: 16}, teatest.WithInitialTermSize(80, 16))
	tm.Type("compare @")
	waitScreen(t, tm, "Fix the session parser")
	tm.Type("emoji")
	waitScreen(t, tm, "Emoji picker")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyTab})
	tm.Type("please")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitScreen(t, tm, "sent: compare @Emoji picker 🎉 polish please")
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(host)
	if len(final.sent) != 1 || final.sent[0].Context == nil || final.sent[0].Context.Source.References[0].SessionID != "s-emoji" {
		t.Fatalf("sent %+v", final.sent)
	}
	if final.c.Canonical() != "" {
		t.Fatalf("draft not cleared: %q", final.c.Canonical())
	}
}

// TestScreenSaysWhatIsWrong: on a real screen, the footer follows a
// rebound send key, says why Enter picked nothing, flags a fourth session
// at once, and shows a long error whole, wrapped, at 40 columns; no C1
// control of the draft reaches the terminal.
func TestScreenSaysWhatIsWrong(t *testing.T) {
	e := newEnv(t)
	k := DefaultKeyMap()
	k.Submit = key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "send"))
	c := e.composer(withKeyMap(k))
	c.prepare = func(context.Context, string) (sessionref.PreparedText, error) {
		return sessionref.PreparedText{}, &sessionref.Error{Code: sessionref.CodeReadFailed, SessionID: "s-cafe",
			Cause: errors.New("permission denied reading the log of this session, which belongs to another user")}
	}
	tm := teatest.NewTestModel(t, host{c: c, w: 40, h: 14}, teatest.WithInitialTermSize(40, 14))
	var all []byte // every byte the program wrote to the terminal
	wait := func(want string) {
		t.Helper()
		var last []byte
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
			last = b
			return strings.Contains(ansi.Strip(string(b)), want)
		}, teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
		all = append(all, last...)
	}
	tm.Type("x\u009b2J")
	wait("ctrl+s send")
	tm.Type(" @zzzq")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	wait("no sessions match")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	three := mention(t, "s-parser", "P") + " " + mention(t, "s-logs", "L") + " " + mention(t, "s-cafe", "C") + " "
	tm.Send(tea.PasteMsg{Content: " " + three + mention(t, "s-emoji", "E")})
	wait("over the limit")
	tm.Send(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	wait("another user.")
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(host)
	if len(final.sent) != 0 || !strings.HasPrefix(final.c.Canonical(), "x\u009b2J @zzzq ") {
		t.Fatalf("sent %d, draft %q", len(final.sent), final.c.Canonical())
	}
	if strings.Contains(string(all), "\u009b") || !strings.Contains(ansi.Strip(string(all)), `\x9B2J`) {
		t.Fatal("a C1 control reached the terminal, or was not shown escaped")
	}
	if !strings.Contains(final.c.View(), "another user.") || strings.Contains(ansi.Strip(final.c.View()), "…") {
		t.Fatalf("the error is cut:\n%s", ansi.Strip(final.c.View()))
	}
}
