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
// within a height cap.
package card
