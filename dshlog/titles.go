package dshlog

import (
	"bytes"
	"strings"
	"unicode/utf8"

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
	return bytes.Contains(l, titlePattern) || indexEscape(l) >= 0
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

// maxTitleLine bounds the line a title record may be: a longer line is
// not kept while scanning (a title is at most 80 bytes; its record a few
// hundred). Its top-level type is still read as it streams by, so a
// title record that long is an error, not a title silently skipped.
const maxTitleLine = 1 << 20

// titleScan finds the last session/title record in a stream of log text
// without decoding any other line: a byte search for the type's quoted
// name (or an escape that could spell it), then the few matching lines
// are decoded. Feed it text in pieces of any size; only whole lines
// count.
type titleScan struct {
	partial []byte // the current line so far, while at most maxTitleLine
	long    bool   // the current line is longer than that
	top     typeTracker
	off     int64 // bytes written so far
	lineAt  int64 // offset of the current partial line
	title   *sessionref.Title
	// tooLong is the offset of the last title record longer than
	// maxTitleLine, when no title record came after it; -1 when none.
	tooLong int64
}

func newTitleScan(title *sessionref.Title, tooLong, off int64) *titleScan {
	return &titleScan{title: title, tooLong: tooLong, off: off, lineAt: off}
}

// write scans the next piece of text.
func (s *titleScan) write(b []byte) {
	base := s.off
	s.off += int64(len(b))
	if len(s.partial) > 0 || s.long {
		nl := bytes.IndexByte(b, '\n')
		if nl < 0 {
			s.grow(b)
			return
		}
		s.grow(b[:nl])
		if s.long {
			if s.top.isTitle() {
				s.title, s.tooLong = nil, s.lineAt
			}
		} else {
			s.line(s.partial, s.lineAt)
		}
		s.partial, s.long = s.partial[:0], false
		b = b[nl+1:]
		base += int64(nl + 1)
	}
	last := bytes.LastIndexByte(b, '\n')
	whole, rest := b[:last+1], b[last+1:]
	s.scanLines(whole, base)
	s.lineAt = base + int64(last+1)
	s.grow(rest)
}

// scanLines decodes the candidate lines among whole lines of text.
func (s *titleScan) scanLines(whole []byte, base int64) {
	// next[i] is the next match of pattern i at or after off, -1 for
	// none, -2 not searched yet: each pattern is searched once a match.
	next := [2]int{-2, -2}
	for off := 0; off < len(whole); {
		m := -1
		for i := range next {
			if next[i] == -2 || (next[i] >= 0 && next[i] < off) {
				var j int
				if i == 0 {
					j = indexTitle(whole[off:])
				} else {
					j = indexEscape(whole[off:])
				}
				if j >= 0 {
					j += off
				}
				next[i] = j
			}
			if next[i] >= 0 && (m < 0 || next[i] < m) {
				m = next[i]
			}
		}
		if m < 0 {
			return
		}
		start := off + bytes.LastIndexByte(whole[off:m], '\n') + 1
		end := m + bytes.IndexByte(whole[m:], '\n')
		s.line(whole[start:end], base+int64(start))
		off = end + 1
	}
}

func (s *titleScan) grow(b []byte) {
	if len(b) == 0 {
		return
	}
	if s.long {
		s.top.write(b)
		return
	}
	if len(s.partial)+len(b) > maxTitleLine {
		s.top = typeTracker{}
		s.top.write(s.partial)
		s.top.write(b)
		s.partial, s.long = s.partial[:0], true
		return
	}
	s.partial = append(s.partial, b...)
}

// line decodes a whole line, starting at offset at, that may be a title
// record; one longer than maxTitleLine is only told apart by its type.
func (s *titleScan) line(l []byte, at int64) {
	if !titleCandidate(l) {
		return
	}
	if len(l) > maxTitleLine {
		var t typeTracker
		t.write(l)
		if t.isTitle() {
			s.title, s.tooLong = nil, at
		}
		return
	}
	r, _, err := decodeRecord(l)
	if err != nil || r.typ != "session/title" {
		return
	}
	if text, ok := r.data.get("title").str(); ok {
		s.title = &sessionref.Title{Text: text, EventSeq: r.seq, UpdatedAt: r.time}
		s.tooLong = -1
	}
}

// typeTracker reads the top-level "type" string of one JSON object
// streamed in pieces, keeping only that value (bounded), so a line too
// long to keep can still be told to be a title record or not. Keys and
// the value are compared after unescaping, as a JSON decoder does.
type typeTracker struct {
	depth    int
	inStr    bool
	esc      int    // 1 after a backslash; 2..5 inside \uXXXX hex digits
	hex      []byte // the hex digits of the current \u escape
	isKey    bool   // the string being read is a top-level key
	afterKey bool   // a top-level key was just read; its value is next
	capture  bool   // the string being read is kept (a top-level key, or type's value)
	cur      []byte // the kept string so far, unescaped, at most 64 bytes
	lastKey  string
	typ      string
	hasType  bool
}

const maxTracked = 64

func (t *typeTracker) isTitle() bool { return t.hasType && t.typ == "session/title" }

func (t *typeTracker) keep(b ...byte) {
	if t.capture && len(t.cur)+len(b) <= maxTracked {
		t.cur = append(t.cur, b...)
	} else {
		t.capture = false
	}
}

func (t *typeTracker) write(b []byte) {
	for _, c := range b {
		if t.inStr {
			t.inString(c)
			continue
		}
		switch c {
		case '"':
			t.inStr = true
			t.cur = t.cur[:0]
			t.isKey = t.depth == 1 && !t.afterKey
			t.capture = t.isKey || (t.depth == 1 && t.afterKey && t.lastKey == "type")
		case '{', '[':
			t.depth++
			t.afterKey = false
		case '}', ']':
			t.depth--
			if t.depth == 1 {
				t.afterKey = false
			}
		case ',':
			if t.depth == 1 {
				t.afterKey = false
			}
		case ':':
			if t.depth == 1 {
				t.afterKey = true
			}
		}
	}
}

// inString takes byte c of a string: an escape, its end, or its text.
func (t *typeTracker) inString(c byte) {
	switch {
	case t.esc == 1:
		t.esc = 0
		if c == 'u' {
			t.esc, t.hex = 2, t.hex[:0]
			return
		}
		if r := jsonEscapes[c]; r != 0 {
			t.keep(r)
			return
		}
		t.keep(c)
	case t.esc >= 2:
		t.hex = append(t.hex, c)
		if len(t.hex) == 4 {
			t.esc = 0
			t.keep(utf8.AppendRune(nil, hexRune(t.hex))...)
		}
	case c == '\\':
		t.esc = 1
	case c == '"':
		t.inStr = false
		t.endString()
	default:
		t.keep(c)
	}
}

// jsonEscapes decodes the letters of JSON's short escapes that stand for
// a control character; 0 is none (the others stand for themselves).
var jsonEscapes = [256]byte{'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// hexRune is the rune of four hex digits (a \u escape's); a digit that is
// not one counts as 0.
func hexRune(hex []byte) rune {
	var r rune
	for _, h := range hex {
		r <<= 4
		switch {
		case h >= '0' && h <= '9':
			r |= rune(h - '0')
		case h >= 'a' && h <= 'f':
			r |= rune(h-'a') + 10
		case h >= 'A' && h <= 'F':
			r |= rune(h-'A') + 10
		}
	}
	return r
}

func (t *typeTracker) endString() {
	if t.depth != 1 {
		return
	}
	switch {
	case t.isKey:
		t.lastKey = ""
		if t.capture {
			t.lastKey = string(t.cur)
		}
	case t.afterKey && t.lastKey == "type":
		// The last "type" key wins, as it does for fastjson's Visit.
		t.typ, t.hasType = "", true
		if t.capture {
			t.typ = string(t.cur)
		}
		t.afterKey = false
	default:
		t.afterKey = false
	}
}

// titleEntry is what the store remembers of one log's titles: the last
// title among the committed bytes, and where the scan stopped, so a log
// that grows is scanned from there on.
type titleEntry struct {
	path      string
	key       fileKey
	committed int64  // input offset after the last whole line (raw) or frame (zstd)
	mark      []byte // the input just before committed
	headSum   uint64 // the input's first bytes, hashed (see headSum)
	decoded   int64  // decoded bytes so far (zstd), against the cap
	title     *sessionref.Title
	tooLong   int64             // the scan's tooLong: a title record too long to read, -1 when none
	tail      *sessionref.Title // from a torn last zstd frame, not committed
	tailLong  int64             // the torn frame's tooLong
	err       error
}
