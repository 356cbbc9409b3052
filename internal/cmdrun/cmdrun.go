// Package cmdrun holds test helpers for Bubble Tea models: it runs Cmds
// synchronously (batches expanded, a Cmd with nothing to say in time
// abandoned) and waits for text on a teatest screen.
package cmdrun

import (
	"bytes"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// Run executes cmd and returns the messages it produces, batches
// expanded, in order. A Cmd still running after wait is abandoned.
func Run(cmd tea.Cmd, wait time.Duration) []tea.Msg {
	if cmd == nil {
		return nil
	}
	ch := make(chan tea.Msg, 1) // buffered: an abandoned Cmd never blocks
	go func() { ch <- cmd() }()
	select {
	case msg := <-ch:
		if b, ok := msg.(tea.BatchMsg); ok {
			var out []tea.Msg
			for _, c := range b {
				out = append(out, Run(c, wait)...)
			}
			return out
		}
		if msg == nil {
			return nil
		}
		return []tea.Msg{msg}
	case <-time.After(wait):
		return nil
	}
}

// WaitScreen waits until the program's output, ANSI stripped, holds want.
// The renderer sends only changed cells, so want should be text that
// appears whole when the screen changes (a new line, a new token).
func WaitScreen(t testing.TB, tm *teatest.TestModel, want string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains([]byte(ansi.Strip(string(b))), []byte(want))
	}, teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
}
