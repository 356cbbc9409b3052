// Package sessionref lets a message reference other chat sessions: it
// encodes and parses dsh-session: URIs and @[label](uri) mentions, lists
// ranked candidates for a picker, and prepares a bounded, read-only
// snapshot of each referenced session for the model.
//
// It is a Go port of the DeepSeek Harness session-reference service and
// is wire-compatible with it: the same canonical URIs, the same parse
// results, the same snapshot JSON bytes and the same capture statistics
// for the same inputs.
//
// The package has no UI and no storage of its own. A host implements
// [SessionQuery] over its sessions and builds a [Resolver]:
//
//	r, err := sessionref.NewResolver(store, sessionref.Config{})
//	cands, err := r.ListCandidates(ctx, target, "pars", 20)
//	out, err := r.PrepareText(ctx, target, draft)
//	// send out.Parsed.Text, then out.Context (the untrusted snapshot)
//
// Every failure of the service is an *[Error] with a [Code]; nothing is
// returned partially, so a caller can always keep the user's draft.
//
// The snapshot sits inside a "## Referenced sessions" section, between
// <referenced-sessions> tags, with every '<' in its JSON escaped, so no
// session content, label or working directory can close the envelope.
package sessionref
