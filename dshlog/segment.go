package dshlog

import (
	"cmp"
	"slices"
)

// segment is a run of decoded events: the messages, in seq order; the
// count and last time of all events; and what the crash-repair closers
// need of them (turns), so no other event is kept. The kept events are held in chunks
// of chunkLen, so a growing segment never copies what it holds (a slice
// grown by append holds the old array and the new one at once, and two
// halves joined would be copied again).
type segment struct {
	chunks   [][]event
	n        int   // kept events
	next     int64 // the seq after the last event (events decoded, from 0)
	lastTime int64 // the time of the last event
	turns    turnState
}

// chunkLen is how many events a chunk holds (320 KiB).
const chunkLen = 4096

// segmentOf is a segment holding evs (not copied).
func segmentOf(evs []event, next, lastTime int64) segment {
	s := segment{next: next, lastTime: lastTime, n: len(evs)}
	if len(evs) > 0 {
		s.chunks = [][]event{evs}
	}
	return s
}

// push appends e.
func (s *segment) push(e event) {
	if k := len(s.chunks); k == 0 || len(s.chunks[k-1]) == cap(s.chunks[k-1]) {
		s.chunks = append(s.chunks, make([]event, 0, chunkLen))
	}
	last := &s.chunks[len(s.chunks)-1]
	*last = append(*last, e)
	s.n++
}

// each calls fn for every kept event, in order.
func (s segment) each(fn func(e *event)) {
	for _, c := range s.chunks {
		for i := range c {
			fn(&c[i])
		}
	}
}

// find returns the kept event with seq, or nil.
func (s segment) find(seq int64) *event {
	k, _ := slices.BinarySearchFunc(s.chunks, seq, func(c []event, seq int64) int { return cmp.Compare(c[0].seq, seq) })
	// chunks[k-1] is the last chunk starting at or before seq, unless
	// chunks[k] starts at seq.
	if k < len(s.chunks) && s.chunks[k][0].seq == seq {
		return &s.chunks[k][0]
	}
	if k == 0 {
		return nil
	}
	c := s.chunks[k-1]
	i, ok := slices.BinarySearchFunc(c, seq, func(e event, seq int64) int { return cmp.Compare(e.seq, seq) })
	if !ok {
		return nil
	}
	return &c[i]
}

// clipped is the segment with its chunks clipped and its turn state
// copied, so adding to it never writes into what a cached parse shares.
func (s segment) clipped() segment {
	s.turns = s.turns.clone()
	s.chunks = slices.Clone(s.chunks) // a chunk's header is changed below: not in the shared array
	if k := len(s.chunks); k > 0 {
		s.chunks[k-1] = slices.Clip(s.chunks[k-1])
	}
	return s
}

// all is the kept events in one slice (a copy), for tests.
func (s segment) all() []event {
	out := make([]event, 0, s.n)
	for _, c := range s.chunks {
		out = append(out, c...)
	}
	return out
}
