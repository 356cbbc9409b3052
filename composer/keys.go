package composer

import "charm.land/bubbles/v2/key"

// KeyMap is the composer's key bindings. It implements help.KeyMap.
type KeyMap struct {
	Submit             key.Binding
	Newline            key.Binding
	Left               key.Binding
	Right              key.Binding
	WordLeft           key.Binding
	WordRight          key.Binding
	Up                 key.Binding
	Down               key.Binding
	LineStart          key.Binding
	LineEnd            key.Binding
	Backspace          key.Binding
	Delete             key.Binding
	DeleteWordBackward key.Binding
	DeleteWordForward  key.Binding
	DeleteToLineStart  key.Binding
	DeleteToLineEnd    key.Binding
	// Cancel stops a running submit, and otherwise closes the picker.
	Cancel key.Binding
}

// DefaultKeyMap returns the default bindings. Enter submits; a newline is
// shift+enter, alt+enter or ctrl+j, whichever the terminal reports.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Submit:             key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
		Newline:            key.NewBinding(key.WithKeys("shift+enter", "alt+enter", "ctrl+j"), key.WithHelp("shift+enter", "newline")),
		Left:               key.NewBinding(key.WithKeys("left", "ctrl+b"), key.WithHelp("←", "left")),
		Right:              key.NewBinding(key.WithKeys("right", "ctrl+f"), key.WithHelp("→", "right")),
		WordLeft:           key.NewBinding(key.WithKeys("alt+left", "ctrl+left", "alt+b"), key.WithHelp("alt+←", "word left")),
		WordRight:          key.NewBinding(key.WithKeys("alt+right", "ctrl+right", "alt+f"), key.WithHelp("alt+→", "word right")),
		Up:                 key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "line up")),
		Down:               key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "line down")),
		LineStart:          key.NewBinding(key.WithKeys("home", "ctrl+a"), key.WithHelp("home", "line start")),
		LineEnd:            key.NewBinding(key.WithKeys("end", "ctrl+e"), key.WithHelp("end", "line end")),
		Backspace:          key.NewBinding(key.WithKeys("backspace", "ctrl+h"), key.WithHelp("⌫", "delete")),
		Delete:             key.NewBinding(key.WithKeys("delete", "ctrl+d"), key.WithHelp("del", "delete forward")),
		DeleteWordBackward: key.NewBinding(key.WithKeys("alt+backspace", "ctrl+w"), key.WithHelp("ctrl+w", "delete word")),
		DeleteWordForward:  key.NewBinding(key.WithKeys("alt+delete", "alt+d"), key.WithHelp("alt+d", "delete next word")),
		DeleteToLineStart:  key.NewBinding(key.WithKeys("ctrl+u"), key.WithHelp("ctrl+u", "delete to line start")),
		DeleteToLineEnd:    key.NewBinding(key.WithKeys("ctrl+k"), key.WithHelp("ctrl+k", "delete to line end")),
		Cancel:             key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Submit, k.Newline, k.Cancel}
}

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Submit, k.Newline, k.Cancel},
		{k.Left, k.Right, k.WordLeft, k.WordRight, k.Up, k.Down, k.LineStart, k.LineEnd},
		{k.Backspace, k.Delete, k.DeleteWordBackward, k.DeleteWordForward, k.DeleteToLineStart, k.DeleteToLineEnd},
	}
}
