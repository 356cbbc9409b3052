package main

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/internal/teatest"
)

// probe runs the chat and tells the test each time a send's answer has
// been handled, so the keys that depend on it are sent after it.
type probe struct {
	chat
	answered chan int
}

func (p probe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := p.chat.Update(msg)
	p.chat = next.(chat)
	if _, ok := msg.(sentMsg); ok {
		p.answered <- len(p.history)
	}
	return p, cmd
}

func waitAnswered(t *testing.T, p probe, want int) {
	t.Helper()
	select {
	case n := <-p.answered:
		if n != want {
			t.Fatalf("%d messages after a send, want %d", n, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a send was never answered")
	}
}

// The lifecycle in a real program: a mention picked and sent, the message
// recalled with up and sent again with the same reference, then edited
// with ctrl+e, its new version going on in a new session.
func TestLifecycleEndToEnd(t *testing.T) {
	p := probe{chat: newTestChat(t, 60, 16), answered: make(chan int, 8)}
	tm := teatest.NewTestModel(t, p, teatest.WithInitialTermSize(60, 16))
	tm.Type("see @pay")
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return strings.Contains(ansi.Strip(string(b)), "Pay flow retries")
	}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	tm.Send(tea.KeyPressMsg{Code: tea.KeyTab})
	tm.Type("why?")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitAnswered(t, p, 1)
	tm.Send(tea.KeyPressMsg{Code: tea.KeyUp})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitAnswered(t, p, 2)
	tm.Send(tea.KeyPressMsg{Code: tea.KeyUp})
	tm.Send(tea.KeyPressMsg{Code: 'e', Mod: tea.ModCtrl})
	tm.Type(" now")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitAnswered(t, p, 2)
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	final := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(probe)
	if final.current == p.current {
		t.Fatal("the edit was stored in the session edited")
	}
	first, edited := sessionsOf(t, final.history[0]), sessionsOf(t, final.history[1])
	if len(first) != 1 || !slices.Equal(first, edited) {
		t.Fatalf("references: first %v, edited %v", first, edited)
	}
	if got := final.refs.ed.Readable(final.input); got != "" || !strings.HasSuffix(final.history[1], "why? now") {
		t.Fatalf("after the edit: draft %q, history %q", got, final.history)
	}
}
