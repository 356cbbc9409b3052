// Package mentiontextarea adds session mentions to a
// charm.land/bubbles/v2/textarea.Model that the host keeps owning: a
// [Model] puts a mention.Model (the one set of mention rules, shared
// with the composer package) and a picker.Model behind the textarea.
//
// # Adopting it
//
//	// once
//	m.mentions = mentiontextarea.New(picker.New(picker.ResolverSource(resolver, 20)))
//	m.mentions.SetTarget(target) // and again when the host switches sessions
//
//	// Update: keys the adapter must see first, then the host's own, then
//	// every other message through the adapter, in place of ta.Update
//	if k, ok := msg.(tea.KeyPressMsg); ok && m.mentions.WantsKey(m.textarea, k) {
//		return m, m.mentions.Update(&m.textarea, msg)
//	}
//	// … the host's own keys …
//	cmd := m.mentions.Update(&m.textarea, msg)
//	if p, ok := m.mentions.TakePick(); ok { /* a row of the host's own section */ }
//
//	// View: the popup over the screen, hanging from the '@'
//	m.mentions.SetOrigin(x, y) // the textarea's top-left cell
//	if l := m.mentions.Picker().Layer(); l != nil { layers = append(layers, l) }
//
//	// send: the canonical text, never ta.Value()
//	out, err := resolver.PrepareText(ctx, target, m.mentions.Canonical(m.textarea))
//
// # What the textarea holds
//
// ta.Value() is the readable text: each mention as "@label", which
// references nothing. Send [Model.Canonical]; show or store the readable
// text with [Model.Readable]. To put a stored draft back, call
// [Model.SetValue] with its canonical text — or ta.SetValue with it: the
// adapter turns its mentions into tokens at the next Update (or at once
// with [Model.Sync]). The host keeps calling the textarea's own methods
// (Line, Column, InsertString, Reset, SetPromptFunc, heights); a change
// it makes outside Update is followed at the next Update.
//
// # Keys the textarea must not get
//
// bubbles' textarea (v2.0.0 to v2.1.1) never returns from its word
// backward key (alt+b, alt+left) when nothing but white space is before
// the cursor and the first line is empty or starts with white space — an
// empty textarea included: the program stops answering. The adapter
// moves the cursor to the start itself instead (v2.2.2 has the loop
// fixed; the guard is for hosts on the versions before).
// docs/textarea-hang.md has the reproduction.
//
// What the textarea cannot do that composer.Model does: draw a token in
// its own style (the textarea styles whole lines), and keep the cursor off
// a token's inside.
package mentiontextarea
