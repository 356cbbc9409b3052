package agentlog

import (
	"context"
	"time"
	"unicode/utf8"

	"github.com/dshkit/mentions/jsonlog"
	"github.com/dshkit/mentions/sessionref"
)

// The kinds of a projected message.
const (
	// KindUser is a person's own words.
	KindUser uint8 = iota + 1
	// KindAssistant is a model's reply text.
	KindAssistant
	// KindCheckpoint is a compaction summary: what the conversation
	// before it was folded into.
	KindCheckpoint
)

// Message is one message of a session's current conversation as an
// index keeps it: where its line is and how long its projected text is,
// not the text itself (24 bytes).
type Message struct {
	// Off is the offset of its line in the log.
	Off int64
	// Len is the line's length without its newline.
	Len uint32
	// Line is the line's 1-based number: the message's seq.
	Line int32
	// Bytes is the length of its projected text.
	Bytes uint32
	// Kind is KindUser, KindAssistant or KindCheckpoint.
	Kind uint8
}

// Summary is what an index knows of a session besides its conversation.
type Summary struct {
	// Cwd is the session's working directory; "" with HasCwd false when
	// the log names none.
	Cwd    string
	HasCwd bool
	// Created and Updated are the first and last times the log records,
	// in Unix milliseconds (0 when it records none).
	Created, Updated int64
	// Title is the session's title by the format's rules; nil for none.
	Title *sessionref.Title
	// Bad counts lines that are not JSON objects or are over the line
	// cap; Unknown counts well-formed lines of a type the format does not
	// know. Both are skipped, never fatal.
	Bad, Unknown int
	// Empty is true when the log holds no conversation at all (no
	// message of any kind): such a file is not listed.
	Empty bool
}

// Index is a format's index of one log: fed by the engine one line at a
// time, it answers the session's summary and current conversation.
type Index interface {
	jsonlog.Indexer
	// Summary is the session's header, title and counts.
	Summary() Summary
	// Conversation is the current conversation's projected messages in
	// order, in a slice the caller may keep.
	Conversation() []Message
}

// File is one log a format found under its root.
type File struct {
	// ID is the session id without the format's prefix.
	ID string
	// Path is the log.
	Path string
}

// Reasons a log is passed over that every store gives in the same words
// (Stats.Skipped, Skip.Reason), so a host counting its own logs beside
// the agents' can use them too.
const (
	SkipLink       = "a symbolic link (not followed)"
	SkipNotRegular = "not a regular file (links are not followed)"
	SkipTooLarge   = "too large"
	SkipPermission = "permission denied"
	SkipGone       = "gone while listed"
	SkipUnreadable = "cannot be read"
)

// Skip is a file a format saw and did not list, and why.
type Skip struct {
	// Path is the file or directory.
	Path string
	// Reason is a short phrase, the same for every file skipped for the
	// same cause ("a subagent's transcript", "a symbolic link").
	Reason string
}

// Format is the rules of one agent's logs over the engine.
type Format interface {
	// Name is the agent's name for people ("Claude Code").
	Name() string
	// Badge is the short tag rows and cards show ("claude").
	Badge() string
	// Prefix starts every id of the format ("claude:"), so an id names
	// one store.
	Prefix() string
	// Find lists the logs under root, each once, in a stable order, and
	// what it passed over.
	Find(ctx context.Context, root string) ([]File, []Skip, error)
	// NewIndex returns an empty index.
	NewIndex() Index
	// Text is the projected text of a message of kind k, from its line
	// read back; ok is false when the line no longer yields one.
	Text(line []byte, k uint8) (text string, ok bool)
}

// TitleSource is an optional interface of a Format whose titles may live
// outside the logs (Codex's session index): the titles by id (without
// prefix) found under root, which win over the logs' own.
type TitleSource interface {
	Titles(ctx context.Context, root string) map[string]sessionref.Title
}

// FirstLine is what a session without a title record is labelled with:
// the first line of its first message from a person, cut to at most n
// bytes on a rune boundary, or "" for none.
func FirstLine(text string, n int) string {
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' || text[i] == '\r' {
			text = text[:i]
			break
		}
	}
	if len(text) <= n {
		return text
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return text[:cut] + "…"
}

// Millis is a log's RFC 3339 timestamp in Unix milliseconds, 0 (unknown)
// when it is empty or not one: the time both agents write on their lines.
func Millis(ts string) int64 {
	if ts == "" {
		return 0
	}
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return 0
	}
	return sessionref.Millis(t)
}
