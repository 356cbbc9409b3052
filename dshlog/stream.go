package dshlog

import (
	"context"
	"errors"
	"math/bits"
	"os"
	"sort"
	"strings"

	"github.com/dshkit/mentions/sessionref"
)

// streamed is a log read in one pass and folded as it streams: what
// ReadOutline and WalkSurface need of a big log, keeping no message. A
// message costs 5 bytes here (its projected length and kind, by its rank
// among the log's messages) and its seq two bits (runList). In a raw log
// every 64th message's line offset is kept, so a message is found again
// by reading at most 63 lines; a zstd log is streamed again, keeping the
// messages asked for. A log of a million messages costs about 6 MB,
// where a parse costs 80 bytes a message.
type streamed struct {
	p       *parsed // header, version, errors, closers; it keeps no event
	msgs    bitset  // the seqs that are messages
	ranks   []int32 // messages before each word of msgs
	count   int32   // messages so far
	tlen    []int32 // by rank: projected length, -1 when a snapshot leaves it out
	kinds   []uint8 // by rank: kindAssistant, kindCheckpoint, kindToolResult
	where   []int64 // the line offset of every 64th message (-1: a closer's)
	runs    *runList
	fold    folder
	foldErr error
	closers map[int64]*event // the crash-repair closers, by seq
	// A zstd log cannot be read at an offset: its messages are read back
	// by streaming it again, keeping those of the seqs wanted (got).
	want   map[int64]bool
	got    map[int64]sessionref.Event
	budget int // the projected bytes the next read back gathers
}

const (
	kindAssistant = 1 << iota
	kindCheckpoint
	kindToolResult
)

// streamMin is the size from which a log that is not cached is read for
// an outline or a walk by streaming (streamed), not parsed: below it, a
// parse costs little and may serve the next read from the cache. A zstd
// log is streamed from a sixteenth of it (its size on disk).
var streamMin int64 = 4 << 20

func newStreamed(path string) *streamed {
	st := &streamed{closers: map[int64]*event{}}
	st.runs = newRunList(&st.msgs)
	st.fold = folder{path: path, l: st.runs, toolResult: func(seq int64) bool { return st.kinds[st.rank(seq)]&kindToolResult != 0 }}
	st.p = &parsed{path: path, sink: st}
	return st
}

// take folds the next message, whose line starts at file offset at (-1
// for a closer).
func (st *streamed) take(e *event, at int64) {
	if st.want != nil { // a read back: it only keeps what is wanted
		if st.want[e.seq] {
			st.got[e.seq], _ = e.message() // a zstd log's: never lazy
		}
		return
	}
	if st.foldErr != nil {
		return // the read fails with it; nothing after matters
	}
	for w := int(e.seq >> 6); len(st.ranks) <= w; {
		st.ranks = append(st.ranks, st.count)
	}
	if st.count%64 == 0 {
		st.where = append(st.where, at)
	}
	st.msgs.set(e.seq)
	st.count++
	o, ok := e.outline()
	tl, k := int32(-1), uint8(0)
	if ok {
		tl = int32(o.Bytes)
	}
	if o.Assistant {
		k |= kindAssistant
	}
	if o.Checkpoint {
		k |= kindCheckpoint
	}
	if e.typ == sessionref.EventToolResult {
		k |= kindToolResult
	}
	st.tlen, st.kinds = append(st.tlen, tl), append(st.kinds, k)
	st.foldErr = st.fold.take(e)
}

// rank is how many messages come before message seq.
func (st *streamed) rank(seq int64) int32 {
	w := seq >> 6
	return st.ranks[w] + int32(bits.OnesCount64(st.msgs.w[w]&(1<<(seq&63)-1)))
}

// seqOf is the seq of the message of rank r.
func (st *streamed) seqOf(r int32) int64 {
	w := sort.Search(len(st.ranks), func(i int) bool { return st.ranks[i] > r }) - 1
	word := st.msgs.w[w]
	for k := r - st.ranks[w]; k > 0; k-- {
		word &= word - 1
	}
	return int64(w)<<6 + int64(bits.TrailingZeros64(word))
}

