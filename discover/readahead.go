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

// read is one session's surface as the index keeps it.
type read struct {
	captured *int64
	body     string
	err      error
}

// readAhead reads the surfaces of the sessions marked in needs, in order,
// up to readAheadMax at once, and projects the body of each one that
// unchanged does not keep as it was; next(i) waits for session i's. It stops
// reading when ctx ends or stop is called, and never blocks a reader
// that finishes after that.
type readAhead struct {
	ctx     context.Context
	results []chan read
	slots   chan struct{}
	cancel  context.CancelFunc
	wg      sync.WaitGroup
}

func (ix *Index) readAhead(ctx context.Context, headers []sessionref.SessionHeader, needs []bool, unchanged func(i int, captured *int64) bool) *readAhead {
	ctx, cancel := context.WithCancel(ctx)
	ra := &readAhead{ctx: ctx, results: make([]chan read, len(headers)), slots: make(chan struct{}, readAheadMax), cancel: cancel}
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
			ra.wg.Add(1)
			go func() {
				defer ra.wg.Done()
				surf, err := ix.q.ReadSurface(ctx, headers[i].ID)
				r := read{err: err}
				if err == nil {
					r.captured = surf.CapturedThroughSeq
					if !unchanged(i, r.captured) {
						r.body = body(surf.Events, ix.opts.maxMessageBytes, ix.opts.maxSessionBytes)
					}
				}
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
