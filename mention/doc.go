// Package mention holds the rules of session mentions that every editor
// of this module follows, and imports no UI: a [Model] is the text, its
// mention tokens, the @query and the pick protocol, and the editors —
// the composer package's and the mentiontextarea package's adapter for
// a bubbles textarea — are views and key maps over it.
//
// # The rules
//
// One set of rules decides where a mention query starts and ends
// ([WordStart], [QueryText]): a query starts at an '@' at the start of a
// line or after whitespace, runs to the cursor, may hold single spaces
// (titles do), and ends on a second space, a newline, a token, when the
// cursor leaves it, with a pick, and on Esc. Esc makes the @word plain
// text: it stays closed while the cursor moves over it or text is typed
// after it, and opens again only when the user edits inside it. A space
// typed after a query whose answers are in and match nothing ends it the
// same way ([Model.EndsQuery]).
//
// A pick replaces the query with a token and a space (or the space
// already there); a space typed right after it is not doubled. A pick
// asked for before the picker's answer waits for it: text typed
// meanwhile goes after the query, and going back into the query drops
// the pick.
//
// A token is shown as "@label" and sent as its canonical mention,
// @[label](dsh-session:…). Its label is made safe and capped once, when
// the token is made ([Label]), so the chip shows exactly what the wire
// carries, and a title that spells a mention references nothing else.
// Backspace at a token's end and Delete at its start remove it whole; an
// edit inside it turns it back into plain text. A canonical mention or a
// bare dsh-session: URI that arrives any way — pasted, set, typed key by
// key, pasted in halves — becomes a token (a typed one when the cursor
// leaves its end); [Model.Canonical] writes plain text so that
// sessionref.ParseText finds exactly the tokens.
package mention
