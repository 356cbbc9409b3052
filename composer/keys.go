package composer

import (
	"slices"

	"charm.land/bubbles/v2/key"
)

// KeyMap is the composer's key bindings; the embedded picker has its own
// (see [Model.SetPickerKeyMap]). Field names follow bubbles' textarea.
// It implements help.KeyMap.
//
// Keys are matched as bubbles matches them (key.Matches): a binding the
// host disabled or gave no keys never fires. The composer narrows the
// bindings by state, as bubbles' list does, and never enables one the
// host disabled: while a submit is preparing only Cancel is enabled; Submit is
// enabled only while the picker is closed (Enter and Tab are the picker's
// then), and so is any binding that shares a key with the open picker's;
// PageUp and PageDown only for a draft taller than the editor; a blurred
// composer enables nothing. [Model.KeyMap] returns the bindings in their
// current state, so help shows only keys that do something now. To unbind
// a key, give its binding no keys (key.NewBinding()).
type KeyMap struct {
	// Submit prepares and sends the draft.
	Submit key.Binding
	// InsertNewline breaks the line.
	InsertNewline key.Binding
	// Cancel stops a running submit.
	Cancel key.Binding

	CharacterBackward key.Binding
	CharacterForward  key.Binding
	WordBackward      key.Binding
	WordForward       key.Binding
	LinePrevious      key.Binding
	LineNext          key.Binding
	LineStart         key.Binding
	LineEnd           key.Binding
	// InputBegin and InputEnd jump to the start and end of the draft.
	InputBegin key.Binding
	InputEnd   key.Binding
	// PageUp and PageDown move the cursor by the editor's visible lines.
	PageUp   key.Binding
	PageDown key.Binding

	DeleteCharacterBackward key.Binding
	DeleteCharacterForward  key.Binding
	DeleteWordBackward      key.Binding
	DeleteWordForward       key.Binding
	// DeleteBeforeCursor and DeleteAfterCursor delete to the start and
	// end of the line.
	DeleteBeforeCursor key.Binding
	DeleteAfterCursor  key.Binding
}

// DefaultKeyMap returns the default bindings. Enter submits; a newline is
// shift+enter, alt+enter or ctrl+j, whichever the terminal reports.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Submit:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
		InsertNewline: key.NewBinding(key.WithKeys("shift+enter", "alt+enter", "ctrl+j"), key.WithHelp("shift+enter", "newline")),
		Cancel:        key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel sending")),

		CharacterBackward: key.NewBinding(key.WithKeys("left", "ctrl+b"), key.WithHelp("←", "character backward")),
		CharacterForward:  key.NewBinding(key.WithKeys("right", "ctrl+f"), key.WithHelp("→", "character forward")),
		WordBackward:      key.NewBinding(key.WithKeys("alt+left", "ctrl+left", "alt+b"), key.WithHelp("alt+←", "word backward")),
		WordForward:       key.NewBinding(key.WithKeys("alt+right", "ctrl+right", "alt+f"), key.WithHelp("alt+→", "word forward")),
		LinePrevious:      key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "previous line")),
		LineNext:          key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "next line")),
		LineStart:         key.NewBinding(key.WithKeys("home", "ctrl+a"), key.WithHelp("home", "line start")),
		LineEnd:           key.NewBinding(key.WithKeys("end", "ctrl+e"), key.WithHelp("end", "line end")),
		InputBegin:        key.NewBinding(key.WithKeys("ctrl+home", "alt+<"), key.WithHelp("ctrl+home", "start of draft")),
		InputEnd:          key.NewBinding(key.WithKeys("ctrl+end", "alt+>"), key.WithHelp("ctrl+end", "end of draft")),
		PageUp:            key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown:          key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),

		DeleteCharacterBackward: key.NewBinding(key.WithKeys("backspace", "ctrl+h"), key.WithHelp("⌫", "delete backward")),
		DeleteCharacterForward:  key.NewBinding(key.WithKeys("delete", "ctrl+d"), key.WithHelp("del", "delete forward")),
		DeleteWordBackward:      key.NewBinding(key.WithKeys("alt+backspace", "ctrl+w"), key.WithHelp("ctrl+w", "delete word backward")),
		DeleteWordForward:       key.NewBinding(key.WithKeys("alt+delete", "alt+d"), key.WithHelp("alt+d", "delete word forward")),
		DeleteBeforeCursor:      key.NewBinding(key.WithKeys("ctrl+u"), key.WithHelp("ctrl+u", "delete to line start")),
		DeleteAfterCursor:       key.NewBinding(key.WithKeys("ctrl+k"), key.WithHelp("ctrl+k", "delete to line end")),
	}
}

// ShortHelp implements help.KeyMap: the keys for sending, a newline and
// cancelling, those of them enabled now.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Submit, k.InsertNewline, k.Cancel}
}

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Submit, k.InsertNewline, k.Cancel},
		{k.CharacterBackward, k.CharacterForward, k.WordBackward, k.WordForward, k.LinePrevious, k.LineNext},
		{k.LineStart, k.LineEnd, k.InputBegin, k.InputEnd, k.PageUp, k.PageDown},
		{k.DeleteCharacterBackward, k.DeleteCharacterForward, k.DeleteWordBackward, k.DeleteWordForward, k.DeleteBeforeCursor, k.DeleteAfterCursor},
	}
}

// editing returns the bindings that change or move in the draft.
func (k *KeyMap) editing() []*key.Binding {
	return []*key.Binding{
		&k.InsertNewline, &k.CharacterBackward, &k.CharacterForward, &k.WordBackward, &k.WordForward,
		&k.LinePrevious, &k.LineNext, &k.LineStart, &k.LineEnd, &k.InputBegin, &k.InputEnd,
		&k.DeleteCharacterBackward, &k.DeleteCharacterForward, &k.DeleteWordBackward, &k.DeleteWordForward,
		&k.DeleteBeforeCursor, &k.DeleteAfterCursor,
	}
}

// withState returns k narrowed to the bindings that do something in the
// composer's current state; a binding the host disabled stays disabled.
func (m Model) withState(k KeyMap) KeyMap {
	edit := m.focused && !m.preparing
	for _, b := range k.editing() {
		b.SetEnabled(b.Enabled() && edit)
	}
	n := len(m.lines())
	tall := n > m.visibleLines(n)
	k.PageUp.SetEnabled(k.PageUp.Enabled() && edit && tall)
	k.PageDown.SetEnabled(k.PageDown.Enabled() && edit && tall)
	k.Submit.SetEnabled(k.Submit.Enabled() && edit && !m.picker.IsOpen())
	k.Cancel.SetEnabled(k.Cancel.Enabled() && m.focused && m.preparing)
	if m.picker.IsOpen() {
		// The open picker takes its keys first: a binding of ours that
		// shares one (Enter as newline, say) does nothing now.
		taken := map[string]bool{}
		for _, col := range m.picker.KeyMap().FullHelp() {
			for _, b := range col {
				for _, s := range b.Keys() {
					taken[s] = true
				}
			}
		}
		for _, b := range append(k.editing(), &k.PageUp, &k.PageDown) {
			if slices.ContainsFunc(b.Keys(), func(s string) bool { return taken[s] }) {
				b.SetEnabled(false)
			}
		}
	}
	return k
}
