package card

import (
	"sync/atomic"

	tea "charm.land/bubbletea/v2"
)

// Rendering a conversation's Markdown costs time linear in its text
// (glamour takes about a third of a second for a 64 KiB snapshot), so a
// card never renders it in Update, nor in Toggle, SetWidth or
// SetStyles. An expanded card whose conversations are not rendered at
// its width shows a placeholder under each session's heading and asks
// for them with [Model.RenderCmd]; the Cmd renders in the background and
// returns a [RenderedMsg], which the host routes to the card's Update.
// Renders are kept per width (the last few), so a resize back to a width
// seen before costs nothing.

// RenderedMsg carries a card's conversations rendered by the Cmd of
// [Model.RenderCmd] (also part of the Cmd Update returns when it expands
// a card). Route it to the card's Update; a host with several cards may
// route it to each: a card takes only its own, and only for the styles
// it still has. A render for a width the card no longer has is kept for
// when it comes back to that width.
type RenderedMsg struct {
	card  int64
	gen   uint64
	inner int
	turns [][]string
}

// rendered is the turns rendered at one inner width.
type rendered struct {
	inner int
	turns [][]string
}

// keptRenders is how many widths' renders a card keeps.
const keptRenders = 4

var lastCardID atomic.Int64

// Rendering reports whether the card is expanded and waits for its
// conversations to be rendered at its width (a placeholder shows).
func (m Model) Rendering() bool {
	return m.expanded && m.malformed == nil && m.turnsW != m.inner()
}

// RenderCmd returns the Cmd that renders the conversations of an
// expanded card at its width and styles, off the Update path, or nil
// when nothing waits for a render. Call it after SetWidth or SetStyles
// changed an expanded card (Update's own expand includes it).
func (m Model) RenderCmd() tea.Cmd {
	if !m.Rendering() {
		return nil
	}
	r := m.renderer()
	return func() tea.Msg { return r() }
}

// Render renders the conversations of an expanded card now, for a host
// with no event loop (printing a card once, a test). It blocks for as
// long as the rendering takes: in Update, use RenderCmd.
func (m *Model) Render() {
	if m.Rendering() {
		m.apply(m.renderer()())
	}
}

// renderer is the rendering of the card's current width and styles, to
// run anywhere: it holds only what it reads.
func (m Model) renderer() func() RenderedMsg {
	snaps, style, inner, id, gen := m.snaps, m.styles.Markdown, m.inner(), m.id, m.gen
	return func() RenderedMsg {
		return RenderedMsg{card: id, gen: gen, inner: inner, turns: renderTurns(snaps, style, inner)}
	}
}

// apply keeps a render of the card's own and shows it if it is for the
// current width.
func (m *Model) apply(msg RenderedMsg) {
	if msg.card != m.id || msg.gen != m.gen {
		return
	}
	kept := []rendered{{msg.inner, msg.turns}}
	for _, r := range m.renders {
		if r.inner != msg.inner && len(kept) < keptRenders {
			kept = append(kept, r)
		}
	}
	m.renders = kept // a new slice: copies of the Model keep theirs
	if m.Rendering() && msg.inner == m.inner() {
		m.invalidate()
	}
}

// cachedTurns is the render at inner width, if one is kept.
func (m Model) cachedTurns(inner int) ([][]string, bool) {
	for _, r := range m.renders {
		if r.inner == inner {
			return r.turns, true
		}
	}
	return nil, false
}
