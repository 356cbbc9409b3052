package card

import "charm.land/bubbles/v2/key"

// KeyMap is the card's bindings. It implements help.KeyMap. Keys are
// matched as bubbles matches them (key.Matches): a binding the host
// disabled or gave no keys never fires. The map a card returns from
// [Model.KeyMap] is narrowed to what does something now: Toggle unless
// the card could not be read, the scroll keys only while the card is
// expanded and taller than its height; it never enables a binding the
// host disabled.
type KeyMap struct {
	// Toggle expands or collapses the card.
	Toggle key.Binding
	// ScrollUp and ScrollDown scroll an expanded card by a line.
	ScrollUp   key.Binding
	ScrollDown key.Binding
}

// DefaultKeyMap returns the default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Toggle:     key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "expand/collapse card")),
		ScrollUp:   key.NewBinding(key.WithKeys("shift+up"), key.WithHelp("shift+↑", "scroll card up")),
		ScrollDown: key.NewBinding(key.WithKeys("shift+down"), key.WithHelp("shift+↓", "scroll card down")),
	}
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Toggle, k.ScrollUp, k.ScrollDown}
}

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Toggle}, {k.ScrollUp, k.ScrollDown}}
}
