package jsonlog

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// errStopped ends a scan whose indexer wants no more lines.
var errStopped = errors.New("the indexer stopped")

// splitter cuts text arriving in pieces into lines and feeds them to an
// indexer: a line within the line cap whole, a longer one by its length
// only (never held).
type splitter struct {
	ctx     context.Context
	ix      Indexer
	maxLine int
	lines   int               // lines so far, for numbering
	base    int64             // where the current line starts (file or frame text)
	pos     func(int64) int64 // the place handed over for a line starting at an offset
	cur     []byte            // the current line so far, when it spans pieces
	curLen  int64             // its length so far
	long    bool              // it is over the cap: only its length is counted
	// early: a line over the cap is handed over when it passes the cap,
	// not when it ends (a whole frame's line must end in the frame).
	early bool
	told  bool // the current long line was handed over
}

// stopped is errStopped when the indexer wants no more lines.
func (s *splitter) stopped() error {
	if st, ok := s.ix.(Stopper); ok && st.Stopped() {
		return errStopped
	}
	return nil
}

// partial reports whether a line was begun and not ended.
func (s *splitter) partial() bool { return s.curLen > 0 || s.long }

// write takes the next piece of text.
func (s *splitter) write(p []byte) error {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			s.grow(p)
			return s.stopped()
		}
		if !s.partial() && i <= s.maxLine {
			s.emit(p[:i]) // the common case: the whole line is in the piece
		} else {
			s.grow(p[:i])
			s.emit(s.cur)
		}
		p = p[i+1:]
		if err := s.stopped(); err != nil {
			return err
		}
		if s.lines&1023 == 0 {
			if err := s.ctx.Err(); err != nil {
				return err
			}
		}
	}
	return nil
}

// grow adds b to the current line. A line that passes the cap is handed
// over as Long at once, and the rest of it is only counted.
func (s *splitter) grow(b []byte) {
	s.curLen += int64(len(b))
	switch {
	case s.long:
	case s.curLen > int64(s.maxLine):
		s.long, s.cur = true, nil
		if s.early {
			s.lines++
			s.told = true
			s.ix.Long(s.lines, s.pos(s.base), s.curLen)
		}
	default:
		if n := len(s.cur) + len(b); n > cap(s.cur) {
			// Double, rather than append's gentler growth for big slices:
			// a line gathered to the cap costs about twice the cap.
			s.cur = append(make([]byte, 0, max(2*cap(s.cur), n)), s.cur...)
		}
		s.cur = append(s.cur, b...)
	}
}

// emit hands over the line that ends here (line, when it is not long:
// a long one was handed over when it passed the cap).
func (s *splitter) emit(line []byte) {
	n := s.curLen
	if !s.partial() {
		n = int64(len(line))
	}
	switch {
	case !s.long:
		s.lines++
		s.ix.Line(s.lines, s.pos(s.base), line)
	case !s.told:
		s.lines++
		s.ix.Long(s.lines, s.pos(s.base), n)
	}
	s.base += n + 1
	s.cur, s.curLen, s.long, s.told = s.cur[:0], 0, false, false
}

func identity(off int64) int64 { return off }

// scanBufs keeps the read buffers of scans that ended for the next ones:
// a listing scans hundreds of logs, each once. An indexer keeps nothing
// of a line past its call, so nothing refers to a buffer put back.
var scanBufs = sync.Pool{New: func() any { return new([bufBytes]byte) }}

// scanRaw feeds ix the complete lines of f between from and size (the
// size the file had when opened: bytes appended meanwhile wait for the
// next read). A last line with no newline is left unread. It returns
// the offset after the last complete line and the count of lines so far.
//
// A last line with no newline that is already over maxLine was handed
// over as Long (an indexer may stop there); inLong says so, and a scan
// resumed from that line's start (resume) counts it on without handing
// it over again.
func scanRaw(ctx context.Context, f *os.File, from, size int64, lines, maxLine int, resume bool, ix Indexer) (end int64, n int, inLong bool, err error) {
	sp := splitter{ctx: ctx, ix: ix, maxLine: maxLine, lines: lines, base: from, pos: identity}
	sp.long = resume // its bytes are read again from its start, and only counted
	var buf []byte
	if size-from < bufBytes {
		buf = make([]byte, max(size-from, 1)) // a small log needs no more
	} else {
		b := scanBufs.Get().(*[bufBytes]byte)
		defer scanBufs.Put(b)
		buf = b[:]
	}
	for off := from; off < size; {
		n, err := f.ReadAt(buf[:min(int64(len(buf)), size-off)], off)
		if n > 0 {
			off += int64(n)
			if werr := sp.write(buf[:n]); errors.Is(werr, errStopped) {
				return sp.base, sp.lines, sp.long, nil
			} else if werr != nil {
				return 0, 0, false, werr
			}
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, 0, false, err
		}
		if n == 0 {
			break // the file shrank under the read: what was whole stands
		}
	}
	if err := ctx.Err(); err != nil {
		return 0, 0, false, err
	}
	return sp.base, sp.lines, sp.long, nil
}

