package dshlog

import (
	"errors"
	"fmt"
	"maps"
	"math/bits"
	"slices"
	"strings"

	"github.com/dshkit/mentions/sessionref"
)

// index is what one pass over a log keeps ([jsonlog.Indexer]): the
// header, the checks of the format's robustness rules, the surface folded
// as the lines go by, and what the crash-repair closers need. It keeps
// no message's text: a message is its line's place, the line's length,
// its projected length and its kind, by its rank among the log's
// messages (17 bytes), and its seq two bits (the runs of the fold).
// Lines appended later are fed to the same index.
type index struct {
	path     string
	zstd     bool
	head     header
	warnings []string
	lines    int // lines taken, the header included
	// err: the log cannot be read (corrupt, an unknown event, a version,
	// a record over a cap); nothing after it is read.
	err error
	// stopped: a bad line or a seq gap ended the valid prefix; a later
	// turn/end makes the log corrupt (stopAt, stopWhat say where and why).
	stopped  bool
	stopAt   int
	stopWhat string
	// torn: this is a fork fed a torn zstd frame's lines, which may still
	// change: a defect among them ends them, and is no error.
	torn     bool
	tornDone bool

	next     int64 // the seq the next record must start at
	lastTime int64 // the time of the last event
	turns    turnState
	longest  int64 // the longest line taken

	msgs    bitset  // the seqs that are messages
	ranks   []int32 // messages before each word of msgs
	count   int32   // messages so far
	tlen    []int32 // by rank: projected length, -1 when a snapshot leaves it out
	kinds   []uint8 // by rank: kindAssistant, kindCheckpoint, kindToolResult
	at      []int64 // by rank: the place of its line (jsonlog)
	n       []int32 // by rank: its line's length
	runs    *runList
	fold    *folder // folds the messages into runs, made at the first one
	foldErr error
}

const (
	kindAssistant = 1 << iota
	kindCheckpoint
	kindToolResult
)

// indexBytes is what the index costs a message, for the cache's budget.
const indexBytes = 17

func newIndex(path string) *index {
	ix := &index{path: path, zstd: strings.HasSuffix(path, ".zstd")}
	ix.runs = newRunList(&ix.msgs)
	return ix
}

// Size implements jsonlog.Indexer.
func (ix *index) Size() int64 {
	return 1024 + int64(ix.count)*indexBytes + int64(len(ix.ranks))*4 + int64(len(ix.msgs.w)+len(ix.runs.starts.w))*8 +
		int64(len(ix.runs.runs))*90 + int64(len(ix.turns.order))*100
}

// Stopped implements jsonlog.Stopper: a log that cannot be read takes
// no more lines.
func (ix *index) Stopped() bool { return ix.err != nil || ix.tornDone }

// Fork implements jsonlog.Forker: a copy sharing nothing that lines fed
// to it change, for a torn zstd frame's lines.
func (ix *index) Fork() *index {
	c := *ix
	c.torn = true
	c.turns = ix.turns.clone()
	c.msgs = ix.msgs.clone()
	c.ranks, c.tlen, c.kinds = slices.Clone(ix.ranks), slices.Clone(ix.tlen), slices.Clone(ix.kinds)
	c.at, c.n = slices.Clone(ix.at), slices.Clone(ix.n)
	c.runs = ix.runs.clone(&c.msgs)
	c.fold = nil // made again, over the fork's runs and kinds
	return &c
}

// Long implements jsonlog.Indexer: a record over maxRecordBytes.
func (ix *index) Long(n int, _ int64, length int64) {
	ix.lines = n
	if ix.err == nil && !ix.tornDone {
		ix.err = logErr(ix.path, n, ErrTooLarge, "a record longer than %d bytes (%d)", maxRecordBytes, length)
	}
}

// afterRead, when set (by tests), is called while a log is read, after
// its first line: the file may change under the read there.
var afterRead func(path string)

// Line implements jsonlog.Indexer.
func (ix *index) Line(n int, at int64, line []byte) {
	ix.lines = n
	if n == 1 && afterRead != nil {
		afterRead(ix.path)
	}
	ix.longest = max(ix.longest, int64(len(line)))
	switch {
	case ix.err != nil || ix.tornDone:
	case n == 1:
		h, warn, err := parseHeader(ix.path, line)
		ix.head, ix.warnings, ix.err = h, warn, err
	case len(line) == 0 && ix.zstd && !ix.torn:
		ix.err = logErr(ix.path, n, ErrCorrupt, "an empty line inside a complete zstd frame")
	case ix.stopped:
		if typeOf(line) == "turn/end" {
			ix.err = logErr(ix.path, ix.stopAt, ErrCorrupt, "%s before a later turn/end", ix.stopWhat)
		}
	default:
		ix.record(n, at, line)
	}
}

