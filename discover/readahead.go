package discover

import (
	"context"
	"sync"

	"github.com/dshkit/mentions/sessionref"
)

// readAheadMax is how many surfaces a Sync reads at once, ahead of the
// session it writes: a slow store (a network, a cold disk) is waited on
// that many times at once, and at most that many bodies wait in memory.
const readAheadMax = 4

// readAheadBytes bounds, in bytes, the surfaces a Sync reads at once: a
// read starts beside others only while that many of the largest surface
// read so far fit in it (the first read is alone, until its size is
// known). Sessions of ordinary size are read four at once; after one huge
// session, one at a time.
const readAheadBytes = 64 << 20

// ReadCoster is a store that tells how many bytes its last read of a
// session held at most while it decoded, beside the surface (dshlog:
// about three times the log's longest record). Sync's read-ahead counts a
// read as that much when it is more than the surface's size, so sessions
// cheap on the surface but dear to decode (one huge record skipped, say)
// are read one at a time, not four at once.
type ReadCoster interface {
	ReadCost(id string) int64
}

// eventBytes estimates what an event of a surface holds in memory: its
// text, and a fixed cost for the structures around it.
func eventBytes(e *sessionref.Event) int64 {
	n := int64(160)
	for _, b := range e.Content {
		n += int64(len(b.Text)) + 48
	}
	return n
}

// read is one session's surface as the index keeps it.
type read struct {
	captured *int64
	body     string
	err      error
}

// readAhead reads the surfaces of the sessions marked in needs, in order,
// a few at once, and projects the body of each (whose hash tells whether
// its text changed); next(i) waits for session i's. It stops
// reading when ctx ends or stop is called, and never blocks a reader
// that finishes after that.
type readAhead struct {
	ctx     context.Context
	results []chan read
	slots   chan struct{}
	cancel  context.CancelFunc
	wg      sync.WaitGroup

	mu       sync.Mutex
	inFlight int           // reads started and not yet projected
	biggest  int64         // the largest surface read so far (surfaceBytes)
	sized    bool          // a read ended: biggest is known
	done     chan struct{} // closed and replaced when a read ends
	peak     int           // the most reads in flight at once, for tests
}

// admit waits until one more read fits the byte bound: none is in
// flight, or one more of the biggest surface seen fits readAheadBytes.
func (ra *readAhead) admit() bool {
	for {
		ra.mu.Lock()
		if ra.fits() {
			ra.inFlight++
			ra.peak = max(ra.peak, ra.inFlight)
			ra.mu.Unlock()
			return true
		}
		done := ra.done
		ra.mu.Unlock()
		select {
		case <-done:
		case <-ra.ctx.Done():
			return false
		}
	}
}

// fits reports whether one more read may start now.
func (ra *readAhead) fits() bool {
	return ra.inFlight == 0 || ra.sized && int64(ra.inFlight+1)*ra.biggest <= readAheadBytes
}

// finish records a read that ended, with the size of what it read.
func (ra *readAhead) finish(size int64) {
	ra.mu.Lock()
	ra.inFlight--
	ra.biggest, ra.sized = max(ra.biggest, size), true
	close(ra.done)
	ra.done = make(chan struct{})
	ra.mu.Unlock()
}

func (ix *Index) readAhead(ctx context.Context, headers []sessionref.SessionHeader, needs []bool) *readAhead {
	ctx, cancel := context.WithCancel(ctx)
	ra := &readAhead{ctx: ctx, results: make([]chan read, len(headers)), slots: make(chan struct{}, readAheadMax), cancel: cancel, done: make(chan struct{})}
	for i, need := range needs {
		if need {
			ra.results[i] = make(chan read, 1)
		}
	}
	ra.wg.Add(1)
	go func() {
		defer ra.wg.Done()
		for i, need := range needs {
			if !need {
				continue
			}
			select {
			case ra.slots <- struct{}{}: // freed by next
			case <-ctx.Done():
				return
			}
			if !ra.admit() {
				return
			}
			ra.wg.Add(1)
			go func() {
				defer ra.wg.Done()
				var r read
				var size int64
				if w, ok := ix.q.(SurfaceWalker); ok {
					// The body is built as the events come: no surface is
					// held, and the walk stops once the body is full.
					b := bodyBuilder{perMessage: ix.opts.maxMessageBytes, perSession: ix.opts.maxSessionBytes}
					r.captured, r.err = w.WalkSurface(ctx, headers[i].ID, func(e *sessionref.Event) bool {
						size += eventBytes(e)
						return b.add(e)
					})
					if r.err == nil {
						r.body = b.String()
					}
				} else {
					surf, err := ix.q.ReadSurface(ctx, headers[i].ID)
					r.err = err
					if err == nil {
						r.captured = surf.CapturedThroughSeq
						r.body = body(surf.Events, ix.opts.maxMessageBytes, ix.opts.maxSessionBytes)
					}
					for k := range surf.Events {
						size += eventBytes(&surf.Events[k])
					}
				}
				if rc, ok := ix.q.(ReadCoster); ok {
					size = max(size, rc.ReadCost(headers[i].ID))
				}
				ra.finish(size)
				ra.results[i] <- r
			}()
		}
	}()
	return ra
}

// next returns session i's read, which must have been marked needed; it
// is ctx's error when the reads stopped first.
func (ra *readAhead) next(i int) read {
	select {
	case r := <-ra.results[i]:
		<-ra.slots
		return r
	case <-ra.ctx.Done():
		return read{err: context.Cause(ra.ctx)}
	}
}

// stop ends the reads and waits for those under way.
func (ra *readAhead) stop() {
	ra.cancel()
	ra.wg.Wait()
}
