package jsonlog

import (
	"context"
	"fmt"
)

// stream is the decode of one frame too big to keep (over keepFrame of
// text) going on in step with its reader: lines read back in order from
// such a frame cost one decode of it in all, not one each up to the line.
// The decoder runs in a goroutine and hands over one piece of text at a
// time, waiting until the reader is done with it; nothing is copied but
// the lines read.
type stream struct {
	k      int
	at     int64  // the text offset of piece
	piece  []byte // the piece being read, valid until advance
	held   bool   // piece is handed over and its decoder waits
	ended  bool   // the decode is over (err says why; nil at the frame's end)
	err    error
	pieces chan []byte
	next   chan struct{}
	done   chan error
	cancel context.CancelFunc
}

// startStream begins decoding frame k (its bytes data) of r's log.
func (r *Lines) startStream(k int, data []byte) *stream {
	ctx, cancel := context.WithCancel(context.Background())
	st := &stream{k: k, pieces: make(chan []byte), next: make(chan struct{}), done: make(chan error, 1), cancel: cancel}
	fr, limit := r.s.frames, r.s.frames.MaxText(r.s.Key.Size)
	go func() {
		st.done <- fr.Decode(ctx, data, limit, func(p []byte) error {
			select {
			case st.pieces <- p:
			case <-ctx.Done():
				return ctx.Err()
			}
			select {
			case <-st.next:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
	}()
	return st
}

// advance lets go of the piece held and takes the next one; false when
// the decode is over, or ctx ended (the stream is then of no more use).
func (st *stream) advance(ctx context.Context) bool {
	if st.ended {
		return false
	}
	if st.held {
		st.at += int64(len(st.piece))
		st.piece, st.held = nil, false
		st.next <- struct{}{} // the decoder waits for it
	}
	select {
	case p := <-st.pieces:
		st.piece, st.held = p, true
		return true
	case err := <-st.done:
		st.ended, st.err = true, err
	case <-ctx.Done():
		st.ended, st.err = true, ctx.Err()
		st.cancel()
	}
	return false
}

// stop ends the decode; its goroutine returns at once.
func (st *stream) stop() { st.cancel() }

// streamLine reads the line from off to want (its newline included) of
// frame k, a frame too big to keep, from the stream of it, started again
// when the line comes before the stream's piece.
func (r *Lines) streamLine(ctx context.Context, k int, off, want int64) ([]byte, error) {
	if st := r.st; st == nil || st.k != k || off < st.at || st.ended {
		r.stopStream()
		data, err := r.frameData(k)
		if err != nil {
			return nil, err
		}
		r.st = r.startStream(k, data)
		r.st.advance(ctx)
	}
	st := r.st
	var line []byte
	for st.held {
		if lo, hi := max(off, st.at), min(want, st.at+int64(len(st.piece))); lo < hi {
			line = append(line, st.piece[lo-st.at:hi-st.at]...)
		}
		if st.at+int64(len(st.piece)) >= want {
			break // the piece holds the line's end, and may hold the next line
		}
		st.advance(ctx)
	}
	if err := ctx.Err(); err != nil {
		r.stopStream()
		return nil, err
	}
	if int64(len(line)) != want-off || line[len(line)-1] != '\n' {
		err := fmt.Errorf("no line of %d bytes at %d in frame %d", want-off-1, off, k)
		if st.err != nil {
			err = st.err
		}
		r.stopStream()
		return nil, fileErr(r.s.Path, ErrChanged, err)
	}
	return line[:len(line)-1], nil
}

// stopStream ends the reader's stream, if any.
func (r *Lines) stopStream() {
	if r.st != nil {
		r.st.stop()
		r.st = nil
	}
}
