// Package card renders the compact reference card a chat client shows
// above a message that referenced other sessions.
//
// A card is built from the durable context message alone — its
// session-reference source record and its prompt — and never reads the
// source sessions again, so what it shows is what the model received,
// however the sources change later. Collapsed, it takes two lines: the
// referenced labels, and per source what was captured (messages kept of
// total, omitted messages and bytes, compacted, truncated). Expanded, it
// shows each snapshot's conversation rendered as Markdown, scrollable
// within its height cap ([Model.SetMaxHeight]). Rendering takes time
// linear in the text (about a third of a second for a 64 KiB snapshot),
// so it is never done in Update or a setter: an expanded card shows a
// placeholder until the Cmd of [Model.RenderCmd] (which Update returns
// when it expands the card) delivers a [RenderedMsg] to Update. Renders
// are kept for the last few widths.
//
// Everything in a snapshot is untrusted. Labels, ids and working
// directories are printed through the shared inline sanitiser. The
// conversation is rendered by glamour from a Markdown subset with no raw
// HTML, links, images or autolinks (they show as the text they were
// written as, URL included, never as clickable hyperlinks), with every
// character reference of the author's shown as written, and glamour's
// output keeps only SGR styling: no other escape sequence (OSC 52
// clipboard writes, OSC 8 hyperlinks, screen clears) and no control
// character but the newline reaches the terminal. Code blocks are not
// syntax highlighted.
//
// # What it adds to a host's binary
//
// card is a module of its own because of that renderer: importing it
// brings glamour into the host's binary, and with glamour goldmark (the
// Markdown parser), chroma (syntax highlighting, with its lexers and
// styles, linked in although the card does not highlight) and bluemonday
// (an HTML sanitiser, with its CSS parser). A host that shows references
// some other way needs only sessionref's [sessionref.RecordOf] and
// [sessionref.ParsePrompt], which import none of them.
//
// A message's label can differ from the session's title (a pasted
// mention keeps its own label). A host that knows the current titles
// passes them with [Model.SetTitles]; the card then shows each title
// beside the label it differs from.
//
// Each thing is configured one way. What is fixed for a card's life is
// an [Option] to [New] (the home directory, [WithHome]); what a host may
// change while the card is shown is a setter with a getter: width
// ([Model.SetWidth]), height cap ([Model.SetMaxHeight]), styles
// ([Model.SetStyles]), key map ([Model.SetKeyMap]) and titles
// ([Model.SetTitles]):
//
//	c := card.New(msg)
//	c.SetWidth(w)
//	c.SetStyles(card.DefaultStyles(isDark))
//
// [Model.Update] handles the card's own keys, clicks and wheel;
// [Model.KeyMap] enables each binding only when it does something, for
// bubbles' help. [HitTest] finds the card under the pointer in a
// scrolled transcript.
package card
