package jsonlog

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"os"
	"time"
)

// Snapshot says which bytes of which file an index was built from; it
// reads lines of them back.
type Snapshot struct {
	// Path is the file.
	Path string
	// Key is its identity and version when it was read.
	Key Key
	// End is the offset after the last complete line (or whole frame)
	// read.
	End int64
	// Lines is the number of complete lines read (a torn frame's
	// included, when the index was given them).
	Lines  int
	head   [32]byte
	nhead  int
	tail   []byte
	frames Frames
	offs   [][2]int64 // a framed log's frames: offset and length
	// tornSum is, when the last of offs is a torn frame (being written),
	// the hash of its bytes as they were indexed: a writer may still undo
	// them and write others in their place.
	tornSum *[32]byte
	// inLong: a raw log's last line, with no newline yet, is over the
	// line cap and was handed over as Long (Lines counts it).
	inLong bool
}

// Lines reads lines of a snapshot back, keeping the file open and, of a
// raw log, a window of up to readAhead bytes read at once (a longer line
// until the next one is read), of a framed log the frame it decodes: its
// whole text while it is small (up to keepFrame bytes), else the
// decoder, left where the last line ended, and the text from there on
// that it decoded. Closed, it stops the decoder and keeps the frame's
// text it holds, and the next Line opens the file again, with the
// checks of [Snapshot.Open].
type Lines struct {
	s     *Snapshot
	f     *os.File
	cur   *cursor // the frame being read, nil for none
	win   []byte  // a raw log's bytes from winAt, read ahead of a line asked for
	winAt int64
	reads int // reads of the raw log's bytes, for tests
}

// readAhead is how much of a raw log a reader reads at once, from the
// line asked for on, once it reads a second line after its first: lines
// read back in order (a surface) cost one read a window rather than one
// a line, and a reader asked for one line reads only it.
const readAhead = 64 << 10

// keepFrame is the most of one frame's text a reader keeps between
// lines: of a bigger frame it keeps the decoder and the text from
// keepBehind before the last line read, so lines read in order decode
// the frame once, lines read a little way back too, and a line further
// back decodes it again from its start.
const keepFrame = 4 << 20

// Open checks that the file is still the one indexed (the same file, no
// shorter, not rewritten at its size, its bytes before End unchanged)
// and opens it to read lines back. The caller closes the reader.
func (s *Snapshot) Open() (*Lines, error) {
	r := &Lines{s: s}
	if err := r.open(); err != nil {
		return nil, err
	}
	return r, nil
}

// open opens the snapshot's file, checking it is still the one indexed.
func (r *Lines) open() error {
	s := r.s
	f, key, err := open(s.Path, math.MaxInt64)
	if err != nil {
		return err
	}
	if key = settled(f, key, s.Key); key != s.Key && (!key.SameFile(s.Key) || key.Size <= s.Key.Size) {
		f.Close()
		return fileErr(s.Path, ErrChanged, nil) // replaced, shrunk, or rewritten at its size
	}
	tail := make([]byte, len(s.tail))
	if _, err := f.ReadAt(tail, s.End-int64(len(tail))); err != nil || !bytes.Equal(tail, s.tail) {
		f.Close()
		return fileErr(s.Path, ErrChanged, nil)
	}
	r.f = f
	return nil
}

// Close closes the file (a later Line opens it again) and stops a frame's
// decoder; the frame's text it keeps stays, for lines read after.
func (r *Lines) Close() error {
	r.win = nil
	r.cur.close()
	if r.f == nil {
		return nil
	}
	f := r.f
	r.f = nil
	return f.Close()
}

// Line reads back the line of length n (newline excluded) at at, the
// place the indexer was given, checking that it still ends where it
// did. The line is valid until the next call.
func (r *Lines) Line(ctx context.Context, at int64, n int) ([]byte, error) {
	s := r.s
	if err := ctx.Err(); err != nil {
		return nil, fileErr(s.Path, ErrUnreadable, err)
	}
	if r.f == nil {
		if err := r.open(); err != nil {
			return nil, err
		}
	}
	if s.frames != nil {
		return r.frameLine(ctx, at, n)
	}
	if at < 0 || n < 0 || at+int64(n) >= s.End {
		return nil, fileErr(s.Path, ErrChanged, fmt.Errorf("no line of %d bytes at offset %d", n, at))
	}
	end := at + int64(n) + 1
	if at < r.winAt || end > r.winAt+int64(len(r.win)) {
		if err := r.fill(at, end); err != nil {
			return nil, err
		}
	}
	buf := r.win[at-r.winAt : end-r.winAt]
	if buf[n] != '\n' {
		return nil, fileErr(s.Path, ErrChanged, fmt.Errorf("the line at offset %d no longer ends where it did", at))
	}
	return buf[:n], nil
}

// fill reads the raw log from at into the window, through end: only
// that line for a reader's first line or one before the window, else up
// to readAhead bytes (not past End). A line longer than readAhead gets a
// window of its own, dropped at the next fill.
func (r *Lines) fill(at, end int64) error {
	want := end - at
	if r.win != nil && at >= r.winAt {
		want = max(want, readAhead) // reading on: read ahead
	}
	size := min(want, r.s.End-at)
	buf := r.win
	if int64(cap(buf)) < size || cap(buf) > readAhead {
		buf = make([]byte, size)
	}
	buf = buf[:size]
	r.reads++
	if _, err := r.f.ReadAt(buf, at); errors.Is(err, io.EOF) {
		r.win = nil
		return fileErr(r.s.Path, ErrChanged, fmt.Errorf("the file no longer reaches the line at offset %d", at))
	} else if err != nil {
		r.win = nil
		return fileErr(r.s.Path, ErrUnreadable, err)
	}
	r.win, r.winAt = buf, at
	return nil
}

