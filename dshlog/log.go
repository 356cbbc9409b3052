package dshlog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/dshkit/mentions/sessionref"
)

// knownTypes are the event types this reader understands or may skip;
// anything else must be marked ignorable. The values are the interned
// type strings.
var knownTypes = map[string]string{}

func init() {
	for _, t := range strings.Fields(`user/message assistant/message tool/result assistant/chunk tool/call
		turn/start turn/end step/start step/end session/title session/title-llm-request session/end-seed
		request/header request/context agent/inbox/spliced compaction/start compaction/summary compaction/end
		compaction/prune todo/write approval/asked approval/decided approval/policy hook/invoked hook/result
		command/run command/done goal/change plan/mode llm/retry llm/retry-started tool/code-dispatch
		tool/code-dispatch-start tool-workflow/run-start tool-workflow/run-end tool-workflow/agent-start
		tool-workflow/agent-end subagent/descriptor team/message team/created agent-preset/selected
		permission/preset sandbox/mode steering/message`) {
		knownTypes[t] = t
	}
	for _, t := range []string{"text-chunks", "reasoning-chunks", "tool-call-chunks"} {
		knownTypes[t] = t // interned too, though not event types
	}
}

func isSurface(t string) bool {
	return t == sessionref.EventUserMessage || t == sessionref.EventAssistantMessage || t == sessionref.EventToolResult
}

// event is one decoded log event, kept as small as what the fold, the
// crash-repair closers and the surface need: 80 bytes, and for a message
// of a zstd log its text or its decoded form. In a raw log every message
// is kept as the place of its line in the file (at, n: lazy) with how a
// snapshot sees it (tlen, kind), and its text or content is decoded
// again from the file only when asked for. In a zstd log, whose decoded
// stream cannot be read at an offset, a message of the common shape (one
// text block, a source with only its kind) is kept as its kind and text
// (short), any other decoded (msg).
type event struct {
	seq  int64
	typ  string // "" for an ignorable event of an unknown type
	line int32
	// tlen is, for a short message, its text's length; for a lazy one
	// that is not short, the length of its projected text
	// (sessionref.OutlineMessage.Bytes), -1 when a snapshot leaves it out.
	tlen        int32
	at          int64 // of a lazy message: its line's offset in the file
	n           int32 // of a lazy message: its line's length, without "\n"
	short       bool  // a message of the common shape, kept as kind and text (or its place)
	lazy        bool  // a raw log's message, kept as its place in the file
	interrupted bool  // of a short message
	// kind is, for a short message, an index in shortKinds; for a lazy
	// one that is not short, 1 when it is a compaction checkpoint.
	kind uint8
	msg  *sessionref.Event // a decoded message (zstd, uncommon shape)
	text string            // of a short message that is not lazy
	x    *eventExtra       // nil when it has none of these
}

// eventExtra is what few events carry: a replace op, sources, tool call
// ids.
type eventExtra struct {
	replace   *[2]int64 // a replace op's start and end; nil = append
	sources   []int64
	callID    string      // tool/call and tool/result
	toolCalls []string    // tool-call block ids of an assistant message
	closer    *closerKind // of a crash-repair closer: its message is built when read
}

var noExtra eventExtra

// extra returns the event's extra fields, read-only (empty when none).
func (e *event) extra() *eventExtra {
	if e.x == nil {
		return &noExtra
	}
	return e.x
}

// setExtra returns the event's extra fields to write, made if needed.
func (e *event) setExtra() *eventExtra {
	if e.x == nil {
		e.x = &eventExtra{}
	}
	return e.x
}

// shortKinds are the source kinds a short message may have.
var shortKinds = [...]string{sessionref.SourceUser, sessionref.SourceModel, sessionref.SourceTool}

// isMessage reports whether the event is a surface message.
func (e *event) isMessage() bool {
	return e.short || e.lazy || e.msg != nil || e.x != nil && e.x.closer != nil
}

