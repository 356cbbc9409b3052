package jsonlog

import "context"

// Frames reads a log stored as independent compressed frames, each
// holding whole lines (a zstd log, say). The engine finds the frames,
// decodes each once while it indexes, and reads a line back by decoding
// only its frame. An implementation lives with its format, so that this
// package needs only the standard library.
type Frames interface {
	// Frame returns the length of the frame at the start of b and
	// whether b holds all of it. A frame b ends inside (whole=false) is
	// a torn tail, being written: its whole lines are indexed but not
	// committed. An error means b does not start with a frame.
	Frame(b []byte) (n int, whole bool, err error)
	// Decode decodes one frame (possibly torn: then what decodes before
	// the cut) and passes its text to emit, a piece at a time, never
	// more than limit bytes in all: a frame that would decode to more is
	// [ErrTooLarge]. It stops with emit's error or ctx's.
	Decode(ctx context.Context, frame []byte, limit int64, emit func([]byte) error) error
	// MaxText is the most text a log of onDisk bytes may decode to, all
	// frames together (a bomb's bound).
	MaxText(onDisk int64) int64
}

// framePos packs a framed log's line place: the frame's number and the
// line's offset in the frame's text. An Indexer is handed it as the
// line's offset and gives it back to ReadLine; it is opaque otherwise.
func framePos(frame int, off int64) int64 { return int64(frame)<<32 | off }

// unpackPos undoes framePos.
func unpackPos(at int64) (frame int, off int64) { return int(at >> 32), at & (1<<32 - 1) }

// maxFrameText is the most text a frame may hold for its lines' offsets
// to be packed.
const maxFrameText = 1<<32 - 1
