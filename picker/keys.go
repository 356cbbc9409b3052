package picker

import "charm.land/bubbles/v2/key"

// KeyMap is the picker's key bindings. It implements help.KeyMap.
//
// Keys are matched as bubbles matches them (key.Matches): a binding the
// host disabled or gave no keys never fires. [Model.KeyMap] returns the
// bindings narrowed by state, as bubbles' list does, so help shows only
// what works now: the moves when there are rows, Accept and AcceptEnter
// when a row can be picked, everything only while the picker is open. The
// narrowing is for help only: while the picker is open it still consumes
// Accept or AcceptEnter with no row to pick (and says why nothing was
// picked), so Enter never falls through to a send.
type KeyMap struct {
	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Home     key.Binding
	End      key.Binding
	// Accept picks the highlighted row (Tab).
	Accept key.Binding
	// AcceptEnter picks the highlighted row too (Enter); it is separate
	// so help can show the two apart.
	AcceptEnter key.Binding
	// Dismiss closes the picker (Esc).
	Dismiss key.Binding
	// Preview shows the preview of the highlighted row in place of the
	// rows, and the rows again (alt+p or F2; its help names both): only
	// with a preview ([WithPreview], or a [Section] that has one) in a
	// pane narrower than [PreviewMinWidth],
	// where it does not fit beside them. Neither key types text, and no
	// editor of the module or the bubbles textarea uses them; ctrl+o, F1
	// and ctrl+t are the demo's, ctrl+v pastes in some terminals, and a
	// printable key such as '?' belongs to the query.
	Preview key.Binding
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
		Preview:     key.NewBinding(key.WithKeys("alt+p", "f2"), key.WithHelp("alt+p/f2", "preview")),
	}
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Accept, k.Dismiss, k.Preview}
}

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown}, {k.Home, k.End, k.Accept, k.AcceptEnter, k.Dismiss, k.Preview}}
}

// withState narrows the bindings to those that do something in the given
// state; it never enables one the host disabled.
func (k KeyMap) withState(open, rows, pickable bool) KeyMap {
	for _, b := range []*key.Binding{&k.Up, &k.Down, &k.PageUp, &k.PageDown, &k.Home, &k.End} {
		b.SetEnabled(b.Enabled() && open && rows)
	}
	k.Accept.SetEnabled(k.Accept.Enabled() && open && pickable)
	k.AcceptEnter.SetEnabled(k.AcceptEnter.Enabled() && open && pickable)
	k.Dismiss.SetEnabled(k.Dismiss.Enabled() && open)
	k.Preview.SetEnabled(false) // see Model.KeyMap
	return k
}
