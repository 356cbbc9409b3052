// Package agentlog offers other agents' session histories to the
// picker and to Prepare as read-only stores: a [Store] reads one agent's
// logs under a root through a [Format]'s rules over the shared engine
// ([github.com/dshkit/mentions/jsonlog]), and [Join] reads a
// host's own store and agent stores as one corpus.
//
// The formats are in their own packages: agentlog/claudecode (Claude
// Code transcripts) and agentlog/codex (Codex CLI rollouts). Each is a
// small set of rules: which files are sessions and what their ids are
// (Find), what each line means to the fold (an [Index]), and what text a
// kept message projects to (Text). The store does the rest the same way
// for both: listing with titles, surfaces, outlines that read back only
// the messages a snapshot keeps, seqs and versions for discovery.
//
// A session's id is its agent's prefix and the agent's own id
// ("claude:…", "codex:…"): it names one store, is stable across runs and
// round-trips through the dsh-session: URI. The projection keeps what a
// snapshot keeps of any session: the person's own words, the model's
// reply text, and the latest compaction checkpoint with what follows it.
// The repository's docs/agent-logs.md, docs/claude-code.md and
// docs/codex.md describe the rules, the memory each read holds and the
// choices made where a format leaves one.
package agentlog
