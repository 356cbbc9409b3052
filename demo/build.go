package demo

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"
)

// buildState is how far the background build (Options.Build) got.
type buildState struct {
	running     bool
	done, total int // total is -1 until the build says
	err         error
}

func (b buildState) progress() string {
	if b.total <= 0 {
		return "Building the corpus in the background…"
	}
	return fmt.Sprintf("Building the corpus in the background: %d of %d sessions (%d%%); the picker searches what is there so far.",
		b.done, b.total, 100*b.done/b.total)
}

// buildMsg is the background build's news: progress, or the end. next
// is where the following news will come from.
type buildMsg struct {
	done, total int
	finished    bool
	err         error
	next        <-chan buildMsg
}

// startBuild runs Options.Build in its own goroutine and returns its
// first news; each buildMsg's handler waits for the next. Update never
// waits for the build, and the model is only changed by Update.
func (m Model) startBuild() tea.Cmd {
	build := m.opts.Build
	if build == nil {
		return nil
	}
	return func() tea.Msg {
		ch := make(chan buildMsg, 1)
		go func() {
			err := build(context.Background(), func(done, total int) {
				// Keep only the newest progress: drop what the screen has
				// not taken yet.
				select {
				case <-ch:
				default:
				}
				select {
				case ch <- buildMsg{done: done, total: total}:
				default:
				}
			})
			ch <- buildMsg{finished: true, err: err}
		}()
		return waitBuild(ch)()
	}
}

func waitBuild(ch <-chan buildMsg) tea.Cmd {
	return func() tea.Msg {
		msg := <-ch
		msg.next = ch
		return msg
	}
}

// onBuild records the build's news and waits for more.
func (m *Model) onBuild(msg buildMsg) tea.Cmd {
	if msg.finished {
		m.build.running, m.build.err = false, msg.err
		m.layout()
		return m.comp.Picker().Refresh() // an open picker lists the new sessions
	}
	m.build.done, m.build.total = msg.done, msg.total
	m.layout()
	return waitBuild(msg.next)
}
