package demo

import "charm.land/bubbles/v2/key"

// KeyMap is the demo's own keys; the composer, picker and card have
// theirs. It implements help.KeyMap.
type KeyMap struct {
	// Quit quits; with a draft, the first press asks and a second quits.
	Quit key.Binding
	// Inspect opens the inspector: what the model receives.
	Inspect key.Binding
	// Help opens and closes the full list of keys.
	Help key.Binding
	// ScrollUp and ScrollDown page the transcript (or the open screen).
	ScrollUp   key.Binding
	ScrollDown key.Binding
	// GoToStart and GoToEnd jump to the top and the bottom of the
	// inspector or the key list.
	GoToStart key.Binding
	GoToEnd   key.Binding
	// Back closes the inspector or the key list.
	Back key.Binding
}

// DefaultKeyMap returns the demo's default keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Quit:       key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
		Inspect:    key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "what the model gets")),
		Help:       key.NewBinding(key.WithKeys("f1"), key.WithHelp("f1", "more keys")),
		ScrollUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "scroll up")),
		ScrollDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "scroll down")),
		GoToStart:  key.NewBinding(key.WithKeys("home"), key.WithHelp("home", "top of ctrl+t/f1")),
		GoToEnd:    key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "bottom of ctrl+t/f1")),
		Back:       key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
	}
}

// ShortHelp implements help.KeyMap: the keys of the chat screen.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Inspect, k.ScrollUp, k.Help, k.Quit}
}

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Inspect, k.ScrollUp, k.ScrollDown, k.GoToStart, k.GoToEnd}, {k.Help, k.Back, k.Quit}}
}
