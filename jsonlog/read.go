package jsonlog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
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
	Lines int
	// Decoded is the text a framed log's whole frames decoded to (for a
	// raw log, End).
	Decoded int64
	head    [32]byte
	nhead   int
	tail    []byte
	frames  Frames
	offs    [][2]int64 // a framed log's frames: offset and length
}

// Lines reads lines of a snapshot back, keeping the file open and, of a
// raw log, a window of up to readAhead bytes read at once (a longer line
// until the next one is read), of a framed log the text of the frame it
// decoded last (up to keepFrame bytes).
type Lines struct {
	s     *Snapshot
	f     *os.File
	frame int    // the frame whose text is kept, -1 for none
	text  []byte // its text
	win   []byte // a raw log's bytes from winAt, read ahead of a line asked for
	winAt int64
	reads int // reads of the raw log's bytes, for tests
	// big is a frame found too big to keep, whose lines are read from st,
	// a decode of it that goes on as they are read; -1 for none.
	big int
	st  *stream
}

// readAhead is how much of a raw log a reader reads at once, from the
// line asked for on, once it reads a second line after its first: lines
// read back in order (a surface) cost one read a window rather than one
// a line, and a reader asked for one line reads only it.
const readAhead = 64 << 10

// keepFrame is the most of one frame's text a reader keeps between
// lines: a bigger frame is decoded again for each line, keeping only it.
const keepFrame = 4 << 20

// Open checks that the file is still the one indexed (the same file, no
// shorter, not rewritten at its size, its bytes before End unchanged)
// and opens it to read lines back. The caller closes the reader.
func (s *Snapshot) Open() (*Lines, error) {
	f, key, err := open(s.Path, math.MaxInt64)
	if err != nil {
		return nil, err
	}
	if key != s.Key && (!key.SameFile(s.Key) || key.Size <= s.Key.Size) {
		f.Close()
		return nil, fileErr(s.Path, ErrChanged, nil) // replaced, shrunk, or rewritten at its size
	}
	tail := make([]byte, len(s.tail))
	if _, err := f.ReadAt(tail, s.End-int64(len(tail))); err != nil || !bytes.Equal(tail, s.tail) {
		f.Close()
		return nil, fileErr(s.Path, ErrChanged, nil)
	}
	return &Lines{s: s, f: f, frame: -1, big: -1}, nil
}

// Close closes the file.
func (r *Lines) Close() error {
	r.stopStream()
	r.win, r.text, r.frame = nil, nil, -1
	return r.f.Close()
}

// Line reads back the line of length n (newline excluded) at at, the
// place the indexer was given, checking that it still ends where it
// did. The line is valid until the next call.
func (r *Lines) Line(ctx context.Context, at int64, n int) ([]byte, error) {
	s := r.s
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
	if _, err := r.f.ReadAt(buf, at); err != nil {
		r.win = nil
		return fileErr(r.s.Path, ErrUnreadable, err)
	}
	r.win, r.winAt = buf, at
	return nil
}

var errEnough = errors.New("enough")

// frameLine reads a line of a framed log back by decoding its frame.
func (r *Lines) frameLine(ctx context.Context, at int64, n int) ([]byte, error) {
	s := r.s
	k, off := unpackPos(at)
	if k < 0 || k >= len(s.offs) || n < 0 {
		return nil, fileErr(s.Path, ErrChanged, fmt.Errorf("no frame %d", k))
	}
	want := off + int64(n) + 1
	if r.frame == k {
		if want > int64(len(r.text)) || r.text[want-1] != '\n' {
			return nil, fileErr(s.Path, ErrChanged, fmt.Errorf("no line of %d bytes at %d in frame %d", n, off, k))
		}
		return bytes.Clone(r.text[off : want-1]), nil
	}
	if k == r.big {
		return r.streamLine(ctx, k, off, want)
	}
	data, err := r.frameData(k)
	if err != nil {
		return nil, err
	}
	var kept, line []byte
	var seen int64
	whole := true // the frame's text is kept while it is small
	err = s.frames.Decode(ctx, data, s.frames.MaxText(s.Key.Size), func(p []byte) error {
		if lo, hi := max(off, seen), min(want, seen+int64(len(p))); lo < hi {
			line = append(line, p[lo-seen:hi-seen]...)
		}
		if whole && seen+int64(len(p)) <= keepFrame {
			kept = append(kept, p...)
		} else {
			whole, kept = false, nil
		}
		seen += int64(len(p))
		if !whole && seen >= want {
			return errEnough
		}
		return nil
	})
	if err != nil && !errors.Is(err, errEnough) {
		return nil, fileErr(s.Path, ErrChanged, err)
	}
	if whole {
		r.frame, r.text = k, kept
	} else {
		r.big = k // its next lines are read on from a stream of it
	}
	if int64(len(line)) != int64(n)+1 || line[n] != '\n' {
		return nil, fileErr(s.Path, ErrChanged, fmt.Errorf("no line of %d bytes at %d in frame %d", n, off, k))
	}
	return line[:n], nil
}

// frameData reads frame k's bytes.
func (r *Lines) frameData(k int) ([]byte, error) {
	data := make([]byte, r.s.offs[k][1])
	if _, err := r.f.ReadAt(data, r.s.offs[k][0]); err != nil && !errors.Is(err, io.EOF) {
		return nil, fileErr(r.s.Path, ErrUnreadable, err)
	}
	return data, nil
}

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
