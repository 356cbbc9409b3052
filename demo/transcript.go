package demo

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/card"
	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/sessionref"
)

// cardSpan is where a card sits in the transcript.
type cardSpan struct {
	seq int64
	card.Span
}

// cardKeys is the last card's KeyMap, its bindings on only where they
// do something; with no card yet, the card keys as a new one has them.
func (m Model) lastCardKeys() card.KeyMap {
	if seq, ok := m.lastCard(); ok {
		return m.cards[seq].KeyMap()
	}
	k := m.cardKeys
	k.ScrollUp.SetEnabled(false) // the transcript scrolls, never a card
	k.ScrollDown.SetEnabled(false)
	return k
}

// cardKeyMatches reports whether msg is one of the last card's keys.
func (m Model) cardKeyMatches(msg tea.KeyPressMsg) bool {
	for _, group := range m.lastCardKeys().FullHelp() {
		if key.Matches(msg, group...) {
			return true
		}
	}
	return false
}

// updateCard hands msg to the card's own Update and keeps the card's top
// in view when its height changed.
func (m *Model) updateCard(seq int64, msg tea.Msg) tea.Cmd {
	c, ok := m.cards[seq]
	if !ok {
		return nil
	}
	c, cmd := c.Update(msg)
	m.cards[seq] = c
	m.showCard(seq)
	m.expanding = -1
	if c.Rendering() {
		m.expanding = seq // its render, when it comes, is shown from its top
	}
	return cmd
}

// showCard rebuilds the transcript after card seq changed its height and
// keeps the card's top in view.
func (m *Model) showCard(seq int64) {
	m.follow = false
	m.rebuild()
	for _, s := range m.cardSpans {
		if s.seq == seq {
			if s.Top < m.vp.YOffset() || s.Top+s.Height > m.vp.YOffset()+m.vp.Height() {
				m.vp.SetYOffset(s.Top)
			}
			break
		}
	}
	m.follow = m.vp.AtBottom()
}

// onRendered hands a card's rendered conversations to the card waiting
// for them (each card takes only its own). The card the user just
// expanded is shown from its top; one rendered again after a resize or a
// restyle leaves the scroll where it is.
func (m *Model) onRendered(msg card.RenderedMsg) {
	done, shown := false, int64(-1)
	for seq, c := range m.cards {
		if !c.Rendering() {
			continue
		}
		c, _ = c.Update(msg)
		m.cards[seq] = c
		if !c.Rendering() {
			done = true
			if seq == m.expanding {
				shown = seq
			}
		}
	}
	switch {
	case shown >= 0: // the transcript is laid out once, from that card's top
		m.expanding = -1
		m.showCard(shown)
	case done:
		m.rebuild()
	}
}

// renderCards is the Cmds that render the expanded cards waiting for
// their conversations at the current width and styles (after a resize
// or a restyle): the rendering is never done in Update.
func (m Model) renderCards() tea.Cmd {
	var cmds []tea.Cmd
	for _, c := range m.cards {
		cmds = append(cmds, c.RenderCmd())
	}
	return tea.Batch(cmds...)
}

// cardAt is the card on screen row y.
func (m Model) cardAt(y int) (int64, bool) {
	spans := make([]card.Span, len(m.cardSpans))
	for i, s := range m.cardSpans {
		spans[i] = s.Span
	}
	i, _, ok := card.HitTest(spans, headerH, m.vp.YOffset(), y)
	if !ok {
		return 0, false
	}
	return m.cardSpans[i].seq, true
}

// lastCard is the newest card.
func (m Model) lastCard() (int64, bool) {
	if len(m.cardSpans) == 0 {
		return 0, false
	}
	return m.cardSpans[len(m.cardSpans)-1].seq, true
}

// rebuild renders the transcript from the surface: a context message
// becomes a card above the message that cited it. Cards are kept across
// rebuilds (their expansion with them); the card parses its context
// message once, when it is made.
func (m *Model) rebuild() {
	st := m.st
	var lines []string
	m.cardSpans = m.cardSpans[:0]
	width := max(m.w-2, 10)
	add := func(s string) { lines = append(lines, strings.Split(s, "\n")...) }
	if m.loadErr != nil {
		add(st.err.Width(max(m.w, 1)).Render("✗ couldn't read this session: " + textutil.Inline(m.loadErr.Error())))
	}
	if len(m.events) == 0 && m.loadErr == nil {
		add(st.meta.Width(max(m.w, 1)).Render("No messages yet. Type @ to reference another session, then Enter to send."))
	}
	for _, ev := range m.events {
		switch {
		case ev.Type == sessionref.EventUserMessage && ev.Source.Kind == sessionref.SourceSessionReference:
			seq := int64(-1)
			if ev.Seq != nil {
				seq = *ev.Seq
			}
			c, ok := m.cards[seq]
			if !ok {
				// The transcript scrolls, so a card is never capped (and
				// its own scroll keys stay off).
				var opts []card.Option
				if m.opts.Home != "" {
					opts = append(opts, card.WithHome(m.opts.Home))
				}
				c = card.FromEvent(ev, opts...)
				c.SetMaxHeight(1 << 20)
				c.SetStyles(m.comps.card)
				c.SetKeyMap(m.cardKeys)
				c.SetTitles(titleFunc(m.titles))
			}
			c.SetWidth(m.w)
			m.cards[seq] = c
			lines = append(lines, "")
			start := len(lines)
			add(c.View())
			m.cardSpans = append(m.cardSpans, cardSpan{seq, card.Span{Top: start, Height: len(lines) - start}})
		case ev.Type == sessionref.EventUserMessage && ev.Source.Kind == sessionref.SourceUser:
			if len(m.cardSpans) == 0 || m.cardSpans[len(m.cardSpans)-1].Top+m.cardSpans[len(m.cardSpans)-1].Height != len(lines) {
				lines = append(lines, "")
			}
			add(st.you.Render("You"))
			add(st.body.Width(width).Render(textutil.Block(textOf(ev))))
		case ev.Type == sessionref.EventAssistantMessage:
			lines = append(lines, "")
			add(st.bot.Render("Assistant") + st.meta.Render(" · demo stand-in"))
			add(st.body.Width(width).Render(textutil.Block(textOf(ev))))
		}
	}
	m.vp.SetContentLines(lines)
	m.fitTranscript()
}

// textOf is an event's text blocks, joined.
func textOf(ev sessionref.Event) string {
	var parts []string
	for _, b := range ev.Content {
		if b.Type == sessionref.BlockText {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}
