// Package mention adds session mentions to an editor the host already
// has. It is the part of this module that does not draw anything of its
// own: a [Tracker] follows the mention tokens of any editor's text
// through every edit, knows when an @query is pending, and gives the
// canonical text to send; [Textarea] puts a Tracker and a picker.Model
// behind a charm.land/bubbles/v2/textarea.Model that the host keeps
// owning.
//
// # The rules
//
// One set of rules decides where a mention query starts and ends, for
// the composer package and for editors adapted here alike ([WordStart],
// [QueryText]): a query starts at an '@' at the start of a line or after
// whitespace, runs to the cursor, may hold single spaces (titles do), and
// ends on a second space, a newline, a token, when the cursor leaves it,
// with a pick, and on Esc. Esc makes the @word plain text: it stays closed
// while the cursor moves over it or text is typed after it, and opens
// again only when the user edits inside it.
//
// A token is shown as "@label" ([Chip]: the label made safe to draw and at
// most picker.MaxLabelWidth cells) and sent as its canonical mention,
// @[label](dsh-session:…). Backspace at a token's end and Delete at its
// start remove it whole; an edit inside it turns it back into plain text,
// as the reference Web composer does. Canonical mentions pasted in, or in
// a text set from outside, become tokens.
//
// # Adopting it in a host with a textarea
//
//	// once
//	m.mentions = mention.NewTextarea(picker.New(picker.ResolverSource(resolver, target, 20)))
//
//	// Update: every message goes through the adapter, with the textarea
//	cmd := m.mentions.Update(&m.textarea, msg)
//	if p, ok := m.mentions.TakePick(); ok { /* a row of the host's own section */ }
//
//	// View: the popup over the screen, hanging from the '@'
//	m.mentions.SetOrigin(x, y) // the textarea's top-left cell
//	if l := m.mentions.Picker().Layer(); l != nil { layers = append(layers, l) }
//
//	// send
//	out, err := resolver.PrepareText(ctx, target, m.mentions.Value(m.textarea))
//
// The host keeps calling the textarea's own methods (Line, Column,
// InsertString, Reset, SetPromptFunc, heights); a change it makes outside
// Update is followed at the next Update, or at once with Sync.
//
// What the textarea cannot do that composer.Model does: draw a token in
// its own style (the textarea styles whole lines), and keep the cursor off
// a token's inside. Plain text that opens "@[" without closing it, typed
// right before a token, reads on the wire as part of that token's label;
// the session referenced is the same.
package mention
