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
// Build it with [New] and options, which are only for what it keeps for
// its life (its sections and their order, its previewer, clock, tick and
// home). Everything a host may change while it runs has a setter and a
// getter and no option: styles and keys ([Model.SetStyles],
// [Model.SetKeyMap]), the session written in ([Model.SetTarget], the one
// place the picker is told it), width and rows ([Model.SetWidth],
// [Model.SetMaxRows]), the disable rule ([Model.SetDisable]), the screen
// ([Model.SetScreenSize]) or the pane it must stay in
// ([Model.SetBounds]), and the span of editor lines it must not cover
// ([Model.SetAnchorSpan]). Draw it with [Model.View] at [Model.Rect], or
// compose [Model.Layer] (at Z [LayerZ]) over the host's screen with
// lipgloss.
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
// picker's work arrives as messages — every section's answers (one type,
// [AnswerMsg]) and two unexported ones: the
// timer that shows "searching…" when a fetch is slow and the preview's
// read. A host that routes by message type instead sends the picker
// every type it does not know. The simplest host passes its default branch to it (see
// Example (Routing)). Routing every message is always safe: one for
// another picker, an older query or a closed picker is ignored. A
// [tea.WindowSizeMsg] sets the screen size, as [Model.SetScreenSize]
// does; a host that keeps the popup in a pane calls [Model.SetBounds] as
// well. The composer and the mentiontextarea adapter route to
// their picker themselves: route every message to them instead.
//
// # Sections
//
// The popup is made of sections, each a list of rows under a heading of
// its own (the first has none): the sessions ([SessionsID]) from the
// picker's [Source]; with [WithHitSource] the sessions found by what was
// said in them ("in messages", [MessagesID]), each a row and a line of its
// matching text with the matched terms underlined, leaving out the
// sessions the sessions section lists, so each session shows once; and
// whatever else '@' means in the host — files, commands, agents — as
// [WithSection] adds them, each with its own [ItemSource] and [Item]
// rows. Every section is one kind of thing: it is asked each query in a
// tea.Cmd of its own, with its own context, cancelled when the query
// changes; its answer is an [AnswerMsg], dropped when stale; while slow
// its heading says "searching…"; [Model.Answer] and [Model.SectionFresh]
// read its rows and whether they answer the current query, and
// [Model.Err] the errors of all of them. An empty or blank query is asked
// of the sessions (unless [WithSessionsOnEmpty] is false) and of the
// host's sections whose OnEmpty is set, never of "in messages".
//
// [WithOrder] sets the order of the sections by ID; by default the
// sessions come first, then the host's sections in the order added, then
// "in messages": what matches by name before what matches by what was
// said. One cursor, keys and mouse, moves through all of them, and the
// entries are numbered in that order (see [Model.RowAt]). A hit is
// picked into the same mention as a session; a host's item is handed
// back in [PickedMsg].Item, with its section's ID, and no mention.
//
// The highlight follows one rule, whatever order the answers arrive in:
// when the query changes, the highlight is on the first row in section
// order that Tab would pick by itself — enabled, and not an [Item] marked
// Manual — and every answer puts it there again until the user moves it
// (a key, the mouse); from then on no answer moves it off the row the
// user chose (the same session, in whichever section now shows it, or
// the same item). Tab or Enter pressed before the answers came picks
// that first row once the sections before it have answered. A Manual
// item (an always-present "Browse files…") is picked only when the user
// highlighted it, so it never wins a query that matches nothing else.
//
// The "in messages" section adds up to five lines (its heading and two
// hits) to the popup's height; more scroll.
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
// A preview belongs to a section: a host's section gives one for its
// items with [Section].Preview (text, read the same way), or none. While
// a row without a preview is highlighted no pane is drawn for it and the
// rows take the popup's whole width.
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
// [Model.SetTarget] is the one place the picker is told the session the
// message is written in, at first and whenever the host switches
// sessions (no new picker is needed): every fetch and preview read
// carries the target in its context ([TargetFromContext]), which
// [ResolverSource] ranks for and [ResolverPreviewer] prepares for; the
// cache is keyed by target, an open popup is cleared and asked again, and
// an answer for the old target is dropped when it arrives.
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