// setLazy keeps a raw log's message as the place of its line, at and n:
// its text, or its decoded content, is read back when asked for (see
// lineReader); what a snapshot needs to know of it stays.
func (e *event) setLazy(at int64, n int) {
	if !e.short {
		o, ok := sessionref.OutlineOf(e.msg)
		e.tlen, e.kind = -1, 0
		if ok {
			e.tlen = int32(o.Bytes)
		}
		if o.Checkpoint {
			e.kind = 1
		}
		e.msg = nil
	}
	e.lazy, e.at, e.n, e.text = true, at, int32(n), ""
}

// shorten keeps a decoded message of the common shape as its text and
// source kind alone.
func (e *event) shorten() {
	m := e.msg
	if m == nil || len(m.Content) != 1 || m.Content[0].Type != sessionref.BlockText || m.Content[0].Fields != nil ||
		m.Source.Plugin != "" || m.Source.Fields != nil || m.Synthetic {
		return
	}
	for k, name := range shortKinds {
		if m.Source.Kind == name {
			e.short, e.kind, e.interrupted, e.text, e.msg = true, uint8(k), m.Interrupted, m.Content[0].Text, nil
			e.tlen = int32(len(e.text))
			return
		}
	}
}

// message returns the event's message as a new value the caller may
// keep: a short one rebuilt, a decoded one as it is (shared: the caller
// clones it when the parse is shared). A lazy message is read back from
// the file instead (lineReader.message).
func (e *event) message() (m sessionref.Event, shared bool) {
	if e.msg == nil && e.x != nil && e.x.closer != nil {
		return closerMessage(e), false
	}
	if !e.short {
		return *e.msg, true
	}
	seq := e.seq
	return sessionref.Event{Seq: &seq, Type: e.typ, Source: sessionref.Source{Kind: shortKinds[e.kind]},
		Content: []sessionref.Block{{Type: sessionref.BlockText, Text: e.text}}, Interrupted: e.interrupted}, false
}

// outline is how a snapshot sees the message (sessionref.OutlineOf).
func (e *event) outline() (sessionref.OutlineMessage, bool) {
	switch {
	case e.typ == sessionref.EventToolResult: // never in a snapshot (a closer has no msg to ask)
		return sessionref.OutlineMessage{}, false
	case e.short:
		return sessionref.OutlineOfText(e.typ, sessionref.Source{Kind: shortKinds[e.kind]}, int(e.tlen))
	case e.lazy:
		if e.tlen < 0 {
			return sessionref.OutlineMessage{}, false
		}
		return sessionref.OutlineMessage{Assistant: e.typ == sessionref.EventAssistantMessage, Checkpoint: e.kind == 1, Bytes: int(e.tlen)}, true
	}
	return sessionref.OutlineOf(e.msg)
}

// eventCost is what an event costs in memory beyond its message, for the
// cache's byte budget.
const eventCost = 80

// parsed is what a log file holds once decoded. A parsed value is never
// changed once it is cached: growth makes a new one.
type parsed struct {
	path     string
	key      fileKey // the file's identity and version when it was read
	zstd     bool
	head     header
	warnings []string
	// events holds the committed events the fold and the closers look
	// at (surface, turn, step and tool-call events), in seq order; the
	// others (streamed chunks above all) are only counted.
	events segment
	// committed is the input offset after the last committed byte: a whole
	// line (raw) or a whole frame (zstd). Appended bytes start there.
	committed int64
	// mark is the input just before committed: a file that grew is
	// decoded as an append only when these bytes are still there.
	mark []byte
	// headSum hashes the first bytes (see headSum): checked with mark.
	headSum uint64
	// decoded counts the decoded bytes of the committed part, against
	// the store's cap.
	decoded int64
	// tail holds the lines of a torn last zstd frame: readable now, but
	// not committed, since the writer may still be finishing the frame.
	tail segment
	// closers are the crash-repair closers of events+tail, computed once.
	closers segment
	// stopped: a bad line ended the valid prefix; growth means a full
	// re-read, since a later turn/end would make the log corrupt.
	stopped bool
	err     error         // the log cannot be read (corrupt, unknown event, version)
	line    int           // lines consumed so far (the header is line 1)
	more    func() []byte // the text after the piece being decoded, when streamed
	cost    int64         // estimated bytes held, for the cache budget
	longest int64         // the longest record decoded, whose buffers bound what decoding held
	// sink, when set, takes the messages instead of events: the log is
	// streamed (see streamed), decoded in one pass.
	sink *streamed
	// inherited: the events before committed are a cached parse's, which
	// other reads may share (a log that grew), so they are never handed
	// over uncopied.
	inherited bool
}

