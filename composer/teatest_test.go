package composer

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/dshkit/mentions/internal/cmdrun"
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
	if p := h.c.Picker(); p.IsOpen() {
		r := p.Rect()
		layers = append(layers, lipgloss.NewLayer(p.View()).X(r.X).Y(r.Y).Z(1))
	}
	return tea.NewView(lipgloss.NewCompositor(layers...).Render())
}

func waitScreen(t *testing.T, tm *teatest.TestModel, want string) {
	t.Helper()
	cmdrun.WaitScreen(t, tm, want)
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
	if final.c.Value() != "" {
		t.Fatalf("draft not cleared: %q", final.c.Value())
	}
}