// lastSeq is the seq of the log's last event, closers included.
func (st *streamed) lastSeq() int64 {
	return max(st.p.events.next, st.p.tail.next, st.p.closers.next) - 1
}

// stream reads the log at path by streaming it, again while it changes
// under the read (up to five times). With want, the messages of those
// seqs are kept (got): a zstd log's are read back this way.
func (s *Store) stream(ctx context.Context, path string, want map[int64]bool) (*streamed, error) {
	return whileChanged(ctx, &path, func() (*streamed, error) { return s.streamOnce(ctx, path, want) })
}

func (s *Store) streamOnce(ctx context.Context, path string, want map[int64]bool) (*streamed, error) {
	f, key, err := s.openLog(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st := newStreamed(path)
	if want != nil {
		st.want, st.got = want, map[int64]sessionref.Event{}
	}
	p, err := s.readLog(ctx, f, path, key, 0, true, func(isZstd bool) *parsed {
		st.p.zstd = isZstd
		return st.p
	})
	if err != nil {
		return nil, err
	}
	p.closers.each(func(e *event) {
		if e.isMessage() {
			st.closers[e.seq] = e
			st.take(e, -1)
		}
	})
	return st, nil
}

// grewOnly reports whether f, read up to key's size, has since only had
// lines appended (a live session): the same file, bigger, its first
// bytes still hashing to head (as hashed before the read) and the bytes
// before what p read still there. What p read is then what the file
// holds.
func grewOnly(f *os.File, key fileKey, p *parsed, head uint64) bool {
	fi, err := f.Stat()
	if err != nil || !fileKeyOf(fi).grownFrom(key) {
		return false
	}
	return markThere(f, p.committed, p.mark) && headSum(f, key.size) == head
}

// streams reports whether an outline or a walk of the log at path is
// read by streaming it: a raw log of streamMin bytes or more whose
// current version is not cached.
func (s *Store) streams(path string) bool {
	key, err := s.statKey(path)
	min := streamMin
	if strings.HasSuffix(path, ".zstd") {
		min /= 16 // JSON lines compress 5 to 50 times
	}
	if err != nil || key.size < min {
		return false
	}
	s.mu.Lock()
	c := s.logs.get(path)
	s.mu.Unlock()
	// A cached parse of this file that only grew since is extended by
	// what was appended, which costs less than a read in full.
	return c == nil || c.key != key && !key.grownFrom(c.key)
}

// streamedID streams the log of session id when it should be (see
// streams); ok=false: read it by its parse.
func (s *Store) streamedID(ctx context.Context, id string) (st *streamed, ok bool, err error) {
	idx, err := s.pathsOf(ctx, []string{id})
	if err != nil {
		return nil, false, err
	}
	e, found := idx[id]
	if !found || e.err != nil || !s.streams(e.path) {
		return nil, false, nil // the parse's read says why
	}
	st, err = s.stream(ctx, e.path, nil)
	if errors.Is(err, ErrNotFound) {
		return nil, false, nil // a log that moved, which the parse's read looks up again
	}
	if err != nil {
		return nil, false, err
	}
	if st.p.err != nil {
		return nil, false, st.p.err
	}
	if st.foldErr != nil {
		return nil, false, st.foldErr
	}
	return st, true, nil
}

// cursor reads a streamed log's messages back from the file. A message
// is found from the line of the first message of its block of 64,
// reading forward; the lines of the block's messages met on the way are
// kept, so the block's other messages, in any order, are one read each.
type cursor struct {
	st    *streamed
	r     *lineReader
	block int32     // the block whose lines are known, -1 for none
	at    [64]int64 // the line offset of each message of the block, -1 unknown
	n     [64]int32 // and its length
	scan  int64     // where reading forward in the block goes on
}

func newCursor(st *streamed, r *lineReader) *cursor {
	return &cursor{st: st, r: r, block: -1}
}

// message returns the message of seq, decoded again from its line.
func (c *cursor) message(seq int64) (sessionref.Event, error) {
	if e, ok := c.st.closers[seq]; ok {
		m, _ := e.message()
		return m, nil
	}
	rank := c.st.rank(seq)
	if b := rank / 64; b != c.block {
		c.block, c.scan = b, c.st.where[b]
		for i := range c.at {
			c.at[i] = -1
		}
	}
	var rec record
	if at := c.at[rank%64]; at >= 0 {
		line, err := c.r.line(at, int(c.n[rank%64]))
		if err != nil {
			return sessionref.Event{}, err
		}
		var ok bool
		if rec, ok = c.messageRecord(line); !ok {
			return sessionref.Event{}, errChanged
		}
	} else {
		for {
			l, next, err := c.r.lineFrom(c.scan)
			if err != nil {
				return sessionref.Event{}, err
			}
			at := c.scan
			c.scan = next
			lr, ok := c.messageRecord(l)
			if !ok {
				continue
			}
			r := c.st.rank(lr.seq)
			if r/64 == c.block {
				c.at[r%64], c.n[r%64] = at, int32(len(l))
			}
			if r == rank {
				rec = lr // decoded once: used before the next line is read
				break
			}
			if r > rank {
				return sessionref.Event{}, errChanged
			}
		}
	}
	if rec.seq != seq {
		return sessionref.Event{}, errChanged
	}
	ev, err := c.r.p.decodeEvent(rec, 0, true)
	if err != nil || !ev.isMessage() {
		return sessionref.Event{}, errChanged
	}
	m, _ := ev.message()
	if !c.st.seenAs(&m, rank) {
		return sessionref.Event{}, errChanged
	}
	return m, nil
}

// seenAs reports whether m, read back, is the message the stream saw at
// rank r: a tool result or not as it was, and the same to a snapshot.
func (st *streamed) seenAs(m *sessionref.Event, r int32) bool {
	o, ok := sessionref.OutlineOf(m)
	return ok == (st.tlen[r] >= 0) && (!ok || int32(o.Bytes) == st.tlen[r]) &&
		(m.Type == sessionref.EventToolResult) == (st.kinds[r]&kindToolResult != 0)
}

// messageRecord is line's record when it is one of the log's messages,
// valid until the cursor decodes another line.
func (c *cursor) messageRecord(line []byte) (record, bool) {
	rec, _, err := decodeRecord(line)
	if err != nil || isPacked(rec.typ) || !c.st.msgs.has(rec.seq) {
		return record{}, false
	}
	return rec, true
}

// outline is the streamed log's outline (see Store.ReadOutline).
func (st *streamed) outline(s *Store) sessionref.Outline {
	out := sessionref.Outline{Session: headerOf(st.p.head)}
	if last := st.lastSeq(); last >= 0 {
		out.CapturedThroughSeq = &last
	}
	n := 0
	st.runs.each(func(seq int64) bool {
		if st.tlen[st.rank(seq)] >= 0 {
			n++
		}
		return true
	})
	out.Messages = make([]sessionref.OutlineMessage, 0, n)
	ranks := make([]int32, 0, n)
	st.runs.each(func(seq int64) bool {
		r := st.rank(seq)
		if tl := st.tlen[r]; tl >= 0 {
			k := st.kinds[r]
			out.Messages = append(out.Messages, sessionref.OutlineMessage{Assistant: k&kindAssistant != 0, Checkpoint: k&kindCheckpoint != 0, Bytes: int(tl)})
			ranks = append(ranks, r)
		}
		return true
	})
	c := newCursor(st, &lineReader{s: s, p: st.p, window: outlineWindow, back: true})
	out.Text = func(ctx context.Context, i int) (string, error) {
		if i < 0 || i >= len(ranks) {
			return "", errors.New("dshlog: outline message out of range")
		}
		if err := ctx.Err(); err != nil {
			return "", ioErr(st.p.path, err)
		}
		seq := st.seqOf(ranks[i])
		var m sessionref.Event
		var err error
		if st.p.zstd {
			m, err = st.zstdText(ctx, s, seq, out.Messages, ranks)
		} else {
			m, err = c.message(seq)
		}
		if err != nil {
			return "", ioErr(st.p.path, err)
		}
		return joined(&m), nil
	}
	return out
}

// zstdText returns the message of seq of a streamed zstd log: from what
// the last read back kept, else by streaming the log again, keeping it
// with the newest messages and the newest checkpoints up to a budget of
// projected bytes (1 MiB, doubled at each read back) — what Prepare asks
// for next.
func (st *streamed) zstdText(ctx context.Context, s *Store, seq int64, msgs []sessionref.OutlineMessage, ranks []int32) (sessionref.Event, error) {
	if m, ok := st.got[seq]; ok {
		return m, nil
	}
	st.budget = max(2*st.budget, 1<<20)
	seqs := []int64{seq}
	for _, checkpoints := range []bool{false, true} {
		n := 0
		for j := len(msgs) - 1; j >= 0 && n < st.budget; j-- {
			if !checkpoints || msgs[j].Checkpoint {
				seqs = append(seqs, st.seqOf(ranks[j]))
				n += msgs[j].Bytes
			}
		}
	}
	if err := st.readBack(ctx, s, seqs); err != nil {
		return sessionref.Event{}, err
	}
	m, ok := st.got[seq]
	if !ok {
		return sessionref.Event{}, errChanged
	}
	return m, nil
}

// readBack streams a zstd log again, keeping the messages of seqs (got),
// each checked against what the first read saw of it. A log that only
// grew since is read as well.
func (st *streamed) readBack(ctx context.Context, s *Store, seqs []int64) error {
	want := make(map[int64]bool, len(seqs))
	for _, seq := range seqs {
		want[seq] = true
	}
	again, err := s.stream(ctx, st.p.path, want)
	if err != nil {
		return err
	}
	if k := again.p.key; k != st.p.key && !k.grownFrom(st.p.key) {
		return errChanged
	}
	if again.p.err != nil {
		return errChanged // it read before: what it reads now is another log
	}
	for seq, m := range again.got {
		if !st.msgs.has(seq) || !st.seenAs(&m, st.rank(seq)) {
			return errChanged
		}
	}
	st.got = again.got
	return nil
}

// zstdWalk passes a streamed zstd log's surface to fn, reading it back a
// chunk of the surface at a time — 4 MiB of projected text or 65,536
// messages, both doubled after each read back — so an index that keeps
// the start of a session decodes it twice, and a walk to the end of a
// log of T bytes of text decodes it at most log2(T/4 MiB) + 2 times,
// holding at most the last chunk (about half the text).
func (st *streamed) zstdWalk(ctx context.Context, s *Store, fn func(e *sessionref.Event) bool) error {
	var chunk []int64
	size, stopped := 0, false
	maxBytes, maxLen := walkChunkBytes, walkChunkLen
	var err error
	flush := func() bool {
		if err = st.readBack(ctx, s, chunk); err != nil {
			return false
		}
		for _, seq := range chunk {
			m, ok := st.got[seq]
			if !ok {
				err = errChanged
				return false
			}
			if !fn(&m) {
				stopped = true
				return false
			}
		}
		chunk, size, st.got = chunk[:0], 0, nil
		maxBytes, maxLen = 2*maxBytes, 2*maxLen
		return true
	}
	st.runs.each(func(seq int64) bool {
		chunk = append(chunk, seq)
		size += max(int(st.tlen[st.rank(seq)]), 0)
		if size >= maxBytes || len(chunk) >= maxLen {
			return flush()
		}
		return true
	})
	if err == nil && !stopped && len(chunk) > 0 {
		flush()
	}
	return err
}

// The first chunk a zstd walk reads back.
const (
	walkChunkBytes = 4 << 20
	walkChunkLen   = 65536
)

// walk passes the streamed log's surface to fn (see Store.WalkSurface).
func (st *streamed) walk(ctx context.Context, s *Store, fn func(e *sessionref.Event) bool) error {
	if st.p.zstd {
		return st.zstdWalk(ctx, s, fn)
	}
	r, err := s.lines(st.p, rawChunk)
	if err != nil {
		return err
	}
	c := newCursor(st, r)
	i := 0
	st.runs.each(func(seq int64) bool {
		if i++; i&1023 == 0 && ctx.Err() != nil {
			err = ctx.Err()
			return false
		}
		var m sessionref.Event
		if m, err = c.message(seq); err != nil {
			return false
		}
		return fn(&m)
	})
	if err != nil {
		r.f.Close()
		return err
	}
	return r.close()
}