// frameFlush is how much of a complete zstd frame's text is gathered
// before its whole lines are decoded: a frame's text is held at most
// this much (plus one record) at a time, whatever the frame decodes to.
const frameFlush = 4 << 20

// markLen is how many bytes before the committed offset are compared to
// tell an append from a rewrite.
const markLen = 64

// feeder carries one feed's limits: the decoded-bytes cap and the
// context whose end stops the work.
type feeder struct {
	ctx context.Context
	cap int64
}

func (f feeder) stop() error { return f.ctx.Err() }

// feed decodes chunk, the file's bytes from offset base on (base is
// p.committed when resuming, 0 for a new parse). An error return is about
// the read itself (cancelled, over the cap), not the log's content, which
// goes in p.err.
func (p *parsed) feed(fd feeder, chunk []byte, base int64) error {
	bud := &budget{used: p.decoded, cap: fd.cap}
	var tail []byte
	if p.zstd {
		var frameText []byte
		committedUsed := bud.used
		var atLine int // lines before the frame being decoded
		end, err := walkFrames(chunk, func(fr frame, data []byte) error {
			frameText = frameText[:0]
			guard := lineGuard{blankIsBad: fr.complete}
			atLine = p.line
			err := decodeFrame(fr, data, bud, fd.stop, func(b []byte) error {
				if err := guard.check(b); err != nil {
					return err
				}
				if n := len(frameText) + len(b); n > cap(frameText) {
					// Double, rather than append's gentler growth for big
					// slices: a frame at the cap costs about twice the cap.
					frameText = append(make([]byte, 0, max(2*cap(frameText), n)), frameText...)
				}
				frameText = append(frameText, b...)
				if fr.complete && len(frameText) > frameFlush {
					// A big frame is decoded as it streams, its whole lines
					// a piece at a time: its text is never held whole. A
					// defect later in the frame still makes the log
					// unreadable, whatever was decoded before it.
					if i := bytes.LastIndexByte(frameText, '\n'); i >= 0 {
						if err := p.take(fd, frameText[:i+1]); err != nil {
							return err
						}
						frameText = frameText[:copy(frameText, frameText[i+1:])]
					}
				}
				return nil
			})
			if err != nil {
				return err
			}
			if !fr.complete {
				if i := bytes.LastIndexByte(frameText, '\n'); i >= 0 {
					tail = bytes.Clone(frameText[:i+1])
				}
				return nil
			}
			if len(frameText) > 0 && frameText[len(frameText)-1] != '\n' {
				return errFrameLines
			}
			committedUsed = bud.used
			return p.take(fd, frameText)
		})
		var le *lineErr
		switch {
		case err == nil:
		case errors.Is(err, errTooLarge) || fd.ctx.Err() != nil:
			return err
		case errors.As(err, &le) && le.blank:
			p.setErr(logErr(p.path, atLine+le.line, ErrCorrupt, "%v", le))
			return nil
		case errors.As(err, &le):
			p.setErr(logErr(p.path, atLine+le.line, ErrTooLarge, "%v", le))
			return nil
		default:
			p.setErr(logErr(p.path, 0, ErrCorrupt, "%v", err))
			return nil
		}
		p.setCommitted(chunk, base, int64(end))
		p.decoded = committedUsed
	} else if err := p.feedRaw(fd, bytesAt{chunk, base}, base, base+int64(len(chunk))); err != nil {
		return err
	}
	return p.finish(fd, tail)
}

