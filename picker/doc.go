// Package picker is a reusable @-mention session picker for Bubble Tea
// v2 programs.
//
// The picker knows nothing of text areas. Its host (the composer of this
// module, or any editor) opens it with the text typed after '@', tells it
// where that '@' is on screen, and passes it messages. The picker fetches
// ranked candidates from a [Source] in a tea.Cmd as the query changes —
// one fetch at a time, the previous one cancelled, stale replies dropped,
// recent queries cached — and draws a popup of the visible rows only.
//
// A pick is reported as a [PickedMsg] carrying the candidate and its
// canonical mention text; Esc reports a [DismissedMsg]. Rows a host
// disables (already mentioned, reference limit reached) show why and
// cannot be picked.
//
// Keys (see [DefaultKeyMap]): ↑/↓ and ctrl+p/ctrl+n move and wrap,
// pgup/pgdn and home/end jump, Tab or Enter picks, Esc closes. Mouse:
// the wheel scrolls, motion highlights, a click picks.
package picker
