package dshlog

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// zstdMagic opens every zstd frame.
var zstdMagic = []byte{0x28, 0xB5, 0x2F, 0xFD}

// frame is one zstd frame found at the start of some bytes.
type frame struct {
	n         int  // its length in bytes, when complete
	complete  bool // false: the bytes end inside it (torn, or being written)
	skippable bool // a skippable frame: no content, passed over
	hdr       zstd.Header
}

// nextFrame finds the zstd frame at the start of b: zstd.Header reads the
// frame header, the block headers are walked to find where it ends.
func nextFrame(b []byte) (frame, error) {
	var f frame
	if err := f.hdr.Decode(b); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) && (len(b) >= 4 || bytes.HasPrefix(zstdMagic, b) ||
			(len(b) > 0 && b[0]&0xF0 == 0x50 && bytes.HasPrefix([]byte{0x2A, 0x4D, 0x18}, b[1:]))) {
			return frame{}, nil // a frame header still being written
		}
		return f, err
	}
	if f.hdr.Skippable {
		f.skippable = true
		f.n = f.hdr.HeaderSize + int(f.hdr.SkippableSize)
		f.complete = f.n <= len(b)
		return f, nil
	}
	pos := f.hdr.HeaderSize
	for {
		if pos+3 > len(b) {
			return f, nil
		}
		h := uint32(b[pos]) | uint32(b[pos+1])<<8 | uint32(b[pos+2])<<16
		pos += 3
		last, typ, size := h&1 == 1, (h>>1)&3, int(h>>3)
		switch typ {
		case 1: // RLE: one byte on disk
			pos++
		case 3:
			return f, errors.New("reserved block type")
		default:
			pos += size
		}
		if pos > len(b) {
			return f, nil
		}
		if last {
			break
		}
	}
	if f.hdr.HasCheckSum {
		pos += 4
	}
	if pos > len(b) {
		return f, nil
	}
	f.n, f.complete = pos, true
	return f, nil
}

// decoders are streaming zstd decoders: one frame at a time, blocks
// decoded as their output is read, never a whole frame materialised by
// the library. The window is bounded so a damaged header cannot ask for
// gigabytes.
var decoders = sync.Pool{New: func() any {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
		zstd.WithDecoderMaxWindow(16<<20), zstd.WithDecoderMaxMemory(16<<20))
	if err != nil {
		panic(err) // only invalid options fail
	}
	return d
}}

// errTooLarge is returned by a budget that ran out.
var errTooLarge = errors.New("decoded size over the cap")

// budget counts decoded bytes against a cap shared by every frame of one
// log (the torn last frame too).
type budget struct {
	used, cap int64
}

func (b *budget) take(n int) error {
	b.used += int64(n)
	if b.used > b.cap {
		return errTooLarge
	}
	return nil
}