// finish decodes a header or lines found only in a torn zstd frame, and
// computes what a parse keeps beside its events.
func (p *parsed) finish(fd feeder, tail []byte) error {
	if p.line == 0 && p.err == nil {
		if len(tail) == 0 {
			p.setErr(logErr(p.path, 0, ErrHeader, "empty log"))
			return nil
		}
		first, rest, _ := bytes.Cut(tail, []byte{'\n'})
		tail = nil
		if p.header(first) {
			p.decodeLines(fd, rest, -1, &p.events, false)
		}
	}
	p.tail = segment{next: p.events.next, turns: turnState{partial: true}}
	if p.err == nil && !p.stopped && len(tail) > 0 {
		// The torn frame's lines are read but not committed: whatever they
		// hold (a defect included) may still change as the writer goes on.
		err, stopped, line := p.err, p.stopped, p.line
		p.decodeLines(fd, tail, -1, &p.tail, true)
		p.err, p.stopped, p.line = err, stopped, line
	}
	if err := fd.stop(); err != nil {
		return err
	}
	p.closers = closersOf(p.events, p.tail)
	p.cost = int64(p.events.n+p.tail.n) * eventCost
	for _, seg := range []segment{p.events, p.tail} {
		seg.each(func(e *event) { p.cost += msgCost(e.msg) + int64(len(e.text)) })
	}
	return nil
}

var errFrameLines = errors.New("a frame does not end with a whole line")

// bytesAt reads a byte slice that starts at file offset base.
type bytesAt struct {
	b    []byte
	base int64
}

