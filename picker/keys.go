package picker

import "charm.land/bubbles/v2/key"

// KeyMap is the picker's key bindings. It implements help.KeyMap.
type KeyMap struct {
	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Home     key.Binding
	End      key.Binding
	// Accept picks the highlighted row (Tab).
	Accept key.Binding
	// AcceptEnter picks the highlighted row too; it is separate so a host
	// can tell when Enter belongs to the picker and when to the editor.
	AcceptEnter key.Binding
	Dismiss     key.Binding
}

// DefaultKeyMap returns the default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:          key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑/ctrl+p", "up")),
		Down:        key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↓/ctrl+n", "down")),
		PageUp:      key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown:    key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Home:        key.NewBinding(key.WithKeys("home"), key.WithHelp("home", "first")),
		End:         key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "last")),
		Accept:      key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "mention")),
		AcceptEnter: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "mention")),
		Dismiss:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
	}
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Accept, k.Dismiss}
}

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown}, {k.Home, k.End, k.Accept, k.AcceptEnter, k.Dismiss}}
}
