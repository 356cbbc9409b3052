package jsonlog

import (
	"context"
	"sync"
)

// gate bounds the bytes of logs being read at once across a Log's
// readers: a read takes its log's weight (the bytes it may read) before
// reading and gives it back after. A read whose weight is the whole
// gate's or more runs alone; others wait their turn, or for their
// context.
type gate struct {
	mu       sync.Mutex
	capacity int64
	used     int64
	peak     int64         // the most ever taken at once
	wake     chan struct{} // closed and replaced on every release
}

func newGate(capacity int64) *gate {
	return &gate{capacity: max(capacity, 1), wake: make(chan struct{})}
}

// acquire takes n bytes (at most the capacity), waiting while others hold
// too much for them to fit; it returns ctx's error if ctx ends first.
func (g *gate) acquire(ctx context.Context, n int64) (int64, error) {
	n = min(max(n, 1), g.capacity)
	for {
		g.mu.Lock()
		if g.used+n <= g.capacity {
			g.used += n
			g.peak = max(g.peak, g.used)
			g.mu.Unlock()
			return n, nil
		}
		wake := g.wake
		g.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}

// release gives back what acquire took.
func (g *gate) release(n int64) {
	g.mu.Lock()
	g.used -= n
	close(g.wake)
	g.wake = make(chan struct{})
	g.mu.Unlock()
}