var errEnough = errors.New("enough")

// frameLine reads a line of a framed log back by decoding its frame, or
// going on decoding it from the line read last.
func (r *Lines) frameLine(ctx context.Context, at int64, n int) ([]byte, error) {
	s := r.s
	k, off := unpackPos(at)
	if k < 0 || k >= len(s.offs) || n < 0 {
		return nil, fileErr(s.Path, ErrChanged, fmt.Errorf("no frame %d", k))
	}
	want := off + int64(n) + 1
	if c := r.cur; c == nil || c.k != k || off < c.base || c.shut && !c.done && want > c.base+int64(len(c.win)) {
		r.cur.close()
		r.cur = nil
		data := make([]byte, s.offs[k][1])
		if _, err := r.f.ReadAt(data, s.offs[k][0]); err != nil && !errors.Is(err, io.EOF) {
			return nil, fileErr(s.Path, ErrUnreadable, err)
		}
		if s.tornSum != nil && k == len(s.offs)-1 && sha256.Sum256(data) != *s.tornSum {
			return nil, fileErr(s.Path, ErrChanged, fmt.Errorf("the torn frame %d was rewritten", k))
		}
		r.cur = newCursor(s.frames, k, data, s.frames.MaxText(s.Key.Size))
	}
	c := r.cur
	c.ctx = ctx
	c.trim(off)
	c.fill(off, want)
	if err := c.err; err != nil {
		r.cur.close() // a frame that failed (or a line cancelled) is decoded again
		r.cur = nil
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, fileErr(s.Path, ErrUnreadable, err)
		}
		return nil, fileErr(s.Path, ErrChanged, err)
	}
	if c.base+int64(len(c.win)) < want || c.win[want-1-c.base] != '\n' {
		return nil, fileErr(s.Path, ErrChanged, fmt.Errorf("no line of %d bytes at %d in frame %d", n, off, k))
	}
	return bytes.Clone(c.win[off-c.base : want-1-c.base]), nil
}

// cursor is a frame being decoded a piece at a time, as lines ask.
type cursor struct {
	k    int
	ctx  context.Context // the context of the line being read
	next func() ([]byte, bool)
	stop func()
	done bool   // the frame is decoded to its end
	shut bool   // the decoder is stopped: what win holds is all it has
	err  error  // why decoding failed, if it did
	base int64  // the offset in the frame's text of win
	win  []byte // text decoded and kept, from base on
}

// newCursor starts decoding frame k, whose bytes are data.
func newCursor(fr Frames, k int, data []byte, limit int64) *cursor {
	c := &cursor{k: k}
	c.next, c.stop = iter.Pull(func(yield func([]byte) bool) {
		err := fr.Decode(cursorCtx{c}, data, limit, func(p []byte) error {
			if !yield(p) {
				return errEnough
			}
			return nil
		})
		if err != nil && !errors.Is(err, errEnough) {
			c.err = err
		}
	})
	return c
}

// keepsAll reports whether all the text decoded so far is kept: a frame
// of at most keepFrame bytes is kept whole.
func (c *cursor) keepsAll() bool { return c.base == 0 && len(c.win) <= keepFrame }

// keepBehind is how much text before the line read last a cursor keeps:
// lines read a little way back (Prepare asks for the newest messages
// first, then older ones) are served without decoding the frame again.
const keepBehind = 4 << 20

// trim forgets the text more than keepBehind before off, unless all the
// text so far is kept.
func (c *cursor) trim(off int64) {
	if c.keepsAll() || off-keepBehind <= c.base {
		return
	}
	drop := min(off-keepBehind-c.base, int64(len(c.win)))
	c.win = c.win[drop:] // its array is used on by append, or let go when it grows
	c.base += drop
}

// fill decodes until the text from off up to want is in win (or the
// frame ends), and on to the frame's end while it may be kept whole.
func (c *cursor) fill(off, want int64) {
	for !c.done && !c.shut && c.err == nil && (c.base+int64(len(c.win)) < want || c.keepsAll()) {
		p, ok := c.next()
		if !ok {
			c.done = true
			break
		}
		c.win = append(c.win, p...)
		c.trim(off)
	}
}

// close stops the decoder; the text it decoded stays.
func (c *cursor) close() {
	if c != nil && !c.shut {
		c.shut = true
		c.stop()
	}
}

// cursorCtx is the context of the line a cursor is reading: the decoder
// outlives one line.
type cursorCtx struct{ c *cursor }

func (x cursorCtx) Deadline() (time.Time, bool) { return x.c.ctx.Deadline() }
func (x cursorCtx) Done() <-chan struct{}       { return x.c.ctx.Done() }
func (x cursorCtx) Err() error                  { return x.c.ctx.Err() }
func (x cursorCtx) Value(key any) any           { return x.c.ctx.Value(key) }

// ReadLine reads back the line of length n (newline excluded) at at,
// after the checks of [Snapshot.Open].
func (s *Snapshot) ReadLine(at int64, n int) ([]byte, error) {
	r, err := s.Open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.Line(context.Background(), at, n)
}
