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
// # Embedding
//
// Build it with [New] and options; set styles and keys after that with
// [Model.SetStyles] and [Model.SetKeyMap] (one way each, as in bubbles).
// Tell it the screen ([Model.SetScreenSize]) or the pane it must stay in
// ([Model.SetBounds]), and the span of editor lines it must not cover
// ([Model.SetAnchorSpan]). Draw it with [Model.View] at [Model.Rect], or
// compose [Model.Layer] over the host's screen with lipgloss.
//
// Route keys for which [Model.WantsKey] is true and mouse messages for
// which [Model.WantsMouse] is true to [Model.Update] first. While the
// picker is open it consumes Tab and Enter even when nothing can be
// picked — the popup then says why, and so does [Model.Status] — so a
// host never sends a half-typed mention by accident. A click outside the
// popup closes it.
//
// A pick is handed over synchronously by [Model.TakePick] after the
// Update that made it, and also sent as a [PickedMsg] Cmd for other
// listeners; Esc or a click outside reports a [DismissedMsg]. Rows a
// host disables (already mentioned, reference limit reached) show why
// and cannot be picked. Tab or Enter pressed before the source has
// answered the current query waits, visibly, and picks the first match
// of that answer; it never picks a row of an older answer.
//
// # Messages
//
// While the picker is open, route every message you do not handle
// yourself to [Model.Update]: besides keys and mouse messages, the
// picker's work arrives as messages — the answers ([FetchedMsg],
// [HitsMsg], a host section's [ItemsMsg]) and two unexported ones: the
// timer that shows "searching…" when a fetch is slow and the preview's
// read. A host that routes by message type instead sends the picker
// every type it does not know. The simplest host passes its default branch to it (see
// Example (Routing)). Routing every message is always safe: one for
// another picker, an older query or a closed picker is ignored. A
// [tea.WindowSizeMsg] sets the screen size, as [Model.SetScreenSize]
// does; a host that keeps the popup in a pane calls [Model.SetBounds] as
// well. The composer and the mention package's textarea adapter route to
// their picker themselves: route every message to them instead.
//
// # Found in messages
//
// With [WithHitSource] the popup has a second section, headed "in
// messages", under the candidates: sessions a full-text search (the
// module's discover package, for one) found by what was said in them,
// each a row and a line of its matching text with the matched terms
// underlined. The search runs in its own tea.Cmd, tagged and cancelled
// like the candidates' fetch: a newer query cancels it and a stale
// answer ([HitsMsg]) is never applied. An empty or blank query searches
// nothing. A session the candidates already list is left out of the hits,
// so each session shows once. One cursor moves through both sections;
// entries are numbered candidates first, then hits (see [Model.RowAt]),
// unless [WithOrder] says otherwise,
// and a hit is picked into the same mention as a candidate. The section
// adds up to five lines (its heading and two hits) to the popup's height;
// more scroll. A pick asked for before the answers came, when no title
// matches, waits for the hits and picks the first.
//
// # The host's own sections
//
// Whatever else '@' means in the host — files, commands, agents — can
// share the popup: [WithSection] adds a [Section] with its own
// [ItemSource], fetched like the candidates (once per query, in a
// tea.Cmd, cancelled when the query changes, its answer an [ItemsMsg]
// dropped when stale, "searching…" in its heading when slow). Its
// [Item] rows are drawn through the same sanitiser and width function as
// sessions. [WithOrder] sets the order of all sections by ID
// ([SessionsID], [MessagesID] and the host's; by default the host's come
// last), and an empty '@' shows the sessions (unless
// [WithSessionsOnEmpty] is false) and the sections whose OnEmpty is set.
// Every section after the first has a heading; a host's always has one.
// One cursor, keys and mouse, moves through all of them, and the entries
// are numbered in the order drawn. A pick of a host's item hands it back
// in [PickedMsg].Item, with its section's ID, and no mention; a pick
// asked for before the answers came picks the first match in the order
// of the sections, waiting for a section drawn before it.
//
// # Looking before picking
//
// With WithPreview (off by default) the popup shows a preview of the
// highlighted session, a candidate or a hit: what the model would
// receive if the draft referenced it now. ResolverPreviewer reads it
// through the resolver's own Prepare, as a send does, so the counts
// (messages kept of total, omitted messages and bytes, compacted,
// truncated, as a card's collapsed line says them) and the conversation
// are the send's, and a session that cannot be referenced shows the
// error a send would give, in the words of sessionref.Describe. The
// conversation is drawn as plain sanitised text, newest last and
// scrolled to its end; a hit's is scrolled to the message that matched,
// its terms underlined. In a pane at least PreviewMinWidth (100) cells
// wide it stands beside the rows; in a narrower one the Preview key
// (alt+p or F2) shows it in place of the rows and back (pgup and pgdn
// then page it). Hovering a row previews it, and the wheel over the
// preview scrolls it.
//
// The read runs in a tea.Cmd, one at a time: when the highlight moves
// while a read runs, that read is cancelled and, once its answer is in,
// only the session highlighted last is read. Previews are cached by
// session within a byte budget (WithPreviewCache), shown at once when
// the highlight comes back, and read again once per opening of the popup
// in case the session moved on (the preview names its capture seq in its
// record). A keystroke never waits for a read.
//
// # Following the current session
//
// A host that switches sessions calls [Model.SetTarget] instead of
// building a new picker: every fetch from then on carries the target in
// its context ([TargetFromContext]), which [ResolverSource] ranks for;
// the cache is keyed by target, an open popup is cleared and asked again,
// and an answer for the old target is dropped when it arrives.
//
// While the entries do not all fit, the frame's bottom border says where
// the cursor is, how many entries there are and how many of them the "in
// messages" section holds ("3/20 · 5 in messages"), in a shorter form
// when the popup is narrow. The picker's own messages (why nothing can be
// picked, a source's error) wrap over up to three lines rather than
// being cut.
//
// Keys (see [DefaultKeyMap]): ↑/↓ and ctrl+p/ctrl+n move and wrap,
// pgup/pgdn and home/end jump, Tab or Enter picks, Esc closes. Mouse:
// the wheel scrolls, motion highlights, a click picks. The [KeyMap]
// implements help.KeyMap and enables its bindings by state.
//
// # Rows
//
// A row shows the label, the rank badge ("this dir", "no dir"), the short
// id, the folder and the age; as the popup narrows the folder goes
// first, then the badge, then the age. Columns that would say the same
// on every row of the list go as well: the folder for a store without
// folders or rows all in one folder, the badge when every row has the
// same one and it says nothing ("no dir" from a store without folders);
// "this dir" stays, as it says the rows share the current folder. The age counts from the creation time, or from the time
// [WithAge] chooses ([LastActive] for a store that sets UpdatedAt); a
// time in Unix seconds where milliseconds belong shows as "secs?".
//
// All text from sessions (titles, ids, folders, errors) is drawn through
// the module's one sanitiser and measured with its one width function,
// so no row is wider than the popup and no control byte reaches the
// terminal.
package picker