// decodeFrame streams the decoded bytes of one frame to emit in pieces,
// counting them against bud. A frame whose header declares more content
// than is left of the cap is refused before decoding. For a torn frame
// (complete=false) the bytes decoded before the cut are emitted and the
// decoder's complaint about the cut is not an error.
func decodeFrame(fr frame, data []byte, bud *budget, stop func() error, emit func([]byte) error) error {
	if fr.hdr.HasFCS && int64(fr.hdr.FrameContentSize) > bud.cap-bud.used {
		return errTooLarge
	}
	d := decoders.Get().(*zstd.Decoder)
	defer decoders.Put(d)
	if err := d.Reset(bytes.NewReader(data)); err != nil {
		return err
	}
	defer d.Reset(nil)
	buf := make([]byte, 64<<10)
	for idle := 0; ; {
		if err := stop(); err != nil {
			return err
		}
		n, err := d.Read(buf)
		if n == 0 && err == nil {
			if idle++; idle > 100 {
				err = io.ErrNoProgress // a decoder that neither reads nor fails
			}
		} else {
			idle = 0
		}
		if n > 0 {
			if berr := bud.take(n); berr != nil {
				return berr
			}
			if eerr := emit(buf[:n]); eerr != nil {
				return eerr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			if !fr.complete {
				return nil // the cut: what came before it is all there is
			}
			return err
		}
	}
}

// walkFrames calls onFrame for each frame of b in order, stopping at the
// first incomplete one (passed with complete=false), and returns the
// offset after the last complete frame. Skippable frames are passed over.
func walkFrames(b []byte, onFrame func(fr frame, data []byte) error) (committed int, err error) {
	for committed < len(b) {
		fr, ferr := nextFrame(b[committed:])
		if ferr != nil {
			return committed, fmt.Errorf("frame at byte %d: %v", committed, ferr)
		}
		if !fr.complete {
			if fr.skippable || fr.hdr.HeaderSize == 0 {
				return committed, nil // nothing to decode yet
			}
			return committed, onFrame(fr, b[committed:])
		}
		if !fr.skippable {
			if err := onFrame(fr, b[committed:committed+fr.n]); err != nil {
				return committed, err
			}
		}
		committed += fr.n
	}
	return committed, nil
}

// maxRecordBytes bounds one record (one line) of a log: a longer line
// is an ErrTooLarge error naming the line, found while the text streams,
// before the line is kept whole. Real records are at most tens of KiB.
const maxRecordBytes = 16 << 20

// A zstd log may decode to at most maxRatio times its size on disk (and
// at least ratioFloor, and never past the store's cap): JSON lines
// compress some 5 to 50 times, a bomb thousands of times.
const (
	maxRatio   = 1024
	ratioFloor = 32 << 20
)

// capFor is the decoded-bytes cap of a log of onDisk bytes.
func (s *Store) capFor(isZstd bool, onDisk int64) int64 {
	if !isZstd {
		return s.maxLogBytes
	}
	return min(s.maxLogBytes, max(ratioFloor, maxRatio*onDisk))
}

// capErr is the error for a log that decodes past its cap.
func (s *Store) capErr(path string, isZstd bool, onDisk int64) error {
	c := s.capFor(isZstd, onDisk)
	if c < s.maxLogBytes {
		return logErr(path, 0, ErrTooLarge, "a %d-byte zstd log decodes to more than %d bytes (%d times its size)", onDisk, c, maxRatio)
	}
	return logErr(path, 0, ErrTooLarge, "decodes to more than the cap of %d bytes", c)
}

// lineGuard watches decoded text as it streams, in pieces, before any of
// it is kept: a line longer than maxRecordBytes, or (when blankIsBad) an
// empty line, stops the decoding.
type lineGuard struct {
	cur        int64 // bytes of the current line so far
	lines      int   // whole lines seen
	blankIsBad bool
}

// lineErr is a guard's complaint about the line-th line it saw.
type lineErr struct {
	blank bool // else too long
	line  int
}

func (e *lineErr) Error() string {
	if e.blank {
		return "an empty line inside a complete zstd frame"
	}
	return fmt.Sprintf("a record longer than %d bytes", maxRecordBytes)
}

func (g *lineGuard) check(b []byte) error {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			g.cur += int64(len(b))
			break
		}
		g.cur += int64(i)
		if g.cur > maxRecordBytes {
			break
		}
		if g.cur == 0 && g.blankIsBad {
			return &lineErr{blank: true, line: g.lines + 1}
		}
		g.lines++
		g.cur = 0
		b = b[i+1:]
	}
	if g.cur > maxRecordBytes {
		return &lineErr{line: g.lines + 1}
	}
	return nil
}

// declaredSize is what the zstd frames of b declare they decode to, or
// limit when a frame does not say or the sum passes it. A decoder holds a
// frame to its declared size, so the sum bounds what b decodes to.
func declaredSize(b []byte, limit int64) int64 {
	var sum int64
	for off := 0; off < len(b); {
		fr, err := nextFrame(b[off:])
		if err != nil || fr.hdr.HeaderSize == 0 {
			return limit
		}
		if !fr.skippable {
			if !fr.hdr.HasFCS {
				return limit
			}
			sum += int64(min(fr.hdr.FrameContentSize, uint64(limit)))
			if sum >= limit {
				return limit
			}
		}
		if !fr.complete {
			break
		}
		off += fr.n
	}
	return sum
}
