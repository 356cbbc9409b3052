package teatest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// typed is a model that shows what was typed and quits on Enter.
type typed struct {
	text string
	w    int
}

func (m typed) Init() tea.Cmd { return nil }

func (m typed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w = msg.Width
	case tea.KeyPressMsg:
		if msg.Code == tea.KeyEnter {
			return m, tea.Quit
		}
		m.text += msg.Text
	}
	return m, nil
}

func (m typed) View() tea.View { return tea.NewView("typed: " + m.text) }

func TestProgram(t *testing.T) {
	tm := NewTestModel(t, typed{}, WithInitialTermSize(30, 3))
	tm.Type("héllo")
	WaitFor(t, tm.Output(), func(b []byte) bool { return strings.Contains(string(b), "héllo") },
		WithDuration(5*time.Second), WithCheckInterval(5*time.Millisecond))
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	final := tm.FinalModel(t, WithFinalTimeout(5*time.Second)).(typed)
	if final.text != "héllo" || final.w != 30 {
		t.Fatalf("final model %+v", final)
	}
}

// TestWaitForFails: a condition that never holds fails the test and
// shows the output.
func TestWaitForFails(t *testing.T) {
	ft := &fatal{TB: t}
	func() {
		defer func() { _ = recover() }()
		WaitFor(ft, strings.NewReader("some output"), func([]byte) bool { return false },
			WithDuration(0), WithCheckInterval(time.Millisecond))
	}()
	if !strings.Contains(ft.msg, "some output") {
		t.Fatalf("failure %q", ft.msg)
	}
}

type fatal struct {
	testing.TB
	msg string
}

func (f *fatal) Helper() {}
func (f *fatal) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	panic("fatal")
}