func (r bytesAt) ReadAt(p []byte, off int64) (int, error) {
	off -= r.base
	if off < 0 || off > int64(len(r.b)) {
		return 0, io.EOF
	}
	n := copy(p, r.b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// readRange reads [from, to) of r.
func readRange(r io.ReaderAt, from, to int64) []byte {
	b := make([]byte, max(to-from, 0))
	n, _ := r.ReadAt(b, from)
	return b[:n]
}

// feedRaw decodes the whole lines of a raw log between base and size,
// streamed in pieces that stay in the processor's cache: the text is
// never held whole. A final line without "\n" is not written yet.
func (p *parsed) feedRaw(fd feeder, r io.ReaderAt, base, size int64) error {
	if size-base > fd.cap-p.decoded {
		return errTooLarge
	}
	from := base
	if p.line == 0 {
		line, next := firstLineAt(r, base, size)
		if next < 0 {
			p.committed = base // nothing whole yet; finish reports the empty log
			return nil
		}
		if !p.header(line) {
			p.committed = next
			return nil
		}
		from = next
	}
	end := from
	if !p.rawHalves(fd, r, from, size, &end) {
		end = p.rawStream(fd, r, from, size, &p.events, true)
	}
	if err := fd.stop(); err != nil {
		return err
	}
	p.committed = end
	if end > base {
		lo := max(0, end-markLen) // a file can be read before base, a slice cannot
		if _, inMemory := r.(bytesAt); inMemory {
			lo = max(lo, base)
		}
		p.mark = readRange(r, lo, end)
	}
	p.decoded = end
	return nil
}

// firstLineAt reads the line starting at from; next is the offset after
// its "\n", or -1 when there is no whole line before to.
func firstLineAt(r io.ReaderAt, from, to int64) (line []byte, next int64) {
	var buf []byte
	for off := from; off < to; {
		n := min(to-off, int64(max(4096, len(buf))))
		piece := readRange(r, off, off+n)
		if len(piece) == 0 {
			break
		}
		if i := bytes.IndexByte(piece, '\n'); i >= 0 {
			buf = append(buf, piece[:i]...)
			return buf, off + int64(i) + 1
		}
		buf = append(buf, piece...)
		off += int64(len(piece))
	}
	return nil, -1
}

// rawChunk is how much of a raw log is read at a time.
const rawChunk = 1 << 20

// rawStream decodes the whole lines of [from, to) into seg and returns
// the offset after the last one. With more set, a bad line's check for
// a later turn/end reads the rest of the file.
func (p *parsed) rawStream(fd feeder, r io.ReaderAt, from, to int64, seg *segment, more bool) int64 {
	buf := make([]byte, 0, min(rawChunk, max(to-from, 0)))
	end, off := from, from
	for off < to {
		if len(buf) == cap(buf) { // a line longer than the buffer
			if len(buf) > maxRecordBytes { // no line end in that many bytes
				p.setErr(logErr(p.path, p.line+1, ErrTooLarge, "a record longer than %d bytes", maxRecordBytes))
				break
			}
			buf = append(make([]byte, 0, min(2*cap(buf), maxRecordBytes+1)), buf...)
		}
		n, _ := r.ReadAt(buf[len(buf):min(int64(cap(buf)), int64(len(buf))+to-off)], off)
		if n == 0 {
			break
		}
		off += int64(n)
		buf = buf[:len(buf)+n]
		i := bytes.LastIndexByte(buf, '\n')
		if i < 0 {
			continue
		}
		end = off - int64(len(buf)-(i+1))
		if p.err == nil && !p.stopped {
			if more {
				rest := end
				p.more = func() []byte { return readRange(r, rest, to) }
			}
			p.decodeLines(fd, buf[:i+1], off-int64(len(buf)), seg, false)
			p.more = nil
		}
		if p.err != nil || p.stopped || fd.stop() != nil {
			break
		}
		buf = buf[:copy(buf, buf[i+1:])]
	}
	return end
}

// rawHalves decodes [from, to) as two halves at once, as decodeHalves
// does, each streamed from the file; end is set when it succeeds.
func (p *parsed) rawHalves(fd feeder, r io.ReaderAt, from, to int64, end *int64) bool {
	if to-from < parallelMin || runtime.GOMAXPROCS(0) < 2 || p.err != nil || p.stopped || p.sink != nil {
		return false
	}
	_, split := firstLineAt(r, from+(to-from)/2, to) // the line the middle falls in ends the first half
	if split < 0 || split >= to {
		return false
	}
	first, next := firstLineAt(r, split, to)
	if next < 0 {
		return false
	}
	rec, _, err := decodeRecord(first)
	if err != nil {
		return false
	}
	start := rec.seq
	if isPacked(rec.typ) {
		start = rec.seq0
	}
	var qEnd int64
	ok := p.joinHalves(fd, start,
		func() { p.rawStream(fd, r, from, split, &p.events, false) },
		func(q *parsed, second *segment) { qEnd = q.rawStream(fd, r, split, to, second, false) })
	if ok {
		*end = qEnd
	}
	return ok
}

// joinHalves runs decodeFirst (into p) and decodeSecond (into a fresh
// parsed and segment whose seqs start at start) at once, and appends the
// second half to p, its lines shifted after p's. When either half fails
// or they do not meet at start, p is left as it was and joinHalves
// returns false.
func (p *parsed) joinHalves(fd feeder, start int64, decodeFirst func(), decodeSecond func(q *parsed, second *segment)) bool {
	q := &parsed{path: p.path, zstd: p.zstd} // its lines are numbered from 1 and shifted when joined
	second := segment{next: start, turns: turnState{partial: true}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		decodeSecond(q, &second)
	}()
	savedEvents, savedLine := p.events.clipped(), p.line
	decodeFirst()
	<-done
	if p.err != nil || p.stopped || q.err != nil || q.stopped || p.events.next != start || fd.stop() != nil {
		p.events, p.err, p.stopped, p.line = savedEvents, nil, false, savedLine
		return false
	}
	second.each(func(e *event) { e.line += int32(p.line) })
	p.events.chunks = append(p.events.chunks, second.chunks...)
	p.events.n += second.n
	p.events.next, p.events.lastTime = second.next, second.lastTime
	p.events.turns.join(&second.turns)
	p.line += q.line
	p.longest = max(p.longest, q.longest)
	return true
}

func (p *parsed) setErr(err error) {
	if p.err == nil {
		p.err = err
	}
}

// setCommitted records the committed offset and the bytes before it.
func (p *parsed) setCommitted(chunk []byte, base, end int64) {
	p.committed = base + end
	if end > 0 {
		p.mark = bytes.Clone(chunk[max(0, end-markLen):end])
	}
}

// take decodes whole lines of text: the header first, then records.
func (p *parsed) take(fd feeder, text []byte) error {
	if p.err != nil || p.stopped || len(text) == 0 {
		return nil
	}
	if p.line == 0 {
		first, rest, _ := bytes.Cut(text, []byte{'\n'})
		if !p.header(first) {
			return nil
		}
		text = rest
	}
	if !p.decodeHalves(fd, text) {
		p.decodeLines(fd, text, -1, &p.events, false)
	}
	return fd.stop()
}

// parallelMin is the text size from which a parse decodes its two
// halves at once.
const parallelMin = 4 << 20

// decodeHalves decodes a big text as two halves at once, on two cores:
// the second half starts at the seq its first record names, and the two
// are joined when the first half ends exactly there. Anything else (a
// bad line, a gap, a single core) returns false with p untouched, and
// the text is decoded in one pass, which applies the robustness rules
// across the whole text.
func (p *parsed) decodeHalves(fd feeder, text []byte) bool {
	if len(text) < parallelMin || runtime.GOMAXPROCS(0) < 2 || p.err != nil || p.stopped || p.sink != nil {
		return false
	}
	mid := len(text) / 2
	nl := bytes.IndexByte(text[mid:], '\n')
	if nl < 0 || mid+nl+1 == len(text) {
		return false
	}
	a, b := text[:mid+nl+1], text[mid+nl+1:]
	first, _, _ := bytes.Cut(b, []byte{'\n'})
	r, _, err := decodeRecord(first)
	if err != nil {
		return false
	}
	start := r.seq
	if isPacked(r.typ) {
		start = r.seq0
	}
	return p.joinHalves(fd, start,
		func() { p.decodeLines(fd, a, -1, &p.events, false) },
		func(q *parsed, second *segment) { q.decodeLines(fd, b, -1, second, false) })
}

// header reads the first line.
func (p *parsed) header(line []byte) bool {
	h, warn, err := parseHeader(p.path, line)
	if err != nil {
		p.setErr(err)
		return false
	}
	p.head, p.warnings, p.line = h, warn, 1
	return true
}

func splitLines(text []byte) [][]byte {
	if len(text) == 0 {
		return nil
	}
	return bytes.Split(text[:len(text)-1], []byte{'\n'})
}

// msgCost estimates the bytes a decoded message holds.
func msgCost(m *sessionref.Event) int64 {
	if m == nil {
		return 0
	}
	n := int64(128)
	for _, b := range m.Content {
		n += int64(len(b.Text)) + 64
		for k, v := range b.Fields {
			n += int64(len(k)+len(v)) + 48
		}
	}
	for k, v := range m.Source.Fields {
		n += int64(len(k)+len(v)) + 48
	}
	return n
}

// decodeLines decodes whole lines of text and adds their events to seg,
// until a line ends the valid prefix (see endPrefix) or the read is
// stopped. base is text's offset in a raw log's file, where its messages
// can be read back; -1 for text that cannot be (a zstd log's).
func (p *parsed) decodeLines(fd feeder, text []byte, base int64, seg *segment, inTornFrame bool) {
	for i := 0; len(text) > 0; i++ {
		nl := bytes.IndexByte(text, '\n')
		line, rest := text[:nl], text[nl+1:]
		text = rest
		at := int64(-1)
		if base >= 0 {
			at = base
			base += int64(nl) + 1
		}
		p.line++
		if p.stopped || p.err != nil {
			return
		}
		p.longest = max(p.longest, int64(nl))
		if i&1023 == 1023 && fd.stop() != nil {
			return // the caller reports the cancellation
		}
		r, n, err := decodeRecord(line)
		if oc := (errOverCap{}); errors.As(err, &oc) {
			p.err = p.overCap(p.line, r, err)
			return
		}
		if gap := err == nil && seqGap(r, seg.next); err != nil || gap {
			p.endPrefix(line, rest, err, gap, seg.next, inTornFrame)
			return
		}
		if err := p.add(r, n, seg, at, len(line)); err != nil {
			p.err = err
			return
		}
	}
}

// seqGap reports whether record r does not go on at seq next.
func seqGap(r record, next int64) bool {
	if isPacked(r.typ) {
		return r.seq0 != next
	}
	return r.seq != next
}

// endPrefix applies the format's robustness rules to a line (the current
// one, p.line) that is unreadable or out of sequence: it ends the valid
// prefix, and it is corruption when a later record holds a turn/end
// (always, inside a complete zstd frame, and for a record that reads but
// is invalid); otherwise the rest is a torn tail and is dropped. rest is
// the text after the line in this piece; p.more gives the rest of the
// file.
func (p *parsed) endPrefix(line, rest []byte, err error, gap bool, next int64, inTornFrame bool) {
	lineNo := p.line
	if err != nil && !unreadable(err) {
		p.err = logErr(p.path, lineNo, ErrCorrupt, "%v", err)
		return
	}
	if p.zstd && !inTornFrame {
		p.err = logErr(p.path, lineNo, ErrCorrupt, "bad record inside a complete zstd frame")
		return
	}
	check := rest
	if gap {
		check = append(line[:len(line):len(line)], '\n') // the out-of-sequence record itself counts
		check = append(check, rest...)
	}
	if p.more != nil { // the rest of the file, past this piece
		check = append(append([]byte(nil), check...), p.more()...)
	}
	for _, later := range splitLines(check) {
		if typeOf(later) == "turn/end" {
			what := "unreadable line"
			if gap {
				what = fmt.Sprintf("seq gap (want %d)", next)
			}
			p.err = logErr(p.path, lineNo, ErrCorrupt, "%s before a later turn/end", what)
			return
		}
	}
	p.stopped = true
}

// add appends record r, which holds n events, to seg: a packed record is
// only counted (its members are assistant/chunk events, which nothing
// here looks at; member k's time is time0 plus the first k gaps, and the
// last one's is what a closer needs); an event the fold or the closers
// need is kept. A message of the common shape at file offset at (-1 for
// none) is kept as that place and its line's length n, not its text.
func (p *parsed) add(r record, n int, seg *segment, at int64, lineLen int) error {
	if isPacked(r.typ) {
		seg.next += int64(n)
		seg.lastTime = r.time0 + r.span
		return nil
	}
	keepText := at < 0 // a raw log's messages are read back from the file
	if p.sink != nil {
		keepText = p.sink.want[r.seq] // a streamed log keeps only what is read back
	}
	ev, err := p.decodeEvent(r, p.line, keepText)
	if err != nil {
		return err
	}
	if at >= 0 && ev.isMessage() {
		ev.setLazy(at, lineLen)
	}
	seg.next++
	seg.lastTime = r.time
	seg.turns.apply(&ev)
	if ev.isMessage() && p.sink != nil {
		p.sink.take(&ev, at)
		return nil
	}
	if ev.isMessage() {
		if x := ev.x; x != nil && x.replace == nil && x.sources == nil {
			ev.x = nil // its call ids were for the turn state only
		}
		seg.push(ev)
	}
	return nil
}

// typeOf is the type of a line's record, "" when it has none.
func typeOf(line []byte) string {
	var sc scanner
	v, err := sc.scanJSON(line)
	if err != nil {
		return ""
	}
	t, _ := v.get("type").str()
	return t
}

// overCap is the error of a record over one of the caps on what a read
// builds, naming the session and the seq.
func (p *parsed) overCap(line int, r record, err error) error {
	seq := r.seq
	if isPacked(r.typ) {
		seq = r.seq0
	}
	id := ""
	if p.head.ID != nil {
		id = *p.head.ID
	}
	return logErr(p.path, line, ErrTooLarge, "session %q, %s at seq %d: %v", id, r.typ, seq, err)
}

// decodeEvent turns a record into an event, upgrading legacy shapes. An
// ignorable event of an unknown type keeps its seq and has type "". A
// short message's text is kept only with keepText.
func (p *parsed) decodeEvent(r record, line int, keepText bool) (event, error) {
	ev := event{seq: r.seq, typ: r.typ, line: int32(line)}
	op := r.surfaceOp
	switch r.typ {
	case "steering/message":
		ev.typ = sessionref.EventUserMessage // legacy rows migrate to user/message
		if op == nil {
			op = jv(`"append"`)
		}
	case "request/header-delta", "mode/set":
		return ev, logErr(p.path, line, ErrCorrupt, "retired event type %q", r.typ)
	case "request/header":
		if r.data.get("reason").strIs("fallback") {
			return ev, logErr(p.path, line, ErrCorrupt, "retired request/header reason \"fallback\"")
		}
	}
	if _, known := knownTypes[r.typ]; !known || isPacked(r.typ) {
		if r.ignorable {
			ev.typ = ""
			return ev, nil
		}
		return ev, logErr(p.path, line, ErrUnknownEvent, "%q is not a known event type and is not marked ignorable (a newer DeepSeek Harness wrote it)", r.typ)
	}
	if !isSurface(ev.typ) {
		if r.surfaceOp != nil || r.hasSources {
			return ev, logErr(p.path, line, ErrCorrupt, "%s carries surfaceOp or sourceEventSeqs", r.typ)
		}
		return ev, p.decodeLogOnly(&ev, r.data)
	}
	// A message is built: within the caps on what that costs.
	switch {
	case r.values > maxValues:
		return ev, p.overCap(line, r, errOverCap{"a message of JSON values:", r.values, maxValues})
	case r.depth > maxDepth:
		return ev, p.overCap(line, r, errOverCap{"a message nested deep:", r.depth, maxDepth})
	}
	if r.nSources > 0 {
		ev.setExtra().sources = r.sourceSeqs()
	}
	if op == nil {
		return ev, logErr(p.path, line, ErrCorrupt, "%s has no surfaceOp", ev.typ)
	}
	if err := decodeOp(&ev, op); err != nil {
		return ev, logErr(p.path, line, ErrCorrupt, "%v", err)
	}
	if decodeShort(&ev, r.data, keepText) {
		return ev, nil
	}
	if err := decodeMessage(&ev, r.data); err != nil {
		return ev, logErr(p.path, line, ErrCorrupt, "%s: %v", ev.typ, err)
	}
	ev.shorten()
	return ev, nil
}

// decodeLogOnly reads the one field of a log-only event's data the
// closers or the titles need; the rest of data is not read.
func (p *parsed) decodeLogOnly(ev *event, data jv) error {
	switch ev.typ {
	case "session/title":
		if !data.get("title").isString() {
			return logErr(p.path, int(ev.line), ErrCorrupt, "session/title without a title")
		}
	case "tool/call":
		if id, _ := data.get("callId").str(); id != "" {
			ev.setExtra().callID = id
		}
	case "turn/end":
		if !data.isObject() || data.get("reason") == nil {
			return logErr(p.path, int(ev.line), ErrCorrupt, "turn/end without a reason")
		}
	}
	return nil
}
