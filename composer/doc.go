// Package composer is a draft editor for Bubble Tea v2 chat clients that
// turns @-mentions of other sessions into atomic tokens and submits the
// draft through the core's Prepare.
//
// # Mentions
//
// Typing '@' at the start of the draft or after whitespace opens the
// embedded [picker.Model]; the text from the '@' to the cursor is its
// query. A query may hold single spaces, as titles do ("@fix the par"),
// and ends on a second consecutive space, on a newline, on Esc, or when
// the cursor leaves it; a space after a query whose answers matched
// nothing ends it as Esc does.
// The picker comes back when typing, deleting or a horizontal move (a
// character, a word, Home/End, a click) puts the cursor in a pending
// "@word" again, such as moving back into "@pars"; vertical moves, jumps
// to the start or end, SetValue and pastes never open it. Esc (or a click
// outside the popup) makes the @word text: moves over it and typing after
// it leave it closed, so Enter then sends it as text; an edit inside it
// (a deleted or inserted character) opens it again. These are the
// rules of mention.Model, which the composer edits and draws, and which
// the mentiontextarea adapter keeps behind a host's textarea: the two
// behave alike (a test drives both with the same keys).
//
// While the picker is open its keys are its own: Enter and Tab pick the
// highlighted row and never send; with nothing to pick the popup and the
// footer say why. A pick replaces "@query" with a token and a space (or
// the space already after it), in the same Update (the picker's
// PickedMsg is still sent, for other listeners); a space typed right
// after a pick is not doubled. Tab pressed before the answer arrives picks its first match
// when it comes; text typed meanwhile goes into the draft at once, after
// the query, in the order typed.
//
// A host's own item (a file, a command: see [picker.Section]) is picked
// the same way: its Insert text replaces "@query", followed by a space;
// canonical mentions in it become tokens, as in a paste, and an item
// without Insert text only removes "@query". The host learns of the pick
// from the picker's [picker.PickedMsg], whose Item is the item picked,
// and attaches its Value as it sees fit.
//
// A host that switches sessions calls [Model.SetTarget]: the picker
// lists candidates for the new session and submits prepare for it,
// through the same [ResolverPreparer].
//
// A token shows as a styled "@label" chip but stands for its canonical
// @[label](dsh-session:…) text, which [Model.Canonical] returns (and
// [Model.Readable] the text as read, [Model.Tokens] the tokens): the cursor
// steps over it as one unit, Backspace or Delete next to it removes it
// whole, and nothing can be typed inside it. A canonical mention or a
// bare dsh-session: URI becomes a token however it arrives (set, pasted,
// typed), its label made safe and capped once, so the chip shows what is
// sent. More sessions than the limit are
// flagged in the footer as soon as they are in the draft.
//
// # Sending
//
// Submit (Enter) prepares the draft in a tea.Cmd with a cancellable
// context (Cancel, Esc, stops it); the editor is read-only meanwhile, and
// the result is a [SubmittedMsg]. The model sees the snapshot first and
// then the message: the host sends SubmittedMsg.Context before the direct
// message. On any failure the draft stays exactly as it was and the
// footer says what happened, wrapped over as many lines as it needs.
//
// # Embedding
//
// Pass the composer every message you do not handle yourself — a host's
// default branch is the simplest way: besides keys, pastes and the mouse,
// the picker's answers and timer and the result of a submit arrive as
// messages, and ones that are not the composer's are ignored. A
// tea.WindowSizeMsg tells it the screen. Call [Model.SetWidth] when its width
// changes and [Model.SetOrigin] whenever its top-left cell moves on
// screen (after any Update that may change [Model.Height]): the popup
// hangs from the '@' and clicks map to the draft through it. Draw the
// popup over the screen with Picker().Layer(), and set its styles, keys
// and bounds on [Model.Picker]. The popup stays inside the screen known
// from tea.WindowSizeMsg, or inside a pane set with Picker().SetBounds;
// before a window size it stays in the composer's own columns above it,
// so none is needed to place it. Route mouse
// messages for which [Model.WantsMouse] is true to the composer first.
// Focus changes only through [Model.Focus] and [Model.Blur]. For the
// terminal's own cursor, call SetVirtualCursor(false) and place
// [Model.Cursor], which is relative to View.
//
// Every character of the draft, label and error is shown through the
// UI's one sanitiser (control and format characters escaped, kept in the
// text), and every width is measured as lipgloss measures it, so no line
// of View is wider than the composer.
package composer
