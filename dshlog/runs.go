package dshlog

import (
	"math/bits"
	"slices"
)

// bitset is a growable set of seqs.
type bitset []uint64

func (b *bitset) set(i int64) {
	w := int(i >> 6)
	if w >= len(*b) {
		*b = slices.Grow(*b, w+1-len(*b))[:w+1]
	}
	(*b)[w] |= 1 << (i & 63)
}

func (b bitset) unset(i int64) {
	if w := i >> 6; w < int64(len(b)) {
		b[w] &^= 1 << (i & 63)
	}
}

func (b bitset) has(i int64) bool {
	w := i >> 6
	return i >= 0 && w < int64(len(b)) && b[w]&(1<<(i&63)) != 0
}

// prev returns the greatest member ≤ i, or -1.
func (b bitset) prev(i int64) int64 {
	if i < 0 || len(b) == 0 {
		return -1
	}
	w := i >> 6
	var word uint64
	if w >= int64(len(b)) {
		w = int64(len(b)) - 1
		word = b[w]
	} else {
		word = b[w] & (^uint64(0) >> (63 - uint(i&63)))
	}
	for {
		if word != 0 {
			return w<<6 + 63 - int64(bits.LeadingZeros64(word))
		}
		if w--; w < 0 {
			return -1
		}
		word = b[w]
	}
}

// next returns the least member ≥ i, or -1.
func (b bitset) next(i int64) int64 {
	i = max(i, 0)
	w := i >> 6
	if w >= int64(len(b)) {
		return -1
	}
	word := b[w] & (^uint64(0) << uint(i&63))
	for {
		if word != 0 {
			return w<<6 + int64(bits.TrailingZeros64(word))
		}
		if w++; w >= int64(len(b)) {
			return -1
		}
		word = b[w]
	}
}

// run is a stretch of the surface: every message whose seq is in [a, b],
// in seq order, all of them current.
type run struct {
	a, b       int64
	prev, next int32 // neighbouring runs in surface order, -1 for none
}

// runList is a surface as runs of consecutive messages: a log that only
// appends is one run, and each replace adds at most three. Beside its
// runs (24 bytes each) it holds two bits a seq — which seqs are messages
// (msgs, filled by the caller before a message is folded) and where runs
// begin — so a surface of a million messages costs about 250 KB, not the
// tens of megabytes a node per message costs. A node is a message's seq.
type runList struct {
	msgs    *bitset // the seqs that are messages, current or not
	starts  bitset  // the first seq of each run
	runAt   map[int64]int32
	runs    []run
	head    int32
	tail    int32
	lastMsg int64 // the greatest message seq pushed or put in so far
}

func newRunList(msgs *bitset) *runList {
	return &runList{msgs: msgs, runAt: map[int64]int32{}, head: -1, tail: -1, lastMsg: -1}
}

// runOf returns the run holding seq, if seq is current.
func (l *runList) runOf(seq int64) (int32, bool) {
	if !l.msgs.has(seq) {
		return 0, false
	}
	st := l.starts.prev(seq)
	if st < 0 {
		return 0, false
	}
	r := l.runAt[st]
	return r, seq <= l.runs[r].b
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
	r := int32(len(l.runs))
	l.runs = append(l.runs, run{a: a, b: b, prev: -1, next: -1})
	l.starts.set(a)
	l.runAt[a] = r
	return r
}

// drop forgets run r (its entry stays, unused).
func (l *runList) drop(r int32) {
	l.starts.unset(l.runs[r].a)
	delete(l.runAt, l.runs[r].a)
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