// framedScan is what a scan of a framed log found.
type framedScan struct {
	end       int64      // the offset after the last whole frame
	lines     int        // lines in whole frames, so far
	frames    [][2]int64 // each whole frame's offset and length, so far (of frames that held a line)
	decoded   int64      // text decoded from whole frames, so far
	torn      *[2]int64  // a torn last frame's offset and length, if its lines were fed
	tornSum   [32]byte   // the hash of its bytes, as they were fed
	tornLines int        // lines so far, the torn frame's included
}

// scanFrames feeds ix the lines of the whole frames of f between from
// and size, and, when ix can fork, a fork of it the whole lines of a
// torn last frame (returned, with its scan). sc holds what earlier scans
// found and is extended.
func scanFrames[T Indexer](ctx context.Context, f *os.File, fr Frames, from, size int64, maxLine int, sc *framedScan, ix T) (fork T, forked bool, err error) {
	b := make([]byte, size-from)
	got, err := f.ReadAt(b, from)
	if err != nil && !errors.Is(err, io.EOF) {
		return fork, false, err
	}
	b = b[:got] // a file cut short under the read ends in a torn frame; the caller sees it shrank
	capText := fr.MaxText(size)
	for off := 0; off < len(b); {
		n, whole, ferr := fr.Frame(b[off:])
		if ferr == nil && whole && (n <= 0 || n > len(b)-off) {
			ferr = fmt.Errorf("a whole frame of %d bytes where %d remain", n, len(b)-off)
		}
		if ferr != nil {
			return fork, false, fmt.Errorf("%w: frame at byte %d: %w", ErrCorrupt, from+int64(off), ferr)
		}
		k := len(sc.frames)
		sp := splitter{ctx: ctx, ix: ix, maxLine: maxLine, lines: sc.lines, pos: func(o int64) int64 { return framePos(k, o) }, early: whole}
		limit := min(capText-sc.decoded, maxFrameText)
		if !whole {
			if v, ok := any(ix).(Forker[T]); ok {
				fork, forked = v.Fork(), true
				sp.ix = fork
				derr := fr.Decode(ctx, b[off:], limit, sp.write)
				if derr != nil && !errors.Is(derr, errStopped) {
					return fork, false, frameErr(derr, from+int64(off))
				}
				sc.torn = &[2]int64{from + int64(off), int64(len(b) - off)}
				sc.tornSum = sha256.Sum256(b[off:])
				sc.tornLines = sp.lines
			}
			break
		}
		derr := fr.Decode(ctx, b[off:off+n], limit, sp.write)
		if errors.Is(derr, errStopped) {
			sc.frames = append(sc.frames, [2]int64{from + int64(off), int64(n)})
			sc.lines, sc.end = sp.lines, from+int64(off+n)
			return fork, false, nil
		}
		if derr != nil {
			return fork, false, frameErr(derr, from+int64(off))
		}
		if sp.partial() {
			return fork, false, fmt.Errorf("%w: the frame at byte %d does not end with a whole line", ErrCorrupt, from+int64(off))
		}
		if sp.lines > sc.lines { // a frame of no line has no place to keep: numbers go to frames with lines
			sc.frames = append(sc.frames, [2]int64{from + int64(off), int64(n)})
		}
		sc.lines, sc.decoded, sc.end = sp.lines, sc.decoded+sp.base, from+int64(off+n)
		off += n
	}
	return fork, forked, ctx.Err()
}

// frameErr says which frame a decoding error is about; a cap or a
// cancellation stays what it is.
func frameErr(err error, at int64) error {
	if errors.Is(err, ErrTooLarge) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("%w: frame at byte %d: %w", ErrCorrupt, at, err)
}
