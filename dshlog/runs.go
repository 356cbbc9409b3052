package dshlog

import (
	"math/bits"
	"slices"
)

// bitset is a growable set of seqs, with a summary (a bit a word: the
// word is not empty) so that finding the member before or after a seq
// skips empty stretches 4096 seqs at a time.
type bitset struct {
	w   []uint64
	sum []uint64
}

func (b *bitset) set(i int64) {
	w := int(i >> 6)
	if w >= len(b.w) {
		b.w = slices.Grow(b.w, w+1-len(b.w))[:w+1]
	}
	b.w[w] |= 1 << (i & 63)
	if s := w >> 6; s >= len(b.sum) {
		b.sum = slices.Grow(b.sum, s+1-len(b.sum))[:s+1]
	}
	b.sum[w>>6] |= 1 << (w & 63)
}

func (b *bitset) unset(i int64) {
	w := i >> 6
	if w >= int64(len(b.w)) {
		return
	}
	if b.w[w] &^= 1 << (i & 63); b.w[w] == 0 {
		b.sum[w>>6] &^= 1 << (w & 63)
	}
}

func (b *bitset) has(i int64) bool {
	w := i >> 6
	return i >= 0 && w < int64(len(b.w)) && b.w[w]&(1<<(i&63)) != 0
}

// prev returns the greatest member ≤ i, or -1.
func (b *bitset) prev(i int64) int64 {
	if i < 0 || len(b.w) == 0 {
		return -1
	}
	w := i >> 6
	if w >= int64(len(b.w)) {
		w, i = int64(len(b.w))-1, (int64(len(b.w))-1)<<6|63
	}
	if word := b.w[w] & (^uint64(0) >> (63 - uint(i&63))); word != 0 {
		return w<<6 + 63 - int64(bits.LeadingZeros64(word))
	}
	if w = prevBit(b.sum, w-1); w < 0 {
		return -1
	}
	return w<<6 + 63 - int64(bits.LeadingZeros64(b.w[w]))
}

// next returns the least member ≥ i, or -1.
func (b *bitset) next(i int64) int64 {
	i = max(i, 0)
	w := i >> 6
	if w >= int64(len(b.w)) {
		return -1
	}
	if word := b.w[w] & (^uint64(0) << uint(i&63)); word != 0 {
		return w<<6 + int64(bits.TrailingZeros64(word))
	}
	if w = nextBit(b.sum, w+1); w < 0 {
		return -1
	}
	return w<<6 + int64(bits.TrailingZeros64(b.w[w]))
}

// prevBit is the greatest set bit ≤ i of words, or -1.
func prevBit(words []uint64, i int64) int64 {
	if i < 0 {
		return -1
	}
	w := i >> 6
	word := words[w] & (^uint64(0) >> (63 - uint(i&63)))
	for word == 0 {
		if w--; w < 0 {
			return -1
		}
		word = words[w]
	}
	return w<<6 + 63 - int64(bits.LeadingZeros64(word))
}

// nextBit is the least set bit ≥ i of words, or -1.
func nextBit(words []uint64, i int64) int64 {
	w := i >> 6
	if w >= int64(len(words)) {
		return -1
	}
	word := words[w] & (^uint64(0) << uint(i&63))
	for word == 0 {
		if w++; w >= int64(len(words)) {
			return -1
		}
		word = words[w]
	}
	return w<<6 + int64(bits.TrailingZeros64(word))
}

// run is a stretch of the surface: every message whose seq is in [a, b],
// in seq order, all of them current.
type run struct {
	a, b       int64
	prev, next int32 // neighbouring runs in surface order, -1 for none
}

// runList is a surface as runs of consecutive messages: a log that only
// appends is one run, and each replace adds at most three. Beside its
// runs (24 bytes each, and a map entry while a run is current) it holds
// two bits a seq — which seqs are messages (msgs, filled by the caller
// before a message is folded) and where runs begin — so a surface of a
// million messages costs about 250 KB, not the tens of megabytes a node
// per message costs. A node is a message's seq. Finding a seq's run
// looks back to the run's start through a summarised bitset (4096 seqs a
// step over empty stretches), and a walk through a run asks for none.
type runList struct {
	msgs    *bitset // the seqs that are messages, current or not
	starts  bitset  // the first seq of each run
	runAt   map[int64]int32
	runs    []run
	free    []int32 // runs dropped, whose slots add reuses
	head    int32
	tail    int32
	lastMsg int64 // the greatest message seq pushed or put in so far
	// last is the run runOf found last: a walk through a range asks for
	// each of its messages in turn.
	last int32
}

