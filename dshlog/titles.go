package dshlog

import (
	"bytes"
	"context"
	"strings"
	"unicode/utf8"

	"github.com/dshkit/mentions/jsonlog"
	"github.com/dshkit/mentions/sessionref"
)

// titlePattern is what a session/title record must contain. Lines
// without it are never decoded to find a title.
var titlePattern = []byte(`"session/title"`)

// The pattern is searched by its rarer tail: a search led by '"' or 's'
// stops at nearly every byte of JSON text, one led by '/' does not.
var (
	titleHead = titlePattern[:len(`"session`)]
	titleTail = titlePattern[len(`"session`):]
)

// indexTitle is bytes.Index(b, titlePattern), faster on log text.
func indexTitle(b []byte) int {
	for off := 0; ; {
		i := bytes.Index(b[off:], titleTail)
		if i < 0 {
			return -1
		}
		m := off + i
		if m >= len(titleHead) && bytes.Equal(b[m-len(titleHead):m], titleHead) {
			return m - len(titleHead)
		}
		off = m + 1
	}
}

// titleCandidate reports whether a whole line may be a title record: it
// holds the literal type, or an escape that could spell a character of
// it or of its key ("\/", or a \u escape of one of "typesession/title"'s
// letters; a \u001b of terminal output is not one).
func titleCandidate(l []byte) bool {
	return indexTitle(l) >= 0 || indexEscape(l) >= 0
}

// indexEscape is the offset of the first escape in b that could spell a
// character of "type" or "session/title", -1 when there is none: one
// pass over the backslashes.
func indexEscape(b []byte) int {
	for off := 0; ; {
		i := bytes.IndexByte(b[off:], '\\')
		if i < 0 || off+i+1 >= len(b) {
			return -1
		}
		m := off + i
		switch b[m+1] {
		case '/':
			return m
		case 'u':
			if m+6 <= len(b) && spellsTitleChar(b[m+2:m+6]) {
				return m
			}
		}
		off = m + 2 // an escape is two bytes at least; "\\" is skipped whole
	}
}

// spellsTitleChar reports whether the 4 hex digits of a \u escape name a
// character of "type" or "session/title".
func spellsTitleChar(h []byte) bool {
	var r rune
	for _, c := range h {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return false
		}
	}
	return r < utf8.RuneSelf && strings.ContainsRune("typesession/title", r)
}

// maxTitleLine bounds the line a title record may be (a title is at most
// 80 bytes; its record a few hundred): a longer title record is an
// error, not a title silently skipped, and not an earlier title.
const maxTitleLine = 1 << 20

// titleIndex finds a log's last session/title record without decoding
// any other line ([jsonlog.Indexer]): a line is decoded only when it
// holds the type's quoted name or an escape that could spell it. It
// keeps the title (a few hundred bytes) and is fed appended lines.
type titleIndex struct {
	path  string
	id    string // the header's session id, "" when it has none
	title *sessionref.Title
	// tooLong is the line of the last title record longer than
	// maxTitleLine, when no title record came after it; 0 when none.
	tooLong int
	// long is the line of the last record over maxRecordBytes, which
	// cannot be told a title or not; 0 when none.
	long int
}

func newTitleIndex(path string) *titleIndex { return &titleIndex{path: path} }

// Line implements jsonlog.Indexer.
func (t *titleIndex) Line(n int, _ int64, l []byte) {
	if n == 1 {
		if h, _, err := parseHeader(t.path, l); err == nil && h.ID != nil {
			t.id = *h.ID
		}
	}
	if !titleCandidate(l) {
		return
	}
	r, _, err := decodeRecord(l)
	if err != nil || r.typ != "session/title" {
		return
	}
	if len(l) > maxTitleLine {
		t.title, t.tooLong = nil, n
		return
	}
	if text, ok := r.data.get("title").str(); ok {
		t.title, t.tooLong = &sessionref.Title{Text: text, EventSeq: r.seq, UpdatedAt: r.time}, 0
	}
}

// Long implements jsonlog.Indexer.
func (t *titleIndex) Long(n int, _ int64, _ int64) { t.long = n }

// Size implements jsonlog.Indexer.
func (t *titleIndex) Size() int64 {
	if t.title == nil {
		return 64
	}
	return 64 + int64(len(t.title.Text))
}

// Fork implements jsonlog.Forker: a torn zstd frame's lines may be read
// for the title too, not kept.
func (t *titleIndex) Fork() *titleIndex {
	c := *t
	return &c
}

// result is the title, or why it cannot be told.
func (t *titleIndex) result() (*sessionref.Title, error) {
	switch {
	case t.long > 0:
		return nil, logErr(t.path, t.long, ErrTooLarge, "a record longer than %d bytes", maxRecordBytes)
	case t.tooLong > 0:
		// The last title record is too long to read: the title is not
		// known, and an earlier one must not stand in for it.
		return nil, logErr(t.path, t.tooLong, ErrTooLarge, "the session/title record is longer than %d bytes", maxTitleLine)
	}
	return t.title, nil
}

// title returns the log's last session/title record, reading only what
// was not read before.
func (s *Store) title(ctx context.Context, path string) (*sessionref.Title, error) {
	return s.titleOf(ctx, "", path)
}

// titleOf is title for session id's log at path: a log that now holds
// another session (replaced since it was listed) is ErrNotFound. An id
// of "" is not checked.
func (s *Store) titleOf(ctx context.Context, id, path string) (*sessionref.Title, error) {
	var title *sessionref.Title
	err := whileChanged(ctx, func() (string, error) {
		real, err := s.enginePath(path)
		if err != nil {
			return path, err
		}
		err = s.titles.Use(ctx, real, func(t *titleIndex, _ jsonlog.Snapshot) error {
			if id != "" && t.id != id {
				return logErr(path, 1, ErrNotFound, "the log now holds session %q, not %q", t.id, id)
			}
			var err error
			title, err = t.result()
			return relabel(err, path)
		})
		if err != nil {
			return path, s.engineErr(path, err)
		}
		return path, nil
	})
	if err != nil {
		return nil, err
	}
	return title, nil
}
