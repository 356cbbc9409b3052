package dshlog

import (
	"os"
	"strings"

	"github.com/dshkit/mentions/sessionref"
	"github.com/valyala/fastjson"
)

// lineReader reads a raw log's lines back, for the text of the messages
// a parse keeps as their place in the file (lazy events). It reads only
// the file the parse was decoded from: a file whose key changed since is
// errChanged, and the caller reads the log again.
type lineReader struct {
	p      *parsed
	f      *os.File
	window int    // bytes read at once: ahead of a sequential reader, 0 for one line
	buf    []byte // the file from offset from
	from   int64
	jp     fastjson.Parser
}

// lines opens p's file to read its lines back, window bytes at a time
// (0: a line at a time).
func (s *Store) lines(p *parsed, window int) (*lineReader, error) {
	f, key, err := s.openLog(p.path)
	if err != nil {
		return nil, err
	}
	if key != p.key {
		f.Close()
		return nil, errChanged
	}
	return &lineReader{p: p, f: f, window: window}, nil
}

// message returns e, a lazy message of r's parse, decoded again from its
// line as the parse decoded it. errChanged: the line is not the message
// the parse saw there.
func (r *lineReader) message(e *event) (sessionref.Event, error) {
	line, err := r.line(e.at, int(e.n))
	if err != nil {
		return sessionref.Event{}, err
	}
	rec, _, err := decodeRecord(&r.jp, line)
	if err != nil {
		return sessionref.Event{}, errChanged
	}
	ev, err := r.p.decodeEvent(rec, int(e.line), true)
	if err != nil || ev.seq != e.seq || ev.typ != e.typ || !ev.isMessage() || ev.short != e.short {
		return sessionref.Event{}, errChanged
	}
	if o, ok := ev.outline(); ev.short && ev.tlen != e.tlen || !ev.short && (ok && int32(o.Bytes) != e.tlen || !ok && e.tlen >= 0) {
		return sessionref.Event{}, errChanged
	}
	m, _ := ev.message()
	return m, nil
}

// text returns the projected text of e, a lazy message of r's parse: its
// text blocks joined.
func (r *lineReader) text(e *event) (string, error) {
	m, err := r.message(e)
	if err != nil {
		return "", err
	}
	return joined(&m), nil
}

// line returns the n bytes at offset at, valid until the next call.
func (r *lineReader) line(at int64, n int) ([]byte, error) {
	if at >= r.from && at+int64(n) <= r.from+int64(len(r.buf)) {
		return r.buf[at-r.from : at-r.from+int64(n)], nil
	}
	size := max(n, r.window)
	if cap(r.buf) < size {
		r.buf = make([]byte, size)
	}
	k, err := r.f.ReadAt(r.buf[:size], at)
	if k < n {
		if err == nil {
			err = errChanged
		}
		r.buf = r.buf[:0]
		return nil, err
	}
	r.buf, r.from = r.buf[:k], at
	return r.buf[:n], nil
}

// close closes the file: errChanged when it changed while it was read,
// so what was read from it may not be what the parse saw.
func (r *lineReader) close() error {
	defer r.f.Close()
	if changed(r.f, r.p.key) {
		return errChanged
	}
	return nil
}

// joined is the newline-joined text of a decoded message's text blocks,
// as the projection joins them.
func joined(m *sessionref.Event) string {
	var parts []string
	for _, b := range m.Content {
		if b.Type == sessionref.BlockText {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}
