package jsonlog

import (
	"bytes"
	"context"
	"crypto/sha256"
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
	// tornSum is, when the last of offs is a torn frame (being written),
	// the hash of its bytes as they were indexed: a writer may still undo
	// them and write others in their place.
	tornSum *[32]byte
}

// Lines reads lines of a snapshot back, keeping the file open and the
// text of the frame it decoded last (up to keepFrame bytes).
type Lines struct {
	s     *Snapshot
	f     *os.File
	frame int    // the frame whose text is kept, -1 for none
	text  []byte // its text
}

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
	return &Lines{s: s, f: f, frame: -1}, nil
}

// Close closes the file.
func (r *Lines) Close() error { return r.f.Close() }

// Line reads back the line of length n (newline excluded) at at, the
// place the indexer was given, checking that it still ends where it
// did.
func (r *Lines) Line(ctx context.Context, at int64, n int) ([]byte, error) {
	s := r.s
	if s.frames != nil {
		return r.frameLine(ctx, at, n)
	}
	if at < 0 || n < 0 || at+int64(n) >= s.End {
		return nil, fileErr(s.Path, ErrChanged, fmt.Errorf("no line of %d bytes at offset %d", n, at))
	}
	buf := make([]byte, n+1)
	if _, err := r.f.ReadAt(buf, at); errors.Is(err, io.EOF) {
		return nil, fileErr(s.Path, ErrChanged, fmt.Errorf("the file no longer reaches the line at offset %d", at))
	} else if err != nil {
		return nil, fileErr(s.Path, ErrUnreadable, err)
	}
	if buf[n] != '\n' {
		return nil, fileErr(s.Path, ErrChanged, fmt.Errorf("the line at offset %d no longer ends where it did", at))
	}
	return buf[:n], nil
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
	data := make([]byte, s.offs[k][1])
	if _, err := r.f.ReadAt(data, s.offs[k][0]); err != nil && !errors.Is(err, io.EOF) {
		return nil, fileErr(s.Path, ErrUnreadable, err)
	}
	if s.tornSum != nil && k == len(s.offs)-1 && sha256.Sum256(data) != *s.tornSum {
		return nil, fileErr(s.Path, ErrChanged, fmt.Errorf("the torn frame %d was rewritten", k))
	}
	var kept, line []byte
	var seen int64
	whole := true // the frame's text is kept while it is small
	err := s.frames.Decode(ctx, data, s.frames.MaxText(s.Key.Size), func(p []byte) error {
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
	}
	if int64(len(line)) != int64(n)+1 || line[n] != '\n' {
		return nil, fileErr(s.Path, ErrChanged, fmt.Errorf("no line of %d bytes at %d in frame %d", n, off, k))
	}
	return line[:n], nil
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
