// Package sessionref lets a message reference other chat sessions: it
// encodes and parses dsh-session: URIs and @[label](uri) mentions, lists
// ranked candidates for a picker, and prepares a bounded, read-only
// snapshot of each referenced session for the model.
//
// It is a Go port of the DeepSeek Harness session-reference service and
// is wire-compatible with it: the same canonical URIs, the same parse
// results, the same snapshot JSON bytes and the same capture statistics
// for the same inputs. The formats are described in the repository's
// docs directory: references.md (URIs and mentions), candidates.md
// (ranking) and snapshot.md (Prepare, retention and the envelope).
//
// The package has no UI and no storage of its own. A host implements
// [SessionQuery] over its sessions and builds a [Resolver]:
//
//	r, err := sessionref.NewResolver(store, sessionref.Config{})
//	cands, err := sessionref.NewLister(r, 0).ListCandidates(ctx, target, "pars", 20)
//	out, err := r.PrepareText(ctx, target, draft)
//	// append out.Context (the untrusted snapshot), then the message
//
// # Which message comes first
//
// A host that sends a prepared draft appends the context message first
// and the direct message after it, so the model reads the untrusted
// snapshot and then the user's own words, which come last. This is what
// the reference's terminal client did (it injected the context, then sent
// the prompt) and what the composer and the demo do.
//
// [Resolver.RewriteMessages] is the reference's pre-step hook and keeps
// its order instead: each citing message is followed by its context
// message, as the reference's web client stores them (the context at seq
// S belongs to the message at S-1). Use it only to rewrite a history the
// way that hook does.
//
// A host that can send only one user text per turn sends
// [PreparedText.SingleMessage] instead: the context prompt, a line with
// its source record, then the direct message under "## Message", in that
// order. [ParseSingleMessage] reads its stored text back (the context for
// a card, and the person's words), exactly, and gives a text without the
// form as a message without context. For the rest of a stored message's
// life, in either form, [Readable] is what to show of it (a title, the
// history, a copy, a search) and [Canonical] the draft it was sent from,
// with its mentions (recall, edit). A session whose user messages are
// stored in the form can be referenced in turn: its snapshot keeps their
// direct text only, so snapshots never nest.
//
// # What a store must set
//
// A host that keeps each session as a list of messages (a role and a
// text) in its own database need not build events: [MessageStore] turns
// two functions, its sessions and one session's messages, into a
// SessionQuery.
//
// A snapshot keeps a user/message only when its Source.Kind is exactly
// "user" or it is a compaction checkpoint (Kind "plugin", Plugin
// "compact"), and an assistant/message only when it has a text block;
// everything else is left out, as the reference does. A store that leaves
// Kind empty loses every user turn without an error: [CheckSurface]
// reports such events, for a store's own tests. Times are Unix
// milliseconds: set them with [Millis], and [CheckStore] reports times in
// seconds, a listing that is not newest first and other listing mistakes.
//
// Every failure of the service is an *[Error] with a [Code]; it names the
// session it is about, and [Describe] says it in a sentence for people
// (the composer's). Nothing is returned partially, so a caller can always
// keep the user's draft.
//
// The snapshot sits inside a "## Referenced sessions" section, between
// <referenced-sessions> tags, with every '<' in its JSON escaped, so no
// session content, label or working directory can close the envelope.
package sessionref
