// Package hostile writes the session logs of dshlog's memory and cost
// bounds, shaped as a hostile or unlucky user's history would be: a log
// of a million small messages, a zstd log that decodes to hundreds of
// megabytes from a few, a turn left open with a hundred thousand tool
// calls pending, and a log of fifty thousand compactions. Each writer
// streams: nothing is held whole, so the generator's own memory stays
// small whatever it writes.
package hostile

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/klauspost/compress/zstd"
)

// Cwd is the working directory of every generated session; ProjectDir
// is its directory under a sessions root.
const (
	Cwd        = "/home/dev/src/big"
	ProjectDir = "--home-dev-src-big--"
)

type writer struct {
	w   *bufio.Writer
	seq int
	t   int64
	err error
}

func newWriter(w io.Writer, id string) *writer {
	lw := &writer{w: bufio.NewWriterSize(w, 1<<20), t: 1700000000000}
	lw.line(`{"type":"session","version":0,"id":%q,"createdAt":1700000000000,"cwd":%q,"delegationDepth":0}`, id, Cwd)
	return lw
}

func (l *writer) line(format string, args ...any) {
	if l.err == nil {
		_, l.err = fmt.Fprintf(l.w, format+"\n", args...)
	}
}

// ev writes one event; extra is appended inside the record.
func (l *writer) ev(typ, data, extra string) int {
	seq := l.seq
	l.line(`{"type":%q,"seq":%d,"time":%d,"data":%s%s}`, typ, seq, l.t, data, extra)
	l.seq++
	l.t += 7
	return seq
}

func (l *writer) close() error {
	if l.err != nil {
		return l.err
	}
	return l.w.Flush()
}

const app = `,"surfaceOp":"append"`

// text is a message text of n bytes: a few words, repeated.
func text(i, n int) string {
	s := fmt.Sprintf("message %d about the retry loop and the parser; ", i)
	return strings.Repeat(s, n/len(s)+1)[:n]
}

// Messages writes a log of n messages, user and assistant in turn, in
// turns of ten, each message's line about lineBytes long.
func Messages(w io.Writer, id string, n, lineBytes int) error {
	l := newWriter(w, id)
	textLen := max(lineBytes-200, 8)
	for i := 0; i < n; i++ {
		if i%10 == 0 {
			l.ev("turn/start", fmt.Sprintf(`{"turn":%d}`, i/10+1), "")
		}
		if i%2 == 0 {
			l.ev("user/message", fmt.Sprintf(`{"id":"u%d","role":"user","content":[{"type":"text","text":%q}],"source":{"kind":"user"}}`, i, text(i, textLen)), app)
		} else {
			l.ev("assistant/message", fmt.Sprintf(`{"message":{"id":"a%d","role":"assistant","content":[{"type":"text","text":%q}],"source":{"kind":"model"}}}`, i, text(i, textLen)), app)
		}
		if i%10 == 9 || i == n-1 {
			l.ev("turn/end", `{"reason":{"kind":"completed"}}`, "")
		}
	}
	return l.close()
}

// MessagesZstd writes Messages as zstd: the header in its own frame,
// then frames of frameBytes decoded bytes each (one frame for all when
// frameBytes is 0), as a writer that flushes rarely would.
func MessagesZstd(w io.Writer, id string, n, lineBytes, frameBytes int) error {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithWindowSize(8<<20))
	if err != nil {
		return err
	}
	// Each frame ends with the encoder's Close; a second Close (a defer)
	// would write a stray frame end after the last one.
	fw := &frameWriter{w: w, enc: enc, limit: frameBytes}
	if err := Messages(fw, id, n, lineBytes); err != nil {
		return err
	}
	return fw.flush()
}

// frameWriter cuts what is written into zstd frames at line ends: the
// first line alone, then frames of about limit bytes. A frame is
// streamed through the encoder, never held whole.
type frameWriter struct {
	w      io.Writer
	enc    *zstd.Encoder
	limit  int
	header bool
	n      int
	open   bool
}

