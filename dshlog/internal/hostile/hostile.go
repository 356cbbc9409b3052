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
