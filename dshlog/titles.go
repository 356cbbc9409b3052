package dshlog

import (
	"bytes"

	"github.com/dshkit/mentions/sessionref"
	"github.com/valyala/fastjson"
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

// maxTitleLine bounds the line a title record may be: a longer line that
// mentions session/title is not kept while scanning (a title is at most
// 80 bytes; its record a few hundred).
const maxTitleLine = 1 << 20

// titleScan finds the last session/title record in a stream of log text
// without decoding any other line: a byte search for the type's quoted
// name, then the few matching lines are decoded. Feed it text in pieces
// of any size; only whole lines count.
type titleScan struct {
	partial []byte // the current line so far, while at most maxTitleLine
	long    bool   // the current line is longer than that
	title   *sessionref.Title
	jp      fastjson.Parser
}

// write scans the next piece of text.
func (s *titleScan) write(b []byte) {
	if len(s.partial) > 0 || s.long {
		nl := bytes.IndexByte(b, '\n')
		if nl < 0 {
			s.grow(b)
			return
		}
		s.grow(b[:nl])
		if !s.long {
			s.line(s.partial)
		}
		s.partial, s.long = s.partial[:0], false
		b = b[nl+1:]
	}
	last := bytes.LastIndexByte(b, '\n')
	whole, rest := b[:last+1], b[last+1:]
	for len(whole) > 0 {
		m := indexTitle(whole)
		if m < 0 {
			break
		}
		start := bytes.LastIndexByte(whole[:m], '\n') + 1
		end := m + bytes.IndexByte(whole[m:], '\n')
		s.line(whole[start:end])
		whole = whole[end+1:]
	}
	s.grow(rest)
}

func (s *titleScan) grow(b []byte) {
	if s.long || len(b) == 0 {
		return
	}
	if len(s.partial)+len(b) > maxTitleLine {
		s.partial, s.long = s.partial[:0], true
		return
	}
	s.partial = append(s.partial, b...)
}

// line decodes a whole line that may be a title record.
func (s *titleScan) line(l []byte) {
	if !bytes.Contains(l, titlePattern) {
		return
	}
	r, _, err := decodeRecord(&s.jp, l)
	if err != nil || r.typ != "session/title" {
		return
	}
	if text, ok := str(r.data.Get("title")); ok {
		s.title = &sessionref.Title{Text: text, EventSeq: r.seq, UpdatedAt: r.time}
	}
}

// titleEntry is what the store remembers of one log's titles: the last
// title among the committed bytes, and where the scan stopped, so a log
// that grows is scanned from there on.
type titleEntry struct {
	key       fileKey
	committed int64  // input offset after the last whole line (raw) or frame (zstd)
	mark      []byte // the input just before committed
	decoded   int64  // decoded bytes so far (zstd), against the cap
	title     *sessionref.Title
	tail      *sessionref.Title // from a torn last zstd frame, not committed
	err       error
}
