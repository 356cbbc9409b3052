package dshlog

import (
	"bytes"
	"os"
	"strings"

	"github.com/dshkit/mentions/sessionref"
)

// lineReader reads a raw log's lines back, for the messages a parse
// keeps as their place in the file (lazy events). It reads only the file
// the parse was decoded from, or that file grown by an append (the test
// a parse uses to decode only what was appended: the bytes it saw are
// where they were); anything else is errChanged, and the caller reads
// the log again.
type lineReader struct {
	s      *Store
	p      *parsed
	f      *os.File // nil: the file is opened for each read that misses the window
	window int      // bytes read at once (at least the line)
	back   bool     // the window ends at the line read (a reader going to older lines)
	buf    []byte   // the file from offset from
	from   int64
}

// lines opens p's file to read its lines back, window bytes at a time
// ahead of the line asked for.
func (s *Store) lines(p *parsed, window int) (*lineReader, error) {
	f, err := s.openParsed(p)
	if err != nil {
		return nil, err
	}
	return &lineReader{s: s, p: p, f: f, window: window}, nil
}

// openParsed opens p's file, which must still hold what p parsed.
func (s *Store) openParsed(p *parsed) (*os.File, error) {
	f, key, err := s.openLog(p.path)
	if err != nil {
		return nil, err
	}
	if !p.stillHolds(f, key) {
		f.Close()
		return nil, errChanged
	}
	return f, nil
}

// stillHolds reports whether the open file f, whose key is now key,
// still holds what p parsed: the same version, or the same file grown by
// an append.
func (p *parsed) stillHolds(f *os.File, key fileKey) bool {
	return key == p.key || key.grownFrom(p.key) && appendOnly(f, p.committed, p.mark, p.headSum)
}

// message returns e, a lazy message of r's parse, decoded again from its
// line as the parse decoded it. errChanged: the line is not the message
// the parse saw there.
func (r *lineReader) message(e *event) (sessionref.Event, error) {
	line, err := r.line(e.at, int(e.n))
	if err != nil {
		return sessionref.Event{}, err
	}
	rec, _, err := decodeRecord(line)
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
	if !r.holds(at, n) {
		start := at
		if r.back {
			start = max(0, at+int64(n)-int64(max(n, r.window)))
		}
		if err := r.fill(start, max(n, r.window)); err != nil {
			return nil, err
		}
		if !r.holds(at, n) {
			return nil, errChanged // the parse saw these bytes: the file was cut
		}
	}
	return r.buf[at-r.from : at-r.from+int64(n)], nil
}

// holds reports whether the window holds the n bytes at offset at.
func (r *lineReader) holds(at int64, n int) bool {
	return at >= r.from && at+int64(n) <= r.from+int64(len(r.buf))
}

// fill reads up to size bytes of the file from offset start into the
// window (fewer at its end).
func (r *lineReader) fill(start int64, size int) error {
	if cap(r.buf) < size {
		r.buf = make([]byte, size)
	}
	f := r.f
	if f == nil {
		var err error
		if f, err = r.s.openParsed(r.p); err != nil {
			return err
		}
		defer f.Close()
	}
	k, _ := f.ReadAt(r.buf[:size], start)
	r.buf, r.from = r.buf[:k], start
	if r.f == nil { // the read is checked now: the file is closed after it
		if fi, err := f.Stat(); err != nil || !r.p.stillHolds(f, fileKeyOf(fi)) {
			r.buf = r.buf[:0]
			return errChanged
		}
	}
	return nil
}

// lineFrom returns the line that starts at offset at, without its
// "\n", valid until the next call, and the offset of the line after it.
func (r *lineReader) lineFrom(at int64) (line []byte, next int64, err error) {
	if at >= r.from && at < r.from+int64(len(r.buf)) {
		if i := bytes.IndexByte(r.buf[at-r.from:], '\n'); i >= 0 {
			return r.buf[at-r.from : at-r.from+int64(i)], at + int64(i) + 1, nil
		}
	}
	for n := max(r.window, 4096); ; n *= 2 {
		if err := r.fill(at, n); err != nil {
			return nil, 0, err
		}
		if i := bytes.IndexByte(r.buf, '\n'); i >= 0 {
			return r.buf[:i], at + int64(i) + 1, nil
		}
		if len(r.buf) < n || n > maxRecordBytes {
			return nil, 0, errChanged // no whole line there, as the parse read one
		}
	}
}

// close closes the file: errChanged when it changed while it was read
// (other than by an append), so what was read may not be what the parse
// saw.
func (r *lineReader) close() error {
	defer r.f.Close()
	fi, err := r.f.Stat()
	if err != nil || !r.p.stillHolds(r.f, fileKeyOf(fi)) {
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
