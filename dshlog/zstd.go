package dshlog

import (
	"bytes"
	"context"
	"errors"
	"io"
	"sync"

	"github.com/dshkit/mentions/jsonlog"
	"github.com/klauspost/compress/zstd"
)

// zstdMagic opens every zstd frame.
var zstdMagic = []byte{0x28, 0xB5, 0x2F, 0xFD}

// frame is one zstd frame found at the start of some bytes.
type frame struct {
	n         int  // its length in bytes, when complete
	complete  bool // false: the bytes end inside it (torn, or being written)
	skippable bool // a skippable frame: no content, passed over
	// blocksAt is, for a frame whose bytes end in its checksum (every
	// block whole), where the checksum starts; 0 otherwise.
	blocksAt int
	hdr      zstd.Header
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
		if pos+4 > len(b) {
			f.blocksAt = pos
			return f, nil
		}
		pos += 4
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
	return &decoder{d: d, buf: make([]byte, 64<<10)}
}}

// decoder is a pooled decoder and the buffer its text is read into: a
// log of many small frames does not make (and clear) a buffer a frame.
type decoder struct {
	d   *zstd.Decoder
	buf []byte
}

// zstdFrames reads a zstd log's frames for the engine
// ([jsonlog.Frames]): each frame holds whole lines, so a line is read
// back by decoding its frame alone.
type zstdFrames struct{ maxLogBytes int64 }

// Frame implements jsonlog.Frames. A skippable frame is corruption: the
// format's writer makes none, and its reference reader refuses them.
func (zstdFrames) Frame(b []byte) (int, bool, error) {
	fr, err := nextFrame(b)
	if err != nil {
		return 0, false, err
	}
	if fr.skippable {
		return 0, false, errSkippable
	}
	return fr.n, fr.complete, nil
}

var errSkippable = errors.New("a skippable frame")

// MaxText implements jsonlog.Frames: a zstd log may decode to at most
// maxRatio times its size on disk (and at least ratioFloor), and never
// past the store's cap.
func (z zstdFrames) MaxText(onDisk int64) int64 {
	return min(z.maxLogBytes, max(ratioFloor, maxRatio*onDisk))
}

// Decode implements jsonlog.Frames: the frame is streamed, its output
// counted against limit as it comes (a frame whose header declares more
// is refused before decoding), never materialised by the library. For a
// torn frame, the bytes decoded before the cut are passed on and the
// decoder's complaint about the cut is not an error.
func (zstdFrames) Decode(ctx context.Context, data []byte, limit int64, emit func([]byte) error) error {
	fr, err := nextFrame(data)
	if err != nil {
		return err
	}
	if fr.skippable {
		return nil
	}
	if fr.hdr.HasFCS && int64(fr.hdr.FrameContentSize) > limit {
		return jsonlog.ErrTooLarge
	}
	if fr.blocksAt > 0 {
		// Every block is there, only the checksum is not: the frame is
		// decoded whole, as one without a checksum (its descriptor's
		// checksum flag cleared), so its last block's lines are not lost.
		data = bytes.Clone(data[:fr.blocksAt])
		data[4] &^= 0x04
		fr.complete = true
	}
	pd := decoders.Get().(*decoder)
	defer decoders.Put(pd)
	d, buf := pd.d, pd.buf
	if err := d.Reset(bytes.NewReader(data)); err != nil {
		return err
	}
	defer d.Reset(nil)
	var used int64
	for idle := 0; ; {
		if err := ctx.Err(); err != nil {
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
			if used += int64(n); used > limit {
				return jsonlog.ErrTooLarge
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

// capErr is the error for a log that decodes past its cap.
func (s *Store) capErr(path string, isZstd bool, onDisk int64) error {
	c := s.maxLogBytes
	if isZstd {
		c = zstdFrames{s.maxLogBytes}.MaxText(onDisk)
	}
	if c < s.maxLogBytes {
		return logErr(path, 0, ErrTooLarge, "a %d-byte zstd log decodes to more than %d bytes (%d times its size)", onDisk, c, maxRatio)
	}
	return logErr(path, 0, ErrTooLarge, "decodes to more than the cap of %d bytes", c)
}
