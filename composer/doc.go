// Package composer is a draft editor for Bubble Tea v2 chat clients that
// turns @-mentions of other sessions into atomic tokens and submits the
// draft through the core's Prepare.
//
// Typing '@' at the start of the draft or after whitespace opens the
// embedded [picker.Model]; what follows the '@' up to the cursor is its
// query. A pick replaces "@query" with a token and a space. A token shows
// as a styled "@label" chip but stands for its canonical
// @[label](dsh-session:…) text, which [Model.Value] returns: the cursor
// steps over it as one unit, Backspace or Delete next to it removes it
// whole, and nothing can be typed inside it. Setting or pasting text turns
// its valid mentions into tokens; a paste never opens the picker.
//
// Enter submits: the draft is prepared in a tea.Cmd with a cancellable
// context (Esc cancels), the editor is read-only meanwhile, and the result
// is a [SubmittedMsg] carrying the readable text and the context message.
// On any failure the draft stays exactly as it was and a one-line error
// says what happened.
package composer
