// Package cmdrun runs Bubble Tea commands synchronously for tests: it
// executes a Cmd, expands batches, and gives up on a Cmd that has nothing
// to say in time (a tick that would fire much later).
package cmdrun

import (
	"time"

	tea "charm.land/bubbletea/v2"
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