func (f *frameWriter) Write(p []byte) (int, error) {
	total := len(p)
	for len(p) > 0 {
		if !f.open {
			f.enc.Reset(f.w)
			f.open, f.n = true, 0
		}
		cut := len(p)
		if !f.header {
			if i := bytes.IndexByte(p, '\n'); i >= 0 {
				cut = i + 1
			}
		} else if f.limit > 0 && f.n+cut > f.limit {
			room := min(max(f.limit-f.n, 1), len(p))
			if i := bytes.LastIndexByte(p[:room], '\n'); i >= 0 {
				cut = i + 1
			} else if i := bytes.IndexByte(p, '\n'); i >= 0 {
				cut = i + 1
			}
		}
		if _, err := f.enc.Write(p[:cut]); err != nil {
			return 0, err
		}
		f.n += cut
		endsLine := p[cut-1] == '\n'
		p = p[cut:]
		switch {
		case !f.header && endsLine:
			f.header = true
			if err := f.flush(); err != nil {
				return 0, err
			}
		case f.header && f.limit > 0 && f.n >= f.limit && endsLine:
			if err := f.flush(); err != nil {
				return 0, err
			}
		}
	}
	return total, nil
}

func (f *frameWriter) flush() error {
	if !f.open {
		return nil
	}
	f.open = false
	return f.enc.Close()
}

// PendingCalls writes a log whose last turn is still open with n tool
// calls that never reported: one assistant message per call, each call
// logged (tool/call), no result. A reader adds n closers.
func PendingCalls(w io.Writer, id string, n int) error {
	l := newWriter(w, id)
	l.ev("turn/start", `{"turn":1}`, "")
	l.ev("user/message", `{"id":"u","role":"user","content":[{"type":"text","text":"run every check"}],"source":{"kind":"user"}}`, app)
	l.ev("step/start", `{"turn":1,"step":1}`, "")
	for i := 0; i < n; i++ {
		call := fmt.Sprintf("call_%d", i)
		l.ev("assistant/message", fmt.Sprintf(`{"message":{"id":"a%d","role":"assistant","content":[{"type":"tool-call","id":%q,"name":"run","arguments":"{}"}],"source":{"kind":"model"}}}`, i, call), app)
		l.ev("tool/call", fmt.Sprintf(`{"turn":1,"step":1,"callId":%q,"name":"run","arguments":"{}"}`, call), "")
	}
	return l.close()
}

// Compactions writes n rounds of a user message, an assistant answer and
// a compaction checkpoint that replaces the two (citing them), so the
// surface keeps every checkpoint: n of them, each replace naming a range
// near the end of a surface that grows.
func Compactions(w io.Writer, id string, n int) error {
	l := newWriter(w, id)
	for i := 0; i < n; i++ {
		l.ev("turn/start", fmt.Sprintf(`{"turn":%d}`, i+1), "")
		u := l.ev("user/message", fmt.Sprintf(`{"id":"u%d","role":"user","content":[{"type":"text","text":"question %d"}],"source":{"kind":"user"}}`, i, i), app)
		a := l.ev("assistant/message", fmt.Sprintf(`{"message":{"id":"a%d","role":"assistant","content":[{"type":"text","text":"answer %d"}],"source":{"kind":"model"}}}`, i, i), app)
		l.ev("user/message", fmt.Sprintf(`{"id":"c%d","role":"user","content":[{"type":"text","text":"summary %d"}],"source":{"kind":"plugin","plugin":"compact"}}`, i, i),
			fmt.Sprintf(`,"sourceEventSeqs":[%d,%d],"surfaceOp":{"op":"replace","start":%d,"end":%d}`, u, a, u, a))
		l.ev("turn/end", `{"reason":{"kind":"completed"}}`, "")
	}
	return l.close()
}

// Shapes are the record shapes whose decoding must cost what the reader
// keeps, not what a parse tree of the record would (issue 28): each is
// one record of about size bytes between two ordinary messages.
//
//	wide-array      an ignorable record whose data is [0,0,0,…]
//	wide-object     an ignorable record whose data is {"k":0,"k":0,…}
//	deep            an ignorable record whose data is arrays 250 deep, side by side
//	chunk-row       a text-chunks row of one-byte entries (size/6 of them)
//	message-values  a user message with a block field [0,0,0,…]
//	deep-message    a user message with a block field nested 200 deep, side by side
//	tiny-records    size/70 ignorable records of one value each
//
// OneString, an ignorable record whose data is one string of size bytes,
// is the baseline they are measured against: as many bytes, one value.
var Shapes = []string{"wide-array", "wide-object", "deep", "chunk-row", "message-values", "deep-message", "tiny-records"}

// OneString is the baseline shape (see Shapes).
const OneString = "one-string"