// record takes line n, a record.
func (ix *index) record(n int, at int64, line []byte) {
	r, count, err := decodeRecord(line)
	if oc := (errOverCap{}); errors.As(err, &oc) {
		ix.err = ix.overCap(n, r, err)
		return
	}
	if gap := err == nil && seqGap(r, ix.next); err != nil || gap {
		ix.endPrefix(n, line, err, gap)
		return
	}
	if isPacked(r.typ) { // only counted: its members are chunks nothing here reads
		ix.next += int64(count)
		ix.lastTime = r.time0 + r.span
		return
	}
	ev, err := ix.decodeEvent(r, n, false)
	if err != nil {
		ix.fail(err)
		return
	}
	ix.next++
	ix.lastTime = r.time
	ix.turns.apply(&ev)
	if ev.isMessage() {
		ev.setLazy(at, len(line))
		ix.take(&ev)
	}
}

// fail records an error of the log; in a torn frame's lines it only ends
// them.
func (ix *index) fail(err error) {
	if ix.torn {
		ix.tornDone = true
		return
	}
	ix.err = err
}

// endPrefix applies the format's robustness rules to line n, unreadable
// or out of sequence: it ends the valid prefix, and it is corruption when
// a later record (or the record itself, out of sequence) is a turn/end;
// inside a complete zstd frame, and for a record that reads but is
// invalid, it is corruption at once.
func (ix *index) endPrefix(n int, line []byte, err error, gap bool) {
	switch {
	case ix.torn:
		ix.tornDone = true
		return
	case err != nil && !unreadable(err):
		ix.err = logErr(ix.path, n, ErrCorrupt, "%v", err)
		return
	case ix.zstd:
		ix.err = logErr(ix.path, n, ErrCorrupt, "bad record inside a complete zstd frame")
		return
	}
	ix.stopped, ix.stopAt, ix.stopWhat = true, n, "unreadable line"
	if gap {
		ix.stopWhat = fmt.Sprintf("seq gap (want %d)", ix.next)
		if typeOf(line) == "turn/end" {
			ix.err = logErr(ix.path, n, ErrCorrupt, "%s before a later turn/end", ix.stopWhat)
		}
	}
}

// take folds the next message.
func (ix *index) take(e *event) {
	for w := int(e.seq >> 6); len(ix.ranks) <= w; {
		ix.ranks = append(ix.ranks, ix.count)
	}
	ix.msgs.set(e.seq)
	ix.count++
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
	ix.tlen, ix.kinds = append(ix.tlen, tl), append(ix.kinds, k)
	ix.at, ix.n = append(ix.at, e.at), append(ix.n, e.n)
	if ix.foldErr == nil {
		if ix.fold == nil { // one for all the messages (and its map of cited seqs)
			ix.fold = &folder{path: ix.path, l: ix.runs, toolResult: func(seq int64) bool { return ix.kinds[ix.rank(seq)]&kindToolResult != 0 }}
		}
		ix.foldErr = ix.fold.take(e)
	}
}

// rank is how many messages come before message seq.
func (ix *index) rank(seq int64) int32 {
	w := seq >> 6
	return ix.ranks[w] + int32(bits.OnesCount64(ix.msgs.w[w]&(1<<(seq&63)-1)))
}

// readErr is why the log cannot be read, nil when it can.
func (ix *index) readErr() error {
	switch {
	case ix.err != nil:
		return ix.err
	case ix.lines == 0:
		return logErr(ix.path, 0, ErrHeader, "empty log")
	}
	return ix.foldErr
}

// closers are the crash-repair closers of the log as read so far.
func (ix *index) closers() []event {
	return ix.turns.closers(ix.next - 1)
}

// lastSeq is the seq of the log's last event, closers included; -1 for
// none.
func (ix *index) lastSeq(closers []event) int64 {
	if n := len(closers); n > 0 {
		return closers[n-1].seq
	}
	return ix.next - 1
}

// overCap is the error of a record over one of the caps on what a read
// builds, naming the session and the seq.
func (ix *index) overCap(line int, r record, err error) error {
	seq := r.seq
	if isPacked(r.typ) {
		seq = r.seq0
	}
	id := ""
	if ix.head.ID != nil {
		id = *ix.head.ID
	}
	return logErr(ix.path, line, ErrTooLarge, "session %q, %s at seq %d: %v", id, r.typ, seq, err)
}

// clone is a copy sharing nothing.
func (b bitset) clone() bitset { return bitset{w: slices.Clone(b.w), sum: slices.Clone(b.sum)} }

// clone is a copy over msgs, sharing nothing.
func (l *runList) clone(msgs *bitset) *runList {
	c := *l
	c.msgs, c.starts = msgs, l.starts.clone()
	c.runAt, c.runs, c.free = maps.Clone(l.runAt), slices.Clone(l.runs), slices.Clone(l.free)
	return &c
}