func newRunList(msgs *bitset) *runList {
	return &runList{msgs: msgs, runAt: map[int64]int32{}, head: -1, tail: -1, lastMsg: -1, last: -1}
}

// runOf returns the run holding seq, if seq is current.
func (l *runList) runOf(seq int64) (int32, bool) {
	if !l.msgs.has(seq) {
		return 0, false
	}
	if r := l.last; r >= 0 && l.runs[r].a <= seq && seq <= l.runs[r].b {
		return r, true
	}
	st := l.starts.prev(seq)
	if st < 0 {
		return 0, false
	}
	r := l.runAt[st]
	if seq > l.runs[r].b {
		return 0, false
	}
	l.last = r
	return r, true
}

func (l *runList) find(seq int64) (int64, bool) {
	_, ok := l.runOf(seq)
	return seq, ok
}

func (l *runList) seqAt(n int64) int64 { return n }

func (l *runList) after(n int64) (int64, bool) {
	r, _ := l.runOf(n)
	if n < l.runs[r].b {
		return l.msgs.next(n + 1), true
	}
	if next := l.runs[r].next; next >= 0 {
		l.last = next
		return l.runs[next].a, true
	}
	return 0, false
}

func (l *runList) push(seq int64) {
	if l.tail >= 0 && l.runs[l.tail].b == l.lastMsg {
		l.runs[l.tail].b = seq // no message between: the last run goes on
	} else {
		l.link(l.tail, l.add(seq, seq), -1)
	}
	l.lastMsg = seq
}

// add makes a run [a, b], not yet linked.
func (l *runList) add(a, b int64) int32 {
	var r int32
	if n := len(l.free); n > 0 {
		r, l.free = l.free[n-1], l.free[:n-1]
		l.runs[r] = run{a: a, b: b, prev: -1, next: -1}
	} else {
		r = int32(len(l.runs))
		l.runs = append(l.runs, run{a: a, b: b, prev: -1, next: -1})
	}
	l.starts.set(a)
	l.runAt[a] = r
	return r
}

// drop forgets run r (its entry stays, unused).
func (l *runList) drop(r int32) {
	l.starts.unset(l.runs[r].a)
	delete(l.runAt, l.runs[r].a)
	l.free = append(l.free, r)
	if l.last == r {
		l.last = -1
	}
}

// link puts run r between prev and next (either -1 for an end).
func (l *runList) link(prev, r, next int32) {
	l.runs[r].prev, l.runs[r].next = prev, next
	if prev >= 0 {
		l.runs[prev].next = r
	} else {
		l.head = r
	}
	if next >= 0 {
		l.runs[next].prev = r
	} else {
		l.tail = r
	}
}

func (l *runList) replace(first, last int64, seq int64) {
	r1, _ := l.runOf(first)
	r2, _ := l.runOf(last)
	before, after := l.runs[r1].prev, l.runs[r2].next
	a1, b2 := l.runs[r1].a, l.runs[r2].b
	for r := r1; ; r = l.runs[r].next {
		l.drop(r)
		if r == r2 {
			break
		}
	}
	if first != a1 { // what of the first run comes before the range
		left := l.add(a1, l.msgs.prev(first-1))
		l.link(before, left, after)
		before = left
	}
	mid := l.add(seq, seq)
	l.link(before, mid, after)
	if last != b2 { // what of the last run comes after it
		right := l.add(l.msgs.next(last+1), b2)
		l.link(mid, right, after)
	}
	l.lastMsg = max(l.lastMsg, seq)
}

// seqs is the surface in order.
func (l *runList) seqs() []int64 {
	var out []int64
	l.each(func(seq int64) bool { out = append(out, seq); return true })
	return out
}

// each calls fn for the surface's seqs in order, until fn returns false.
func (l *runList) each(fn func(seq int64) bool) {
	for r := l.head; r >= 0; r = l.runs[r].next {
		for s := l.runs[r].a; s >= 0 && s <= l.runs[r].b; s = l.msgs.next(s + 1) {
			if !fn(s) {
				return
			}
		}
	}
}