// Shaped writes a log holding a record of the named shape of about size
// bytes, between two messages.
func Shaped(w io.Writer, id, shape string, size int) error {
	l := newWriter(w, id)
	l.ev("user/message", `{"id":"u0","role":"user","content":[{"type":"text","text":"before the record"}],"source":{"kind":"user"}}`, app)
	if shape == "tiny-records" {
		for range size / 70 {
			l.ev("x/tiny", "0", `,"ignorable":true`)
		}
	} else if err := l.shaped(shape, size); err != nil {
		return err
	}
	l.ev("user/message", `{"id":"u1","role":"user","content":[{"type":"text","text":"after the record"}],"source":{"kind":"user"}}`, app)
	return l.close()
}

// ShapedZstd writes Shaped as zstd: the header in its own frame, the
// rest in one.
func ShapedZstd(w io.Writer, id, shape string, size int) error {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(8<<20))
	if err != nil {
		return err
	}
	fw := &frameWriter{w: w, enc: enc}
	if err := Shaped(fw, id, shape, size); err != nil {
		return err
	}
	return fw.flush()
}

// shaped writes the one record of a shape, streamed.
func (l *writer) shaped(shape string, size int) error {
	repeat := func(open, unit, last, close string) {
		l.raw(open)
		for range max(size/len(unit), 1) {
			l.raw(unit)
		}
		l.raw(last + close)
	}
	seq := l.seq
	switch shape {
	case "wide-array", "wide-object", "deep", OneString:
		l.raw(fmt.Sprintf(`{"type":"x/pad","seq":%d,"time":%d,"ignorable":true,"data":`, seq, l.t))
		switch shape {
		case "wide-array":
			repeat("[", "0,", "0", "]")
		case "wide-object":
			repeat("{", `"k":0,`, `"k":0`, "}")
		case OneString:
			repeat(`"`, "a", "", `"`)
		default:
			deep := strings.Repeat("[", 250) + "0" + strings.Repeat("]", 250)
			repeat("[", deep+",", "0", "]")
		}
		l.raw("}\n")
		l.seq++
	case "chunk-row":
		n := max(size/6, 2)
		l.raw(fmt.Sprintf(`{"type":"text-chunks","seq0":%d,"time0":%d,"data":{"turn":1,"step":1,"index":0,"dt":[`, seq, l.t))
		for i := range n - 1 {
			if i > 0 {
				l.raw(",")
			}
			l.raw("0")
		}
		l.raw(`],"texts":[`)
		for i := range n {
			if i > 0 {
				l.raw(",")
			}
			l.raw(`"a"`)
		}
		l.raw("]}}\n")
		l.seq += n
	case "message-values", "deep-message":
		l.raw(fmt.Sprintf(`{"type":"user/message","seq":%d,"time":%d,"surfaceOp":"append","data":{"id":"big","role":"user","source":{"kind":"user"},"content":[{"type":"text","text":"big","x":`, seq, l.t))
		if shape == "message-values" {
			repeat("[", "0,", "0", "]")
		} else {
			deep := strings.Repeat("[", 200) + "0" + strings.Repeat("]", 200)
			repeat("[", deep+",", "0", "]")
		}
		l.raw("}]}}\n")
		l.seq++
	default:
		return fmt.Errorf("hostile: unknown shape %q", shape)
	}
	l.t += 7
	return l.err
}

func (l *writer) raw(s string) {
	if l.err == nil {
		_, l.err = l.w.WriteString(s)
	}
}

// ReplaceStorm writes n appended messages, then k replaces of one
// message by one (every other message of the first 2k, from the oldest):
// the surface keeps its length and becomes 2k+1 runs of messages.
// Each line is about lineBytes long.
func ReplaceStorm(w io.Writer, id string, n, k, lineBytes int) error {
	l := newWriter(w, id)
	textLen := max(lineBytes-200, 8)
	for i := range n {
		l.ev("user/message", fmt.Sprintf(`{"id":"u%d","role":"user","content":[{"type":"text","text":%q}],"source":{"kind":"user"}}`, i, text(i, textLen)), app)
	}
	for j := range min(k, n/2) {
		s := 2 * j
		l.ev("user/message", fmt.Sprintf(`{"id":"r%d","role":"user","content":[{"type":"text","text":%q}],"source":{"kind":"user"}}`, j, text(j, textLen)),
			fmt.Sprintf(`,"surfaceOp":{"op":"replace","start":%d,"end":%d},"sourceEventSeqs":[%d]`, s, s, s))
	}
	return l.close()
}
