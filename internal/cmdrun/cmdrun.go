// Package cmdrun runs Bubble Tea Cmds synchronously, for tests of models:
// a batch's Cmds run at once and their messages come back in the batch's
// order. It imports no testing package; each test package keeps its own
// helpers around it.
package cmdrun

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// Run executes cmd and returns the messages it produces, batches
// expanded, in order. A Cmd still running wait after Run began is
// abandoned and its message lost; use [Collect] to know.
func Run(cmd tea.Cmd, wait time.Duration) []tea.Msg {
	msgs, _ := Collect(cmd, wait)
	return msgs
}

// Collect executes cmd and returns the messages it produces, batches
// expanded (the Cmds of a batch run concurrently, their messages are
// kept in the batch's order), and how many Cmds were abandoned because
// they were still running wait after Collect began. An abandoned Cmd
// never blocks: its message goes to a buffered channel nobody reads.
func Collect(cmd tea.Cmd, wait time.Duration) (msgs []tea.Msg, abandoned int) {
	if cmd == nil {
		return nil, 0
	}
	deadline := make(chan struct{})
	timer := time.AfterFunc(wait, func() { close(deadline) })
	defer timer.Stop()
	return await(start(cmd), deadline)
}

func start(cmd tea.Cmd) <-chan tea.Msg {
	ch := make(chan tea.Msg, 1) // buffered: an abandoned Cmd never blocks
	go func() { ch <- cmd() }()
	return ch
}

func await(ch <-chan tea.Msg, deadline <-chan struct{}) (msgs []tea.Msg, abandoned int) {
	select {
	case msg := <-ch:
		switch msg := msg.(type) {
		case nil:
			return nil, 0
		case tea.BatchMsg:
			started := make([]<-chan tea.Msg, 0, len(msg))
			for _, c := range msg {
				if c != nil {
					started = append(started, start(c))
				}
			}
			for _, c := range started {
				out, lost := await(c, deadline)
				msgs, abandoned = append(msgs, out...), abandoned+lost
			}
			return msgs, abandoned
		default:
			return []tea.Msg{msg}, 0
		}
	case <-deadline:
		return nil, 1
	}
}
