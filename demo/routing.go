package demo

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// handleKey takes the keys that are the demo's: quitting, the inspector
// and help screens, paging the transcript, and the card keys (sent to the
// last card's own Update). It reports whether it took the key; the
// composer gets the rest.
func (m *Model) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := m.keys
	if key.Matches(msg, k.Quit) {
		if m.asking() || m.comp.Canonical() == "" && !m.comp.Preparing() {
			m.quitting, m.confirmQuit = true, false
			return tea.Quit, true
		}
		// The draft (or the send in flight) would be lost: ask first.
		// The question goes on the
		// status line, which the popup may cover, so the picker closes
		// (as Esc closes it: the draft stays as it is).
		m.confirmQuit = true
		m.comp.ClosePicker()
		return nil, true
	}
	m.confirmQuit = false // any other key keeps the draft
	if m.screen == inspectScreen || m.screen == helpScreen {
		m.overlayKey(msg)
		return nil, true
	}
	switch {
	case key.Matches(msg, k.Inspect):
		m.screen = inspectScreen
		m.renderInspector()
		m.inspVP.GotoTop()
		m.inspAt = 0
		return nil, true
	case key.Matches(msg, k.Help):
		m.screen, m.helpFrom = helpScreen, chatScreen
		m.renderHelp()
		m.helpVP.GotoTop()
		m.helpAt = 0
		return nil, true
	case m.cardKeyMatches(msg):
		if seq, ok := m.lastCard(); ok {
			return m.updateCard(seq, msg), true
		}
		return nil, true
	case m.comp.Picker().IsOpen():
		return nil, false // paging keys move in the picker
	case key.Matches(msg, k.ScrollUp):
		m.vp.PageUp()
		m.follow, m.expanding = m.vp.AtBottom(), -1 // the user's scroll stays
		return nil, true
	case key.Matches(msg, k.ScrollDown):
		m.vp.PageDown()
		m.follow, m.expanding = m.vp.AtBottom(), -1
		return nil, true
	}
	return nil, false
}

// overlayKey takes a key on the inspector or the key list: F1 over the
// inspector, back, the ends, and scrolling.
func (m *Model) overlayKey(msg tea.KeyPressMsg) {
	k := m.keys
	vp := &m.inspVP
	if m.screen == helpScreen {
		vp = &m.helpVP
	}
	switch {
	case m.screen == inspectScreen && key.Matches(msg, k.Help):
		// F1 over the inspector: the keys, and back to the inspector.
		m.screen, m.helpFrom = helpScreen, inspectScreen
		m.renderHelp()
		m.helpVP.GotoTop()
		m.helpAt = 0
	case key.Matches(msg, k.Back),
		m.screen == inspectScreen && key.Matches(msg, k.Inspect),
		m.screen == helpScreen && key.Matches(msg, k.Help):
		if m.screen == helpScreen {
			m.screen, m.helpFrom = m.helpFrom, chatScreen
		} else {
			m.screen = chatScreen
		}
	case key.Matches(msg, k.GoToStart):
		vp.GotoTop()
	case key.Matches(msg, k.GoToEnd):
		vp.GotoBottom()
	default:
		*vp, _ = vp.Update(msg)
	}
}

// handleMouse routes the mouse: on the inspector and help screens the
// wheel scrolls; the composer is asked first (while the picker is open
// it takes every click: outside the popup one closes it and goes no
// further, so it never toggles the card underneath); in the transcript
// the wheel scrolls and a click goes to the card under the pointer.
func (m *Model) handleMouse(msg tea.MouseMsg) (tea.Cmd, bool) {
	if m.screen != chatScreen {
		if w, ok := msg.(tea.MouseWheelMsg); ok {
			vp := &m.inspVP
			if m.screen == helpScreen {
				vp = &m.helpVP
			}
			*vp, _ = vp.Update(w)
		}
		return nil, true
	}
	if m.comp.WantsMouse(msg) {
		return nil, false
	}
	mouse := msg.Mouse()
	top := headerH
	if mouse.Y < top || mouse.Y >= top+m.areaH { // the transcript or its scroll line
		return nil, false
	}
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			m.vp.ScrollUp(3)
		case tea.MouseWheelDown:
			m.vp.ScrollDown(3)
		}
		m.follow, m.expanding = m.vp.AtBottom(), -1
	case tea.MouseClickMsg:
		if mouse.Y >= top+m.vp.Height() {
			break // the scroll line: no card is drawn there
		}
		if seq, ok := m.cardAt(mouse.Y); ok {
			return m.updateCard(seq, msg), true
		}
	}
	return nil, true
}

// asking reports whether a ctrl+c is waiting for its second press: it
// was pressed with a draft or a send in flight, and there still is one
// (a send that completes empties the draft, and the question goes).
func (m Model) asking() bool {
	return m.confirmQuit && (m.comp.Preparing() || m.comp.Canonical() != "")
}

// quitQuestion is the question a first ctrl+c asks, in the words of the
// state it would end: a send in flight, or a draft.
func (m Model) quitQuestion() string {
	if m.comp.Preparing() {
		return "Your message is being sent: press ctrl+c again to stop the send and quit (nothing is sent, the draft is lost), esc to stop it and keep the draft, or wait."
	}
	return "Your draft is not sent: press ctrl+c again to quit and lose it, any other key to keep writing."
}
